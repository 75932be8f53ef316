/* bench_field: device field-multiplication throughput, to calibrate the
 * kernels against the integer ceiling (notes in docs/gpu-notes.md).  For
 * BN254 Fq and BLS12-381 Fq, the plain CIOS product (mul_cios), the one
 * the kernels use (mul: two chains, aligned pairs) and the one-reduction
 * a b - c d (mul_diff2, counted as two products) and Shoup's product by
 * a fixed factor (mul_shoup, for the NTT's twiddles), with one or two
 * independent dependency chains per thread; first checks that both
 * products agree on every thread's data (tests/gpu checks the others).
 * Usage: bench_field [threads per SM multiple (8)] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dfield.cuh"

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum { ITERS = 512 };

#define FIELD_BENCH(F)                                                                             \
    template <int OP> __device__ __forceinline__ void F##_op(F *x, const F *y)                     \
    {                                                                                              \
        if (OP == 0)                                                                               \
            F##_mul_cios(x, x, y);                                                                 \
        else if (OP == 1)                                                                          \
            F##_mul(x, x, y);                                                                      \
        else if (OP == 2)                                                                          \
            F##_mul_diff2(x, x, y, y, y);                                                          \
        else                                                                                       \
            F##_mul_shoup(x, x, y, y); /* wq = y: timing only */                                   \
    }                                                                                              \
    template <int OP, int CHAINS> __global__ void F##_loop(F *data, size_t n)                      \
    {                                                                                              \
        size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;                                  \
        if (t >= n) return;                                                                        \
        F x = data[t], y = data[(t + 1) % n], z = data[(t + 2) % n];                               \
        for (int i = 0; i < ITERS; i++) {                                                          \
            F##_op<OP>(&x, &y);                                                                    \
            if (CHAINS == 2) F##_op<OP>(&z, &y);                                                   \
        }                                                                                          \
        if (CHAINS == 2) F##_add(&x, &x, &z);                                                      \
        data[t] = x;                                                                               \
    }                                                                                              \
    static double F##_run(int op, int chains, F *d, size_t n, int block)                           \
    {                                                                                              \
        cudaEvent_t a, b;                                                                          \
        float ms = 0, best = 1e30f;                                                                \
        CK(cudaEventCreate(&a));                                                                   \
        CK(cudaEventCreate(&b));                                                                   \
        for (int rep = 0; rep < 4; rep++) {                                                        \
            CK(cudaEventRecord(a));                                                                \
            unsigned g = (unsigned)((n + block - 1) / block);                                      \
            switch (op * 2 + chains - 1) {                                                         \
            case 0: F##_loop<0, 1><<<g, block>>>(d, n); break;                                     \
            case 1: F##_loop<0, 2><<<g, block>>>(d, n); break;                                     \
            case 2: F##_loop<1, 1><<<g, block>>>(d, n); break;                                     \
            case 3: F##_loop<1, 2><<<g, block>>>(d, n); break;                                     \
            case 4: F##_loop<2, 1><<<g, block>>>(d, n); break;                                     \
            case 5: F##_loop<2, 2><<<g, block>>>(d, n); break;                                     \
            case 6: F##_loop<3, 1><<<g, block>>>(d, n); break;                                     \
            default: F##_loop<3, 2><<<g, block>>>(d, n); break;                                    \
            }                                                                                      \
            CK(cudaGetLastError());                                                                \
            CK(cudaEventRecord(b));                                                                \
            CK(cudaEventSynchronize(b));                                                           \
            CK(cudaEventElapsedTime(&ms, a, b));                                                   \
            if (rep && ms < best) best = ms;                                                       \
        }                                                                                          \
        return (double)n * ITERS * chains * (op == 2 ? 2 : 1) / (best * 1e-3) / 1e9;               \
    }                                                                                              \
    static void F##_bench(const char *name, size_t n, int block)                                   \
    {                                                                                              \
        size_t bytes = n * sizeof(F);                                                              \
        F *h = (F *)malloc(bytes), *h2 = (F *)malloc(bytes), *d;                                   \
        unsigned long long s = 88172645463325252ULL;                                               \
        for (size_t i = 0; i < n; i++)                                                             \
            for (int j = 0; j < (int)(sizeof(F) / 4); j++) {                                       \
                s ^= s << 13;                                                                      \
                s ^= s >> 7;                                                                       \
                s ^= s << 17;                                                                      \
                ((uint32_t *)&h[i])[j] = (uint32_t)s;                                              \
            }                                                                                      \
        for (size_t i = 0; i < n; i++) ((uint32_t *)&h[i])[sizeof(F) / 4 - 1] >>= 4;               \
        CK(cudaMalloc(&d, bytes));                                                                 \
        CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));                                       \
        F##_loop<0, 1><<<(unsigned)((n + 255) / 256), 256>>>(d, n);                                \
        CK(cudaMemcpy(h2, d, bytes, cudaMemcpyDeviceToHost));                                      \
        CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));                                       \
        F##_loop<1, 1><<<(unsigned)((n + 255) / 256), 256>>>(d, n);                                \
        CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));                                       \
        size_t bad = 0;                                                                            \
        for (size_t i = 0; i < n; i++) bad += memcmp(&h[i], &h2[i], sizeof(F)) != 0;               \
        printf("%-16s mul_cios vs mul: %zu of %zu differ\n", name, bad, n);                        \
        static const char *ops[] = {"mul_cios", "mul", "diff2", "shoup"};                          \
        for (int op = 0; op < 4; op++)                                                             \
            for (int ch = 1; ch <= 2; ch++)                                                        \
                printf("%-16s %-8s chains %d block %d: %7.2f G mul/s\n", name, ops[op], ch, block, \
                       F##_run(op, ch, d, n, block));                                              \
        cudaFree(d);                                                                               \
        free(h);                                                                                   \
        free(h2);                                                                                  \
    }

FIELD_BENCH(d_bn254_fq)
FIELD_BENCH(d_bls12_381_fq)

int main(int argc, char **argv)
{
    int mult = argc > 1 ? atoi(argv[1]) : 8, sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t n = (size_t)sms * 128 * (mult > 0 ? mult : 8);
    printf("bench_field: %d SMs, %zu threads, %d products per chain\n", sms, n, ITERS);
    for (int block = 128; block <= 256; block *= 2) {
        d_bn254_fq_bench("BN254 Fq", n, block);
        d_bls12_381_fq_bench("BLS12-381 Fq", n, block);
    }
    return 0;
}
