/* One prime field on the device, stamped out by dfield.cuh (no include guard
 * on purpose).  Expects DF (type and prefix), DF_N (32-bit limbs, even),
 * DF_P (the modulus as 64-bit limbs), DF_ONE (R mod p as 64-bit limbs) and
 * DF_INV (-p^-1 mod 2^64).
 *
 * DF_ROWS2 is 1 when p < 2^(32 DF_N) / 3.1, so two products may share the
 * reduction rows (cios_abs).
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
#ifdef __CUDA_ARCH__
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(t[0]), "r"(F_(p)(0)));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(s[j]) : "r"(t[j]), "r"(F_(p)(j)));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
#else
    uint64_t b = 0;
    for (int j = 0; j < DF_N; j++) {
        uint64_t d = (uint64_t)t[j] - F_(p)(j) - b;
        s[j] = (uint32_t)d;
        b = (d >> 32) & 1;
    }
    borrow = b ? 0xffffffffu : 0;
#endif
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = borrow ? t[j] : s[j];
}

/* Both moduli leave spare top bits, so a + b < 2p never carries out. */
static HD void F_(add)(DF *r, const DF *a, const DF *b)
{
    uint32_t t[DF_N];
#ifdef __CUDA_ARCH__
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(a->v[0]), "r"(b->v[0]));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(t[j]) : "r"(a->v[j]), "r"(b->v[j]));
#else
    uint64_t c = 0;
    for (int j = 0; j < DF_N; j++) {
        c += (uint64_t)a->v[j] + b->v[j];
        t[j] = (uint32_t)c;
        c >>= 32;
    }
#endif
    F_(reduce)(r, t);
}

static HD void F_(dbl)(DF *r, const DF *a) { F_(add)(r, a, a); }

static HD void F_(sub)(DF *r, const DF *a, const DF *b)
{
    uint32_t t[DF_N], mask;
#ifndef __CUDA_ARCH__
    uint64_t bw = 0, c = 0;
    for (int j = 0; j < DF_N; j++) {
        uint64_t d = (uint64_t)a->v[j] - b->v[j] - bw;
        t[j] = (uint32_t)d;
        bw = (d >> 32) & 1;
    }
    mask = bw ? 0xffffffffu : 0;
    for (int j = 0; j < DF_N; j++) {
        c += (uint64_t)t[j] + (F_(p)(j) & mask);
        r->v[j] = (uint32_t)c;
        c >>= 32;
    }
#else
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(a->v[0]), "r"(b->v[0]));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[j]) : "r"(a->v[j]), "r"(b->v[j]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(mask));
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(t[0]) : "r"(F_(p)(0) & mask));
#pragma unroll
    for (int j = 1; j < DF_N; j++)
        asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(t[j]) : "r"(F_(p)(j) & mask));
#pragma unroll
    for (int j = 0; j < DF_N; j++) r->v[j] = t[j];
#endif
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

/* The same product with two independent carry chains per step: products
 * a_j b_i of even j accumulate in e, of odd j in o (their words never
 * overlap within a row, so neither chain waits for the other), and the sum
 * T = e + o (+ the carry of the low words, kept in the carry flag across
 * the shift) is formed once at the end.
 *
 * Why no carry word above e[N] / o[N]: with a, b < p, each row's value
 * before the shift is below 2p + 2 * 2^32 p < 2^(32 (N + 1)) for every
 * modulus here (p < 2^(32 N - 1) / (1 + 2^-32)), and e, o are each below
 * it, so a chain's carry into word N never carries out (four adds a row
 * fewer than the plain CIOS bookkeeping: the product's cost is about two
 * issue slots a multiply plus one an add, NOTES.md session 6). */
static HD void F_(mul_eo)(DF *r, const DF *a, const DF *b)
{
    uint32_t e[DF_N + 1], o[DF_N + 1], low = 0, junk = 0, t[DF_N];
    G16_CARRY;
#pragma unroll
    for (int j = 0; j < DF_N + 1; j++) e[j] = o[j] = 0;
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        uint32_t bi = b->v[i];
        /* carry flag = the low words' carry of the previous row (low != 0) */
        ADD_CC(junk, low, 0xffffffffu);
#pragma unroll
        for (int j = 0; j < DF_N; j += 2) {
            MADC_LO_CC(e[j], a->v[j], bi);
            MADC_HI_CC(e[j + 1], a->v[j], bi);
        }
        ADDC(e[DF_N], e[DF_N], 0u);
        MAD_LO_CC(o[1], a->v[1], bi);
        MADC_HI_CC(o[2], a->v[1], bi);
#pragma unroll
        for (int j = 3; j < DF_N; j += 2) {
            MADC_LO_CC(o[j], a->v[j], bi);
            MADC_HI_CC(o[j + 1], a->v[j], bi);
        }
        uint32_t m = (e[0] + o[0]) * F_(m0);
        MAD_LO_CC(e[0], F_(p)(0), m);
        MADC_HI_CC(e[1], F_(p)(0), m);
#pragma unroll
        for (int j = 2; j < DF_N; j += 2) {
            MADC_LO_CC(e[j], F_(p)(j), m);
            MADC_HI_CC(e[j + 1], F_(p)(j), m);
        }
        ADDC(e[DF_N], e[DF_N], 0u);
        MAD_LO_CC(o[1], F_(p)(1), m);
        MADC_HI_CC(o[2], F_(p)(1), m);
#pragma unroll
        for (int j = 3; j < DF_N; j += 2) {
            MADC_LO_CC(o[j], F_(p)(j), m);
            MADC_HI_CC(o[j + 1], F_(p)(j), m);
        }
        low = e[0];   /* e0 + o0 is 0 or 2^32 now, and 2^32 exactly when e0 != 0 */
#pragma unroll
        for (int j = 0; j < DF_N; j++) { e[j] = e[j + 1]; o[j] = o[j + 1]; }
        e[DF_N] = o[DF_N] = 0;
    }
    ADD_CC(junk, low, 0xffffffffu);
#pragma unroll
    for (int j = 0; j < DF_N; j++) ADDC_CC(t[j], e[j], o[j]);
    (void)junk;
    F_(reduce)(r, t);
}

/* The product again, without the shift.  Why: ptxas fuses each lo/hi
 * pair of a chain into one IMAD.WIDE whose 64-bit accumulator must sit in
 * an aligned register pair, and mul_eo's one-word shift a row moves every
 * pair off alignment: its SASS has ~80 MOVs to 192 IMADs (bench_field,
 * session 6).  Here words keep their absolute positions: E holds the
 * pairs at even positions (E[k] = position k), Q those at odd ones (Q[k]
 * = position k + 1), so every pair is aligned in every row; row i's words
 * below position i are dead after it, so the live set is mul_eo's.  The
 * bounds are mul_eo's: a chain whose last product is a_{N-1} ends at
 * relative word N and never carries out; the other carries into relative
 * word N and no further. */
static HD void F_(abs_row)(uint32_t *E, uint32_t *Q, const uint32_t *v, uint32_t s, int i,
                           uint32_t low, int inject)
{
    uint32_t junk = 0;
    int j;
    G16_CARRY;
    /* j with i + j even: pairs (E[i + j], E[i + j + 1]) */
    int j0 = i & 1;
    if (inject && j0 == 0) {
        ADD_CC(junk, low, 0xffffffffu);
        MADC_LO_CC(E[i], v[0], s);
    } else {
        MAD_LO_CC(E[i + j0], v[j0], s);
    }
    MADC_HI_CC(E[i + j0 + 1], v[j0], s);
#pragma unroll
    for (j = j0 + 2; j < DF_N; j += 2) {
        MADC_LO_CC(E[i + j], v[j], s);
        MADC_HI_CC(E[i + j + 1], v[j], s);
    }
    if (j - 2 != DF_N - 1) ADDC(E[i + j], E[i + j], 0u);
    /* j with i + j odd: pairs (Q[i + j - 1], Q[i + j]) */
    int j1 = 1 - j0;
    if (inject && j1 == 0) {
        ADD_CC(junk, low, 0xffffffffu);
        MADC_LO_CC(Q[i - 1], v[0], s);
    } else {
        MAD_LO_CC(Q[i + j1 - 1], v[j1], s);
    }
    MADC_HI_CC(Q[i + j1], v[j1], s);
#pragma unroll
    for (j = j1 + 2; j < DF_N; j += 2) {
        MADC_LO_CC(Q[i + j - 1], v[j], s);
        MADC_HI_CC(Q[i + j], v[j], s);
    }
    if (j - 2 != DF_N - 1) ADDC(Q[i + j - 1], Q[i + j - 1], 0u);
    (void)junk;
}

/* r = (a b + c d) / R (c = NULL: a b / R), the rows of both products
 * before each reduction row.  With two products a row's value stays below
 * 3p + 3 2^32 p < 2^(32 (N + 1)) when p < 2^(32 N) / 3.1 (DF_ROWS2), and
 * the result, (a b + c d + M p) / R < 2 p^2 / R + p, below 2p. */
static HD void F_(cios_abs)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d)
{
    uint32_t E[2 * DF_N], Q[2 * DF_N], pv[DF_N], t[DF_N], low = 0, junk = 0;
#pragma unroll
    for (int j = 0; j < 2 * DF_N; j++) E[j] = Q[j] = 0;
#pragma unroll
    for (int j = 0; j < DF_N; j++) pv[j] = F_(p)(j);
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        /* the carry of position i - 1 goes in with position i's product */
        F_(abs_row)(E, Q, a->v, b->v[i], i, low, i > 0);
        if (c) F_(abs_row)(E, Q, c->v, d->v[i], i, 0, 0);
        uint32_t m = (E[i] + (i ? Q[i - 1] : 0u)) * F_(m0);
        F_(abs_row)(E, Q, pv, m, i, 0, 0);
        /* position i is now 0 or 2^32, and 2^32 exactly when the word of
         * the chain that holds it is not 0 */
        low = (i & 1) ? Q[i - 1] : E[i];
    }
    G16_CARRY;
    ADD_CC(junk, low, 0xffffffffu);
#pragma unroll
    for (int j = 0; j < DF_N; j++) ADDC_CC(t[j], E[DF_N + j], Q[DF_N + j - 1]);
    (void)junk;
    F_(reduce)(r, t);
}

static HD void F_(mul_abs)(DF *r, const DF *a, const DF *b) { F_(cios_abs)(r, a, b, NULL, NULL); }

/* Double-width values and a separate reduction.
 *
 * Why: the product costs about two issue slots a multiply instruction (two
 * a limb product, lo and hi) and one an add (bench_field, NOTES.md session
 * 6): 2 N^2 multiplies for a b and 2 N^2 + N for the reduction.  A square
 * needs only N (N + 1) / 2 limb products, and a difference of two products
 * (the points' y = R (Q - X) - Y PPP) one reduction instead of two; both
 * need the product and the reduction apart.
 *
 * A wide value is e + o: each row's limb products go to e or o by the
 * parity of their position, so a row's two carry chains are independent,
 * as in mul_eo.  Positions are absolute (row i lands at words i ..).  Why
 * each chain may stop two words above its last product: before row i the
 * sum so far is below 2^(32 (i + N) + 1) (at most two products are summed,
 * each multiplier limb below 2^32), so words i + N + 1 and up are zero and
 * no carry goes past word i + N + 1; e, o <= the sum, so each array obeys
 * the bound too.  Every sequence below also runs on the host through the
 * emulated instructions (dfield.cuh), so CI checks its carries. */
#define FW G16_CAT(DF, _wide)
typedef struct { uint32_t e[2 * DF_N + 1], o[2 * DF_N + 2]; } FW;

static HD void F_(wide_zero)(FW *w)
{
#pragma unroll
    for (int j = 0; j < 2 * DF_N + 1; j++) w->e[j] = w->o[j] = 0;
    w->o[2 * DF_N + 1] = 0;
}

/* w += a b 2^(32 i) for one limb b (i is a constant once unrolled). */
static HD void F_(wide_row)(FW *w, const uint32_t *a, uint32_t b, int i)
{
    G16_CARRY;
    MAD_LO_CC(w->e[i], a[0], b);
    MADC_HI_CC(w->e[i + 1], a[0], b);
#pragma unroll
    for (int j = 2; j < DF_N; j += 2) {
        MADC_LO_CC(w->e[i + j], a[j], b);
        MADC_HI_CC(w->e[i + j + 1], a[j], b);
    }
    ADDC_CC(w->e[i + DF_N], w->e[i + DF_N], 0u);
    ADDC(w->e[i + DF_N + 1], w->e[i + DF_N + 1], 0u);
    MAD_LO_CC(w->o[i + 1], a[1], b);
    MADC_HI_CC(w->o[i + 2], a[1], b);
#pragma unroll
    for (int j = 3; j < DF_N; j += 2) {
        MADC_LO_CC(w->o[i + j], a[j], b);
        MADC_HI_CC(w->o[i + j + 1], a[j], b);
    }
    ADDC_CC(w->o[i + DF_N + 1], w->o[i + DF_N + 1], 0u);
    ADDC(w->o[i + DF_N + 2], w->o[i + DF_N + 2], 0u);
}

/* r = w / R mod p for w < p R: mul_eo's reduction rows on the low half,
 * then the high half added; (w + M p) / R < 2p, so one subtraction.  The
 * rows' values stay below 2^(32 N + 1) + 2^32 p < 2^(32 (N + 1)): no
 * carry word above e[N] / o[N], as in mul_eo. */
static HD void F_(redc)(DF *r, const FW *w)
{
    uint32_t e[DF_N + 1], o[DF_N + 1], t[DF_N], low = 0, junk = 0;
    G16_CARRY;
#pragma unroll
    for (int j = 0; j < DF_N; j++) { e[j] = w->e[j]; o[j] = w->o[j]; }
    e[DF_N] = o[DF_N] = 0;
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        /* the previous row's low words carried (low != 0) into this one */
        uint32_t m = (e[0] + o[0] + (low != 0)) * F_(m0);
        ADD_CC(junk, low, 0xffffffffu);
        MADC_LO_CC(e[0], F_(p)(0), m);
        MADC_HI_CC(e[1], F_(p)(0), m);
#pragma unroll
        for (int j = 2; j < DF_N; j += 2) {
            MADC_LO_CC(e[j], F_(p)(j), m);
            MADC_HI_CC(e[j + 1], F_(p)(j), m);
        }
        ADDC(e[DF_N], e[DF_N], 0u);
        MAD_LO_CC(o[1], F_(p)(1), m);
        MADC_HI_CC(o[2], F_(p)(1), m);
#pragma unroll
        for (int j = 3; j < DF_N; j += 2) {
            MADC_LO_CC(o[j], F_(p)(j), m);
            MADC_HI_CC(o[j + 1], F_(p)(j), m);
        }
        low = e[0];   /* e0 + o0 is 0 or 2^32, and 2^32 exactly when e0 != 0 */
#pragma unroll
        for (int j = 0; j < DF_N; j++) { e[j] = e[j + 1]; o[j] = o[j + 1]; }
        e[DF_N] = o[DF_N] = 0;
    }
    ADD_CC(junk, low, 0xffffffffu);
#pragma unroll
    for (int j = 0; j < DF_N; j++) ADDC_CC(t[j], e[j], o[j]);
    ADD_CC(t[0], t[0], w->e[DF_N]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(t[j], t[j], w->e[DF_N + j]);
    ADD_CC(t[0], t[0], w->o[DF_N]);
#pragma unroll
    for (int j = 1; j < DF_N; j++) ADDC_CC(t[j], t[j], w->o[DF_N + j]);
    (void)junk;
    F_(reduce)(r, t);
}

/* r = (a b - c d) / R: a b + c (p - d) < 2 p^2 < p R, one reduction. */
static HD void F_(mul_diff2)(DF *r, const DF *a, const DF *b, const DF *c, const DF *d)
{
    DF nd;
    FW w;
    if (!G16_GPU_DIFF2) {
        F_(mul_eo)(&nd, c, d);
        F_(mul_eo)(r, a, b);
        F_(sub)(r, r, &nd);
        return;
    }
    {
        G16_CARRY;
        SUB_CC(nd.v[0], F_(p)(0), d->v[0]);
#pragma unroll
        for (int j = 1; j < DF_N; j++) SUBC_CC(nd.v[j], F_(p)(j), d->v[j]);
    }
    if (G16_GPU_MUL_ABS && DF_ROWS2) {
        F_(cios_abs)(r, a, b, c, &nd);
        return;
    }
    F_(wide_zero)(&w);
#pragma unroll
    for (int i = 0; i < DF_N; i++) {
        F_(wide_row)(&w, a->v, b->v[i], i);
        F_(wide_row)(&w, c->v, nd.v[i], i);
    }
    F_(redc)(r, &w);
}

/* The product every kernel uses: the two-chain one, measured 1.35-1.43x
 * the CIOS one's throughput on the H200 (bench/gpu/bench_field.cu: BN254
 * 51.5 vs 38.1 G/s, BLS12-381 24.1 vs 16.9 G/s), with equal results. */
static HD void F_(mul)(DF *r, const DF *a, const DF *b)
{
    if (G16_GPU_MUL_ABS) F_(mul_abs)(r, a, b); else F_(mul_eo)(r, a, b);
}

/* A separate square (each a_i a_j once, doubled: 21% fewer multiplies)
 * ran 1.03x the product alone and made the MSMs slower (BN254 G1 2^24 65.7
 * -> 67.7 ms, more registers; NOTES.md, session 6), so it is the product. */
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
#undef FW
#undef DF
#undef DF_N
#undef DF_P
#undef DF_ONE
#undef DF_INV
#undef DF_ROWS2
