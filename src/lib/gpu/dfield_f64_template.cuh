/* Shoup's product by a fixed factor on the FP64 pipe, stamped out by
 * dfield.cuh for a scalar field already made by dfield_template.cuh (no
 * include guard on purpose).  Expects DF (the field's type and prefix, 8
 * limbs) and DF_P (its modulus as 64-bit limbs), with 2p < 2^256.
 *
 * Why: every product in the kernels runs on the IMAD pipe, and the FP64
 * pipe (as many operations a cycle on the H200) idles beside it.  The NTT
 * is bound by its products (NOTES.md, sessions 9-11: 11n of them, 2.5 ms
 * at 100% of the IMAD pipe against a 3 ms target), so a product that runs
 * on the other pipe could take part of the butterflies.  This is that
 * product, checked bit for bit here and timed by bench_field; whether it
 * pays beside the IMAD products is a measurement (NOTES.md, "FP64").
 *
 * The arithmetic is exact integer arithmetic in doubles: numbers are
 * eleven 24-bit digits (264 bits), a digit product is below 2^48, and a
 * column of at most 22 of them (signed) stays below 2^53, so every fma is
 * exact and the result does not depend on rounding.  Carries are floors:
 * on the device fma rounding down (__fma_rd) against 1.5 2^52 returns
 * floor(v / 2^24) in one operation plus a subtraction; the host takes
 * floor() of the exact quotient, the same number.
 *
 * With R' = 2^264 and wq = floor(w R' / p) (mul_shoup_f64_factor), q is
 * floor(x wq / R') from the columns 9 and up (the columns below add less
 * than 2^-20 to x wq / R'), so q <= floor(x w / p) <= q + 1 (x < 2^256:
 * x wq / R' > x w / p - 2^-8), and r = x w - q p lies in [0, 2p): the low
 * 264 bits of x w - q p, eleven columns each way, are all of it. */

#define F_(name) G16_CAT(DF, _##name)
#define FD G16_CAT(DF, _f64)

/* A number as eleven 24-bit digits, each an exact double in [0, 2^24)
 * (F64_DIGITS, F64_BITS: dfield.cuh). */
typedef struct { double d[F64_DIGITS]; } FD;

static constexpr uint64_t F_(f64_p64)[4] = {DF_P};

/* Digit k of p, evaluated by the compiler for the tables below. */
static constexpr double F_(f64_pdigit)(int k)
{
    int b = k * F64_BITS, w = b / 64, s = b % 64;
    uint64_t v = w < 4 ? F_(f64_p64)[w] >> s : 0;
    if (s > 64 - F64_BITS && w + 1 < 4) v |= F_(f64_p64)[w + 1] << (64 - s);
    return (double)(v & 0xffffffu);
}

/* -p's digits: on the device a constant bank, which DFMA reads as an
 * operand, no load. */
#define F64_NEG_P(k) -F_(f64_pdigit)(k)
#define F64_NEG_P_ALL                                                            \
    {F64_NEG_P(0), F64_NEG_P(1), F64_NEG_P(2), F64_NEG_P(3), F64_NEG_P(4), F64_NEG_P(5), \
     F64_NEG_P(6), F64_NEG_P(7), F64_NEG_P(8), F64_NEG_P(9), F64_NEG_P(10)}
static __constant__ double F_(f64_negp)[F64_DIGITS] = F64_NEG_P_ALL;
static const double F_(f64_negph)[F64_DIGITS] = F64_NEG_P_ALL;
#undef F64_NEG_P_ALL
#undef F64_NEG_P

static HD double F_(f64_negp_digit)(int k)
{
#ifdef __CUDA_ARCH__
    return F_(f64_negp)[k];
#else
    return F_(f64_negph)[k];
#endif
}

/* Digit k of a number of `words` 32-bit words (bits 24k .. 24k + 23) as
 * a double. */
static HD double F_(f64_digit)(const uint32_t *v, int words, int k)
{
    int bit = k * F64_BITS, w = bit / 32, s = bit % 32;
    uint32_t lo = v[w], hi = w + 1 < words ? v[w + 1] : 0u, dig;
#ifdef __CUDA_ARCH__
    dig = __funnelshift_r(lo, hi, s) & 0xffffffu;
    return __hiloint2double(0x43300000, (int)dig) - 0x1p52;   /* 2^52 + dig, exact */
#else
    dig = (uint32_t)(((uint64_t)hi << 32 | lo) >> s) & 0xffffffu;
    return (double)dig;
#endif
}

/* floor(v / 2^24) for an integer |v| < 2^75, exactly. */
static HD double F_(f64_carry)(double v)
{
#ifdef __CUDA_ARCH__
    return __fma_rd(v, 0x1p-24, 0x1.8p52) - 0x1.8p52;
#else
    return floor(v * 0x1p-24);
#endif
}

/* A column (a signed integer below 2^53 in size) plus the carry coming
 * in (none into the first): its digit in [0, 2^24), and the carry going
 * out.  A digit nobody reads costs nothing: the compiler drops it. */
static HD double F_(f64_settle)(double *col, double carry_in, int first)
{
    double v = first ? *col : *col + carry_in, c = F_(f64_carry)(v);
    *col = fma(c, -0x1p24, v);
    return c;
}

/* The same for a column that started at 2^52 (r's): its values stay in
 * (2^51, 2^53), where doubles hold every integer, and the settled digit
 * plus 2^52 has the digit as its low word, so it needs no conversion. */
static HD double F_(f64_settle_biased)(double col, double carry_in, int first, uint32_t *digit)
{
    double v = first ? col : col + carry_in;
#ifdef __CUDA_ARCH__
    double c = __fma_rd(v, 0x1p-24, 0x1.8p52 - 0x1p28) - 0x1.8p52;
    *digit = (uint32_t)__double2loint(fma(c, -0x1p24, v));
#else
    double c = floor((v - 0x1p52) * 0x1p-24);
    *digit = (uint32_t)(fma(c, -0x1p24, v) - 0x1p52);
#endif
    return c;
}

/* The factor's two digit forms: w itself and wq = floor(w 2^264 / p),
 * for w < p given plain (not Montgomery) as 8 words (setup only: a long
 * division). */
static HD void F_(mul_shoup_f64_factor)(FD *fw, FD *fwq, const DF *w)
{
    uint32_t q[9];
    F_(shifted_quotient)(q, 9, w, F64_DIGITS * F64_BITS);
    for (int k = 0; k < F64_DIGITS; k++) {   /* wq < 2^264: 9 words hold it */
        fwq->d[k] = F_(f64_digit)(q, 9, k);
        fw->d[k] = F_(f64_digit)(w->v, 8, k);
    }
}

/* q = floor(x wq / 2^264) from the columns 9 .. 20 of x wq (x as digits
 * xd), settled upward: digits 11 .. 21 are q's. */
static HD void F_(f64_quotient)(double *qd, const double *xd, const FD *wq)
{
    double hi[2 * F64_DIGITS - 10], carry = 0;
#pragma unroll
    for (int k = 0; k < 2 * F64_DIGITS - 10; k++) hi[k] = 0;
#pragma unroll
    for (int i = 0; i < F64_DIGITS; i++)
#pragma unroll
        for (int j = i < 9 ? 9 - i : 0; j < F64_DIGITS; j++)
            hi[i + j - 9] = fma(xd[i], wq->d[j], hi[i + j - 9]);
#pragma unroll
    for (int k = 0; k < 2 * F64_DIGITS - 10; k++) {
        carry = F_(f64_settle)(&hi[k], carry, k == 0);
        if (k >= 2) qd[k - 2] = hi[k];
    }
    qd[F64_DIGITS - 1] = carry;
}

/* r = x w mod p in [0, 2p) for any x < 2^256 (Montgomery or not: the
 * factor is plain, so the form of x carries over), w and wq from
 * mul_shoup_f64_factor. */
static HD void F_(mul_shoup_f64)(DF *r, const DF *x, const FD *w, const FD *wq)
{
    double xd[F64_DIGITS], qd[F64_DIGITS], lo[F64_DIGITS], carry = 0;
    uint32_t dg[F64_DIGITS];
#pragma unroll
    for (int k = 0; k < F64_DIGITS; k++) xd[k] = F_(f64_digit)(x->v, 8, k);
    F_(f64_quotient)(qd, xd, wq);
    /* the low 264 bits of x w - q p, column by column from 2^52 (a
     * column's terms of either sign add up to less than 11 2^48 < 2^51.5),
     * then settled */
#pragma unroll
    for (int k = 0; k < F64_DIGITS; k++) lo[k] = 0x1p52;
#pragma unroll
    for (int i = 0; i < F64_DIGITS; i++)
#pragma unroll
        for (int j = 0; i + j < F64_DIGITS; j++) {
            lo[i + j] = fma(xd[i], w->d[j], lo[i + j]);
            lo[i + j] = fma(qd[i], F_(f64_negp_digit)(j), lo[i + j]);
        }
#pragma unroll
    for (int k = 0; k < F64_DIGITS; k++)
        carry = F_(f64_settle_biased)(lo[k], carry, k == 0, &dg[k]);
    /* eleven 24-bit digits -> eight words (r < 2^256: digit 10's top byte is 0) */
#pragma unroll
    for (int j = 0; j < 8; j++) {
        int b = 32 * j, k = b / F64_BITS, s = b % F64_BITS;
        r->v[j] = dg[k] >> s | dg[k + 1] << (F64_BITS - s);   /* s < 24: two digits */
    }
}

#undef FD
#undef F_
#undef DF
#undef DF_P
