/* pairing: the optimal Ate pairing of BN254 and BLS12-381.
 *
 * Contract
 * - For each curve C in {bn254, bls12_381}:
 *     C_miller_loop(f, P, Q, n)  f = prod_i f_{Q_i}(P_i), the Miller loop
 *                                 of n pairs (one shared squaring chain)
 *     C_final_exp(r, f)          r = f^E (see below)
 *     C_pairing(r, P, Q)         r = e(P, Q) = final_exp(miller_loop(P, Q))
 *     C_pairing_check(P, Q, n)   1 iff prod_i e(P_i, Q_i) = 1, else 0
 *   P_i are C_g1_affine, Q_i C_g2_affine, r and f C_fq12 (tower.h).
 * - Inputs must be on their curves and in the order-r subgroups; the
 *   caller checks that (curve.h: affine_on_curve, in_subgroup).  A pair
 *   with a point at infinity contributes 1.  Nothing allocates or fails.
 * - E is the exponent snarkjs (ffjavascript/wasmcurves) uses, so
 *   C_pairing(alpha1, beta2) equals a verification key's vk_alphabeta_12
 *   coefficient for coefficient: for BN254 the chain of Fuentes-Castaneda,
 *   Knapp and Rodriguez-Henriquez, E = 2x(6x^2+3x+1)(p^12-1)/r; for
 *   BLS12-381 the one of Hayashida, Hayasaka and Teruya, E = 3(p^12-1)/r.
 *   Both are multiples of (p^12-1)/r by factors prime to r, so the result
 *   is a bilinear, non-degenerate pairing and pairing_check is exact.
 * - Twists: BN254 uses the D-twist y^2 = x^3 + 3/(9+u), BLS12-381 the
 *   M-twist y^2 = x^3 + 4(1+u); Fq12 = Fq6[w]/(w^2 - v),
 *   Fq6 = Fq2[v]/(v^3 - xi) with xi = 9+u resp. 1+u.
 * - Pairings see only public data, so nothing here is constant-time.
 */
#ifndef G16_PAIRING_H
#define G16_PAIRING_H

#include <stddef.h>

#include "curve/curve.h"
#include "pairing/tower.h"

void bn254_miller_loop(bn254_fq12 *f, const bn254_g1_affine *p, const bn254_g2_affine *q, size_t n);
void bn254_final_exp(bn254_fq12 *r, const bn254_fq12 *f);
void bn254_pairing(bn254_fq12 *r, const bn254_g1_affine *p, const bn254_g2_affine *q);
int bn254_pairing_check(const bn254_g1_affine *p, const bn254_g2_affine *q, size_t n);

void bls12_381_miller_loop(bls12_381_fq12 *f, const bls12_381_g1_affine *p,
                           const bls12_381_g2_affine *q, size_t n);
void bls12_381_final_exp(bls12_381_fq12 *r, const bls12_381_fq12 *f);
void bls12_381_pairing(bls12_381_fq12 *r, const bls12_381_g1_affine *p,
                       const bls12_381_g2_affine *q);
int bls12_381_pairing_check(const bls12_381_g1_affine *p, const bls12_381_g2_affine *q, size_t n);

#endif
