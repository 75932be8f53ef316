/* curve: the groups G1 (over Fq) and G2 (over Fq2) of BN254 and BLS12-381.
 *
 * Contract
 * - Groups: bn254_g1, bn254_g2, bls12_381_g1, bls12_381_g2.  For each group
 *   G there are two types: G_affine {x, y} and G (Jacobian X, Y, Z with
 *   x = X/Z^2, y = Y/Z^3).  Coordinates are Montgomery-form field elements.
 * - The point at infinity is Z = 0 in Jacobian form and x = y = 0 in affine
 *   form: neither curve has (0, 0) on it (b != 0), and it is exactly how
 *   snarkjs stores infinity in a .zkey, so key points are used as mapped.
 * - Operations: G_set_infinity, G_is_infinity, G_from_affine, G_to_affine,
 *   G_batch_to_affine (one inversion for n points), G_dbl, G_add,
 *   G_add_affine (mixed), G_neg, G_eq, G_mul (scalar given as plain
 *   little-endian 64-bit limbs), G_affine_on_curve, G_in_subgroup,
 *   G_generator.  All of them accept infinity and equal inputs anywhere.
 * - G_mul runs the same sequence of doublings and additions for every
 *   scalar of a given length (a Montgomery ladder), because its callers
 *   multiply by the prover's secret r and s.
 *
 * The curves are y^2 = x^3 + b (a = 0), so every formula below is the a = 0
 * specialisation (dbl-2009-l, add-2007-bl, madd-2007-bl of the EFD).
 */
#ifndef G16_CURVE_H
#define G16_CURVE_H

#include "field/field.h"

#define CURVE    bn254_g1
#define CURVE_FE bn254_fq
#define CURVE_B                                                                                    \
    {                                                                                              \
        {                                                                                          \
            BN254_G1_B                                                                             \
        }                                                                                          \
    }
#define CURVE_GEN_X BN254_G1_GEN_X
#define CURVE_GEN_Y BN254_G1_GEN_Y
#define CURVE_ORDER BN254_FR_P
#include "curve/curve_template.h"

#define CURVE    bn254_g2
#define CURVE_FE bn254_fq2
#define CURVE_B                                                                                    \
    {                                                                                              \
        {{BN254_G2_B_C0}},                                                                         \
        {                                                                                          \
            {                                                                                      \
                BN254_G2_B_C1                                                                      \
            }                                                                                      \
        }                                                                                          \
    }
#define CURVE_GEN_X BN254_G2_GEN_X
#define CURVE_GEN_Y BN254_G2_GEN_Y
#define CURVE_ORDER BN254_FR_P
#include "curve/curve_template.h"

#define CURVE    bls12_381_g1
#define CURVE_FE bls12_381_fq
#define CURVE_B                                                                                    \
    {                                                                                              \
        {                                                                                          \
            BLS12_381_G1_B                                                                         \
        }                                                                                          \
    }
#define CURVE_GEN_X BLS12_381_G1_GEN_X
#define CURVE_GEN_Y BLS12_381_G1_GEN_Y
#define CURVE_ORDER BLS12_381_FR_P
#include "curve/curve_template.h"

#define CURVE    bls12_381_g2
#define CURVE_FE bls12_381_fq2
#define CURVE_B                                                                                    \
    {                                                                                              \
        {{BLS12_381_G2_B_C0}},                                                                     \
        {                                                                                          \
            {                                                                                      \
                BLS12_381_G2_B_C1                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
#define CURVE_GEN_X BLS12_381_G2_GEN_X
#define CURVE_GEN_Y BLS12_381_G2_GEN_Y
#define CURVE_ORDER BLS12_381_FR_P
#include "curve/curve_template.h"

#endif
