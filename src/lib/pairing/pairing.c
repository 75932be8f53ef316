/* The two pairings, stamped out of pairing_template.h, and the hard parts
 * of their final exponentiations, which differ in shape between the curve
 * families and are written out here.  Both hard parts are the addition
 * chains wasmcurves (snarkjs) uses, so the pairing values match its output
 * exactly rather than only up to a power. */
#include "pairing/pairing.h"

/* 6x + 2 for BN254's x = 4965661367192848881, and |x| of BLS12-381. */
#define BN254_X     4965661367192848881ULL
#define BLS12_381_X 0xd201000000010000ULL

/* r = a^x for a 64-bit x by square-and-multiply with cyclotomic
 * squarings (a is in the cyclotomic subgroup, where the callers'
 * conjugations are also inversions). */
#define DEFINE_POW_X(curve, x)                                                                     \
    static void curve##_pow_x(curve##_fq12 *r, const curve##_fq12 *a)                              \
    {                                                                                              \
        curve##_fq12 acc = *a;                                                                     \
        for (int bit = 62 - __builtin_clzll(x); bit >= 0; bit--) {                                 \
            curve##_fq12_cyclotomic_sqr(&acc, &acc);                                               \
            if (((x) >> bit) & 1) curve##_fq12_mul(&acc, &acc, a);                                 \
        }                                                                                          \
        *r = acc;                                                                                  \
    }
DEFINE_POW_X(bn254, BN254_X)
DEFINE_POW_X(bls12_381, BLS12_381_X)

/* a^(-x) for BN254 (x > 0). */
static void bn254_pow_neg_x(bn254_fq12 *r, const bn254_fq12 *a)
{
    bn254_pow_x(r, a);
    bn254_fq12_conj(r, r);
}

/* BN254: elt^(lambda_0 + lambda_1 p + lambda_2 p^2 + lambda_3 p^3) with
 * lambda_i the polynomials in x of Fuentes-Castaneda et al. */
static void bn254_final_exp_hard(bn254_fq12 *r, const bn254_fq12 *elt)
{
    bn254_fq12 a, b, c, d, e, f, g, t, k, l, m;
    bn254_pow_neg_x(&a, elt);          /* elt^-x */
    bn254_fq12_cyclotomic_sqr(&b, &a); /* ^-2x */
    bn254_fq12_cyclotomic_sqr(&c, &b); /* ^-4x */
    bn254_fq12_mul(&d, &c, &b);        /* ^-6x */
    bn254_pow_neg_x(&e, &d);           /* ^6x^2 */
    bn254_fq12_cyclotomic_sqr(&f, &e); /* ^12x^2 */
    bn254_pow_neg_x(&g, &f);           /* ^-12x^3 */
    bn254_fq12_conj(&t, &g);           /* ^12x^3 */
    bn254_fq12_mul(&t, &t, &e);        /* ^12x^3+6x^2 */
    bn254_fq12_conj(&k, &d);           /* ^6x */
    bn254_fq12_mul(&k, &t, &k);        /* k: ^12x^3+6x^2+6x */
    bn254_fq12_mul(&l, &k, &b);        /* l: ^12x^3+6x^2+4x */
    bn254_fq12_mul(&m, &k, &e);        /* ^12x^3+12x^2+6x */
    bn254_fq12_mul(&m, &m, elt);       /* m: ^12x^3+12x^2+6x+1 */
    bn254_fq12_frobenius(&t, &l, 1);
    bn254_fq12_mul(&m, &t, &m); /* m * l^p */
    bn254_fq12_frobenius(&t, &k, 2);
    bn254_fq12_mul(&m, &t, &m); /* ... * k^(p^2) */
    bn254_fq12_conj(&t, elt);
    bn254_fq12_mul(&t, &t, &l); /* ^12x^3+6x^2+4x-1 */
    bn254_fq12_frobenius(&t, &t, 3);
    bn254_fq12_mul(r, &t, &m);
}

/* a^x for BLS12-381 (x < 0). */
static void bls12_381_pow_signed_x(bls12_381_fq12 *r, const bls12_381_fq12 *a)
{
    bls12_381_pow_x(r, a);
    bls12_381_fq12_conj(r, r);
}

/* BLS12-381: 3(p^4 - p^2 + 1)/r = (x-1)^2 (x+p)(x^2+p^2-1) + 3, evaluated
 * by the chain of Hayashida, Hayasaka and Teruya (as in zkcrypto's
 * bls12_381 and wasmcurves). */
static void bls12_381_final_exp_hard(bls12_381_fq12 *r, const bls12_381_fq12 *t2)
{
    bls12_381_fq12 t0, t1, t3, t4, t5, t6;
    bls12_381_fq12_cyclotomic_sqr(&t1, t2);
    bls12_381_fq12_conj(&t1, &t1);
    bls12_381_pow_signed_x(&t3, t2);
    bls12_381_fq12_cyclotomic_sqr(&t4, &t3);
    bls12_381_fq12_mul(&t5, &t1, &t3);
    bls12_381_pow_signed_x(&t1, &t5);
    bls12_381_pow_signed_x(&t0, &t1);
    bls12_381_pow_signed_x(&t6, &t0);
    bls12_381_fq12_mul(&t6, &t6, &t4);
    bls12_381_pow_signed_x(&t4, &t6);
    bls12_381_fq12_conj(&t5, &t5);
    bls12_381_fq12_mul(&t4, &t4, &t5);
    bls12_381_fq12_mul(&t4, &t4, t2);
    bls12_381_fq12_conj(&t5, t2);
    bls12_381_fq12_mul(&t1, &t1, t2);
    bls12_381_fq12_frobenius(&t1, &t1, 3);
    bls12_381_fq12_mul(&t6, &t6, &t5);
    bls12_381_fq12_frobenius(&t6, &t6, 1);
    bls12_381_fq12_mul(&t3, &t3, &t0);
    bls12_381_fq12_frobenius(&t3, &t3, 2);
    bls12_381_fq12_mul(&t3, &t3, &t1);
    bls12_381_fq12_mul(&t3, &t3, &t6);
    bls12_381_fq12_mul(r, &t3, &t4);
}

/* Non-adjacent form of n, least significant digit first; returns the
 * number of digits (the top one is 1). */
static int pairing_naf(int8_t *digits, g16_u128 n)
{
    int len = 0;
    for (; n; n >>= 1) {
        int8_t d = (n & 1) ? (int8_t)(2 - (int)(n & 3)) : 0; /* n = 3 mod 4 -> -1 */
        if (d > 0) n -= 1;
        if (d < 0) n += 1;
        digits[len++] = d;
    }
    return len;
}

#define PAIRING         bn254
#define PAIRING_FQ      bn254_fq
#define PAIRING_FQ2     bn254_fq2
#define PAIRING_FQ12    bn254_fq12
#define PAIRING_G1      bn254_g1
#define PAIRING_G2      bn254_g2
#define PAIRING_D_TWIST 1
/* 6x + 2 = 29793968203157093288 = 2^64 + 11347224129447541672 */
#define PAIRING_LOOP                                                                               \
    {                                                                                              \
        11347224129447541672ULL, 1                                                                 \
    }
#define PAIRING_LOOP_NEG 0
#define PAIRING_BN       1
#define PAIRING_TWO_INV  BN254_TWO_INV
#include "pairing/pairing_template.h"

#define PAIRING         bls12_381
#define PAIRING_FQ      bls12_381_fq
#define PAIRING_FQ2     bls12_381_fq2
#define PAIRING_FQ12    bls12_381_fq12
#define PAIRING_G1      bls12_381_g1
#define PAIRING_G2      bls12_381_g2
#define PAIRING_D_TWIST 0
#define PAIRING_LOOP                                                                               \
    {                                                                                              \
        BLS12_381_X, 0                                                                             \
    }
#define PAIRING_LOOP_NEG 1
#define PAIRING_BN       0
#define PAIRING_TWO_INV  BLS12_381_TWO_INV
#include "pairing/pairing_template.h"
