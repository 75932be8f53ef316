/* dfield: the device fields, each stamped out from dfield_template.cuh with
 * the CPU's constants (field_params.h), so both sides share one source of
 * truth for every modulus.  Prefixes: d_bn254_fq, d_bn254_fr,
 * d_bls12_381_fq, d_bls12_381_fr, d_bn254_fq2, d_bls12_381_fq2. */
#ifndef G16_GPU_DFIELD_CUH
#define G16_GPU_DFIELD_CUH

#include <stdint.h>

#include "field/field_params.h"

/* Device code inlines the field; the host build (tests' emulation) too. */
#define HD __host__ __device__ __forceinline__
static inline unsigned long long g16_brev64(unsigned long long x)
{
    unsigned long long r = 0;
    for (int i = 0; i < 64; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}
#ifdef __CUDA_ARCH__
#define G16_CLZ(x) __clz(x)
#define G16_BREV64(x) __brevll(x)
#else
#define G16_CLZ(x) __builtin_clz(x)
#define G16_BREV64(x) g16_brev64(x)
#endif

#define G16_CAT_(a, b) a##b
#define G16_CAT(a, b) G16_CAT_(a, b)
#define G16_STR_(a) #a
#define G16_STR(a) G16_STR_(a)

#define DF d_bn254_fq
#define DF_N 8
#define DF_P BN254_FQ_P
#define DF_ONE BN254_FQ_ONE
#define DF_INV BN254_FQ_INV
#include "gpu/dfield_template.cuh"

#define DF d_bn254_fr
#define DF_N 8
#define DF_P BN254_FR_P
#define DF_ONE BN254_FR_ONE
#define DF_INV BN254_FR_INV
#include "gpu/dfield_template.cuh"

#define DF d_bls12_381_fq
#define DF_N 12
#define DF_P BLS12_381_FQ_P
#define DF_ONE BLS12_381_FQ_ONE
#define DF_INV BLS12_381_FQ_INV
#include "gpu/dfield_template.cuh"

#define DF d_bls12_381_fr
#define DF_N 8
#define DF_P BLS12_381_FR_P
#define DF_ONE BLS12_381_FR_ONE
#define DF_INV BLS12_381_FR_INV
#include "gpu/dfield_template.cuh"

#define DQ2 d_bn254_fq2
#define DQ2_BASE d_bn254_fq
#define DQ2_INLINE __forceinline__
#include "gpu/dfq2_template.cuh"

#define DQ2 d_bls12_381_fq2
#define DQ2_BASE d_bls12_381_fq
#define DQ2_INLINE __noinline__
#include "gpu/dfq2_template.cuh"

#endif
