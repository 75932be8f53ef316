/* Fq2 = Fq[u]/(u^2 + 1) on the device, stamped out by dfield.cuh.  Expects
 * DQ2 (type and prefix), DQ2_BASE (the base field's prefix), DQ2_INLINE
 * (__forceinline__ or __noinline__ for the product and square) and
 * DQ2_SUM4 (1: a b - c d as sums of four base products, see mul_diff2).  Names
 * mirror the prime fields' so dpoint_template.cuh serves G1 and G2. */

#define E_(name) G16_CAT(DQ2, _##name)
#define B_(name) G16_CAT(DQ2_BASE, _##name)

typedef struct {
    DQ2_BASE c0, c1;
} DQ2;

static HD void E_(zero)(DQ2 *r)
{
    B_(zero)(&r->c0);
    B_(zero)(&r->c1);
}
static HD void E_(one)(DQ2 *r)
{
    B_(one)(&r->c0);
    B_(zero)(&r->c1);
}
static HD int E_(is_zero)(const DQ2 *a) { return B_(is_zero)(&a->c0) & B_(is_zero)(&a->c1); }
static HD int E_(eq)(const DQ2 *a, const DQ2 *b)
{
    return B_(eq)(&a->c0, &b->c0) & B_(eq)(&a->c1, &b->c1);
}
static HD void E_(add)(DQ2 *r, const DQ2 *a, const DQ2 *b)
{
    B_(add)(&r->c0, &a->c0, &b->c0);
    B_(add)(&r->c1, &a->c1, &b->c1);
}
static HD void E_(sub)(DQ2 *r, const DQ2 *a, const DQ2 *b)
{
    B_(sub)(&r->c0, &a->c0, &b->c0);
    B_(sub)(&r->c1, &a->c1, &b->c1);
}
static HD void E_(dbl)(DQ2 *r, const DQ2 *a) { E_(add)(r, a, a); }
static HD void E_(neg)(DQ2 *r, const DQ2 *a)
{
    B_(neg)(&r->c0, &a->c0);
    B_(neg)(&r->c1, &a->c1);
}

/* c0 = a0 b0 - a1 b1 and c1 = a0 b1 + a1 b0, each as two base products
 * through one set of reduction rows (mul_diff2 / mul_sum2): four products'
 * multiplies but two reductions, and no Karatsuba adds.  Measured against
 * Karatsuba's three reduced products: BN254 G2 MSM 2^24 196.9 -> 166.2 ms,
 * BLS12-381 G2 356.6 -> 323.1 (docs/gpu-notes.md, field v6; keeping Karatsuba's
 * three products double-width instead spilled).  DQ2_INLINE: BLS12-381's
 * Fq2 product is ~2k instructions, and inlining it at every call site made
 * its G2 file take minutes to compile, so there it is a call, by value (a
 * pointer argument would pin the caller's operands in local memory; see
 * dpoint_template.cuh). */
static __host__ __device__ DQ2_INLINE DQ2 E_(mul_v)(DQ2 a, DQ2 b)
{
    DQ2 r;
    B_(mul_diff2)(&r.c0, &a.c0, &b.c0, &a.c1, &b.c1);
    B_(mul_sum2)(&r.c1, &a.c0, &b.c1, &a.c1, &b.c0);
    return r;
}

#if DQ2_SUM4
/* a b - c d with each coordinate one sum of four base products and one
 * set of reduction rows (negated factors as p - x):
 *   c0 = a0 b0 + a1 (p - b1) + c0 (p - d0) + c1 d1,
 *   c1 = a0 b1 + a1 b0 + c0 (p - d1) + c1 (p - d0).
 * BN254 G2 MSM 2^24 accumulation 127.7 -> 123.6 ms; BLS12-381 G2 276.9 ->
 * 279.6 (more registers for 12-word operands), so there DQ2_SUM4 is 0 and
 * a b - c d is two Fq2 products (docs/gpu-notes.md, "Per-group
 * choices, and two that lost"). */
static __host__ __device__ DQ2_INLINE DQ2 E_(mul_diff2_v)(DQ2 a, DQ2 b, DQ2 c, DQ2 d)
{
    DQ2 r;
    DQ2_BASE nb1, nd0, nd1;
    B_(neg_lazy)(&nb1, &b.c1);
    B_(neg_lazy)(&nd0, &d.c0);
    B_(neg_lazy)(&nd1, &d.c1);
    B_(mul_sum4)(&r.c0, &a.c0, &b.c0, &a.c1, &nb1, &c.c0, &nd0, &c.c1, &d.c1);
    B_(mul_sum4)(&r.c1, &a.c0, &b.c1, &a.c1, &b.c0, &c.c0, &nd1, &c.c1, &nd0);
    return r;
}

static HD void E_(mul_diff2)(DQ2 *r, const DQ2 *a, const DQ2 *b, const DQ2 *c, const DQ2 *d)
{
    *r = E_(mul_diff2_v)(*a, *b, *c, *d);
}
#else
static HD void E_(mul_diff2)(DQ2 *r, const DQ2 *a, const DQ2 *b, const DQ2 *c, const DQ2 *d)
{
    DQ2 t = E_(mul_v)(*c, *d);
    *r = E_(mul_v)(*a, *b);
    E_(sub)(r, r, &t);
}
#endif

static HD void E_(mul)(DQ2 *r, const DQ2 *a, const DQ2 *b) { *r = E_(mul_v)(*a, *b); }

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: two base products. */
static __host__ __device__ DQ2_INLINE DQ2 E_(sqr_v)(DQ2 a_)
{
    DQ2 out, *r = &out;
    const DQ2 *a = &a_;
    DQ2_BASE s, d, m;
    B_(add)(&s, &a->c0, &a->c1);
    B_(sub)(&d, &a->c0, &a->c1);
    B_(mul)(&m, &a->c0, &a->c1);
    B_(mul)(&r->c0, &s, &d);
    B_(dbl)(&r->c1, &m);
    return out;
}

static HD void E_(sqr)(DQ2 *r, const DQ2 *a) { *r = E_(sqr_v)(*a); }

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2). */
static __host__ __device__ __noinline__ void E_(inv)(DQ2 *r, const DQ2 *a)
{
    DQ2_BASE t0, t1;
    B_(sqr)(&t0, &a->c0);
    B_(sqr)(&t1, &a->c1);
    B_(add)(&t0, &t0, &t1);
    B_(inv)(&t0, &t0);
    B_(mul)(&r->c0, &a->c0, &t0);
    B_(mul)(&t1, &a->c1, &t0);
    B_(neg)(&r->c1, &t1);
}

#undef E_
#undef B_
#undef DQ2
#undef DQ2_BASE
#undef DQ2_INLINE
#undef DQ2_SUM4
