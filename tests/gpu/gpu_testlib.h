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
#include "gpu/gpu.h"
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

/* A synthetic proving key for gpu_key_upload (tests, bench): distinct
 * points for the five MSMs, 4 random coefficients a constraint row over
 * random signals, n_public 1.  Not a key of any circuit (no proof made
 * with it verifies), but every device step runs on it as on a real one. */
typedef struct {
    uint8_t *a, *b1, *b2, *c, *h, *coefs;
} tl_key;

static inline void tl_g1_points(int curve, uint8_t *out, size_t n, uint64_t a)
{
    if (curve == FORMATS_CURVE_BN128)
        bn254_g1_tl_points(out, n, a, 7);
    else
        bls12_381_g1_tl_points(out, n, a, 7);
}

static inline void tl_key_make(tl_key *k, gpu_key_desc *d, int curve, int log_n, size_t n_vars)
{
    size_t n = (size_t)1 << log_n, g1 = curve == FORMATS_CURVE_BN128 ? 64 : 96, nc = 4 * n;
    k->a = (uint8_t *)malloc(n_vars * g1);
    k->b1 = (uint8_t *)malloc(n_vars * g1);
    k->c = (uint8_t *)malloc(n_vars * g1);
    k->h = (uint8_t *)malloc(n * g1);
    k->b2 = (uint8_t *)malloc(n_vars * 2 * g1);
    k->coefs = (uint8_t *)malloc(nc * 44);
    tl_g1_points(curve, k->a, n_vars, 11);
    tl_g1_points(curve, k->b1, n_vars, 13);
    tl_g1_points(curve, k->c, n_vars, 17);
    tl_g1_points(curve, k->h, n, 19);
    if (curve == FORMATS_CURVE_BN128)
        bn254_g2_tl_points(k->b2, n_vars, 23, 7);
    else
        bls12_381_g2_tl_points(k->b2, n_vars, 23, 7);
    for (size_t i = 0; i < nc; i++) {
        uint32_t e[3] = {(uint32_t)(i & 1), (uint32_t)(i / 4 % n), (uint32_t)(tl_rand() % n_vars)};
        memcpy(k->coefs + 44 * i, e, 12);
        tl_scalar(k->coefs + 44 * i + 12, 253);
    }
    memset(d, 0, sizeof *d);
    d->curve = (formats_curve)curve;
    d->a = k->a;
    d->b1 = k->b1;
    d->b2 = k->b2;
    d->c = k->c;
    d->h = k->h;
    d->n_vars = n_vars;
    d->n_public = 1;
    d->domain_log = log_n;
    d->coefs = k->coefs;
    d->n_coefs = nc;
}

static inline void tl_key_free(tl_key *k)
{
    free(k->a);
    free(k->b1);
    free(k->b2);
    free(k->c);
    free(k->h);
    free(k->coefs);
}

#endif
