/* Pippenger MSM for bn254_g2 (one file per group so they compile in parallel). */
#include "gpu/msm_common.cuh"

#define DG    d_bn254_g2
#define DG_FE d_bn254_fq2
#include "gpu/dpoint_template.cuh"

#define DG                 d_bn254_g2
#define MSM_NAME           gpu_bn254_g2
#define MSM_R              BN254_FR_P
#define MSM_RBITS          254
#define MSM_ACC_MIN_BLOCKS 3
#define MSM_ACC_CAPPED     0
#define MSM_CURVE          FORMATS_CURVE_BN128
#define MSM_G2             1
#include "gpu/msm_template.cuh"
