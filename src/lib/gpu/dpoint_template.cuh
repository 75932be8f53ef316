/* One group on the device in XYZZ coordinates (x = X/ZZ, y = Y/ZZZ,
 * ZZ^3 = ZZZ^2), stamped out per group.  Expects DG (prefix) and DG_FE
 * (coordinate field prefix: d_bn254_fq, d_bn254_fq2, ...).
 *
 * Why XYZZ: the mixed addition costs 8M + 2S with no inversion and the
 * full addition 12M + 2S, cheaper than Jacobian for bucket accumulation
 * (EFD: madd-2008-s, add-2008-s, dbl-2008-s-1, mdbl-2008-s-1; a = 0).
 * Infinity is ZZ = 0 in XYZZ and x = y = 0 in affine form (zkey layout). */

#define P_(name)  G16_CAT(DG, _##name)
#define FE_(name) G16_CAT(DG_FE, _##name)
#define DG_AFF    G16_CAT(DG, _aff)

typedef struct {
    DG_FE x, y;
} DG_AFF;
typedef struct {
    DG_FE x, y, zz, zzz;
} DG;

static HD void P_(set_inf)(DG *p)
{
    FE_(zero)(&p->zz);
    FE_(zero)(&p->zzz);
}

static HD void P_(zero_all)(DG *p)
{
    FE_(zero)(&p->x);
    FE_(zero)(&p->y);
    FE_(zero)(&p->zz);
    FE_(zero)(&p->zzz);
}

static HD int P_(is_inf)(const DG *p) { return FE_(is_zero)(&p->zz); }

static HD int P_(aff_is_inf)(const DG_AFF *a) { return FE_(is_zero)(&a->x) & FE_(is_zero)(&a->y); }

static HD void P_(from_aff)(DG *r, const DG_AFF *a)
{
    r->x = a->x;
    r->y = a->y;
    FE_(one)(&r->zz);
    FE_(one)(&r->zzz);
}

static HD void P_(aff_neg)(DG_AFF *a) { FE_(neg)(&a->y, &a->y); }

/* The rare paths (doubling, full addition) are calls, to keep compile time
 * and code size down, and take and return points by value: passing the
 * address of a caller's accumulator to a non-inlined function put that
 * accumulator in local memory (ptxas: a 192-byte stack frame in the BN254
 * G1 accumulation kernel).  Measured (docs/gpu-notes.md, v2): no change for
 * BN254 G1, BLS12-381 G1 accumulation 338 -> 303 ms, BN254 G2 486 -> 606
 * ms (237 registers instead of 168); kept because the later numbers were
 * all measured on top of it. */

/* 2 * affine point (mdbl-2008-s-1). */
static __host__ __device__ __noinline__ DG P_(dbl_aff_v)(DG_AFF a_)
{
    DG out, *r = &out;
    const DG_AFF *a = &a_;
    DG_FE u, v, w, s, m, t;
    FE_(dbl)(&u, &a->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &a->x, &v);
    FE_(sqr)(&m, &a->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);
    FE_(sqr)(&r->x, &m);
    FE_(dbl)(&t, &s);
    FE_(sub)(&r->x, &r->x, &t);
    FE_(sub)(&t, &s, &r->x);
    FE_(mul_diff2)(&r->y, &m, &t, &w, &a->y);
    r->zz = v;
    r->zzz = w;
    return out;
}

/* dbl-2008-s-1; infinity stays infinity (ZZ3 = V * ZZ1 = 0). */
static __host__ __device__ __noinline__ DG P_(dbl_v)(DG p_)
{
    DG out, *r = &out;
    const DG *p = &p_;
    DG_FE u, v, w, s, m, t;
    FE_(dbl)(&u, &p->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &p->x, &v);
    FE_(sqr)(&m, &p->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);
    FE_(mul)(&r->zz, &v, &p->zz);
    FE_(mul)(&r->zzz, &w, &p->zzz);
    FE_(sqr)(&r->x, &m);
    FE_(dbl)(&t, &s);
    FE_(sub)(&r->x, &r->x, &t);
    FE_(sub)(&t, &s, &r->x);
    FE_(mul_diff2)(&r->y, &m, &t, &w, &p->y);
    return out;
}

static HD void P_(dbl)(DG *r, const DG *p) { *r = P_(dbl_v)(*p); }

/* p += affine a (madd-2008-s), every special case handled. */
static __host__ __device__ void P_(add_aff)(DG *p, const DG_AFF *a)
{
    DG_FE u2, s2, pp, ppp, q, t;
    if (P_(aff_is_inf)(a)) return;
    if (P_(is_inf)(p)) {
        P_(from_aff)(p, a);
        return;
    }
    FE_(mul)(&u2, &a->x, &p->zz);
    FE_(mul)(&s2, &a->y, &p->zzz);
    FE_(sub)(&u2, &u2, &p->x); /* P */
    FE_(sub)(&s2, &s2, &p->y); /* R */
    if (FE_(is_zero)(&u2)) {
        if (FE_(is_zero)(&s2))
            *p = P_(dbl_aff_v)(*a);
        else
            P_(set_inf)(p);
        return;
    }
    FE_(sqr)(&pp, &u2);
    FE_(mul)(&ppp, &pp, &u2);
    FE_(mul)(&q, &p->x, &pp);
    FE_(mul)(&p->zz, &p->zz, &pp);
    FE_(mul)(&p->zzz, &p->zzz, &ppp);
    FE_(sqr)(&t, &s2);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &q);
    FE_(sub)(&p->x, &t, &q);
    FE_(sub)(&t, &q, &p->x);
    FE_(mul_diff2)(&p->y, &t, &s2, &ppp, &p->y);
}

/* p += q (add-2008-s), every special case handled.  Not inlined: only the
 * mixed addition is hot, and one copy keeps compile time down. */
static __host__ __device__ __noinline__ DG P_(add_v)(DG p_, DG q_)
{
    DG *p = &p_;
    const DG *q = &q_;
    DG_FE u1, u2, s1, s2, pp, ppp, t;
    if (P_(is_inf)(q)) return p_;
    if (P_(is_inf)(p)) return q_;
    FE_(mul)(&u1, &p->x, &q->zz);
    FE_(mul)(&u2, &q->x, &p->zz);
    FE_(mul)(&s1, &p->y, &q->zzz);
    FE_(mul)(&s2, &q->y, &p->zzz);
    FE_(sub)(&u2, &u2, &u1); /* P */
    FE_(sub)(&s2, &s2, &s1); /* R */
    if (FE_(is_zero)(&u2)) {
        if (FE_(is_zero)(&s2))
            P_(dbl)(p, p);
        else
            P_(set_inf)(p);
        return p_;
    }
    FE_(sqr)(&pp, &u2);
    FE_(mul)(&ppp, &pp, &u2);
    FE_(mul)(&u1, &u1, &pp); /* Q */
    FE_(mul)(&p->zz, &p->zz, &q->zz);
    FE_(mul)(&p->zz, &p->zz, &pp);
    FE_(mul)(&p->zzz, &p->zzz, &q->zzz);
    FE_(mul)(&p->zzz, &p->zzz, &ppp);
    FE_(sqr)(&t, &s2);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &u1);
    FE_(sub)(&p->x, &t, &u1);
    FE_(sub)(&t, &u1, &p->x);
    FE_(mul_diff2)(&p->y, &t, &s2, &s1, &ppp);
    return p_;
}

static HD void P_(add)(DG *p, const DG *q) { *p = P_(add_v)(*p, *q); }

/* p *= k (k < 2^32), double-and-add from the top bit. */
static __host__ __device__ void P_(mul_small)(DG *p, uint32_t k)
{
    DG acc;
    P_(set_inf)(&acc);
    for (int i = 31 - G16_CLZ(k | 1); i >= 0; i--) {
        P_(dbl)(&acc, &acc);
        if ((k >> i) & 1) P_(add)(&acc, p);
    }
    *p = acc;
}

/* Field helpers for the shift copies' batched inversion (msm_template.cuh,
 * shift_batch). */
typedef DG_FE G16_CAT(DG, _fe);

static HD void P_(fe_one)(DG_FE *r) { FE_(one)(r); }
static HD void P_(fe_zero)(DG_FE *r) { FE_(zero)(r); }
static HD void P_(fe_mul)(DG_FE *r, const DG_FE *a, const DG_FE *b) { FE_(mul)(r, a, b); }
static HD void P_(fe_inv)(DG_FE *r, const DG_FE *a) { FE_(inv)(r, a); }

/* One inversion: 1/(ZZ ZZZ) gives both 1/ZZ and 1/ZZZ. */
static __host__ __device__ void P_(to_aff)(DG_AFF *r, const DG *p)
{
    DG_FE i, t;
    if (P_(is_inf)(p)) {
        FE_(zero)(&r->x);
        FE_(zero)(&r->y);
        return;
    }
    FE_(mul)(&i, &p->zz, &p->zzz);
    FE_(inv)(&i, &i);
    FE_(mul)(&t, &i, &p->zzz);
    FE_(mul)(&r->x, &p->x, &t);
    FE_(mul)(&t, &i, &p->zz);
    FE_(mul)(&r->y, &p->y, &t);
}

#undef P_
#undef FE_
#undef DG_AFF
#undef DG
#undef DG_FE
