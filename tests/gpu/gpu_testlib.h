/* Shared by test_gpu and bench_gpu: test inputs made fast on the CPU.
 * Points are an arithmetic progression k_i = a + i d of multiples of the
 * generator (one addition per point, chunks in parallel, one inversion per
 * chunk), so 2^24 distinct points take seconds, not minutes. */
#ifndef G16_GPU_TESTLIB_H
#define G16_GPU_TESTLIB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "util/parallel.h"

static uint64_t tl_seed = 0x243f6a8885a308d3ULL;

static inline uint64_t tl_rand(void)
{
    tl_seed ^= tl_seed >> 12;
    tl_seed ^= tl_seed << 25;
    tl_seed ^= tl_seed >> 27;
    return tl_seed * 0x2545f4914f6cdd1dULL;
}

/* Random scalar below 2^bits (plain LE, 32 bytes). */
static inline void tl_scalar(uint8_t *out, int bits)
{
    uint64_t v[4];
    for (int k = 0; k < 4; k++) v[k] = tl_rand();
    for (int k = 0; k < 4; k++) {
        int lo = 64 * k;
        if (bits <= lo)
            v[k] = 0;
        else if (bits < lo + 64)
            v[k] &= ((uint64_t)1 << (bits - lo)) - 1;
    }
    memcpy(out, v, 32);
}

#define TL_POINTS(G, FE)                                                                           \
    typedef struct {                                                                               \
        uint8_t *out;                                                                              \
        size_t n;                                                                                  \
        uint64_t a, d;                                                                             \
    } G##_tl_ctx;                                                                                  \
    static void G##_tl_chunk(void *vctx, size_t begin, size_t end, int worker)                     \
    {                                                                                              \
        G##_tl_ctx *c = (G##_tl_ctx *)vctx;                                                        \
        G p, step;                                                                                 \
        G##_affine *aff = (G##_affine *)(c->out + begin * sizeof(G##_affine));                     \
        G *tmp = (G *)malloc((end - begin) * sizeof(G));                                           \
        FE *scratch = (FE *)malloc((end - begin) * sizeof(FE));                                    \
        uint64_t k0[4] = {c->a + begin * c->d, 0, 0, 0}, dd[4] = {c->d, 0, 0, 0};                  \
        (void)worker;                                                                              \
        G##_generator(&p);                                                                         \
        G##_mul(&step, &p, dd, 1);                                                                 \
        G##_mul(&p, &p, k0, 1);                                                                    \
        for (size_t i = begin; i < end; i++) {                                                     \
            tmp[i - begin] = p;                                                                    \
            G##_add(&p, &p, &step);                                                                \
        }                                                                                          \
        G##_batch_to_affine(aff, tmp, end - begin, scratch);                                       \
        free(tmp);                                                                                 \
        free(scratch);                                                                             \
    }                                                                                              \
    /* out[i] = (a + i d) G, affine zkey layout; a + i d < 2^64. */                                \
    static inline void G##_tl_points(uint8_t *out, size_t n, uint64_t a, uint64_t d)               \
    {                                                                                              \
        G##_tl_ctx c = {out, n, a, d};                                                             \
        parallel_for(n, 0, G##_tl_chunk, &c);                                                      \
    }

TL_POINTS(bn254_g1, bn254_fq)
TL_POINTS(bn254_g2, bn254_fq2)
TL_POINTS(bls12_381_g1, bls12_381_fq)
TL_POINTS(bls12_381_g2, bls12_381_fq2)

#endif
