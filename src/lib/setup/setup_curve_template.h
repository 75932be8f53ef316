/* The arithmetic of the setup for one curve, stamped out by setup_curves.c
 * (no include guard on purpose).  Expects SC (prefix: bn254, bls12_381),
 * SC_FR, SC_G1, SC_G2 (type prefixes) and SC_FR_BITS.
 *
 * With toxic waste tau, alpha, beta, gamma, delta and L_c the Lagrange basis
 * of the n-th roots of unity, signal s gets
 *   A_s = sum_c A[c][s] L_c(tau)  (+ L_{nC+s}(tau) for the public rows)
 *   B_s = sum_c B[c][s] L_c(tau),  C_s = sum_c C[c][s] L_c(tau)
 *   K_s = beta A_s + alpha B_s + C_s, over gamma (public) or delta (private)
 * and row i of H is L'_{2i+1}(tau)/delta, L' the basis of the 2n-th roots:
 * the prover evaluates h on the odd coset, and p = ab - c vanishes on the
 * even points, so sum_i h_i L'_{2i+1}(tau) = p(tau) = h(tau) Z(tau). */

#define S_(name)   G16_CAT(SC, _setup_##name)
#define FR_(name)  G16_CAT(SC_FR, _##name)
#define G1_(name)  G16_CAT(SC_G1, _##name)
#define G2_(name)  G16_CAT(SC_G2, _##name)
#define G1A        G16_CAT(SC_G1, _affine)
#define G2A        G16_CAT(SC_G2, _affine)
#define FB1_(name) G16_CAT(SC_G1, _fb_##name)
#define FB2_(name) G16_CAT(SC_G2, _fb_##name)

typedef struct {
    setup_ctx *c;
    SC_FR tau, alpha, beta, gamma, delta;
    SC_FR root;       /* primitive 2n-th root of unity (the coset shift) */
    SC_FR *lag;       /* L_c(tau), later the H scalars */
    SC_FR *a, *b, *k; /* per signal */
} S_(state);

/* A uniform non-zero scalar by rejection from 32 random bytes. */
static int S_(draw)(S_(state) * s, const char *label, SC_FR *out)
{
    uint8_t bytes[32];
    for (uint32_t ctr = 0;; ctr++) {
        if (setup_draw(s->c, label, ctr, bytes)) return -1;
        if (SC_FR_BITS % 8) bytes[31] &= (uint8_t)((1u << (SC_FR_BITS % 8)) - 1);
        if (FR_(from_bytes)(out, bytes) && !FR_(is_zero)(out)) return 0;
    }
}

/* nqr^((r-1)/2^k) with nqr the smallest quadratic non-residue, as
 * ffjavascript computes its roots: the prover's NTT must use the same. */
static void S_(root_of_unity)(SC_FR *w, unsigned log_order)
{
    SC_FR nqr;
    uint64_t e[4];
    for (uint64_t q = 2;; q++) {
        FR_(from_u64)(&nqr, q);
        if (FR_(legendre)(&nqr) == -1) break;
    }
    FR_(modulus_minus)(e, 1);
    FR_(shift_right)(e, (int)log_order);
    FR_(pow)(w, &nqr, e, 4);
}

static void S_(pow_u64)(SC_FR *r, const SC_FR *a, uint64_t e) { FR_(pow)(r, a, &e, 1); }

typedef struct {
    SC_FR *out;
    SC_FR factor, x0, step;
} S_(inv_job);

/* out_i = factor / (x0 step^i - 1), by batch inversion in blocks of 256. */
static void S_(inv_range)(void *arg, size_t begin, size_t end, int worker)
{
    S_(inv_job) *j = arg;
    SC_FR x, one, prod[256], inv, t;
    (void)worker;
    FR_(one)(&one);
    S_(pow_u64)(&x, &j->step, begin);
    FR_(mul)(&x, &x, &j->x0);
    for (size_t b = begin; b < end; b += 256) {
        size_t m = end - b < 256 ? end - b : 256;
        for (size_t i = 0; i < m; i++) {
            FR_(sub)(&j->out[b + i], &x, &one);
            FR_(mul)(&x, &x, &j->step);
            if (i == 0)
                prod[0] = j->out[b];
            else
                FR_(mul)(&prod[i], &prod[i - 1], &j->out[b + i]);
        }
        FR_(inv)(&inv, &prod[m - 1]);
        FR_(mul)(&inv, &inv, &j->factor);
        for (size_t i = m; i-- > 1;) {
            FR_(mul)(&t, &inv, &prod[i - 1]);
            FR_(mul)(&inv, &inv, &j->out[b + i]);
            j->out[b + i] = t;
        }
        j->out[b] = inv;
    }
}

/* (tau^m - 1) / m for the domain of size m. */
static void S_(vanishing_over_size)(SC_FR *r, const SC_FR *tau, uint64_t m)
{
    SC_FR one, size;
    FR_(one)(&one);
    S_(pow_u64)(r, tau, m);
    FR_(sub)(r, r, &one);
    FR_(from_u64)(&size, m);
    FR_(inv)(&size, &size);
    FR_(mul)(r, r, &size);
}

static void S_(lagrange)(S_(state) * s)
{
    S_(inv_job) j = {s->lag, {{0}}, s->tau, {{0}}};
    SC_FR w;
    FR_(sqr)(&w, &s->root);
    FR_(inv)(&j.step, &w);
    S_(vanishing_over_size)(&j.factor, &s->tau, s->c->domain);
    parallel_for(s->c->domain, s->c->threads, S_(inv_range), &j);
}

/* H scalars into lag (no longer needed by then). */
static void S_(h_scalars)(S_(state) * s)
{
    S_(inv_job) j = {s->lag, {{0}}, {{0}}, {{0}}};
    SC_FR w, ginv, dinv;
    FR_(sqr)(&w, &s->root);
    FR_(inv)(&j.step, &w);
    FR_(inv)(&ginv, &s->root);
    FR_(mul)(&j.x0, &s->tau, &ginv);
    S_(vanishing_over_size)(&j.factor, &s->tau, 2ULL * s->c->domain);
    FR_(inv)(&dinv, &s->delta);
    FR_(mul)(&j.factor, &j.factor, &dinv);
    parallel_for(s->c->domain, s->c->threads, S_(inv_range), &j);
}

static int S_(is_plain_one)(const uint8_t *b)
{
    static const uint8_t one[32] = {1};
    return !memcmp(b, one, 32);
}

/* Each worker owns the signals [lo, hi) and scans every constraint, so the
 * scatter into a, b, k needs no locks and the sums are deterministic. */
static void S_(accumulate_range)(void *arg, size_t lo, size_t hi, int worker)
{
    S_(state) *s = arg;
    const r1cs *r = &s->c->r;
    SC_FR *dst[3] = {s->a, s->b, s->k}, coef, t;
    r1cs_iter it;
    r1cs_lc lc[3];
    (void)worker;
    r1cs_iter_init(&it, r);
    while (r1cs_iter_next(&it, lc) == 1) {
        const SC_FR *l = &s->lag[it.index - 1];
        for (int m = 0; m < 3; m++)
            for (uint32_t i = 0; i < lc[m].n_terms; i++) {
                uint32_t wire = r1cs_term_wire(r, &lc[m], i);
                if (wire < lo || wire >= hi) continue;
                const uint8_t *v = r1cs_term_value(r, &lc[m], i);
                if (S_(is_plain_one)(v))
                    t = *l;
                else {
                    FR_(from_bytes)(&coef, v);
                    FR_(mul)(&t, &coef, l);
                }
                FR_(add)(&dst[m][wire], &dst[m][wire], &t);
            }
    }
    for (size_t sig = lo; sig < hi && sig <= s->c->n_public; sig++)
        FR_(add)(&s->a[sig], &s->a[sig], &s->lag[s->c->n_constraints + sig]);
}

static void S_(combine_range)(void *arg, size_t lo, size_t hi, int worker)
{
    S_(state) *s = arg;
    SC_FR ginv, dinv, t;
    (void)worker;
    FR_(inv)(&ginv, &s->gamma);
    FR_(inv)(&dinv, &s->delta);
    for (size_t i = lo; i < hi; i++) {
        FR_(mul)(&t, &s->beta, &s->a[i]);
        FR_(add)(&s->k[i], &s->k[i], &t);
        FR_(mul)(&t, &s->alpha, &s->b[i]);
        FR_(add)(&s->k[i], &s->k[i], &t);
        FR_(mul)(&s->k[i], &s->k[i], i <= s->c->n_public ? &ginv : &dinv);
    }
}

static void S_(put_u32)(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* One section-4 entry: matrix, constraint, signal, c·R² mod r (the
 * Montgomery form of c·R, so the prover's one Montgomery product with a
 * plain witness value lands in Montgomery form). */
static int S_(put_coef)(setup_ctx *c, uint32_t m, uint32_t row, uint32_t sig, const uint8_t *plain)
{
    uint8_t e[12 + 32];
    SC_FR v;
    S_(put_u32)(e, m);
    S_(put_u32)(e + 4, row);
    S_(put_u32)(e + 8, sig);
    FR_(from_bytes)(&v, plain);
    FR_(from_plain)(&v, &v);
    memcpy(e + 12, v.v, 32);
    return setup_put(c, e, sizeof e);
}

static int S_(write_coefs)(setup_ctx *c)
{
    static const uint8_t one[32] = {1};
    const r1cs *r = &c->r;
    uint8_t n[4];
    r1cs_iter it;
    r1cs_lc lc[3];
    S_(put_u32)(n, c->n_coefs);
    if (setup_section(c, 4, 4 + (uint64_t)c->n_coefs * 44) || setup_put(c, n, 4)) return -1;
    r1cs_iter_init(&it, r);
    while (r1cs_iter_next(&it, lc) == 1)
        for (uint32_t m = 0; m < 2; m++)
            for (uint32_t i = 0; i < lc[m].n_terms; i++)
                if (S_(put_coef)(c, m, it.index - 1, r1cs_term_wire(r, &lc[m], i),
                                 r1cs_term_value(r, &lc[m], i)))
                    return -1;
    for (uint32_t sig = 0; sig <= c->n_public; sig++)
        if (S_(put_coef)(c, 0, c->n_constraints + sig, sig, one)) return -1;
    return 0;
}

static int S_(put_g1)(setup_ctx *c, const SC_FR *k)
{
    SC_G1 p, g;
    G1A a;
    SC_FR plain;
    FR_(to_plain)(&plain, k);
    G1_(generator)(&g);
    G1_(mul)(&p, &g, plain.v, 4);
    G1_(to_affine)(&a, &p);
    return setup_put(c, &a, sizeof a);
}

static int S_(put_g2)(setup_ctx *c, const SC_FR *k)
{
    SC_G2 p, g;
    G2A a;
    SC_FR plain;
    FR_(to_plain)(&plain, k);
    G2_(generator)(&g);
    G2_(mul)(&p, &g, plain.v, 4);
    G2_(to_affine)(&a, &p);
    return setup_put(c, &a, sizeof a);
}

/* Sections 1 (protocol) and 2 (sizes, moduli, verification-key points). */
static int S_(write_header)(S_(state) * s)
{
    setup_ctx *c = s->c;
    uint32_t n8q;
    const uint8_t *q = formats_field_modulus(formats_base_field(c->r.curve), &n8q);
    uint8_t b[4 + 64 + 4 + 32 + 12];
    size_t h = 0;
    S_(put_u32)(b, n8q);
    memcpy(b + 4, q, n8q);
    h = 4 + n8q;
    S_(put_u32)(b + h, 32);
    memcpy(b + h + 4, c->r.prime, 32);
    h += 36;
    S_(put_u32)(b + h, c->n_vars);
    S_(put_u32)(b + h + 4, c->n_public);
    S_(put_u32)(b + h + 8, c->domain);
    h += 12;
    uint8_t proto[4] = {1, 0, 0, 0};
    if (setup_section(c, 1, 4) || setup_put(c, proto, 4) ||
        setup_section(c, 2, h + 3 * sizeof(G1A) + 3 * sizeof(G2A)) || setup_put(c, b, h))
        return -1;
    c->hashing = 1;
    int rc = S_(put_g1)(c, &s->alpha) || S_(put_g1)(c, &s->beta) || S_(put_g2)(c, &s->beta) ||
             S_(put_g2)(c, &s->gamma) || S_(put_g1)(c, &s->delta) || S_(put_g2)(c, &s->delta);
    c->hashing = 0;
    return rc ? -1 : 0;
}

static int S_(g1_section)(setup_ctx *c, const FB1_(table) * tb, uint32_t id, const SC_FR *k,
                          size_t n)
{
    if (setup_section(c, id, n * sizeof(G1A))) return -1;
    setup_hash_count(c, (uint32_t)n);
    c->hashing = 1;
    int rc = FB1_(write_points)(c, tb, k, n);
    c->hashing = 0;
    return rc;
}

/* Sections 3 (IC), 9 (H), 8 (C), 5 (A), 6 (B1): everything in G1. */
static int S_(write_g1)(S_(state) * s)
{
    setup_ctx *c = s->c;
    size_t np = (size_t)c->n_public + 1, nv = c->n_vars;
    FB1_(table) tb;
    if (FB1_(build)(&tb, 3 * nv + c->domain, SC_FR_BITS, c->threads)) {
        FB1_(free)(&tb);
        return setup_fail(c, "out of memory for the G1 table");
    }
    setup_phase(c, "G1 table");
    int rc = S_(g1_section)(c, &tb, 3, s->k, np);
    if (!rc) {
        S_(h_scalars)(s);
        rc = S_(g1_section)(c, &tb, 9, s->lag, c->domain);
    }
    if (!rc) rc = S_(g1_section)(c, &tb, 8, s->k + np, nv - np);
    if (!rc) rc = S_(g1_section)(c, &tb, 5, s->a, nv);
    if (!rc) rc = S_(g1_section)(c, &tb, 6, s->b, nv);
    FB1_(free)(&tb);
    setup_phase(c, "G1 points");
    return rc;
}

/* Section 7 (B2) and section 10 (hash, no contributions). */
static int S_(write_g2_and_hash)(S_(state) * s)
{
    setup_ctx *c = s->c;
    FB2_(table) tb;
    if (FB2_(build)(&tb, c->n_vars, SC_FR_BITS, c->threads)) {
        FB2_(free)(&tb);
        return setup_fail(c, "out of memory for the G2 table");
    }
    int rc = setup_section(c, 7, (size_t)c->n_vars * sizeof(G2A));
    setup_hash_count(c, c->n_vars);
    c->hashing = 1;
    if (!rc) rc = FB2_(write_points)(c, &tb, s->b, c->n_vars);
    c->hashing = 0;
    FB2_(free)(&tb);
    setup_phase(c, "G2 points");
    uint8_t tail[64 + 4] = {0};
    blake2b_final(&c->hash, tail);
    return rc || setup_section(c, 10, sizeof tail) || setup_put(c, tail, sizeof tail) ? -1 : 0;
}

static int S_(draw_waste)(S_(state) * s)
{
    if (S_(draw)(s, "tau", &s->tau) || S_(draw)(s, "alpha", &s->alpha) ||
        S_(draw)(s, "beta", &s->beta) || S_(draw)(s, "gamma", &s->gamma) ||
        S_(draw)(s, "delta", &s->delta))
        return -1;
    SC_FR t, one;
    FR_(one)(&one);
    S_(pow_u64)(&t, &s->tau, 2ULL * s->c->domain);
    if (FR_(eq)(&t, &one)) /* tau on the domain: probability ~2^-220 */
        return setup_fail(s->c, "drew a degenerate tau; run again with another seed");
    S_(root_of_unity)(&s->root, s->c->log_domain + 1);
    return 0;
}

int G16_CAT(setup_run_, SC)(setup_ctx *c)
{
    S_(state) s = {.c = c};
    blake2b_init(&c->hash, 64);
    int rc = S_(draw_waste)(&s);
    if (!rc) {
        s.lag = malloc((size_t)c->domain * sizeof *s.lag);
        s.a = calloc(c->n_vars, sizeof *s.a);
        s.b = calloc(c->n_vars, sizeof *s.b);
        s.k = calloc(c->n_vars, sizeof *s.k);
        if (!s.lag || !s.a || !s.b || !s.k)
            rc = setup_fail(c, "out of memory for %u signals", c->n_vars);
    }
    if (!rc) {
        S_(lagrange)(&s);
        parallel_for(c->n_vars, c->threads, S_(accumulate_range), &s);
        parallel_for(c->n_vars, c->threads, S_(combine_range), &s);
        setup_phase(c, "scalars");
        rc = S_(write_header)(&s) || S_(write_coefs)(c) ? -1 : 0;
    }
    if (!rc) rc = S_(write_g1)(&s);
    if (!rc) rc = S_(write_g2_and_hash)(&s);
    free(s.lag);
    free(s.a);
    free(s.b);
    free(s.k);
    memset(&s, 0, sizeof s); /* the toxic waste goes no further than here */
    return rc;
}

#undef S_
#undef FR_
#undef G1_
#undef G2_
#undef G1A
#undef G2A
#undef FB1_
#undef FB2_
#undef SC
#undef SC_FR
#undef SC_G1
#undef SC_G2
#undef SC_FR_BITS
