/* Curve-independent pieces of the MSM: the plan (window size and how the
 * work is cut into tiles) and the signed-digit recoding of scalars.
 * Shared by every stamped-out group in msm.c. */
#ifndef G16_MSM_INTERNAL_H
#define G16_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* How one Pippenger run is cut up.  Window w covers scalar bits
 * [w·c, w·c + c); the Pippenger scalars are split into `parts` contiguous
 * point ranges, and every (window, part) pair is one tile with its own
 * buckets, so threads can share both windows and points. */
struct msm_plan {
    int c;       /* window bits; 2^(c-1) buckets per tile */
    int nwin;    /* windows: c·nwin >= bits + 1 (room for the last carry) */
    int parts;   /* point ranges per window */
    double cost; /* the model's multiplications for the slowest thread */
};

/* Picks c and parts minimising a cost model of the slowest thread:
 * m scalars of at most `bits` bits, `threads` threads, `bucket_bytes` per
 * bucket (caps c so a thread's buckets stay within a memory budget) and
 * inv_cost (see msm_batch_size). */
struct msm_plan msm_choose_plan(size_t m, int bits, int threads, size_t bucket_bytes,
                                double inv_cost);

/* Test hook: when > 0, every plan uses this many point ranges (capped at
 * m), so tests reach the multi-part merge that only very large inputs pick
 * on their own.  0 in normal use. */
extern int msm_plan_force_parts;

/* Expected multiplications per point added to nb buckets with batches of
 * `batch` additions per inversion (inv_cost: an inversion's price in
 * multiplications; see msm_buckets.h).  Per point: 6 for the affine
 * addition, inv_cost / batch for its share of the inversion, plus the
 * collisions: with k of the nb buckets pending, a point finds its bucket
 * pending with chance k/nb (deferred: a copy, ~0.3) and already holding a
 * deferred point with chance ~(k/nb)^2 (XYZZ overflow: 4 more); averaged
 * over k in [0, batch) that is 0.3·batch/2nb + 4·(batch/nb)^2/3. */
static inline double msm_batch_cost(size_t nb, double inv_cost, size_t batch)
{
    double f = (double)batch / (double)nb;
    return 6 + inv_cost / (double)batch + 0.15 * f + 4 * f * f / 3;
}

/* Cap on the batch: its arrays (two points, two field elements per entry)
 * stay within about a megabyte per thread even for BLS12-381 G2. */
#define MSM_MAX_BATCH 2048

/* Additions queued per shared inversion for nb buckets (the batch size of
 * least msm_batch_cost, at most nb/2), or 0 where batching would not beat
 * a plain XYZZ mixed addition (10M). */
static inline size_t msm_batch_size(size_t nb, double inv_cost)
{
    size_t best = 0;
    double best_cost = 10;
    for (size_t b = 8; b <= nb / 2 && b <= MSM_MAX_BATCH; b += b / 8) {
        double c = msm_batch_cost(nb, inv_cost, b);
        if (c < best_cost) {
            best_cost = c;
            best = b;
        }
    }
    return best;
}

/* Multiplications per point added to a bucket (see msm_batch_size). */
static inline double msm_bucket_add_cost(size_t nb, double inv_cost)
{
    size_t b = msm_batch_size(nb, inv_cost);
    return b ? msm_batch_cost(nb, inv_cost, b) : 10;
}

/* GLV: both curves have an endomorphism phi(x, y) = (beta·x, y), beta a
 * cube root of unity in Fq, that acts on the order-r subgroup as a scalar
 * lambda (lambda^2 + lambda + 1 = 0 mod r).  So k·P = k1·P + k2·phi(P)
 * with k1 + k2·lambda = k mod r and |k1|, |k2| < 2^128: twice the points
 * at half the bits, one set of buckets for both halves, so half the
 * windows' bucket reductions.  The split is Babai rounding in the lattice
 * {(x, y): x + y·lambda = 0 mod r} with the short basis (a_i, b_i):
 * c_i = round(k·beta_i / r) through precomputed g_i = round(|beta_i|·2^256/r)
 * (beta_1 = b_2/det, beta_2 = -b_1/det, det = ±r), then k1 = k - c1·a1 -
 * c2·a2 and k2 = -c1·b1 - c2·b2, computed mod 2^192 since they are small.
 * The constants (msm_plan.c) come from the extended Euclidean algorithm on
 * (r, lambda); tests/msm checks them against scalar multiplication. */
struct msm_glv {
    uint64_t r[4], lambda[4];
    uint64_t g[2][3];
    int g_neg[2];              /* sign of beta_i */
    uint64_t a[2][3], b[2][3]; /* two's complement mod 2^192 */
};

extern const struct msm_glv msm_glv_bn254, msm_glv_bls12_381;

/* Test hook: 1 makes every MSM with scalars over MSM_GLV_BITS bits use
 * GLV, -1 none; 0 (normal use) leaves it to the cost model. */
extern int msm_glv_force;

/* k mod r for k < 2^256, in place: a few subtractions (r > 2^253). */
static inline void msm_reduce_mod(uint64_t k[4], const uint64_t r[4])
{
    for (;;) {
        int ge = 1;
        for (int i = 3; i >= 0; i--)
            if (k[i] != r[i]) {
                ge = k[i] > r[i];
                break;
            }
        if (!ge) return;
        unsigned __int128 borrow = 0;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 d = (unsigned __int128)k[i] - r[i] - (uint64_t)borrow;
            k[i] = (uint64_t)d;
            borrow = (d >> 64) & 1;
        }
    }
}

/* Halves carry at most this many bits.  Why: with k < r, the computed
 * c_i = floor(k·g_i / 2^256) is off from k·beta_i by f_i in [-e, 1 + e),
 * e = r/2^257 < 0.25, so |k1| < 1.25·(|a1| + |a2|) and |k2| < 1.25·(|b1| +
 * |b2|): below 2^127.8 for both bases (BLS12-381's is the larger, 1 + z^2
 * ~ 2^127.43).  tests/msm checks edge and random scalars. */
#define MSM_GLV_BITS 128

/* r = a·b mod 2^192 for 3-limb two's complement values. */
static inline void msm_mul192(uint64_t r[3], const uint64_t a[3], const uint64_t b[3])
{
    uint64_t t[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        unsigned __int128 carry = 0;
        for (int j = 0; i + j < 3; j++) {
            carry += (unsigned __int128)a[i] * b[j] + t[i + j];
            t[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
    }
    memcpy(r, t, sizeof t);
}

static inline void msm_sub192(uint64_t r[3], const uint64_t a[3], const uint64_t b[3])
{
    unsigned __int128 borrow = 0;
    for (int i = 0; i < 3; i++) {
        unsigned __int128 d = (unsigned __int128)a[i] - b[i] - (uint64_t)borrow;
        r[i] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
}

/* k (any value below 2^256) -> magnitudes m[0] = |k1|, m[1] = |k2| (two
 * limbs each); bit i of the result is set when k_(i+1) is negative. */
static inline unsigned msm_glv_split(const struct msm_glv *g, const uint64_t k_in[4],
                                     uint64_t m[2][2])
{
    static const uint64_t zero[3] = {0, 0, 0};
    uint64_t k[4], c[2][3], t[3], h[2][3];
    memcpy(k, k_in, sizeof k);
    msm_reduce_mod(k, g->r);
    for (int i = 0; i < 2; i++) { /* c_i = (k·g_i) >> 256 */
        uint64_t p[7] = {0};
        for (int x = 0; x < 4; x++) {
            unsigned __int128 carry = 0;
            for (int y = 0; y < 3; y++) {
                carry += (unsigned __int128)k[x] * g->g[i][y] + p[x + y];
                p[x + y] = (uint64_t)carry;
                carry >>= 64;
            }
            p[x + 3] = (uint64_t)carry;
        }
        memcpy(c[i], p + 4, sizeof c[i]);
        if (g->g_neg[i]) msm_sub192(c[i], zero, c[i]);
    }
    memcpy(h[0], k, sizeof h[0]); /* k1 = k - c1·a1 - c2·a2 */
    msm_mul192(t, c[0], g->a[0]);
    msm_sub192(h[0], h[0], t);
    msm_mul192(t, c[1], g->a[1]);
    msm_sub192(h[0], h[0], t);
    msm_mul192(t, c[0], g->b[0]);
    msm_sub192(h[1], zero, t); /* k2 = -c1·b1 - c2·b2 */
    msm_mul192(t, c[1], g->b[1]);
    msm_sub192(h[1], h[1], t);
    unsigned signs = 0;
    for (int i = 0; i < 2; i++) {
        if (h[i][2] >> 63) {
            msm_sub192(h[i], zero, h[i]);
            signs |= 1u << i;
        }
        m[i][0] = h[i][0];
        m[i][1] = h[i][1];
    }
    return signs;
}

/* Scalar as 6 limbs: 4 from the input, then room for the recoding offset
 * (which can carry past bit 256) and a zero limb so that a window read
 * may always touch the next limb. */
typedef struct {
    uint64_t v[6];
} msm_wide;

static inline void msm_load_scalar(uint64_t k[4], const uint8_t *scalars, size_t i)
{
    memcpy(k, scalars + 32 * i, 32); /* little-endian host: bytes = limbs */
}

/* 0 for scalar 0, 1 for scalar 1, 2 otherwise. */
static inline int msm_scalar_class(const uint64_t k[4])
{
    if (k[1] | k[2] | k[3]) return 2;
    return k[0] < 2 ? (int)k[0] : 2;
}

/* Signed digits without a carry chain: with H = sum_w (2^(c-1) - 1)·2^(wc),
 * the plain c-bit digits K_w of K = k + H give k = sum_w (K_w - (2^(c-1)-1))
 * ·2^(wc), digits in [-(2^(c-1) - 1), 2^(c-1)].  Any window can then be read
 * on its own, so tiles never need the digits of other windows. */
static inline void msm_recode_offset(msm_wide *h, int c, int nwin)
{
    memset(h, 0, sizeof *h);
    uint64_t d = ((uint64_t)1 << (c - 1)) - 1;
    for (int w = 0; w < nwin; w++) {
        int s = w * c;
        h->v[s / 64] |= d << (s % 64);
        if (s % 64 + c > 64) h->v[s / 64 + 1] |= d >> (64 - s % 64);
    }
}

static inline void msm_add_offset(msm_wide *out, const uint64_t k[4], const msm_wide *h)
{
    unsigned __int128 t = 0;
    for (int i = 0; i < 5; i++) {
        t += (unsigned __int128)(i < 4 ? k[i] : 0) + h->v[i];
        out->v[i] = (uint64_t)t;
        t >>= 64;
    }
    out->v[5] = 0;
}

static inline int msm_digit(const msm_wide *K, int window, int c)
{
    int s = window * c, sh = s % 64;
    uint64_t v = K->v[s / 64] >> sh;
    if (sh + c > 64) v |= K->v[s / 64 + 1] << (64 - sh);
    return (int)(v & (((uint64_t)1 << c) - 1)) - ((1 << (c - 1)) - 1);
}

#endif
