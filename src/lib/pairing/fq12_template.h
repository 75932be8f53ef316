/* Fq12 = Fq6[w]/(w^2 - v), stamped out by tower.h (no include guard on
 * purpose).  Expects FQ12 (name), FQ12_FQ6, FQ12_FQ2 (prefixes of the
 * fields below) and FQ12_GAMMA (the Frobenius coefficients gamma_k =
 * xi^(k(p-1)/6), k = 0..5, from pairing_params.h).  Elements are c0 + c1 w;
 * this is the layout snarkjs prints (vk_alphabeta_12 = [c0, c1], each
 * [[c0.c0], [c0.c1], [c0.c2]] as Fq2 pairs). */

#define D_(name) G16_CAT(FQ12, _##name)
#define S_(name) G16_CAT(FQ12_FQ6, _##name)
#define T_(name) G16_CAT(FQ12_FQ2, _##name)

typedef struct {
    FQ12_FQ6 c0, c1;
} FQ12;

static const FQ12_FQ2 D_(frob_gamma)[6] = FQ12_GAMMA;

static inline void D_(zero)(FQ12 *r)
{
    S_(zero)(&r->c0);
    S_(zero)(&r->c1);
}
static inline void D_(one)(FQ12 *r)
{
    S_(one)(&r->c0);
    S_(zero)(&r->c1);
}
static inline int D_(eq)(const FQ12 *a, const FQ12 *b)
{
    return S_(eq)(&a->c0, &b->c0) & S_(eq)(&a->c1, &b->c1);
}

static inline int D_(is_one)(const FQ12 *a)
{
    FQ12 one;
    D_(one)(&one);
    return D_(eq)(a, &one);
}

static inline void D_(add)(FQ12 *r, const FQ12 *a, const FQ12 *b)
{
    S_(add)(&r->c0, &a->c0, &b->c0);
    S_(add)(&r->c1, &a->c1, &b->c1);
}

static inline void D_(sub)(FQ12 *r, const FQ12 *a, const FQ12 *b)
{
    S_(sub)(&r->c0, &a->c0, &b->c0);
    S_(sub)(&r->c1, &a->c1, &b->c1);
}

/* Karatsuba: (a0 + a1 w)(b0 + b1 w) = a0b0 + v a1b1 + (...)w, three Fq6
 * multiplications. */
static inline void D_(mul)(FQ12 *r, const FQ12 *a, const FQ12 *b)
{
    FQ12_FQ6 t0, t1, sa, sb;
    S_(mul)(&t0, &a->c0, &b->c0);
    S_(mul)(&t1, &a->c1, &b->c1);
    S_(add)(&sa, &a->c0, &a->c1);
    S_(add)(&sb, &b->c0, &b->c1);
    S_(mul)(&sa, &sa, &sb);
    S_(sub)(&sa, &sa, &t0);
    S_(sub)(&r->c1, &sa, &t1);
    S_(mul_v)(&t1, &t1);
    S_(add)(&r->c0, &t0, &t1);
}

/* Complex squaring: c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2t with
 * t = a0 a1; two Fq6 multiplications. */
static inline void D_(sqr)(FQ12 *r, const FQ12 *a)
{
    FQ12_FQ6 t, s, u, vt;
    S_(mul)(&t, &a->c0, &a->c1);
    S_(add)(&s, &a->c0, &a->c1);
    S_(mul_v)(&u, &a->c1);
    S_(add)(&u, &u, &a->c0);
    S_(mul)(&s, &s, &u);
    S_(mul_v)(&vt, &t);
    S_(sub)(&s, &s, &t);
    S_(sub)(&r->c0, &s, &vt);
    S_(add)(&r->c1, &t, &t);
}

/* f = f·(l0 + (l3 + l4 v) w): a D-twist line, whose non-zero coefficients
 * sit at w^0, w^1 and w^3 (13 Fq2 multiplications instead of 18). */
static inline void D_(mul_by_034)(FQ12 *f, const FQ12_FQ2 *l0, const FQ12_FQ2 *l3,
                                  const FQ12_FQ2 *l4)
{
    FQ12_FQ6 a, b, s;
    FQ12_FQ2 t;
    S_(mul_fq2)(&a, &f->c0, l0);
    S_(mul_by_01)(&b, &f->c1, l3, l4);
    S_(add)(&s, &f->c0, &f->c1);
    T_(add)(&t, l0, l3);
    S_(mul_by_01)(&s, &s, &t, l4); /* (f0+f1)(A+B) */
    S_(sub)(&s, &s, &a);
    S_(sub)(&f->c1, &s, &b);
    S_(mul_v)(&b, &b);
    S_(add)(&f->c0, &a, &b);
}

/* f = f·((l0 + l1 v) + l4 v w): an M-twist line (w^0, w^2, w^3). */
static inline void D_(mul_by_014)(FQ12 *f, const FQ12_FQ2 *l0, const FQ12_FQ2 *l1,
                                  const FQ12_FQ2 *l4)
{
    FQ12_FQ6 a, b, s;
    FQ12_FQ2 t;
    S_(mul_by_01)(&a, &f->c0, l0, l1);
    S_(mul_by_1)(&b, &f->c1, l4);
    S_(add)(&s, &f->c0, &f->c1);
    T_(add)(&t, l1, l4);
    S_(mul_by_01)(&s, &s, l0, &t); /* (f0+f1)(A+B) */
    S_(sub)(&s, &s, &a);
    S_(sub)(&f->c1, &s, &b);
    S_(mul_v)(&b, &b);
    S_(add)(&f->c0, &a, &b);
}

/* Squaring in the cyclotomic subgroup (the elements of order dividing
 * p^4 - p^2 + 1: every value after the easy part of the final
 * exponentiation), after Granger and Scott (PKC 2010): six Fq2
 * multiplications instead of twelve.  Wrong for other elements.
 * fq4_sqr squares a + b s in Fq2[s]/(s^2 - xi). */
static inline void D_(fq4_sqr)(FQ12_FQ2 *r0, FQ12_FQ2 *r1, const FQ12_FQ2 *a, const FQ12_FQ2 *b)
{
    FQ12_FQ2 t, s, u; /* (a + b s)^2 with s^2 = xi */
    T_(mul)(&t, a, b);
    T_(add)(&s, a, b);
    G16_CAT(FQ12_FQ6, _fq2_mul_xi)(&u, b);
    T_(add)(&u, &u, a);
    T_(mul)(&s, &s, &u);
    T_(sub)(&s, &s, &t);
    G16_CAT(FQ12_FQ6, _fq2_mul_xi)(&u, &t);
    T_(sub)(r0, &s, &u);
    T_(dbl)(r1, &t);
}

/* z = 3t - 2z (sign -1) or 3t + 2z (sign +1). */
static inline void D_(cyc_combine)(FQ12_FQ2 *z, const FQ12_FQ2 *t, int plus)
{
    FQ12_FQ2 d;
    if (plus)
        T_(add)(&d, t, z);
    else
        T_(sub)(&d, t, z);
    T_(dbl)(&d, &d);
    T_(add)(z, &d, t);
}

static inline void D_(cyclotomic_sqr)(FQ12 *r, const FQ12 *a)
{
    FQ12_FQ2 t0, t1, t2, t3, t4, t5, x;
    D_(fq4_sqr)(&t0, &t1, &a->c0.c0, &a->c1.c1);
    D_(fq4_sqr)(&t2, &t3, &a->c1.c0, &a->c0.c2);
    D_(fq4_sqr)(&t4, &t5, &a->c0.c1, &a->c1.c2);
    *r = *a;
    D_(cyc_combine)(&r->c0.c0, &t0, 0);
    D_(cyc_combine)(&r->c1.c1, &t1, 1);
    G16_CAT(FQ12_FQ6, _fq2_mul_xi)(&x, &t5);
    D_(cyc_combine)(&r->c1.c0, &x, 1);
    D_(cyc_combine)(&r->c0.c2, &t4, 0);
    D_(cyc_combine)(&r->c0.c1, &t2, 0);
    D_(cyc_combine)(&r->c1.c2, &t3, 1);
}

/* a^(p^6): w^(p^6) = -w, so this is the conjugation over Fq6.  On the
 * cyclotomic subgroup (every value after the easy part of the final
 * exponentiation) it is also the inverse. */
static inline void D_(conj)(FQ12 *r, const FQ12 *a)
{
    r->c0 = a->c0;
    S_(neg)(&r->c1, &a->c1);
}

/* (a0 + a1 w)^-1 = (a0 - a1 w) / (a0^2 - v a1^2); 0 maps to 0. */
static inline void D_(inv)(FQ12 *r, const FQ12 *a)
{
    FQ12_FQ6 t0, t1;
    S_(sqr)(&t0, &a->c0);
    S_(sqr)(&t1, &a->c1);
    S_(mul_v)(&t1, &t1);
    S_(sub)(&t0, &t0, &t1);
    S_(inv)(&t0, &t0);
    S_(mul)(&r->c0, &a->c0, &t0);
    S_(mul)(&t1, &a->c1, &t0);
    S_(neg)(&r->c1, &t1);
}

/* a^p: conjugate every Fq2 coefficient and scale the one of w^k by
 * gamma_k (w^k -> (w^p)^k).  The coefficient of w^k sits in c(k%2).c(k/2). */
static inline void D_(frobenius1)(FQ12 *r, const FQ12 *a)
{
    FQ12_FQ2 *out[6] = {&r->c0.c0, &r->c1.c0, &r->c0.c1, &r->c1.c1, &r->c0.c2, &r->c1.c2};
    const FQ12_FQ2 *in[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
    FQ12_FQ2 t[6];
    for (int k = 0; k < 6; k++) {
        T_(conj)(&t[k], in[k]);
        if (k) T_(mul)(&t[k], &t[k], &D_(frob_gamma)[k]);
    }
    for (int k = 0; k < 6; k++) *out[k] = t[k];
}

/* a^(p^n) for n >= 0. */
static inline void D_(frobenius)(FQ12 *r, const FQ12 *a, int n)
{
    *r = *a;
    for (int i = 0; i < n; i++) D_(frobenius1)(r, r);
}

/* r = a^e for an exponent given as little-endian limbs (public exponents
 * only: the time depends on e's bits). */
static inline void D_(pow)(FQ12 *r, const FQ12 *a, const uint64_t *e, int e_limbs)
{
    FQ12 acc, base = *a;
    D_(one)(&acc);
    for (int i = 64 * e_limbs - 1; i >= 0; i--) {
        D_(sqr)(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1) D_(mul)(&acc, &acc, &base);
    }
    *r = acc;
}

#undef D_
#undef S_
#undef T_
#undef FQ12
#undef FQ12_FQ6
#undef FQ12_FQ2
#undef FQ12_GAMMA
