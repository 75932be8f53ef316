/* bench_gpu: times the device MSMs and NTT with inputs resident on the
 * device (CUDA events after one warm-up, median of repeats), the CPU
 * libraries on the same inputs (wall clock, all cores), and a synthetic
 * proof's heavy part through gpu_prove_msms.
 * Usage: bench_gpu [log_n (24)] [reps (5)] [cpu (1: also time the CPU)]
 * Environment: BENCH_WINDOWS="16 18 20" also times the BN254 G1 and G2 MSMs with
 * each of these window sizes forced; BENCH_SPARSE=1 adds a run whose
 * scalars look like a real witness (70% 0 or 1, the rest full width);
 * BENCH_ONLY=ntt times the NTT alone; BENCH_ONLY=batch times whole
 * proofs' device part on synthetic keys of 2^16, 2^18, ... up to 2^log_n,
 * one at a time, batched and from two threads (bench_batch below;
 * BENCH_CURVES="bn128 bls12381" picks the curves, bn128 by default);
 * BENCH_ONLY=h2d times host-to-device copies of 4 GiB from pinned and
 * from pageable memory (the link a streamed key's points cross);
 * BENCH_ONLY=stream times a synthetic 2^log_n key's proof resident and
 * under each of the device budgets BENCH_BUDGETS="8 20" (GB; default 8):
 * the plan's mode and chunk, per-proof time against the resident proof's,
 * and the points a proof copies over the link in GB/s of that time (the
 * figure to hold against BENCH_ONLY=h2d's pinned one);
 * BENCH_COPIES="12 11:24":
 * time_copies (tables of shift copies); BENCH_CHUNKS="1 2 8": time_chunks
 * (each MSM again as that many chunks through a chunked key's path,
 * chunk_add and chunk_finish); BENCH_PROFILE=1 prints each MSM's (and
 * each chunk's) and NTT's phase times to stderr (gpu_tune.profile). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu.h"
#include "gpu/internal.h"
#include "gpu/msm_plan.h"
#include "gpu_testlib.h"
#include "msm/msm.h"
#include "ntt/ntt.h"

static char err[256];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void *to_device(const void *src, size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes) != cudaSuccess ||
        cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "bench_gpu: device allocation of %zu bytes failed\n", bytes);
        exit(1);
    }
    return d;
}

/* Median milliseconds of reps runs of once(ctx) after one warm-up, timed
 * with CUDA events on the legacy stream (once enqueues there and may
 * wait); once returns 0, or -1 with err set (then the bench stops). */
static double timed_median(int reps, int (*once)(void *ctx), void *ctx)
{
    double ms[64];
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int r = -1; r < reps; r++) {
        cudaEventRecord(a, 0);
        if (once(ctx)) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            exit(1);
        }
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        if (r >= 0) ms[r] = t;
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    return ms[reps / 2];
}

typedef struct {
    gpu_msm_fn fn;
    const void *dp, *ds;
    size_t n;
    gpu_ws ws;
    uint8_t out[192];
} msm_run;

static int msm_once(void *ctx)
{
    msm_run *m = ctx;
    return m->fn(m->dp, (const uint32_t *)m->ds, m->n, m->out, &m->ws, 0, err, sizeof err);
}

/* Median milliseconds of reps timed MSMs after one warm-up. */
static double time_msm(gpu_msm_fn fn, const void *dp, const void *ds, size_t n, int reps)
{
    msm_run m;
    memset(&m, 0, sizeof m);
    m.fn = fn, m.dp = dp, m.ds = ds, m.n = n;
    double t = timed_median(reps, msm_once, &m);
    gpu_ws_free(&m.ws);
    return t;
}

typedef struct {
    int curve, log_n, flags;
    void *d;
} ntt_run;

static int ntt_once(void *ctx)
{
    ntt_run *t = ctx;
    return gpu_ntt_dev(t->curve, t->d, t->log_n, t->flags, 0, err, sizeof err);
}

static double time_ntt(int curve, void *d, int log_n, int flags, int reps)
{
    ntt_run t = {curve, log_n, flags, d};
    return timed_median(reps, ntt_once, &t);
}

/* BENCH_COPIES="12 11:24": the same MSM on tables of shift copies
 * (copies[:window], the window from the cost model when not given): the
 * table's build time and size, the median MSM time on it, and whether its
 * result equals the plain MSM's (ref). */
static double msm_copies_once(gpu_msm_copies_ops *ops, const void *dt, int copies, int c,
                              const void *ds, size_t n, gpu_ws *ws, uint8_t *out)
{
    gpu_msm_pending p;
    cudaEvent_t a, b;
    float t;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, 0);
    if (ops->start(dt, copies, c, (const uint32_t *)ds, n, ws, 0, &p, err, sizeof err) ||
        gpu_msm_wait(&p, out, err, sizeof err)) {
        fprintf(stderr, "bench_gpu: %s\n", err);
        exit(1);
    }
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&t, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t;
}

static void time_copies(const char *label, int curve, int g2, size_t psz, const void *dp,
                        const void *ds, size_t n, int reps, const uint8_t *ref)
{
    const char *list = getenv("BENCH_COPIES");
    char buf[256], *save = NULL;
    gpu_msm_copies_ops ops = gpu_msm_copies_for(curve, g2);
    if (!list) return;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *v = strtok_r(buf, " ", &save); v; v = strtok_r(NULL, " ", &save)) {
        int copies = 0, c = 0;
        if (sscanf(v, "%d:%d", &copies, &c) < 1 || copies < 2) continue;
        if (c < 3) c = ops.window(n, copies);
        void *dt = NULL;
        size_t bytes = (size_t)copies * n * psz;
        if (cudaMalloc(&dt, bytes) != cudaSuccess) {
            printf("%-22s copies %d: %.1f GiB do not fit\n", label, copies, bytes / 1073741824.0);
            cudaGetLastError();
            continue;
        }
        double t0 = now();
        if (ops.build(dp, n, c, copies, dt, 0, err, sizeof err) ||
            cudaDeviceSynchronize() != cudaSuccess) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            exit(1);
        }
        double build = now() - t0, ms[64];
        gpu_ws ws;
        uint8_t out[192];
        memset(&ws, 0, sizeof ws);
        for (int r = -1; r < reps; r++) {
            double t = msm_copies_once(&ops, dt, copies, c, ds, n, &ws, out);
            if (r >= 0) ms[r] = t;
        }
        qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
        printf("%-22s n=2^%-2d gpu %9.2f ms   (copies %d, c=%d: table %.1f GiB built in %.1f s; "
               "result %s)\n",
               label, __builtin_ctzll(n), ms[reps / 2], copies, c, bytes / 1073741824.0, build,
               memcmp(out, ref, psz) ? "DIFFERS" : "equal");
        fflush(stdout);
        gpu_ws_free(&ws);
        cudaFree(dt);
    }
}

typedef struct {
    gpu_msm_copies_ops ops;
    const void *dp, *ds;
    size_t psz, n, chunk;
    int c;
    gpu_ws ws;
    uint8_t out[192];
} chunk_run;

static int chunks_once(void *ctx)
{
    chunk_run *r = ctx;
    gpu_msm_pending pend;
    for (size_t off = 0; off < r->n; off += r->chunk) {
        size_t len = r->n - off < r->chunk ? r->n - off : r->chunk;
        if (r->ops.chunk_add((const uint8_t *)r->dp + off * r->psz,
                             (const uint32_t *)r->ds + 8 * off, len, r->c, off == 0, &r->ws, 0, err,
                             sizeof err))
            return -1;
    }
    return r->ops.chunk_finish(r->n, r->c, &r->ws, 0, &pend, err, sizeof err) ||
                   gpu_msm_wait(&pend, r->out, err, sizeof err)
               ? -1
               : 0;
}

/* BENCH_CHUNKS="1 2 8": the same MSM as k chunks through chunk_add and
 * chunk_finish (a chunked key's path: buckets kept across its chunks, at
 * the window of one chunk), against the whole MSM's ref; with
 * BENCH_PROFILE each chunk's phases print too. */
static void time_chunks(const char *label, int curve, int g2, const void *dp, size_t psz,
                        const void *ds, size_t n, int reps, const uint8_t *ref)
{
    for (const char *v = getenv("BENCH_CHUNKS"); v && *v;) {
        char *end;
        long k = strtol(v, &end, 10);
        if (end == v) break;
        v = end;
        if (k < 1 || (size_t)k > n) continue;
        chunk_run r;
        memset(&r, 0, sizeof r);
        r.ops = gpu_msm_copies_for(curve, g2);
        r.dp = dp, r.ds = ds, r.psz = psz, r.n = n, r.chunk = (n + (size_t)k - 1) / (size_t)k;
        r.c = r.ops.window(r.chunk, 1);
        double t = timed_median(reps, chunks_once, &r);
        printf("%-22s n=2^%-2d gpu %9.2f ms   (%ld chunks of %zu, c=%d, chunk_add; result %s)\n",
               label, __builtin_ctzll(n), t, k, r.chunk, r.c,
               memcmp(r.out, ref, psz) ? "DIFFERS" : "equal");
        fflush(stdout);
        gpu_ws_free(&r.ws);
    }
}

#define BENCH_MSM(G, FN, LABEL, CURVE, G2)                                                         \
    static void G##_bench(size_t n, int reps, int cpu, uint8_t *sc, void *dsc)                     \
    {                                                                                              \
        size_t psz = sizeof(G##_affine);                                                           \
        uint8_t *pts = malloc(n * psz);                                                            \
        double t0 = now();                                                                         \
        G##_tl_points(pts, n, 12345, 6789);                                                        \
        double gen = now() - t0;                                                                   \
        void *dp = to_device(pts, n * psz);                                                        \
        double g = time_msm(FN, dp, dsc, n, reps);                                                 \
        double c = 0;                                                                              \
        if (cpu) {                                                                                 \
            G out;                                                                                 \
            t0 = now();                                                                            \
            G##_msm(&out, pts, sc, n, 0);                                                          \
            c = (now() - t0) * 1e3;                                                                \
        }                                                                                          \
        printf("%-22s n=2^%-2d gpu %9.2f ms   cpu %9.1f ms   cpu/gpu %6.1f  (points %.1f s)\n",    \
               LABEL, __builtin_ctzll(n), g, c, c / g, gen);                                       \
        if (getenv("BENCH_COPIES") || getenv("BENCH_CHUNKS")) {                                    \
            uint8_t ref[192];                                                                      \
            gpu_ws ws;                                                                             \
            memset(&ws, 0, sizeof ws);                                                             \
            if (FN(dp, (const uint32_t *)dsc, n, ref, &ws, 0, err, sizeof err)) {                  \
                fprintf(stderr, "bench_gpu: %s\n", err);                                           \
                exit(1);                                                                           \
            }                                                                                      \
            gpu_ws_free(&ws);                                                                      \
            time_copies(LABEL, CURVE, G2, psz, dp, dsc, n, reps, ref);                             \
            time_chunks(LABEL, CURVE, G2, dp, psz, dsc, n, reps, ref);                             \
        }                                                                                          \
        cudaFree(dp);                                                                              \
        free(pts);                                                                                 \
    }

BENCH_MSM(bn254_g1, gpu_bn254_g1_msm_dev, "MSM BN254 G1", FORMATS_CURVE_BN128, 0)
BENCH_MSM(bls12_381_g1, gpu_bls12_381_g1_msm_dev, "MSM BLS12-381 G1", FORMATS_CURVE_BLS12381, 0)
BENCH_MSM(bn254_g2, gpu_bn254_g2_msm_dev, "MSM BN254 G2", FORMATS_CURVE_BN128, 1)
BENCH_MSM(bls12_381_g2, gpu_bls12_381_g2_msm_dev, "MSM BLS12-381 G2", FORMATS_CURVE_BLS12381, 1)

/* 70% of scalars 0 or 1 (as in circom witnesses: bits), the rest random. */
static void sparse_scalars(uint8_t *sc, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tl_rand() % 100;
        if (r < 70) {
            memset(sc + 32 * i, 0, 32);
            sc[32 * i] = (uint8_t)(r & 1);
        } else
            tl_scalar(sc + 32 * i, 253);
    }
}

static void bench_ntt(int log_n, int reps, int cpu, uint8_t *sc)
{
    size_t n = (size_t)1 << log_n;
    void *d = to_device(sc, n * 32);
    double f = time_ntt(FORMATS_CURVE_BN128, d, log_n, 0, reps * 4);
    double i = time_ntt(FORMATS_CURVE_BN128, d, log_n, GPU_NTT_INVERSE, reps * 4);
    double c = time_ntt(FORMATS_CURVE_BN128, d, log_n, GPU_NTT_COSET, reps * 4);
    double rt = time_ntt(FORMATS_CURVE_BN128, d, log_n, GPU_NTT_ROUND_TRIP, reps * 4);
    double cf = 0;
    if (cpu) {
        double t0 = now();
        bn254_fr_ntt((bn254_fr *)sc, (unsigned)log_n, 0);
        cf = (now() - t0) * 1e3;
    }
    /* natural order in and out (with the bit-reversal pass), then the
     * prover's round trip: two transforms without it */
    printf("%-22s n=2^%-2d gpu %9.2f ms   cpu %9.1f ms   cpu/gpu %6.1f  (inverse %.2f, coset %.2f "
           "ms)\n",
           "NTT BN254", log_n, f, cf, cf / f, i, c);
    printf(
        "%-22s n=2^%-2d gpu %9.2f ms   (inverse + coset, no bit reversal: %.2f ms a transform)\n",
        "NTT BN254 round trip", log_n, rt, rt / 2);
    cudaFree(d);
}

/* ---- BENCH_ONLY=batch: per-proof fixed costs, with and without batching ----
 * For each key size: the key's device part of a proof (gpu_prove_msms:
 * witness upload, a/b/c, NTTs, five MSMs, results back) timed by wall
 * clock on the host, as a caller sees it:
 *   single  one proof a call, one after another (median of reps calls)
 *   batch   gpu_prove_msms_batch of k proofs a call, k = the daemon's batch
 *           (gpu_plan_batch), at least 2 so the split below exists
 *   2 thr   two threads each proving one at a time on the key's lanes
 * Per proof, from single = F + W and batch = (F + k W) / k:
 *   W = (k batch - single) / (k - 1), the work that grows with proofs,
 *   F = single - W, the fixed costs a batch pays once (launches, waits,
 *   small copies, the host's Horner per MSM stays per proof, so in W).
 * And the counts of what each call issues (gpu_count), per proof. */
typedef struct {
    gpu_key *k;
    const uint8_t *w;
    size_t n_vars;
    int sets, calls;
} batch_run;

static double prove_calls(batch_run *r)
{
    static uint8_t out[GPU_BATCH_MAX][5][192];
    gpu_proof_io io[GPU_BATCH_MAX];
    for (int s = 0; s < r->sets; s++)
        io[s] = (gpu_proof_io){r->w + (size_t)s * r->n_vars * 32,
                               out[s][0],
                               out[s][1],
                               out[s][2],
                               out[s][3],
                               out[s][4]};
    double t0 = now();
    for (int c = 0; c < r->calls; c++)
        if (gpu_prove_msms_batch(r->k, r->sets, io, NULL, err, sizeof err)) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            exit(1);
        }
    return now() - t0;
}

static void *prove_thread(void *arg)
{
    batch_run *r = (batch_run *)arg;
    prove_calls(r);
    return NULL;
}

/* Median seconds a call of r->sets proofs, and gpu_count's per-proof
 * deltas over those calls. */
static double time_calls(batch_run r, int reps, gpu_counts *per)
{
    double t[64];
    gpu_counts c0 = gpu_count;
    r.calls = 1;
    prove_calls(&r); /* warm-up: grows the lane's buffers */
    c0 = gpu_count;
    for (int i = 0; i < reps; i++) t[i] = prove_calls(&r);
    double n = (double)reps * r.sets;
    per->launches = (unsigned long long)((gpu_count.launches - c0.launches) / n + 0.5);
    per->sorts = (unsigned long long)((gpu_count.sorts - c0.sorts) / n + 0.5);
    per->syncs = (unsigned long long)((gpu_count.syncs - c0.syncs) / n + 0.5);
    per->allocs = (unsigned long long)((gpu_count.allocs - c0.allocs) / n + 0.5);
    per->copies = (unsigned long long)((gpu_count.copies - c0.copies) / n + 0.5);
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return t[reps / 2];
}

static void print_counts(const char *what, const gpu_counts *c)
{
    printf("  %-7s per proof: %llu launches, %llu sorts (CUB, its own launches), %llu host waits, "
           "%llu allocations, %llu copies/memsets\n",
           what, c->launches, c->sorts, c->syncs, c->allocs, c->copies);
}

static void bench_batch_one(int curve, int log_n, int reps)
{
    size_t n = (size_t)1 << log_n, n_vars = n - n / 4;
    int k = gpu_plan_batch(log_n) < 2 ? 2 : gpu_plan_batch(log_n);
    tl_key tk;
    gpu_key_desc d;
    double t0 = now();
    tl_key_make(&tk, &d, curve, log_n, n_vars);
    d.lanes = gpu_plan_lanes(log_n);
    gpu_key *key = gpu_key_upload(&d, NULL, err, sizeof err);
    if (!key) {
        fprintf(stderr, "bench_gpu: %s\n", err);
        exit(1);
    }
    double made = now() - t0;
    uint8_t *w = malloc((size_t)k * n_vars * 32);
    for (size_t i = 0; i < (size_t)k * n_vars; i++) tl_scalar(w + 32 * i, 253);
    gpu_counts c1, ck;
    batch_run one = {key, w, n_vars, 1, 1}, many = {key, w, n_vars, k, 1};
    double single = time_calls(one, reps, &c1), batch = time_calls(many, reps, &ck) / k;
    batch_run two[2] = {{key, w, n_vars, 1, 4 * reps}, {key, w + n_vars * 32, n_vars, 1, 4 * reps}};
    pthread_t th[2];
    t0 = now();
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, prove_thread, &two[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    double threads2 = (now() - t0) / (8.0 * reps);
    double work = (k * batch - single) / (k - 1), fixed = single - work;
    const char *name = curve == FORMATS_CURVE_BN128 ? "bn128" : "bls12381";
    printf("proof %-8s 2^%-2d n_vars %zu lanes %d (key made and uploaded in %.1f s)\n", name, log_n,
           n_vars, d.lanes, made);
    printf("  single %8.3f ms/proof %8.1f proofs/s | batch k=%-2d %8.3f ms/proof %8.1f proofs/s "
           "(x%.2f) | 2 threads %8.3f ms/proof %8.1f proofs/s (x%.2f)\n",
           single * 1e3, 1 / single, k, batch * 1e3, 1 / batch, single / batch, threads2 * 1e3,
           1 / threads2, single / threads2);
    printf("  split  fixed %8.3f ms/proof (%.0f%%), work %8.3f ms/proof\n", fixed * 1e3,
           100 * fixed / single, work * 1e3);
    print_counts("single", &c1);
    print_counts("batch", &ck);
    fflush(stdout);
    free(w);
    gpu_key_free(key);
    tl_key_free(&tk);
}

static void bench_batch(int max_log, int reps)
{
    const char *curves = getenv("BENCH_CURVES");
    int bls = curves && strstr(curves, "bls12381"), bn = !curves || strstr(curves, "bn128");
    for (int log_n = 16; log_n <= max_log; log_n += 2) {
        if (bn) bench_batch_one(FORMATS_CURVE_BN128, log_n, reps);
        if (bls) bench_batch_one(FORMATS_CURVE_BLS12381, log_n, reps);
    }
}

/* Host-to-device bandwidth: a 4 GiB copy from pinned memory (what a
 * streamed key's chunks use) and from pageable memory, median of reps. */
static void bench_h2d(int reps)
{
    const size_t bytes = (size_t)4 << 30;
    void *pinned = NULL, *pageable = malloc(bytes), *dev = NULL;
    if (!pageable || cudaMallocHost(&pinned, bytes) != cudaSuccess ||
        cudaMalloc(&dev, bytes) != cudaSuccess) {
        fprintf(stderr, "bench_gpu h2d: cannot allocate 4 GiB on the host and the device\n");
        exit(1);
    }
    memset(pinned, 1, bytes);
    memset(pageable, 1, bytes);
    void *src[2] = {pinned, pageable};
    const char *name[2] = {"pinned", "pageable"};
    for (int k = 0; k < 2; k++) {
        double t[16];
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            cudaMemcpy(dev, src[k], bytes, cudaMemcpyHostToDevice);
            t[r] = now() - t0;
        }
        qsort(t, reps, sizeof *t, cmp_double);
        printf("H2D %-8s 4 GiB: median %.3f s, %.1f GB/s (best %.1f)\n", name[k], t[reps / 2],
               bytes / t[reps / 2] / 1e9, bytes / t[0] / 1e9);
    }
    cudaFree(dev);
    cudaFreeHost(pinned);
    free(pageable);
}

/* ---- BENCH_ONLY=stream: a chunked or streamed key against the resident one ---- */
static double stream_proofs(gpu_key *key, const uint8_t *w, int reps, gpu_prove_timings *tm)
{
    static uint8_t out[5][192];
    double t[16];
    for (int r = 0; r <= reps; r++) { /* the first: warm-up, grows the buffers */
        double t0 = now();
        if (gpu_prove_msms(key, w, out[0], out[1], out[2], out[3], out[4], tm, err, sizeof err)) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            exit(1);
        }
        if (r) t[r - 1] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return t[reps / 2];
}

static void bench_stream_one(int curve, int log_n, int reps)
{
    size_t n = (size_t)1 << log_n, n_vars = n - n / 4;
    const char *budgets = getenv("BENCH_BUDGETS");
    tl_key tk;
    gpu_key_desc d;
    gpu_mem_need need;
    gpu_prove_timings tm;
    tl_key_make(&tk, &d, curve, log_n, n_vars);
    gpu_key_need(&d, &need);
    size_t points = 0;
    for (int i = 0; i < GPU_PLAN_MSMS; i++) points += need.count[i] * need.point_bytes[i];
    uint8_t *w = malloc(n_vars * 32);
    for (size_t i = 0; i < n_vars; i++) tl_scalar(w + 32 * i, 253);
    double resident = 0;
    const char *name = curve == FORMATS_CURVE_BN128 ? "bn128" : "bls12381";
    for (const char *b = ""; b;) { /* "": the resident key first */
        char *end = NULL;
        double gb = *b ? strtod(b, &end) : 0;
        if (*b && end == b) break;
        d.device_budget = (size_t)(gb * 1e9);
        gpu_key *key = gpu_key_upload(&d, NULL, err, sizeof err);
        if (!key) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            exit(1);
        }
        size_t chunk = 0;
        int mode = gpu_key_memory_mode(key, &chunk);
        double t = stream_proofs(key, w, reps, &tm);
        if (!*b) resident = t;
        printf("proof %-8s 2^%-2d budget %5.1f GB: %-22s chunk 2^%-2d %8.3f s/proof (x%.2f)", name,
               log_n, gb, gpu_plan_mode_name(mode), 63 - __builtin_clzll(chunk), t, t / resident);
        if (mode == GPU_MEM_STREAMED)
            printf(", %.2f GB of points: %.1f GB/s", points / 1e9, points / t / 1e9);
        printf(" | msm a %.3f b1 %.3f b2 %.3f c %.3f h %.3f s\n", tm.msm_a, tm.msm_b1, tm.msm_b2,
               tm.msm_c, tm.msm_h);
        fflush(stdout);
        gpu_key_free(key);
        b = *b ? end : budgets ? budgets : "8";
        while (b && *b == ' ') b++;
        if (b && !*b) b = NULL;
    }
    free(w);
    tl_key_free(&tk);
}

int main(int argc, char **argv)
{
    int log_n = argc > 1 ? atoi(argv[1]) : 24, reps = argc > 2 ? atoi(argv[2]) : 5;
    int cpu = argc > 3 ? atoi(argv[3]) : 1;
    size_t n = (size_t)1 << log_n;
    if (!gpu_available()) {
        fprintf(stderr, "bench_gpu: no usable GPU\n");
        return 1;
    }
    if (reps < 1 || reps > 16) reps = 5;
    const char *only = getenv("BENCH_ONLY"); /* "ntt": skip the MSMs; "batch": bench_batch */
    if (only && strcmp(only, "batch") == 0) {
        printf("bench_gpu batch: up to 2^%d, reps=%d\n", log_n, reps);
        bench_batch(log_n, reps);
        return 0;
    }
    if (only && strcmp(only, "stream") == 0) {
        const char *curves = getenv("BENCH_CURVES");
        if (!curves || strstr(curves, "bn128")) bench_stream_one(FORMATS_CURVE_BN128, log_n, reps);
        if (curves && strstr(curves, "bls12381"))
            bench_stream_one(FORMATS_CURVE_BLS12381, log_n, reps);
        return 0;
    }
    if (only && strcmp(only, "h2d") == 0) {
        bench_h2d(reps);
        return 0;
    }
    uint8_t *sc = malloc(32 * n);
    for (size_t i = 0; i < n; i++) tl_scalar(sc + 32 * i, 253);
    void *dsc = to_device(sc, 32 * n);
    printf("bench_gpu: log_n=%d reps=%d cpu threads=%d\n", log_n, reps, parallel_default_threads());
    bench_ntt(log_n, reps, cpu, sc);
    gpu_tune.profile = getenv("BENCH_PROFILE") != NULL;
    if (only && strcmp(only, "ntt") == 0) {
        cudaFree(dsc);
        free(sc);
        return 0;
    }
    for (size_t i = 0; i < n; i++) tl_scalar(sc + 32 * i, 253);
    cudaMemcpy(dsc, sc, 32 * n, cudaMemcpyHostToDevice);
    bn254_g1_bench(n, reps, cpu, sc, dsc);
    bls12_381_g1_bench(n, reps, cpu, sc, dsc);
    bn254_g2_bench(n, reps, cpu, sc, dsc);
    bls12_381_g2_bench(n, reps, cpu, sc, dsc);
    const char *windows = getenv("BENCH_WINDOWS");
    for (const char *w = windows; w && *w;) {
        char *end;
        long c = strtol(w, &end, 10);
        if (end == w) break;
        w = end;
        gpu_tune.msm_window = (int)c;
        printf("window %ld: ", c);
        bn254_g1_bench(n, reps, 0, sc, dsc);
        printf("window %ld: ", c);
        bn254_g2_bench(n, reps, 0, sc, dsc);
    }
    gpu_tune.msm_window = 0;
    if (getenv("BENCH_SPARSE")) {
        sparse_scalars(sc, n);
        cudaMemcpy(dsc, sc, 32 * n, cudaMemcpyHostToDevice);
        printf("sparse scalars (70%% 0/1): ");
        bn254_g1_bench(n, reps, cpu, sc, dsc);
        printf("sparse scalars (70%% 0/1): ");
        bn254_g2_bench(n, reps, cpu, sc, dsc);
    }
    cudaFree(dsc);
    free(sc);
    return 0;
}
