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

/* r = k·G for k given as plain little-endian limbs. */
static void FB_(mul)(FB_G *r, const FB_(table) * tb, const uint64_t *k)
{
    uint64_t mask = ((uint64_t)1 << tb->w) - 1;
    GOP_(set_infinity)(r);
    for (unsigned j = 0; j < tb->windows; j++) {
        unsigned o = j * tb->w, limb = o / 64, sh = o % 64;
        uint64_t d = k[limb] >> sh;
        if (sh + tb->w > 64 && limb + 1 < 4) d |= k[limb + 1] << (64 - sh);
        d &= mask;
        if (d) GOP_(add_affine)(r, r, &tb->t[j * tb->per + d - 1]);
    }
}

typedef struct {
    const FB_(table) * tb;
    const FB_FR *scalars;
    FB_G *jac;
    GA *out;
    FB_FE *scratch;
} FB_(job);

static void FB_(mul_range)(void *arg, size_t begin, size_t end, int worker)
{
    FB_(job) *job = arg;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        FB_FR plain;
        FROP_(to_plain)(&plain, &job->scalars[i]);
        FB_(mul)(&job->jac[i], job->tb, plain.v);
    }
    GOP_(batch_to_affine)(job->out + begin, job->jac + begin, end - begin, job->scratch + begin);
}

#define FB_BLOCK ((size_t)1 << 15)

/* Writes k_i·G for the n scalars, in blocks: memory stays bounded however
 * many points the section has. */
static int FB_(write_points)(setup_ctx *c, const FB_(table) * tb, const FB_FR *scalars, size_t n)
{
    _Static_assert(sizeof(GA) == 2 * sizeof(FB_FE), "affine points are x, y back to back");
    FB_(job)
    job = {tb, NULL, malloc(FB_BLOCK * sizeof(FB_G)), malloc(FB_BLOCK * sizeof(GA)),
           malloc(FB_BLOCK * sizeof(FB_FE))};
    int rc = job.jac && job.out && job.scratch ? 0 : setup_fail(c, "out of memory");
    for (size_t off = 0; !rc && off < n; off += FB_BLOCK) {
        size_t m = n - off < FB_BLOCK ? n - off : FB_BLOCK;
        job.scalars = scalars + off;
        parallel_for(m, c->threads, FB_(mul_range), &job);
        rc = setup_put(c, job.out, m * sizeof(GA));
    }
    free(job.jac);
    free(job.out);
    free(job.scratch);
    return rc;
}

#undef FB_
#undef GOP_
#undef FEOP_
#undef FROP_
#undef GA
#undef FB_G
#undef FB_FE
#undef FB_FR
