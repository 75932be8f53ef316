/* XYZZ coordinates for one group, stamped out by msm_template.h (no include
 * guard on purpose).  A point is (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ
 * and ZZ^3 = ZZZ^2; ZZ = 0 is infinity, so all-zero memory is infinity.
 * Why XYZZ for buckets: adding an affine point costs 8M + 2S here against
 * 7M + 4S plus several additions in Jacobian, and the formulas below are
 * the a = 0 forms of the EFD's madd-2008-s, mdbl-2008-s-1, add-2008-s and
 * dbl-2008-s-1 (hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html).
 * Expects G_, FE_, M_, AFF, XYZZ and MSM_FE from the includer. */

typedef struct {
    MSM_FE x, y, zz, zzz;
} XYZZ;

static inline void M_(xyzz_set_inf)(XYZZ *p) { memset(p, 0, sizeof *p); }
static inline int M_(xyzz_is_inf)(const XYZZ *p) { return FE_(is_zero)(&p->zz); }

/* r = 2·(x, y) for an affine point.  y = 0 (order 2) gives ZZ = 0, that is
 * infinity, which is the right answer. */
static inline void M_(xyzz_dbl_affine)(XYZZ *r, const AFF *q)
{
    MSM_FE u, v, w, s, m, t, x3;
    FE_(dbl)(&u, &q->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &q->x, &v);
    FE_(sqr)(&m, &q->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t); /* M = 3x^2 (a = 0) */
    FE_(sqr)(&x3, &m);
    FE_(sub)(&x3, &x3, &s);
    FE_(sub)(&x3, &x3, &s);
    FE_(sub)(&t, &s, &x3);
    FE_(mul)(&t, &m, &t);
    FE_(mul)(&s, &w, &q->y);
    FE_(sub)(&r->y, &t, &s);
    r->x = x3;
    r->zz = v;
    r->zzz = w;
}

/* p += q for an affine q that is not infinity. */
static inline void M_(xyzz_add_affine)(XYZZ *p, const AFF *q)
{
    MSM_FE pp, ppp, qq, rr, t, u;
    if (M_(xyzz_is_inf)(p)) {
        p->x = q->x;
        p->y = q->y;
        FE_(one)(&p->zz);
        FE_(one)(&p->zzz);
        return;
    }
    FE_(mul)(&u, &q->x, &p->zz);
    FE_(sub)(&u, &u, &p->x); /* P = U2 - X1 */
    FE_(mul)(&rr, &q->y, &p->zzz);
    FE_(sub)(&rr, &rr, &p->y); /* R = S2 - Y1 */
    if (FE_(is_zero)(&u)) {
        if (FE_(is_zero)(&rr))
            M_(xyzz_dbl_affine)(p, q);
        else
            M_(xyzz_set_inf)(p);
        return;
    }
    FE_(sqr)(&pp, &u);
    FE_(mul)(&ppp, &u, &pp);
    FE_(mul)(&qq, &p->x, &pp);
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &qq);
    FE_(sub)(&p->x, &t, &qq); /* X3 = R^2 - PPP - 2Q */
    FE_(sub)(&t, &qq, &p->x);
    FE_(mul)(&t, &rr, &t);
    FE_(mul)(&u, &p->y, &ppp);
    FE_(sub)(&p->y, &t, &u); /* Y3 = R(Q - X3) - Y1·PPP */
    FE_(mul)(&p->zz, &p->zz, &pp);
    FE_(mul)(&p->zzz, &p->zzz, &ppp);
}

/* r = 2p; r may be p. */
static inline void M_(xyzz_dbl)(XYZZ *r, const XYZZ *p)
{
    MSM_FE u, v, w, s, m, t, x3, y3;
    FE_(dbl)(&u, &p->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &p->x, &v);
    FE_(sqr)(&m, &p->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);
    FE_(sqr)(&x3, &m);
    FE_(sub)(&x3, &x3, &s);
    FE_(sub)(&x3, &x3, &s);
    FE_(sub)(&t, &s, &x3);
    FE_(mul)(&t, &m, &t);
    FE_(mul)(&y3, &w, &p->y);
    FE_(sub)(&y3, &t, &y3);
    FE_(mul)(&r->zz, &v, &p->zz);
    FE_(mul)(&r->zzz, &w, &p->zzz);
    r->x = x3;
    r->y = y3;
}

/* p += q, any inputs (infinity, equal, opposite); q may be p. */
static inline void M_(xyzz_add)(XYZZ *p, const XYZZ *q)
{
    MSM_FE u1, u2, s1, s2, pp, ppp, qq, t;
    if (M_(xyzz_is_inf)(q)) return;
    if (M_(xyzz_is_inf)(p)) {
        *p = *q;
        return;
    }
    FE_(mul)(&u1, &p->x, &q->zz);
    FE_(mul)(&u2, &q->x, &p->zz);
    FE_(mul)(&s1, &p->y, &q->zzz);
    FE_(mul)(&s2, &q->y, &p->zzz);
    FE_(sub)(&u2, &u2, &u1); /* P */
    FE_(sub)(&s2, &s2, &s1); /* R */
    if (FE_(is_zero)(&u2)) {
        if (FE_(is_zero)(&s2))
            M_(xyzz_dbl)(p, p);
        else
            M_(xyzz_set_inf)(p);
        return;
    }
    FE_(sqr)(&pp, &u2);
    FE_(mul)(&ppp, &u2, &pp);
    FE_(mul)(&qq, &u1, &pp);
    /* p is written before q's last read: fine, q == p took the dbl path. */
    FE_(mul)(&p->zz, &p->zz, &q->zz);
    FE_(mul)(&p->zz, &p->zz, &pp);
    FE_(mul)(&p->zzz, &p->zzz, &q->zzz);
    FE_(mul)(&p->zzz, &p->zzz, &ppp);
    FE_(sqr)(&t, &s2);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &qq);
    FE_(sub)(&p->x, &t, &qq);
    FE_(sub)(&t, &qq, &p->x);
    FE_(mul)(&t, &s2, &t);
    FE_(mul)(&s1, &s1, &ppp);
    FE_(sub)(&p->y, &t, &s1);
}

/* Jacobian (X·ZZ^2, Y·ZZZ^2, ZZZ): with Z = ZZZ, Z^2 = ZZ^3 by the XYZZ
 * invariant, so x = X·ZZ^2/ZZ^3 and y = Y·ZZZ^2/ZZZ^3. */
static inline void M_(xyzz_to_jacobian)(MSM_G *r, const XYZZ *p)
{
    MSM_FE t;
    if (M_(xyzz_is_inf)(p)) {
        G_(set_infinity)(r);
        return;
    }
    FE_(sqr)(&t, &p->zz);
    FE_(mul)(&r->x, &p->x, &t);
    FE_(sqr)(&t, &p->zzz);
    FE_(mul)(&r->y, &p->y, &t);
    r->z = p->zzz;
}
