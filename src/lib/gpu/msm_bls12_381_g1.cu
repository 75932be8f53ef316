/* Pippenger MSM for bls12_381_g1 (one file per group so they compile in parallel). */
#include "gpu/msm_common.cuh"

#define DG    d_bls12_381_g1
#define DG_FE d_bls12_381_fq
#include "gpu/dpoint_template.cuh"

#define DG                 d_bls12_381_g1
#define MSM_NAME           gpu_bls12_381_g1
#define MSM_R              BLS12_381_FR_P
#define MSM_RBITS          255
#define MSM_ACC_MIN_BLOCKS 4
#define MSM_ACC_CAPPED     0
#define MSM_CURVE          FORMATS_CURVE_BLS12381
#define MSM_G2             0
#include "gpu/msm_template.cuh"
