/* Fixed-base scalar multiplication for one group, stamped out by
 * setup_curves.c (no include guard on purpose).  Expects FB_G (group
 * prefix, e.g. bn254_g1), FB_FE (its coordinate field) and FB_FR (the
 * scalar field).
 *
 * Why: a setup multiplies one generator by millions of scalars.  With the
 * table T[j][d-1] = d·2^(w·j)·G (d = 1..2^w-1) a product is one mixed
 * addition per w-bit window and no doubling, so ~256/w additions instead of
 * the ladder's 256 doublings + 256 additions.  w is chosen from the number
 * of products so that building the table stays a small share of the work.
 * Nothing here is constant-time: the scalars are the setup's own secrets,
 * computed and discarded in this process. */

#define FB_(name)   G16_CAT(FB_G, _fb_##name)
#define GOP_(name)  G16_CAT(FB_G, _##name)
#define FEOP_(name) G16_CAT(FB_FE, _##name)
#define FROP_(name) G16_CAT(FB_FR, _##name)
#define GA          G16_CAT(FB_G, _affine)

typedef struct {
    unsigned w, windows;
    size_t per; /* 2^w - 1 entries per window */
    GA *t;
} FB_(table);

static void FB_(build_windows)(void *arg, size_t begin, size_t end, int worker)
{
    FB_(table) *tb = arg;
    (void)worker;
    FB_G *jac = malloc(tb->per * sizeof *jac);
    FB_FE *scratch = malloc(tb->per * sizeof *scratch);
    if (!jac || !scratch) {
        free(jac);
        free(scratch);
        return;
    } /* t stays zero: caught below */
    for (size_t j = begin; j < end; j++) {
        FB_G base;
        GA base_a;
        GOP_(generator)(&base);
        for (size_t i = 0; i < tb->w * j; i++) GOP_(dbl)(&base, &base);
        GOP_(to_affine)(&base_a, &base);
        jac[0] = base;
        for (size_t d = 1; d < tb->per; d++) GOP_(add_affine)(&jac[d], &jac[d - 1], &base_a);
        GOP_(batch_to_affine)(tb->t + j * tb->per, jac, tb->per, scratch);
    }
    free(jac);
    free(scratch);
}

/* The window minimising windows·(2^w + products), capped at 2^16 entries. */
static unsigned FB_(pick_window)(size_t products, unsigned bits)
{
    unsigned best = 4;
    double best_cost = 1e300;
    for (unsigned w = 4; w <= 16; w++) {
        double cost = (double)((bits + w - 1) / w) * ((double)(1u << w) + (double)products);
        if (cost < best_cost) {
            best_cost = cost;
            best = w;
        }
    }
    return best;
}

static int FB_(build)(FB_(table) * tb, size_t products, unsigned bits, int threads)
{
    tb->w = FB_(pick_window)(products, bits);
    tb->windows = (bits + tb->w - 1) / tb->w;
    tb->per = ((size_t)1 << tb->w) - 1;
    tb->t = calloc(tb->windows * tb->per, sizeof *tb->t);
    if (!tb->t) return -1;
    parallel_for(tb->windows, threads, FB_(build_windows), tb);
    /* A worker without memory leaves its windows zero, i.e. infinity;
     * the first entry of every window is a real point otherwise. */
    for (unsigned j = 0; j < tb->windows; j++)
        if (GOP_(affine_is_infinity)(&tb->t[j * tb->per])) return -1;
    return 0;
}

static void FB_(free)(FB_(table) * tb)
{
    free(tb->t);
    tb->t = NULL;
}

/* Window j's w-bit digit of the plain scalar k. */
static uint64_t FB_(digit)(const FB_(table) * tb, const uint64_t *k, unsigned j)
{
    unsigned o = j * tb->w, limb = o / 64, sh = o % 64;
    uint64_t d = k[limb] >> sh;
    if (sh + tb->w > 64 && limb + 1 < 4) d |= k[limb + 1] << (64 - sh);
    return d & (((uint64_t)1 << tb->w) - 1);
}

/* acc += p in affine form, given 1/(p.x - acc.x). */
static void FB_(add_with_inverse)(GA *acc, const GA *p, const FB_FE *inv)
{
    FB_FE lambda, x3, t;
    FEOP_(sub)(&lambda, &p->y, &acc->y);
    FEOP_(mul)(&lambda, &lambda, inv);
    FEOP_(sqr)(&x3, &lambda);
    FEOP_(sub)(&x3, &x3, &acc->x);
    FEOP_(sub)(&x3, &x3, &p->x);
    FEOP_(sub)(&t, &acc->x, &x3);
    FEOP_(mul)(&t, &t, &lambda);
    FEOP_(sub)(&acc->y, &t, &acc->y);
    acc->x = x3;
}

/* The additions the affine formula cannot take (acc = +-p), through
 * Jacobian coordinates, which handle doubling and infinity.  A guard: for a
 * scalar below r the sum of its low windows is below the next window's
 * multiple and their total below r, so acc = +-p never happens. */
static void FB_(add_general)(GA *acc, const GA *p)
{
    FB_G r;
    GOP_(from_affine)(&r, acc);
    GOP_(add_affine)(&r, &r, p);
    GOP_(to_affine)(acc, &r);
}

#define FB_LANES 1024

/* out_i = k_i·G for m <= FB_LANES scalars, all advancing one window at a
 * time in affine coordinates: each window's additions share one inversion
 * (Montgomery's trick), ~6 products an addition against the mixed Jacobian
 * addition's ~11, and the results need no conversion.  Why: a setup is
 * these additions (at 2^26 constraints 5·2^26 G1 and 2^26 G2 products of
 * 16 each).  Infinity is (0, 0), as in the key. */
static void FB_(mul_lanes)(const FB_(table) * tb, const FB_FR *scalars, size_t m, GA *out)
{
    FB_FR plain[FB_LANES];
    FB_FE den[FB_LANES], pre[FB_LANES], acc, inv, t;
    const GA *add[FB_LANES];
    uint16_t lane[FB_LANES];
    for (size_t i = 0; i < m; i++) {
        FROP_(to_plain)(&plain[i], &scalars[i]);
        memset(&out[i], 0, sizeof out[i]);
    }
    for (unsigned j = 0; j < tb->windows; j++) {
        size_t cnt = 0;
        FEOP_(one)(&acc);
        for (size_t i = 0; i < m; i++) {
            uint64_t d = FB_(digit)(tb, plain[i].v, j);
            if (!d) continue;
            const GA *p = &tb->t[j * tb->per + d - 1];
            if (GOP_(affine_is_infinity)(&out[i])) {
                out[i] = *p;
                continue;
            }
            FEOP_(sub)(&den[cnt], &p->x, &out[i].x);
            if (FEOP_(is_zero)(&den[cnt])) {
                FB_(add_general)(&out[i], p);
                continue;
            }
            pre[cnt] = acc;
            FEOP_(mul)(&acc, &acc, &den[cnt]);
            add[cnt] = p;
            lane[cnt++] = (uint16_t)i;
        }
        if (!cnt) continue;
        FEOP_(inv)(&inv, &acc);
        for (size_t k = cnt; k-- > 0;) {
            FEOP_(mul)(&t, &inv, &pre[k]); /* 1 / den[k] */
            FEOP_(mul)(&inv, &inv, &den[k]);
            FB_(add_with_inverse)(&out[lane[k]], add[k], &t);
        }
    }
}

typedef struct {
    const FB_(table) * tb;
    const FB_FR *scalars;
    GA *out;
} FB_(job);

static void FB_(mul_range)(void *arg, size_t begin, size_t end, int worker)
{
    FB_(job) *job = arg;
    (void)worker;
    for (size_t b = begin; b < end; b += FB_LANES) FB_(mul_lanes)
    (job->tb, job->scalars + b, end - b < FB_LANES ? end - b : FB_LANES, job->out + b);
}

#define FB_BLOCK ((size_t)1 << 15)

/* Writes k_i·G for the n scalars, in blocks: memory stays bounded however
 * many points the section has. */
static int FB_(write_points)(setup_ctx *c, const FB_(table) * tb, const FB_FR *scalars, size_t n)
{
    FB_(job) job = {tb, NULL, malloc(FB_BLOCK * sizeof(GA))};
    int rc = job.out ? 0 : setup_fail(c, "out of memory");
    for (size_t off = 0; !rc && off < n; off += FB_BLOCK) {
        size_t m = n - off < FB_BLOCK ? n - off : FB_BLOCK;
        job.scalars = scalars + off;
        parallel_for(m, c->threads, FB_(mul_range), &job);
        rc = setup_put(c, job.out, m * sizeof(GA));
    }
    free(job.out);
    return rc;
}

#undef FB_
#undef FB_LANES
#undef FB_BLOCK
#undef GOP_
#undef FEOP_
#undef FROP_
#undef GA
#undef FB_G
#undef FB_FE
#undef FB_FR
