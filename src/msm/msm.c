/* Stamps out the MSM for the four groups from one template. */
#include "msm/msm.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"
#include "util/parallel.h"

#define MSM_G bn254_g1
#define MSM_FE bn254_fq
#include "msm/msm_template.h"

#define MSM_G bn254_g2
#define MSM_FE bn254_fq2
#include "msm/msm_template.h"

#define MSM_G bls12_381_g1
#define MSM_FE bls12_381_fq
#include "msm/msm_template.h"

#define MSM_G bls12_381_g2
#define MSM_FE bls12_381_fq2
#include "msm/msm_template.h"
