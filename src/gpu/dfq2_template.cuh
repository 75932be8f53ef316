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

/* The product before its reductions (Karatsuba: three base products
 * instead of four), each half a flat wide value below p R: w0 = a0 b0 -
 * a1 b1 (+ p R when negative), w1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 =
 * a0 b1 + a1 b0 < 2 p^2.  Two reductions instead of three (measured in
 * NOTES.md, session 6); the sums a0 + a1 < 2p stay unreduced (4 p^2 < p R
 * for both curves). */
#define BW G16_CAT(DQ2_BASE, _wide)
static HD void E_(mul_wide)(BW *w0, BW *w1, const DQ2 *a, const DQ2 *b)
{
    DQ2_BASE s, t;
    BW v1;
    B_(mul_wide)(w0, a->c0.v, b->c0.v);
    B_(wide_flat)(w0);
    B_(mul_wide)(&v1, a->c1.v, b->c1.v);
    B_(wide_flat)(&v1);
    B_(add_unreduced)(&s, &a->c0, &a->c1);
    B_(add_unreduced)(&t, &b->c0, &b->c1);
    B_(mul_wide)(w1, s.v, t.v);
    B_(wide_flat)(w1);
    B_(wide_sub)(w1, w1, w0);
    B_(wide_sub)(w1, w1, &v1);
    B_(wide_sub)(w0, w0, &v1);
}

/* DQ2_INLINE: BLS12-381's Fq2 product is ~2k instructions, and inlining it
 * at every call site made its G2 file take minutes to compile, so there it
 * is a call, by value (a pointer argument would pin the caller's operands
 * in local memory; see dpoint_template.cuh). */
static __host__ __device__ DQ2_INLINE DQ2 E_(mul_v)(DQ2 a, DQ2 b)
{
    DQ2 r;
    BW w0, w1;
    if (!G16_GPU_FQ2_LAZY) {   /* measuring switch: three reduced products */
        DQ2_BASE v0, v1, s, t;
        B_(mul)(&v0, &a.c0, &b.c0);
        B_(mul)(&v1, &a.c1, &b.c1);
        B_(add)(&s, &a.c0, &a.c1);
        B_(add)(&t, &b.c0, &b.c1);
        B_(mul)(&s, &s, &t);
        B_(sub)(&r.c0, &v0, &v1);
        B_(sub)(&s, &s, &v0);
        B_(sub)(&r.c1, &s, &v1);
        return r;
    }
    E_(mul_wide)(&w0, &w1, &a, &b);
    B_(redc)(&r.c0, &w0);
    B_(redc)(&r.c1, &w1);
    return r;
}

/* a b - c d with two reductions instead of four (the points' y). */
static __host__ __device__ DQ2_INLINE DQ2 E_(mul_diff2_v)(DQ2 a, DQ2 b, DQ2 c, DQ2 d)
{
    DQ2 r;
    BW x0, x1, y0, y1;
    if (!G16_GPU_FQ2_LAZY) {
        DQ2 t = E_(mul_v)(c, d);
        r = E_(mul_v)(a, b);
        E_(sub)(&r, &r, &t);
        return r;
    }
    E_(mul_wide)(&x0, &x1, &a, &b);
    E_(mul_wide)(&y0, &y1, &c, &d);
    B_(wide_sub)(&x0, &x0, &y0);
    B_(wide_sub)(&x1, &x1, &y1);
    B_(redc)(&r.c0, &x0);
    B_(redc)(&r.c1, &x1);
    return r;
}

static HD void E_(mul_diff2)(DQ2 *r, const DQ2 *a, const DQ2 *b, const DQ2 *c, const DQ2 *d)
{
    *r = E_(mul_diff2_v)(*a, *b, *c, *d);
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
#undef BW
#undef B_
#undef DQ2
#undef DQ2_BASE
#undef DQ2_INLINE
