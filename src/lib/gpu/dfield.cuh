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
#define G16_CLZ(x)    __clz(x)
#define G16_BREV64(x) __brevll(x)
#else
#define G16_CLZ(x)    __builtin_clz(x)
#define G16_BREV64(x) g16_brev64(x)
#endif

/* The carry-chain instructions, one macro each, so a sequence is written
 * once: on the device each is one PTX instruction (in consecutive volatile
 * asm statements, so nothing the compiler emits between them touches the
 * carry flag); on the host each is a C emulation with the flag in a local
 * (G16_CARRY declares it), so the tests' CPU emulation runs the very
 * instruction sequence the device runs, carries and all.  PTX's flag is a
 * borrow after sub.cc / subc.cc. */
#ifdef __CUDA_ARCH__
#define G16_CARRY
#define G16_PTX3(op, d, a, b) asm volatile(op " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define G16_PTXM(op, d, a, b) asm volatile(op " %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b))
#define ADD_CC(d, a, b)       G16_PTX3("add.cc.u32", d, a, b)
#define ADDC_CC(d, a, b)      G16_PTX3("addc.cc.u32", d, a, b)
#define ADDC(d, a, b)         G16_PTX3("addc.u32", d, a, b)
#define SUB_CC(d, a, b)       G16_PTX3("sub.cc.u32", d, a, b)
#define SUBC_CC(d, a, b)      G16_PTX3("subc.cc.u32", d, a, b)
#define SUBC(d, a, b)         G16_PTX3("subc.u32", d, a, b)
#define MAD_LO_CC(d, a, b)    G16_PTXM("mad.lo.cc.u32", d, a, b)
#define MADC_LO_CC(d, a, b)   G16_PTXM("madc.lo.cc.u32", d, a, b)
#define MAD_HI_CC(d, a, b)    G16_PTXM("mad.hi.cc.u32", d, a, b)
#define MADC_HI_CC(d, a, b)   G16_PTXM("madc.hi.cc.u32", d, a, b)
/* The flag := (x != 0), to carry a pending bit into the next chain; the
 * sum itself goes to a scoped PTX register nobody reads. */
#define CARRY_IN(x) asm volatile("{.reg .u32 t; add.cc.u32 t, %0, 0xffffffff;}" : : "r"(x))
/* The flag := the carry of a + b (the sum is not needed). */
#define CARRY_OF(a, b) asm volatile("{.reg .u32 t; add.cc.u32 t, %0, %1;}" : : "r"(a), "r"(b))
#else
#define G16_CARRY           uint32_t g16_cf = 0
static inline uint32_t g16_emu_add(uint32_t *cf, uint32_t a, uint32_t b, int in, int out)
{
    uint64_t s = (uint64_t)a + b + (in ? *cf : 0);
    if (out) *cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
static inline uint32_t g16_emu_sub(uint32_t *cf, uint32_t a, uint32_t b, int in, int out)
{
    uint64_t d = (uint64_t)a - b - (in ? *cf : 0);
    if (out) *cf = (uint32_t)(d >> 63);
    return (uint32_t)d;
}
static inline uint32_t g16_emu_mad(uint32_t *cf, uint32_t a, uint32_t b, uint32_t c, int hi, int in)
{
    uint64_t p = (uint64_t)a * b;
    return g16_emu_add(cf, hi ? (uint32_t)(p >> 32) : (uint32_t)p, c, in, 1);
}
#define ADD_CC(d, a, b)     ((d) = g16_emu_add(&g16_cf, a, b, 0, 1))
#define ADDC_CC(d, a, b)    ((d) = g16_emu_add(&g16_cf, a, b, 1, 1))
#define ADDC(d, a, b)       ((d) = g16_emu_add(&g16_cf, a, b, 1, 0))
#define SUB_CC(d, a, b)     ((d) = g16_emu_sub(&g16_cf, a, b, 0, 1))
#define SUBC_CC(d, a, b)    ((d) = g16_emu_sub(&g16_cf, a, b, 1, 1))
#define SUBC(d, a, b)       ((d) = g16_emu_sub(&g16_cf, a, b, 1, 0))
#define MAD_LO_CC(d, a, b)  ((d) = g16_emu_mad(&g16_cf, a, b, d, 0, 0))
#define MADC_LO_CC(d, a, b) ((d) = g16_emu_mad(&g16_cf, a, b, d, 0, 1))
#define MAD_HI_CC(d, a, b)  ((d) = g16_emu_mad(&g16_cf, a, b, d, 1, 0))
#define MADC_HI_CC(d, a, b) ((d) = g16_emu_mad(&g16_cf, a, b, d, 1, 1))
#define CARRY_IN(x)         ((void)g16_emu_add(&g16_cf, x, 0xffffffffu, 0, 1))
#define CARRY_OF(a, b)      ((void)g16_emu_add(&g16_cf, a, b, 0, 1))
#endif

#define G16_CAT_(a, b) a##b
#define G16_CAT(a, b)  G16_CAT_(a, b)
#define G16_STR_(a)    #a
#define G16_STR(a)     G16_STR_(a)

#define DF       d_bn254_fq
#define DF_N     8
#define DF_P     BN254_FQ_P
#define DF_ONE   BN254_FQ_ONE
#define DF_INV   BN254_FQ_INV
#define DF_ROWS2 1
#define DF_ROWS4 1
#include "gpu/dfield_template.cuh"

#define DF       d_bn254_fr
#define DF_N     8
#define DF_P     BN254_FR_P
#define DF_ONE   BN254_FR_ONE
#define DF_INV   BN254_FR_INV
#define DF_ROWS2 1
#define DF_ROWS4 1
#include "gpu/dfield_template.cuh"

#define DF       d_bls12_381_fq
#define DF_N     12
#define DF_P     BLS12_381_FQ_P
#define DF_ONE   BLS12_381_FQ_ONE
#define DF_INV   BLS12_381_FQ_INV
#define DF_ROWS2 1
#define DF_ROWS4 1
#include "gpu/dfield_template.cuh"

#define DF       d_bls12_381_fr
#define DF_N     8
#define DF_P     BLS12_381_FR_P
#define DF_ONE   BLS12_381_FR_ONE
#define DF_INV   BLS12_381_FR_INV
#define DF_ROWS2 0
#define DF_ROWS4 0
#include "gpu/dfield_template.cuh"

#define DQ2        d_bn254_fq2
#define DQ2_BASE   d_bn254_fq
#define DQ2_INLINE __forceinline__
#define DQ2_SUM4   1
#include "gpu/dfq2_template.cuh"

#define DQ2        d_bls12_381_fq2
#define DQ2_BASE   d_bls12_381_fq
#define DQ2_INLINE __noinline__
#define DQ2_SUM4   0
#include "gpu/dfq2_template.cuh"

#endif
