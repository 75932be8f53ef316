/* tower: Fq6 and Fq12 over the Fq2 of each curve (header-only, inline).
 *
 * Contract
 * - Types bn254_fq6, bn254_fq12, bls12_381_fq6, bls12_381_fq12.
 *   Fq6 = Fq2[v]/(v^3 - xi), Fq12 = Fq6[w]/(w^2 - v), with xi = 9 + u for
 *   BN254 and xi = 1 + u for BLS12-381: the towers snarkjs (ffjavascript)
 *   uses, so an Fq12 element's coefficients are the ones it prints.
 * - Every coefficient is a Montgomery-form Fq element, as in field.h.
 * - Operations F_op for both: zero, one, is_zero (Fq6), eq, add, sub, neg
 *   (Fq6), mul, sqr, inv (0 -> 0), mul_v (Fq6: times v), mul_fq2 (Fq6),
 *   conj (Fq12: a^(p^6)), frobenius1 / frobenius (Fq12: a^(p^n)), pow,
 *   is_one (Fq12).  Outputs may alias inputs everywhere.
 * - Nothing here is constant-time beyond what the fields give: pairings in
 *   g16 only see public data (verification keys and proofs).
 */
#ifndef G16_PAIRING_TOWER_H
#define G16_PAIRING_TOWER_H

#include "field/field.h"
#include "pairing/pairing_params.h"

#define FQ6     bn254_fq6
#define FQ6_FQ2 bn254_fq2
#define FQ6_FQ  bn254_fq
#define FQ6_XI  9
#include "pairing/fq6_template.h"

#define FQ6     bls12_381_fq6
#define FQ6_FQ2 bls12_381_fq2
#define FQ6_FQ  bls12_381_fq
#define FQ6_XI  1
#include "pairing/fq6_template.h"

#define FQ12       bn254_fq12
#define FQ12_FQ6   bn254_fq6
#define FQ12_FQ2   bn254_fq2
#define FQ12_GAMMA BN254_FROB_GAMMA
#include "pairing/fq12_template.h"

#define FQ12       bls12_381_fq12
#define FQ12_FQ6   bls12_381_fq6
#define FQ12_FQ2   bls12_381_fq2
#define FQ12_GAMMA BLS12_381_FROB_GAMMA
#include "pairing/fq12_template.h"

#endif
