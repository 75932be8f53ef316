/* Stamps out the MSM for the four groups from one template.  MSM_INV_COST:
 * the field's inversion is a 4-bit-window power (field's pow_public): a
 * squaring per bit of p and a multiplication per 4 bits, ~350 for 256-bit
 * and ~500 for 384-bit p (measured 356 for BN254); in Fq2 it is one base
 * inversion plus ~4 base multiplications, an Fq2 multiplication being 3. */
#include "msm/msm.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"
#include "util/parallel.h"

#define MSM_G bn254_g1
#define MSM_FE bn254_fq
#define MSM_INV_COST 350.0
#include "msm/msm_template.h"

#define MSM_G bn254_g2
#define MSM_FE bn254_fq2
#define MSM_INV_COST 118.0
#include "msm/msm_template.h"

#define MSM_G bls12_381_g1
#define MSM_FE bls12_381_fq
#define MSM_INV_COST 500.0
#include "msm/msm_template.h"

#define MSM_G bls12_381_g2
#define MSM_FE bls12_381_fq2
#define MSM_INV_COST 168.0
#include "msm/msm_template.h"
