/* Fq12 = Fq6[w]/(w^2 - v), stamped out by tower.h (no include guard on
 * purpose).  Expects FQ12 (name), FQ12_FQ6, FQ12_FQ2 (prefixes of the
 * fields below) and FQ12_GAMMA (the Frobenius coefficients gamma_k =
 * xi^(k(p-1)/6), k = 0..5, from pairing_params.h).  Elements are c0 + c1 w;
 * this is the layout snarkjs prints (vk_alphabeta_12 = [c0, c1], each
 * [[c0.c0], [c0.c1], [c0.c2]] as Fq2 pairs). */

#define D_(name) G16_CAT(FQ12, _##name)
#define S_(name) G16_CAT(FQ12_FQ6, _##name)
#define T_(name) G16_CAT(FQ12_FQ2, _##name)

typedef struct { FQ12_FQ6 c0, c1; } FQ12;

static const FQ12_FQ2 D_(frob_gamma)[6] = FQ12_GAMMA;

static inline void D_(zero)(FQ12 *r) { S_(zero)(&r->c0); S_(zero)(&r->c1); }
static inline void D_(one)(FQ12 *r) { S_(one)(&r->c0); S_(zero)(&r->c1); }
static inline int D_(eq)(const FQ12 *a, const FQ12 *b) { return S_(eq)(&a->c0, &b->c0) & S_(eq)(&a->c1, &b->c1); }

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
