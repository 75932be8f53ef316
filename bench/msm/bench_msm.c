/* bench_msm: milliseconds per G1 MSM at 2^16, 2^18, 2^20 points, with
 * uniformly random scalars and with witness-like scalars (mostly 0 and 1).
 *   bench_msm [--curve bn254|bls12_381] [--threads N] [--reps R]
 *             [--logs 16,18,20] [--ones PERCENT]
 * Points are random multiples of the generator made by a chain of
 * additions (one per point) and one batch inversion, so setup stays fast. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msm/msm.h"
#include "util/parallel.h"

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t rand64(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dULL;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Random scalars below 2^(bits); with bits_pct > 0 that share of them is
 * 0 or 1 (half each), like the bit signals of a real witness. */
static void make_scalars(uint8_t *buf, size_t n, int bits, int bits_pct)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4] = {0};
        if ((int)(rand64() % 100) < bits_pct) {
            k[0] = rand64() & 1;
        } else {
            for (int j = 0; j < 4; j++) k[j] = rand64();
            if (bits < 256) k[3] &= ((uint64_t)1 << (bits - 192)) - 1;
        }
        memcpy(buf + 32 * i, k, 32);
    }
}

#define BENCH_GROUP(G)                                                                             \
    static void G##_points(uint8_t *buf, size_t n)                                                 \
    {                                                                                              \
        G *jac = malloc(n * sizeof *jac);                                                          \
        G##_affine *aff = malloc(n * sizeof *aff); /* buf is unaligned */                          \
        __typeof__(jac->z) *scratch = malloc(n * sizeof *scratch);                                 \
        G p, q;                                                                                    \
        uint64_t a[4] = {rand64(), rand64(), rand64(), 0}, b[4] = {rand64(), rand64(), 0, 0};      \
        G##_generator(&q);                                                                         \
        G##_mul(&p, &q, a, 4);                                                                     \
        G##_mul(&q, &q, b, 4);                                                                     \
        for (size_t i = 0; i < n; i++) {                                                           \
            G##_add(&p, &p, &q);                                                                   \
            jac[i] = p;                                                                            \
        }                                                                                          \
        G##_batch_to_affine(aff, jac, n, scratch);                                                 \
        memcpy(buf, aff, n * sizeof *aff);                                                         \
        free(jac);                                                                                 \
        free(aff);                                                                                 \
        free(scratch);                                                                             \
    }                                                                                              \
                                                                                                   \
    /* Best wall time of reps; *cpu gets that run's CPU time (on a shared \
     * machine wall time overstates, CPU time / threads does not). */                        \
    static double G##_time(const uint8_t *pts, const uint8_t *sc, size_t n, int threads, int reps, \
                           double *cpu)                                                            \
    {                                                                                              \
        double best = 1e30;                                                                        \
        for (int r = 0; r < reps; r++) {                                                           \
            G out;                                                                                 \
            double t0 = now_ms(), c0 = cpu_ms();                                                   \
            G##_msm(&out, pts, sc, n, threads);                                                    \
            double t = now_ms() - t0;                                                              \
            if (t < best) {                                                                        \
                best = t;                                                                          \
                *cpu = cpu_ms() - c0;                                                              \
            }                                                                                      \
        }                                                                                          \
        return best;                                                                               \
    }                                                                                              \
                                                                                                   \
    static void G##_bench(const int *logs, int nlogs, int threads, int reps, int bits, int ones)   \
    {                                                                                              \
        size_t max = (size_t)1 << logs[nlogs - 1];                                                 \
        uint8_t *pts = malloc(max * sizeof(G##_affine) + 1);                                       \
        uint8_t *sc = malloc(max * 32 + 1);                                                        \
        double t0 = now_ms();                                                                      \
        G##_points(pts + 1, max); /* +1: keys are mapped, not aligned */                           \
        printf("%s: %zu points generated in %.0f ms; threads %d, best of %d\n", #G, max,           \
               now_ms() - t0, threads, reps);                                                      \
        for (int i = 0; i < nlogs; i++) {                                                          \
            size_t n = (size_t)1 << logs[i];                                                       \
            double cr = 0, cb = 0;                                                                 \
            make_scalars(sc + 1, n, bits, 0);                                                      \
            double tr = G##_time(pts + 1, sc + 1, n, threads, reps, &cr);                          \
            make_scalars(sc + 1, n, bits, ones);                                                   \
            double tb = G##_time(pts + 1, sc + 1, n, threads, reps, &cb);                          \
            printf("  2^%d: random %8.1f ms (cpu %8.1f)   %d%% 0/1 %8.1f ms (cpu %8.1f)\n",        \
                   logs[i], tr, cr, ones, tb, cb);                                                 \
            fflush(stdout);                                                                        \
        }                                                                                          \
        free(pts);                                                                                 \
        free(sc);                                                                                  \
    }

BENCH_GROUP(bn254_g1)
BENCH_GROUP(bls12_381_g1)

int main(int argc, char **argv)
{
    const char *curve = "bn254";
    int threads = 0, reps = 3, ones = 90, logs[8] = {16, 18, 20}, nlogs = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--curve"))
            curve = argv[i + 1];
        else if (!strcmp(argv[i], "--threads"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ones"))
            ones = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--logs")) {
            nlogs = 0;
            for (char *s = argv[i + 1]; *s && nlogs < 8; s += strspn(s, ","))
                logs[nlogs++] = (int)strtol(s, &s, 10);
        } else {
            fprintf(stderr, "bench_msm: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (threads <= 0) threads = parallel_default_threads();
    if (nlogs == 0 || reps < 1) {
        fprintf(stderr, "bench_msm: bad --logs or --reps\n");
        return 2;
    }
    if (!strcmp(curve, "bn254"))
        bn254_g1_bench(logs, nlogs, threads, reps, 254, ones);
    else if (!strcmp(curve, "bls12_381"))
        bls12_381_g1_bench(logs, nlogs, threads, reps, 255, ones);
    else {
        fprintf(stderr, "bench_msm: --curve bn254 or bls12_381\n");
        return 2;
    }
    return 0;
}
