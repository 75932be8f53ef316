/* Pippenger MSM for one group, stamped out by msm.c (no include guard on
 * purpose).  Expects MSM_G (group prefix), MSM_FE (coordinate field) and
 * MSM_INV_COST (an inversion's cost in MSM_FE multiplications).
 *
 * Steps, each spread over all threads with parallel_for:
 * 1. scan: classify scalars.  0 is skipped, 1 is added straight into a
 *    per-thread sum (real witnesses are mostly bits, and a bucket pass would
 *    cost nwin additions per such point instead of one; M_(scan) says how
 *    that sum is batched), and the rest are listed by index for Pippenger.
 *    Also records the largest bit length (fewer windows for short scalars).
 * 1b. GLV (when M_(choose) picks it): each listed scalar becomes two
 *    128-bit halves, for P and for phi(P) = (beta·x, y), so half as many
 *    windows share the buckets.
 * 2. tiles: every (window, point range) pair fills its own 2^(c-1) buckets
 *    with signed digits (a negative digit adds -P, so half the buckets do)
 *    and reduces them by running sums to one point.  Splitting points as
 *    well as windows keeps every core busy whatever nwin is.
 * 3. combine: Horner over windows (c doublings each), adding the parts of a
 *    window in a fixed order, then the 1-scalar sum; the result is made
 *    affine so that it is the same bits whatever the thread count. */

#define G_(name)  G16_CAT(MSM_G, _##name)
#define FE_(name) G16_CAT(MSM_FE, _##name)
#define M_(name)  G16_CAT(MSM_G, _msm_##name)
#define AFF       G16_CAT(MSM_G, _affine)
#define XYZZ      G16_CAT(MSM_G, _xyzz)

#include "msm/msm_xyzz.h"
#include "msm/msm_buckets.h"

struct M_(scan_out) {
    size_t begin, count; /* this chunk's Pippenger indices: idx[begin..+count) */
    uint64_t bits_or[4]; /* OR of those scalars: its length is the max length */
    XYZZ ones;           /* sum of the points whose scalar is 1 */
    int used;
};

struct M_(ctx) {
    const uint8_t *points, *scalars;
    uint32_t *idx;        /* Pippenger scalars' positions, ascending */
    size_t m;             /* how many */
    size_t nv;            /* Pippenger entries: m, or 2m with GLV */
    uint64_t (*glv_k)[4]; /* GLV (NULL without): per scalar |k1|, |k2| */
    uint8_t *glv_sign;    /* bit h: half h is negative */
    MSM_FE *glv_x;        /* beta·x of each point, the x of phi(P) */
    struct M_(scan_out) * scan;
    struct msm_plan plan;
    msm_wide offset; /* H of msm_recode_offset */
    char *scratch;   /* per worker: one struct buckets' arrays (the
                                scan's 1-scalar sums, then the tiles') */
    size_t scratch_stride, batch, ones_nb;
    XYZZ *partial; /* per tile: sum over its buckets of digit·bucket */
};

static inline void M_(load_point)(AFF *p, const uint8_t *points, size_t i)
{
    memcpy(p, points + sizeof(AFF) * i, sizeof *p);
}

/* The 1-scalar points go round-robin into up to MSM_ONES_BUCKETS affine
 * buckets: consecutive points hit distinct buckets, so a batch of additions
 * shares one inversion without collisions (~6.5M a point against 10M for
 * XYZZ).  Small inputs get fewer buckets and, below 256, plain XYZZ. */
#define MSM_ONES_BUCKETS 2048

static void M_(scan)(void *vctx, size_t begin, size_t end, int worker)
{
    struct M_(ctx) *ctx = vctx;
    struct M_(scan_out) *out = &ctx->scan[worker];
    struct M_(buckets) ones;
    size_t next_bucket = 0;
    uint64_t k[4];
    AFF pt;
    memset(out, 0, sizeof *out);
    out->begin = begin;
    out->used = 1;
    M_(buckets_init)
    (&ones, ctx->scratch + (size_t)worker * ctx->scratch_stride, ctx->ones_nb,
     ctx->ones_nb >= 256 ? ctx->ones_nb / 2 : 0);
    M_(buckets_clear)(&ones);
    for (size_t i = begin; i < end; i++) {
        msm_load_scalar(k, ctx->scalars, i);
        int cls = msm_scalar_class(k);
        if (cls == 0) continue;
        if (cls == 1) {
            M_(load_point)(&pt, ctx->points, i);
            if (G_(affine_is_infinity)(&pt)) continue;
            M_(buckets_add)(&ones, next_bucket, &pt);
            next_bucket = (next_bucket + 1) % ctx->ones_nb;
            continue;
        }
        ctx->idx[begin + out->count++] = (uint32_t)i;
        for (int j = 0; j < 4; j++) out->bits_or[j] |= k[j];
    }
    M_(buckets_sum)(&out->ones, &ones);
}

/* Pippenger entry v: scalar idx[v] with its point, or with GLV half v & 1
 * of scalar idx[v >> 1], with P for half 0 and phi(P) for half 1; *neg
 * says the half is negative (its point is to be negated). */
static inline void M_(entry_scalar)(const struct M_(ctx) * ctx, size_t v, uint64_t k[4], int *neg)
{
    if (!ctx->glv_k) {
        msm_load_scalar(k, ctx->scalars, ctx->idx[v]);
        *neg = 0;
        return;
    }
    const uint64_t *h = ctx->glv_k[v >> 1] + 2 * (v & 1);
    k[0] = h[0];
    k[1] = h[1];
    k[2] = k[3] = 0;
    *neg = ctx->glv_sign[v >> 1] >> (v & 1) & 1;
}

static inline void M_(entry_point)(const struct M_(ctx) * ctx, size_t v, AFF *pt)
{
    if (!ctx->glv_k) {
        M_(load_point)(pt, ctx->points, ctx->idx[v]);
        return;
    }
    M_(load_point)(pt, ctx->points, ctx->idx[v >> 1]);
    if (v & 1) pt->x = ctx->glv_x[v >> 1];
}

/* Adds the Pippenger entries [lo, hi) into buckets by their digit in window w.
 * Works in blocks: digits first, prefetching each target bucket, then the
 * additions, so the random bucket reads (buckets outgrow L2 at large c)
 * overlap instead of stalling one at a time. */
#define MSM_BLOCK 32
static void M_(fill_buckets)(const struct M_(ctx) * ctx, struct M_(buckets) * b, int w, size_t lo,
                             size_t hi)
{
    uint64_t k[4];
    msm_wide K;
    AFF pt;
    int digit[MSM_BLOCK], neg[MSM_BLOCK];
    for (size_t base = lo; base < hi; base += MSM_BLOCK) {
        size_t len = hi - base < MSM_BLOCK ? hi - base : MSM_BLOCK;
        for (size_t i = 0; i < len; i++) {
            M_(entry_scalar)(ctx, base + i, k, &neg[i]);
            msm_add_offset(&K, k, &ctx->offset);
            int d = digit[i] = msm_digit(&K, w, ctx->plan.c);
            size_t j = (size_t)(d < 0 ? -d : d) - 1;
            if (d) {
                __builtin_prefetch(&b->bucket[j]);
                __builtin_prefetch((const char *)&b->bucket[j + 1] - 1);
                __builtin_prefetch(&b->state[j]);
            }
        }
        for (size_t i = 0; i < len; i++) {
            int d = digit[i];
            if (d == 0) continue;
            M_(entry_point)(ctx, base + i, &pt);
            if (G_(affine_is_infinity)(&pt)) continue;
            if ((d < 0) != neg[i]) FE_(neg)(&pt.y, &pt.y);
            M_(buckets_add)(b, (size_t)(d < 0 ? -d : d) - 1, &pt);
        }
    }
}
#undef MSM_BLOCK

static void M_(tiles)(void *vctx, size_t begin, size_t end, int worker)
{
    struct M_(ctx) *ctx = vctx;
    size_t parts = (size_t)ctx->plan.parts;
    struct M_(buckets) b;
    M_(buckets_init)
    (&b, ctx->scratch + (size_t)worker * ctx->scratch_stride, (size_t)1 << (ctx->plan.c - 1),
     ctx->batch);
    for (size_t t = begin; t < end; t++) {
        size_t p = t % parts;
        M_(buckets_clear)(&b);
        M_(fill_buckets)(ctx, &b, (int)(t / parts), ctx->nv * p / parts, ctx->nv * (p + 1) / parts);
        M_(buckets_reduce)(&ctx->partial[t], &b);
    }
}

/* Horner over the windows: acc = sum_w 2^(wc)·(window w's parts). */
static void M_(combine)(XYZZ *acc, const struct M_(ctx) * ctx)
{
    M_(xyzz_set_inf)(acc);
    for (int w = ctx->plan.nwin - 1; w >= 0; w--) {
        if (!M_(xyzz_is_inf)(acc))
            for (int i = 0; i < ctx->plan.c; i++) M_(xyzz_dbl)(acc, acc);
        for (int p = 0; p < ctx->plan.parts; p++)
            M_(xyzz_add)(acc, &ctx->partial[(size_t)w * (size_t)ctx->plan.parts + (size_t)p]);
    }
}

/* Joins the scan chunks: moves each chunk's indices down so idx is one
 * ascending list, sums the 1-scalar points and returns the bit length. */
static int M_(gather_scan)(struct M_(ctx) * ctx, int workers, XYZZ *ones)
{
    uint64_t bits_or[4] = {0};
    ctx->m = 0;
    M_(xyzz_set_inf)(ones);
    for (size_t pos = 0;;) { /* chunks in ascending order of begin */
        struct M_(scan_out) *next = NULL;
        for (int w = 0; w < workers; w++)
            if (ctx->scan[w].used && ctx->scan[w].begin >= pos &&
                (!next || ctx->scan[w].begin < next->begin))
                next = &ctx->scan[w];
        if (!next) break;
        memmove(ctx->idx + ctx->m, ctx->idx + next->begin, next->count * sizeof *ctx->idx);
        ctx->m += next->count;
        for (int j = 0; j < 4; j++) bits_or[j] |= next->bits_or[j];
        M_(xyzz_add)(ones, &next->ones);
        pos = next->begin + 1;
    }
    for (int j = 3; j >= 0; j--)
        if (bits_or[j]) return 64 * j + 64 - __builtin_clzll(bits_or[j]);
    return 0;
}

/* GLV preparation of the listed scalars [begin, end): split, and phi's x. */
static void M_(glv_prep)(void *vctx, size_t begin, size_t end, int worker)
{
    struct M_(ctx) *ctx = vctx;
    static const MSM_BETA_FE beta = MSM_BETA;
    uint64_t k[4];
    AFF pt;
    (void)worker;
    for (size_t j = begin; j < end; j++) {
        uint64_t m[2][2];
        msm_load_scalar(k, ctx->scalars, ctx->idx[j]);
        ctx->glv_sign[j] = (uint8_t)msm_glv_split(MSM_GLV, k, m);
        memcpy(ctx->glv_k[j], m, sizeof m);
        M_(load_point)(&pt, ctx->points, ctx->idx[j]);
        MSM_BETA_MUL(&ctx->glv_x[j], &pt.x, &beta); /* infinity (0, 0) stays (0, 0) */
    }
}

/* Multiplications per scalar for glv_prep: the split (~2) and beta·x. */
#define MSM_GLV_PREP_COST 3.0

/* The plan for m Pippenger scalars of at most `bits` bits: *plain without
 * GLV, *glv with it; returns 1 when GLV is the one to use, that is when
 * the model finds it at least 3% cheaper (small and medium MSMs, where
 * bucket reductions weigh; at 2^20 dense points it is not, and then it
 * would only cost memory).  The decision alone, shared by M_(choose) and
 * the memory estimate M_(scratch_bytes). */
static int M_(decide)(struct msm_plan *plain, struct msm_plan *glv, size_t m, int bits, int threads)
{
    size_t bb = sizeof(AFF) + sizeof(XYZZ) + 1;
    *plain = *glv = msm_choose_plan(m, bits, threads, bb, MSM_INV_COST);
    if (msm_glv_force < 0 || bits <= MSM_GLV_BITS || m > ((size_t)1 << 30)) return 0;
    *glv = msm_choose_plan(2 * m, MSM_GLV_BITS, threads, bb, MSM_INV_COST);
    return msm_glv_force ||
           glv->cost + MSM_GLV_PREP_COST * (double)m / threads < 0.97 * plain->cost;
}

/* GLV's arrays per listed scalar: both halves, their signs, phi's x. */
#define MSM_GLV_SCALAR_BYTES (4 * sizeof(uint64_t) + 1 + sizeof(MSM_FE))

/* Chooses the plan (M_(decide)) and, for GLV, splits the scalars; without
 * memory for GLV's arrays it goes on without GLV. */
static void M_(choose)(struct M_(ctx) * ctx, int bits, int threads)
{
    struct msm_plan glv;
    int use_glv = M_(decide)(&ctx->plan, &glv, ctx->m, bits, threads);
    ctx->nv = ctx->m;
    if (!use_glv) return;
    ctx->glv_k = malloc(ctx->m * sizeof *ctx->glv_k);
    ctx->glv_sign = malloc(ctx->m);
    ctx->glv_x = malloc(ctx->m * sizeof *ctx->glv_x);
    if (!ctx->glv_k || !ctx->glv_sign || !ctx->glv_x) { /* fine without */
        free(ctx->glv_k);
        free(ctx->glv_sign);
        free(ctx->glv_x);
        ctx->glv_k = NULL;
        ctx->glv_sign = NULL;
        ctx->glv_x = NULL;
        return;
    }
    parallel_for(ctx->m, parallel_threads_for(threads, ctx->m), M_(glv_prep), ctx);
    ctx->plan = glv;
    ctx->nv = 2 * ctx->m;
}

/* The tiles' scratch for a plan: workers, the batch size and each
 * worker's stride (its buckets on their own cache lines). */
struct M_(tile_mem) {
    size_t nb, tiles, workers, batch, stride;
};

static struct M_(tile_mem) M_(tile_mem)(const struct msm_plan *plan, int threads)
{
    struct M_(tile_mem) t;
    t.nb = (size_t)1 << (plan->c - 1);
    t.tiles = (size_t)plan->nwin * (size_t)plan->parts;
    t.workers = (size_t)parallel_threads_for(threads, t.tiles);
    t.batch = msm_batch_size(t.nb, MSM_INV_COST);
    t.stride = (M_(buckets_bytes)(t.nb, t.batch) + 63) & ~(size_t)63;
    return t;
}

/* Pippenger over the listed scalars into acc; 0 when out of memory. */
static int M_(pippenger)(XYZZ *acc, struct M_(ctx) * ctx, int bits, int threads)
{
    M_(choose)(ctx, bits, threads);
    msm_recode_offset(&ctx->offset, ctx->plan.c, ctx->plan.nwin);
    struct M_(tile_mem) tm = M_(tile_mem)(&ctx->plan, threads);
    ctx->batch = tm.batch;
    ctx->scratch_stride = tm.stride;
    ctx->scratch = aligned_alloc(64, tm.workers * tm.stride);
    ctx->partial = malloc(tm.tiles * sizeof(XYZZ));
    int ok = ctx->scratch && ctx->partial;
    if (ok) {
        parallel_for(tm.tiles, (int)tm.workers, M_(tiles), ctx);
        M_(combine)(acc, ctx);
    }
    free(ctx->scratch);
    free(ctx->partial);
    free(ctx->glv_k);
    free(ctx->glv_sign);
    free(ctx->glv_x);
    ctx->scratch = NULL;
    ctx->partial = NULL;
    ctx->glv_k = NULL;
    ctx->glv_sign = NULL;
    ctx->glv_x = NULL;
    return ok;
}

/* Each scan worker's buckets for the 1-scalar points, on cache lines. */
static size_t M_(ones_stride)(size_t ones_nb)
{
    return (M_(buckets_bytes)(ones_nb, ones_nb / 2) + 63) & ~(size_t)63;
}

/* Whole MSM with n < 2^32 (idx is 32-bit); 0 when out of memory. */
static int M_(run)(MSM_G *out, const uint8_t *points, const uint8_t *scalars, size_t n, int threads)
{
    struct M_(ctx) ctx = {.points = points, .scalars = scalars};
    int workers = parallel_threads_for(threads, n);
    ctx.idx = malloc(n * sizeof *ctx.idx);
    ctx.scan = calloc((size_t)workers, sizeof *ctx.scan);
    ctx.ones_nb = n < MSM_ONES_BUCKETS ? n : MSM_ONES_BUCKETS;
    ctx.scratch_stride = M_(ones_stride)(ctx.ones_nb);
    ctx.scratch = aligned_alloc(64, (size_t)workers * ctx.scratch_stride);
    int ok = ctx.idx && ctx.scan && ctx.scratch;
    if (ok) {
        XYZZ ones, acc;
        parallel_for(n, workers, M_(scan), &ctx);
        free(ctx.scratch);
        ctx.scratch = NULL;
        int bits = M_(gather_scan)(&ctx, workers, &ones);
        M_(xyzz_set_inf)(&acc);
        if (ctx.m) ok = M_(pippenger)(&acc, &ctx, bits, threads);
        M_(xyzz_add)(&acc, &ones);
        M_(xyzz_to_jacobian)(out, &acc);
    }
    free(ctx.idx);
    free(ctx.scan);
    free(ctx.scratch);
    return ok;
}

/* The same point with Z = 1 (or the canonical infinity). */
static void M_(normalise)(MSM_G *p)
{
    AFF a;
    G_(to_affine)(&a, p);
    G_(from_affine)(p, &a);
}

void G_(msm_naive)(MSM_G *out, const uint8_t *points, const uint8_t *scalars, size_t n)
{
    G_(set_infinity)(out);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        AFF a;
        MSM_G p, t;
        int limbs = 4;
        msm_load_scalar(k, scalars, i);
        while (limbs > 0 && k[limbs - 1] == 0) limbs--; /* the ladder walks every bit */
        if (limbs == 0) continue;
        M_(load_point)(&a, points, i);
        G_(from_affine)(&p, &a);
        G_(mul)(&t, &p, k, limbs);
        G_(add)(out, out, &t);
    }
    M_(normalise)(out);
}

/* Below this many points thread start-up costs more than it saves. */
#define MSM_MIN_PER_THREAD 64

/* The threads an MSM of n points uses. */
static int M_(threads)(size_t n, int threads)
{
    if (threads <= 0) threads = parallel_default_threads();
    if ((size_t)threads > n / MSM_MIN_PER_THREAD) threads = (int)(n / MSM_MIN_PER_THREAD) + 1;
    return threads;
}

/* The most bytes the Pippenger stage takes for any count m <= n of
 * scalars that are neither 0 nor 1 (which the data decides): the plan of
 * M_(decide) at m = n, n/sqrt2, n/2, ... and, where GLV is chosen at m,
 * its arrays for the next sample up, since GLV may be chosen up to there.
 * Scalars are taken as 256 bits, the most the MSM accepts: that maximises
 * windows and makes GLV most likely. */
static size_t M_(pippenger_bytes)(size_t n, int threads)
{
    size_t most = 0, above = n;
    for (size_t m = n; m > 0; above = m, m = m * 181 / 256) {
        struct msm_plan plan[2];
        int use_glv = M_(decide)(&plan[0], &plan[1], m, 256, threads);
        for (int g = 0; g <= use_glv; g++) { /* GLV falls back to plain without memory */
            struct M_(tile_mem) t = M_(tile_mem)(&plan[g], threads);
            size_t bytes = t.workers * t.stride + t.tiles * sizeof(XYZZ) +
                           (g ? above * MSM_GLV_SCALAR_BYTES : 0);
            if (bytes > most) most = bytes;
        }
    }
    return most;
}

size_t G_(msm_scratch_bytes)(size_t n, int threads)
{
    threads = M_(threads)(n, threads);
    if (n > ((size_t)1 << 31))
        return G_(msm_scratch_bytes)(n - n / 2, threads); /* halves in turn */
    if (n <= 1) return 0;
    size_t workers = (size_t)parallel_threads_for(threads, n);
    size_t ones_nb = n < MSM_ONES_BUCKETS ? n : MSM_ONES_BUCKETS;
    /* idx and scan live throughout, as do parallel_for's per-call arrays
     * (a job, a thread id and a flag per thread: 64 bytes covers them) */
    size_t held =
        n * sizeof(uint32_t) + workers * sizeof(struct M_(scan_out)) + (size_t)threads * 64;
    size_t scan = workers * M_(ones_stride)(ones_nb), pip = M_(pippenger_bytes)(n, threads);
    return held + (scan > pip ? scan : pip);
}

void G_(msm)(MSM_G *out, const uint8_t *points, const uint8_t *scalars, size_t n, int threads)
{
    threads = M_(threads)(n, threads);
    /* Halve when idx cannot index n points or memory is short: each half
     * needs half the scratch, and a single point needs none. */
    if (n > ((size_t)1 << 31) || (n > 1 && !M_(run)(out, points, scalars, n, threads))) {
        MSM_G lo, hi;
        size_t h = n / 2;
        G_(msm)(&lo, points, scalars, h, threads);
        G_(msm)(&hi, points + h * sizeof(AFF), scalars + h * 32, n - h, threads);
        G_(add)(out, &lo, &hi);
    } else if (n <= 1) {
        G_(msm_naive)(out, points, scalars, n);
        return;
    }
    M_(normalise)(out);
}

#undef MSM_MIN_PER_THREAD
#undef MSM_ONES_BUCKETS
#undef G_
#undef FE_
#undef M_
#undef AFF
#undef XYZZ
#undef MSM_G
#undef MSM_FE
#undef MSM_INV_COST
#undef MSM_GLV
#undef MSM_BETA
#undef MSM_BETA_FE
#undef MSM_BETA_MUL
#undef MSM_GLV_PREP_COST
#undef MSM_GLV_SCALAR_BYTES
