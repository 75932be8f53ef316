/* G_msm_scratch_bytes against what G_msm really allocates.  The MSM's
 * objects are linked with -Wl,--wrap for malloc, calloc, aligned_alloc and
 * free (tests/msm/CMakeLists.txt), so every allocation it makes passes
 * through the wrappers below, which keep the live requested bytes and
 * their peak.  For each group, size, thread count and scalar mix (dense
 * full-width, mostly bits, half-width: each steers the plan and GLV
 * differently): the peak never exceeds the estimate, and the worst mix
 * reaches at least 1/SLACK of it (the estimate is a bound, not a guess
 * far above what any input needs). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"
#include "../common/test.h"

/* The estimate may exceed the worst measured peak by at most this factor. */
#define SLACK 3.0

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_aligned_alloc(size_t align, size_t n);
void __real_free(void *p);

/* Live allocations: the MSM holds a handful at once. */
#define LIVE_MAX 1024
static struct {
    void *p;
    size_t n;
} g_live[LIVE_MAX];
static size_t g_bytes, g_peak;
static int g_overflow;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;

static void *track(void *p, size_t n)
{
    if (!p) return p;
    pthread_mutex_lock(&g_mu);
    int i = 0;
    while (i < LIVE_MAX && g_live[i].p) i++;
    if (i == LIVE_MAX)
        g_overflow = 1;
    else {
        g_live[i].p = p;
        g_live[i].n = n;
        g_bytes += n;
        if (g_bytes > g_peak) g_peak = g_bytes;
    }
    pthread_mutex_unlock(&g_mu);
    return p;
}

void *__wrap_malloc(size_t n) { return track(__real_malloc(n), n); }
void *__wrap_calloc(size_t n, size_t size) { return track(__real_calloc(n, size), n * size); }
void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return track(__real_aligned_alloc(align, n), n);
}

void __wrap_free(void *p)
{
    if (!p) return;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < LIVE_MAX; i++)
        if (g_live[i].p == p) {
            g_bytes -= g_live[i].n;
            g_live[i].p = NULL;
            break;
        }
    pthread_mutex_unlock(&g_mu);
    __real_free(p);
}

static size_t peak_reset(void)
{
    pthread_mutex_lock(&g_mu);
    size_t peak = g_peak;
    g_peak = g_bytes;
    pthread_mutex_unlock(&g_mu);
    return peak;
}

enum mix { DENSE, BITS, HALF, MIXES };
static const char *const mix_name[MIXES] = {"dense", "mostly-bits", "half-width"};

/* Scalars: DENSE all below 2^254; BITS 9 in 10 are 0 or 1; HALF 127-bit. */
static void make_scalars(uint8_t *buf, size_t n, enum mix mix)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4] = {0};
        uint64_t r = test_rand64() % 10;
        if (mix == BITS && r < 9)
            k[0] = r & 1;
        else
            for (int j = 0; j < 4; j++) k[j] = test_rand64();
        if (mix == HALF) {
            k[1] >>= 1;
            k[2] = k[3] = 0;
        } else
            k[3] >>= 2;
        memcpy(buf + 32 * i, k, 32);
    }
}

/* Points need only be affine points of the group for the plan: copies of
 * the generator (the allocation does not depend on which). */
#define BYTES_TEST(G)                                                                              \
    static void G##_bytes_check(size_t n, int threads)                                             \
    {                                                                                              \
        G gen, out;                                                                                \
        G##_affine a;                                                                              \
        uint8_t *pts = malloc(n * sizeof a), *sc = malloc(32 * n);                                 \
        G##_generator(&gen);                                                                       \
        G##_to_affine(&a, &gen);                                                                   \
        for (size_t i = 0; i < n; i++) memcpy(pts + i * sizeof a, &a, sizeof a);                   \
        size_t est = G##_msm_scratch_bytes(n, threads), worst = 0;                                 \
        for (int m = 0; m < MIXES; m++) {                                                          \
            make_scalars(sc, n, (enum mix)m);                                                      \
            peak_reset();                                                                          \
            size_t base = g_bytes;                                                                 \
            G##_msm(&out, pts, sc, n, threads);                                                    \
            size_t peak = peak_reset() - base;                                                     \
            if (peak > worst) worst = peak;                                                        \
            CHECK(peak <= est);                                                                    \
            if (peak > est)                                                                        \
                fprintf(stderr, "  %s n=%zu threads=%d %s: peak %zu > estimate %zu\n", #G, n,      \
                        threads, mix_name[m], peak, est);                                          \
        }                                                                                          \
        printf("%-14s n=%-6zu threads=%d estimate %9zu B, worst peak %9zu B (%.2fx)\n", #G, n,     \
               threads, est, worst, worst ? (double)est / (double)worst : 0.0);                    \
        CHECK((double)est <= SLACK * (double)worst);                                               \
        free(pts);                                                                                 \
        free(sc);                                                                                  \
    }

BYTES_TEST(bn254_g1)
BYTES_TEST(bn254_g2)
BYTES_TEST(bls12_381_g1)
BYTES_TEST(bls12_381_g2)

int main(int argc, char **argv)
{
    int small = argc > 1 && strcmp(argv[1], "small") == 0;
    static const size_t sizes[] = {200, 5000, 1 << 15};
    static const int threads[] = {1, 2, 8};
    size_t ns = small ? 2 : 3;
    for (size_t i = 0; i < ns; i++)
        for (int t = 0; t < 3; t++) {
            bn254_g1_bytes_check(sizes[i], threads[t]);
            bls12_381_g1_bytes_check(sizes[i], threads[t]);
            if (sizes[i] <= 5000) { /* G2 costs ~3x per point */
                bn254_g2_bytes_check(sizes[i], threads[t]);
                bls12_381_g2_bytes_check(sizes[i], threads[t]);
            }
        }
    CHECK(bn254_g1_msm_scratch_bytes(0, 4) == 0);
    CHECK(bn254_g1_msm_scratch_bytes(1, 4) == 0);
    /* many threads: the per-thread buckets dominate, so the estimate grows */
    CHECK(bn254_g2_msm_scratch_bytes(1 << 14, 64) > 8 * bn254_g2_msm_scratch_bytes(1 << 14, 2));
    CHECK(!g_overflow);
    return test_finish("msm_bytes");
}
