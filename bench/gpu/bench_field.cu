/* bench_field: device field-multiplication throughput, to calibrate the
 * kernels against the integer ceiling (notes in src/gpu/NOTES.md).  For
 * BN254 Fq and BLS12-381 Fq, the plain CIOS product (mul_cios), the one
 * the kernels use (mul: two chains, aligned pairs) and the one-reduction
 * a b - c d (mul_diff2, counted as two products) and Shoup's product by
 * a fixed factor (mul_shoup, for the NTT's twiddles), with one or two
 * independent dependency chains per thread; first checks that both
 * products agree on every thread's data (tests/gpu checks the others).
 * Then the NTT's twiddle products on BN254 Fr, factors read from a
 * shared-memory table as the NTT's passes read them: Shoup's product on
 * the IMAD pipe (mul_shoup_lazy), on the FP64 pipe (mul_shoup_f64), and
 * both at once in one thread (a IMAD chains beside b FP64 chains): does
 * the FP64 pipe add products to the IMAD pipe's?  (NOTES.md, "FP64").
 * Usage: bench_field [threads per SM multiple (8)] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dfield.cuh"

#define CK(x)                                                                     \
    do {                                                                          \
        cudaError_t e_ = (x);                                                     \
        if (e_ != cudaSuccess) {                                                  \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));              \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

enum { ITERS = 512 };

#define FIELD_BENCH(F)                                                            \
    template <int OP>                                                             \
    __device__ __forceinline__ void F##_op(F *x, const F *y)                      \
    {                                                                             \
        if (OP == 0) F##_mul_cios(x, x, y);                                       \
        else if (OP == 1) F##_mul(x, x, y);                                       \
        else if (OP == 2) F##_mul_diff2(x, x, y, y, y);                           \
        else F##_mul_shoup(x, x, y, y); /* wq = y: timing only */                 \
    }                                                                             \
    template <int OP, int CHAINS>                                                 \
    __global__ void F##_loop(F *data, size_t n)                                   \
    {                                                                             \
        size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;                 \
        if (t >= n) return;                                                       \
        F x = data[t], y = data[(t + 1) % n], z = data[(t + 2) % n];              \
        for (int i = 0; i < ITERS; i++) {                                         \
            F##_op<OP>(&x, &y);                                                   \
            if (CHAINS == 2) F##_op<OP>(&z, &y);                                  \
        }                                                                         \
        if (CHAINS == 2) F##_add(&x, &x, &z);                                     \
        data[t] = x;                                                              \
    }                                                                             \
    static double F##_run(int op, int chains, F *d, size_t n, int block)          \
    {                                                                             \
        cudaEvent_t a, b;                                                         \
        float ms = 0, best = 1e30f;                                               \
        CK(cudaEventCreate(&a));                                                  \
        CK(cudaEventCreate(&b));                                                  \
        for (int rep = 0; rep < 4; rep++) {                                       \
            CK(cudaEventRecord(a));                                               \
            unsigned g = (unsigned)((n + block - 1) / block);                     \
            switch (op * 2 + chains - 1) {                                        \
            case 0: F##_loop<0, 1><<<g, block>>>(d, n); break;                    \
            case 1: F##_loop<0, 2><<<g, block>>>(d, n); break;                    \
            case 2: F##_loop<1, 1><<<g, block>>>(d, n); break;                    \
            case 3: F##_loop<1, 2><<<g, block>>>(d, n); break;                    \
            case 4: F##_loop<2, 1><<<g, block>>>(d, n); break;                    \
            case 5: F##_loop<2, 2><<<g, block>>>(d, n); break;                    \
            case 6: F##_loop<3, 1><<<g, block>>>(d, n); break;                    \
            default: F##_loop<3, 2><<<g, block>>>(d, n); break;                   \
            }                                                                     \
            CK(cudaGetLastError());                                               \
            CK(cudaEventRecord(b));                                               \
            CK(cudaEventSynchronize(b));                                          \
            CK(cudaEventElapsedTime(&ms, a, b));                                  \
            if (rep && ms < best) best = ms;                                      \
        }                                                                         \
        return (double)n * ITERS * chains * (op == 2 ? 2 : 1) / (best * 1e-3) / 1e9; \
    }                                                                             \
    static void F##_bench(const char *name, size_t n, int block)                  \
    {                                                                             \
        size_t bytes = n * sizeof(F);                                             \
        F *h = (F *)malloc(bytes), *h2 = (F *)malloc(bytes), *d;                  \
        unsigned long long s = 88172645463325252ULL;                              \
        for (size_t i = 0; i < n; i++)                                            \
            for (int j = 0; j < (int)(sizeof(F) / 4); j++) {                      \
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;                          \
                ((uint32_t *)&h[i])[j] = (uint32_t)s;                             \
            }                                                                     \
        for (size_t i = 0; i < n; i++) ((uint32_t *)&h[i])[sizeof(F) / 4 - 1] >>= 4; \
        CK(cudaMalloc(&d, bytes));                                                \
        CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));                      \
        F##_loop<0, 1><<<(unsigned)((n + 255) / 256), 256>>>(d, n);               \
        CK(cudaMemcpy(h2, d, bytes, cudaMemcpyDeviceToHost));                     \
        CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));                      \
        F##_loop<1, 1><<<(unsigned)((n + 255) / 256), 256>>>(d, n);               \
        CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));                      \
        size_t bad = 0;                                                           \
        for (size_t i = 0; i < n; i++) bad += memcmp(&h[i], &h2[i], sizeof(F)) != 0; \
        printf("%-16s mul_cios vs mul: %zu of %zu differ\n", name, bad, n);       \
        static const char *ops[] = {"mul_cios", "mul", "diff2", "shoup"};         \
        for (int op = 0; op < 4; op++)                                            \
            for (int ch = 1; ch <= 2; ch++)                                       \
                printf("%-16s %-8s chains %d block %d: %7.2f G mul/s\n", name,    \
                       ops[op], ch, block, F##_run(op, ch, d, n, block));         \
        cudaFree(d);                                                              \
        free(h);                                                                  \
        free(h2);                                                                 \
    }

FIELD_BENCH(d_bn254_fq)
FIELD_BENCH(d_bls12_381_fq)

/* ---- Twiddle products: IMAD, FP64 and both ---- */
enum { TW_COUNT = 64 };

/* The factors, split by word and digit (word k of factor t at [k][t]), so
 * a warp reading 32 consecutive factors is conflict-free. */
typedef struct {
    uint32_t w[8][TW_COUNT], wq[8][TW_COUNT];
    double fw[F64_DIGITS][TW_COUNT], fwq[F64_DIGITS][TW_COUNT];
} tw_table;

/* NI IMAD chains beside NF FP64 chains; SERIAL (NI = NF): each chain's
 * IMAD product then its FP64 product, as the NTT's mix mode runs a
 * radix-4 step (two IMAD products, then two FP64 ones that need them). */
template <int NI, int NF, int SERIAL>
__global__ void __launch_bounds__(128) tw_loop(d_bn254_fr *data, size_t n, const tw_table *tab)
{
    __shared__ tw_table sh;
    for (int i = threadIdx.x; i < (int)(sizeof(tw_table) / 4); i += blockDim.x)
        ((uint32_t *)&sh)[i] = ((const uint32_t *)tab)[i];
    __syncthreads();
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    d_bn254_fr xi[NI > 0 ? NI : 1], xf[NF > 0 ? NF : 1];
#pragma unroll
    for (int c = 0; c < NI; c++) xi[c] = data[(t + c) % n];
#pragma unroll
    for (int c = 0; c < (SERIAL ? 0 : NF); c++) xf[c] = data[(t + NI + c) % n];
    for (int it = 0; it < ITERS; it++) {
        int k = (threadIdx.x + it) & (TW_COUNT - 1);
        if (NI) {
            d_bn254_fr w, wq;
#pragma unroll
            for (int j = 0; j < 8; j++) {
                w.v[j] = sh.w[j][k];
                wq.v[j] = sh.wq[j][k];
            }
#pragma unroll
            for (int c = 0; c < NI; c++) d_bn254_fr_mul_shoup_lazy(&xi[c], &xi[c], &w, &wq);
        }
        if (NF) {
            d_bn254_fr_f64 fw, fwq;
#pragma unroll
            for (int j = 0; j < F64_DIGITS; j++) {
                fw.d[j] = sh.fw[j][k];
                fwq.d[j] = sh.fwq[j][k];
            }
#pragma unroll
            for (int c = 0; c < NF; c++) {
                d_bn254_fr *x = SERIAL ? &xi[c] : &xf[c];
                d_bn254_fr_mul_shoup_f64(x, x, &fw, &fwq);
            }
        }
    }
    d_bn254_fr acc = NI ? xi[0] : xf[0];
#pragma unroll
    for (int c = 1; c < NI; c++) d_bn254_fr_add_lazy(&acc, &acc, &xi[c]);
#pragma unroll
    for (int c = NI ? 0 : 1; c < (SERIAL ? 0 : NF); c++) d_bn254_fr_add_lazy(&acc, &acc, &xf[c]);
    d_bn254_fr_reduce(&acc, acc.v);
    data[t] = acc;
}

#define TW_CONFIGS(X)                                                             \
    X(1, 0, 0) X(2, 0, 0) X(0, 1, 0) X(0, 2, 0) X(1, 1, 0) X(2, 1, 0) X(3, 1, 0) X(2, 2, 0) \
    X(2, 2, 1)

static double tw_run(int ni, int nf, int serial, d_bn254_fr *d, size_t n, const tw_table *tab)
{
    cudaEvent_t a, b;
    float ms = 0, best = 1e30f;
    unsigned g = (unsigned)((n + 127) / 128);
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int rep = 0; rep < 4; rep++) {
        CK(cudaEventRecord(a));
#define TW_LAUNCH(I, F, S) \
    if (ni == I && nf == F && serial == S) tw_loop<I, F, S><<<g, 128>>>(d, n, tab);
        TW_CONFIGS(TW_LAUNCH)
#undef TW_LAUNCH
        CK(cudaGetLastError());
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        if (rep && ms < best) best = ms;
    }
    return (double)n * ITERS * (ni + nf) / (best * 1e-3) / 1e9;
}

static void tw_bench(size_t n)
{
    tw_table *h = (tw_table *)malloc(sizeof(tw_table)), *dt;
    d_bn254_fr *x = (d_bn254_fr *)malloc(n * sizeof(d_bn254_fr)), *y, *d;
    y = (d_bn254_fr *)malloc(n * sizeof(d_bn254_fr));
    unsigned long long s = 0x2545f4914f6cdd1dULL;
    for (size_t i = 0; i < n + TW_COUNT; i++) {
        d_bn254_fr v;
        for (int j = 0; j < 8; j++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            v.v[j] = (uint32_t)s;
        }
        v.v[7] &= 0x1fffffffu;   /* below 2^253 < p */
        if (i < n) { x[i] = v; continue; }
        int t = (int)(i - n);
        d_bn254_fr wq;
        d_bn254_fr_f64 fw, fwq;
        d_bn254_fr_shoup_quotient(&wq, &v);
        d_bn254_fr_mul_shoup_f64_factor(&fw, &fwq, &v);
        for (int j = 0; j < 8; j++) {
            h->w[j][t] = v.v[j];
            h->wq[j][t] = wq.v[j];
        }
        for (int j = 0; j < F64_DIGITS; j++) {
            h->fw[j][t] = fw.d[j];
            h->fwq[j][t] = fwq.d[j];
        }
    }
    CK(cudaMalloc(&dt, sizeof(tw_table)));
    CK(cudaMalloc(&d, n * sizeof(d_bn254_fr)));
    CK(cudaMemcpy(dt, h, sizeof(tw_table), cudaMemcpyHostToDevice));
    /* one chain each way from the same start: equal results mod p */
    CK(cudaMemcpy(d, x, n * sizeof(d_bn254_fr), cudaMemcpyHostToDevice));
    tw_loop<1, 0, 0><<<(unsigned)((n + 127) / 128), 128>>>(d, n, dt);
    CK(cudaMemcpy(y, d, n * sizeof(d_bn254_fr), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(d, x, n * sizeof(d_bn254_fr), cudaMemcpyHostToDevice));
    tw_loop<0, 1, 0><<<(unsigned)((n + 127) / 128), 128>>>(d, n, dt);
    CK(cudaMemcpy(x, d, n * sizeof(d_bn254_fr), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += memcmp(&x[i], &y[i], sizeof(d_bn254_fr)) != 0;
    printf("BN254 Fr twiddle shoup vs shoup_f64: %zu of %zu differ\n", bad, n);
#define TW_PRINT(I, F, S)                                                         \
    printf("BN254 Fr twiddle imad %d f64 %d%s: %7.2f G mul/s\n", I, F, S ? " serial" : "", \
           tw_run(I, F, S, d, n, dt));
    TW_CONFIGS(TW_PRINT)
#undef TW_PRINT
    cudaFree(d);
    cudaFree(dt);
    free(h);
    free(x);
    free(y);
}

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
    tw_bench(n);
    return 0;
}
