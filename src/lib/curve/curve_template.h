/* One group, stamped out by curve.h (no include guard on purpose).
 * Expects CURVE (prefix), CURVE_FE (coordinate field prefix), CURVE_B,
 * CURVE_GEN_X, CURVE_GEN_Y (initializers) and CURVE_ORDER (limbs of r). */

#define G_(name)  G16_CAT(CURVE, _##name)
#define FE_(name) G16_CAT(CURVE_FE, _##name)
#define G_AFFINE  G16_CAT(CURVE, _affine)

typedef struct {
    CURVE_FE x, y;
} G_AFFINE;
typedef struct {
    CURVE_FE x, y, z;
} CURVE;

static const CURVE_FE G_(b) = CURVE_B;
static const G_AFFINE G_(generator_affine) = {CURVE_GEN_X, CURVE_GEN_Y};
static const uint64_t G_(order)[4] = {CURVE_ORDER};

static inline void G_(set_infinity)(CURVE *p)
{
    FE_(one)(&p->x);
    FE_(one)(&p->y);
    FE_(zero)(&p->z);
}

static inline int G_(is_infinity)(const CURVE *p) { return FE_(is_zero)(&p->z); }

static inline int G_(affine_is_infinity)(const G_AFFINE *p)
{
    return FE_(is_zero)(&p->x) & FE_(is_zero)(&p->y);
}

static inline void G_(from_affine)(CURVE *r, const G_AFFINE *a)
{
    if (G_(affine_is_infinity)(a)) {
        G_(set_infinity)(r);
        return;
    }
    r->x = a->x;
    r->y = a->y;
    FE_(one)(&r->z);
}

static inline void G_(generator)(CURVE *r) { G_(from_affine)(r, &G_(generator_affine)); }

static inline void G_(neg)(CURVE *r, const CURVE *p)
{
    *r = *p;
    FE_(neg)(&r->y, &p->y);
}

static inline void G_(dbl)(CURVE *r, const CURVE *p)
{
    CURVE_FE a, b, c, d, e, f, t;
    if (G_(is_infinity)(p)) {
        *r = *p;
        return;
    }
    FE_(sqr)(&a, &p->x);
    FE_(sqr)(&b, &p->y);
    FE_(sqr)(&c, &b);
    FE_(add)(&d, &p->x, &b);
    FE_(sqr)(&d, &d);
    FE_(sub)(&d, &d, &a);
    FE_(sub)(&d, &d, &c);
    FE_(dbl)(&d, &d);
    FE_(dbl)(&e, &a);
    FE_(add)(&e, &e, &a);
    FE_(sqr)(&f, &e);
    FE_(mul)(&r->z, &p->y, &p->z); /* before r->y is written: r may be p */
    FE_(dbl)(&r->z, &r->z);
    FE_(dbl)(&t, &d);
    FE_(sub)(&r->x, &f, &t);
    FE_(sub)(&t, &d, &r->x);
    FE_(mul)(&t, &e, &t);
    FE_(dbl)(&c, &c);
    FE_(dbl)(&c, &c);
    FE_(dbl)(&c, &c);
    FE_(sub)(&r->y, &t, &c);
}

/* Shared tail of the full and mixed additions: given u1, s1 of the first
 * point and h = u2 - u1, rr = 2(s2 - s1), writes X3 and Y3. */
static inline void G_(add_finish)(CURVE *r, const CURVE_FE *u1, const CURVE_FE *s1,
                                  const CURVE_FE *i, const CURVE_FE *j, const CURVE_FE *rr)
{
    CURVE_FE v, t;
    FE_(mul)(&v, u1, i);
    FE_(sqr)(&r->x, rr);
    FE_(sub)(&r->x, &r->x, j);
    FE_(dbl)(&t, &v);
    FE_(sub)(&r->x, &r->x, &t);
    FE_(sub)(&t, &v, &r->x);
    FE_(mul)(&t, rr, &t);
    FE_(mul)(&v, s1, j);
    FE_(dbl)(&v, &v);
    FE_(sub)(&r->y, &t, &v);
}

static inline void G_(add)(CURVE *r, const CURVE *p, const CURVE *q)
{
    CURVE_FE z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, z;
    if (G_(is_infinity)(p)) {
        *r = *q;
        return;
    }
    if (G_(is_infinity)(q)) {
        *r = *p;
        return;
    }
    FE_(sqr)(&z1z1, &p->z);
    FE_(sqr)(&z2z2, &q->z);
    FE_(mul)(&u1, &p->x, &z2z2);
    FE_(mul)(&u2, &q->x, &z1z1);
    FE_(mul)(&s1, &p->y, &q->z);
    FE_(mul)(&s1, &s1, &z2z2);
    FE_(mul)(&s2, &q->y, &p->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &u1);
    FE_(sub)(&rr, &s2, &s1);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&rr))
            G_(dbl)(r, p);
        else
            G_(set_infinity)(r);
        return;
    }
    FE_(dbl)(&rr, &rr);
    FE_(dbl)(&i, &h);
    FE_(sqr)(&i, &i);
    FE_(mul)(&j, &h, &i);
    FE_(add)(&z, &p->z, &q->z);
    FE_(sqr)(&z, &z);
    FE_(sub)(&z, &z, &z1z1);
    FE_(sub)(&z, &z, &z2z2);
    FE_(mul)(&r->z, &z, &h);
    G_(add_finish)(r, &u1, &s1, &i, &j, &rr);
}

static inline void G_(add_affine)(CURVE *r, const CURVE *p, const G_AFFINE *q)
{
    CURVE_FE z1z1, u2, s2, h, hh, i, j, rr, z, u1, s1;
    if (G_(affine_is_infinity)(q)) {
        *r = *p;
        return;
    }
    if (G_(is_infinity)(p)) {
        G_(from_affine)(r, q);
        return;
    }
    FE_(sqr)(&z1z1, &p->z);
    FE_(mul)(&u2, &q->x, &z1z1);
    FE_(mul)(&s2, &q->y, &p->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &p->x);
    FE_(sub)(&rr, &s2, &p->y);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&rr))
            G_(dbl)(r, p);
        else
            G_(set_infinity)(r);
        return;
    }
    FE_(dbl)(&rr, &rr);
    FE_(sqr)(&hh, &h);
    FE_(dbl)(&i, &hh);
    FE_(dbl)(&i, &i);
    FE_(mul)(&j, &h, &i);
    FE_(add)(&z, &p->z, &h);
    FE_(sqr)(&z, &z);
    FE_(sub)(&z, &z, &z1z1);
    u1 = p->x;
    s1 = p->y;
    FE_(sub)(&r->z, &z, &hh);
    G_(add_finish)(r, &u1, &s1, &i, &j, &rr);
}

/* Projective equality: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3. */
static inline int G_(eq)(const CURVE *p, const CURVE *q)
{
    int pi = G_(is_infinity)(p), qi = G_(is_infinity)(q);
    if (pi || qi) return pi && qi;
    CURVE_FE z1z1, z2z2, a, b, c, d;
    FE_(sqr)(&z1z1, &p->z);
    FE_(sqr)(&z2z2, &q->z);
    FE_(mul)(&a, &p->x, &z2z2);
    FE_(mul)(&b, &q->x, &z1z1);
    FE_(mul)(&c, &p->y, &z2z2);
    FE_(mul)(&c, &c, &q->z);
    FE_(mul)(&d, &q->y, &z1z1);
    FE_(mul)(&d, &d, &p->z);
    return FE_(eq)(&a, &b) && FE_(eq)(&c, &d);
}

static inline void G_(to_affine)(G_AFFINE *r, const CURVE *p)
{
    CURVE_FE zi, zi2;
    if (G_(is_infinity)(p)) {
        FE_(zero)(&r->x);
        FE_(zero)(&r->y);
        return;
    }
    FE_(inv)(&zi, &p->z);
    FE_(sqr)(&zi2, &zi);
    FE_(mul)(&r->x, &p->x, &zi2);
    FE_(mul)(&zi2, &zi2, &zi);
    FE_(mul)(&r->y, &p->y, &zi2);
}

/* Montgomery's trick: one inversion for n points.  scratch holds n field
 * elements (the prefix products); infinity is skipped and comes out (0, 0). */
static inline void G_(batch_to_affine)(G_AFFINE *out, const CURVE *in, size_t n, CURVE_FE *scratch)
{
    CURVE_FE acc, inv, zi, zi2;
    FE_(one)(&acc);
    for (size_t k = 0; k < n; k++) {
        scratch[k] = acc;
        if (!G_(is_infinity)(&in[k])) FE_(mul)(&acc, &acc, &in[k].z);
    }
    FE_(inv)(&inv, &acc);
    for (size_t k = n; k-- > 0;) {
        if (G_(is_infinity)(&in[k])) {
            FE_(zero)(&out[k].x);
            FE_(zero)(&out[k].y);
            continue;
        }
        FE_(mul)(&zi, &inv, &scratch[k]);
        FE_(mul)(&inv, &inv, &in[k].z);
        FE_(sqr)(&zi2, &zi);
        FE_(mul)(&out[k].x, &in[k].x, &zi2);
        FE_(mul)(&zi2, &zi2, &zi);
        FE_(mul)(&out[k].y, &in[k].y, &zi2);
    }
}

/* y^2 = x^3 + b; infinity counts as on the curve. */
static inline int G_(affine_on_curve)(const G_AFFINE *p)
{
    CURVE_FE lhs, rhs;
    if (G_(affine_is_infinity)(p)) return 1;
    if (!FE_(is_canonical)(&p->x) || !FE_(is_canonical)(&p->y)) return 0;
    FE_(sqr)(&lhs, &p->y);
    FE_(sqr)(&rhs, &p->x);
    FE_(mul)(&rhs, &rhs, &p->x);
    FE_(add)(&rhs, &rhs, &G_(b));
    return FE_(eq)(&lhs, &rhs);
}

/* Montgomery ladder over every bit of the scalar: the same work whatever
 * the scalar, so secret multipliers (r, s) leak nothing through timing of
 * the group law's shape (the field layer's final subtraction aside). */
static inline void G_(mul)(CURVE *r, const CURVE *p, const uint64_t *scalar, int limbs)
{
    CURVE r0, r1 = *p;
    G_(set_infinity)(&r0);
    for (int i = 64 * limbs - 1; i >= 0; i--) {
        int bit = (int)((scalar[i / 64] >> (i % 64)) & 1);
        CURVE *hi = bit ? &r1 : &r0, *lo = bit ? &r0 : &r1;
        G_(add)(lo, &r0, &r1);
        G_(dbl)(hi, hi);
    }
    *r = r0;
}

/* r·P = infinity: the prime-order subgroup check (G2 and BLS12-381 G1 have
 * cofactors, so on-curve alone is not enough for untrusted points). */
static inline int G_(in_subgroup)(const G_AFFINE *p)
{
    CURVE t;
    G_(from_affine)(&t, p);
    G_(mul)(&t, &t, G_(order), 4);
    return G_(is_infinity)(&t);
}

#undef G_
#undef FE_
#undef G_AFFINE
#undef CURVE
#undef CURVE_FE
#undef CURVE_B
#undef CURVE_GEN_X
#undef CURVE_GEN_Y
#undef CURVE_ORDER
