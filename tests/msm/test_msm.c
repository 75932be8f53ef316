/* MSM against the naive sum of scalar multiplications, for the four groups:
 * sizes 1..4097, edge scalars (0, 1, r-1, >= r, digit boundaries), repeated
 * and opposite points, infinity in the input, mostly-bit witnesses, and
 * thread counts 1, 2, 3 giving the same bits.  Buffers are deliberately
 * misaligned, as an mmap'd key is.  `test_msm small` trims the sizes (for
 * the sanitizer build). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msm/msm.h"
#include "msm/msm_internal.h"
#include "../common/test.h"

enum scalar_kind { S_RANDOM, S_FULL, S_ZERO, S_ONE, S_R_MINUS_1, S_MAX, S_BITS, S_EDGE, S_KINDS };
enum point_kind { P_RANDOM, P_WITH_INF, P_REPEATED, P_OPPOSITE, P_KINDS };

static const char *scalar_kind_name[] = {"random<2^254", "random<2^256", "zero",       "one", "r-1",
                                         "2^256-1",      "mostly-bits",  "digit-edges"};
static const char *point_kind_name[] = {"random", "with-infinity", "repeated", "opposite"};

/* Scalars that sit on window-digit boundaries for every window size. */
static void edge_scalar(uint64_t k[4])
{
    int j = (int)(test_rand64() % 256);
    memset(k, 0, 32);
    switch (test_rand64() % 6) {
    case 0: k[j / 64] = (uint64_t)1 << (j % 64); break; /* 2^j */
    case 1:
        for (int i = 0; i < 4; i++)
            k[i] = j / 64 > i ? ~0ULL : j / 64 == i ? ((uint64_t)1 << (j % 64)) - 1 : 0;
        break;
    case 2:
        for (int i = 0; i < 4; i++) k[i] = 0x8080808080808080ULL;
        break;
    case 3:
        for (int i = 0; i < 4; i++) k[i] = 0x7f7f7f7f7f7f7f7fULL;
        break;
    case 4:
        for (int i = 0; i < 4; i++) k[i] = 0xaaaaaaaaaaaaaaaaULL;
        break;
    default: k[0] = 2 + test_rand64() % 64; break;
    }
}

static void make_scalars(uint8_t *buf, size_t n, enum scalar_kind kind, const uint64_t order[4])
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4] = {0};
        switch (kind) {
        case S_RANDOM:
            for (int j = 0; j < 4; j++) k[j] = test_rand64();
            k[3] >>= 2;
            break;
        case S_FULL:
            for (int j = 0; j < 4; j++) k[j] = test_rand64();
            break;
        case S_ZERO: break;
        case S_ONE: k[0] = 1; break;
        case S_R_MINUS_1:
            memcpy(k, order, 32);
            k[0] -= 1;
            break;
        case S_MAX: memset(k, 0xff, 32); break;
        case S_BITS: {
            uint64_t r = test_rand64() % 10;
            if (r < 8)
                k[0] = r & 1;
            else
                for (int j = 0; j < 4; j++) k[j] = test_rand64() >> (r == 8 ? 2 : 0);
            break;
        }
        case S_EDGE: edge_scalar(k); break;
        default: break;
        }
        memcpy(buf + 32 * i, k, 32);
    }
}

#define MSM_TESTS(G)                                                                               \
    /* Pseudo-random points by a chain P <- 2P + Q (cheap next to G_mul). */                       \
    static void G##_make_points(uint8_t *buf, size_t n, enum point_kind kind)                      \
    {                                                                                              \
        G *jac = malloc(n * sizeof *jac);                                                          \
        G##_affine *aff = malloc(n * sizeof *aff);                                                 \
        __typeof__(jac->z) *scratch = malloc(n * sizeof *scratch);                                 \
        G p, q;                                                                                    \
        uint64_t a[4] = {test_rand64(), test_rand64(), 0, 0}, b[2] = {test_rand64(), 0};           \
        G##_generator(&q);                                                                         \
        G##_mul(&p, &q, a, 4);                                                                     \
        G##_mul(&q, &q, b, 2);                                                                     \
        for (size_t i = 0; i < n; i++) {                                                           \
            if (kind == P_REPEATED)                                                                \
                jac[i] = p;                                                                        \
            else if (kind == P_OPPOSITE)                                                           \
                G##_neg(&jac[i], &p);                                                              \
            else {                                                                                 \
                G##_dbl(&p, &p);                                                                   \
                G##_add(&p, &p, &q);                                                               \
                jac[i] = p;                                                                        \
            }                                                                                      \
            if (kind == P_OPPOSITE && i % 3 != 1) jac[i] = p;                                      \
            if (kind == P_WITH_INF && i % 5 == 2) G##_set_infinity(&jac[i]);                       \
        }                                                                                          \
        G##_batch_to_affine(aff, jac, n, scratch);                                                 \
        memcpy(buf, aff, n * sizeof *aff);                                                         \
        free(jac);                                                                                 \
        free(aff);                                                                                 \
        free(scratch);                                                                             \
    }                                                                                              \
                                                                                                   \
    static void G##_check(size_t n, enum point_kind pk, enum scalar_kind sk)                       \
    {                                                                                              \
        /* +1 / +3: the API must not assume any alignment */                                       \
        uint8_t *pbuf = malloc(n * sizeof(G##_affine) + 1), *pts = pbuf + 1;                       \
        uint8_t *sbuf = malloc(32 * n + 3), *sc = sbuf + 3;                                        \
        G ref, got, first;                                                                         \
        G##_make_points(pts, n, pk);                                                               \
        make_scalars(sc, n, sk, G##_order);                                                        \
        G##_msm_naive(&ref, pts, sc, n);                                                           \
        for (int t = 1; t <= 3; t++) {                                                             \
            G##_msm(&got, pts, sc, n, t);                                                          \
            int ok = G##_eq(&got, &ref);                                                           \
            if (t == 1)                                                                            \
                first = got;                                                                       \
            else                                                                                   \
                ok &= memcmp(&got, &first, sizeof got) == 0;                                       \
            CHECK(ok);                                                                             \
            if (!ok)                                                                               \
                fprintf(stderr, "  %s n=%zu points=%s scalars=%s threads=%d\n", #G, n,             \
                        point_kind_name[pk], scalar_kind_name[sk], t);                             \
        }                                                                                          \
        free(pbuf);                                                                                \
        free(sbuf);                                                                                \
    }                                                                                              \
                                                                                                   \
    /* Every kind below all_kinds_below points; random full-width scalars up \
     * to random_up_to points (the naive reference is what costs). */                     \
    static void G##_run(const size_t *sizes, size_t count, size_t all_kinds_below,                 \
                        size_t random_up_to)                                                       \
    {                                                                                              \
        G out;                                                                                     \
        G##_msm(&out, NULL, NULL, 0, 0);                                                           \
        CHECK(G##_is_infinity(&out));                                                              \
        for (size_t i = 0; i < count; i++) {                                                       \
            size_t n = sizes[i];                                                                   \
            if (n < all_kinds_below) {                                                             \
                for (int sk = 0; sk < S_KINDS; sk++)                                               \
                    for (int pk = 0; pk < P_KINDS; pk++)                                           \
                        G##_check(n, (enum point_kind)pk, (enum scalar_kind)sk);                   \
            } else {                                                                               \
                if (n <= random_up_to) G##_check(n, P_RANDOM, S_RANDOM);                           \
                G##_check(n, P_WITH_INF, S_BITS);                                                  \
                if (n < 1000) G##_check(n, P_REPEATED, S_EDGE);                                    \
                /* all ones: the batched 1-scalar sum, with same-x points */                       \
                G##_check(n, P_WITH_INF, S_ONE);                                                   \
                G##_check(n, P_REPEATED, S_ONE);                                                   \
                /* big enough for batch-affine buckets: same-x and busy      \
                 * buckets take the XYZZ overflow path */                     \
                if (n > 4000) G##_check(n, P_OPPOSITE, S_EDGE);                                    \
            }                                                                                      \
        }                                                                                          \
    }

MSM_TESTS(bn254_g1)
MSM_TESTS(bn254_g2)
MSM_TESTS(bls12_381_g1)
MSM_TESTS(bls12_381_g2)

/* GLV split of k: k1 + k2·lambda = k mod r, checked in Fr, with halves
 * that fit the 128 bits kept (a dropped bit breaks the congruence). */
#define GLV_TEST(FR, glv)                                                                          \
    static void FR##_glv_check(const uint64_t k_in[4])                                             \
    {                                                                                              \
        uint64_t m[2][2], k[4];                                                                    \
        unsigned signs = msm_glv_split(&glv, k_in, m);                                             \
        FR v[2], lam, want, got;                                                                   \
        memcpy(k, k_in, sizeof k);                                                                 \
        msm_reduce_mod(k, glv.r);                                                                  \
        for (int i = 0; i < 2; i++) {                                                              \
            FR plain;                                                                              \
            memset(&plain, 0, sizeof plain);                                                       \
            memcpy(plain.v, m[i], sizeof m[i]);                                                    \
            FR##_from_plain(&v[i], &plain);                                                        \
            if (signs >> i & 1) FR##_neg(&v[i], &v[i]);                                            \
        }                                                                                          \
        memcpy(lam.v, glv.lambda, sizeof lam.v);                                                   \
        FR##_from_plain(&lam, &lam);                                                               \
        memcpy(want.v, k, sizeof want.v);                                                          \
        FR##_from_plain(&want, &want);                                                             \
        FR##_mul(&got, &v[1], &lam);                                                               \
        FR##_add(&got, &got, &v[0]);                                                               \
        CHECK(FR##_eq(&got, &want));                                                               \
    }                                                                                              \
                                                                                                   \
    static void FR##_glv_run(void)                                                                 \
    {                                                                                              \
        uint64_t k[4];                                                                             \
        for (int i = 0; i < 3000; i++) {                                                           \
            for (int j = 0; j < 4; j++) k[j] = test_rand64();                                      \
            switch (i) {                                                                           \
            case 0: memset(k, 0, sizeof k); break;                                                 \
            case 1:                                                                                \
                memset(k, 0, sizeof k);                                                            \
                k[0] = 1;                                                                          \
                break;                                                                             \
            case 2:                                                                                \
                memcpy(k, glv.r, sizeof k);                                                        \
                k[0]--;                                                                            \
                break; /* r - 1 */                                                                 \
            case 3: memcpy(k, glv.r, sizeof k); break;                                             \
            case 4: memset(k, 0xff, sizeof k); break; /* 2^256 - 1 */                              \
            case 5: memcpy(k, glv.lambda, sizeof k); break;                                        \
            case 6:                                                                                \
                memcpy(k, glv.lambda, sizeof k);                                                   \
                k[0]++;                                                                            \
                break;                                                                             \
            default:                                                                               \
                if (i % 3 == 0) edge_scalar(k);                                                    \
            }                                                                                      \
            FR##_glv_check(k);                                                                     \
        }                                                                                          \
    }

GLV_TEST(bn254_fr, msm_glv_bn254)
GLV_TEST(bls12_381_fr, msm_glv_bls12_381)

int main(int argc, char **argv)
{
    int small = argc > 1 && strcmp(argv[1], "small") == 0;
    static const size_t g1[] = {1, 2, 3, 5, 17, 100, 1000, 4097};
    static const size_t g2[] = {1, 2, 3, 5, 17, 100, 300};
    static const size_t g1_small[] = {1, 2, 3, 5, 17, 300};
    static const size_t g2_small[] = {1, 2, 3, 17, 100};
    size_t n1 = small ? 6 : 8, n2 = small ? 5 : 7;
    const size_t *s1 = small ? g1_small : g1, *s2 = small ? g2_small : g2;
    clock_t t0 = clock();
    bn254_g1_run(s1, n1, 17, 4097);
    clock_t t1 = clock();
    bls12_381_g1_run(s1, n1, 17, 1000);
    clock_t t2 = clock();
    bn254_g2_run(s2, n2, 17, 300);
    clock_t t3 = clock();
    bls12_381_g2_run(s2, n2, 17, 300);
    clock_t t4 = clock();
    /* Windows split into point ranges, merged per window: large inputs on
     * many cores do this, so force it here. */
    msm_plan_force_parts = 3;
    static const size_t split[] = {2, 17, 1000};
    bn254_g1_run(split, 3, 3, 1000);
    bls12_381_g2_run(split, 2, 3, 17);
    msm_plan_force_parts = 0;
    /* GLV on every input (the model picks it only where it pays): the MSM
     * against the naive sum checks beta, lambda and the split together. */
    bn254_fr_glv_run();
    bls12_381_fr_glv_run();
    msm_glv_force = 1;
    bn254_g1_run(g1_small, 6, 17, 300);
    bls12_381_g1_run(g1_small, 6, 17, 300);
    bn254_g2_run(g2_small, 5, 17, 100);
    bls12_381_g2_run(g2_small, 5, 17, 100);
    msm_glv_force = -1;
    bn254_g1_run(g1_small + 5, 1, 0, 300);
    msm_glv_force = 0;
    /* G2 with batches of affine additions: busy buckets defer a point to
     * the next batch, a second one takes the XYZZ overflow. */
    if (!small) {
        bn254_g2_check(1500, P_OPPOSITE, S_EDGE);
        bls12_381_g2_check(1500, P_REPEATED, S_EDGE);
    }
    if (small) { /* still reach the batch-affine buckets (c >= 10) */
        static const size_t big[] = {4097};
        bn254_g1_run(big, 1, 17, 0);
    }
    printf("cpu seconds: bn254_g1 %.1f, bls12_381_g1 %.1f, bn254_g2 %.1f, bls12_381_g2 %.1f\n",
           (double)(t1 - t0) / CLOCKS_PER_SEC, (double)(t2 - t1) / CLOCKS_PER_SEC,
           (double)(t3 - t2) / CLOCKS_PER_SEC, (double)(t4 - t3) / CLOCKS_PER_SEC);
    return test_finish("msm");
}
