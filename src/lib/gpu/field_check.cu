/* gpu_field_check: the device field code against the plain reference.
 *
 * The product (cios_abs), the one-reduction difference of products
 * (mul_diff2), Shoup's product (mul_shoup) and the Fq2 product
 * (dfield_template.cuh, dfq2_template.cuh) are carry-chain sequences
 * whose bounds are argued in comments; this runs them on random and edge
 * operands and compares each result with the CIOS product's (plain C on
 * the host, a different code path).  on_device = 0 runs the
 * sequences through the emulated instructions (CI); 1 runs the PTX. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dfield.cuh"
#include "gpu/internal.h"

/* Canonical elements: random limbs cut to p's bit length, reduced once;
 * about every 16th operand is 0, R mod p or
 * p - 1. */
#define FIELD_GEN(F, N)                                                                            \
    static void F##_gen(F *x, unsigned long long *s)                                               \
    {                                                                                              \
        uint32_t top = F##_p(N - 1), mask = 0xffffffffu >> G16_CLZ(top), t[N];                     \
        for (int j = 0; j < N; j++) {                                                              \
            *s ^= *s << 13;                                                                        \
            *s ^= *s >> 7;                                                                         \
            *s ^= *s << 17;                                                                        \
            t[j] = (uint32_t)*s;                                                                   \
        }                                                                                          \
        t[N - 1] &= mask;                                                                          \
        F##_reduce(x, t);                                                                          \
        switch ((*s >> 40) & 15) {                                                                 \
        case 0: F##_zero(x); break;                                                                \
        case 1: F##_one(x); break;                                                                 \
        case 2:                                                                                    \
            for (int j = 0; j < N; j++) x->v[j] = F##_p(j);                                        \
            x->v[0] -= 1;                                                                          \
            break;                                                                                 \
        default: break;                                                                            \
        }                                                                                          \
    }

/* Four operands in, four results out per check.  The fourth is Shoup's
 * product x w mod p (where 3p < R), against CIOS with w R mod p (w
 * doubled 32 N times from R mod p's Montgomery image), plus, where 4p <
 * R, the lazy butterfly forms with x or x + p and y + p (in [p, 2p), as
 * the NTT's values may be): (x + y) + (x - y) w + (x - y), each reduced. */
#define FIELD_RUN(F)                                                                               \
    static __host__ __device__ void F##_check_one(const F *in, F *out)                             \
    {                                                                                              \
        F wq, xp, yp, s, d;                                                                        \
        F##_mul(&out[0], &in[0], &in[1]);                                                          \
        F##_mul_diff2(&out[1], &in[0], &in[1], &in[2], &in[3]);                                    \
        F##_sqr(&out[2], &in[3]);                                                                  \
        F##_zero(&out[3]);                                                                         \
        if (!F##_shoup_ok()) return;                                                               \
        F##_shoup_quotient(&wq, &in[2]);                                                           \
        F##_mul_shoup(&out[3], &in[0], &in[2], &wq);                                               \
        if (!F##_lazy_ok()) return;                                                                \
        F##_lazy_plus_p(&xp, &in[0]);                                                              \
        F##_lazy_plus_p(&yp, &in[1]);                                                              \
        F##_add_lazy(&s, &xp, &yp);                                                                \
        F##_reduce(&s, s.v);                                                                       \
        F##_add(&out[3], &out[3], &s);                                                             \
        F##_sub_lazy4(&d, &in[0], &yp);                                                            \
        F##_mul_shoup_lazy(&s, &d, &in[2], &wq);                                                   \
        F##_reduce(&s, s.v);                                                                       \
        F##_add(&out[3], &out[3], &s);                                                             \
        F##_sub_lazy(&d, &in[0], &yp);                                                             \
        F##_reduce(&d, d.v);                                                                       \
        F##_add(&out[3], &out[3], &d);                                                             \
    }                                                                                              \
    /* R^2 mod p (w R^2 / R = w R: a plain w's Montgomery form), once */                           \
    static const F *F##_ref_r2(void)                                                               \
    {                                                                                              \
        static F r2;                                                                               \
        static int have_r2;                                                                        \
        if (!have_r2) {                                                                            \
            F##_one(&r2);                                                                          \
            for (int b = 0; b < 32 * (int)(sizeof(F) / 4); b++) F##_add(&r2, &r2, &r2);            \
            have_r2 = 1;                                                                           \
        }                                                                                          \
        return &r2;                                                                                \
    }                                                                                              \
    static void F##_check_ref(const F *in, F *out)                                                 \
    {                                                                                              \
        F t;                                                                                       \
        F##_mul_cios(&out[0], &in[0], &in[1]);                                                     \
        F##_mul_cios(&out[1], &in[0], &in[1]);                                                     \
        F##_mul_cios(&t, &in[2], &in[3]);                                                          \
        F##_sub(&out[1], &out[1], &t);                                                             \
        F##_mul_cios(&out[2], &in[3], &in[3]);                                                     \
        F##_zero(&out[3]);                                                                         \
        if (!F##_shoup_ok()) return;                                                               \
        F##_mul_cios(&t, &in[2], F##_ref_r2());                                                    \
        F##_mul_cios(&out[3], &in[0], &t);                                                         \
        if (!F##_lazy_ok()) return;                                                                \
        F d, s;                                                                                    \
        F##_sub(&d, &in[0], &in[1]);                                                               \
        F##_mul_cios(&s, &d, &t);                                                                  \
        F##_add(&out[3], &out[3], &s);                                                             \
        F##_add(&s, &in[0], &in[1]);                                                               \
        F##_add(&out[3], &out[3], &s);                                                             \
        F##_add(&out[3], &out[3], &d);                                                             \
    }

#define FQ2_RUN(E, F)                                                                              \
    static __host__ __device__ void E##_check_one(const E *in, E *out)                             \
    {                                                                                              \
        E##_mul(&out[0], &in[0], &in[1]);                                                          \
        E##_mul_diff2(&out[1], &in[0], &in[1], &in[2], &in[3]);                                    \
        E##_sqr(&out[2], &in[2]);                                                                  \
        out[3] = out[0];                                                                           \
    }                                                                                              \
    static void E##_ref_mul(E *r, const E *a, const E *b)                                          \
    {                                                                                              \
        F t, u;                                                                                    \
        F##_mul_cios(&t, &a->c0, &b->c0);                                                          \
        F##_mul_cios(&u, &a->c1, &b->c1);                                                          \
        F c0;                                                                                      \
        F##_sub(&c0, &t, &u);                                                                      \
        F##_mul_cios(&t, &a->c0, &b->c1);                                                          \
        F##_mul_cios(&u, &a->c1, &b->c0);                                                          \
        F##_add(&r->c1, &t, &u);                                                                   \
        r->c0 = c0;                                                                                \
    }                                                                                              \
    static void E##_check_ref(const E *in, E *out)                                                 \
    {                                                                                              \
        E t;                                                                                       \
        E##_ref_mul(&out[0], &in[0], &in[1]);                                                      \
        E##_ref_mul(&t, &in[2], &in[3]);                                                           \
        E##_sub(&out[1], &out[0], &t);                                                             \
        E##_ref_mul(&out[2], &in[2], &in[2]);                                                      \
        out[3] = out[0];                                                                           \
    }                                                                                              \
    static void E##_gen(E *x, unsigned long long *s)                                               \
    {                                                                                              \
        F##_gen(&x->c0, s);                                                                        \
        F##_gen(&x->c1, s);                                                                        \
    }

#define CHECK_DRIVER(T)                                                                            \
    static __global__ void T##_check_kernel(const T *in, T *out, size_t n)                         \
    {                                                                                              \
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;                                  \
        if (i < n) T##_check_one(in + 4 * i, out + 4 * i);                                         \
    }                                                                                              \
    static int T##_check(int on_device, size_t n, char *err, size_t errlen)                        \
    {                                                                                              \
        T *in = (T *)malloc(4 * n * sizeof(T)), *out = (T *)malloc(4 * n * sizeof(T));             \
        T ref[4];                                                                                  \
        unsigned long long s = 0x9e3779b97f4a7c15ULL;                                              \
        int rc = 0;                                                                                \
        if (!in || !out) {                                                                         \
            snprintf(err, errlen, "out of memory");                                                \
            free(in);                                                                              \
            free(out);                                                                             \
            return -1;                                                                             \
        }                                                                                          \
        for (size_t i = 0; i < 4 * n; i++) T##_gen(&in[i], &s);                                    \
        if (on_device) {                                                                           \
            T *din = NULL, *dout = NULL;                                                           \
            cudaError_t e = cudaMalloc(&din, 4 * n * sizeof(T));                                   \
            if (e == cudaSuccess) e = cudaMalloc(&dout, 4 * n * sizeof(T));                        \
            if (e == cudaSuccess)                                                                  \
                e = cudaMemcpy(din, in, 4 * n * sizeof(T), cudaMemcpyHostToDevice);                \
            if (e == cudaSuccess) {                                                                \
                T##_check_kernel<<<(unsigned)((n + 127) / 128), 128>>>(din, dout, n);              \
                e = cudaGetLastError();                                                            \
            }                                                                                      \
            if (e == cudaSuccess)                                                                  \
                e = cudaMemcpy(out, dout, 4 * n * sizeof(T), cudaMemcpyDeviceToHost);              \
            cudaFree(din);                                                                         \
            cudaFree(dout);                                                                        \
            if (e != cudaSuccess) {                                                                \
                snprintf(err, errlen, #T ": %s", cudaGetErrorString(e));                           \
                rc = -1;                                                                           \
            }                                                                                      \
        } else {                                                                                   \
            for (size_t i = 0; i < n; i++) T##_check_one(in + 4 * i, out + 4 * i);                 \
        }                                                                                          \
        for (size_t i = 0; i < n && rc == 0; i++) {                                                \
            T##_check_ref(in + 4 * i, ref);                                                        \
            for (int k = 0; k < 4; k++)                                                            \
                if (memcmp(&ref[k], &out[4 * i + k], sizeof(T)) != 0) {                            \
                    snprintf(err, errlen,                                                          \
                             #T ": result %d of check %zu differs from "                           \
                                "the reference",                                                   \
                             k, i);                                                                \
                    rc = -1;                                                                       \
                    break;                                                                         \
                }                                                                                  \
        }                                                                                          \
        free(in);                                                                                  \
        free(out);                                                                                 \
        return rc;                                                                                 \
    }

FIELD_GEN(d_bn254_fq, 8)
FIELD_GEN(d_bn254_fr, 8)
FIELD_GEN(d_bls12_381_fq, 12)
FIELD_GEN(d_bls12_381_fr, 8)
FIELD_RUN(d_bn254_fq)
FIELD_RUN(d_bn254_fr)
FIELD_RUN(d_bls12_381_fq)
FIELD_RUN(d_bls12_381_fr)
FQ2_RUN(d_bn254_fq2, d_bn254_fq)
FQ2_RUN(d_bls12_381_fq2, d_bls12_381_fq)
CHECK_DRIVER(d_bn254_fq)
CHECK_DRIVER(d_bn254_fr)
CHECK_DRIVER(d_bls12_381_fq)
CHECK_DRIVER(d_bls12_381_fr)
CHECK_DRIVER(d_bn254_fq2)
CHECK_DRIVER(d_bls12_381_fq2)

extern "C" int gpu_field_check(int on_device, size_t n, char *err, size_t errlen)
{
    if (d_bn254_fq_check(on_device, n, err, errlen) ||
        d_bn254_fr_check(on_device, n, err, errlen) ||
        d_bls12_381_fq_check(on_device, n, err, errlen) ||
        d_bls12_381_fr_check(on_device, n, err, errlen) ||
        d_bn254_fq2_check(on_device, n, err, errlen) ||
        d_bls12_381_fq2_check(on_device, n, err, errlen))
        return -1;
    return 0;
}
