/* NTT and the proof's element-wise steps for both scalar fields. */
#include <string.h>

#include "gpu/dfield.cuh"
#include "gpu/gpu.h"
#include "gpu/internal.h"

#define NF d_bn254_fr
#define NTT_NAME ntt_bn254
#include "gpu/ntt_template.cuh"

#define NF d_bls12_381_fr
#define NTT_NAME ntt_bls12_381
#include "gpu/ntt_template.cuh"

/* Device tables for one (curve, size): twiddles omega^t and omega^-t
 * (t < n/2), coset powers g^j and g^-j / n (j < n), 1/n.  Kept until
 * gpu_release, since a key proves many witnesses at one size. */
typedef struct {
    int curve, log_n;
    void *tw, *itw, *cos, *icos, *inv_n;
} ntt_tables;

static ntt_tables tables[4];

static void host_powers_tables(int curve, const uint8_t *base, size_t count, uint8_t *lo,
                               uint8_t **hi_out, size_t *nhi)
{
    uint8_t big[32];
    gpu_host_powers(curve, base, 4097, lo);   /* lo[4096] = base^4096 */
    memcpy(big, lo + 4096 * 32, 32);
    *nhi = (count + 4095) / 4096;
    *hi_out = (uint8_t *)malloc(*nhi * 32);
    gpu_host_powers(curve, big, *nhi, *hi_out);
}

/* dst[t] = base^t * (scale or 1), t < count, expanded on the device. */
static int build_powers(int curve, const uint8_t *base, const uint8_t *scale, size_t count,
                        void **dst, cudaStream_t st, char *err, size_t errlen)
{
    uint8_t *lo = (uint8_t *)malloc(4097 * 32), *hi = NULL;
    size_t nhi;
    void *dlo, *dhi;
    host_powers_tables(curve, base, count, lo, &hi, &nhi);
    if (scale)
        for (size_t u = 0; u < nhi; u++) gpu_host_mul(curve, hi + 32 * u, scale, hi + 32 * u);
    cudaError_t e = cudaMalloc(dst, count * 32);
    if (e == cudaSuccess) e = cudaMalloc(&dlo, 4096 * 32);
    if (e == cudaSuccess) e = cudaMalloc(&dhi, nhi * 32);
    if (e == cudaSuccess) e = cudaMemcpy(dlo, lo, 4096 * 32, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(dhi, hi, nhi * 32, cudaMemcpyHostToDevice);
    free(lo);
    free(hi);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "gpu: NTT tables: %s", cudaGetErrorString(e));
        return -1;
    }
    unsigned blocks = (unsigned)((count + 255) / 256);
    if (curve == GPU_CURVE_BN254)
        ntt_bn254_expand<<<blocks, 256, 0, st>>>((d_bn254_fr *)*dst, (d_bn254_fr *)dlo,
                                                 (d_bn254_fr *)dhi, count);
    else
        ntt_bls12_381_expand<<<blocks, 256, 0, st>>>((d_bls12_381_fr *)*dst,
                                                     (d_bls12_381_fr *)dlo,
                                                     (d_bls12_381_fr *)dhi, count);
    GPU_CK_LAUNCH();
    GPU_CK(cudaStreamSynchronize(st));
    cudaFree(dlo);
    cudaFree(dhi);
    return 0;
}

static ntt_tables *get_tables(int curve, int log_n, cudaStream_t st, char *err, size_t errlen)
{
    ntt_tables *slot = NULL;
    for (int i = 0; i < 4; i++) {
        if (tables[i].tw && tables[i].curve == curve && tables[i].log_n == log_n) return &tables[i];
        if (!tables[i].tw && !slot) slot = &tables[i];
    }
    if (!slot) {   /* evict the first: sizes rarely change within a process */
        slot = &tables[0];
        cudaFree(slot->tw); cudaFree(slot->itw); cudaFree(slot->cos); cudaFree(slot->icos);
        cudaFree(slot->inv_n);
        memset(slot, 0, sizeof *slot);
    }
    uint8_t w[32], iw[32], g[32], ig[32], inv_n[32];
    size_t n = (size_t)1 << log_n;
    if (gpu_host_root(curve, log_n, 0, w) || gpu_host_root(curve, log_n, 1, iw) ||
        gpu_host_coset(curve, log_n, 0, g) || gpu_host_coset(curve, log_n, 1, ig)) {
        snprintf(err, errlen, "gpu: no root of unity of order 2^%d", log_n);
        return NULL;
    }
    gpu_host_inv_n(curve, log_n, inv_n);
    ntt_tables t = {curve, log_n, NULL, NULL, NULL, NULL, NULL};
    size_t half = n / 2 ? n / 2 : 1;
    if (build_powers(curve, w, NULL, half, &t.tw, st, err, errlen) ||
        build_powers(curve, iw, NULL, half, &t.itw, st, err, errlen) ||
        build_powers(curve, g, NULL, n, &t.cos, st, err, errlen) ||
        build_powers(curve, ig, inv_n, n, &t.icos, st, err, errlen))
        return NULL;
    cudaError_t e = cudaMalloc(&t.inv_n, 32);
    if (e == cudaSuccess) e = cudaMemcpy(t.inv_n, inv_n, 32, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "gpu: NTT tables: %s", cudaGetErrorString(e));
        return NULL;
    }
    *slot = t;
    return slot;
}

void gpu_ntt_release(void)
{
    for (int i = 0; i < 4; i++) {
        cudaFree(tables[i].tw); cudaFree(tables[i].itw); cudaFree(tables[i].cos);
        cudaFree(tables[i].icos); cudaFree(tables[i].inv_n);
        memset(&tables[i], 0, sizeof tables[i]);
    }
}

#define NTT_DRIVER(NAME, FT)                                                            \
    static int NAME##_run(FT *x, int L, int flags, ntt_tables *t, cudaStream_t st,      \
                          char *err, size_t errlen)                                     \
    {                                                                                   \
        size_t n = (size_t)1 << L;                                                      \
        unsigned blocks = (unsigned)((n + 255) / 256);                                  \
        int inv = flags & GPU_NTT_INVERSE, coset = flags & GPU_NTT_COSET;               \
        if (L == 0) return 0; /* n = 1: every variant is the identity */                \
        gpu_prof prof;                                                                  \
        gpu_prof_begin(&prof, st);                                                      \
        if (coset && !inv) {                                                            \
            NAME##_mul_table<<<blocks, 256, 0, st>>>(x, (const FT *)t->cos, n);         \
            GPU_CK_LAUNCH();                                                            \
            gpu_prof_mark(&prof, "coset", st);                                          \
        }                                                                               \
        for (int s0 = 0; s0 < L;) {                                                     \
            int k = L - s0 < 8 ? L - s0 : 8, hlo_log = L - s0 - k;                      \
            int mlog = hlo_log < 2 ? hlo_log : 2;                                       \
            unsigned nb = (unsigned)((n >> k) >> mlog);                                 \
            size_t smem = (sizeof(FT) << k) << mlog;                                    \
            NAME##_dif<<<nb, 256, smem, st>>>(x, L, s0, k, mlog,                        \
                                              (const FT *)(inv ? t->itw : t->tw));      \
            GPU_CK_LAUNCH();                                                            \
            gpu_prof_mark(&prof, "dif", st);                                            \
            s0 += k;                                                                    \
        }                                                                               \
        const FT *scale = inv && !coset ? (const FT *)t->inv_n : NULL;                  \
        NAME##_bitrev<<<blocks, 256, 0, st>>>(x, L, scale);                             \
        GPU_CK_LAUNCH();                                                                \
        gpu_prof_mark(&prof, "bitrev", st);                                             \
        if (coset && inv) {                                                             \
            NAME##_mul_table<<<blocks, 256, 0, st>>>(x, (const FT *)t->icos, n);        \
            GPU_CK_LAUNCH();                                                            \
            gpu_prof_mark(&prof, "coset", st);                                          \
        }                                                                               \
        gpu_prof_end(&prof, #NAME);                                                     \
        return 0;                                                                       \
    }

NTT_DRIVER(ntt_bn254, d_bn254_fr)
NTT_DRIVER(ntt_bls12_381, d_bls12_381_fr)

/* The transform on the CPU through the kernels' own code (tests only). */
#define NTT_EMULATE(NAME, FT)                                                           \
    static void NAME##_emulate(FT *x, int L, int flags, const FT *tw, const FT *cos,    \
                               const FT *icos, const FT *inv_n)                         \
    {                                                                                   \
        size_t n = (size_t)1 << L;                                                      \
        int inv = flags & GPU_NTT_INVERSE, coset = flags & GPU_NTT_COSET;               \
        FT *sh = (FT *)malloc(sizeof(FT) << 10);                                        \
        if (coset && !inv)                                                              \
            for (size_t t = 0; t < n; t++) NAME##_mul_table_body(x, cos, n, t);         \
        for (int s0 = 0; s0 < L;) {                                                     \
            int k = L - s0 < 8 ? L - s0 : 8, hlo_log = L - s0 - k;                      \
            int mlog = hlo_log < 2 ? hlo_log : 2;                                       \
            for (size_t b = 0; b < ((n >> k) >> mlog); b++)                             \
                NAME##_dif_host(x, L, s0, k, mlog, tw, b, sh);                          \
            s0 += k;                                                                    \
        }                                                                               \
        for (size_t i = 0; i < n; i++) NAME##_bitrev_body(x, L, inv && !coset ? inv_n : NULL, i); \
        if (coset && inv)                                                               \
            for (size_t t = 0; t < n; t++) NAME##_mul_table_body(x, icos, n, t);        \
        free(sh);                                                                       \
    }

NTT_EMULATE(ntt_bn254, d_bn254_fr)
NTT_EMULATE(ntt_bls12_381, d_bls12_381_fr)

extern "C" int gpu_ntt_emulate(int curve, uint8_t *data, int log_n, int flags)
{
    size_t n = (size_t)1 << log_n;
    uint8_t w[32], g[32], inv_n[32];
    if (log_n == 0) return 0;
    int inv = flags & GPU_NTT_INVERSE;
    if (gpu_host_root(curve, log_n, inv, w) || gpu_host_coset(curve, log_n, inv, g)) return -1;
    gpu_host_inv_n(curve, log_n, inv_n);
    uint8_t *tw = (uint8_t *)malloc(n / 2 * 32), *cos = (uint8_t *)malloc(n * 32);
    gpu_host_powers(curve, w, n / 2, tw);
    gpu_host_powers(curve, g, n, cos);
    if (inv)
        for (size_t i = 0; i < n; i++) gpu_host_mul(curve, cos + 32 * i, inv_n, cos + 32 * i);
    if (curve == GPU_CURVE_BN254)
        ntt_bn254_emulate((d_bn254_fr *)data, log_n, flags, (d_bn254_fr *)tw, (d_bn254_fr *)cos,
                          (d_bn254_fr *)cos, (d_bn254_fr *)inv_n);
    else
        ntt_bls12_381_emulate((d_bls12_381_fr *)data, log_n, flags, (d_bls12_381_fr *)tw,
                              (d_bls12_381_fr *)cos, (d_bls12_381_fr *)cos,
                              (d_bls12_381_fr *)inv_n);
    free(tw);
    free(cos);
    return 0;
}

extern "C" int gpu_ntt_dev(int curve, void *d_data, int log_n, int flags, cudaStream_t st,
                           char *err, size_t errlen)
{
    int max_log = curve == GPU_CURVE_BN254 ? 28 : 32;
    if (log_n < 0 || log_n > max_log) {
        snprintf(err, errlen, "gpu: NTT size 2^%d is out of range", log_n);
        return -1;
    }
    ntt_tables *t = get_tables(curve, log_n, st, err, errlen);
    if (!t) return -1;
    if (curve == GPU_CURVE_BN254)
        return ntt_bn254_run((d_bn254_fr *)d_data, log_n, flags, t, st, err, errlen);
    return ntt_bls12_381_run((d_bls12_381_fr *)d_data, log_n, flags, t, st, err, errlen);
}

/* The proof's element-wise steps, for gpu.cu. */
extern "C" int gpu_build_ab_dev(int curve, void *out, const uint32_t *row_ptr, const uint32_t *sig,
                                const void *val, const void *w, size_t rows, cudaStream_t st,
                                char *err, size_t errlen)
{
    unsigned blocks = (unsigned)((rows + 127) / 128);
    if (curve == GPU_CURVE_BN254)
        ntt_bn254_build_ab<<<blocks, 128, 0, st>>>((d_bn254_fr *)out, row_ptr, sig,
                                                   (const d_bn254_fr *)val,
                                                   (const d_bn254_fr *)w, rows);
    else
        ntt_bls12_381_build_ab<<<blocks, 128, 0, st>>>((d_bls12_381_fr *)out, row_ptr, sig,
                                                       (const d_bls12_381_fr *)val,
                                                       (const d_bls12_381_fr *)w, rows);
    GPU_CK_LAUNCH();
    return 0;
}

extern "C" int gpu_mul_into_dev(int curve, void *c, const void *a, const void *b, size_t n,
                                cudaStream_t st, char *err, size_t errlen)
{
    unsigned blocks = (unsigned)((n + 255) / 256);
    if (curve == GPU_CURVE_BN254)
        ntt_bn254_mul_into<<<blocks, 256, 0, st>>>((d_bn254_fr *)c, (const d_bn254_fr *)a,
                                                   (const d_bn254_fr *)b, n);
    else
        ntt_bls12_381_mul_into<<<blocks, 256, 0, st>>>((d_bls12_381_fr *)c,
                                                       (const d_bls12_381_fr *)a,
                                                       (const d_bls12_381_fr *)b, n);
    GPU_CK_LAUNCH();
    return 0;
}

extern "C" int gpu_join_abc_dev(int curve, void *a, const void *b, const void *c, size_t n,
                                cudaStream_t st, char *err, size_t errlen)
{
    unsigned blocks = (unsigned)((n + 255) / 256);
    if (curve == GPU_CURVE_BN254)
        ntt_bn254_join_abc<<<blocks, 256, 0, st>>>((d_bn254_fr *)a, (const d_bn254_fr *)b,
                                                   (const d_bn254_fr *)c, n);
    else
        ntt_bls12_381_join_abc<<<blocks, 256, 0, st>>>((d_bls12_381_fr *)a,
                                                       (const d_bls12_381_fr *)b,
                                                       (const d_bls12_381_fr *)c, n);
    GPU_CK_LAUNCH();
    return 0;
}

/* a, b, c, the three coset round trips and h on the CPU through the
 * kernels' code, from a CSR (row_ptr[m]: n + 1 entries) as key.cu uploads
 * it; h (n elements, plain) is written over abc's first third (tests). */
extern "C" int gpu_build_h_emulate(int curve, uint8_t *abc, uint32_t *const row_ptr[2],
                                   uint32_t *const sig[2], uint8_t *const val[2],
                                   const uint8_t *w, int log_n)
{
    size_t n = (size_t)1 << log_n, vb = n * 32;
    for (int m = 0; m < 3; m++)
        for (size_t r = 0; r < n; r++) {
            if (curve == GPU_CURVE_BN254 && m < 2)
                ntt_bn254_build_ab_body((d_bn254_fr *)(abc + m * vb), row_ptr[m], sig[m],
                                        (const d_bn254_fr *)val[m], (const d_bn254_fr *)w, n, r);
            else if (m < 2)
                ntt_bls12_381_build_ab_body((d_bls12_381_fr *)(abc + m * vb), row_ptr[m], sig[m],
                                            (const d_bls12_381_fr *)val[m],
                                            (const d_bls12_381_fr *)w, n, r);
            else if (curve == GPU_CURVE_BN254)
                ntt_bn254_mul_into_body((d_bn254_fr *)(abc + 2 * vb), (d_bn254_fr *)abc,
                                        (d_bn254_fr *)(abc + vb), n, r);
            else
                ntt_bls12_381_mul_into_body((d_bls12_381_fr *)(abc + 2 * vb),
                                            (d_bls12_381_fr *)abc,
                                            (d_bls12_381_fr *)(abc + vb), n, r);
        }
    for (int m = 0; m < 3; m++)
        if (gpu_ntt_emulate(curve, abc + m * vb, log_n, GPU_NTT_INVERSE) ||
            gpu_ntt_emulate(curve, abc + m * vb, log_n, GPU_NTT_COSET))
            return -1;
    for (size_t t = 0; t < n; t++) {
        if (curve == GPU_CURVE_BN254)
            ntt_bn254_join_abc_body((d_bn254_fr *)abc, (d_bn254_fr *)(abc + vb),
                                    (d_bn254_fr *)(abc + 2 * vb), n, t);
        else
            ntt_bls12_381_join_abc_body((d_bls12_381_fr *)abc, (d_bls12_381_fr *)(abc + vb),
                                        (d_bls12_381_fr *)(abc + 2 * vb), n, t);
    }
    return 0;
}
