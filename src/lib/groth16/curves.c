/* The curve tables of the prover: one stamp of prover_template.h per curve.
 * Adding a curve means adding its field, group, NTT and MSM instances and
 * one stamp here; prover.c does not change. */
#include <string.h>

#include "curve/curve.h"
#include "groth16/groth16.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "util/parallel.h"

static inline int groth16_same_row(const zkey *key, size_t i, size_t j)
{
    zkey_coef a = zkey_coef_at(key, (uint32_t)i), b = zkey_coef_at(key, (uint32_t)j);
    return a.matrix == b.matrix && a.constraint == b.constraint;
}

int groth16_coefs_grouped(const zkey *key)
{
    for (uint32_t i = 1; i < key->n_coefs; i++) {
        zkey_coef a = zkey_coef_at(key, i - 1), b = zkey_coef_at(key, i);
        if (b.matrix < a.matrix || (b.matrix == a.matrix && b.constraint < a.constraint)) return 0;
    }
    return 1;
}

#define PC      bn254
#define PC_NAME "bn128"
#define PC_ID   FORMATS_CURVE_BN128
#include "groth16/prover_template.h"

#define PC      bls12_381
#define PC_NAME "bls12381"
#define PC_ID   FORMATS_CURVE_BLS12381
#include "groth16/prover_template.h"

#define CURVE_TABLE(pc, snark_name, id)                                                            \
    {                                                                                              \
        snark_name, id, sizeof(pc##_fr), sizeof(pc##_g1_affine), sizeof(pc##_g2_affine),           \
            (const uint8_t *)pc##_fr_modulus.v, pc##_synthesize, pc##_g1_msm_bytes,                \
            pc##_g2_msm_bytes, pc##_assemble, pc##_g1_msm_scratch_bytes,                           \
            pc##_g2_msm_scratch_bytes, pc##_g1_on_curve_bytes, pc##_g2_on_curve_bytes              \
    }

static const groth16_curve groth16_curves[] = {
    CURVE_TABLE(bn254, "bn128", FORMATS_CURVE_BN128),
    CURVE_TABLE(bls12_381, "bls12381", FORMATS_CURVE_BLS12381),
};

const groth16_curve *groth16_curve_for(formats_curve id)
{
    for (size_t i = 0; i < sizeof groth16_curves / sizeof groth16_curves[0]; i++)
        if (groth16_curves[i].id == id) return &groth16_curves[i];
    return NULL;
}
