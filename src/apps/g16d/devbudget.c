/* The device memory budget: which idle GPU keys to evict for a new one (a
 * pure function, so tests/daemon checks it without a GPU).  The GPU's
 * free memory for the default budget comes from the library's NVML
 * loader (mw_gpu_free_memory, in main.c). */

#include "d.h"

int d_dev_fit(size_t budget, const d_dev_key *keys, int n, size_t need, int *victims, int *nvictims)
{
    size_t used = 0;
    *nvictims = 0;
    if (budget == 0) return 0; /* no device budget */
    for (int i = 0; i < n; i++) used += keys[i].bytes;
    while (used + need > budget || used + need < used) {
        int v = -1;
        for (int i = 0; i < n; i++) {
            int taken = 0;
            for (int j = 0; j < *nvictims; j++) taken |= victims[j] == i;
            if (!keys[i].busy && !taken && (v < 0 || keys[i].last_used < keys[v].last_used)) v = i;
        }
        if (v < 0) { /* even every idle key is not enough */
            *nvictims = 0;
            return -1;
        }
        victims[(*nvictims)++] = v;
        used -= keys[v].bytes;
    }
    return 0;
}
