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
} gpu_lane;

#define GPU_KEY_LANES 2

struct gpu_key {
    int curve, log_n;
    size_t n_vars, n_public, n, bytes;
    void *pts[5];                  /* a, b1, b2, c, h (tables of copies[i] shift copies) */
    int copies[5], window[5];      /* copies 1: plain points, the cost model's window */
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
    k->nlanes = d->lanes >= GPU_KEY_LANES ? GPU_KEY_LANES : 1;
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->freed, NULL);
    size_t g1 = gpu_g1_bytes(d->curve), g2 = gpu_g2_bytes(d->curve);
    const uint8_t *src[5] = {d->a, d->b1, d->b2, d->c, d->h};
    size_t cnt[5] = {d->n_vars, d->n_vars, d->n_vars, d->n_vars - d->n_public - 1, k->n};
    /* Equal priorities for the lanes' streams: st (witness, a/b/c, NTTs,
     * then H) at the highest priority finished the NTTs sooner but made the
     * 2^24 proof slower (median 0.364 s against 0.3305; docs/gpu-notes.md,
     * "Stream priority"). */
    int bad = cudaStreamCreateWithFlags(&k->st, cudaStreamNonBlocking) != cudaSuccess;
    for (int i = 0; i < 5 && !bad; i++)
        bad = upload_points(k, i, src[i], cnt[i], i == 2 ? g2 : g1, d->msm_copies, err, errlen);
    bad = bad || upload_coefs(k, d, err, errlen) || lane_grow(k, &k->lane[0], 1, err, errlen);
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
    for (int i = 0; i < 5; i++) cudaFree(k->pts[i]);
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
    int rc = lane_grow(k, L, sets, err, errlen);
    if (!rc) rc = prove_lane(k, L, sets, io, &tm, err, errlen);
    if (rc && L->ready) { /* MSMs already enqueued must not outlive the failed
                           * proof: the next one reuses their buffers */
        cudaStreamSynchronize(L->st);
        for (int i = 0; i < N_MSM; i++) cudaStreamSynchronize(L->mst[i]);
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
