/* What every msm_<group>.cu needs before stamping msm_template.cuh. */
#ifndef G16_GPU_MSM_COMMON_CUH
#define G16_GPU_MSM_COMMON_CUH
#include <string.h>

#include <cub/cub.cuh>

#include "gpu/dfield.cuh"
#include "gpu/gpu.h"
#include "gpu/internal.h"
#include "gpu/msm_plan.h"
#endif
