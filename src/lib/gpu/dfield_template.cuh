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

typedef struct {
    uint32_t v[DF_N];
} DF;

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

/* Word j of k p for k = 1 or 2 (2p: the lazy forms below). */
static HD uint32_t F_(pk)(int j, int k)
{
    return k == 1 ? F_(p)(j) : (F_(p)(j) << 1) | (j ? F_(p)(j - 1) >> 31 : 0u);
}

/* r = t mod kp for t < 2kp (t has DF_N limbs). */
static HD void F_(reduce_k)(DF *r, const uint32_t *t, int k)
{
    uint32_t s[DF_N], borrow;
    G16_CARRY;
    SUB_CC(s[0], t[0], F_(pk)(0, k));
#pragma unroll
    for (int j = 1; j < DF_N; j++) SUBC_CC(s[j], t[j], F_(pk)(j, k));
    SUBC(borrow, 0u, 0u);
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = borrow ? t[j] : s[j];
}

/* r = a + b mod kp for a, b < kp: both moduli leave spare top bits (and
 * 4p < R where k = 2 is used), so a + b never carries out. */
static HD void F_(add_k)(DF *r, const DF *a, const DF *b, int k)
{
    uint32_t t[DF_N];
    G16_CARRY;
    ADD_CC(t[0], a->v[0], b->v[0]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(t[j], a->v[j], b->v[j]);
    F_(reduce_k)(r, t, k);
}

/* r = a - b mod kp for a, b < kp. */
static HD void F_(sub_k)(DF *r, const DF *a, const DF *b, int k)
{
    uint32_t t[DF_N], mask;
    G16_CARRY;
    SUB_CC(t[0], a->v[0], b->v[0]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) SUBC_CC(t[j], a->v[j], b->v[j]);
    SUBC(mask, 0u, 0u);
    ADD_CC(t[0], t[0], F_(pk)(0, k) & mask);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(t[j], t[j], F_(pk)(j, k) & mask);
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = t[j];
}

static HD void F_(reduce)(DF *r, const uint32_t *t) { F_(reduce_k)(r, t, 1); }
static HD void F_(add)(DF *r, const DF *a, const DF *b) { F_(add_k)(r, a, b, 1); }
static HD void F_(dbl)(DF *r, const DF *a) { F_(add)(r, a, a); }
static HD void F_(sub)(DF *r, const DF *a, const DF *b) { F_(sub_k)(r, a, b, 1); }

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

/* The product every kernel uses (measured history: docs/gpu-notes.md, field v1-v5).
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
/* One chain of a row: v_j s for j = j0, j0 + 2, .. at positions i + j,
 * into W, whose word k holds position k + off (E: off 0, Q: off 1); the
 * chain holding position i (j0 = 0) takes the previous position's carry
 * when inject is set. */
static HD void F_(abs_chain)(uint32_t *W, int off, const uint32_t *v, uint32_t s, int i, int j0,
                             uint32_t low, int inject)
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
    for (j = j0 + 2; j < DF_N; j += 2) {
        MADC_LO_CC(W[i + j - off], v[j], s);
        MADC_HI_CC(W[i + j + 1 - off], v[j], s);
    }
    if (j - 2 != DF_N - 1) ADDC(W[i + j - off], W[i + j - off], 0u);
}

/* v s at position i: the products at even positions into E, the odd ones
 * into Q. */
static HD void F_(abs_row)(uint32_t *E, uint32_t *Q, const uint32_t *v, uint32_t s, int i,
                           uint32_t low, int inject)
{
    F_(abs_chain)(E, 0, v, s, i, i & 1, low, inject);
    F_(abs_chain)(Q, 1, v, s, i, 1 - (i & 1), low, inject);
}

/* r = (a b + c d) / R (c = NULL: a b / R), the rows of both products
 * before each reduction row.  With two products a row's value stays below
 * 3p + 3 2^32 p < 2^(32 (N + 1)) when p < 2^(32 N) / 3.1 (DF_ROWS2), and
 * the result, (a b + c d + M p) / R < 2 p^2 / R + p, below 2p. */
static HD void F_(cios_abs)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d, const DF *e,
                            const DF *f, const DF *g, const DF *h)
{
    uint32_t E[2 * DF_N], Q[2 * DF_N], pv[DF_N], t[DF_N], low = 0;
#pragma unroll
    for (int j = 0; j < 2 * DF_N; j++) E[j] = Q[j] = 0;
#pragma unroll
    for (int j = 0; j < DF_N; j++) pv[j] = F_(p)(j);
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        /* the carry of position i - 1 goes in with position i's product */
        F_(abs_row)(E, Q, a->v, b->v[i], i, low, i > 0);
        if (c) F_(abs_row)(E, Q, c->v, d->v[i], i, 0, 0);
        if (e) F_(abs_row)(E, Q, e->v, f->v[i], i, 0, 0);
        if (g) F_(abs_row)(E, Q, g->v, h->v[i], i, 0, 0);
        uint32_t m = (E[i] + (i ? Q[i - 1] : 0u)) * F_(m0);
        F_(abs_row)(E, Q, pv, m, i, 0, 0);
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

static HD void F_(mul)(DF *r, const DF *a, const DF *b)
{
    F_(cios_abs)(r, a, b, NULL, NULL, NULL, NULL, NULL, NULL);
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
    F_(cios_abs)(r, a, b, c, d, NULL, NULL, NULL, NULL);
}

/* r = (a b + c d + e f + g h) / R through one set of reduction rows where
 * p < 2^(32 N) / 5.1 (DF_ROWS4: a row stays below 5p + 5 2^32 p, the
 * result below 4 p^2 / R + p < 2p), else two sums of two. */
static HD void F_(mul_sum4)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d, const DF *e,
                            const DF *f, const DF *g, const DF *h)
{
    DF t;
    if (!DF_ROWS4) {
        F_(mul_sum2)(&t, e, f, g, h);
        F_(mul_sum2)(r, a, b, c, d);
        F_(add)(r, r, &t);
        return;
    }
    F_(cios_abs)(r, a, b, c, d, e, f, g, h);
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

/* Shoup's product by a fixed factor w (the NTT's twiddles): with wq =
 * floor(w R / p) precomputed (shoup_quotient), r = x w mod p, not divided
 * by R, so a Montgomery-form x times a plain w is the Montgomery form of
 * the product.  q = the high half of x wq without the columns below N - 2
 * (what they would add is below R, so q is at most 1 under floor(x wq /
 * R), itself at most 1 under floor(x w / p)): x w - q p lies in [0, 3p),
 * and with 3p < R (shoup_ok) it is the low half of x w + q (R - p); two
 * conditional subtractions finish.
 *
 * Why: the product is bound by the wide multiplies' issue (docs/gpu-notes.md,
 * the Karatsuba product: ~4 cycles an IMAD.WIDE on a sub-partition), and this needs
 * 43 wide multiplies for q, then 28 wide and 8 low-only for each of the
 * two low halves, against cios_abs's 136 wide and 8 low-only.  The rows
 * keep absolute word positions in two chains by the parity of the
 * position, as cios_abs does, so ptxas fuses each lo/hi pair into one
 * IMAD.WIDE on an aligned register pair. */
static HD int F_(shoup_ok)(void) { return DF_ROWS2; }

/* Word j of R - p (p is odd, so only word 0 takes the + 1). */
static HD uint32_t F_(pbar)(int j) { return j ? ~F_(p)(j) : 0u - F_(p)(0); }

/* W += v_j s at positions i + j for j = j0, j0 + 2, .., j1 in one carry
 * chain (word k of W holds position k + off): lo/hi pairs, except that
 * with lo_last the last product adds its low word only (its high word
 * lies above what the caller keeps); with carry the chain ends by adding
 * its carry into the word above the last pair. */
static HD void F_(span_chain)(uint32_t *W, int off, const uint32_t *v, uint32_t s, int i, int j0,
                              int j1, int lo_last, int carry)
{
    G16_CARRY;
#pragma unroll
    for (int j = j0; j <= j1; j += 2) {
        if (j == j0)
            MAD_LO_CC(W[i + j - off], v[j], s);
        else
            MADC_LO_CC(W[i + j - off], v[j], s);
        if (j == j1 && lo_last) return;
        MADC_HI_CC(W[i + j + 1 - off], v[j], s);
    }
    if (carry) ADDC(W[i + j1 + 2 - off], W[i + j1 + 2 - off], 0u);
}

/* The last j <= jmax of j0's parity. */
static HD int F_(last_of_parity)(int j0, int jmax) { return jmax - ((jmax - j0) & 1); }

/* q = floor of the high half of x wq, from the columns N - 2 and up: row
 * i's products x_i wq_j for j >= N - 2 - i.  A chain that stops at j = N -
 * 2 carries into the word above; one that reaches N - 1 cannot (the rows
 * so far are below 2^(32 (N + i + 1))). */
static HD void F_(shoup_q)(uint32_t *q, const DF *x, const DF *wq)
{
    uint32_t E[2 * DF_N], Q[2 * DF_N];
#pragma unroll
    for (int j = 0; j < 2 * DF_N; j++) E[j] = Q[j] = 0;
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        int jmin = i < DF_N - 2 ? DF_N - 2 - i : 0, par = (i + jmin) & 1;
        int je = jmin + par, jq = jmin + 1 - par;
        int le = F_(last_of_parity)(je, DF_N - 1), lq = F_(last_of_parity)(jq, DF_N - 1);
        F_(span_chain)(E, 0, wq->v, x->v[i], i, je, le, 0, le != DF_N - 1);
        F_(span_chain)(Q, 1, wq->v, x->v[i], i, jq, lq, 0, lq != DF_N - 1);
    }
    /* position k is E[k] + Q[k - 1]; position N - 2 is E's alone */
    G16_CARRY;
    CARRY_OF(E[DF_N - 1], Q[DF_N - 2]);
#pragma unroll
    for (int k = DF_N; k < 2 * DF_N; k++) ADDC_CC(q[k - DF_N], E[k], Q[k - 1]);
}

/* E, Q += the low half of v s (row by row, positions below N). */
static HD void F_(low_rows)(uint32_t *E, uint32_t *Q, const uint32_t *v, const uint32_t *s)
{
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        int jmax = DF_N - 1 - i, je = i & 1, jq = 1 - (i & 1);
        int le = F_(last_of_parity)(je, jmax), lq = F_(last_of_parity)(jq, jmax);
        if (je <= jmax) F_(span_chain)(E, 0, v, s[i], i, je, le, i + le == DF_N - 1, 0);
        if (jq <= jmax) F_(span_chain)(Q, 1, v, s[i], i, jq, lq, i + lq == DF_N - 1, 0);
    }
}

/* t = x w - q p in [0, 3p), the low half of x w + q (R - p). */
static HD void F_(shoup_t)(uint32_t *t, const DF *x, const DF *w, const DF *wq)
{
    uint32_t q[DF_N], pbar[DF_N], E[DF_N], Q[DF_N];
    F_(shoup_q)(q, x, wq);
#pragma unroll
    for (int j = 0; j < DF_N; j++) {
        pbar[j] = F_(pbar)(j);
        E[j] = Q[j] = 0;
    }
    F_(low_rows)(E, Q, w->v, x->v);
    F_(low_rows)(E, Q, pbar, q);
    G16_CARRY;
    t[0] = E[0];
    ADD_CC(t[1], E[1], Q[0]);
#pragma unroll
    for (int k = 2; k < DF_N; k++) ADDC_CC(t[k], E[k], Q[k - 1]);
}

static HD void F_(mul_shoup)(DF *r, const DF *x, const DF *w, const DF *wq)
{
    uint32_t t[DF_N];
    F_(shoup_t)(t, x, w, wq);
    F_(reduce)(r, t);
    F_(reduce)(r, r->v);
}

/* ---- Lazy forms for the NTT's Shoup butterflies (lazy_ok: 4p < R) ----
 * Values in [0, 2p) rather than [0, p) save a conditional subtraction in
 * the product and the mask in a difference that feeds one (Harvey's
 * butterfly).  mul_shoup_lazy takes any x < 4p: x w - q p < 4p^2 / R + p
 * < 2p with the exact q, < 3p with q one short, so one subtraction of p
 * leaves [0, 2p). */
static HD int F_(lazy_ok)(void) { return DF_ROWS4; } /* p < R / 5.1 */

static HD void F_(mul_shoup_lazy)(DF *r, const DF *x, const DF *w, const DF *wq)
{
    uint32_t t[DF_N];
    F_(shoup_t)(t, x, w, wq);
    F_(reduce)(r, t);
}

/* r = a + p, not reduced (a < p): a value in [p, 2p) for the checks. */
static HD void F_(lazy_plus_p)(DF *r, const DF *a)
{
    G16_CARRY;
    ADD_CC(r->v[0], a->v[0], F_(p)(0));
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(r->v[j], a->v[j], F_(p)(j));
}

/* r = a + b, a - b mod 2p for a, b < 2p. */
static HD void F_(add_lazy)(DF *r, const DF *a, const DF *b) { F_(add_k)(r, a, b, 2); }
static HD void F_(sub_lazy)(DF *r, const DF *a, const DF *b) { F_(sub_k)(r, a, b, 2); }

/* r = a - b + 2p in (0, 4p) for a, b < 2p: no condition, for mul_shoup_lazy. */
static HD void F_(sub_lazy4)(DF *r, const DF *a, const DF *b)
{
    uint32_t t[DF_N];
    G16_CARRY;
    ADD_CC(t[0], a->v[0], F_(pk)(0, 2));
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(t[j], a->v[j], F_(pk)(j, 2));
    SUB_CC(r->v[0], t[0], b->v[0]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) SUBC_CC(r->v[j], t[j], b->v[j]);
}

/* q = floor(w 2^shift / p) for w < p, qwords words of it (enough to hold
 * it), by binary long division (setup only). */
static HD void F_(shifted_quotient)(uint32_t *q, int qwords, const DF *w, int shift)
{
    uint32_t rem[DF_N + 1];
    for (int j = 0; j <= DF_N; j++) rem[j] = 0;
    for (int j = 0; j < qwords; j++) q[j] = 0;
    for (int bit = 32 * DF_N + shift - 1; bit >= 0; bit--) {
        int wbit = bit - shift;
        uint32_t in = wbit >= 0 ? (w->v[wbit / 32] >> (wbit % 32)) & 1 : 0;
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
            if (bit < 32 * qwords) q[bit / 32] |= 1u << (bit % 32);
        }
    }
}

/* wq = floor(w R / p) for w < p (below R). */
static HD void F_(shoup_quotient)(DF *wq, const DF *w)
{
    F_(shifted_quotient)(wq->v, DF_N, w, 32 * DF_N);
}

/* A separate square (each a_i a_j once, doubled: 21% fewer multiplies)
 * ran 1.03x the product alone and made the MSMs slower (BN254 G1 2^24 65.7
 * -> 67.7 ms with the earlier product, more registers; docs/gpu-notes.md,
 * field v4), so it is the product. */
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
        if (i / 32 == 0) e -= 2; /* p is odd and > 2: no borrow */
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
