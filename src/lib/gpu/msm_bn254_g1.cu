/* Pippenger MSM for bn254_g1 (one file per group so they compile in parallel). */
#include "gpu/msm_common.cuh"

#define DG    d_bn254_g1
#define DG_FE d_bn254_fq
#include "gpu/dpoint_template.cuh"

#define DG                 d_bn254_g1
#define MSM_NAME           gpu_bn254_g1
#define MSM_R              BN254_FR_P
#define MSM_RBITS          254
#define MSM_ACC_MIN_BLOCKS 5
#define MSM_ACC_CAPPED     1
#define MSM_CURVE          FORMATS_CURVE_BN128
#define MSM_G2             0
#include "gpu/msm_template.cuh"
