/* Stamps out the MSM for the four groups from one template.  MSM_INV_COST:
 * the field's inversion is a 4-bit-window power (field's pow_public): a
 * squaring per bit of p and a multiplication per 4 bits, ~350 for 256-bit
 * and ~500 for 384-bit p (measured 356 for BN254); in Fq2 it is one base
 * inversion plus ~4 base multiplications, an Fq2 multiplication being 3.
 * MSM_GLV, MSM_BETA: the endomorphism (msm_internal.h); beta is Montgomery
 * form, and G2 takes the other cube root than G1 for the same lambda. */
#include "msm/msm.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"
#include "util/parallel.h"

#define MSM_G        bn254_g1
#define MSM_FE       bn254_fq
#define MSM_INV_COST 350.0
#define MSM_GLV      (&msm_glv_bn254)
#define MSM_BETA_FE  bn254_fq
#define MSM_BETA                                                                                   \
    {                                                                                              \
        {                                                                                          \
            0x3350c88e13e80b9cULL, 0x7dce557cdb5e56b9ULL, 0x6001b4b8b615564aULL,                   \
                0x2682e617020217e0ULL                                                              \
        }                                                                                          \
    }
#define MSM_BETA_MUL bn254_fq_mul
#include "msm/msm_template.h"

#define MSM_G        bn254_g2
#define MSM_FE       bn254_fq2
#define MSM_INV_COST 118.0
#define MSM_GLV      (&msm_glv_bn254)
#define MSM_BETA_FE  bn254_fq
#define MSM_BETA                                                                                   \
    {                                                                                              \
        {                                                                                          \
            0x71930c11d782e155ULL, 0xa6bb947cffbe3323ULL, 0xaa303344d4741444ULL,                   \
                0x2c3b3f0d26594943ULL                                                              \
        }                                                                                          \
    }
#define MSM_BETA_MUL bn254_fq2_mul_base
#include "msm/msm_template.h"

#define MSM_G        bls12_381_g1
#define MSM_FE       bls12_381_fq
#define MSM_INV_COST 500.0
#define MSM_GLV      (&msm_glv_bls12_381)
#define MSM_BETA_FE  bls12_381_fq
#define MSM_BETA                                                                                   \
    {                                                                                              \
        {                                                                                          \
            0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,                   \
                0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL                \
        }                                                                                          \
    }
#define MSM_BETA_MUL bls12_381_fq_mul
#include "msm/msm_template.h"

#define MSM_G        bls12_381_g2
#define MSM_FE       bls12_381_fq2
#define MSM_INV_COST 168.0
#define MSM_GLV      (&msm_glv_bls12_381)
#define MSM_BETA_FE  bls12_381_fq
#define MSM_BETA                                                                                   \
    {                                                                                              \
        {                                                                                          \
            0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,                   \
                0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL                \
        }                                                                                          \
    }
#define MSM_BETA_MUL bls12_381_fq2_mul_base
#include "msm/msm_template.h"
