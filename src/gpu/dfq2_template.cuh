/* Fq2 = Fq[u]/(u^2 + 1) on the device, stamped out by dfield.cuh.  Expects
 * DQ2 (type and prefix), DQ2_BASE (the base field's prefix) and DQ2_INLINE
 * (__forceinline__ or __noinline__ for the product and square).  Names
 * mirror the prime fields' so dpoint_template.cuh serves G1 and G2. */

#define E_(name) G16_CAT(DQ2, _##name)
#define B_(name) G16_CAT(DQ2_BASE, _##name)

typedef struct { DQ2_BASE c0, c1; } DQ2;

static HD void E_(zero)(DQ2 *r) { B_(zero)(&r->c0); B_(zero)(&r->c1); }
static HD void E_(one)(DQ2 *r) { B_(one)(&r->c0); B_(zero)(&r->c1); }
static HD int E_(is_zero)(const DQ2 *a)
{
    return B_(is_zero)(&a->c0) & B_(is_zero)(&a->c1);
}
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

/* Karatsuba: three base products instead of four.  DQ2_INLINE: BLS12-381's
 * Fq2 product is ~2k instructions, and inlining it at every call site made
 * its G2 file take minutes to compile, so there it is a call, by value (a
 * pointer argument would pin the caller's operands in local memory; see
 * dpoint_template.cuh).  Keeping the three products double-width for two
 * reductions instead of three issued fewer instructions but needed more
 * registers, and the G2 accumulation spilled: BN254 G2 2^24 255 -> 368 ms
 * (NOTES.md, session 6); so a b - c d in Fq2 (mul_diff2) is two products
 * and a subtraction too. */
static __host__ __device__ DQ2_INLINE DQ2 E_(mul_v)(DQ2 a_, DQ2 b_)
{
    DQ2 out, *r = &out;
    const DQ2 *a = &a_, *b = &b_;
#ifndef G16_FQ2_SUMS
#define G16_FQ2_SUMS 0
#endif
    if (G16_FQ2_SUMS) {
        B_(mul_diff2)(&r->c0, &a->c0, &b->c0, &a->c1, &b->c1);
        B_(mul_sum2)(&r->c1, &a->c0, &b->c1, &a->c1, &b->c0);
        return out;
    }
    DQ2_BASE v0, v1, s, t;
    B_(mul)(&v0, &a->c0, &b->c0);
    B_(mul)(&v1, &a->c1, &b->c1);
    B_(add)(&s, &a->c0, &a->c1);
    B_(add)(&t, &b->c0, &b->c1);
    B_(mul)(&s, &s, &t);
    B_(sub)(&r->c0, &v0, &v1);
    B_(sub)(&s, &s, &v0);
    B_(sub)(&r->c1, &s, &v1);
    return out;
}

static HD void E_(mul_diff2)(DQ2 *r, const DQ2 *a, const DQ2 *b, const DQ2 *c, const DQ2 *d)
{
    DQ2 t = E_(mul_v)(*c, *d);
    *r = E_(mul_v)(*a, *b);
    E_(sub)(r, r, &t);
}

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
