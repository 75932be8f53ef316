/* Fq6 = Fq2[v]/(v^3 - xi), xi = XI + u, stamped out by tower.h (no include
 * guard on purpose).  Expects FQ6 (name), FQ6_FQ2 (the Fq2 prefix), FQ6_FQ
 * (the prime field prefix) and FQ6_XI (the small integer part of xi: 9 for
 * BN254, 1 for BLS12-381).  Elements are c0 + c1 v + c2 v^2. */

#define S_(name) G16_CAT(FQ6, _##name)
#define T_(name) G16_CAT(FQ6_FQ2, _##name)
#define P_(name) G16_CAT(FQ6_FQ, _##name)

typedef struct {
    FQ6_FQ2 c0, c1, c2;
} FQ6;

/* r = k·a for the small constant k = FQ6_XI: additions only, because a
 * Montgomery multiplication by a constant would cost more than the few
 * doublings the tiny constants need. */
static inline void S_(fq_mul_xi0)(FQ6_FQ *r, const FQ6_FQ *a)
{
    FQ6_FQ acc = *a; /* the top bit of k */
    for (int bit = 30 - __builtin_clz(FQ6_XI); bit >= 0; bit--) {
        P_(dbl)(&acc, &acc);
        if ((FQ6_XI >> bit) & 1) P_(add)(&acc, &acc, a);
    }
    *r = acc;
}

/* r = a·xi = (k·a0 - a1) + (a0 + k·a1)u for xi = k + u. */
static inline void S_(fq2_mul_xi)(FQ6_FQ2 *r, const FQ6_FQ2 *a)
{
    FQ6_FQ k0, k1;
    S_(fq_mul_xi0)(&k0, &a->c0);
    S_(fq_mul_xi0)(&k1, &a->c1);
    P_(sub)(&k0, &k0, &a->c1);
    P_(add)(&r->c1, &a->c0, &k1);
    r->c0 = k0;
}

static inline void S_(zero)(FQ6 *r)
{
    T_(zero)(&r->c0);
    T_(zero)(&r->c1);
    T_(zero)(&r->c2);
}
static inline void S_(one)(FQ6 *r)
{
    T_(one)(&r->c0);
    T_(zero)(&r->c1);
    T_(zero)(&r->c2);
}

static inline int S_(is_zero)(const FQ6 *a)
{
    return T_(is_zero)(&a->c0) & T_(is_zero)(&a->c1) & T_(is_zero)(&a->c2);
}

static inline int S_(eq)(const FQ6 *a, const FQ6 *b)
{
    return T_(eq)(&a->c0, &b->c0) & T_(eq)(&a->c1, &b->c1) & T_(eq)(&a->c2, &b->c2);
}

static inline void S_(add)(FQ6 *r, const FQ6 *a, const FQ6 *b)
{
    T_(add)(&r->c0, &a->c0, &b->c0);
    T_(add)(&r->c1, &a->c1, &b->c1);
    T_(add)(&r->c2, &a->c2, &b->c2);
}

static inline void S_(sub)(FQ6 *r, const FQ6 *a, const FQ6 *b)
{
    T_(sub)(&r->c0, &a->c0, &b->c0);
    T_(sub)(&r->c1, &a->c1, &b->c1);
    T_(sub)(&r->c2, &a->c2, &b->c2);
}

static inline void S_(neg)(FQ6 *r, const FQ6 *a)
{
    T_(neg)(&r->c0, &a->c0);
    T_(neg)(&r->c1, &a->c1);
    T_(neg)(&r->c2, &a->c2);
}

/* r = a·v = xi·a2 + a0 v + a1 v^2 (v^3 = xi). */
static inline void S_(mul_v)(FQ6 *r, const FQ6 *a)
{
    FQ6_FQ2 t;
    S_(fq2_mul_xi)(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* Karatsuba over the cubic extension: six Fq2 multiplications. */
static inline void S_(mul)(FQ6 *r, const FQ6 *a, const FQ6 *b)
{
    FQ6_FQ2 t0, t1, t2, sa, sb, c0, c1, c2;
    T_(mul)(&t0, &a->c0, &b->c0);
    T_(mul)(&t1, &a->c1, &b->c1);
    T_(mul)(&t2, &a->c2, &b->c2);
    T_(add)(&sa, &a->c1, &a->c2); /* c0 = t0 + xi((a1+a2)(b1+b2) - t1 - t2) */
    T_(add)(&sb, &b->c1, &b->c2);
    T_(mul)(&c0, &sa, &sb);
    T_(sub)(&c0, &c0, &t1);
    T_(sub)(&c0, &c0, &t2);
    S_(fq2_mul_xi)(&c0, &c0);
    T_(add)(&c0, &c0, &t0);
    T_(add)(&sa, &a->c0, &a->c1); /* c1 = (a0+a1)(b0+b1) - t0 - t1 + xi t2 */
    T_(add)(&sb, &b->c0, &b->c1);
    T_(mul)(&c1, &sa, &sb);
    T_(sub)(&c1, &c1, &t0);
    T_(sub)(&c1, &c1, &t1);
    S_(fq2_mul_xi)(&sa, &t2);
    T_(add)(&c1, &c1, &sa);
    T_(add)(&sa, &a->c0, &a->c2); /* c2 = (a0+a2)(b0+b2) - t0 - t2 + t1 */
    T_(add)(&sb, &b->c0, &b->c2);
    T_(mul)(&c2, &sa, &sb);
    T_(sub)(&c2, &c2, &t0);
    T_(sub)(&c2, &c2, &t2);
    T_(add)(&c2, &c2, &t1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* Chung-Hasan SQR2: two squarings and three multiplications in Fq2. */
static inline void S_(sqr)(FQ6 *r, const FQ6 *a)
{
    FQ6_FQ2 s0, s1, s2, s3, s4, t;
    T_(sqr)(&s0, &a->c0);
    T_(mul)(&s1, &a->c0, &a->c1);
    T_(dbl)(&s1, &s1);
    T_(sub)(&t, &a->c0, &a->c1);
    T_(add)(&t, &t, &a->c2);
    T_(sqr)(&s2, &t);
    T_(mul)(&s3, &a->c1, &a->c2);
    T_(dbl)(&s3, &s3);
    T_(sqr)(&s4, &a->c2);
    S_(fq2_mul_xi)(&t, &s3); /* c0 = s0 + xi s3 */
    T_(add)(&r->c0, &s0, &t);
    S_(fq2_mul_xi)(&t, &s4); /* c1 = s1 + xi s4 */
    T_(add)(&r->c1, &s1, &t);
    T_(add)(&t, &s1, &s2); /* c2 = s1 + s2 + s3 - s0 - s4 */
    T_(add)(&t, &t, &s3);
    T_(sub)(&t, &t, &s0);
    T_(sub)(&r->c2, &t, &s4);
}

/* r = a·(b0 + b1 v): the sparse product of the Miller loop's lines, five
 * Fq2 multiplications instead of six. */
static inline void S_(mul_by_01)(FQ6 *r, const FQ6 *a, const FQ6_FQ2 *b0, const FQ6_FQ2 *b1)
{
    FQ6_FQ2 t0, t1, s, u, c0, c1, c2;
    T_(mul)(&t0, &a->c0, b0);
    T_(mul)(&t1, &a->c1, b1);
    T_(add)(&s, &a->c1, &a->c2); /* c0 = xi((a1+a2) b1 - t1) + t0 */
    T_(mul)(&c0, &s, b1);
    T_(sub)(&c0, &c0, &t1);
    S_(fq2_mul_xi)(&c0, &c0);
    T_(add)(&c0, &c0, &t0);
    T_(add)(&s, &a->c0, &a->c1); /* c1 = (a0+a1)(b0+b1) - t0 - t1 */
    T_(add)(&u, b0, b1);
    T_(mul)(&c1, &s, &u);
    T_(sub)(&c1, &c1, &t0);
    T_(sub)(&c1, &c1, &t1);
    T_(add)(&s, &a->c0, &a->c2); /* c2 = (a0+a2) b0 - t0 + t1 */
    T_(mul)(&c2, &s, b0);
    T_(sub)(&c2, &c2, &t0);
    T_(add)(&c2, &c2, &t1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* r = a·(b1 v). */
static inline void S_(mul_by_1)(FQ6 *r, const FQ6 *a, const FQ6_FQ2 *b1)
{
    FQ6_FQ2 c0;
    T_(mul)(&c0, &a->c2, b1);
    S_(fq2_mul_xi)(&c0, &c0);
    T_(mul)(&r->c2, &a->c1, b1);
    T_(mul)(&r->c1, &a->c0, b1);
    r->c0 = c0;
}

static inline void S_(mul_fq2)(FQ6 *r, const FQ6 *a, const FQ6_FQ2 *k)
{
    T_(mul)(&r->c0, &a->c0, k);
    T_(mul)(&r->c1, &a->c1, k);
    T_(mul)(&r->c2, &a->c2, k);
}

/* Through the norm to Fq2: a^-1 = adj(a) / N(a), one Fq2 inversion.
 * 0 maps to 0, as in the fields below. */
static inline void S_(inv)(FQ6 *r, const FQ6 *a)
{
    FQ6_FQ2 c0, c1, c2, t, n;
    T_(sqr)(&c0, &a->c0); /* c0 = a0^2 - xi a1 a2 */
    T_(mul)(&t, &a->c1, &a->c2);
    S_(fq2_mul_xi)(&t, &t);
    T_(sub)(&c0, &c0, &t);
    T_(sqr)(&c1, &a->c2); /* c1 = xi a2^2 - a0 a1 */
    S_(fq2_mul_xi)(&c1, &c1);
    T_(mul)(&t, &a->c0, &a->c1);
    T_(sub)(&c1, &c1, &t);
    T_(sqr)(&c2, &a->c1); /* c2 = a1^2 - a0 a2 */
    T_(mul)(&t, &a->c0, &a->c2);
    T_(sub)(&c2, &c2, &t);
    T_(mul)(&n, &a->c2, &c1); /* n = a0 c0 + xi (a2 c1 + a1 c2) */
    T_(mul)(&t, &a->c1, &c2);
    T_(add)(&n, &n, &t);
    S_(fq2_mul_xi)(&n, &n);
    T_(mul)(&t, &a->c0, &c0);
    T_(add)(&n, &n, &t);
    T_(inv)(&n, &n);
    T_(mul)(&r->c0, &c0, &n);
    T_(mul)(&r->c1, &c1, &n);
    T_(mul)(&r->c2, &c2, &n);
}

#undef S_
#undef T_
#undef P_
#undef FQ6
#undef FQ6_FQ2
#undef FQ6_FQ
#undef FQ6_XI
