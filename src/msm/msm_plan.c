#include "msm/msm_internal.h"

/* Relative costs in field multiplications: a point into a bucket (a
 * batch-affine addition, ~6M + shared inversion; 10M for a mixed XYZZ
 * addition when there are too few buckets to batch) and a bucket in the
 * running-sum reduction (one mixed and one full XYZZ addition). */
#define MSM_COST_MADD_BATCHED 7.0
#define MSM_COST_MADD 10.0
#define MSM_COST_BUCKET 24.0
/* One thread's buckets stay below this, so big c cannot eat the RAM or
 * thrash every cache level. */
#define MSM_BUCKET_BUDGET ((size_t)32 << 20)
#define MSM_MAX_C 20

static double msm_plan_cost(size_t m, int c, int nwin, int parts, int threads)
{
    size_t tiles = (size_t)nwin * (size_t)parts;
    size_t rounds = (tiles + (size_t)threads - 1) / (size_t)threads;
    size_t nb = (size_t)1 << (c - 1);
    double madd = msm_batch_size(nb) ? MSM_COST_MADD_BATCHED : MSM_COST_MADD;
    double per_tile = (double)m / parts * madd + (double)nb * MSM_COST_BUCKET;
    return (double)rounds * per_tile;
}

struct msm_plan msm_choose_plan(size_t m, int bits, int threads, size_t bucket_bytes)
{
    struct msm_plan best = {2, (bits + 2) / 2, 1};
    double best_cost = -1;
    if (threads < 1) threads = 1;
    for (int c = 2; c <= MSM_MAX_C; c++) {
        if (((size_t)1 << (c - 1)) * bucket_bytes > MSM_BUCKET_BUDGET) break;
        int nwin = (bits + c) / c; /* ceil((bits + 1) / c) */
        for (int parts = 1; parts <= 4 * threads && (size_t)parts <= m; parts++) {
            double cost = msm_plan_cost(m, c, nwin, parts, threads);
            if (best_cost < 0 || cost < best_cost) {
                best_cost = cost;
                best = (struct msm_plan){c, nwin, parts};
            }
        }
    }
    return best;
}
