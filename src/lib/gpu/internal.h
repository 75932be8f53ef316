/* Shared between the backend's .cu files (not part of the public API). */
#ifndef G16_GPU_INTERNAL_H
#define G16_GPU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime.h>

/* Grow-only device buffers reused across calls, so a timed MSM does not pay
 * for cudaMalloc; slots are named by the enums of their users. */
#define GPU_WS_SLOTS 16
typedef struct {
    void *ptr[GPU_WS_SLOTS];
    size_t cap[GPU_WS_SLOTS];
    void *host; /* pinned host memory (cudaMallocHost), grow-only */
    size_t host_cap;
} gpu_ws;

#define GPU_CK(call)                                                                               \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            snprintf(err, errlen, "gpu: %s: %s (%s:%d)", #call, cudaGetErrorString(e_), __FILE__,  \
                     __LINE__);                                                                    \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

/* What a proof costs beside its arithmetic, counted where it happens (the
 * benchmark's per-proof fixed costs): kernel launches (GPU_CK_LAUNCH;
 * CUB's sort launches its own, counted as sorts), host waits for a stream,
 * device and pinned allocations, copies and memsets. */
typedef struct {
    unsigned long long launches, sorts, syncs, allocs, copies;
} gpu_counts;
#define GPU_COUNT(field) __atomic_fetch_add(&gpu_count.field, 1ULL, __ATOMIC_RELAXED)

#define GPU_CK_LAUNCH()                                                                            \
    do {                                                                                           \
        GPU_COUNT(launches);                                                                       \
        GPU_CK(cudaGetLastError());                                                                \
    } while (0)

/* The backend's choices that tests and benchmarks may change, here and
 * never in the environment; the product runs the defaults (all zero). */
typedef struct {
    int msm_window; /* in [3, 21] (up to 24 for tables of shift copies):
                       * every MSM uses this window instead of the cost
                       * model's, so small inputs exercise the large windows
                       * (tests, window sweeps); else the cost model's */
    int profile;    /* 1: each MSM and NTT prints its phase times to
                       * stderr (gpu_prof; benchmarks) */
} gpu_tuning;

/* Phase timings inside one call, printed to stderr when gpu_tune.profile
 * is set (CUDA events on the call's stream; off, they cost nothing).  For
 * finding where a kernel pipeline spends its time. */
typedef struct {
    int on, n;
    cudaEvent_t ev[16];
    const char *name[16];
} gpu_prof;

/* MSM over device buffers: points in zkey layout, scalars as 8 x u32 plain
 * little-endian; out receives the affine result (host memory). */
typedef int (*gpu_msm_fn)(const void *d_points, const uint32_t *d_scalars, size_t n, uint8_t *out,
                          gpu_ws *ws, cudaStream_t st, char *err, size_t errlen);

/* An MSM whose device part is enqueued on st (gpu_*_msm_start_sets) and
 * whose window sums will land in host (pinned, in ws): for each of nsets
 * scalar sets, nw XYZZ points (xyzz bytes each), then the set's ones slot.
 * gpu_msm_wait_sets waits for st and finishes each set on the host.  Each
 * MSM in flight needs its own ws. */
typedef struct {
    int curve, g2, c, nw; /* nw == 0: empty MSM, the results are infinity */
    int nsets;
    size_t xyzz;
    cudaStream_t st;
    void *host;
    gpu_prof prof;
    char what[64];
} gpu_msm_pending;

#ifdef __cplusplus
extern "C" {
#endif
int gpu_ws_get(gpu_ws *ws, int slot, size_t bytes, void **out, char *err, size_t errlen);
/* The ws's pinned host buffer, at least bytes long. */
int gpu_ws_host(gpu_ws *ws, size_t bytes, void **out, char *err, size_t errlen);
int gpu_msm_wait(gpu_msm_pending *pend, uint8_t *out, char *err, size_t errlen);
/* outs[s]: set s's affine result. */
int gpu_msm_wait_sets(gpu_msm_pending *pend, uint8_t *const *outs, char *err, size_t errlen);
/* msm_finish.c: sum_w 2^(c w) S_w + ones, as an affine point in zkey
 * layout, from nw + 1 XYZZ points (the device's layout and Montgomery
 * form) laid out as gpu_msm_pending.host. */
void gpu_msm_horner(int curve, int g2, const uint8_t *xyzz, int nw, int c, uint8_t *out);
/* An MSM as chunks of chunk points through the kernels' code on the CPU,
 * every chunk added into the same buckets of the window for a full chunk
 * and the window sums taken once, as the device path does (tests of the
 * chunked and streamed schedules). */
int gpu_msm_chunked_emulate(int curve, int g2, const uint8_t *points, const uint8_t *scalars,
                            size_t n, size_t chunk, uint8_t *out);
/* The same one chunk at a time (tests that run chunks in their own order):
 * the device's bucket slot of an MSM of window c on the host. */
typedef struct {
    int curve, g2, c;
    void *buckets;
} gpu_msm_chunk_emu;
int gpu_msm_chunk_emulate_begin(gpu_msm_chunk_emu *m, int curve, int g2, int c);
int gpu_msm_chunk_emulate_add(gpu_msm_chunk_emu *m, int first, const uint8_t *points,
                              const uint8_t *scalars, size_t n);
/* The result of total points' chunks (out: affine); frees the buckets. */
int gpu_msm_chunk_emulate_end(gpu_msm_chunk_emu *m, size_t total, uint8_t *out);
void gpu_ws_free(gpu_ws *ws);
void gpu_prof_begin(gpu_prof *p, cudaStream_t st);
void gpu_prof_mark(gpu_prof *p, const char *name, cudaStream_t st);
/* Waits for the stream, prints "what: name ms, ..." and frees the events. */
void gpu_prof_end(gpu_prof *p, const char *what);
int gpu_bn254_g1_msm_dev(const void *, const uint32_t *, size_t, uint8_t *, gpu_ws *, cudaStream_t,
                         char *, size_t);
int gpu_bn254_g2_msm_dev(const void *, const uint32_t *, size_t, uint8_t *, gpu_ws *, cudaStream_t,
                         char *, size_t);
int gpu_bls12_381_g1_msm_dev(const void *, const uint32_t *, size_t, uint8_t *, gpu_ws *,
                             cudaStream_t, char *, size_t);
int gpu_bls12_381_g2_msm_dev(const void *, const uint32_t *, size_t, uint8_t *, gpu_ws *,
                             cudaStream_t, char *, size_t);

/* Shift copies (msm_template.cuh): an MSM over fixed, resident points may
 * run on a table of copies x n points, copy k holding 2^(c k) P_i, so that
 * ceil(nw / copies) bucket sets serve all nw windows: the bucket phase
 * shrinks by up to nw times, which lets a wider window (fewer windows,
 * fewer additions) pay.  copies times the points' device memory, built
 * once (build, on st).  window: the c a table for n points and this many
 * copies is built for; start: the MSM on the table (copies = 1 and any c:
 * the plain MSM). */
typedef int (*gpu_msm_start_copies_fn)(const void *d_table, int copies, int c,
                                       const uint32_t *d_scalars, size_t n, gpu_ws *ws,
                                       cudaStream_t st, gpu_msm_pending *pend, char *err,
                                       size_t errlen);
/* The same over nsets scalar sets sharing the points (a batch of proofs
 * of one key): set s's scalars at d_scalars + 8 s stride words. */
typedef int (*gpu_msm_start_sets_fn)(const void *d_table, int copies, int c,
                                     const uint32_t *d_scalars, size_t n, int nsets, size_t stride,
                                     gpu_ws *ws, cudaStream_t st, gpu_msm_pending *pend, char *err,
                                     size_t errlen);
/* An MSM over chunks whose buckets persist from chunk to chunk
 * (msm_template.cuh, chunk_add / chunk_finish; key.cu's chunked and
 * streamed keys): each chunk's points and scalars added into the buckets
 * of window c, then the window sums of them all landed once. */
typedef int (*gpu_msm_chunk_add_fn)(const void *d_points, const uint32_t *d_scalars, size_t n,
                                    int c, int first, gpu_ws *ws, cudaStream_t st, char *err,
                                    size_t errlen);
typedef int (*gpu_msm_chunk_finish_fn)(size_t total, int c, gpu_ws *ws, cudaStream_t st,
                                       gpu_msm_pending *pend, char *err, size_t errlen);
typedef struct {
    int (*window)(size_t n, int copies);
    int (*build)(const void *d_points, size_t n, int c, int copies, void *d_table, cudaStream_t st,
                 char *err, size_t errlen);
    gpu_msm_start_copies_fn start;
    gpu_msm_start_sets_fn start_sets;
    gpu_msm_chunk_add_fn chunk_add;
    gpu_msm_chunk_finish_fn chunk_finish;
} gpu_msm_copies_ops;
gpu_msm_copies_ops gpu_msm_copies_for(int curve, int g2);
#define GPU_MSM_COPIES_DECL(G)                                                                     \
    int G##_copies_window(size_t n, int copies);                                                   \
    int G##_shift_copies(const void *, size_t, int, int, void *, cudaStream_t, char *, size_t);    \
    int G##_msm_start_copies(const void *, int, int, const uint32_t *, size_t, gpu_ws *,           \
                             cudaStream_t, gpu_msm_pending *, char *, size_t);                     \
    int G##_msm_emulate_copies(const uint8_t *, const uint8_t *, size_t, int, uint8_t *);          \
    int G##_msm_start_sets(const void *, int, int, const uint32_t *, size_t, int, size_t,          \
                           gpu_ws *, cudaStream_t, gpu_msm_pending *, char *, size_t);             \
    int G##_msm_emulate_sets(const uint8_t *, const uint8_t *, size_t, int, size_t, int,           \
                             uint8_t *);                                                           \
    int G##_msm_chunk_add(const void *, const uint32_t *, size_t, int, int, gpu_ws *,              \
                          cudaStream_t, char *, size_t);                                           \
    int G##_msm_chunk_finish(size_t, int, gpu_ws *, cudaStream_t, gpu_msm_pending *, char *,       \
                             size_t);                                                              \
    size_t G##_msm_emulate_buckets_bytes(int c);                                                   \
    int G##_msm_emulate_chunk_add(void *, int, int, const uint8_t *, const uint8_t *, size_t);     \
    int G##_msm_emulate_chunk_finish(const void *, int, size_t, uint8_t *);
/* nsets MSMs over the same n host points in one pass (tests, bench):
 * scalars holds nsets x n plain scalars, outs nsets affine points. */
int gpu_msm_batch(int curve, int g2, const uint8_t *points, const uint8_t *scalars, size_t n,
                  int nsets, uint8_t *outs, char *err, size_t errlen);
/* The same through the kernels' code on the CPU (tests), set s's scalars
 * at scalars + 32 s stride, on a table of copies shift copies (1: none). */
int gpu_msm_batch_emulate(int curve, int g2, const uint8_t *points, const uint8_t *scalars,
                          size_t n, int nsets, size_t stride, int copies, uint8_t *outs);
/* gpu_msm_g1 / _g2 through a table of copies built for the call (tests). */
int gpu_msm_copies(int curve, int g2, const uint8_t *points, const uint8_t *scalars, size_t n,
                   int copies, uint8_t *out, char *err, size_t errlen);
GPU_MSM_COPIES_DECL(gpu_bn254_g1)
GPU_MSM_COPIES_DECL(gpu_bn254_g2)
GPU_MSM_COPIES_DECL(gpu_bls12_381_g1)
GPU_MSM_COPIES_DECL(gpu_bls12_381_g2)
extern gpu_tuning gpu_tune;
extern gpu_counts gpu_count;

/* The same MSMs run on the CPU through the kernels' own code (tests). */
int gpu_bn254_g1_msm_emulate(const uint8_t *, const uint8_t *, size_t, uint8_t *);
int gpu_bn254_g2_msm_emulate(const uint8_t *, const uint8_t *, size_t, uint8_t *);
int gpu_bls12_381_g1_msm_emulate(const uint8_t *, const uint8_t *, size_t, uint8_t *);
int gpu_bls12_381_g2_msm_emulate(const uint8_t *, const uint8_t *, size_t, uint8_t *);

int gpu_ntt_emulate(int curve, uint8_t *data, int log_n, int flags);
/* The product, the one-reduction a b - c d and the Fq2 product of every
 * field against the CIOS reference on n random and edge operand sets, run
 * on the device (on_device = 1) or through the emulated instructions on
 * the host (field_check.cu).  0 when all agree; else -1 and err says which. */
int gpu_field_check(int on_device, size_t n, char *err, size_t errlen);
/* key.cu's coefficient CSR, and the proof's h through the kernels' code on
 * the CPU (tests). */
int gpu_coefs_csr(const uint8_t *coefs, size_t n_coefs, size_t n, uint32_t *row_ptr[2],
                  uint32_t *sig[2], uint8_t *val[2]);
int gpu_build_h_emulate(int curve, uint8_t *abc, uint32_t *const row_ptr[2], uint32_t *const sig[2],
                        uint8_t *const val[2], const uint8_t *w, int log_n);

/* NTT over a device buffer of 2^log_n Montgomery Fr elements. */
int gpu_ntt_dev(int curve, void *d_data, int log_n, int flags, cudaStream_t st, char *err,
                size_t errlen);
/* Host roots (roots.c, from the CPU NTT library): omega for 2^log_n (or
 * its inverse) and n^-1, Montgomery form, 32 bytes each. */
int gpu_host_root(int curve, int log_n, int inverse, uint8_t *out);
/* The odd-coset shift g for size 2^log_n (or its inverse), as ntt.h. */
int gpu_host_coset(int curve, int log_n, int inverse, uint8_t *out);
void gpu_host_inv_n(int curve, int log_n, uint8_t *out);
/* out[i] = base^i for i < count (Montgomery), on the host. */
void gpu_host_powers(int curve, const uint8_t *base, size_t count, uint8_t *out);
void gpu_host_mul(int curve, const uint8_t *a, const uint8_t *b, uint8_t *out);
void gpu_ntt_release(void);
int gpu_build_ab_dev(int curve, void *out, const uint32_t *row_ptr, const uint32_t *sig,
                     const void *val, const void *w, size_t rows, cudaStream_t st, char *err,
                     size_t errlen);
int gpu_mul_into_dev(int curve, void *c, const void *a, const void *b, size_t n, cudaStream_t st,
                     char *err, size_t errlen);
int gpu_join_abc_dev(int curve, void *a, const void *b, const void *c, size_t n, cudaStream_t st,
                     char *err, size_t errlen);
#ifdef __cplusplus
}
#endif

#endif
