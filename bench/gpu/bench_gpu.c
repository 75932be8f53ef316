/* bench_gpu: times the device MSMs and NTT with inputs resident on the
 * device (CUDA events after one warm-up, median of repeats), the CPU
 * libraries on the same inputs (wall clock, all cores), and a synthetic
 * proof's heavy part through gpu_prove_msms.
 * Usage: bench_gpu [log_n (24)] [reps (5)] [cpu (1: also time the CPU)]
 * Environment: BENCH_WINDOWS="16 18 20" also times the BN254 G1 and G2 MSMs with
 * each of these window sizes forced; BENCH_SPARSE=1 adds a run whose
 * scalars look like a real witness (70% 0 or 1, the rest full width);
 * BENCH_ONLY=ntt times the NTT alone; BENCH_COPIES="12 11:24":
 * time_copies (tables of shift copies); BENCH_PROFILE=1 prints each MSM's
 * and NTT's phase times to stderr (gpu_tune.profile). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu.h"
#include "gpu/internal.h"
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

/* Median milliseconds of reps timed MSMs after one warm-up. */
static double time_msm(gpu_msm_fn fn, const void *dp, const void *ds, size_t n, int reps)
{
    gpu_ws ws;
    uint8_t out[192];
    double ms[64];
    cudaEvent_t a, b;
    memset(&ws, 0, sizeof ws);
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int r = -1; r < reps; r++) {
        cudaEventRecord(a, 0);
        if (fn(dp, (const uint32_t *)ds, n, out, &ws, 0, err, sizeof err)) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            exit(1);
        }
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        if (r >= 0) ms[r] = t;
    }
    gpu_ws_free(&ws);
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    return ms[reps / 2];
}

static double time_ntt(int curve, void *d, int log_n, int flags, int reps)
{
    double ms[64];
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int r = -1; r < reps; r++) {
        cudaEventRecord(a, 0);
        if (gpu_ntt_dev(curve, d, log_n, flags, 0, err, sizeof err)) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            exit(1);
        }
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        if (r >= 0) ms[r] = t;
    }
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    return ms[reps / 2];
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
        if (getenv("BENCH_COPIES")) {                                                              \
            uint8_t ref[192];                                                                      \
            gpu_ws ws;                                                                             \
            memset(&ws, 0, sizeof ws);                                                             \
            if (FN(dp, (const uint32_t *)dsc, n, ref, &ws, 0, err, sizeof err)) {                  \
                fprintf(stderr, "bench_gpu: %s\n", err);                                           \
                exit(1);                                                                           \
            }                                                                                      \
            gpu_ws_free(&ws);                                                                      \
            time_copies(LABEL, CURVE, G2, psz, dp, dsc, n, reps, ref);                             \
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
    uint8_t *sc = malloc(32 * n);
    for (size_t i = 0; i < n; i++) tl_scalar(sc + 32 * i, 253);
    void *dsc = to_device(sc, 32 * n);
    printf("bench_gpu: log_n=%d reps=%d cpu threads=%d\n", log_n, reps, parallel_default_threads());
    bench_ntt(log_n, reps, cpu, sc);
    const char *only = getenv("BENCH_ONLY"); /* "ntt": skip the MSMs */
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
