/* One field's NTT, stamped out by ntt.c (no include guard on purpose).
 * Expects NTT_FR, a field type from field.h; see ntt.c for the layout. */

#define FR       NTT_FR
#define N_(name) G16_CAT(NTT_FR, _##name)

/* ---- roots ------------------------------------------------------------ */

/* The field's 2-adic structure, derived once: r - 1 = 2^s·t (t odd),
 * nqr the smallest non-residue >= 2, root_max = nqr^t. */
static struct {
    FR nqr, root_max;
    unsigned s;
} N_(adic);
static pthread_once_t N_(adic_once) = PTHREAD_ONCE_INIT;

static void N_(adic_init)(void)
{
    uint64_t t[N_(limbs)];
    N_(modulus_minus)(t, 1);
    for (N_(adic).s = 0; !(t[0] & 1); N_(adic).s++) N_(shift_right)(t, 1);
    for (uint64_t k = 2;; k++) {
        N_(from_u64)(&N_(adic).nqr, k);
        if (N_(legendre)(&N_(adic).nqr) == -1) break;
    }
    N_(pow)(&N_(adic).root_max, &N_(adic).nqr, t, N_(limbs));
}

unsigned N_(ntt_max_log)(void)
{
    pthread_once(&N_(adic_once), N_(adic_init));
    return N_(adic).s;
}

int N_(ntt_root)(FR *w, unsigned log_n)
{
    unsigned s = N_(ntt_max_log)();
    if (log_n > s) {
        N_(zero)(w);
        return 0;
    }
    *w = N_(adic).root_max;
    for (unsigned k = s; k > log_n; k--) N_(sqr)(w, w);
    return 1;
}

int N_(coset_shift)(FR *g, unsigned log_n)
{
    unsigned s = N_(ntt_max_log)();
    if (log_n < s) return N_(ntt_root)(g, log_n + 1);
    if (log_n > s) {
        N_(zero)(g);
        return 0;
    }
    N_(sqr)(g, &N_(adic).nqr);
    return 1;
}

/* ---- tables --------------------------------------------------------- */

struct N_(powers_job) {
    FR *out;
    FR base;
};

/* out[k] = base^k: each worker starts from base^begin, then steps. */
static void N_(powers_worker)(void *ctx, size_t begin, size_t end, int worker)
{
    struct N_(powers_job) *job = ctx;
    (void)worker;
    uint64_t e = begin;
    FR cur;
    N_(pow)(&cur, &job->base, &e, 1);
    for (size_t k = begin; k < end; k++) {
        job->out[k] = cur;
        N_(mul)(&cur, &cur, &job->base);
    }
}

static void N_(powers)(FR *out, const FR *base, size_t count, int threads)
{
    struct N_(powers_job) job = {out, *base};
    parallel_for(count, count >= 4096 ? threads : 1, N_(powers_worker), &job);
}

/* ---- butterflies over a sub-transform ------------------------------- */

/* The elements base[mid·2^s0 + lo], mid < 2^g, lo in [lo0, lo1), form
 * independent transforms over stages [s0, s0 + g).  In stage s (span m)
 * the butterfly at offset j of its 2m-block uses w_2m^j = tw[j·n/2m]. */
struct N_(sub) {
    FR *base;
    const FR *tw;
    unsigned log_n, s0, g;
    size_t lo0, lo1;
};

static void N_(dit_stages)(const struct N_(sub) * p)
{
    size_t extent = (size_t)1 << (p->s0 + p->g), step = (size_t)1 << p->s0;
    for (unsigned s = p->s0; s < p->s0 + p->g; s++) {
        size_t m = (size_t)1 << s;
        unsigned shift = p->log_n - 1 - s;
        for (size_t blk = 0; blk < extent; blk += 2 * m)
            for (size_t col = 0; col < m; col += step)
                for (size_t j = col + p->lo0; j < col + p->lo1; j++) {
                    FR *x = p->base + blk + j, *y = x + m, t;
                    size_t k = j << shift;
                    if (k)
                        N_(mul)(&t, y, &p->tw[k]);
                    else
                        t = *y; /* about n of the (n/2)·L twiddles are 1 */
                    N_(sub)(y, x, &t);
                    N_(add)(x, x, &t);
                }
    }
}

/* Inverse DIF: twiddle w^-k = -w^(n/2-k), so y <- (y - x)·tw[n/2 - k];
 * k = 0 (twiddle 1, not in the table) is y <- x - y. */
static void N_(idif_stages)(const struct N_(sub) * p)
{
    size_t extent = (size_t)1 << (p->s0 + p->g), step = (size_t)1 << p->s0;
    size_t half = (size_t)1 << (p->log_n - 1);
    for (unsigned s = p->s0 + p->g; s-- > p->s0;) {
        size_t m = (size_t)1 << s;
        unsigned shift = p->log_n - 1 - s;
        for (size_t blk = 0; blk < extent; blk += 2 * m)
            for (size_t col = 0; col < m; col += step)
                for (size_t j = col + p->lo0; j < col + p->lo1; j++) {
                    FR *x = p->base + blk + j, *y = x + m, d;
                    size_t k = j << shift;
                    if (k)
                        N_(sub)(&d, y, x);
                    else
                        N_(sub)(&d, x, y);
                    N_(add)(x, x, y);
                    if (k)
                        N_(mul)(y, &d, &p->tw[half - k]);
                    else
                        *y = d;
                }
    }
}

/* ---- passes and blocks ---------------------------------------------- */

enum { N_(blocks_scale_none), N_(blocks_scale_inv_n), N_(blocks_coset) };

struct N_(job) {
    FR *a;
    const FR *tw;
    const struct ntt_plan *plan;
    const struct ntt_pass *pass;
    int inverse;
    /* block phase only */
    int mode;
    FR inv_n, g;       /* 1/n and the coset shift */
    const FR *g_table; /* g^(r·2^(L-b)), r < 2^b */
};

/* Sub-transform index -> (column chunk, hi) with hi fastest, so the
 * workers sweep all hi for one set of columns while its twiddles are hot. */
static void N_(pass_worker)(void *ctx, size_t begin, size_t end, int worker)
{
    const struct N_(job) *job = ctx;
    const struct ntt_pass *ps = job->pass;
    unsigned log_n = job->plan->log_n, top = ps->s0 + ps->g;
    size_t n_hi = (size_t)1 << (log_n - top), chunk = (size_t)1 << ps->chunk_log;
    (void)worker;
    for (size_t idx = begin; idx < end; idx++) {
        size_t lo0 = (idx / n_hi) * chunk, hi = idx % n_hi;
        struct N_(sub)
            sub = {job->a + (hi << top), job->tw, log_n, ps->s0, ps->g, lo0, lo0 + chunk};
        if (job->inverse)
            N_(idif_stages)(&sub);
        else
            N_(dit_stages)(&sub);
    }
}

static void N_(run_pass)(struct N_(job) * job, const struct ntt_pass *ps, int threads)
{
    job->pass = ps;
    size_t count = (size_t)1 << (job->plan->log_n - ps->g - ps->chunk_log);
    parallel_for(count, threads, N_(pass_worker), job);
}

/* Block blk holds bit-reversed coefficient positions; position
 * blk·2^b + k carries coefficient i = rev_b(k)·2^(L-b) + rev_(L-b)(blk),
 * whose factor g^i/n splits into a per-block and a per-position part. */
static void N_(scale_coset_block)(const struct N_(job) * job, FR *block, size_t blk)
{
    unsigned log_n = job->plan->log_n, b = job->plan->block_log;
    uint64_t e = ntt_bitrev(blk, log_n - b);
    FR block_factor;
    N_(pow)(&block_factor, &job->g, &e, 1);
    N_(mul)(&block_factor, &block_factor, &job->inv_n);
    for (size_t k = 0; k < ((size_t)1 << b); k++) {
        FR f;
        N_(mul)(&f, &block_factor, &job->g_table[ntt_bitrev(k, b)]);
        N_(mul)(&block[k], &block[k], &f);
    }
}

static void N_(block_worker)(void *ctx, size_t begin, size_t end, int worker)
{
    const struct N_(job) *job = ctx;
    unsigned b = job->plan->block_log;
    size_t size = (size_t)1 << b;
    (void)worker;
    for (size_t blk = begin; blk < end; blk++) {
        struct N_(sub) sub = {job->a + blk * size, job->tw, job->plan->log_n, 0, b, 0, 1};
        if (job->mode == N_(blocks_scale_none)) {
            N_(dit_stages)(&sub);
            continue;
        }
        N_(idif_stages)(&sub);
        if (job->mode == N_(blocks_scale_inv_n)) {
            for (size_t k = 0; k < size; k++) N_(mul)(&sub.base[k], &sub.base[k], &job->inv_n);
            continue;
        }
        N_(scale_coset_block)(job, sub.base, blk);
        N_(dit_stages)(&sub);
    }
}

static void N_(run_blocks)(struct N_(job) * job, int mode, int threads)
{
    job->mode = mode;
    size_t count = (size_t)1 << (job->plan->log_n - job->plan->block_log);
    parallel_for(count, threads, N_(block_worker), job);
}

/* ---- bit reversal --------------------------------------------------- */

struct N_(bitrev_job) {
    FR *a;
    unsigned log_n;
};

static void N_(swap)(FR *a, size_t i, size_t j)
{
    FR t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Tile y is swapped with tile rev(y) by the worker owning the smaller of
 * the two; a self-paired tile swaps only pairs with i < rev(i). */
static void N_(bitrev_worker)(void *ctx, size_t begin, size_t end, int worker)
{
    const struct N_(bitrev_job) *job = ctx;
    unsigned L = job->log_n, mid_bits = L - 2 * NTT_TILE_LOG;
    size_t tile = (size_t)1 << NTT_TILE_LOG;
    (void)worker;
    for (size_t y = begin; y < end; y++) {
        size_t ry = ntt_bitrev(y, mid_bits);
        if (ry < y) continue;
        for (size_t x = 0; x < tile; x++)
            for (size_t z = 0; z < tile; z++) {
                size_t i = (x << (L - NTT_TILE_LOG)) | (y << NTT_TILE_LOG) | z;
                size_t j = (ntt_bitrev(z, NTT_TILE_LOG) << (L - NTT_TILE_LOG)) |
                           (ry << NTT_TILE_LOG) | ntt_bitrev(x, NTT_TILE_LOG);
                if (ry != y || i < j) N_(swap)(job->a, i, j);
            }
    }
}

static void N_(bitrev_permute)(FR *a, unsigned log_n, int threads)
{
    if (log_n < 2 * NTT_TILE_LOG) {
        for (size_t i = 0; i < ((size_t)1 << log_n); i++) {
            size_t j = ntt_bitrev(i, log_n);
            if (i < j) N_(swap)(a, i, j);
        }
        return;
    }
    struct N_(bitrev_job) job = {a, log_n};
    parallel_for((size_t)1 << (log_n - 2 * NTT_TILE_LOG), threads, N_(bitrev_worker), &job);
}

/* ---- transforms ----------------------------------------------------- */

/* Twiddles w^k, k < n/2, for log_n >= 1; NULL when out of memory. */
static FR *N_(twiddles)(unsigned log_n, int threads)
{
    size_t half = (size_t)1 << (log_n - 1);
    FR *tw = ntt_alloc(half * sizeof *tw), w;
    if (!tw) return NULL;
    N_(ntt_root)(&w, log_n);
    N_(powers)(tw, &w, half, threads);
    return tw;
}

static void N_(inv_size)(FR *inv_n, unsigned log_n)
{
    N_(from_u64)(inv_n, (uint64_t)1 << log_n);
    N_(inv)(inv_n, inv_n);
}

int N_(ntt_shaped)(FR *a, unsigned log_n, int threads, const struct ntt_shape *shape)
{
    if (log_n > N_(ntt_max_log)()) return 0;
    if (log_n == 0) return 1;
    struct ntt_plan plan;
    ntt_plan_make(&plan, log_n, shape);
    struct N_(job) job = {.a = a, .plan = &plan, .inverse = 0};
    FR *tw = N_(twiddles)(log_n, threads);
    if (!tw) return 0;
    job.tw = tw;
    N_(bitrev_permute)(a, log_n, threads);
    N_(run_blocks)(&job, N_(blocks_scale_none), threads);
    for (unsigned i = 0; i < plan.n_passes; i++) N_(run_pass)(&job, &plan.pass[i], threads);
    free(tw);
    return 1;
}

int N_(intt_shaped)(FR *a, unsigned log_n, int threads, const struct ntt_shape *shape)
{
    if (log_n > N_(ntt_max_log)()) return 0;
    if (log_n == 0) return 1;
    struct ntt_plan plan;
    ntt_plan_make(&plan, log_n, shape);
    struct N_(job) job = {.a = a, .plan = &plan, .inverse = 1};
    FR *tw = N_(twiddles)(log_n, threads);
    if (!tw) return 0;
    job.tw = tw;
    N_(inv_size)(&job.inv_n, log_n);
    for (unsigned i = plan.n_passes; i-- > 0;) N_(run_pass)(&job, &plan.pass[i], threads);
    N_(run_blocks)(&job, N_(blocks_scale_inv_n), threads);
    N_(bitrev_permute)(a, log_n, threads);
    free(tw);
    return 1;
}

int N_(coset_odd_shaped)(FR *a, unsigned log_n, int threads, const struct ntt_shape *shape)
{
    if (log_n > N_(ntt_max_log)()) return 0;
    if (log_n == 0) return 1;
    struct ntt_plan plan;
    ntt_plan_make(&plan, log_n, shape);
    struct N_(job) job = {.a = a, .plan = &plan};
    size_t block = (size_t)1 << plan.block_log;
    FR *tw = N_(twiddles)(log_n, threads), *g_table = ntt_alloc(block * sizeof *g_table);
    if (!tw || !g_table) {
        free(tw);
        free(g_table);
        return 0;
    }
    job.tw = tw;
    job.g_table = g_table;
    N_(inv_size)(&job.inv_n, log_n);
    N_(coset_shift)(&job.g, log_n);
    FR g_step = job.g; /* g^(2^(L-b)) */
    for (unsigned k = plan.block_log; k < log_n; k++) N_(sqr)(&g_step, &g_step);
    N_(powers)(g_table, &g_step, block, threads);

    job.inverse = 1;
    for (unsigned i = plan.n_passes; i-- > 0;) N_(run_pass)(&job, &plan.pass[i], threads);
    N_(run_blocks)(&job, N_(blocks_coset), threads);
    job.inverse = 0;
    for (unsigned i = 0; i < plan.n_passes; i++) N_(run_pass)(&job, &plan.pass[i], threads);
    free(tw);
    free(g_table);
    return 1;
}

int N_(ntt)(FR *a, unsigned log_n, int threads)
{
    return N_(ntt_shaped)(a, log_n, threads, &ntt_default_shape);
}

int N_(intt)(FR *a, unsigned log_n, int threads)
{
    return N_(intt_shaped)(a, log_n, threads, &ntt_default_shape);
}

int N_(coset_odd)(FR *a, unsigned log_n, int threads)
{
    return N_(coset_odd_shaped)(a, log_n, threads, &ntt_default_shape);
}

#undef N_
#undef FR
#undef NTT_FR
