/* One curve's side of the prover, stamped out by curves.c.  Expects
 * PC (a prefix: bn254, bls12_381) and PC_NAME / PC_ID; the field, group,
 * NTT and MSM names all derive from PC. */

#define P_(name)  G16_CAT(PC, _##name)
#define FR        P_(fr)
#define FQ        P_(fq)
#define G1        P_(g1)
#define G2        P_(g2)
#define FR_(name) G16_CAT(FR, _##name)
#define G1_(name) G16_CAT(G1, _##name)
#define G2_(name) G16_CAT(G2, _##name)

struct P_(abc_ctx) {
    const zkey *key;
    const uint8_t *witness;
    FR *ab[2];
};

/* Accumulates coefficient entries [begin, end) into a or b.  Keys whose
 * coefficients are grouped by (matrix, constraint) are split so that no two
 * workers touch the same constraint: each worker skips a group that started
 * before its range and finishes the group it is in at its end. */
static void P_(abc_worker)(void *arg, size_t begin, size_t end, int worker)
{
    struct P_(abc_ctx) *ctx = arg;
    const zkey *key = ctx->key;
    (void)worker;
    while (begin > 0 && begin < key->n_coefs && groth16_same_row(key, begin - 1, begin)) begin++;
    while (end > 0 && end < key->n_coefs && groth16_same_row(key, end - 1, end)) end++;
    for (size_t i = begin; i < end; i++) {
        zkey_coef c = zkey_coef_at(key, (uint32_t)i);
        FR coef, w, prod;
        memcpy(&coef, c.value, sizeof coef);
        memcpy(&w, ctx->witness + (size_t)c.signal * sizeof(FR), sizeof w);
        FR_(mul)(&prod, &coef, &w); /* (c·R²)·w·R⁻¹ = c·w in Montgomery form */
        FR *row = &ctx->ab[c.matrix][c.constraint];
        FR_(add)(row, row, &prod);
    }
}

struct P_(vec_ctx) {
    FR *a, *b, *c;
};

static void P_(mul_worker)(void *arg, size_t begin, size_t end, int worker)
{
    struct P_(vec_ctx) *v = arg;
    (void)worker;
    for (size_t i = begin; i < end; i++) FR_(mul)(&v->c[i], &v->a[i], &v->b[i]);
}

/* h = a·b − c, written as plain scalars over a (the MSM wants them plain). */
static void P_(h_worker)(void *arg, size_t begin, size_t end, int worker)
{
    struct P_(vec_ctx) *v = arg;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        FR t;
        FR_(mul)(&t, &v->a[i], &v->b[i]);
        FR_(sub)(&t, &t, &v->c[i]);
        FR_(to_plain)(&v->a[i], &t);
    }
}

static int P_(synthesize)(const zkey *key, int grouped, const uint8_t *witness, uint8_t *h,
                          uint8_t *scratch, int threads, g16_timings *t)
{
    size_t n = key->domain_size;
    struct P_(vec_ctx) v = {(FR *)(void *)h, (FR *)(void *)scratch, (FR *)(void *)scratch + n};
    double t0 = groth16_now();
    memset(v.a, 0, n * sizeof(FR)); /* c is written whole */
    memset(v.b, 0, n * sizeof(FR));
    struct P_(abc_ctx) abc = {key, witness, {v.a, v.b}};
    parallel_for(key->n_coefs, grouped ? threads : 1, P_(abc_worker), &abc);
    parallel_for(n, threads, P_(mul_worker), &v);
    double t1 = groth16_now();
    if (!FR_(coset_odd)(v.a, key->log2_domain, threads) ||
        !FR_(coset_odd)(v.b, key->log2_domain, threads) ||
        !FR_(coset_odd)(v.c, key->log2_domain, threads))
        return -1; /* no memory for twiddles */
    double t2 = groth16_now();
    parallel_for(n, threads, P_(h_worker), &v);
    if (t) {
        t->abc += t1 - t0 + groth16_now() - t2;
        t->ntt += t2 - t1;
    }
    return 0;
}

static void P_(g1_msm_bytes)(uint8_t *out, const uint8_t *points, const uint8_t *scalars, size_t n,
                             int threads)
{
    G1 r;
    G1_(affine) a;
    G1_(msm)(&r, points, scalars, n, threads);
    G1_(to_affine)(&a, &r);
    memcpy(out, &a, sizeof a);
}

static void P_(g2_msm_bytes)(uint8_t *out, const uint8_t *points, const uint8_t *scalars, size_t n,
                             int threads)
{
    G2 r;
    G2_(affine) a;
    G2_(msm)(&r, points, scalars, n, threads);
    G2_(to_affine)(&a, &r);
    memcpy(out, &a, sizeof a);
}

/* Adds the affine point stored at bytes p (zkey layout) to acc. */
static void P_(g1_add_bytes)(G1 *acc, const uint8_t *p)
{
    G1_(affine) a;
    memcpy(&a, p, sizeof a);
    G1_(add_affine)(acc, acc, &a);
}

static void P_(g2_add_bytes)(G2 *acc, const uint8_t *p)
{
    G2_(affine) a;
    memcpy(&a, p, sizeof a);
    G2_(add_affine)(acc, acc, &a);
}

static void P_(g1_add_mul_bytes)(G1 *acc, const uint8_t *p, const uint64_t *scalar)
{
    G1 t;
    G1_(affine) a;
    memcpy(&a, p, sizeof a);
    G1_(from_affine)(&t, &a);
    G1_(mul)(&t, &t, scalar, 4);
    G1_(add)(acc, acc, &t);
}

static char *P_(proof_json)(const G1 *a, const G2 *b, const G1 *c);

static char *P_(assemble)(const zkey *key, uint8_t *const msm[GROTH16_MSMS], const uint8_t *r_bytes,
                          const uint8_t *s_bytes)
{
    uint64_t r[4], s[4], rs[4];
    FR fr_r, fr_s, fr_rs;
    memcpy(r, r_bytes, sizeof r);
    memcpy(s, s_bytes, sizeof s);
    FR_(from_bytes)(&fr_r, r_bytes);
    FR_(from_bytes)(&fr_s, s_bytes);
    FR_(mul)(&fr_rs, &fr_r, &fr_s);
    FR_(to_plain)(&fr_rs, &fr_rs);
    memcpy(rs, fr_rs.v, sizeof rs);

    G1 pi_a, pi_b1, pi_c, t;
    G2 pi_b;
    G1_(set_infinity)(&pi_a); /* pi_a = alpha1 + A + r·delta1 */
    P_(g1_add_bytes)(&pi_a, key->alpha1);
    P_(g1_add_bytes)(&pi_a, msm[GROTH16_MSM_A]);
    P_(g1_add_mul_bytes)(&pi_a, key->delta1, r);
    G1_(set_infinity)(&pi_b1); /* the G1 twin of pi_b */
    P_(g1_add_bytes)(&pi_b1, key->beta1);
    P_(g1_add_bytes)(&pi_b1, msm[GROTH16_MSM_B1]);
    P_(g1_add_mul_bytes)(&pi_b1, key->delta1, s);
    G2_(set_infinity)(&pi_b); /* pi_b = beta2 + B2 + s·delta2 */
    P_(g2_add_bytes)(&pi_b, key->beta2);
    P_(g2_add_bytes)(&pi_b, msm[GROTH16_MSM_B2]);
    G2 d2;
    G2_(affine) d2a;
    memcpy(&d2a, key->delta2, sizeof d2a);
    G2_(from_affine)(&d2, &d2a);
    G2_(mul)(&d2, &d2, s, 4);
    G2_(add)(&pi_b, &pi_b, &d2);
    /* pi_c = C + H + s·pi_a + r·pi_b1 − r·s·delta1 */
    G1_(set_infinity)(&pi_c);
    P_(g1_add_bytes)(&pi_c, msm[GROTH16_MSM_C]);
    P_(g1_add_bytes)(&pi_c, msm[GROTH16_MSM_H]);
    G1_(mul)(&t, &pi_a, s, 4);
    G1_(add)(&pi_c, &pi_c, &t);
    G1_(mul)(&t, &pi_b1, r, 4);
    G1_(add)(&pi_c, &pi_c, &t);
    G1 rs_delta;
    G1_(set_infinity)(&rs_delta);
    P_(g1_add_mul_bytes)(&rs_delta, key->delta1, rs);
    G1_(neg)(&rs_delta, &rs_delta);
    G1_(add)(&pi_c, &pi_c, &rs_delta);
    return P_(proof_json)(&pi_a, &pi_b, &pi_c);
}

/* A key point (affine bytes, Montgomery form as the .zkey holds it) is
 * reduced and on the curve; (0, 0), infinity, counts as on it. */
static int P_(g1_on_curve_bytes)(const uint8_t *p)
{
    G1_(affine) a;
    memcpy(&a, p, sizeof a);
    return G1_(affine_on_curve)(&a);
}

static int P_(g2_on_curve_bytes)(const uint8_t *p)
{
    G2_(affine) a;
    memcpy(&a, p, sizeof a);
    return G2_(affine_on_curve)(&a);
}

static char *P_(proof_json)(const G1 *a, const G2 *b, const G1 *c)
{
    G1_(affine) aa, ca;
    G2_(affine) ba;
    char dec[8][GROTH16_DEC_MAX];
    G1_(to_affine)(&aa, a);
    G2_(to_affine)(&ba, b);
    G1_(to_affine)(&ca, c);
    G16_CAT(FQ, _to_dec)(dec[0], &aa.x);
    G16_CAT(FQ, _to_dec)(dec[1], &aa.y);
    G16_CAT(FQ, _to_dec)(dec[2], &ba.x.c0);
    G16_CAT(FQ, _to_dec)(dec[3], &ba.x.c1);
    G16_CAT(FQ, _to_dec)(dec[4], &ba.y.c0);
    G16_CAT(FQ, _to_dec)(dec[5], &ba.y.c1);
    G16_CAT(FQ, _to_dec)(dec[6], &ca.x);
    G16_CAT(FQ, _to_dec)(dec[7], &ca.y);
    int inf[3] = {G1_(is_infinity)(a), G2_(is_infinity)(b), G1_(is_infinity)(c)};
    return groth16_format_proof(dec, inf, PC_NAME);
}

#undef P_
#undef PC
#undef PC_NAME
#undef PC_ID
#undef FR
#undef FQ
#undef G1
#undef G2
#undef FR_
#undef G1_
#undef G2_
