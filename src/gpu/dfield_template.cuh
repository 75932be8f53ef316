/* One prime field on the device, stamped out by dfield.cuh (no include guard
 * on purpose).  Expects DF (type and prefix), DF_N (32-bit limbs, even),
 * DF_P (the modulus as 64-bit limbs), DF_ONE (R mod p as 64-bit limbs) and
 * DF_INV (-p^-1 mod 2^64).
 *
 * DF_ROWS2 is 1 when p < 2^(32 DF_N) / 3.1, so two products may share the
 * reduction rows (cios_abs); DF_ROWS4 when p < 2^(32 DF_N) / 5.1, four.
 *
 * Elements are Montgomery form with R = 2^(32 DF_N), which equals the CPU's
 * 2^(64 DF_N/2), so device and zkey bytes are the same numbers.  The carry
 * chains are PTX (add.cc / addc / mad.lo.cc / madc.hi.cc) in consecutive
 * volatile asm statements: volatile keeps them in program order, and nothing
 * the compiler emits between them touches the carry flag.
 *
 * Every function is also compiled for the host (plain C with 64-bit
 * intermediates instead of the PTX), so tests/gpu can run the kernels'
 * logic on a machine without a GPU; the device build uses only the PTX. */

#define F_(name) G16_CAT(DF, _##name)
#define DF_H (DF_N / 2)

typedef struct { uint32_t v[DF_N]; } DF;

static __constant__ uint64_t F_(p64)[DF_N / 2] = {DF_P};
static __constant__ uint64_t F_(one64)[DF_N / 2] = {DF_ONE};
static const uint64_t F_(p64h)[DF_N / 2] = {DF_P};
static const uint64_t F_(one64h)[DF_N / 2] = {DF_ONE};
static const uint32_t F_(m0) = (uint32_t)(DF_INV);

static HD uint32_t F_(p)(int j)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)(F_(p64)[j >> 1] >> (32 * (j & 1)));
#else
    return (uint32_t)(F_(p64h)[j >> 1] >> (32 * (j & 1)));
#endif
}

static HD void F_(zero)(DF *r)
{
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = 0;
}

static HD void F_(one)(DF *r)
{
#ifdef __CUDA_ARCH__
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = (uint32_t)(F_(one64)[j >> 1] >> (32 * (j & 1)));
#else
    for (int j = 0; j < DF_N; j++) r->v[j] = (uint32_t)(F_(one64h)[j >> 1] >> (32 * (j & 1)));
#endif
}

static HD int F_(is_zero)(const DF *a)
{
    uint32_t x = 0;
#pragma unroll
    for (int j = 0; j < DF_N; j++) x |= a->v[j];
    return x == 0;
}

static HD int F_(eq)(const DF *a, const DF *b)
{
    uint32_t x = 0;
#pragma unroll
    for (int j = 0; j < DF_N; j++) x |= a->v[j] ^ b->v[j];
    return x == 0;
}

/* r = t mod p for t < 2p (t has DF_N limbs). */
static HD void F_(reduce)(DF *r, const uint32_t *t)
{
    uint32_t s[DF_N], borrow;
    G16_CARRY;
    SUB_CC(s[0], t[0], F_(p)(0));
#pragma unroll
    for (int j = 1; j < DF_N; j++) SUBC_CC(s[j], t[j], F_(p)(j));
    SUBC(borrow, 0u, 0u);
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = borrow ? t[j] : s[j];
}

/* Both moduli leave spare top bits, so a + b < 2p never carries out. */
static HD void F_(add)(DF *r, const DF *a, const DF *b)
{
    uint32_t t[DF_N];
    G16_CARRY;
    ADD_CC(t[0], a->v[0], b->v[0]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(t[j], a->v[j], b->v[j]);
    F_(reduce)(r, t);
}

static HD void F_(dbl)(DF *r, const DF *a) { F_(add)(r, a, a); }

static HD void F_(sub)(DF *r, const DF *a, const DF *b)
{
    uint32_t t[DF_N], mask;
    G16_CARRY;
    SUB_CC(t[0], a->v[0], b->v[0]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) SUBC_CC(t[j], a->v[j], b->v[j]);
    SUBC(mask, 0u, 0u);
    ADD_CC(t[0], t[0], F_(p)(0) & mask);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(t[j], t[j], F_(p)(j) & mask);
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = t[j];
}

static HD void F_(neg)(DF *r, const DF *a)
{
    DF z;
    F_(zero)(&z);
    F_(sub)(r, &z, a);
}

/* t[0..N+1] += a * b: the low halves of the products in one carry chain,
 * the high halves (shifted one limb) in a second. */
static HD void F_(mac_row)(uint32_t *t, const uint32_t *a, uint32_t b)
{
#ifndef __CUDA_ARCH__
    uint64_t c = 0;
    for (int j = 0; j < DF_N; j++) {
        c += (uint64_t)a[j] * b + t[j];
        t[j] = (uint32_t)c;
        c >>= 32;
    }
    c += t[DF_N];
    t[DF_N] = (uint32_t)c;
    t[DF_N + 1] += (uint32_t)(c >> 32);
#else
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(a[0]), "r"(b));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(a[j]), "r"(b));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[DF_N]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[DF_N + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(a[0]), "r"(b));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(a[j]), "r"(b));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[DF_N + 1]));
#endif
}

/* Same with the modulus as the multiplicand (constants, no array). */
static HD void F_(mac_row_p)(uint32_t *t, uint32_t m)
{
#ifndef __CUDA_ARCH__
    uint32_t p[DF_N];
    for (int j = 0; j < DF_N; j++) p[j] = F_(p)(j);
    F_(mac_row)(t, p, m);
#else
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(F_(p)(0)), "r"(m));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(F_(p)(j)), "r"(m));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[DF_N]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[DF_N + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(F_(p)(0)), "r"(m));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(F_(p)(j)), "r"(m));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[DF_N + 1]));
#endif
}

/* CIOS Montgomery product: after each row t < 2p, so N + 2 limbs hold it. */
static HD void F_(mul_cios)(DF *r, const DF *a, const DF *b)
{
    uint32_t t[DF_N + 2];
#pragma unroll
    for (int j = 0; j < DF_N + 2; j++) t[j] = 0;
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        F_(mac_row)(t, a->v, b->v[i]);
        F_(mac_row_p)(t, t[0] * F_(m0));
#pragma unroll
        for (int j = 0; j < DF_N + 1; j++) t[j] = t[j + 1];
        t[DF_N + 1] = 0;
    }
    F_(reduce)(r, t);
}

/* The product every kernel uses (measured history: NOTES.md, field v1-v5).
 * Two independent carry chains a row: a limb product goes to E or Q by
 * the parity of its position, so within a row neither chain waits for the
 * other (1.35-1.43x the plain CIOS product's throughput).  Words keep
 * their absolute positions, E[k] = position k (pairs at even positions)
 * and Q[k] = position k + 1 (pairs at odd ones), because ptxas fuses each
 * lo/hi pair of a chain into one IMAD.WIDE whose 64-bit accumulator must
 * sit in an aligned register pair: the earlier version shifted its window
 * a word a row, which moved every pair off alignment and cost ~80 MOVs a
 * product (BN254 G1 MSM 2^24 65.7 -> 50.6 ms without them).  Row i's words
 * below position i are dead after it, so the live set stays a window.
 *
 * Bounds: with a, b < p a row's value (relative to position i) is below
 * 2p + 2 2^32 p < 2^(32 (N + 1)) for every modulus here, and E, Q are each
 * below it, so the chain whose last product is v_{N-1} ends at relative
 * word N and never carries out, and the other carries into relative word N
 * and no further.  The carry of position i (its two words sum to 0 or 2^32
 * after the reduction row) goes in with position i + 1's first product. */
/* One chain of a row: v_j s for j = j0, j0 + 2, .. < n at positions
 * i + j, into W, whose word k holds position k + off (E: off 0, Q: off
 * 1); the chain holding position i (j0 = 0) takes the previous
 * position's carry when inject is set.  n is DF_N, or DF_H for the
 * Karatsuba halves. */
static HD void F_(abs_chain)(uint32_t *W, int off, const uint32_t *v, uint32_t s, int i, int j0,
                             int n, uint32_t low, int inject)
{
    int j;
    G16_CARRY;
    if (inject && j0 == 0) {
        CARRY_IN(low);
        MADC_LO_CC(W[i - off], v[0], s);
    } else {
        MAD_LO_CC(W[i + j0 - off], v[j0], s);
    }
    MADC_HI_CC(W[i + j0 + 1 - off], v[j0], s);
#pragma unroll
    for (j = j0 + 2; j < n; j += 2) {
        MADC_LO_CC(W[i + j - off], v[j], s);
        MADC_HI_CC(W[i + j + 1 - off], v[j], s);
    }
    if (j - 2 != n - 1) ADDC(W[i + j - off], W[i + j - off], 0u);
}

/* v s at position i (v of n limbs): the products at even positions into
 * E, the odd ones into Q. */
static HD void F_(abs_row)(uint32_t *E, uint32_t *Q, const uint32_t *v, uint32_t s, int i, int n,
                           uint32_t low, int inject)
{
    F_(abs_chain)(E, 0, v, s, i, i & 1, n, low, inject);
    F_(abs_chain)(Q, 1, v, s, i, 1 - (i & 1), n, low, inject);
}

/* r = (a b + c d) / R (c = NULL: a b / R), the rows of both products
 * before each reduction row.  With two products a row's value stays below
 * 3p + 3 2^32 p < 2^(32 (N + 1)) when p < 2^(32 N) / 3.1 (DF_ROWS2), and
 * the result, (a b + c d + M p) / R < 2 p^2 / R + p, below 2p. */
static HD void F_(cios_abs)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d,
                            const DF *e, const DF *f, const DF *g, const DF *h)
{
    uint32_t E[2 * DF_N], Q[2 * DF_N], pv[DF_N], t[DF_N], low = 0;
#pragma unroll
    for (int j = 0; j < 2 * DF_N; j++) E[j] = Q[j] = 0;
#pragma unroll
    for (int j = 0; j < DF_N; j++) pv[j] = F_(p)(j);
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        /* the carry of position i - 1 goes in with position i's product */
        F_(abs_row)(E, Q, a->v, b->v[i], i, DF_N, low, i > 0);
        if (c) F_(abs_row)(E, Q, c->v, d->v[i], i, DF_N, 0, 0);
        if (e) F_(abs_row)(E, Q, e->v, f->v[i], i, DF_N, 0, 0);
        if (g) F_(abs_row)(E, Q, g->v, h->v[i], i, DF_N, 0, 0);
        uint32_t m = (E[i] + (i ? Q[i - 1] : 0u)) * F_(m0);
        F_(abs_row)(E, Q, pv, m, i, DF_N, 0, 0);
        /* position i is now 0 or 2^32, and 2^32 exactly when the word of
         * the chain that holds it is not 0 */
        low = (i & 1) ? Q[i - 1] : E[i];
    }
    G16_CARRY;
    CARRY_IN(low);
#pragma unroll
    for (int j = 0; j < DF_N; j++) ADDC_CC(t[j], E[DF_N + j], Q[DF_N + j - 1]);
    F_(reduce)(r, t);
}

/* d = |x - y| over n limbs; the mask is all ones when x < y. */
static HD uint32_t F_(absdiff)(uint32_t *d, const uint32_t *x, const uint32_t *y, int n)
{
    uint32_t mask;
    G16_CARRY;
    SUB_CC(d[0], x[0], y[0]);
#pragma unroll
    for (int j = 1; j < n; j++) SUBC_CC(d[j], x[j], y[j]);
    SUBC(mask, 0u, 0u);
    CARRY_IN(mask & 1u); /* two's complement: (d ^ mask) + 1 when negative */
#pragma unroll
    for (int j = 0; j < n; j++) ADDC_CC(d[j], d[j] ^ mask, 0u);
    return mask;
}

/* t = E + Q 2^32 over w words (Q's word w - 1, position w, is unused). */
static HD void F_(fold)(uint32_t *t, const uint32_t *E, const uint32_t *Q, int w)
{
    G16_CARRY;
    t[0] = E[0];
    ADD_CC(t[1], E[1], Q[0]);
#pragma unroll
    for (int k = 2; k < w; k++) ADDC_CC(t[k], E[k], Q[k - 1]);
}

/* t (2 DF_N words) = a b by one level of Karatsuba: three products of
 * halves (a0 b0, a1 b1, (a0 - a1)(b1 - b0): 3/4 of the schoolbook's limb
 * multiplies) and the middle, a0 b1 + a1 b0 = a0 b0 + a1 b1 + (a0 - a1)
 * (b1 - b0), by additions.  The product is bound by the multiplier's
 * issue rate, and the additions go to the other integer pipe. */
static HD void F_(kara)(uint32_t *t, const uint32_t *a, const uint32_t *b)
{
    uint32_t E[2 * DF_N], Q[2 * DF_N], da[DF_H], db[DF_H], M[DF_N], mid[DF_N + 1], mask;
#pragma unroll
    for (int j = 0; j < 2 * DF_N; j++) E[j] = Q[j] = 0;
    /* a0 b0 at positions 0 .. DF_N - 1 and a1 b1 above: disjoint, one fold */
#pragma unroll
    for (int i = 0; i < DF_H; i++) F_(abs_row)(E, Q, a, b[i], i, DF_H, 0, 0);
#pragma unroll
    for (int i = 0; i < DF_H; i++) F_(abs_row)(E, Q, a + DF_H, b[DF_H + i], DF_N + i, DF_H, 0, 0);
    F_(fold)(t, E, Q, 2 * DF_N);
    mask = F_(absdiff)(da, a, a + DF_H, DF_H) ^ F_(absdiff)(db, b + DF_H, b, DF_H);
#pragma unroll
    for (int j = 0; j < DF_N; j++) E[j] = Q[j] = 0;
#pragma unroll
    for (int i = 0; i < DF_H; i++) F_(abs_row)(E, Q, da, db[i], i, DF_H, 0, 0);
    F_(fold)(M, E, Q, DF_N);
    /* the middle is below 2^(32 DF_N + 1); the signed term in two's
     * complement over DF_N + 1 words */
    G16_CARRY;
    ADD_CC(mid[0], t[0], t[DF_N]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(mid[j], t[j], t[DF_N + j]);
    ADDC(mid[DF_N], 0u, 0u);
    CARRY_IN(mask & 1u);
#pragma unroll
    for (int j = 0; j < DF_N; j++) ADDC_CC(mid[j], mid[j], M[j] ^ mask);
    ADDC(mid[DF_N], mid[DF_N], mask);
    ADD_CC(t[DF_H], t[DF_H], mid[0]);
#pragma unroll
    for (int j = 1; j <= DF_N; j++) ADDC_CC(t[DF_H + j], t[DF_H + j], mid[j]);
#pragma unroll
    for (int k = DF_H + DF_N + 1; k < 2 * DF_N; k++) ADDC_CC(t[k], t[k], 0u);
}

/* T += x y (2 DF_N words; the sums kara_abs takes stay below 4 p^2). */
static HD void F_(kara_add)(uint32_t *T, const DF *x, const DF *y)
{
    uint32_t U[2 * DF_N];
    F_(kara)(U, x->v, y->v);
    G16_CARRY;
    ADD_CC(T[0], T[0], U[0]);
#pragma unroll
    for (int j = 1; j < 2 * DF_N; j++) ADDC_CC(T[j], T[j], U[j]);
}

/* r = (a b + c d + e f + g h) / R (pairs NULL from the back when unused),
 * the Karatsuba products summed, then one reduction: (T + M p) / R = T_hi
 * + (T_lo + M p) / R.  The reduction rows are cios_abs's without the
 * product rows, over T_lo alone, so their words above DF_N start at 0 and
 * cios_abs's bounds hold (a row's value relative to position i stays below
 * 2^(32 (DF_N - i)) + 2^32 p); position i's pending carry goes into m and
 * into row i's chain.  The result is below k p^2 / R + 1 + p < 2p for the
 * k products DF_ROWS2 / DF_ROWS4 allow. */
static HD void F_(kara_abs)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d,
                            const DF *e, const DF *f, const DF *g, const DF *h)
{
    uint32_t T[2 * DF_N], U[2 * DF_N], E[2 * DF_N], Q[2 * DF_N], pv[DF_N], low = 0;
    F_(kara)(T, a->v, b->v);
    if (c) F_(kara_add)(T, c, d);
    if (e) F_(kara_add)(T, e, f);
    if (g) F_(kara_add)(T, g, h);
#pragma unroll
    for (int j = 0; j < DF_N; j++) {
        E[j] = T[j];
        E[DF_N + j] = Q[j] = Q[DF_N + j] = 0;
        pv[j] = F_(p)(j);
    }
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        uint32_t m = (E[i] + (i ? Q[i - 1] : 0u) + (low != 0)) * F_(m0);
        F_(abs_row)(E, Q, pv, m, i, DF_N, low, i > 0);
        low = (i & 1) ? Q[i - 1] : E[i];
    }
    G16_CARRY;
    CARRY_IN(low);
#pragma unroll
    for (int j = 0; j < DF_N; j++) ADDC_CC(U[j], E[DF_N + j], Q[DF_N + j - 1]);
    ADD_CC(U[0], U[0], T[DF_N]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(U[j], U[j], T[DF_N + j]);
    F_(reduce)(r, U);
}

static HD void F_(mul_kara)(DF *r, const DF *a, const DF *b)
{
    F_(kara_abs)(r, a, b, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* The product the kernels use: Karatsuba where DF_KARA (measured per
 * field, NOTES.md session 8), else cios_abs. */
static HD void F_(mul)(DF *r, const DF *a, const DF *b)
{
    if (DF_KARA) F_(kara_abs)(r, a, b, NULL, NULL, NULL, NULL, NULL, NULL);
    else F_(cios_abs)(r, a, b, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* r = (a b + c d) / R through one set of reduction rows where the modulus
 * leaves room (DF_ROWS2: 1.2-1.35x two products alone, bench_field), else
 * two products. */
static HD void F_(mul_sum2)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d)
{
    DF t;
    if (!DF_ROWS2) {
        F_(mul)(&t, c, d);
        F_(mul)(r, a, b);
        F_(add)(r, r, &t);
        return;
    }
    if (DF_KARA) F_(kara_abs)(r, a, b, c, d, NULL, NULL, NULL, NULL);
    else F_(cios_abs)(r, a, b, c, d, NULL, NULL, NULL, NULL);
}

/* r = (a b + c d + e f + g h) / R through one set of reduction rows where
 * p < 2^(32 N) / 5.1 (DF_ROWS4: a row stays below 5p + 5 2^32 p, the
 * result below 4 p^2 / R + p < 2p), else two sums of two. */
static HD void F_(mul_sum4)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d,
                            const DF *e, const DF *f, const DF *g, const DF *h)
{
    DF t;
    if (!DF_ROWS4) {
        F_(mul_sum2)(&t, e, f, g, h);
        F_(mul_sum2)(r, a, b, c, d);
        F_(add)(r, r, &t);
        return;
    }
    if (DF_KARA) F_(kara_abs)(r, a, b, c, d, e, f, g, h);
    else F_(cios_abs)(r, a, b, c, d, e, f, g, h);
}

/* p - a for a <= p, no correction step (the products' bounds allow p). */
static HD void F_(neg_lazy)(DF *r, const DF *a)
{
    G16_CARRY;
    SUB_CC(r->v[0], F_(p)(0), a->v[0]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) SUBC_CC(r->v[j], F_(p)(j), a->v[j]);
}

/* r = (a b - c d) / R as a b + c (p - d) (p - d <= p keeps the bounds;
 * F_(neg) would add a correction step the hot path does not need): the
 * points' y = R (Q - X) - Y PPP. */
static HD void F_(mul_diff2)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d)
{
    DF nd;
    F_(neg_lazy)(&nd, d);
    F_(mul_sum2)(r, a, b, c, &nd);
}

/* Shoup's product by a fixed factor w (a twiddle), for a later NTT (not
 * used by any kernel yet; NOTES.md, session 7): with wq = floor(w R / p)
 * precomputed (shoup_quotient), r = x w mod p, not divided by R, so a
 * Montgomery-form x times a plain w is the Montgomery form of the product.
 * q = the high half of x wq without the columns below N - 1 (what they
 * would add is below R, so q is at most 1 under floor(x wq / R), itself at
 * most 1 under floor(x w / p)): x w - q p lies in [0, 3p), and with 3p < R
 * (shoup_ok) it is the low half of x w + q (R - p); two conditional
 * subtractions finish.  ~2 N^2 - N / 2 limb multiplies against cios_abs's
 * 2 N^2 + N.  Plain column sums for now: written for the check, not yet
 * for speed (bench_field times it). */
static HD int F_(shoup_ok)(void) { return DF_ROWS2; }

/* Word j of R - p (p is odd, so only word 0 takes the + 1). */
static HD uint32_t F_(pbar)(int j) { return j ? ~F_(p)(j) : 0u - F_(p)(0); }

/* Adds a limb product into the column accumulator (top:acc). */
static HD void F_(col_add)(uint64_t *acc, uint32_t *top, uint32_t a, uint32_t b)
{
    uint64_t prod = (uint64_t)a * b;
    *acc += prod;
    *top += *acc < prod;
}

/* The column's low word out, the rest down one word. */
static HD uint32_t F_(col_next)(uint64_t *acc, uint32_t *top)
{
    uint32_t word = (uint32_t)*acc;
    *acc = (*acc >> 32) | ((uint64_t)*top << 32);
    *top = 0;
    return word;
}

static HD void F_(mul_shoup)(DF *r, const DF *x, const DF *w, const DF *wq)
{
    uint32_t q[DF_N], t[DF_N], top = 0;
    uint64_t acc = 0;
    for (int i = 0; i <= DF_N - 2; i++) acc += (uint64_t)x->v[i] * wq->v[DF_N - 2 - i] >> 32;
    for (int k = DF_N - 1; k <= 2 * DF_N - 2; k++) {
        for (int i = k < DF_N ? 0 : k - DF_N + 1; i <= (k < DF_N ? k : DF_N - 1); i++)
            F_(col_add)(&acc, &top, x->v[i], wq->v[k - i]);
        uint32_t word = F_(col_next)(&acc, &top);
        if (k >= DF_N) q[k - DF_N] = word;
    }
    q[DF_N - 1] = (uint32_t)acc;
    acc = 0;
    for (int k = 0; k < DF_N; k++) {
        for (int i = 0; i <= k; i++) {
            F_(col_add)(&acc, &top, x->v[i], w->v[k - i]);
            F_(col_add)(&acc, &top, q[i], F_(pbar)(k - i));
        }
        t[k] = F_(col_next)(&acc, &top);
    }
    F_(reduce)(r, t);
    F_(reduce)(r, r->v);
}

/* wq = floor(w R / p) for w < p, by binary long division (setup only). */
static HD void F_(shoup_quotient)(DF *wq, const DF *w)
{
    uint32_t rem[DF_N + 1];
    for (int j = 0; j <= DF_N; j++) rem[j] = 0;
    F_(zero)(wq);
    for (int bit = 64 * DF_N - 1; bit >= 0; bit--) {
        uint32_t in = bit >= 32 * DF_N ? (w->v[(bit - 32 * DF_N) / 32] >> (bit % 32)) & 1 : 0;
        for (int j = DF_N; j > 0; j--) rem[j] = rem[j] << 1 | rem[j - 1] >> 31;
        rem[0] = rem[0] << 1 | in;
        uint32_t s[DF_N + 1], borrow = 0;
        for (int j = 0; j <= DF_N; j++) {
            uint64_t d = (uint64_t)rem[j] - (j < DF_N ? F_(p)(j) : 0u) - borrow;
            s[j] = (uint32_t)d;
            borrow = (uint32_t)(d >> 63);
        }
        if (!borrow) {
            for (int j = 0; j <= DF_N; j++) rem[j] = s[j];
            if (bit < 32 * DF_N) wq->v[bit / 32] |= 1u << (bit % 32);
        }
    }
}

/* A separate square (each a_i a_j once, doubled: 21% fewer multiplies)
 * ran 1.03x the product alone and made the MSMs slower (BN254 G1 2^24 65.7
 * -> 67.7 ms with the earlier product, more registers; NOTES.md, session
 * 6), so it is the product. */
static HD void F_(sqr)(DF *r, const DF *a) { F_(mul)(r, a, a); }

/* Montgomery -> plain: multiply by 1 (not R). */
static HD void F_(to_plain)(DF *r, const DF *a)
{
    DF one;
    F_(zero)(&one);
    one.v[0] = 1;
    F_(mul)(r, a, &one);
}

/* Fermat, a^(p-2); one thread at a time uses it (final affine outputs). */
static __host__ __device__ __noinline__ void F_(inv)(DF *r, const DF *a)
{
    DF acc, base = *a;
    F_(one)(&acc);
    for (int i = 32 * DF_N - 1; i >= 0; i--) {
        uint32_t e = F_(p)(i / 32);
        if (i / 32 == 0) e -= 2;    /* p is odd and > 2: no borrow */
        F_(sqr)(&acc, &acc);
        if ((e >> (i % 32)) & 1) F_(mul)(&acc, &acc, &base);
    }
    *r = acc;
}

#undef F_
#undef DF
#undef DF_N
#undef DF_P
#undef DF_ONE
#undef DF_INV
#undef DF_ROWS2
#undef DF_ROWS4
#undef DF_KARA
#undef DF_H
