/* Fq2 = Fq[u]/(u^2 + 1), stamped out by field.h for each curve's base field
 * (u^2 = -1 holds for BN254 and BLS12-381 alike).  Expects FQ2 (name) and
 * FQ2_BASE (the base field's prefix).  The operation names mirror the prime
 * fields' so that the curve template serves G1 (over Fq) and G2 (over Fq2). */

#define E_(name) G16_CAT(FQ2, _##name)
#define B_(name) G16_CAT(FQ2_BASE, _##name)

typedef struct {
    FQ2_BASE c0, c1;
} FQ2;

static inline void E_(zero)(FQ2 *r)
{
    B_(zero)(&r->c0);
    B_(zero)(&r->c1);
}
static inline void E_(one)(FQ2 *r)
{
    B_(one)(&r->c0);
    B_(zero)(&r->c1);
}
static inline void E_(copy)(FQ2 *r, const FQ2 *a) { *r = *a; }
static inline int E_(is_zero)(const FQ2 *a) { return B_(is_zero)(&a->c0) & B_(is_zero)(&a->c1); }
static inline int E_(eq)(const FQ2 *a, const FQ2 *b)
{
    return B_(eq)(&a->c0, &b->c0) & B_(eq)(&a->c1, &b->c1);
}
static inline int E_(is_canonical)(const FQ2 *a)
{
    return B_(is_canonical)(&a->c0) & B_(is_canonical)(&a->c1);
}

G16_HOT_INLINE void E_(add)(FQ2 *r, const FQ2 *a, const FQ2 *b)
{
    B_(add)(&r->c0, &a->c0, &b->c0);
    B_(add)(&r->c1, &a->c1, &b->c1);
}

G16_HOT_INLINE void E_(sub)(FQ2 *r, const FQ2 *a, const FQ2 *b)
{
    B_(sub)(&r->c0, &a->c0, &b->c0);
    B_(sub)(&r->c1, &a->c1, &b->c1);
}

G16_HOT_INLINE void E_(dbl)(FQ2 *r, const FQ2 *a) { E_(add)(r, a, a); }

G16_HOT_INLINE void E_(neg)(FQ2 *r, const FQ2 *a)
{
    B_(neg)(&r->c0, &a->c0);
    B_(neg)(&r->c1, &a->c1);
}

static inline void E_(conj)(FQ2 *r, const FQ2 *a)
{
    r->c0 = a->c0;
    B_(neg)(&r->c1, &a->c1);
}

/* Karatsuba: three base multiplications instead of four. */
G16_HOT_INLINE void E_(mul)(FQ2 *r, const FQ2 *a, const FQ2 *b)
{
    FQ2_BASE t0, t1, sa, sb, m;
    B_(mul)(&t0, &a->c0, &b->c0);
    B_(mul)(&t1, &a->c1, &b->c1);
    B_(add)(&sa, &a->c0, &a->c1);
    B_(add)(&sb, &b->c0, &b->c1);
    B_(mul)(&m, &sa, &sb);
    B_(sub)(&r->c0, &t0, &t1);
    B_(sub)(&m, &m, &t0);
    B_(sub)(&r->c1, &m, &t1);
}

/* (a + bu)^2 = (a + b)(a - b) + 2ab·u: two base multiplications. */
G16_HOT_INLINE void E_(sqr)(FQ2 *r, const FQ2 *a)
{
    FQ2_BASE s, d, p;
    B_(add)(&s, &a->c0, &a->c1);
    B_(sub)(&d, &a->c0, &a->c1);
    B_(mul)(&p, &a->c0, &a->c1);
    B_(mul)(&r->c0, &s, &d);
    B_(dbl)(&r->c1, &p);
}

G16_HOT_INLINE void E_(mul_base)(FQ2 *r, const FQ2 *a, const FQ2_BASE *k)
{
    B_(mul)(&r->c0, &a->c0, k);
    B_(mul)(&r->c1, &a->c1, k);
}

/* 1/(a + bu) = (a - bu)/(a^2 + b^2); 0 maps to 0 as in the base field. */
static inline void E_(inv)(FQ2 *r, const FQ2 *a)
{
    FQ2_BASE n, t;
    B_(sqr)(&n, &a->c0);
    B_(sqr)(&t, &a->c1);
    B_(add)(&n, &n, &t);
    B_(inv)(&n, &n);
    B_(mul)(&r->c0, &a->c0, &n);
    B_(mul)(&t, &a->c1, &n);
    B_(neg)(&r->c1, &t);
}

/* r = a^e for an exponent given as little-endian limbs. */
static inline void E_(pow)(FQ2 *r, const FQ2 *a, const uint64_t *e, int e_limbs)
{
    FQ2 acc, base = *a;
    E_(one)(&acc);
    for (int i = 64 * e_limbs - 1; i >= 0; i--) {
        E_(sqr)(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1) E_(mul)(&acc, &acc, &base);
    }
    *r = acc;
}

static inline void E_(to_dec)(char *c0, char *c1, const FQ2 *a)
{
    B_(to_dec)(c0, &a->c0);
    B_(to_dec)(c1, &a->c1);
}

#undef E_
#undef B_
#undef FQ2
#undef FQ2_BASE
