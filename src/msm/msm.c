/* Stamps out the MSM for the four groups from one template.  MSM_INV_COST:
 * the field's inversion is a fixed-exponent power, a squaring and a
 * multiplication per bit of p (256 or 384 bits); in Fq2 it is one base
 * inversion plus ~6 base multiplications, an Fq2 multiplication being 3. */
#include "msm/msm.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"
#include "util/parallel.h"

#define MSM_G bn254_g1
#define MSM_FE bn254_fq
#define MSM_INV_COST 512.0
#include "msm/msm_template.h"

#define MSM_G bn254_g2
#define MSM_FE bn254_fq2
#define MSM_INV_COST 173.0
#include "msm/msm_template.h"

#define MSM_G bls12_381_g1
#define MSM_FE bls12_381_fq
#define MSM_INV_COST 768.0
#include "msm/msm_template.h"

#define MSM_G bls12_381_g2
#define MSM_FE bls12_381_fq2
#define MSM_INV_COST 258.0
#include "msm/msm_template.h"
