/* The device memory budget: which idle GPU keys to evict for a new one (a
 * pure function, so tests/daemon checks it without a GPU): the policy's
 * eviction rule (policy_evict) over the GPU keys' charges.  The GPU's
 * free memory for the default budget comes from the library's NVML
 * loader (mw_gpu_free_memory, in main.c). */

#include "d.h"

int d_dev_fit(size_t budget, const d_dev_key *keys, int n, size_t need, int *victims, int *nvictims)
{
    size_t used = 0;
    *nvictims = 0;
    if (budget == 0) return 0; /* no device budget */
    for (int i = 0; i < n; i++) used += keys[i].bytes;
    return policy_evict(budget, used, keys, n, need, victims, nvictims);
}
