/* A proving key resident on the device, and the proof's heavy part. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "gpu/internal.h"
extern "C" {
#include "util/parallel.h"
}

enum { MSM_A, MSM_B1, MSM_B2, MSM_C, MSM_H, N_MSM };
/* Events of one proof, for its timings: start, witness on the device, a/b/c
 * built, NTTs done, then each MSM's start and end. */
enum { EV_START, EV_W, EV_ABC, EV_NTT, EV_MSM, N_EV = EV_MSM + 2 * N_MSM };

struct gpu_key {
    int curve, log_n;
    size_t n_vars, n_public, n, bytes;
    void *pts[5];                  /* a, b1, b2, c, h (tables of copies[i] shift copies) */
    int copies[5], window[5];      /* copies 1: plain points, the cost model's window */
    uint32_t *row_ptr[2], *sig[2]; /* A and B coefficients by row (CSR) */
    void *val[2];
    void *w, *abc;               /* witness; a, b, c work vectors */
    void *w_pinned;              /* host staging for the witness (pinned) */
    cudaStream_t st, mst[N_MSM]; /* st: witness, a/b/c, NTTs, H; mst: the others */
    cudaEvent_t ev[N_EV];
    gpu_ws ws[N_MSM]; /* one set of work buffers per MSM in flight */
};

static int dev_copy(gpu_key *k, void **dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    GPU_CK(cudaMalloc(dst, bytes ? bytes : 16));
    if (src && bytes) GPU_CK(cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice));
    k->bytes += bytes;
    return 0;
}

/* Counting sort of the zkey's coefficients by (matrix, row) on the host,
 * once per key, so each row is summed by one device thread without atomics.
 * Fills row_ptr[m] (n + 1), sig[m], val[m] (malloc'd); 0 or -1 (memory). */
extern "C" int gpu_coefs_csr(const uint8_t *coefs, size_t n_coefs, size_t n, uint32_t *row_ptr[2],
                             uint32_t *sig[2], uint8_t *val[2])
{
    const size_t esz = 12 + 32;
    uint32_t *fill[2] = {NULL, NULL};
    int ok = 1;
    for (int m = 0; m < 2; m++)
        row_ptr[m] = (uint32_t *)calloc(n + 1, 4), sig[m] = NULL, val[m] = NULL;
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
    for (int m = 0; m < 2; m++) {
        free(row_ptr[m]);
        free(sig[m]);
        free(val[m]);
    }
    return rc ? -1 : 0;
}

/* MSM i's points, as a table of shift copies when asked (built in place:
 * copy 0 is the points themselves). */
static int upload_points(gpu_key *k, int i, const uint8_t *src, size_t n, size_t psz, int copies,
                         char *err, size_t errlen)
{
    gpu_msm_copies_ops ops = gpu_msm_copies_for(k->curve, i == MSM_B2);
    k->copies[i] = copies > 1 && n > 0 ? copies : 1;
    k->window[i] = ops.window(n, k->copies[i]);
    if (dev_copy(k, &k->pts[i], NULL, n * psz * k->copies[i], err, errlen)) return -1;
    if (n) GPU_CK(cudaMemcpy(k->pts[i], src, n * psz, cudaMemcpyHostToDevice));
    if (k->copies[i] == 1) return 0;
    if (ops.build(k->pts[i], n, k->window[i], k->copies[i], k->pts[i], k->st, err, errlen))
        return -1;
    GPU_CK(cudaStreamSynchronize(k->st));
    return 0;
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
    /* Equal priorities: st (witness, a/b/c, NTTs, then H) at the highest
     * priority finished the NTTs sooner but made the 2^24 proof slower
     * (median 0.364 s against 0.3305; docs/gpu-notes.md, "Stream priority"). */
    int bad = cudaStreamCreateWithFlags(&k->st, cudaStreamNonBlocking) != cudaSuccess;
    for (int i = 0; i < N_MSM && !bad; i++)
        bad = cudaStreamCreateWithFlags(&k->mst[i], cudaStreamNonBlocking) != cudaSuccess;
    for (int i = 0; i < N_EV && !bad; i++) bad = cudaEventCreate(&k->ev[i]) != cudaSuccess;
    if (!bad) bad = cudaMallocHost(&k->w_pinned, d->n_vars * 32) != cudaSuccess;
    for (int i = 0; i < 5 && !bad; i++)
        bad = upload_points(k, i, src[i], cnt[i], i == 2 ? g2 : g1, d->msm_copies, err, errlen);
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
    for (int m = 0; m < 2; m++) {
        cudaFree(k->row_ptr[m]);
        cudaFree(k->sig[m]);
        cudaFree(k->val[m]);
    }
    cudaFree(k->w);
    cudaFree(k->abc);
    cudaFreeHost(k->w_pinned);
    for (int i = 0; i < N_MSM; i++) {
        gpu_ws_free(&k->ws[i]);
        if (k->mst[i]) cudaStreamDestroy(k->mst[i]);
    }
    for (int i = 0; i < N_EV; i++)
        if (k->ev[i]) cudaEventDestroy(k->ev[i]);
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
        if (gpu_ntt_dev(k->curve, abc + m * vb, k->log_n, GPU_NTT_ROUND_TRIP, k->st, err, errlen))
            return -1;
    return gpu_join_abc_dev(k->curve, abc, abc + vb, abc + 2 * vb, k->n, k->st, err, errlen);
}

static pthread_mutex_t key_lock = PTHREAD_MUTEX_INITIALIZER;

/* The witness goes to the device through the key's pinned buffer: host
 * threads copy slices of it in 4 MiB chunks, each chunk's DMA issued as soon
 * as it is in, so copying and transfer overlap.  A pageable cudaMemcpy
 * moved 512 MB at ~8 GB/s (61 ms at 2^24, docs/gpu-notes.md, "Whole proof at
 * 2^24"). */
typedef struct {
    gpu_key *k;
    const uint8_t *src;
    int device, failed; /* new threads start on device 0: use the caller's */
} upload_ctx;

static void upload_slice(void *arg, size_t begin, size_t end, int worker)
{
    upload_ctx *u = (upload_ctx *)arg;
    const size_t chunk = (size_t)4 << 20;
    (void)worker;
    if (cudaSetDevice(u->device) != cudaSuccess) __atomic_store_n(&u->failed, 1, __ATOMIC_RELAXED);
    for (size_t at = begin * 32; at < end * 32; at += chunk) {
        size_t len = end * 32 - at < chunk ? end * 32 - at : chunk;
        memcpy((uint8_t *)u->k->w_pinned + at, u->src + at, len);
        if (cudaMemcpyAsync((uint8_t *)u->k->w + at, (uint8_t *)u->k->w_pinned + at, len,
                            cudaMemcpyHostToDevice, u->k->st) != cudaSuccess)
            __atomic_store_n(&u->failed, 1, __ATOMIC_RELAXED);
    }
}

static int upload_witness(gpu_key *k, const uint8_t *witness, char *err, size_t errlen)
{
    upload_ctx u = {k, witness, 0, 0};
    GPU_CK(cudaGetDevice(&u.device));
    int threads = k->n_vars >= ((size_t)1 << 18) ? 8 : 1;
    parallel_for(k->n_vars, threads, upload_slice, &u);
    if (u.failed) {
        snprintf(err, errlen, "gpu: the witness could not be copied to the device");
        return -1;
    }
    return 0;
}

/* MSM i on stream st (which has already waited for its scalars). */
static int start_msm(gpu_key *k, int i, cudaStream_t st, gpu_msm_pending *pend, char *err,
                     size_t errlen)
{
    const uint32_t *w = (const uint32_t *)k->w;
    const uint32_t *sc[N_MSM] = {w, w, w, w + 8 * (k->n_public + 1), (const uint32_t *)k->abc};
    size_t cnt[N_MSM] = {k->n_vars, k->n_vars, k->n_vars, k->n_vars - k->n_public - 1, k->n};
    GPU_CK(cudaEventRecord(k->ev[EV_MSM + 2 * i], st));
    gpu_msm_copies_ops ops = gpu_msm_copies_for(k->curve, i == MSM_B2);
    if (ops.start(k->pts[i], k->copies[i], k->window[i], sc[i], cnt[i], &k->ws[i], st, pend, err,
                  errlen))
        return -1;
    GPU_CK(cudaEventRecord(k->ev[EV_MSM + 2 * i + 1], st));
    return 0;
}

static double ev_seconds(gpu_key *k, int a, int b)
{
    float ms = 0;
    cudaEventElapsedTime(&ms, k->ev[a], k->ev[b]);
    return ms * 1e-3;
}

/* Everything is enqueued before anything is waited for: A, B1, B2 and C
 * need only the witness, so they start on their own streams while st
 * builds a/b/c and runs the NTTs, then H follows on st.  The MSMs' short
 * serial phases (partial levels, bucket sums) then overlap the others'
 * heavy kernels instead of idling the device. */
static int prove_locked(gpu_key *k, const uint8_t *witness, uint8_t *outs[5], gpu_prove_timings *tm,
                        char *err, size_t errlen)
{
    gpu_msm_pending pend[N_MSM];
    const int order[N_MSM - 1] = {MSM_B2, MSM_A, MSM_B1, MSM_C};
    GPU_CK(cudaEventRecord(k->ev[EV_START], k->st));
    if (upload_witness(k, witness, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(k->ev[EV_W], k->st));
    for (int j = 0; j < N_MSM - 1; j++) {
        int i = order[j];
        if (!outs[i]) continue;
        GPU_CK(cudaStreamWaitEvent(k->mst[i], k->ev[EV_W], 0));
        if (start_msm(k, i, k->mst[i], &pend[i], err, errlen)) return -1;
    }
    if (build_abc(k, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(k->ev[EV_ABC], k->st));
    if (build_h(k, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(k->ev[EV_NTT], k->st));
    if (outs[MSM_H] && start_msm(k, MSM_H, k->st, &pend[MSM_H], err, errlen)) return -1;
    double *slot[N_MSM] = {&tm->msm_a, &tm->msm_b1, &tm->msm_b2, &tm->msm_c, &tm->msm_h};
    for (int i = 0; i < N_MSM; i++) {
        if (!outs[i]) continue;
        if (gpu_msm_wait(&pend[i], outs[i], err, errlen)) return -1;
        *slot[i] = ev_seconds(k, EV_MSM + 2 * i, EV_MSM + 2 * i + 1);
    }
    tm->upload = ev_seconds(k, EV_START, EV_W);
    tm->abc = ev_seconds(k, EV_W, EV_ABC);
    tm->ntt = ev_seconds(k, EV_ABC, EV_NTT);
    return 0;
}

extern "C" int gpu_prove_msms(gpu_key *k, const uint8_t *witness, uint8_t *a_out, uint8_t *b1_out,
                              uint8_t *b2_out, uint8_t *c_out, uint8_t *h_out,
                              gpu_prove_timings *timings, char *err, size_t errlen)
{
    gpu_prove_timings tm;
    uint8_t *outs[5] = {a_out, b1_out, b2_out, c_out, h_out};
    memset(&tm, 0, sizeof tm);
    pthread_mutex_lock(&key_lock);
    int rc = prove_locked(k, witness, outs, &tm, err, errlen);
    if (rc) { /* MSMs already enqueued must not outlive the failed proof:
                 * the next one reuses their buffers */
        cudaStreamSynchronize(k->st);
        for (int i = 0; i < N_MSM; i++) cudaStreamSynchronize(k->mst[i]);
    }
    pthread_mutex_unlock(&key_lock);
    if (timings) *timings = tm;
    return rc;
}
