/* A proving key resident on the device, and the proof's heavy part. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "gpu/internal.h"
#include "gpu/msm_plan.h"
#include "gpu/msm_stream.h"
extern "C" {
#include "util/parallel.h"
}

enum { MSM_A, MSM_B1, MSM_B2, MSM_C, MSM_H, N_MSM };
/* Events of one proof, for its timings: start, witness on the device, a/b/c
 * built, NTTs done, then each MSM's start and end. */
enum { EV_START, EV_W, EV_ABC, EV_NTT, EV_MSM, N_EV = EV_MSM + 2 * N_MSM };

/* What one call in flight works in: its witnesses, a/b/c vectors, streams,
 * events and MSM buffers, sized for up to sets proofs (grow-only).  A key
 * has GPU_KEY_LANES of them so that a second caller's witness upload and
 * a/b/c run while the first's MSMs do; each lane is one caller's alone. */
typedef struct {
    int ready, busy;
    int sets;                    /* proofs w, abc and w_pinned have room for */
    void *w, *abc;               /* witnesses; a, b, c work vectors, a proof after another */
    void *w_pinned;              /* host staging for the witnesses (pinned) */
    cudaStream_t st, mst[N_MSM]; /* st: witness, a/b/c, NTTs, H; mst: the others */
    cudaEvent_t ev[N_EV];
    gpu_ws ws[N_MSM]; /* one set of work buffers per MSM in flight */
    /* a streamed key's: each MSM's two chunk buffers, the stream that
     * fills them, the event that says chunk buffer b of MSM i is in and
     * the one that says the chunk which read it is done (msm_stream.h) */
    void *stage[N_MSM][2];
    cudaStream_t cst[N_MSM];
    cudaEvent_t copied[N_MSM][2], done[N_MSM][2];
} gpu_lane;

#define GPU_KEY_LANES 2

struct gpu_key {
    int curve, log_n;
    size_t n_vars, n_public, n, bytes;
    void *pts[5];             /* a, b1, b2, c, h (tables of copies[i] shift copies) */
    int copies[5], window[5]; /* copies 1: plain points, the cost model's window */
    gpu_mem_plan plan;        /* whole, chunked or streamed (msm_plan.h) */
    size_t cnt[5], psz[5];    /* each MSM's points and their affine size */
    /* a streamed key's points in pinned host memory: the caller's own,
     * registered in place (host_span, else NULL), or pinned copies of
     * them (host_copied bytes) */
    void *host_pts[5];
    void *host_span;
    size_t host_copied;
    uint32_t *row_ptr[2], *sig[2]; /* A and B coefficients by row (CSR) */
    void *val[2];
    cudaStream_t st; /* the upload's */
    int nlanes;
    gpu_lane lane[GPU_KEY_LANES];
    pthread_mutex_t mu; /* guards the lanes' busy flags */
    pthread_cond_t freed;
};

static int dev_copy(gpu_key *k, void **dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    GPU_CK(cudaMalloc(dst, bytes ? bytes : 16));
    /* complete before the lanes' non-blocking streams can read it: a plain
     * cudaMemcpy from pageable memory may return before its transfer
     * lands, and those streams do not wait for the legacy stream */
    if (src && bytes) {
        GPU_CK(cudaMemcpyAsync(*dst, src, bytes, cudaMemcpyHostToDevice, k->st));
        GPU_CK(cudaStreamSynchronize(k->st));
    }
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
    if (n) GPU_CK(cudaMemcpyAsync(k->pts[i], src, n * psz, cudaMemcpyHostToDevice, k->st));
    if (k->copies[i] > 1 &&
        ops.build(k->pts[i], n, k->window[i], k->copies[i], k->pts[i], k->st, err, errlen))
        return -1;
    GPU_CK(cudaStreamSynchronize(k->st)); /* dev_copy's reason */
    return 0;
}

/* Lane resources: streams and events once, then the per-proof buffers
 * grown to sets proofs (their old contents are not kept: a lane is idle
 * between calls). */
static int lane_init(gpu_lane *L, char *err, size_t errlen)
{
    if (L->ready) return 0;
    GPU_CK(cudaStreamCreateWithFlags(&L->st, cudaStreamNonBlocking));
    for (int i = 0; i < N_MSM; i++)
        GPU_CK(cudaStreamCreateWithFlags(&L->mst[i], cudaStreamNonBlocking));
    for (int i = 0; i < N_EV; i++) GPU_CK(cudaEventCreate(&L->ev[i]));
    for (int i = 0; i < N_MSM; i++) {
        GPU_CK(cudaStreamCreateWithFlags(&L->cst[i], cudaStreamNonBlocking));
        for (int b = 0; b < 2; b++) {
            GPU_CK(cudaEventCreateWithFlags(&L->copied[i][b], cudaEventDisableTiming));
            GPU_CK(cudaEventCreateWithFlags(&L->done[i][b], cudaEventDisableTiming));
        }
    }
    L->ready = 1;
    return 0;
}

static int lane_grow(gpu_key *k, gpu_lane *L, int sets, char *err, size_t errlen)
{
    if (lane_init(L, err, errlen)) return -1;
    if (L->sets >= sets) return 0;
    cudaFree(L->w);
    cudaFree(L->abc);
    cudaFreeHost(L->w_pinned);
    L->w = L->abc = L->w_pinned = NULL;
    L->sets = 0;
    size_t wb = (size_t)sets * k->n_vars * 32, ab = (size_t)sets * 3 * k->n * 32;
    for (int i = 0; i < 3; i++) GPU_COUNT(allocs);
    GPU_CK(cudaMalloc(&L->w, wb ? wb : 16));
    GPU_CK(cudaMalloc(&L->abc, ab));
    GPU_CK(cudaMallocHost(&L->w_pinned, wb ? wb : 16));
    L->sets = sets;
    return 0;
}

static void lane_free(gpu_lane *L)
{
    cudaFree(L->w);
    cudaFree(L->abc);
    cudaFreeHost(L->w_pinned);
    for (int i = 0; i < N_MSM; i++) {
        gpu_ws_free(&L->ws[i]);
        if (L->mst[i]) cudaStreamDestroy(L->mst[i]);
    }
    for (int i = 0; i < N_EV; i++)
        if (L->ev[i]) cudaEventDestroy(L->ev[i]);
    if (L->st) cudaStreamDestroy(L->st);
    for (int i = 0; i < N_MSM; i++) {
        for (int b = 0; b < 2; b++) {
            cudaFree(L->stage[i][b]);
            if (L->copied[i][b]) cudaEventDestroy(L->copied[i][b]);
            if (L->done[i][b]) cudaEventDestroy(L->done[i][b]);
        }
        if (L->cst[i]) cudaStreamDestroy(L->cst[i]);
    }
}

/* The device memory plan (msm_plan.h) for the key's sizes under the
 * budget (0: the device's free memory, less a margin for the driver and
 * the CUDA context's own growth: 1/32 of the device, 1 GiB at least).
 * The fixed part: coefficients by row (a row pointer a row and matrix, a
 * signal and a scalar a coefficient), the witness, a/b/c and the NTT
 * tables (3n scalars). */
extern "C" void gpu_key_need(const gpu_key_desc *d, gpu_mem_need *need)
{
    gpu_plan_need(d->curve, d->domain_log, d->n_vars, d->n_public, d->n_coefs, need);
}

static int plan_key(gpu_key *k, const gpu_key_desc *d, char *err, size_t errlen)
{
    size_t budget = d->device_budget, free_b = 0, total_b = 0;
    if (!budget) {
        GPU_CK(cudaMemGetInfo(&free_b, &total_b));
        size_t margin = total_b / 32 > ((size_t)1 << 30) ? total_b / 32 : (size_t)1 << 30;
        budget = free_b > margin ? free_b - margin : 0;
    }
    gpu_mem_need need;
    gpu_key_need(d, &need);
    need.budget = budget;
    if (gpu_plan_memory(&need, &k->plan) == 0) return 0;
    snprintf(err, errlen,
             "gpu: the key needs %zu bytes of device memory even with its points streamed from "
             "host memory; %zu are available to it",
             k->plan.device_bytes, budget);
    return -1;
}

/* A streamed key's points stay in pinned host memory, so that each chunk's
 * copy runs at the link's speed and overlaps the work on the previous one.
 * Pinned where the caller holds them when it can (one registration over
 * the span of the five arrays inside the caller's block): a copy would
 * double the host memory of the largest keys (2^26 BLS12-381: 38 GiB of
 * points beside the 43 GiB file).  0, or -1 when there is no block or the
 * driver declines its pages (read-only ones); then host_copy pins
 * copies.  Never registered read-only: the caller gives no block for a
 * file mapping (groth16_gpu_upload says why). */
static int host_pin_in_place(gpu_key *k, const gpu_key_desc *d, const uint8_t *const src[N_MSM])
{
    uintptr_t lo = UINTPTR_MAX, hi = 0, buf = (uintptr_t)d->host_buf;
    for (int i = 0; i < N_MSM; i++) {
        size_t b = k->cnt[i] * k->psz[i];
        if (!b) continue;
        lo = (uintptr_t)src[i] < lo ? (uintptr_t)src[i] : lo;
        hi = (uintptr_t)src[i] + b > hi ? (uintptr_t)src[i] + b : hi;
    }
    if (!buf || hi <= lo || lo < buf || hi - buf > d->host_len) return -1;
    if (cudaHostRegister((void *)lo, hi - lo, cudaHostRegisterDefault) != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky; cleared so later calls see their own */
        return -1;
    }
    k->host_span = (void *)lo;
    for (int i = 0; i < N_MSM; i++) k->host_pts[i] = (void *)src[i];
    return 0;
}

static int host_copy(gpu_key *k, int i, const uint8_t *src, char *err, size_t errlen)
{
    size_t bytes = k->cnt[i] * k->psz[i];
    GPU_COUNT(allocs);
    GPU_CK(cudaMallocHost(&k->host_pts[i], bytes ? bytes : 16));
    if (bytes) memcpy(k->host_pts[i], src, bytes);
    k->host_copied += bytes;
    return 0;
}

/* Each MSM's points: on the device, or (streamed) in pinned host memory
 * with two chunk buffers an MSM on the device. */
static int place_points(gpu_key *k, const gpu_key_desc *d, char *err, size_t errlen)
{
    const uint8_t *src[5] = {d->a, d->b1, d->b2, d->c, d->h};
    int copies = k->plan.mode == GPU_MEM_WHOLE ? d->msm_copies : 1;
    int in_place = k->plan.mode == GPU_MEM_STREAMED && host_pin_in_place(k, d, src) == 0;
    for (int i = 0; i < N_MSM; i++) {
        if (k->plan.mode != GPU_MEM_STREAMED) {
            if (upload_points(k, i, src[i], k->cnt[i], k->psz[i], copies, err, errlen)) return -1;
            continue;
        }
        k->copies[i] = 1;
        if (!in_place && host_copy(k, i, src[i], err, errlen)) return -1;
        for (int b = 0; b < 2; b++)
            if (dev_copy(k, &k->lane[0].stage[i][b], NULL,
                         gpu_plan_min(k->plan.chunk, k->cnt[i]) * k->psz[i], err, errlen))
                return -1;
    }
    return 0;
}

extern "C" int gpu_key_memory_mode(const gpu_key *k, size_t *chunk)
{
    if (chunk) *chunk = k->plan.chunk;
    return k->plan.mode;
}

extern "C" size_t gpu_key_host_copied(const gpu_key *k) { return k->host_copied; }

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
    k->nlanes = d->lanes >= GPU_KEY_LANES ? GPU_KEY_LANES : 1;
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->freed, NULL);
    size_t g1 = gpu_g1_bytes(d->curve), g2 = gpu_g2_bytes(d->curve);
    size_t cnt[5] = {d->n_vars, d->n_vars, d->n_vars, d->n_vars - d->n_public - 1, k->n};
    for (int i = 0; i < N_MSM; i++) {
        k->cnt[i] = cnt[i];
        k->psz[i] = i == MSM_B2 ? g2 : g1;
    }
    /* Equal priorities for the lanes' streams: st (witness, a/b/c, NTTs,
     * then H) at the highest priority finished the NTTs sooner but made the
     * 2^24 proof slower (median 0.364 s against 0.3305; docs/gpu-notes.md,
     * "Stream priority"). */
    int bad = cudaStreamCreateWithFlags(&k->st, cudaStreamNonBlocking) != cudaSuccess ||
              plan_key(k, d, err, errlen);
    if (!bad && k->plan.mode != GPU_MEM_WHOLE) k->nlanes = 1; /* one proof's chunks fill it */
    bad = bad || place_points(k, d, err, errlen) || upload_coefs(k, d, err, errlen) ||
          lane_grow(k, &k->lane[0], 1, err, errlen);
    if (bad) {
        if (!err[0]) snprintf(err, errlen, "gpu: key upload failed");
        gpu_key_free(k);
        return NULL;
    }
    k->bytes += k->n_vars * 32 + 3 * k->n * 32; /* lane 0's witness and a, b, c */
    if (bytes_used) *bytes_used = k->bytes;
    return k;
}

extern "C" void gpu_key_free(gpu_key *k)
{
    if (!k) return;
    for (int i = 0; i < 5; i++) {
        cudaFree(k->pts[i]);
        if (!k->host_span) cudaFreeHost(k->host_pts[i]);
    }
    if (k->host_span) cudaHostUnregister(k->host_span);
    for (int m = 0; m < 2; m++) {
        cudaFree(k->row_ptr[m]);
        cudaFree(k->sig[m]);
        cudaFree(k->val[m]);
    }
    for (int l = 0; l < GPU_KEY_LANES; l++) lane_free(&k->lane[l]);
    if (k->st) cudaStreamDestroy(k->st);
    pthread_mutex_destroy(&k->mu);
    pthread_cond_destroy(&k->freed);
    free(k);
}

/* Proof s's a, b from the coefficients and c = a*b (snarkjs's buildABC). */
static int build_abc(gpu_key *k, gpu_lane *L, int s, char *err, size_t errlen)
{
    uint8_t *abc = (uint8_t *)L->abc + (size_t)s * 3 * k->n * 32;
    const uint8_t *w = (const uint8_t *)L->w + (size_t)s * k->n_vars * 32;
    size_t vb = k->n * 32;
    for (int m = 0; m < 2; m++)
        if (gpu_build_ab_dev(k->curve, abc + m * vb, k->row_ptr[m], k->sig[m], k->val[m], w, k->n,
                             L->st, err, errlen))
            return -1;
    return gpu_mul_into_dev(k->curve, abc + 2 * vb, abc, abc + vb, k->n, L->st, err, errlen);
}

/* Each of proof s's a, b, c through the inverse NTT then the coset NTT,
 * then h = a*b - c in plain form over a (snarkjs's joinABC). */
static int build_h(gpu_key *k, gpu_lane *L, int s, char *err, size_t errlen)
{
    uint8_t *abc = (uint8_t *)L->abc + (size_t)s * 3 * k->n * 32;
    size_t vb = k->n * 32;
    for (int m = 0; m < 3; m++)
        if (gpu_ntt_dev(k->curve, abc + m * vb, k->log_n, GPU_NTT_ROUND_TRIP, L->st, err, errlen))
            return -1;
    return gpu_join_abc_dev(k->curve, abc, abc + vb, abc + 2 * vb, k->n, L->st, err, errlen);
}

/* The witness goes to the device through the lane's pinned buffer: host
 * threads copy slices of it in 4 MiB chunks, each chunk's DMA issued as soon
 * as it is in, so copying and transfer overlap.  A pageable cudaMemcpy
 * moved 512 MB at ~8 GB/s (61 ms at 2^24, docs/gpu-notes.md, "Whole proof at
 * 2^24"). */
typedef struct {
    gpu_lane *L;
    size_t at0; /* proof s's offset in w and w_pinned */
    const uint8_t *src;
    int device, failed; /* new threads start on device 0: use the caller's */
} upload_ctx;

static void upload_slice(void *arg, size_t begin, size_t end, int worker)
{
    upload_ctx *u = (upload_ctx *)arg;
    const size_t chunk = (size_t)4 << 20;
    (void)worker;
    if (cudaSetDevice(u->device) != cudaSuccess) __atomic_store_n(&u->failed, 1, __ATOMIC_RELAXED);
    uint8_t *pin = (uint8_t *)u->L->w_pinned + u->at0, *dev = (uint8_t *)u->L->w + u->at0;
    for (size_t at = begin * 32; at < end * 32; at += chunk) {
        size_t len = end * 32 - at < chunk ? end * 32 - at : chunk;
        memcpy(pin + at, u->src + at, len);
        GPU_COUNT(copies);
        if (cudaMemcpyAsync(dev + at, pin + at, len, cudaMemcpyHostToDevice, u->L->st) !=
            cudaSuccess)
            __atomic_store_n(&u->failed, 1, __ATOMIC_RELAXED);
    }
}

static int upload_witness(gpu_key *k, gpu_lane *L, int s, const uint8_t *witness, char *err,
                          size_t errlen)
{
    upload_ctx u = {L, (size_t)s * k->n_vars * 32, witness, 0, 0};
    GPU_CK(cudaGetDevice(&u.device));
    int threads = k->n_vars >= ((size_t)1 << 18) ? 8 : 1;
    parallel_for(k->n_vars, threads, upload_slice, &u);
    if (u.failed) {
        snprintf(err, errlen, "gpu: the witness could not be copied to the device");
        return -1;
    }
    return 0;
}

/* MSM i of all sets proofs on stream st (which has already waited for its
 * scalars): one pass over the key's points for every proof's scalars. */
static int start_msm(gpu_key *k, gpu_lane *L, int i, int sets, cudaStream_t st,
                     gpu_msm_pending *pend, char *err, size_t errlen)
{
    const uint32_t *w = (const uint32_t *)L->w;
    const uint32_t *sc[N_MSM] = {w, w, w, w + 8 * (k->n_public + 1), (const uint32_t *)L->abc};
    size_t cnt[N_MSM] = {k->n_vars, k->n_vars, k->n_vars, k->n_vars - k->n_public - 1, k->n};
    size_t stride = i == MSM_H ? 3 * k->n : k->n_vars;
    GPU_CK(cudaEventRecord(L->ev[EV_MSM + 2 * i], st));
    gpu_msm_copies_ops ops = gpu_msm_copies_for(k->curve, i == MSM_B2);
    if (ops.start_sets(k->pts[i], k->copies[i], k->window[i], sc[i], cnt[i], sets, stride,
                       &L->ws[i], st, pend, err, errlen))
        return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_MSM + 2 * i + 1], st));
    return 0;
}

static double ev_seconds(gpu_lane *L, int a, int b)
{
    float ms = 0;
    cudaEventElapsedTime(&ms, L->ev[a], L->ev[b]);
    return ms * 1e-3;
}

/* MSM i's result slots, one a proof. */
static void msm_outs(const gpu_proof_io *io, int sets, int i, uint8_t **outs)
{
    for (int s = 0; s < sets; s++) {
        uint8_t *const slot[N_MSM] = {io[s].a, io[s].b1, io[s].b2, io[s].c, io[s].h};
        outs[s] = slot[i];
    }
}

/* Everything is enqueued before anything is waited for: A, B1, B2 and C
 * need only the witnesses, so they start on their own streams while st
 * builds a/b/c and runs the NTTs, then H follows on st.  The MSMs' short
 * serial phases (partial levels, bucket sums) then overlap the others'
 * heavy kernels instead of idling the device. */
static int prove_lane(gpu_key *k, gpu_lane *L, int sets, const gpu_proof_io *io,
                      gpu_prove_timings *tm, char *err, size_t errlen)
{
    gpu_msm_pending pend[N_MSM];
    const int order[N_MSM - 1] = {MSM_B2, MSM_A, MSM_B1, MSM_C};
    int want[N_MSM] = {1, 1, io[0].b2 != NULL, 1, 1};
    GPU_CK(cudaEventRecord(L->ev[EV_START], L->st));
    for (int s = 0; s < sets; s++)
        if (upload_witness(k, L, s, io[s].witness, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_W], L->st));
    for (int j = 0; j < N_MSM - 1; j++) {
        int i = order[j];
        if (!want[i]) continue;
        GPU_CK(cudaStreamWaitEvent(L->mst[i], L->ev[EV_W], 0));
        if (start_msm(k, L, i, sets, L->mst[i], &pend[i], err, errlen)) return -1;
    }
    for (int s = 0; s < sets; s++)
        if (build_abc(k, L, s, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_ABC], L->st));
    for (int s = 0; s < sets; s++)
        if (build_h(k, L, s, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_NTT], L->st));
    if (start_msm(k, L, MSM_H, sets, L->st, &pend[MSM_H], err, errlen)) return -1;
    double *slot[N_MSM] = {&tm->msm_a, &tm->msm_b1, &tm->msm_b2, &tm->msm_c, &tm->msm_h};
    uint8_t *outs[GPU_BATCH_MAX];
    for (int i = 0; i < N_MSM; i++) {
        if (!want[i]) continue;
        msm_outs(io, sets, i, outs);
        if (gpu_msm_wait_sets(&pend[i], outs, err, errlen)) return -1;
        *slot[i] = ev_seconds(L, EV_MSM + 2 * i, EV_MSM + 2 * i + 1);
    }
    tm->upload = ev_seconds(L, EV_START, EV_W);
    tm->abc = ev_seconds(L, EV_W, EV_ABC);
    tm->ntt = ev_seconds(L, EV_ABC, EV_NTT);
    return 0;
}

/* The window of MSM i's chunks: the cost model's for a full chunk, the
 * same for every chunk (its buckets are shared by all of them). */
static int chunk_window(gpu_key *k, int i)
{
    return gpu_msm_copies_for(k->curve, i == MSM_B2)
        .window(gpu_plan_min(k->plan.chunk, k->cnt[i]), 1);
}

/* MSM i's chunk of round j on st, added into its buckets: its points
 * (resident, or chunk buffer j % 2, whose copy st has waited for) and
 * its scalars' slice. */
static int start_chunk(gpu_key *k, gpu_lane *L, int i, size_t j, cudaStream_t st, char *err,
                       size_t errlen)
{
    const uint32_t *w = (const uint32_t *)L->w;
    const uint32_t *sc[N_MSM] = {w, w, w, w + 8 * (k->n_public + 1), (const uint32_t *)L->abc};
    size_t off, len = gpu_plan_slice(k->cnt[i], k->plan.chunk, j, &off);
    const void *pts = k->plan.mode == GPU_MEM_STREAMED
                          ? L->stage[i][j & 1]
                          : (const void *)((const uint8_t *)k->pts[i] + off * k->psz[i]);
    if (j == 0) GPU_CK(cudaEventRecord(L->ev[EV_MSM + 2 * i], st));
    gpu_msm_copies_ops ops = gpu_msm_copies_for(k->curve, i == MSM_B2);
    return ops.chunk_add(pts, sc[i] + 8 * off, len, chunk_window(k, i), j == 0, &L->ws[i], st, err,
                         errlen);
}

/* One operation of the schedule (msm_stream.h) on MSM op->msm's streams:
 * its copy stream, and st (H's, after the NTTs) or its own. */
static int run_op(gpu_key *k, gpu_lane *L, const gpu_sq_op *op, gpu_msm_pending *pend, char *err,
                  size_t errlen)
{
    int i = op->msm, b = op->buf;
    cudaStream_t st = i == MSM_H ? L->st : L->mst[i], cs = L->cst[i];
    size_t off, len = gpu_plan_slice(k->cnt[i], k->plan.chunk, op->round, &off);
    switch (op->kind) {
    case GPU_SQ_COPY:
        GPU_COUNT(copies);
        GPU_CK(cudaMemcpyAsync(L->stage[i][b], (const uint8_t *)k->host_pts[i] + off * k->psz[i],
                               len * k->psz[i], cudaMemcpyHostToDevice, cs));
        return 0;
    case GPU_SQ_REC_COPIED: GPU_CK(cudaEventRecord(L->copied[i][b], cs)); return 0;
    case GPU_SQ_WAIT_DONE: GPU_CK(cudaStreamWaitEvent(cs, L->done[i][b], 0)); return 0;
    case GPU_SQ_WAIT_COPIED: GPU_CK(cudaStreamWaitEvent(st, L->copied[i][b], 0)); return 0;
    case GPU_SQ_REC_DONE: GPU_CK(cudaEventRecord(L->done[i][b], st)); return 0;
    case GPU_SQ_CHUNK: return start_chunk(k, L, i, op->round, st, err, errlen);
    default: break;
    }
    gpu_msm_copies_ops ops = gpu_msm_copies_for(k->curve, i == MSM_B2);
    if (ops.chunk_finish(k->cnt[i], chunk_window(k, i), &L->ws[i], st, &pend[i], err, errlen))
        return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_MSM + 2 * i + 1], st));
    return 0;
}

/* A chunked or streamed key's proof up to its MSMs' results: a/b/c and
 * the NTTs as in prove_lane, then the schedule's n_ops operations, all
 * enqueued before the host waits, once an MSM. */
static int enqueue_chunked(gpu_key *k, gpu_lane *L, const gpu_proof_io *io, const int *want,
                           const gpu_sq_op *ops, size_t n_ops, char *err, size_t errlen)
{
    uint8_t *outs[N_MSM] = {io->a, io->b1, io->b2, io->c, io->h};
    gpu_msm_pending pend[N_MSM];
    GPU_CK(cudaEventRecord(L->ev[EV_START], L->st));
    if (upload_witness(k, L, 0, io->witness, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_W], L->st));
    for (int i = 0; i < N_MSM; i++) GPU_CK(cudaStreamWaitEvent(L->mst[i], L->ev[EV_W], 0));
    if (build_abc(k, L, 0, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_ABC], L->st));
    if (build_h(k, L, 0, err, errlen)) return -1;
    GPU_CK(cudaEventRecord(L->ev[EV_NTT], L->st));
    for (size_t o = 0; o < n_ops; o++)
        if (run_op(k, L, &ops[o], pend, err, errlen)) return -1;
    for (int i = 0; i < N_MSM; i++)
        if (want[i] && gpu_msm_wait_sets(&pend[i], &outs[i], err, errlen)) return -1;
    return 0;
}

/* One proof of a chunked or streamed key: every MSM's chunks add into its
 * buckets and its window sums are taken after its last one; a streamed
 * key's copies run on their own streams, each into a buffer the device
 * has seen released (msm_stream.h). */
static int prove_chunked(gpu_key *k, gpu_lane *L, const gpu_proof_io *io, gpu_prove_timings *tm,
                         char *err, size_t errlen)
{
    int want[N_MSM] = {1, 1, io->b2 != NULL, 1, 1};
    int streamed = k->plan.mode == GPU_MEM_STREAMED;
    size_t n_ops = gpu_sq_build(k->cnt, want, k->plan.chunk, streamed, NULL, 0);
    gpu_sq_op *ops = (gpu_sq_op *)malloc(n_ops * sizeof *ops);
    if (!ops) {
        snprintf(err, errlen, "gpu: out of host memory for the MSM schedule");
        return -1;
    }
    gpu_sq_build(k->cnt, want, k->plan.chunk, streamed, ops, n_ops);
    int rc = enqueue_chunked(k, L, io, want, ops, n_ops, err, errlen);
    free(ops);
    if (rc) return -1;
    double *slot[N_MSM] = {&tm->msm_a, &tm->msm_b1, &tm->msm_b2, &tm->msm_c, &tm->msm_h};
    for (int i = 0; i < N_MSM; i++)
        if (want[i] && k->cnt[i]) *slot[i] = ev_seconds(L, EV_MSM + 2 * i, EV_MSM + 2 * i + 1);
    tm->upload = ev_seconds(L, EV_START, EV_W);
    tm->abc = ev_seconds(L, EV_W, EV_ABC);
    tm->ntt = ev_seconds(L, EV_ABC, EV_NTT);
    return 0;
}

/* A free lane, waiting for one while all are busy. */
static gpu_lane *lane_take(gpu_key *k)
{
    pthread_mutex_lock(&k->mu);
    for (;;) {
        for (int l = 0; l < k->nlanes; l++)
            if (!k->lane[l].busy) {
                k->lane[l].busy = 1;
                pthread_mutex_unlock(&k->mu);
                return &k->lane[l];
            }
        pthread_cond_wait(&k->freed, &k->mu);
    }
}

static void lane_give(gpu_key *k, gpu_lane *L)
{
    pthread_mutex_lock(&k->mu);
    L->busy = 0;
    pthread_cond_signal(&k->freed);
    pthread_mutex_unlock(&k->mu);
}

static int check_batch(int sets, const gpu_proof_io *io, char *err, size_t errlen)
{
    if (sets < 1 || sets > GPU_BATCH_MAX) {
        snprintf(err, errlen, "gpu: a batch of %d proofs, want 1 to %d", sets, GPU_BATCH_MAX);
        return -1;
    }
    for (int s = 1; s < sets; s++)
        if ((io[s].b2 == NULL) != (io[0].b2 == NULL)) {
            snprintf(err, errlen, "gpu: a batch's proofs must all skip B2 or none");
            return -1;
        }
    return 0;
}

extern "C" int gpu_prove_msms_batch(gpu_key *k, int sets, const gpu_proof_io *io,
                                    gpu_prove_timings *timings, char *err, size_t errlen)
{
    gpu_prove_timings tm;
    memset(&tm, 0, sizeof tm);
    if (check_batch(sets, io, err, errlen)) return -1;
    gpu_lane *L = lane_take(k);
    int chunked = k->plan.mode != GPU_MEM_WHOLE; /* a proof at a time */
    int rc = lane_grow(k, L, chunked ? 1 : sets, err, errlen);
    for (int s = 0; chunked && !rc && s < sets; s++)
        rc = prove_chunked(k, L, io + s, &tm, err, errlen);
    if (!chunked && !rc) rc = prove_lane(k, L, sets, io, &tm, err, errlen);
    if (rc && L->ready) { /* MSMs already enqueued must not outlive the failed
                           * proof: the next one reuses their buffers */
        cudaStreamSynchronize(L->st);
        for (int i = 0; i < N_MSM; i++) {
            cudaStreamSynchronize(L->cst[i]);
            cudaStreamSynchronize(L->mst[i]);
        }
    }
    lane_give(k, L);
    if (timings) *timings = tm;
    return rc;
}

extern "C" int gpu_prove_msms(gpu_key *k, const uint8_t *witness, uint8_t *a_out, uint8_t *b1_out,
                              uint8_t *b2_out, uint8_t *c_out, uint8_t *h_out,
                              gpu_prove_timings *timings, char *err, size_t errlen)
{
    gpu_proof_io io = {witness, a_out, b1_out, b2_out, c_out, h_out};
    return gpu_prove_msms_batch(k, 1, &io, timings, err, errlen);
}
