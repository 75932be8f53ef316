/* The C interface: device discovery, host<->device transfers, the resident
 * key and the proof's heavy part.  One mutex serialises callers, since the
 * work buffers and the stream are shared. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu.h"
#include "gpu/internal.h"
#include "gpu/msm_plan.h"

gpu_tuning gpu_tune;
gpu_counts gpu_count;

static pthread_mutex_t gpu_lock = PTHREAD_MUTEX_INITIALIZER;
static gpu_ws ws_msm[4], ws_io;
static cudaStream_t stream;
static int stream_ready;

extern "C" int gpu_ws_get(gpu_ws *ws, int slot, size_t bytes, void **out, char *err, size_t errlen)
{
    if (bytes == 0) bytes = 16;
    if (ws->cap[slot] < bytes) {
        cudaFree(ws->ptr[slot]);
        ws->ptr[slot] = NULL;
        ws->cap[slot] = 0;
        GPU_COUNT(allocs);
        cudaError_t e = cudaMalloc(&ws->ptr[slot], bytes);
        if (e != cudaSuccess) {
            snprintf(err, errlen, "gpu: cannot allocate %zu bytes: %s", bytes,
                     cudaGetErrorString(e));
            return -1;
        }
        ws->cap[slot] = bytes;
    }
    *out = ws->ptr[slot];
    return 0;
}

extern "C" int gpu_ws_host(gpu_ws *ws, size_t bytes, void **out, char *err, size_t errlen)
{
    if (ws->host_cap < bytes) {
        cudaFreeHost(ws->host);
        ws->host = NULL;
        ws->host_cap = 0;
        GPU_COUNT(allocs);
        GPU_CK(cudaMallocHost(&ws->host, bytes));
        ws->host_cap = bytes;
    }
    *out = ws->host;
    return 0;
}

extern "C" void gpu_ws_free(gpu_ws *ws)
{
    for (int i = 0; i < GPU_WS_SLOTS; i++) cudaFree(ws->ptr[i]);
    cudaFreeHost(ws->host);
    memset(ws, 0, sizeof *ws);
}

extern "C" int gpu_msm_wait_sets(gpu_msm_pending *p, uint8_t *const *outs, char *err, size_t errlen)
{
    if (p->nw) {
        GPU_COUNT(syncs);
        GPU_CK(cudaStreamSynchronize(p->st));
    }
    gpu_prof_end(&p->prof, p->what);
    const uint8_t *host = (const uint8_t *)p->host;
    for (int s = 0; s < p->nsets; s++)
        gpu_msm_horner(p->curve, p->g2, host ? host + (size_t)s * (p->nw + 1) * p->xyzz : NULL,
                       p->nw, p->c, outs[s]);
    return 0;
}

extern "C" int gpu_msm_wait(gpu_msm_pending *p, uint8_t *out, char *err, size_t errlen)
{
    return gpu_msm_wait_sets(p, &out, err, errlen);
}

extern "C" void gpu_prof_begin(gpu_prof *p, cudaStream_t st)
{
    p->n = 0;
    p->on = gpu_tune.profile;
    gpu_prof_mark(p, "start", st);
}

extern "C" void gpu_prof_mark(gpu_prof *p, const char *name, cudaStream_t st)
{
    if (!p->on || p->n >= 16) return;
    if (cudaEventCreate(&p->ev[p->n]) != cudaSuccess) {
        p->on = 0;
        return;
    }
    p->name[p->n] = name;
    cudaEventRecord(p->ev[p->n++], st);
}

extern "C" void gpu_prof_end(gpu_prof *p, const char *what)
{
    if (!p->on || p->n == 0) return;
    cudaEventSynchronize(p->ev[p->n - 1]);
    float total = 0;
    fprintf(stderr, "gpu profile %s:", what);
    for (int i = 1; i < p->n; i++) {
        float ms = 0;
        cudaEventElapsedTime(&ms, p->ev[i - 1], p->ev[i]);
        total += ms;
        fprintf(stderr, " %s %.3f", p->name[i], ms);
    }
    fprintf(stderr, " | total %.3f ms\n", total);
    for (int i = 0; i < p->n; i++) cudaEventDestroy(p->ev[i]);
    p->n = 0;
}

/* Probed once: the answer cannot change while the process runs.  The
 * first successful probe also raises the per-thread stack to 4 KB: the
 * BLS12-381 G2 kernels call their Fq2 products and keep ~2.4 KB of frame,
 * above the 1 KB default (the cost is ~1 GB of local memory reserved). */
/* CUDA maps streams onto CUDA_DEVICE_MAX_CONNECTIONS hardware queues (8
 * by default, 32 at most), read when the context is made: a chunked or
 * streamed key's lane runs 11 streams (its own, five MSM and five copy
 * streams), and streams that share a queue wait behind each other's event
 * waits.  Set when the library loads (for a program linked with it,
 * before main and its threads: setenv races with other threads' getenv),
 * not at the first CUDA call; a value the user set stays. */
__attribute__((constructor)) static void gpu_queues_default(void)
{
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", 0);
}

extern "C" int gpu_available(void)
{
    static int known = -1;
    if (known < 0) {
        int n = 0, major = 0;
        known =
            cudaGetDeviceCount(&n) == cudaSuccess && n > 0 &&
            cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess &&
            major >= 9;
        if (known) cudaDeviceSetLimit(cudaLimitStackSize, 4096);
    }
    return known;
}

extern "C" size_t gpu_fq_bytes(int curve) { return curve == FORMATS_CURVE_BN128 ? 32 : 48; }
extern "C" size_t gpu_g1_bytes(int curve) { return 2 * gpu_fq_bytes(curve); }
extern "C" size_t gpu_g2_bytes(int curve) { return 4 * gpu_fq_bytes(curve); }

static int ensure_stream(char *err, size_t errlen)
{
    if (!gpu_available()) {
        snprintf(err, errlen, "gpu: no CUDA device of compute capability 9.0 or later");
        return -1;
    }
    if (!stream_ready) {
        GPU_CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        stream_ready = 1;
    }
    return 0;
}

extern "C" gpu_msm_copies_ops gpu_msm_copies_for(int curve, int g2)
{
    gpu_msm_copies_ops o;
#define COPIES_OPS(G)                                                                              \
    (o.window = G##_copies_window, o.build = G##_shift_copies, o.start = G##_msm_start_copies,     \
     o.start_sets = G##_msm_start_sets, o.chunk_add = G##_msm_chunk_add,                           \
     o.chunk_finish = G##_msm_chunk_finish)
    if (curve == FORMATS_CURVE_BN128) {
        if (g2)
            COPIES_OPS(gpu_bn254_g2);
        else
            COPIES_OPS(gpu_bn254_g1);
    } else {
        if (g2)
            COPIES_OPS(gpu_bls12_381_g2);
        else
            COPIES_OPS(gpu_bls12_381_g1);
    }
#undef COPIES_OPS
    return o;
}

/* nsets MSMs over the same n points (scalars back to back), in one pass
 * on a table of copies shift copies built for the call (1: the points). */
static int msm_host(int curve, int g2, const uint8_t *points, const uint8_t *scalars, size_t n,
                    int nsets, int copies, uint8_t *outs, char *err, size_t errlen)
{
    size_t pb = g2 ? gpu_g2_bytes(curve) : gpu_g1_bytes(curve), sb = (size_t)nsets * n * 32;
    void *dp, *ds;
    if (curve != FORMATS_CURVE_BN128 && curve != FORMATS_CURVE_BLS12381) {
        snprintf(err, errlen, "gpu: unknown curve %d", curve);
        return -1;
    }
    if (nsets < 1 || nsets > GPU_BATCH_MAX) {
        snprintf(err, errlen, "gpu: %d scalar sets, want 1 to %d", nsets, GPU_BATCH_MAX);
        return -1;
    }
    if (ensure_stream(err, errlen) || gpu_ws_get(&ws_io, 0, n * pb, &dp, err, errlen) ||
        gpu_ws_get(&ws_io, 1, sb, &ds, err, errlen))
        return -1;
    GPU_CK(cudaMemcpyAsync(dp, points, n * pb, cudaMemcpyHostToDevice, stream));
    GPU_CK(cudaMemcpyAsync(ds, scalars, sb, cudaMemcpyHostToDevice, stream));
    gpu_msm_pending pend;
    gpu_msm_copies_ops ops = gpu_msm_copies_for(curve, g2);
    int c = ops.window(n, copies); /* copies <= 1: the plain MSM's window */
    if (copies > 1) {              /* the table, built for this call */
        void *dt;
        if (gpu_ws_get(&ws_io, 3, (size_t)copies * n * pb, &dt, err, errlen) ||
            ops.build(dp, n, c, copies, dt, stream, err, errlen))
            return -1;
        dp = dt;
    }
    uint8_t *out_at[GPU_BATCH_MAX];
    for (int s = 0; s < nsets; s++) out_at[s] = outs + (size_t)s * pb;
    gpu_ws *ws = &ws_msm[(curve == FORMATS_CURVE_BLS12381) * 2 + g2]; /* a set a group */
    return ops.start_sets(dp, copies, c, (const uint32_t *)ds, n, nsets, n, ws, stream, &pend, err,
                          errlen) ||
           gpu_msm_wait_sets(&pend, out_at, err, errlen);
}

extern "C" int gpu_msm_batch(int curve, int g2, const uint8_t *points, const uint8_t *scalars,
                             size_t n, int nsets, uint8_t *outs, char *err, size_t errlen)
{
    pthread_mutex_lock(&gpu_lock);
    int rc = msm_host(curve, g2, points, scalars, n, nsets, 1, outs, err, errlen);
    pthread_mutex_unlock(&gpu_lock);
    return rc;
}

extern "C" int gpu_msm_batch_emulate(int curve, int g2, const uint8_t *points,
                                     const uint8_t *scalars, size_t n, int nsets, size_t stride,
                                     int copies, uint8_t *outs)
{
    int (*fn)(const uint8_t *, const uint8_t *, size_t, int, size_t, int, uint8_t *);
    if (curve == FORMATS_CURVE_BN128)
        fn = g2 ? gpu_bn254_g2_msm_emulate_sets : gpu_bn254_g1_msm_emulate_sets;
    else
        fn = g2 ? gpu_bls12_381_g2_msm_emulate_sets : gpu_bls12_381_g1_msm_emulate_sets;
    return fn(points, scalars, n, nsets, stride, copies, outs);
}

/* The emulated chunk functions of the group. */
typedef struct {
    size_t (*bytes)(int c);
    int (*add)(void *, int, int, const uint8_t *, const uint8_t *, size_t);
    int (*finish)(const void *, int, size_t, uint8_t *);
} chunk_emu_ops;

static chunk_emu_ops chunk_emu_for(int curve, int g2)
{
#define CHUNK_EMU(G)                                                                               \
    {                                                                                              \
        G##_msm_emulate_buckets_bytes, G##_msm_emulate_chunk_add, G##_msm_emulate_chunk_finish     \
    }
    static const chunk_emu_ops ops[4] = {CHUNK_EMU(gpu_bn254_g1), CHUNK_EMU(gpu_bn254_g2),
                                         CHUNK_EMU(gpu_bls12_381_g1), CHUNK_EMU(gpu_bls12_381_g2)};
#undef CHUNK_EMU
    return ops[(curve != FORMATS_CURVE_BN128) * 2 + (g2 != 0)];
}

extern "C" int gpu_msm_chunk_emulate_begin(gpu_msm_chunk_emu *m, int curve, int g2, int c)
{
    m->curve = curve;
    m->g2 = g2;
    m->c = c;
    m->buckets = malloc(chunk_emu_for(curve, g2).bytes(c));
    return m->buckets ? 0 : -1;
}

extern "C" int gpu_msm_chunk_emulate_add(gpu_msm_chunk_emu *m, int first, const uint8_t *points,
                                         const uint8_t *scalars, size_t n)
{
    return chunk_emu_for(m->curve, m->g2).add(m->buckets, m->c, first, points, scalars, n);
}

extern "C" int gpu_msm_chunk_emulate_end(gpu_msm_chunk_emu *m, size_t total, uint8_t *out)
{
    int rc = chunk_emu_for(m->curve, m->g2).finish(m->buckets, m->c, total, out);
    free(m->buckets);
    m->buckets = NULL;
    return rc;
}

/* The device's chunk schedule (key.cu, prove_chunked) in order, each
 * chunk through the kernels' code on the CPU. */
extern "C" int gpu_msm_chunked_emulate(int curve, int g2, const uint8_t *points,
                                       const uint8_t *scalars, size_t n, size_t chunk, uint8_t *out)
{
    size_t pb = g2 ? gpu_g2_bytes(curve) : gpu_g1_bytes(curve), off;
    gpu_msm_chunk_emu m;
    int c = gpu_msm_copies_for(curve, g2).window(gpu_plan_min(chunk, n), 1);
    if (gpu_msm_chunk_emulate_begin(&m, curve, g2, c)) return -1;
    int rc = 0;
    for (size_t j = 0; !rc && j < gpu_plan_rounds(n, chunk); j++) {
        size_t len = gpu_plan_slice(n, chunk, j, &off);
        rc = gpu_msm_chunk_emulate_add(&m, j == 0, points + off * pb, scalars + off * 32, len);
    }
    return gpu_msm_chunk_emulate_end(&m, rc ? 0 : n, out) || rc ? -1 : 0;
}

extern "C" int gpu_msm_copies(int curve, int g2, const uint8_t *points, const uint8_t *scalars,
                              size_t n, int copies, uint8_t *out, char *err, size_t errlen)
{
    pthread_mutex_lock(&gpu_lock);
    int rc = msm_host(curve, g2, points, scalars, n, 1, copies, out, err, errlen);
    pthread_mutex_unlock(&gpu_lock);
    return rc;
}

extern "C" int gpu_msm_g1(int curve, const uint8_t *points, const uint8_t *scalars, size_t n,
                          uint8_t *out, char *err, size_t errlen)
{
    pthread_mutex_lock(&gpu_lock);
    int rc = msm_host(curve, 0, points, scalars, n, 1, 1, out, err, errlen);
    pthread_mutex_unlock(&gpu_lock);
    return rc;
}

extern "C" int gpu_msm_g2(int curve, const uint8_t *points, const uint8_t *scalars, size_t n,
                          uint8_t *out, char *err, size_t errlen)
{
    pthread_mutex_lock(&gpu_lock);
    int rc = msm_host(curve, 1, points, scalars, n, 1, 1, out, err, errlen);
    pthread_mutex_unlock(&gpu_lock);
    return rc;
}

static int ntt_host(int curve, uint8_t *data, int log_n, int flags, char *err, size_t errlen)
{
    size_t bytes = ((size_t)32) << log_n;
    void *d;
    if (log_n < 0 || log_n > 31) {
        snprintf(err, errlen, "gpu: NTT size 2^%d is out of range", log_n);
        return -1;
    }
    if (ensure_stream(err, errlen) || gpu_ws_get(&ws_io, 2, bytes, &d, err, errlen)) return -1;
    GPU_CK(cudaMemcpyAsync(d, data, bytes, cudaMemcpyHostToDevice, stream));
    if (gpu_ntt_dev(curve, d, log_n, flags, stream, err, errlen)) return -1;
    GPU_CK(cudaMemcpyAsync(data, d, bytes, cudaMemcpyDeviceToHost, stream));
    GPU_CK(cudaStreamSynchronize(stream));
    return 0;
}

extern "C" int gpu_ntt(int curve, uint8_t *data, int log_n, int flags, char *err, size_t errlen)
{
    pthread_mutex_lock(&gpu_lock);
    int rc = ntt_host(curve, data, log_n, flags, err, errlen);
    pthread_mutex_unlock(&gpu_lock);
    return rc;
}

extern "C" void gpu_release(void)
{
    pthread_mutex_lock(&gpu_lock);
    for (int i = 0; i < 4; i++) gpu_ws_free(&ws_msm[i]);
    gpu_ws_free(&ws_io);
    gpu_ntt_release();
    pthread_mutex_unlock(&gpu_lock);
}
