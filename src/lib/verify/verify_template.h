/* Groth16 verification on one curve, stamped out by verify.c (no include
 * guard on purpose).  Expects V (curve prefix: bn254, bls12_381) and the
 * helpers of verify.c (vctx, vfail, vinvalid, is_decimal, json_str), and
 * V_G1_COFACTOR_ONE: 1 when every point of E(Fq) has order r (BN254), so
 * that on-curve implies in-subgroup for G1. */

#define V_(name)   G16_CAT(V, _##name)
#define FQ_(name)  G16_CAT(V, _fq_##name)
#define FQ2_(name) G16_CAT(V, _fq2_##name)
#define FR_(name)  G16_CAT(V, _fr_##name)
#define G1_(name)  G16_CAT(V, _g1_##name)
#define G2_(name)  G16_CAT(V, _g2_##name)
#define G1A        G16_CAT(V, _g1_affine)
#define G2A        G16_CAT(V, _g2_affine)

static int V_(parse_fq)(G16_CAT(V, _fq) * r, json_t *s, const vctx *c, const char *field)
{
    const char *t = json_string_value(s);
    if (t && FQ_(from_dec)(r, t, strlen(t))) return 0;
    return vfail(c, "%s is not a decimal string below the field modulus", field);
}

static int V_(parse_fq2)(G16_CAT(V, _fq2) * r, json_t *a, const vctx *c, const char *field)
{
    char sub[96];
    if (!json_is_array(a) || json_array_size(a) != 2)
        return vfail(c, "%s is not a pair [c0, c1]", field);
    snprintf(sub, sizeof sub, "%.80s[0]", field);
    if (V_(parse_fq)(&r->c0, json_array_get(a, 0), c, sub)) return -1;
    snprintf(sub, sizeof sub, "%.80s[1]", field);
    return V_(parse_fq)(&r->c1, json_array_get(a, 1), c, sub);
}

/* [x, y] or [x, y, z] (Jacobian; z = 0 is infinity) into an affine point
 * of group G with coordinates in FE (parsed by PARSE).  Not yet checked to
 * lie on the curve. */
#define V_PARSE_POINT(FN, G, FE, PARSE)                                                            \
    static int V_(FN)(G16_CAT(G, _affine) * out, json_t * a, const vctx *c, const char *field)     \
    {                                                                                              \
        char sub[96];                                                                              \
        G pj;                                                                                      \
        size_t n = json_is_array(a) ? json_array_size(a) : 0;                                      \
        if (n != 2 && n != 3) return vfail(c, "%s is not a point [x, y, z]", field);               \
        FE *coord[3] = {&pj.x, &pj.y, &pj.z};                                                      \
        G16_CAT(FE, _one)(&pj.z);                                                                  \
        for (size_t i = 0; i < n; i++) {                                                           \
            snprintf(sub, sizeof sub, "%.60s[%zu]", field, i);                                     \
            if (PARSE(coord[i], json_array_get(a, i), c, sub)) return -1;                          \
        }                                                                                          \
        G16_CAT(G, _to_affine)(out, &pj);                                                          \
        return 0;                                                                                  \
    }
V_PARSE_POINT(parse_g1, G16_CAT(V, _g1), G16_CAT(V, _fq), V_(parse_fq))
V_PARSE_POINT(parse_g2, G16_CAT(V, _g2), G16_CAT(V, _fq2), V_(parse_fq2))

/* k·P for a public scalar k of `bits` bits (4 limbs): double-and-add
 * with mixed additions, about a third cheaper than the constant-time
 * ladder of curve.h, which only secrets need. */
#define V_MUL_PUBLIC(GRP)                                                                          \
    static inline void V_(GRP##_mul_public)(G16_CAT(V, _##GRP) * r,                                \
                                            const G16_CAT(V, _##GRP##_affine) * p,                 \
                                            const uint64_t *k, int bits)                           \
    {                                                                                              \
        V_(GRP##_set_infinity)(r);                                                                 \
        for (int i = bits - 1; i >= 0; i--) {                                                      \
            V_(GRP##_dbl)(r, r);                                                                   \
            if ((k[i / 64] >> (i % 64)) & 1) V_(GRP##_add_affine)(r, r, p);                        \
        }                                                                                          \
    }                                                                                              \
    static inline int V_(GRP##_in_group)(const G16_CAT(V, _##GRP##_affine) * p)                    \
    {                                                                                              \
        G16_CAT(V, _##GRP) t;                                                                      \
        V_(GRP##_mul_public)(&t, p, V_(GRP##_order), 256);                                         \
        return V_(GRP##_is_infinity)(&t);                                                          \
    }
V_MUL_PUBLIC(g1)
V_MUL_PUBLIC(g2)

/* Whether an on-curve point has order r (or is infinity). */
static int V_(g1_order_r)(const G1A *p) { return V_G1_COFACTOR_ONE || V_(g1_in_group)(p); }
static int V_(g2_order_r)(const G2A *p) { return V_(g2_in_group)(p); }

/* A key with alpha1, beta2, gamma2 or delta2 at infinity comes from no
 * setup (they are nonzero multiples of the generators) and is refused as
 * malformed: with alpha1 or beta2 = 0 the proof pi_a = vk_x, pi_b =
 * gamma2, pi_c = 0 meets the equation for any public signals, with
 * gamma2 = 0 so does pi_a = alpha1, pi_b = beta2, pi_c = 0, and with
 * delta2 = 0 pi_c no longer counts.  The IC points are left alone: IC[i]
 * sums a public signal's terms of the circuit's polynomials, which is 0
 * for a signal no constraint uses, a legitimate key. */
#define V_KEY_AT_INFINITY(c, key)                                                                  \
    vfail(c, "%s is the point at infinity (a degenerate key that accepts forged proofs)", key)

/* A key point: malformed unless on its curve and, as above, finite (the
 * key is trusted, so the subgroup is not checked: snarkjs does not
 * either). */
#define V_KEY_POINT(GRP, out, obj, key, c)                                                         \
    (V_(parse_##GRP)(out, json_object_get(obj, key), c, key) ? -1                                  \
     : !V_(GRP##_affine_on_curve)(out)   ? vfail(c, "%s is not on the curve", key)                 \
     : V_(GRP##_affine_is_infinity)(out) ? V_KEY_AT_INFINITY(c, key)                               \
                                         : 0)

/* A parsed proof point: invalid (0) unless on its curve and of order r. */
#define V_PROOF_POINT_OK(GRP, p, key, c)                                                           \
    (!V_(GRP##_affine_on_curve)(p) ? vinvalid(c, "%s is not on the curve", key)                    \
     : !V_(GRP##_order_r)(p)       ? vinvalid(c, "%s is not in the order-r subgroup", key)         \
                                   : 1)

/* vk_x = IC[0] + sum public[i] IC[i+1]; 1 done, 0 a signal >= r, -1 bad. */
static int V_(vk_x)(G1A *out, json_t *ic, json_t *pub, const vctx *kc, const vctx *pc)
{
    G16_CAT(V, _g1) acc, t;
    G1A p;
    char field[48];
    G1_(set_infinity)(&acc);
    for (size_t i = 0; i < json_array_size(ic); i++) {
        snprintf(field, sizeof field, "IC[%zu]", i);
        if (V_(parse_g1)(&p, json_array_get(ic, i), kc, field)) return -1;
        if (!G1_(affine_on_curve)(&p)) return vfail(kc, "%s is not on the curve", field);
        G1_(from_affine)(&t, &p);
        if (i > 0) {
            G16_CAT(V, _fr) s;
            const char *text = json_str(json_array_get(pub, i - 1));
            if (!text || !is_decimal(text))
                return vfail(pc, "signal %zu is not a decimal string", i - 1);
            if (!FR_(from_dec)(&s, text, strlen(text)))
                return vinvalid(pc, "signal %zu is not below the group order r", i - 1);
            FR_(to_plain)(&s, &s);
            V_(g1_mul_public)(&t, &p, s.v, 256);
        }
        G1_(add)(&acc, &acc, &t);
    }
    G1_(to_affine)(out, &acc);
    return 1;
}

/* A key point alone (g16_vk_check_json): malformed (-1) unless on its
 * curve, of order r and, when finite (alpha, beta, gamma, delta: see
 * V_KEY_AT_INFINITY), not infinity; *canon gets its affine JSON (-2: out
 * of memory). */
#define V_VK_POINT(GRP)                                                                            \
    static int V_(vk_##GRP)(json_t * a, json_t * *canon, const vctx *c, const char *field,         \
                            int finite)                                                            \
    {                                                                                              \
        G16_CAT(V, _##GRP##_affine) p;                                                             \
        if (V_(parse_##GRP)(&p, a, c, field)) return -1;                                           \
        if (!V_(GRP##_affine_on_curve)(&p)) return vfail(c, "%s is not on the curve", field);      \
        if (finite && V_(GRP##_affine_is_infinity)(&p)) return V_KEY_AT_INFINITY(c, field);        \
        if (!V_(GRP##_order_r)(&p)) return vfail(c, "%s is not in the order-r subgroup", field);   \
        *canon = G16_CAT(G16_CAT(vk_, V), _##GRP##_json)(&p);                                      \
        return *canon ? 0 : (vfail(c, "out of memory"), -2);                                       \
    }
V_VK_POINT(g1)
V_VK_POINT(g2)

/* Every point of a key whose shape was checked, replaced by its canonical
 * form; 0, or V_VK_POINT's -1 or -2. */
static int V_(vk_check)(json_t *vk, const vctx *c)
{
    static const char *const g2_keys[] = {"vk_beta_2", "vk_gamma_2", "vk_delta_2"};
    json_t *canon = NULL, *ic = json_object_get(vk, "IC");
    char field[48];
    int rc;
    if ((rc = V_(vk_g1)(json_object_get(vk, "vk_alpha_1"), &canon, c, "vk_alpha_1", 1))) return rc;
    json_object_set_new(vk, "vk_alpha_1", canon);
    for (size_t i = 0; i < 3; i++) {
        if ((rc = V_(vk_g2)(json_object_get(vk, g2_keys[i]), &canon, c, g2_keys[i], 1))) return rc;
        json_object_set_new(vk, g2_keys[i], canon);
    }
    for (size_t i = 0; i < json_array_size(ic); i++) {
        snprintf(field, sizeof field, "IC[%zu]", i);
        if ((rc = V_(vk_g1)(json_array_get(ic, i), &canon, c, field, 0))) return rc;
        json_array_set_new(ic, i, canon);
    }
    return 0;
}

/* The key's points of the equation: alpha1 in g1[1], beta2, gamma2 and
 * delta2 in g2[1..3]; 0, or -1 malformed. */
static int V_(key_points)(json_t *vk, G1A g1[4], G2A g2[4], const vctx *c)
{
    return V_KEY_POINT(g1, &g1[1], vk, "vk_alpha_1", c) ||
                   V_KEY_POINT(g2, &g2[1], vk, "vk_beta_2", c) ||
                   V_KEY_POINT(g2, &g2[2], vk, "vk_gamma_2", c) ||
                   V_KEY_POINT(g2, &g2[3], vk, "vk_delta_2", c)
               ? -1
               : 0;
}

/* A proof's points of the equation: -pi_a in g1[0], vk_x in g1[2], pi_c
 * in g1[3], pi_b in g2[0]; 1 when they may be paired, 0 invalid, -1
 * malformed.  The whole proof is parsed before it is judged, so a
 * malformed file is reported as such even when a check would find the
 * proof invalid. */
static int V_(proof_points)(json_t *vk, json_t *pub, json_t *proof, G1A g1[4], G2A g2[4],
                            const vctx c[3])
{
    int rc;
    if (V_(parse_g1)(&g1[0], json_object_get(proof, "pi_a"), &c[2], "pi_a") ||
        V_(parse_g2)(&g2[0], json_object_get(proof, "pi_b"), &c[2], "pi_b") ||
        V_(parse_g1)(&g1[3], json_object_get(proof, "pi_c"), &c[2], "pi_c"))
        return -1;
    if ((rc = V_(vk_x)(&g1[2], json_object_get(vk, "IC"), pub, &c[0], &c[1])) != 1) return rc;
    if ((rc = V_PROOF_POINT_OK(g1, &g1[0], "pi_a", &c[2])) != 1 ||
        (rc = V_PROOF_POINT_OK(g2, &g2[0], "pi_b", &c[2])) != 1 ||
        (rc = V_PROOF_POINT_OK(g1, &g1[3], "pi_c", &c[2])) != 1)
        return rc;
    FQ_(neg)(&g1[0].y, &g1[0].y); /* -pi_a (infinity stays (0, 0)) */
    return 1;
}

static int V_(verify)(json_t *vk, json_t *pub, json_t *proof, const vctx c[3])
{
    G1A g1[4]; /* -pi_a, alpha1, vk_x, pi_c */
    G2A g2[4]; /* pi_b, beta2, gamma2, delta2 */
    int rc;
    if (V_(key_points)(vk, g1, g2, &c[0])) return -1;
    if ((rc = V_(proof_points)(vk, pub, proof, g1, g2, c)) != 1) return rc;
    if (V_(pairing_check)(g1, g2, 4)) return 1;
    return vinvalid(&c[2], "the pairing equation does not hold");
}

/* acc += w·p for a 128-bit weight w. */
static void V_(g1_add_weighted)(G16_CAT(V, _g1) * acc, const G1A *p, const uint64_t w[4])
{
    G16_CAT(V, _g1) t;
    V_(g1_mul_public)(&t, p, w, 128);
    G1_(add)(acc, acc, &t);
}

/* The n proofs' equations (their points from proof_points, in g1[4 i..]
 * and g2[4 i..]; the key's in slots 1-3 of the first) as one, with random
 * 128-bit weights w_i:
 *   prod e(-w_i pi_a_i, pi_b_i) e(W alpha1, beta2) e(sum w_i vk_x_i, gamma2)
 *     e(sum w_i pi_c_i, delta2) = 1,  W = sum w_i,
 * n + 3 pairs, one final exponentiation.  It holds when every equation
 * does; when one fails, it holds for at most one w_i in 2^128 given the
 * others.  1 holds, 0 does not, -1 no randomness.  The points are left
 * as they were. */
static int V_(batch_check)(G1A *g1, G2A *g2, size_t n)
{
    uint64_t(*w)[4] = calloc(n, sizeof *w), total[4] = {0, 0, 0, 0};
    G1A *p1 = malloc((n + 3) * sizeof *p1);
    G2A *p2 = malloc((n + 3) * sizeof *p2);
    int rc = -1;
    if (!w || !p1 || !p2) goto out;
    for (size_t i = 0; i < n; i++)
        if (util_random(w[i], 16)) goto out;
    G16_CAT(V, _g1) x, c, t;
    G1_(set_infinity)(&x);
    G1_(set_infinity)(&c);
    for (size_t i = 0; i < n; i++) {
        unsigned char carry = 0;
        for (int l = 0; l < 4; l++) { /* total < n 2^128: no overflow of 256 bits */
            uint64_t s = total[l] + w[i][l] + carry;
            carry = s < total[l] || (carry && s == total[l]);
            total[l] = s;
        }
        V_(g1_mul_public)(&t, &g1[4 * i], w[i], 128);
        G1_(to_affine)(&p1[i], &t);
        p2[i] = g2[4 * i];
        V_(g1_add_weighted)(&x, &g1[4 * i + 2], w[i]);
        V_(g1_add_weighted)(&c, &g1[4 * i + 3], w[i]);
    }
    V_(g1_mul_public)(&t, &g1[1], total, 256);
    G1_(to_affine)(&p1[n], &t);
    G1_(to_affine)(&p1[n + 1], &x);
    G1_(to_affine)(&p1[n + 2], &c);
    for (int k = 0; k < 3; k++) p2[n + k] = g2[1 + k];
    rc = V_(pairing_check)(p1, p2, n + 3);
out:
    free(w);
    free(p1);
    free(p2);
    return rc;
}

/* n proofs of one key (see g16_verify_batch_json): valid[i] as verify
 * answers for proof i (pub[i] NULL: already judged, valid[i] kept).  The
 * well-formed ones are checked together, and one by one only when that
 * check fails.  The key's problems are reported through kc, the proofs'
 * through c (one scratch message).  0, -1 the key malformed, -2 no memory
 * or randomness. */
static int V_(verify_batch)(json_t *vk, json_t **pub, json_t **proof, size_t n, int *valid,
                            const vctx *kc, const vctx c[3])
{
    size_t slots = 4 * (n ? n : 1); /* the key's points need the first four */
    G1A *g1 = malloc(slots * sizeof *g1);
    G2A *g2 = malloc(slots * sizeof *g2);
    size_t *idx = malloc(slots * sizeof *idx), m = 0;
    int rc = -2, all = 0;
    if (!g1 || !g2 || !idx) goto out;
    rc = -1;
    if (V_(key_points)(vk, g1, g2, kc)) goto out;
    for (size_t i = 0; i < n; i++) /* the key's points stay in slots 1-3 of the first */
        if (pub[i] &&
            (valid[i] = V_(proof_points)(vk, pub[i], proof[i], &g1[4 * m], &g2[4 * m], c)) == 1)
            idx[m++] = i;
    rc = -2;
    if (m > 1 && (all = V_(batch_check)(g1, g2, m)) != 0) {
        if (all < 0) goto out;
    } else {
        /* one by one, on the points already parsed and checked: proof j's
         * own equation, the key's points copied beside its own */
        for (size_t j = 0; j < m; j++) {
            if (j) {
                g1[4 * j + 1] = g1[1];
                for (int k = 1; k < 4; k++) g2[4 * j + k] = g2[k];
            }
            valid[idx[j]] = V_(pairing_check)(&g1[4 * j], &g2[4 * j], 4) ? 1 : 0;
        }
    }
    rc = 0;
out:
    free(g1);
    free(g2);
    free(idx);
    return rc;
}

#undef V_PARSE_POINT
#undef V_KEY_POINT
#undef V_KEY_AT_INFINITY
#undef V_VK_POINT
#undef V_MUL_PUBLIC
#undef V_PROOF_POINT_OK
#undef V_G1_COFACTOR_ONE
#undef V_
#undef FQ_
#undef FQ2_
#undef FR_
#undef G1_
#undef G2_
#undef G1A
#undef G2A
#undef V
