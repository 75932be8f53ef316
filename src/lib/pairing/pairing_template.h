/* The optimal Ate pairing of one curve, stamped out by pairing.c (no include
 * guard on purpose).  Expects:
 *   PAIRING        name prefix (bn254, bls12_381)
 *   PAIRING_FQ, PAIRING_FQ2, PAIRING_FQ12, PAIRING_G1, PAIRING_G2  prefixes
 *   PAIRING_D_TWIST  1 when the twist E': y^2 = x^3 + b/xi untwists by
 *                  (x w^2, y w^3) (BN254), 0 for the M-twist y^2 = x^3 + b xi
 *                  untwisting by (x / w^2, y / w^3) (BLS12-381)
 *   PAIRING_LOOP   loop count limbs {lo, hi}: 6x+2 for BN254, |x| for BLS12-381
 *   PAIRING_LOOP_NEG  1 when the curve parameter x is negative
 *   PAIRING_BN     1 to add the two Frobenius lines that end a BN loop
 *   PAIRING_TWO_INV  1/2 in Montgomery form
 * and a function PAIRING_final_exp_hard (the hard part of the final
 * exponentiation) declared before the include.
 *
 * Line functions follow the homogeneous-projective formulas of Costello,
 * Lange and Naehrig (PKC 2010) with a = 0.  A line through points of the
 * twist, evaluated at P = (xP, yP), is  cy·yP·w^iy + cx·xP·w^ix + c·w^ic;
 * the D-twist puts (iy, ix, ic) at (0, 1, 3), the M-twist (after scaling
 * the line by w^3) at (3, 2, 0).  Scaling a line by an element of a proper
 * subfield (Fq2, Fq4, Fq6) changes nothing after the final exponentiation,
 * which is why the formulas drop such factors freely. */

#define X_(name)   G16_CAT(PAIRING, _##name)
#define Q_(name)   G16_CAT(PAIRING_FQ, _##name)
#define Q2_(name)  G16_CAT(PAIRING_FQ2, _##name)
#define Q12_(name) G16_CAT(PAIRING_FQ12, _##name)
#define G1A        G16_CAT(PAIRING_G1, _affine)
#define G2A        G16_CAT(PAIRING_G2, _affine)
#define G2_(name)  G16_CAT(PAIRING_G2, _##name)

/* A point of the twist in homogeneous coordinates (x = X/Z, y = Y/Z). */
typedef struct {
    PAIRING_FQ2 x, y, z;
} X_(proj);

/* Coefficients of one line (see above). */
typedef struct {
    PAIRING_FQ2 cy, cx, c;
} X_(line);

static const PAIRING_FQ X_(two_inv) = PAIRING_TWO_INV;
static const uint64_t X_(loop)[2] = PAIRING_LOOP;

/* T = 2T and the tangent line at T. */
static void X_(line_dbl)(X_(line) * l, X_(proj) * t)
{
    PAIRING_FQ2 a, b, c, e, f, g, h, j, e2;
    Q2_(mul)(&a, &t->x, &t->y);
    Q2_(mul_base)(&a, &a, &X_(two_inv)); /* a = XY/2 */
    Q2_(sqr)(&b, &t->y);                 /* b = Y^2 */
    Q2_(sqr)(&c, &t->z);                 /* c = Z^2 */
    Q2_(dbl)(&e, &c);
    Q2_(add)(&e, &e, &c);
    Q2_(mul)(&e, &e, &G2_(b)); /* e = 3 b' Z^2 */
    Q2_(dbl)(&f, &e);
    Q2_(add)(&f, &f, &e); /* f = 3e */
    Q2_(add)(&g, &b, &f);
    Q2_(mul_base)(&g, &g, &X_(two_inv)); /* g = (b + f)/2 */
    Q2_(add)(&h, &t->y, &t->z);
    Q2_(sqr)(&h, &h);
    Q2_(sub)(&h, &h, &b);
    Q2_(sub)(&h, &h, &c); /* h = 2YZ */
    Q2_(sqr)(&j, &t->x);  /* j = X^2 */
    Q2_(sqr)(&e2, &e);
    Q2_(sub)(&l->c, &e, &b); /* line: 3b'Z^2 - Y^2 */
    Q2_(dbl)(&l->cx, &j);
    Q2_(add)(&l->cx, &l->cx, &j); /*   + 3X^2 xP */
    Q2_(neg)(&l->cy, &h);         /*   - 2YZ yP */
    Q2_(sub)(&t->x, &b, &f);
    Q2_(mul)(&t->x, &t->x, &a); /* X3 = a(b - f) */
    Q2_(sqr)(&t->y, &g);
    Q2_(sub)(&t->y, &t->y, &e2);
    Q2_(sub)(&t->y, &t->y, &e2);
    Q2_(sub)(&t->y, &t->y, &e2); /* Y3 = g^2 - 3e^2 */
    Q2_(mul)(&t->z, &b, &h);     /* Z3 = b h */
}

/* T = T + Q and the line through T and Q (T != ±Q, which cannot happen
 * inside the loops for points of order r). */
static void X_(line_add)(X_(line) * l, X_(proj) * t, const G2A *q)
{
    PAIRING_FQ2 theta, lambda, c, d, e, f, g, h, s;
    Q2_(mul)(&theta, &q->y, &t->z);
    Q2_(sub)(&theta, &t->y, &theta); /* theta = Y - yQ Z */
    Q2_(mul)(&lambda, &q->x, &t->z);
    Q2_(sub)(&lambda, &t->x, &lambda); /* lambda = X - xQ Z */
    Q2_(sqr)(&c, &theta);
    Q2_(sqr)(&d, &lambda);
    Q2_(mul)(&e, &lambda, &d);
    Q2_(mul)(&f, &t->z, &c);
    Q2_(mul)(&g, &t->x, &d);
    Q2_(add)(&h, &e, &f);
    Q2_(sub)(&h, &h, &g);
    Q2_(sub)(&h, &h, &g); /* h = e + f - 2g */
    Q2_(mul)(&t->x, &lambda, &h);
    Q2_(sub)(&s, &g, &h);
    Q2_(mul)(&s, &theta, &s);
    Q2_(mul)(&t->y, &e, &t->y);
    Q2_(sub)(&t->y, &s, &t->y); /* Y3 = theta(g - h) - e Y */
    Q2_(mul)(&t->z, &t->z, &e);
    Q2_(mul)(&l->c, &theta, &q->x);
    Q2_(mul)(&s, &lambda, &q->y);
    Q2_(sub)(&l->c, &l->c, &s); /* line: theta xQ - lambda yQ */
    Q2_(neg)(&l->cx, &theta);   /*   - theta xP */
    l->cy = lambda;             /*   + lambda yP */
}

/* f = f · line(P), by the sparse product that fits the twist. */
static void X_(line_eval)(PAIRING_FQ12 *f, const X_(line) * l, const G1A *p)
{
    PAIRING_FQ2 ly, lx;
    Q2_(mul_base)(&ly, &l->cy, &p->y);
    Q2_(mul_base)(&lx, &l->cx, &p->x);
#if PAIRING_D_TWIST
    Q12_(mul_by_034)(f, &ly, &lx, &l->c);
#else
    Q12_(mul_by_014)(f, &l->c, &lx, &ly);
#endif
}

#if PAIRING_BN
/* The p-power Frobenius endomorphism on the twist (D-twist: untwist,
 * raise to p, twist back): (conj(x) gamma_2, conj(y) gamma_3). */
static void X_(twist_frobenius)(G2A *r, const G2A *q)
{
    Q2_(conj)(&r->x, &q->x);
    Q2_(mul)(&r->x, &r->x, &Q12_(frob_gamma)[2]);
    Q2_(conj)(&r->y, &q->y);
    Q2_(mul)(&r->y, &r->y, &Q12_(frob_gamma)[3]);
}
#endif

/* The loop over at most MILLER_CHUNK pairs at once, all finite.  It walks
 * the non-adjacent form of the loop count (digits -1, 0, 1): fewer
 * additions than binary (22 instead of 37 for BN254's 6x+2), and a -1
 * digit adds -Q, whose line differs from the binary chain's only by
 * vertical lines, which the final exponentiation removes. */
enum { X_(MILLER_CHUNK) = 16 };

static void X_(miller_chunk)(PAIRING_FQ12 *f, const G1A *p, const G2A *q, size_t n)
{
    X_(proj) t[X_(MILLER_CHUNK)];
    X_(line) l;
    int8_t naf[130];
    int top = pairing_naf(naf, ((g16_u128)X_(loop)[1] << 64) | X_(loop)[0]) - 1;
    for (size_t i = 0; i < n; i++) {
        t[i].x = q[i].x;
        t[i].y = q[i].y;
        Q2_(one)(&t[i].z);
    }
    Q12_(one)(f);
    for (int bit = top - 1; bit >= 0; bit--) {
        Q12_(sqr)(f, f);
        for (size_t i = 0; i < n; i++) {
            X_(line_dbl)(&l, &t[i]);
            X_(line_eval)(f, &l, &p[i]);
        }
        if (!naf[bit]) continue;
        for (size_t i = 0; i < n; i++) {
            G2A qi = q[i];
            if (naf[bit] < 0) Q2_(neg)(&qi.y, &qi.y);
            X_(line_add)(&l, &t[i], &qi);
            X_(line_eval)(f, &l, &p[i]);
        }
    }
#if PAIRING_LOOP_NEG
    Q12_(conj)(f, f); /* f_{-|x|} = 1/f_{|x|} up to a vertical line */
#endif
#if PAIRING_BN
    for (size_t i = 0; i < n; i++) { /* the lines to pi(Q) and -pi^2(Q) */
        G2A q1, q2;
        X_(twist_frobenius)(&q1, &q[i]);
        X_(twist_frobenius)(&q2, &q1);
        Q2_(neg)(&q2.y, &q2.y);
        X_(line_add)(&l, &t[i], &q1);
        X_(line_eval)(f, &l, &p[i]);
        X_(line_add)(&l, &t[i], &q2);
        X_(line_eval)(f, &l, &p[i]);
    }
#endif
}

void X_(miller_loop)(PAIRING_FQ12 *f, const G1A *p, const G2A *q, size_t n)
{
    G1A pc[X_(MILLER_CHUNK)];
    G2A qc[X_(MILLER_CHUNK)];
    PAIRING_FQ12 part;
    size_t k = 0;
    Q12_(one)(f);
    for (size_t i = 0; i <= n; i++) {
        /* Pairs with infinity contribute 1 (their lines are undefined). */
        if (i < n && !G16_CAT(PAIRING_G1, _affine_is_infinity)(&p[i]) &&
            !G2_(affine_is_infinity)(&q[i])) {
            pc[k] = p[i];
            qc[k++] = q[i];
        }
        if (k == 0 || (k < X_(MILLER_CHUNK) && i < n)) continue;
        X_(miller_chunk)(&part, pc, qc, k);
        Q12_(mul)(f, f, &part);
        k = 0;
    }
}

/* f^((p^12 - 1)/r), or the fixed power of it that snarkjs computes (see
 * the hard parts in pairing.c). */
void X_(final_exp)(PAIRING_FQ12 *r, const PAIRING_FQ12 *f)
{
    PAIRING_FQ12 t, u;
    Q12_(inv)(&t, f);
    Q12_(conj)(&u, f);
    Q12_(mul)(&t, &u, &t); /* f^(p^6 - 1) */
    Q12_(frobenius)(&u, &t, 2);
    Q12_(mul)(&t, &u, &t); /* ^(p^2 + 1): now in the cyclotomic subgroup */
    X_(final_exp_hard)(r, &t);
}

void X_(pairing)(PAIRING_FQ12 *r, const G1A *p, const G2A *q)
{
    PAIRING_FQ12 f;
    X_(miller_loop)(&f, p, q, 1);
    X_(final_exp)(r, &f);
}

int X_(pairing_check)(const G1A *p, const G2A *q, size_t n)
{
    PAIRING_FQ12 f;
    X_(miller_loop)(&f, p, q, n);
    X_(final_exp)(&f, &f);
    return Q12_(is_one)(&f);
}

#undef X_
#undef Q_
#undef Q2_
#undef Q12_
#undef G1A
#undef G2A
#undef G2_
#undef PAIRING
#undef PAIRING_FQ
#undef PAIRING_FQ2
#undef PAIRING_FQ12
#undef PAIRING_G1
#undef PAIRING_G2
#undef PAIRING_D_TWIST
#undef PAIRING_LOOP
#undef PAIRING_LOOP_NEG
#undef PAIRING_BN
#undef PAIRING_TWO_INV
