/* GPU backend against the CPU libraries, bit for bit: MSM (g16_msm) on many
 * sizes and edge inputs for all four groups, NTT (g16_ntt) forward, inverse
 * and the coset round trip for both scalar fields.  Exits 77 (skipped)
 * without a usable GPU.
 *
 * Built a second time with GPU_EMULATE as test_gpu_emulate: the MSM kernels'
 * code run on the CPU (gpu_*_msm_emulate) against the CPU MSM on small
 * sizes, so the pipeline's logic is checked on machines without a GPU. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../common/test.h"
#include "gpu/gpu.h"
#include "gpu/internal.h"
#include "gpu_testlib.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#ifdef GPU_EMULATE
#include "gpu_stream_emu.h"
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static char err[256];
/* > 1: the MSMs run on a table of this many shift copies (copies_checks). */
static int test_copies = 1;

/* Below r: top bits cleared (r > 2^253 for both curves). */
static void small_scalar(uint8_t *s) { tl_scalar(s, 253); }

static void r_minus(uint8_t *s, const uint64_t *order, uint64_t k)
{
    uint64_t v[4];
    memcpy(v, order, 32);
    v[0] -= k; /* no borrow: the low limbs of both orders exceed 2 */
    memcpy(s, v, 32);
}

/* mode 0: random scalars (1/8 of them full 256-bit, so >= r is reduced);
 * 1: edge mix (0, 1, r-1, repeated points, infinity); 2: all r-1;
 * 3: only 0 and 1; 4: three distinct points and scalars +-1..3, so buckets
 * hold equal points (doublings) and opposite ones (sums at infinity). */
#define MSM_MODES 5
static void make_scalars(uint8_t *sc, uint8_t *pts, size_t psz, size_t n, int mode,
                         const uint64_t *order)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t *s = sc + 32 * i;
        if (mode == 2) {
            r_minus(s, order, 1);
            continue;
        }
        if (mode == 3) {
            memset(s, 0, 32);
            s[0] = tl_rand() & 1;
            continue;
        }
        if (mode == 4) {
            uint64_t k = 1 + tl_rand() % 3;
            if (tl_rand() & 1)
                r_minus(s, order, k);
            else {
                memset(s, 0, 32);
                s[0] = (uint8_t)k;
            }
            if (i >= 3) memcpy(pts + i * psz, pts + (i % 3) * psz, psz);
            continue;
        }
        if (tl_rand() % 8 == 0)
            tl_scalar(s, 256);
        else
            small_scalar(s);
        if (mode != 1) continue;
        switch (tl_rand() % 6) {
        case 0: memset(s, 0, 32); break;
        case 1:
            memset(s, 0, 32);
            s[0] = 1;
            break;
        case 2: r_minus(s, order, 1); break;
        case 3:
            if (i) memcpy(pts + i * psz, pts + (i - 1) * psz, psz);
            break;
        case 4: memset(pts + i * psz, 0, psz); break;
        default: break;
        }
    }
}

#define MSM_CHECK(G, CURVE, FN)                                                                    \
    static void G##_check(size_t n, int mode)                                                      \
    {                                                                                              \
        size_t psz = sizeof(G##_affine);                                                           \
        uint8_t *pts = malloc(n * psz + 1), *sc = malloc(32 * n + 1), out[sizeof(G##_affine)];     \
        G ref;                                                                                     \
        G##_affine ra;                                                                             \
        G##_tl_points(pts, n, 1 + tl_rand() % 1000003, 1 + tl_rand() % 1000003);                   \
        make_scalars(sc, pts, psz, n, mode, G##_order);                                            \
        G##_msm(&ref, pts, sc, n, 0);                                                              \
        G##_to_affine(&ra, &ref);                                                                  \
        int rc = FN(CURVE, pts, sc, n, out, err, sizeof err);                                      \
        if (rc) fprintf(stderr, "%s\n", err);                                                      \
        CHECK(rc == 0);                                                                            \
        if (memcmp(out, &ra, psz) != 0) {                                                          \
            fprintf(stderr, #G " MSM mismatch: n=%zu mode=%d\n", n, mode);                         \
            CHECK(0);                                                                              \
        }                                                                                          \
        free(pts);                                                                                 \
        free(sc);                                                                                  \
    }

#ifdef GPU_EMULATE
#define NTT_FN(c, d, l, f) gpu_ntt_emulate(c, d, l, f)
#else
#define NTT_FN(c, d, l, f) gpu_ntt(c, d, l, f, err, sizeof err)
#endif
/* Which side of an NTT mismatch the host emulation of the device's
 * transform (tables built afresh for the call) agrees with: names what
 * went wrong, the device's tables or the CPU reference's. */
static const char *ntt_blame(int curve, const uint8_t *in, const uint8_t *cpu, const uint8_t *dev,
                             unsigned log_n, int flags)
{
    size_t bytes = (size_t)32 << log_n;
    uint8_t *e = malloc(bytes);
    memcpy(e, in, bytes);
    int rc = flags >= 0 ? gpu_ntt_emulate(curve, e, (int)log_n, flags)
                        : gpu_ntt_emulate(curve, e, (int)log_n, GPU_NTT_INVERSE) ||
                              gpu_ntt_emulate(curve, e, (int)log_n, GPU_NTT_COSET);
    const char *who = rc                       ? " (emulation failed)"
                      : !memcmp(e, cpu, bytes) ? " (the emulation agrees with the CPU)"
                      : !memcmp(e, dev, bytes) ? " (the emulation agrees with the device)"
                                               : " (the emulation agrees with neither)";
    free(e);
    return who;
}

#define NTT_CHECK(FR, CURVE)                                                                       \
    static void FR##_ntt_check(unsigned log_n)                                                     \
    {                                                                                              \
        size_t n = (size_t)1 << log_n, bytes = n * 32;                                             \
        FR *x = malloc(bytes), *y = malloc(bytes);                                                 \
        uint8_t *in = malloc(bytes);                                                               \
        for (size_t i = 0; i < n; i++) small_scalar((uint8_t *)&x[i]);                             \
        static const int flags[4] = {0, GPU_NTT_INVERSE, -1, GPU_NTT_ROUND_TRIP};                  \
        for (int f = 0; f < 4; f++) {                                                              \
            memcpy(y, x, bytes);                                                                   \
            memcpy(in, x, bytes);                                                                  \
            int rc;                                                                                \
            if (flags[f] >= 0)                                                                     \
                rc = NTT_FN(CURVE, (uint8_t *)y, (int)log_n, flags[f]);                            \
            else                                                                                   \
                rc = NTT_FN(CURVE, (uint8_t *)y, (int)log_n, GPU_NTT_INVERSE) ||                   \
                     NTT_FN(CURVE, (uint8_t *)y, (int)log_n, GPU_NTT_COSET);                       \
            if (rc) fprintf(stderr, "%s\n", err);                                                  \
            CHECK(rc == 0);                                                                        \
            if (f == 0)                                                                            \
                FR##_ntt(x, log_n, 0);                                                             \
            else if (f == 1)                                                                       \
                FR##_intt(x, log_n, 0);                                                            \
            else                                                                                   \
                FR##_coset_odd(x, log_n, 0);                                                       \
            if (memcmp(x, y, bytes) != 0) {                                                        \
                fprintf(stderr, #FR " NTT mismatch: log_n=%u kind=%d%s\n", log_n, f,               \
                        ntt_blame(CURVE, in, (uint8_t *)x, (uint8_t *)y, log_n, flags[f]));        \
                CHECK(0);                                                                          \
            }                                                                                      \
        }                                                                                          \
        free(x);                                                                                   \
        free(y);                                                                                   \
        free(in);                                                                                  \
    }

NTT_CHECK(bn254_fr, FORMATS_CURVE_BN128)
NTT_CHECK(bls12_381_fr, FORMATS_CURVE_BLS12381)

/* Every group in every scalar mode (G2 and BLS12-381 at smaller sizes). */
#define ALL_GROUPS                                                                                 \
    static void all_groups(size_t n_g1, size_t n_g2)                                               \
    {                                                                                              \
        for (int mode = 0; mode < MSM_MODES; mode++) {                                             \
            bn254_g1_check(n_g1, mode);                                                            \
            bls12_381_g1_check(n_g1 / 3 + 1, mode);                                                \
            bn254_g2_check(n_g2, mode);                                                            \
            bls12_381_g2_check(n_g2 / 2 + 1, mode);                                                \
        }                                                                                          \
    }

/* Tables of shift copies, every group and scalar mode: a few copies
 * (several window groups, Horner between them) or as many as windows or
 * more (one bucket set); window forces c (0: the cost model's).  Copies
 * are slow to make in the emulation (doublings, an inversion a batch of
 * 8), so it runs few. */
#define COPIES_CHECKS                                                                              \
    static void copies_checks(size_t n_g1, size_t n_g2, int window, const int *copies,             \
                              int ncopies)                                                         \
    {                                                                                              \
        gpu_tune.msm_window = window;                                                              \
        for (int k = 0; k < ncopies; k++) {                                                        \
            test_copies = copies[k];                                                               \
            all_groups(n_g1, n_g2);                                                                \
        }                                                                                          \
        test_copies = 1;                                                                           \
        gpu_tune.msm_window = 0;                                                                   \
    }

/* A batch of sets MSMs over the same n points (one pass: the proof batch's
 * MSMs) against sets single MSMs, bit for bit.  Set s's scalars start at
 * s stride (stride > n: gaps, as the C MSM's sets have in a proof batch)
 * and use scalar mode s % MSM_MODES, so edge scalars (0, 1: the per-set
 * ones slot) and plain ones share a batch.  batch_fn and single_fn are the
 * build's (device or emulation). */
#define BATCH_CHECK(G, CURVE, G2)                                                                  \
    static void G##_batch_check(size_t n, int sets, size_t stride)                                 \
    {                                                                                              \
        size_t psz = sizeof(G##_affine);                                                           \
        uint8_t *pts = malloc(n * psz + 1), *sc = calloc((size_t)sets * stride + 1, 32);           \
        uint8_t *outs = malloc((size_t)sets * psz), one[sizeof(G##_affine)];                       \
        G##_tl_points(pts, n, 1 + tl_rand() % 1000003, 1 + tl_rand() % 1000003);                   \
        for (int s = 0; s < sets; s++)                                                             \
            make_scalars(sc + 32 * s * stride, pts, psz, n, s % MSM_MODES, G##_order);             \
        int rc = batch_fn(CURVE, G2, pts, sc, n, sets, stride, outs);                              \
        if (rc) fprintf(stderr, "%s\n", err);                                                      \
        CHECK(rc == 0);                                                                            \
        for (int s = 0; s < sets && rc == 0; s++) {                                                \
            CHECK(single_fn(CURVE, G2, pts, sc + 32 * s * stride, n, one) == 0);                   \
            if (memcmp(one, outs + s * psz, psz) != 0) {                                           \
                fprintf(stderr, #G " batch mismatch: n=%zu sets=%d set %d\n", n, sets, s);         \
                CHECK(0);                                                                          \
            }                                                                                      \
        }                                                                                          \
        free(pts);                                                                                 \
        free(sc);                                                                                  \
        free(outs);                                                                                \
    }
#define BATCH_CHECKS                                                                               \
    BATCH_CHECK(bn254_g1, FORMATS_CURVE_BN128, 0)                                                  \
    BATCH_CHECK(bn254_g2, FORMATS_CURVE_BN128, 1)                                                  \
    BATCH_CHECK(bls12_381_g1, FORMATS_CURVE_BLS12381, 0)                                           \
    BATCH_CHECK(bls12_381_g2, FORMATS_CURVE_BLS12381, 1)                                           \
    static void batch_checks(size_t n_g1, size_t n_g2, int gap)                                    \
    {                                                                                              \
        static const int sets[] = {1, 2, 3, 5};                                                    \
        for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {                                  \
            bn254_g1_batch_check(n_g1, sets[k], n_g1 + gap);                                       \
            bls12_381_g1_batch_check(n_g1, sets[k], n_g1 + gap);                                   \
            bn254_g2_batch_check(n_g2, sets[k], n_g2 + gap);                                       \
            bls12_381_g2_batch_check(n_g2, sets[k], n_g2 + gap);                                   \
        }                                                                                          \
    }

#ifdef GPU_EMULATE
/* A chunked MSM (the schedule of a key that does not fit the device
 * whole: each chunk's MSM, the results added) against the whole MSM, bit
 * for bit, with chunks that divide n, that leave a short last chunk, of
 * one point, and as large as n. */
#define CHUNK_CHECK(G, CURVE, G2)                                                                  \
    static void G##_chunk_check(size_t n, int mode)                                                \
    {                                                                                              \
        static const size_t chunks[] = {1, 7, 25, 64};                                             \
        size_t psz = sizeof(G##_affine);                                                           \
        uint8_t *pts = malloc(n * psz), *sc = malloc(n * 32), whole[sizeof(G##_affine)];           \
        uint8_t part[sizeof(G##_affine)];                                                          \
        G##_tl_points(pts, n, 1 + tl_rand() % 1000003, 1 + tl_rand() % 1000003);                   \
        make_scalars(sc, pts, psz, n, mode, G##_order);                                            \
        CHECK(gpu_msm_batch_emulate(CURVE, G2, pts, sc, n, 1, n, 1, whole) == 0);                  \
        for (size_t k = 0; k < sizeof chunks / sizeof *chunks; k++) {                              \
            CHECK(gpu_msm_chunked_emulate(CURVE, G2, pts, sc, n, chunks[k], part) == 0);           \
            if (memcmp(part, whole, psz) != 0) {                                                   \
                fprintf(stderr, #G " chunked mismatch: n=%zu chunk=%zu mode=%d\n", n, chunks[k],   \
                        mode);                                                                     \
                CHECK(0);                                                                          \
            }                                                                                      \
        }                                                                                          \
        free(pts);                                                                                 \
        free(sc);                                                                                  \
    }
CHUNK_CHECK(bn254_g1, FORMATS_CURVE_BN128, 0)
CHUNK_CHECK(bn254_g2, FORMATS_CURVE_BN128, 1)
CHUNK_CHECK(bls12_381_g1, FORMATS_CURVE_BLS12381, 0)
CHUNK_CHECK(bls12_381_g2, FORMATS_CURVE_BLS12381, 1)
#endif

#ifdef GPU_EMULATE
/* A proof's five MSMs (A, B1, B2 in G2, C, H) through the chunked and
 * streamed schedule (gpu/msm_stream.h) as the device could order it
 * (gpu_stream_emu.h), each chunk through the kernels' code on the CPU into
 * its MSM's buckets, the chunk buffers real memory that the copies
 * overwrite: every result bit for bit the whole MSM's and the CPU's. */
#define CPU_AFFINE(G)                                                                              \
    static void G##_cpu_affine(const uint8_t *p, const uint8_t *s, size_t n, uint8_t *out)         \
    {                                                                                              \
        G r;                                                                                       \
        G##_affine a;                                                                              \
        G##_msm(&r, p, s, n, 0);                                                                   \
        G##_to_affine(&a, &r);                                                                     \
        memcpy(out, &a, sizeof a);                                                                 \
    }
CPU_AFFINE(bn254_g1)
CPU_AFFINE(bn254_g2)
CPU_AFFINE(bls12_381_g1)
CPU_AFFINE(bls12_381_g2)

enum { SX_MSMS = GPU_PLAN_MSMS, SX_OUT = 192 };
typedef struct {
    int curve, streamed, want[SX_MSMS];
    size_t count[SX_MSMS], chunk, psz[SX_MSMS];
    uint8_t *pts[SX_MSMS], *sc[SX_MSMS], *stage[SX_MSMS][2];
    gpu_msm_chunk_emu m[SX_MSMS];
    uint8_t out[SX_MSMS][SX_OUT], ref[SX_MSMS][SX_OUT];
} sx_run;

static int sx_copy(void *ctx, int i, int buf, size_t round)
{
    sx_run *r = ctx;
    size_t off, len = gpu_plan_slice(r->count[i], r->chunk, round, &off);
    memcpy(r->stage[i][buf], r->pts[i] + off * r->psz[i], len * r->psz[i]);
    return 0;
}

static int sx_chunk(void *ctx, int i, int buf, size_t round)
{
    sx_run *r = ctx;
    size_t off, len = gpu_plan_slice(r->count[i], r->chunk, round, &off);
    const uint8_t *pts = r->streamed ? r->stage[i][buf] : r->pts[i] + off * r->psz[i];
    return gpu_msm_chunk_emulate_add(&r->m[i], round == 0, pts, r->sc[i] + off * 32, len);
}

static int sx_finish(void *ctx, int i)
{
    sx_run *r = ctx;
    return gpu_msm_chunk_emulate_end(&r->m[i], r->count[i], r->out[i]);
}

/* One schedule of r's MSMs under policy; 0 when each wanted result is
 * its reference. */
static int sx_schedule(sx_run *r, int policy, unsigned seed)
{
    size_t n = gpu_sq_build(r->count, r->want, r->chunk, r->streamed, NULL, 0);
    gpu_sq_op *ops = malloc((n ? n : 1) * sizeof *ops);
    int deadlock = 0, rc = 0;
    gpu_sq_build(r->count, r->want, r->chunk, r->streamed, ops, n);
    memset(r->out, 0x5a, sizeof r->out);
    for (int i = 0; i < SX_MSMS; i++) {
        size_t part = gpu_plan_min(r->chunk, r->count[i]);
        int c = gpu_msm_copies_for(r->curve, i == 2).window(part, 1);
        r->stage[i][0] = malloc(part * r->psz[i] + 1);
        r->stage[i][1] = malloc(part * r->psz[i] + 1);
        memset(r->stage[i][0], 0x33, part * r->psz[i] + 1); /* stale data, never a point */
        memset(r->stage[i][1], 0x33, part * r->psz[i] + 1);
        r->m[i].buckets = NULL;
        if (r->want[i]) rc |= gpu_msm_chunk_emulate_begin(&r->m[i], r->curve, i == 2, c);
    }
    se_hooks h = {sx_copy, sx_chunk, sx_finish, r};
    rc = rc || se_run(ops, n, policy, seed, &h, &deadlock);
    for (int i = 0; i < SX_MSMS; i++) {
        free(r->stage[i][0]);
        free(r->stage[i][1]);
        free(r->m[i].buckets); /* left by a failed run only */
        if (!rc && r->want[i] && memcmp(r->out[i], r->ref[i], r->psz[i]) != 0) rc = -1;
    }
    free(ops);
    return rc;
}

/* r's points, scalars and references (the whole emulated MSM, which must
 * be the CPU's) for the curve's groups and scalar mode. */
static void sx_make(sx_run *r, int curve, const size_t *count, int mode)
{
    const uint64_t *order = curve == FORMATS_CURVE_BN128 ? bn254_g1_order : bls12_381_g1_order;
    memset(r, 0, sizeof *r);
    r->curve = curve;
    for (int i = 0; i < SX_MSMS; i++) {
        size_t n = count[i];
        r->count[i] = n;
        r->psz[i] = i == 2 ? gpu_g2_bytes(curve) : gpu_g1_bytes(curve);
        r->pts[i] = malloc(n * r->psz[i] + 1);
        r->sc[i] = malloc(32 * n + 1);
        if (i != 2)
            tl_g1_points(curve, r->pts[i], n, 3 + 2 * (uint64_t)i);
        else if (curve == FORMATS_CURVE_BN128)
            bn254_g2_tl_points(r->pts[i], n, 23, 7);
        else
            bls12_381_g2_tl_points(r->pts[i], n, 23, 7);
        make_scalars(r->sc[i], r->pts[i], r->psz[i], n, mode, order);
        uint8_t cpu[SX_OUT];
        CHECK(gpu_msm_batch_emulate(curve, i == 2, r->pts[i], r->sc[i], n, 1, n, 1, r->ref[i]) ==
              0);
        if (curve == FORMATS_CURVE_BN128 && i == 2)
            bn254_g2_cpu_affine(r->pts[i], r->sc[i], n, cpu);
        if (curve == FORMATS_CURVE_BN128 && i != 2)
            bn254_g1_cpu_affine(r->pts[i], r->sc[i], n, cpu);
        if (curve != FORMATS_CURVE_BN128 && i == 2)
            bls12_381_g2_cpu_affine(r->pts[i], r->sc[i], n, cpu);
        if (curve != FORMATS_CURVE_BN128 && i != 2)
            bls12_381_g1_cpu_affine(r->pts[i], r->sc[i], n, cpu);
        CHECK(memcmp(cpu, r->ref[i], r->psz[i]) == 0);
    }
}

static void sx_free(sx_run *r)
{
    for (int i = 0; i < SX_MSMS; i++) {
        free(r->pts[i]);
        free(r->sc[i]);
    }
}

/* Chunks that leave short last chunks, that divide H, of one round for
 * the small MSMs; resident and streamed (under each order the device may
 * choose: with no copies there is only one); B2 on and skipped; C with
 * fewer points than A (so fewer rounds), H with more; edge scalars and
 * repeated points (modes 1 and 4). */
static void msm_stream(void)
{
    static const size_t count[SX_MSMS] = {150, 150, 40, 131, 256};
    static const size_t chunks[] = {7, 32, 64};
    static const int curves[] = {FORMATS_CURVE_BN128, FORMATS_CURVE_BLS12381};
    static const int modes[] = {1, 4};
    sx_run r;
    for (size_t cv = 0; cv < 2; cv++)
        for (size_t md = 0; md < 2; md++) {
            sx_make(&r, curves[cv], count, modes[md]);
            for (size_t k = 0; k < sizeof chunks / sizeof *chunks; k++)
                for (int streamed = 0; streamed < 2; streamed++)
                    for (int policy = 0; policy <= (streamed ? SE_RANDOM : 0); policy++) {
                        int b2 = policy != SE_COMPUTE_FIRST && (streamed || k != 1);
                        r.chunk = chunks[k];
                        r.streamed = streamed;
                        for (int i = 0; i < SX_MSMS; i++) r.want[i] = i != 2 || b2;
                        if (sx_schedule(&r, policy, 7 + (unsigned)k) == 0) continue;
                        fprintf(stderr,
                                "streamed schedule mismatch: curve %d mode %d chunk %zu streamed "
                                "%d policy %d B2 %d\n",
                                curves[cv], modes[md], chunks[k], streamed, policy, b2);
                        CHECK(0);
                    }
            sx_free(&r);
        }
}
#endif

/* The field sequences (the products, a b - c d, Fq2) on the device,
 * and through the emulated instructions, against the CIOS reference. */
static void field_checks(int on_device, size_t n)
{
    int rc = gpu_field_check(on_device, n, err, sizeof err);
    if (rc) printf("field check (%s): %s\n", on_device ? "device" : "emulated", err);
    CHECK(rc == 0);
}

#ifdef GPU_EMULATE
#define EMU(G)                                                                                     \
    static int G##_emu(int curve, const uint8_t *p, const uint8_t *s, size_t n, uint8_t *out,      \
                       char *e, size_t el)                                                         \
    {                                                                                              \
        (void)curve;                                                                               \
        if (gpu_##G##_msm_emulate_copies(p, s, n, test_copies, out) == 0) return 0;                \
        snprintf(e, el, "emulation out of memory");                                                \
        return -1;                                                                                 \
    }
EMU(bn254_g1)
EMU(bn254_g2)
EMU(bls12_381_g1)
EMU(bls12_381_g2)
MSM_CHECK(bn254_g1, FORMATS_CURVE_BN128, bn254_g1_emu)
MSM_CHECK(bn254_g2, FORMATS_CURVE_BN128, bn254_g2_emu)
MSM_CHECK(bls12_381_g1, FORMATS_CURVE_BLS12381, bls12_381_g1_emu)
MSM_CHECK(bls12_381_g2, FORMATS_CURVE_BLS12381, bls12_381_g2_emu)
ALL_GROUPS
COPIES_CHECKS
static const int few_copies[] = {2, 7}, one_group[] = {16};

static int batch_fn(int curve, int g2, const uint8_t *p, const uint8_t *s, size_t n, int sets,
                    size_t stride, uint8_t *outs)
{
    snprintf(err, sizeof err, "emulation out of memory");
    return gpu_msm_batch_emulate(curve, g2, p, s, n, sets, stride, test_copies, outs);
}

static int single_fn(int curve, int g2, const uint8_t *p, const uint8_t *s, size_t n, uint8_t *out)
{
    if (curve == FORMATS_CURVE_BN128)
        return (g2 ? bn254_g2_emu : bn254_g1_emu)(curve, p, s, n, out, err, sizeof err);
    return (g2 ? bls12_381_g2_emu : bls12_381_g1_emu)(curve, p, s, n, out, err, sizeof err);
}
BATCH_CHECKS

/* The proof's h (a, b from random coefficients, c = a b, coset round
 * trips, a b - c in plain form) against the CPU prover's recipe. */
#define H_CHECK(FR, CURVE)                                                                         \
    static void FR##_h_check(unsigned log_n)                                                       \
    {                                                                                              \
        size_t n = (size_t)1 << log_n, nv = 50, nc = 4 * n + 3;                                    \
        uint8_t *coefs = malloc(nc * 44), *w = malloc(nv * 32), *abc = malloc(3 * n * 32);         \
        FR *a = calloc(n, sizeof(FR)), *b = calloc(n, sizeof(FR)), *c = malloc(n * sizeof(FR));    \
        uint32_t *row_ptr[2], *sig[2];                                                             \
        uint8_t *val[2];                                                                           \
        for (size_t i = 0; i < nv; i++) small_scalar(w + 32 * i);                                  \
        for (size_t i = 0; i < nc; i++) {                                                          \
            uint32_t e[3] = {(uint32_t)(tl_rand() & 1), (uint32_t)(tl_rand() % n),                 \
                             (uint32_t)(tl_rand() % nv)};                                          \
            FR v, x, *row;                                                                         \
            memcpy(coefs + 44 * i, e, 12);                                                         \
            small_scalar(coefs + 44 * i + 12);                                                     \
            memcpy(&v, coefs + 44 * i + 12, 32);                                                   \
            memcpy(&x, w + 32 * e[2], 32);                                                         \
            FR##_mul(&x, &v, &x);                                                                  \
            row = e[0] ? &b[e[1]] : &a[e[1]];                                                      \
            FR##_add(row, row, &x);                                                                \
        }                                                                                          \
        for (size_t i = 0; i < n; i++) FR##_mul(&c[i], &a[i], &b[i]);                              \
        FR##_coset_odd(a, log_n, 1);                                                               \
        FR##_coset_odd(b, log_n, 1);                                                               \
        FR##_coset_odd(c, log_n, 1);                                                               \
        for (size_t i = 0; i < n; i++) {                                                           \
            FR##_mul(&a[i], &a[i], &b[i]);                                                         \
            FR##_sub(&a[i], &a[i], &c[i]);                                                         \
            FR##_to_plain(&a[i], &a[i]);                                                           \
        }                                                                                          \
        CHECK(gpu_coefs_csr(coefs, nc, n, row_ptr, sig, val) == 0);                                \
        CHECK(gpu_build_h_emulate(CURVE, abc, row_ptr, sig, val, w, (int)log_n) == 0);             \
        if (memcmp(abc, a, n * 32) != 0) {                                                         \
            fprintf(stderr, #FR " h mismatch: log_n=%u\n", log_n);                                 \
            CHECK(0);                                                                              \
        }                                                                                          \
        for (int m = 0; m < 2; m++) {                                                              \
            free(row_ptr[m]);                                                                      \
            free(sig[m]);                                                                          \
            free(val[m]);                                                                          \
        }                                                                                          \
        free(coefs);                                                                               \
        free(w);                                                                                   \
        free(abc);                                                                                 \
        free(a);                                                                                   \
        free(b);                                                                                   \
        free(c);                                                                                   \
    }

H_CHECK(bn254_fr, FORMATS_CURVE_BN128)
H_CHECK(bls12_381_fr, FORMATS_CURVE_BLS12381)

/* The emulated checks in phases: the default run (label gpu-emulate,
 * part of `make test`) keeps every code path on small sizes; --large adds
 * the sizes that take minutes on two cores (label gpu-emulate-large). */
static void msm_sizes(const size_t *sizes, size_t count)
{
    for (size_t k = 0; k < count; k++)
        for (int mode = 0; mode < MSM_MODES; mode++) {
            bn254_g1_check(sizes[k], mode);
            bls12_381_g1_check(sizes[k], mode);
            if (sizes[k] <= 1000) {
                bn254_g2_check(sizes[k], mode);
                bls12_381_g2_check(sizes[k], mode);
            }
        }
}

static void msm_small(void)
{
    static const size_t sizes[] = {1, 2, 3, 5, 16, 33, 100, 257};
    msm_sizes(sizes, sizeof sizes / sizeof *sizes);
}

static void msm_large(void)
{
    static const size_t sizes[] = {1000, 3001};
    msm_sizes(sizes, sizeof sizes / sizeof *sizes);
}

static void msm_windows(void)
{
    static const int windows[] = {11, 13, 16};
    for (size_t k = 0; k < sizeof windows / sizeof *windows; k++) {
        gpu_tune.msm_window = windows[k];
        bn254_g1_check(3001, 0);
        bls12_381_g1_check(3001, 1);
        bn254_g2_check(500, 1);
    }
    gpu_tune.msm_window = 0;
}

static void msm_copies(void)
{
    copies_checks(300, 40, 0, few_copies, 2);
    copies_checks(200, 30, 16, one_group, 1); /* 16 windows of 16 bits */
}

static void ntt_small(void)
{
    for (unsigned log_n = 0; log_n <= 12; log_n++) {
        bn254_fr_ntt_check(log_n);
        bls12_381_fr_ntt_check(log_n);
    }
    for (unsigned log_n = 1; log_n <= 10; log_n += 3) {
        bn254_fr_h_check(log_n);
        bls12_381_fr_h_check(log_n);
    }
}

static void ntt_large(void)
{
    /* three passes (6 + 6 + 5 levels): only a middle pass has column
     * twiddles shifted by s0 > 0 and blocks past the first 2^(L - s0)
     * group */
    bn254_fr_ntt_check(17);
    bls12_381_fr_ntt_check(17);
    /* 8 + 7 levels: warp passes (a column a warp, swizzled slots) */
    bn254_fr_ntt_check(15);
    bls12_381_fr_ntt_check(15);
}

static void fields(void) { field_checks(0, 4096); }

/* Every scalar mode: mode 4's repeated points put equal and opposite
 * points into one chunk's buckets and across chunks. */
static void msm_chunks(void)
{
    for (int mode = 0; mode < MSM_MODES; mode++) {
        bn254_g1_chunk_check(150, mode);
        bls12_381_g1_chunk_check(100, mode);
        bn254_g2_chunk_check(64, mode);
        bls12_381_g2_chunk_check(50, mode);
    }
}

/* Batches of 1, 2, 3, 5 scalar sets (gaps of 7 scalars between sets),
 * then a forced wide window, where a set's buckets are many, then on a
 * table of 3 shift copies (a key loaded with --gpu-copies). */
static void msm_batch(void)
{
    batch_checks(150, 40, 7);
    gpu_tune.msm_window = 13;
    batch_checks(300, 60, 0);
    gpu_tune.msm_window = 0;
    test_copies = 3;
    batch_checks(60, 20, 5);
    test_copies = 1;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
        int large;
    } phases[] = {{"fields", fields, 0},           {"msm small", msm_small, 0},
                  {"msm copies", msm_copies, 0},   {"msm batch", msm_batch, 0},
                  {"ntt small", ntt_small, 0},     {"msm chunks", msm_chunks, 0},
                  {"msm stream", msm_stream, 0},   {"msm large", msm_large, 1},
                  {"msm windows", msm_windows, 1}, {"ntt large", ntt_large, 1}};
    int large = argc == 2 && !strcmp(argv[1], "--large");
    if (argc > 2 || (argc == 2 && !large)) {
        fprintf(stderr, "usage: test_gpu_emulate [--large]\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof phases / sizeof *phases; i++) {
        if (phases[i].large != large) continue;
        double t0 = now();
        phases[i].run();
        printf("%s: %.1f s\n", phases[i].name, now() - t0);
    }
    return test_finish(large ? "test_gpu_emulate --large" : "test_gpu_emulate");
}
#else
static int msm_g1(int curve, const uint8_t *p, const uint8_t *s, size_t n, uint8_t *out, char *e,
                  size_t el)
{
    return gpu_msm_copies(curve, 0, p, s, n, test_copies, out, e, el);
}
static int msm_g2(int curve, const uint8_t *p, const uint8_t *s, size_t n, uint8_t *out, char *e,
                  size_t el)
{
    return gpu_msm_copies(curve, 1, p, s, n, test_copies, out, e, el);
}
MSM_CHECK(bn254_g1, FORMATS_CURVE_BN128, msm_g1)
MSM_CHECK(bn254_g2, FORMATS_CURVE_BN128, msm_g2)
MSM_CHECK(bls12_381_g1, FORMATS_CURVE_BLS12381, msm_g1)
MSM_CHECK(bls12_381_g2, FORMATS_CURVE_BLS12381, msm_g2)
ALL_GROUPS
COPIES_CHECKS
static const int any_copies[] = {2, 5, 64};

/* On the device the sets lie back to back (stride n). */
static int batch_fn(int curve, int g2, const uint8_t *p, const uint8_t *s, size_t n, int sets,
                    size_t stride, uint8_t *outs)
{
    if (stride != n) {
        snprintf(err, sizeof err, "batch_fn: stride %zu != n %zu", stride, n);
        return -1;
    }
    return gpu_msm_batch(curve, g2, p, s, n, sets, outs, err, sizeof err);
}

static int single_fn(int curve, int g2, const uint8_t *p, const uint8_t *s, size_t n, uint8_t *out)
{
    return gpu_msm_copies(curve, g2, p, s, n, 1, out, err, sizeof err);
}
BATCH_CHECKS

/* Whole proofs' MSMs on a synthetic key: a batch of sets proofs
 * (gpu_prove_msms_batch, with and without B2) against one proof at a
 * time (gpu_prove_msms), all five results bit for bit; then two threads
 * proving at once (the key's two lanes) against the same. */
#define PROOF_OUTS 5
typedef struct {
    gpu_key *k;
    const uint8_t *w;
    uint8_t out[PROOF_OUTS][192];
    int rc;
} prove_arg;

static void *prove_one(void *arg)
{
    prove_arg *p = arg;
    char e[256];
    uint8_t(*o)[192] = p->out;
    p->rc = gpu_prove_msms(p->k, p->w, o[0], o[1], o[2], o[3], o[4], NULL, e, sizeof e);
    if (p->rc) fprintf(stderr, "%s\n", e);
    return NULL;
}

static void prove_batch_check(int curve, int log_n, size_t n_vars)
{
    enum { SETS = 5 };
    tl_key tk;
    gpu_key_desc d;
    tl_key_make(&tk, &d, curve, log_n, n_vars);
    d.lanes = 2;
    gpu_key *k = gpu_key_upload(&d, NULL, err, sizeof err);
    CHECK(k != NULL);
    if (!k) {
        fprintf(stderr, "%s\n", err);
        tl_key_free(&tk);
        return;
    }
    uint8_t *w = malloc(SETS * n_vars * 32);
    for (size_t i = 0; i < SETS * n_vars; i++) small_scalar(w + 32 * i);
    prove_arg one[SETS];
    for (int s = 0; s < SETS; s++) {
        one[s] = (prove_arg){k, w + s * n_vars * 32, {{0}}, 0};
        prove_one(&one[s]);
        CHECK(one[s].rc == 0);
    }
    static const int sizes[] = {1, 2, 3, 5};
    for (int skip_b2 = 0; skip_b2 < 2; skip_b2++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            gpu_proof_io io[SETS];
            uint8_t out[SETS][PROOF_OUTS][192];
            memset(out, 0, sizeof out);
            for (int s = 0; s < sizes[z]; s++)
                io[s] = (gpu_proof_io){w + s * n_vars * 32,        out[s][0], out[s][1],
                                       skip_b2 ? NULL : out[s][2], out[s][3], out[s][4]};
            CHECK(gpu_prove_msms_batch(k, sizes[z], io, NULL, err, sizeof err) == 0);
            for (int s = 0; s < sizes[z]; s++)
                for (int i = 0; i < PROOF_OUTS; i++) {
                    if (skip_b2 && i == 2) continue;
                    if (memcmp(out[s][i], one[s].out[i], 192) != 0) {
                        fprintf(stderr,
                                "proof batch mismatch: curve %d 2^%d sets %d proof %d msm %d\n",
                                curve, log_n, sizes[z], s, i);
                        CHECK(0);
                    }
                }
        }
    prove_arg two[2] = {{k, w, {{0}}, 0}, {k, w + n_vars * 32, {{0}}, 0}};
    pthread_t th[2];
    for (int t = 0; t < 2; t++) CHECK(pthread_create(&th[t], NULL, prove_one, &two[t]) == 0);
    for (int t = 0; t < 2; t++) {
        pthread_join(th[t], NULL);
        CHECK(two[t].rc == 0 && memcmp(two[t].out, one[t].out, sizeof two[t].out) == 0);
    }
    gpu_key_free(k);
    free(w);
    tl_key_free(&tk);
}

/* A streamed key whose five point arrays lie in one block of anonymous
 * memory (as a zkey's buffer read by g16_file_read, with a section header
 * between arrays) pins them there: no pinned copy, the whole key's proof. */
static void prove_in_place_check(const gpu_key_desc *d0, const gpu_mem_need *need, const uint8_t *w,
                                 uint8_t (*whole)[192])
{
    gpu_key_desc d = *d0;
    size_t g1 = d.curve == FORMATS_CURVE_BN128 ? 64 : 96, n = (size_t)1 << d.domain_log;
    const uint8_t *src[5] = {d.a, d.b1, d.b2, d.c, d.h};
    size_t len[5] = {d.n_vars * g1, d.n_vars * g1, d.n_vars * 2 * g1,
                     (d.n_vars - d.n_public - 1) * g1, n * g1};
    size_t total = 0;
    for (int i = 0; i < 5; i++) total += 12 + len[i];
    uint8_t *block = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(block != MAP_FAILED);
    if (block == MAP_FAILED) return;
    const uint8_t **dst[5] = {&d.a, &d.b1, &d.b2, &d.c, &d.h};
    size_t at = 0;
    for (int i = 0; i < 5; i++) {
        memcpy(block + at + 12, src[i], len[i]);
        *dst[i] = block + at + 12;
        at += 12 + len[i];
    }
    d.host_buf = block;
    d.host_len = total;
    d.device_budget = gpu_plan_bytes(need, GPU_PLAN_MIN_CHUNK, 1);
    uint8_t got[PROOF_OUTS][192];
    memset(got, 0xa5, sizeof got);
    gpu_key *k = gpu_key_upload(&d, NULL, err, sizeof err);
    CHECK(k != NULL);
    if (k) {
        CHECK(gpu_key_memory_mode(k, NULL) == GPU_MEM_STREAMED);
        CHECK(gpu_key_host_copied(k) == 0);
        int rc =
            gpu_prove_msms(k, w, got[0], got[1], got[2], got[3], got[4], NULL, err, sizeof err);
        if (rc) fprintf(stderr, "%s\n", err);
        CHECK(rc == 0 && memcmp(got, whole, sizeof got) == 0);
        gpu_key_free(k);
    } else
        fprintf(stderr, "in place: %s\n", err);
    munmap(block, total);
}

/* A key uploaded under device budgets that force chunked MSMs (chunks of
 * GPU_PLAN_MIN_CHUNK points) and streamed points proves what the whole
 * key proves, bit for bit, with and without B2 on the device. */
static void prove_budget_check(int curve, int log_n, size_t n_vars)
{
    tl_key tk;
    gpu_key_desc d;
    gpu_mem_need need;
    tl_key_make(&tk, &d, curve, log_n, n_vars);
    gpu_key_need(&d, &need);
    uint8_t *w = malloc(n_vars * 32), whole[PROOF_OUTS][192], got[PROOF_OUTS][192];
    for (size_t i = 0; i < n_vars; i++) small_scalar(w + 32 * i);
    static const int modes[] = {GPU_MEM_WHOLE, GPU_MEM_CHUNKED, GPU_MEM_STREAMED};
    /* A point fills only part of its 192 bytes (a BN254 G1 point 64): the
     * reference's tail must hold the pattern the others' tails keep. */
    memset(whole, 0xa5, sizeof whole);
    for (size_t m = 0; m < 3; m++) {
        d.device_budget = modes[m] == GPU_MEM_WHOLE ? 0
                                                    : gpu_plan_bytes(&need, GPU_PLAN_MIN_CHUNK,
                                                                     modes[m] == GPU_MEM_STREAMED);
        gpu_key *k = gpu_key_upload(&d, NULL, err, sizeof err);
        CHECK(k != NULL);
        if (!k) {
            fprintf(stderr, "%s\n", err);
            continue;
        }
        size_t chunk = 0;
        CHECK(gpu_key_memory_mode(k, &chunk) == modes[m]);
        CHECK(modes[m] == GPU_MEM_WHOLE || chunk == GPU_PLAN_MIN_CHUNK);
        /* no block given (host_buf NULL): a streamed key copies its points */
        CHECK((gpu_key_host_copied(k) > 0) == (modes[m] == GPU_MEM_STREAMED));
        for (int skip_b2 = 0; skip_b2 < 2; skip_b2++) {
            uint8_t(*o)[192] = modes[m] == GPU_MEM_WHOLE && !skip_b2 ? whole : got;
            memset(got, 0xa5, sizeof got);
            int rc = gpu_prove_msms(k, w, o[0], o[1], skip_b2 ? NULL : o[2], o[3], o[4], NULL, err,
                                    sizeof err);
            if (rc) fprintf(stderr, "%s\n", err);
            CHECK(rc == 0);
            for (int i = 0; i < PROOF_OUTS && o == got; i++) {
                if (skip_b2 && i == 2) continue;
                if (memcmp(got[i], whole[i], 192) != 0) {
                    fprintf(stderr, "budget mismatch: curve %d 2^%d mode %d msm %d\n", curve, log_n,
                            modes[m], i);
                    CHECK(0);
                }
            }
        }
        gpu_key_free(k);
    }
    prove_in_place_check(&d, &need, w, whole);
    d.device_budget = need.fixed; /* not even the fixed part and one chunk */
    CHECK(gpu_key_upload(&d, NULL, err, sizeof err) == NULL && strstr(err, "even with its points"));
    free(w);
    tl_key_free(&tk);
}

int main(void)
{
    if (!gpu_available()) {
        printf("test_gpu: no usable GPU, skipped\n");
        return 77;
    }
    field_checks(1, 1 << 16);
    static const size_t g1_sizes[] = {1,    2,    3,     5,      16,      100,          1000,
                                      1024, 4099, 65536, 100003, 1 << 20, (1 << 20) + 7};
    static const size_t g2_sizes[] = {1, 2, 7, 100, 1023, 8192, 70001};
    double t0 = now();
    for (size_t k = 0; k < sizeof g1_sizes / sizeof *g1_sizes; k++) {
        size_t n = g1_sizes[k];
        for (int mode = 0; mode < MSM_MODES; mode++) {
            if (n > 100003 && mode > 1) continue;
            bn254_g1_check(n, mode);
            if (n <= 100003) bls12_381_g1_check(n, mode);
        }
    }
    gpu_tune.msm_window = 21; /* the largest window on a mid size */
    bn254_g1_check(300007, 1);
    bls12_381_g2_check(20011, 1);
    gpu_tune.msm_window = 0;
    printf("G1 done (%.1f s)\n", now() - t0);
    for (size_t k = 0; k < sizeof g2_sizes / sizeof *g2_sizes; k++)
        for (int mode = 0; mode < MSM_MODES; mode++) {
            bn254_g2_check(g2_sizes[k], mode);
            bls12_381_g2_check(g2_sizes[k], mode);
        }
    bn254_g2_check(1 << 18, 0);
    printf("G2 done (%.1f s)\n", now() - t0);
    bn254_g1_check(1 << 22, 0); /* the largest size the issue names */
    bn254_g1_check((1 << 22) + 5, 4);
    bls12_381_g1_check(1 << 22, 0);
    printf("2^22 done (%.1f s)\n", now() - t0);
    copies_checks(100003, 20011, 0, any_copies, 3);
    copies_checks(65536, 4099, 22, any_copies, 3);
    /* the benchmark's tables: c = 22 with 12 copies, c = 24 with 11 */
    gpu_tune.msm_window = 22;
    test_copies = 12;
    bn254_g1_check((1 << 20) + 3, 1);
    bls12_381_g1_check(1 << 20, 0);
    gpu_tune.msm_window = 24;
    test_copies = 11;
    bn254_g1_check(1 << 20, 0);
    bls12_381_g1_check(100003, 1);
    test_copies = 1;
    gpu_tune.msm_window = 0;
    printf("copies done (%.1f s)\n", now() - t0);
    batch_checks(4099, 1023, 0);
    batch_checks(65536, 8192, 0);
    /* tables built by a plain transform first: a proof at that size must
     * leave them intact for the transforms after it */
    bn254_fr_ntt_check(16);
    prove_batch_check(FORMATS_CURVE_BN128, 10, 700);
    prove_batch_check(FORMATS_CURVE_BLS12381, 10, 700);
    prove_batch_check(FORMATS_CURVE_BN128, 16, 40000);
    bn254_fr_ntt_check(16);
    /* and tables built inside a proof (its round trip, on a lane's
     * stream) must serve a plain transform after it */
    gpu_release();
    prove_batch_check(FORMATS_CURVE_BN128, 16, 40000);
    bn254_fr_ntt_check(16);
    printf("batch done (%.1f s)\n", now() - t0);
    prove_budget_check(FORMATS_CURVE_BN128, 18, 200003);
    prove_budget_check(FORMATS_CURVE_BLS12381, 17, 140001);
    /* six rounds of 2^16 for A, B1, B2 and C (the last of 17 and 15
     * points), two for H: more rounds than buffers, MSMs of different
     * round counts */
    prove_budget_check(FORMATS_CURVE_BN128, 17, 5 * 65536 + 17);
    printf("budgets done (%.1f s)\n", now() - t0);
    static const unsigned logs[] = {0, 1, 2, 3, 5, 8, 9, 10, 11, 12, 13, 16, 17, 20, 22};
    for (size_t k = 0; k < sizeof logs / sizeof *logs; k++) {
        bn254_fr_ntt_check(logs[k]);
        bls12_381_fr_ntt_check(logs[k]);
    }
    /* 7 + 6 + 6 levels: a warp pass then block passes */
    bn254_fr_ntt_check(19);
    bls12_381_fr_ntt_check(19);
    printf("NTT done (%.1f s)\n", now() - t0);
    gpu_release();
    return test_finish("test_gpu");
}
#endif
