/* Pairing and tower tests for one curve, stamped out by test_pairing.c.
 * Expects C (curve prefix: bn254, bls12_381). */

#define C_(name)    G16_CAT(C, _##name)
#define FQ          G16_CAT(C, _fq)
#define FR          G16_CAT(C, _fr)
#define FQ12        G16_CAT(C, _fq12)
#define G1          G16_CAT(C, _g1)
#define G2          G16_CAT(C, _g2)
#define FQ_(name)   G16_CAT(C, _fq_##name)
#define FR_(name)   G16_CAT(C, _fr_##name)
#define FQ12_(name) G16_CAT(C, _fq12_##name)
#define G1_(name)   G16_CAT(C, _g1_##name)
#define G2_(name)   G16_CAT(C, _g2_##name)

/* A random element of Fq12 (not reduced from a uniform distribution, which
 * algebraic identities do not need). */
static void C_(rand_fq12)(FQ12 *a)
{
    FQ *c = (FQ *)a;
    for (size_t i = 0; i < sizeof *a / sizeof *c; i++) FQ_(from_u64)(&c[i], test_rand64());
    for (size_t i = 0; i < sizeof *a / sizeof *c; i++) FQ_(mul)(&c[i], &c[i], &c[(i + 1) % 12]);
}

/* A random scalar below r: a random Fr element, as plain limbs. */
static void C_(rand_scalar)(FR *m, uint64_t s[4])
{
    FR t;
    for (int i = 0; i < 4; i++) t.v[i] = test_rand64();
    t.v[3] >>= 4; /* below r for both curves */
    FR_(from_plain)(m, &t);
    memcpy(s, t.v, sizeof t.v);
}

/* The sparse line products equal full products, and the cyclotomic
 * squaring equals squaring on the cyclotomic subgroup (after the easy part
 * f^((p^6-1)(p^2+1))). */
static void C_(test_sparse)(const FQ12 *a, const FQ12 *b)
{
    FQ12 l, c, d;
    G16_CAT(C, _fq12_zero)(&l);
    l.c0.c0 = b->c0.c0;
    l.c1.c0 = b->c0.c1;
    l.c1.c1 = b->c0.c2;
    FQ12_(mul)(&c, a, &l);
    d = *a;
    FQ12_(mul_by_034)(&d, &l.c0.c0, &l.c1.c0, &l.c1.c1);
    CHECK(FQ12_(eq)(&c, &d));
    G16_CAT(C, _fq12_zero)(&l);
    l.c0.c0 = b->c1.c0;
    l.c0.c1 = b->c1.c1;
    l.c1.c1 = b->c1.c2;
    FQ12_(mul)(&c, a, &l);
    d = *a;
    FQ12_(mul_by_014)(&d, &l.c0.c0, &l.c0.c1, &l.c1.c1);
    CHECK(FQ12_(eq)(&c, &d));
    FQ12_(inv)(&c, a); /* easy part by hand */
    FQ12_(conj)(&d, a);
    FQ12_(mul)(&c, &c, &d);
    FQ12_(frobenius)(&d, &c, 2);
    FQ12_(mul)(&c, &c, &d);
    FQ12_(sqr)(&d, &c);
    FQ12_(cyclotomic_sqr)(&c, &c);
    CHECK(FQ12_(eq)(&c, &d));
}

static void C_(test_tower)(void)
{
    FQ12 a, b, c, d, one;
    FQ12_(one)(&one);
    for (int i = 0; i < 4; i++) {
        C_(rand_fq12)(&a);
        C_(rand_fq12)(&b);
        FQ12_(mul)(&c, &a, &b); /* commutative, a·b·b^-1 = a */
        FQ12_(mul)(&d, &b, &a);
        CHECK(FQ12_(eq)(&c, &d));
        FQ12_(inv)(&d, &b);
        FQ12_(mul)(&c, &c, &d);
        CHECK(FQ12_(eq)(&c, &a));
        FQ12_(sqr)(&c, &a); /* sqr = mul */
        FQ12_(mul)(&d, &a, &a);
        CHECK(FQ12_(eq)(&c, &d));
        G16_CAT(C, _fq6_sqr)(&c.c0, &a.c1); /* Fq6 sqr = mul */
        G16_CAT(C, _fq6_mul)(&d.c0, &a.c1, &a.c1);
        CHECK(G16_CAT(C, _fq6_eq)(&c.c0, &d.c0));
        FQ12_(frobenius1)(&c, &a); /* frobenius = p-th power */
        FQ12_(pow)(&d, &a, FQ_(modulus).v, FQ_(limbs));
        CHECK(FQ12_(eq)(&c, &d));
        FQ12_(frobenius)(&c, &a, 6); /* a^(p^6) = conj(a) */
        FQ12_(conj)(&d, &a);
        CHECK(FQ12_(eq)(&c, &d));
        FQ12_(frobenius)(&c, &a, 12); /* p^12: identity */
        CHECK(FQ12_(eq)(&c, &a));
        FQ12_(mul)(&c, &a, &one);
        CHECK(FQ12_(eq)(&c, &a));
        C_(test_sparse)(&a, &b);
    }
}

/* Random points aP, bQ with their scalars (P, Q the generators). */
static void C_(rand_points)(G16_CAT(G1, _affine) * p, G16_CAT(G2, _affine) * q, FR *a, FR *b)
{
    uint64_t sa[4], sb[4];
    G1 pj;
    G2 qj;
    C_(rand_scalar)(a, sa);
    C_(rand_scalar)(b, sb);
    G1_(generator)(&pj);
    G1_(mul)(&pj, &pj, sa, 4);
    G1_(to_affine)(p, &pj);
    G2_(generator)(&qj);
    G2_(mul)(&qj, &qj, sb, 4);
    G2_(to_affine)(q, &qj);
}

/* e(aP, bQ) = e(P, Q)^(ab), e(P, Q)^r = 1, e(P, Q) != 1. */
static void C_(test_bilinear)(int iterations)
{
    FQ12 base, lhs, rhs;
    const G16_CAT(G1, _affine) *g1 = &G1_(generator_affine);
    const G16_CAT(G2, _affine) *g2 = &G2_(generator_affine);
    C_(pairing)(&base, g1, g2);
    CHECK(!FQ12_(is_one)(&base));
    FQ12_(pow)(&lhs, &base, G1_(order), 4);
    CHECK(FQ12_(is_one)(&lhs));
    for (int i = 0; i < iterations; i++) {
        G16_CAT(G1, _affine) p;
        G16_CAT(G2, _affine) q;
        FR a, b, ab;
        C_(rand_points)(&p, &q, &a, &b);
        C_(pairing)(&lhs, &p, &q);
        FR_(mul)(&ab, &a, &b);
        FR_(to_plain)(&ab, &ab);
        FQ12_(pow)(&rhs, &base, ab.v, 4);
        CHECK(FQ12_(eq)(&lhs, &rhs));
        CHECK(!FQ12_(is_one)(&lhs));
    }
}

/* e(aP, bQ) · e(-abP, Q) = 1 through pairing_check, and a wrong product is
 * refused; pairs with infinity count as 1. */
static void C_(test_check)(void)
{
    G16_CAT(G1, _affine) ps[3], inf1 = {{{0}}, {{0}}};
    G16_CAT(G2, _affine) qs[3];
    FR a, b, ab;
    G1 t;
    C_(rand_points)(&ps[0], &qs[0], &a, &b);
    FR_(mul)(&ab, &a, &b);
    FR_(to_plain)(&ab, &ab);
    G1_(generator)(&t);
    G1_(mul)(&t, &t, ab.v, 4);
    G1_(neg)(&t, &t);
    G1_(to_affine)(&ps[1], &t);
    qs[1] = G2_(generator_affine);
    ps[2] = inf1;
    qs[2] = qs[0];
    CHECK(C_(pairing_check)(ps, qs, 2));
    CHECK(C_(pairing_check)(ps, qs, 3));
    CHECK(!C_(pairing_check)(ps, qs, 1));
    qs[1] = qs[0];
    CHECK(!C_(pairing_check)(ps, qs, 2));
    CHECK(C_(pairing_check)(ps, qs, 0));
}

#undef C_
#undef FQ
#undef FR
#undef FQ12
#undef G1
#undef G2
#undef FQ_
#undef FR_
#undef FQ12_
#undef G1_
#undef G2_
#undef C
