#include "msm/msm_internal.h"

#include "field/field_params.h"

/* Relative cost in field multiplications of a bucket in the running-sum
 * reduction (one mixed and one full XYZZ addition); a point's cost is
 * msm_bucket_add_cost. */
#define MSM_COST_BUCKET 24.0
/* One thread's buckets stay below this, so big c cannot eat the RAM or
 * thrash every cache level. */
#define MSM_BUCKET_BUDGET ((size_t)32 << 20)
#define MSM_MAX_C         20

int msm_plan_force_parts;
int msm_glv_force;

/* GLV constants (see msm_internal.h), from the extended Euclidean algorithm
 * on (r, lambda) stopped at the remainders around sqrt(r), and the beta
 * that goes with lambda checked on the generators.  BN254: lambda is the
 * 254-bit cube root of unity mod r, basis vectors of 127 and 64 bits.
 * BLS12-381: lambda is the 255-bit root, basis (1, 1 - z^2), (z^2, 1) with
 * z the curve parameter (z^2 ~ 2^127.4). */
const struct msm_glv msm_glv_bn254 = {
    .r = {BN254_FR_P},
    .lambda = {0xb8ca0b2d36636f23ULL, 0xcc37a73fec2bc5e9ULL, 0x048b6e193fd84104ULL,
               0x30644e72e131a029ULL},
    .g = {{0x5398fd0300ff6565ULL, 0x4ccef014a773d2d2ULL, 0x0000000000000002ULL},
          {0xd91d232ec7e0b3d7ULL, 0x0000000000000002ULL, 0x0000000000000000ULL}},
    .g_neg = {0, 0},
    .a = {{0x8211bbeb7d4f1128ULL, 0x6f4d8248eeb859fcULL, 0x0000000000000000ULL},
          {0x89d3256894d213e3ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    .b = {{0x762cda976b2dec1dULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL},
          {0x0be4e1541221250bULL, 0x6f4d8248eeb859fdULL, 0x0000000000000000ULL}},
};

const struct msm_glv msm_glv_bls12_381 = {
    .r = {BLS12_381_FR_P},
    .lambda = {0xfffffffe00000001ULL, 0xa7780001fffcb7fcULL, 0x3339d80809a1d804ULL,
               0x73eda753299d7d48ULL},
    .g = {{0x0000000000000002ULL, 0x0000000000000000ULL, 0x0000000000000000ULL},
          {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 0x0000000000000001ULL}},
    .g_neg = {0, 0},
    .a = {{0x0000000000000001ULL, 0x0000000000000000ULL, 0x0000000000000000ULL},
          {0x0000000100000000ULL, 0xac45a4010001a402ULL, 0x0000000000000000ULL}},
    .b = {{0xffffffff00000001ULL, 0x53ba5bfefffe5bfdULL, 0xffffffffffffffffULL},
          {0x0000000000000001ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
};

/* add_cost: msm_bucket_add_cost for c's buckets, computed once per c by
 * the caller (it does not depend on parts, and the scan over batch sizes
 * would otherwise dominate planning on many threads). */
static double msm_plan_cost(size_t m, int c, int nwin, int parts, int threads, double add_cost)
{
    size_t tiles = (size_t)nwin * (size_t)parts;
    size_t rounds = (tiles + (size_t)threads - 1) / (size_t)threads;
    size_t nb = (size_t)1 << (c - 1);
    double per_tile = (double)m / parts * add_cost + (double)nb * MSM_COST_BUCKET;
    return (double)rounds * per_tile;
}

struct msm_plan msm_choose_plan(size_t m, int bits, int threads, size_t bucket_bytes,
                                double inv_cost)
{
    struct msm_plan best = {2, (bits + 2) / 2, 1, 0};
    double best_cost = -1;
    if (threads < 1) threads = 1;
    for (int c = 2; c <= MSM_MAX_C; c++) {
        if (((size_t)1 << (c - 1)) * bucket_bytes > MSM_BUCKET_BUDGET) break;
        int nwin = (bits + c) / c; /* ceil((bits + 1) / c) */
        double add_cost = msm_bucket_add_cost((size_t)1 << (c - 1), inv_cost);
        int lo = 1, hi = 4 * threads;
        if (msm_plan_force_parts > 0) lo = hi = msm_plan_force_parts;
        if ((size_t)lo > m) lo = hi = (int)m;
        for (int parts = lo; parts <= hi && (size_t)parts <= m; parts++) {
            double cost = msm_plan_cost(m, c, nwin, parts, threads, add_cost);
            if (best_cost < 0 || cost < best_cost) {
                best_cost = cost;
                best = (struct msm_plan){c, nwin, parts, cost};
            }
        }
    }
    return best;
}
