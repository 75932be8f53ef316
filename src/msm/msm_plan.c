#include "msm/msm_internal.h"

/* Relative cost in field multiplications of a bucket in the running-sum
 * reduction (one mixed and one full XYZZ addition); a point's cost is
 * msm_bucket_add_cost. */
#define MSM_COST_BUCKET 24.0
/* One thread's buckets stay below this, so big c cannot eat the RAM or
 * thrash every cache level. */
#define MSM_BUCKET_BUDGET ((size_t)32 << 20)
#define MSM_MAX_C 20

int msm_plan_force_parts;

static double msm_plan_cost(size_t m, int c, int nwin, int parts, int threads, double inv_cost)
{
    size_t tiles = (size_t)nwin * (size_t)parts;
    size_t rounds = (tiles + (size_t)threads - 1) / (size_t)threads;
    size_t nb = (size_t)1 << (c - 1);
    double per_tile = (double)m / parts * msm_bucket_add_cost(nb, inv_cost)
                    + (double)nb * MSM_COST_BUCKET;
    return (double)rounds * per_tile;
}

struct msm_plan msm_choose_plan(size_t m, int bits, int threads, size_t bucket_bytes,
                                double inv_cost)
{
    struct msm_plan best = {2, (bits + 2) / 2, 1};
    double best_cost = -1;
    if (threads < 1) threads = 1;
    for (int c = 2; c <= MSM_MAX_C; c++) {
        if (((size_t)1 << (c - 1)) * bucket_bytes > MSM_BUCKET_BUDGET) break;
        int nwin = (bits + c) / c; /* ceil((bits + 1) / c) */
        int lo = 1, hi = 4 * threads;
        if (msm_plan_force_parts > 0) lo = hi = msm_plan_force_parts;
        if ((size_t)lo > m) lo = hi = (int)m;
        for (int parts = lo; parts <= hi && (size_t)parts <= m; parts++) {
            double cost = msm_plan_cost(m, c, nwin, parts, threads, inv_cost);
            if (best_cost < 0 || cost < best_cost) {
                best_cost = cost;
                best = (struct msm_plan){c, nwin, parts};
            }
        }
    }
    return best;
}
