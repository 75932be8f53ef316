/* A proving key resident on the device, and the proof's heavy part. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu.h"
#include "gpu/internal.h"

struct gpu_key {
    int curve, log_n;
    size_t n_vars, n_public, n, bytes;
    void *pts[5];                    /* a, b1, b2, c, h */
    uint32_t *row_ptr[2], *sig[2];   /* A and B coefficients by row (CSR) */
    void *val[2];
    void *w, *abc;                   /* witness; a, b, c work vectors */
    cudaStream_t st;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int dev_copy(gpu_key *k, void **dst, const void *src, size_t bytes, char *err,
                    size_t errlen)
{
    GPU_CK(cudaMalloc(dst, bytes ? bytes : 16));
    if (src && bytes) GPU_CK(cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice));
    k->bytes += bytes;
    return 0;
}

/* Counting sort of the zkey's coefficients by (matrix, row) on the host,
 * once per key, so each row is summed by one device thread without atomics.
 * Fills row_ptr[m] (n + 1), sig[m], val[m] (malloc'd); 0 or -1 (memory). */
extern "C" int gpu_coefs_csr(const uint8_t *coefs, size_t n_coefs, size_t n,
                             uint32_t *row_ptr[2], uint32_t *sig[2], uint8_t *val[2])
{
    const size_t esz = 12 + 32;
    uint32_t *fill[2] = {NULL, NULL};
    int ok = 1;
    for (int m = 0; m < 2; m++) row_ptr[m] = (uint32_t *)calloc(n + 1, 4), sig[m] = NULL, val[m] = NULL;
    ok = row_ptr[0] && row_ptr[1];
    for (size_t i = 0; ok && i < n_coefs; i++) {
        uint32_t mc[2];
        memcpy(mc, coefs + i * esz, 8);
        if (mc[0] < 2 && mc[1] < n) row_ptr[mc[0]][mc[1] + 1]++;
    }
    for (int m = 0; ok && m < 2; m++) {
        for (size_t r = 0; r < n; r++) row_ptr[m][r + 1] += row_ptr[m][r];
        sig[m] = (uint32_t *)malloc(((size_t)row_ptr[m][n] + 1) * 4);
        val[m] = (uint8_t *)malloc(((size_t)row_ptr[m][n] + 1) * 32);
        fill[m] = (uint32_t *)malloc(n * 4);
        ok = sig[m] && val[m] && fill[m];
        if (ok) memcpy(fill[m], row_ptr[m], n * 4);
    }
    for (size_t i = 0; ok && i < n_coefs; i++) {
        uint32_t e[3];
        memcpy(e, coefs + i * esz, 12);
        if (e[0] >= 2 || e[1] >= n) continue;
        uint32_t at = fill[e[0]][e[1]]++;
        sig[e[0]][at] = e[2];
        memcpy(val[e[0]] + (size_t)at * 32, coefs + i * esz + 12, 32);
    }
    free(fill[0]);
    free(fill[1]);
    return ok ? 0 : -1;
}

static int upload_coefs(gpu_key *k, const gpu_key_desc *d, char *err, size_t errlen)
{
    uint32_t *row_ptr[2], *sig[2];
    uint8_t *val[2];
    int rc = gpu_coefs_csr(d->coefs, d->n_coefs, k->n, row_ptr, sig, val);
    if (rc) snprintf(err, errlen, "gpu: out of host memory for the coefficients");
    for (int m = 0; m < 2 && !rc; m++)
        rc = dev_copy(k, (void **)&k->row_ptr[m], row_ptr[m], (k->n + 1) * 4, err, errlen) ||
             dev_copy(k, (void **)&k->sig[m], sig[m], (size_t)row_ptr[m][k->n] * 4, err, errlen) ||
             dev_copy(k, &k->val[m], val[m], (size_t)row_ptr[m][k->n] * 32, err, errlen);
    for (int m = 0; m < 2; m++) { free(row_ptr[m]); free(sig[m]); free(val[m]); }
    return rc ? -1 : 0;
}

extern "C" gpu_key *gpu_key_upload(const gpu_key_desc *d, size_t *bytes_used, char *err,
                                   size_t errlen)
{
    if (!gpu_available()) {
        snprintf(err, errlen, "gpu: no CUDA device of compute capability 9.0 or later");
        return NULL;
    }
    if (d->n_vars < d->n_public + 1 || d->domain_log < 1 || d->domain_log > 28) {
        snprintf(err, errlen, "gpu: key sizes are inconsistent");
        return NULL;
    }
    gpu_key *k = (gpu_key *)calloc(1, sizeof *k);
    k->curve = d->curve;
    k->log_n = d->domain_log;
    k->n_vars = d->n_vars;
    k->n_public = d->n_public;
    k->n = (size_t)1 << d->domain_log;
    size_t g1 = gpu_g1_bytes(d->curve), g2 = gpu_g2_bytes(d->curve);
    const uint8_t *src[5] = {d->a, d->b1, d->b2, d->c, d->h};
    size_t cnt[5] = {d->n_vars, d->n_vars, d->n_vars, d->n_vars - d->n_public - 1, k->n};
    int bad = cudaStreamCreateWithFlags(&k->st, cudaStreamNonBlocking) != cudaSuccess;
    for (int i = 0; i < 5 && !bad; i++)
        bad = dev_copy(k, &k->pts[i], src[i], cnt[i] * (i == 2 ? g2 : g1), err, errlen);
    bad = bad || upload_coefs(k, d, err, errlen) ||
          dev_copy(k, &k->w, NULL, d->n_vars * 32, err, errlen) ||
          dev_copy(k, &k->abc, NULL, 3 * k->n * 32, err, errlen);
    if (bad) {
        if (!err[0]) snprintf(err, errlen, "gpu: key upload failed");
        gpu_key_free(k);
        return NULL;
    }
    if (bytes_used) *bytes_used = k->bytes;
    return k;
}

extern "C" void gpu_key_free(gpu_key *k)
{
    if (!k) return;
    for (int i = 0; i < 5; i++) cudaFree(k->pts[i]);
    for (int m = 0; m < 2; m++) { cudaFree(k->row_ptr[m]); cudaFree(k->sig[m]); cudaFree(k->val[m]); }
    cudaFree(k->w);
    cudaFree(k->abc);
    if (k->st) cudaStreamDestroy(k->st);
    free(k);
}

/* a, b from the coefficients and c = a*b (snarkjs's buildABC). */
static int build_abc(gpu_key *k, char *err, size_t errlen)
{
    uint8_t *abc = (uint8_t *)k->abc;
    size_t vb = k->n * 32;
    for (int m = 0; m < 2; m++)
        if (gpu_build_ab_dev(k->curve, abc + m * vb, k->row_ptr[m], k->sig[m], k->val[m], k->w,
                             k->n, k->st, err, errlen))
            return -1;
    return gpu_mul_into_dev(k->curve, abc + 2 * vb, abc, abc + vb, k->n, k->st, err, errlen);
}

/* Each of a, b, c through the inverse NTT then the coset NTT, then
 * h = a*b - c in plain form over a (snarkjs's joinABC). */
static int build_h(gpu_key *k, char *err, size_t errlen)
{
    uint8_t *abc = (uint8_t *)k->abc;
    size_t vb = k->n * 32;
    for (int m = 0; m < 3; m++)
        if (gpu_ntt_dev(k->curve, abc + m * vb, k->log_n, GPU_NTT_INVERSE, k->st, err, errlen) ||
            gpu_ntt_dev(k->curve, abc + m * vb, k->log_n, GPU_NTT_COSET, k->st, err, errlen))
            return -1;
    return gpu_join_abc_dev(k->curve, abc, abc + vb, abc + 2 * vb, k->n, k->st, err, errlen);
}

static gpu_ws key_ws[4];
static pthread_mutex_t key_lock = PTHREAD_MUTEX_INITIALIZER;

static int prove_locked(gpu_key *k, const uint8_t *witness, uint8_t *outs[5],
                        gpu_prove_timings *tm, char *err, size_t errlen)
{
    double t0 = now(), *slot[5] = {&tm->msm_a, &tm->msm_b1, &tm->msm_b2, &tm->msm_c, &tm->msm_h};
    GPU_CK(cudaMemcpyAsync(k->w, witness, k->n_vars * 32, cudaMemcpyHostToDevice, k->st));
    GPU_CK(cudaStreamSynchronize(k->st));
    tm->upload = now() - t0;
    t0 = now();
    if (build_abc(k, err, errlen)) return -1;
    GPU_CK(cudaStreamSynchronize(k->st));
    tm->abc = now() - t0;
    t0 = now();
    if (build_h(k, err, errlen)) return -1;
    GPU_CK(cudaStreamSynchronize(k->st));
    tm->ntt = now() - t0;
    const uint32_t *w = (const uint32_t *)k->w;
    const uint32_t *sc[5] = {w, w, w, w + 8 * (k->n_public + 1), (const uint32_t *)k->abc};
    size_t cnt[5] = {k->n_vars, k->n_vars, k->n_vars, k->n_vars - k->n_public - 1, k->n};
    for (int i = 0; i < 5; i++) {
        if (!outs[i]) continue;
        gpu_msm_fn f = i == 2 ? (k->curve == GPU_CURVE_BN254 ? gpu_bn254_g2_msm_dev
                                                             : gpu_bls12_381_g2_msm_dev)
                              : (k->curve == GPU_CURVE_BN254 ? gpu_bn254_g1_msm_dev
                                                             : gpu_bls12_381_g1_msm_dev);
        t0 = now();
        if (f(k->pts[i], sc[i], cnt[i], outs[i], &key_ws[k->curve * 2 + (i == 2)], k->st, err,
              errlen))
            return -1;
        *slot[i] = now() - t0;
    }
    return 0;
}

extern "C" int gpu_prove_msms(gpu_key *k, const uint8_t *witness, uint8_t *a_out,
                              uint8_t *b1_out, uint8_t *b2_out, uint8_t *c_out, uint8_t *h_out,
                              gpu_prove_timings *timings, char *err, size_t errlen)
{
    gpu_prove_timings tm;
    uint8_t *outs[5] = {a_out, b1_out, b2_out, c_out, h_out};
    memset(&tm, 0, sizeof tm);
    pthread_mutex_lock(&key_lock);
    int rc = prove_locked(k, witness, outs, &tm, err, errlen);
    pthread_mutex_unlock(&key_lock);
    if (timings) *timings = tm;
    return rc;
}
