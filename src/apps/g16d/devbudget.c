/* The device memory budget: which idle GPU keys to evict for a new one (a
 * pure function, so tests/daemon checks it without a GPU), and the GPU's
 * free memory at startup for the default budget (through NVML, loaded at
 * run time so g16d runs where the driver is absent). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "d.h"

int d_dev_fit(size_t budget, const d_dev_key *keys, int n, size_t need, int *victims,
              int *nvictims)
{
    size_t used = 0;
    *nvictims = 0;
    if (budget == 0) return 0;                     /* no device budget */
    for (int i = 0; i < n; i++) used += keys[i].bytes;
    while (used + need > budget || used + need < used) {
        int v = -1;
        for (int i = 0; i < n; i++) {
            int taken = 0;
            for (int j = 0; j < *nvictims; j++) taken |= victims[j] == i;
            if (!keys[i].busy && !taken && (v < 0 || keys[i].last_used < keys[v].last_used)) v = i;
        }
        if (v < 0) {                               /* even every idle key is not enough */
            *nvictims = 0;
            return -1;
        }
        victims[(*nvictims)++] = v;
        used -= keys[v].bytes;
    }
    return 0;
}

/* NVML's ABI (nvml.h): the memory record and the calls used here. */
typedef struct { unsigned long long total, free, used; } nv_memory;
typedef int (*nv_init_fn)(void);
typedef int (*nv_handle_fn)(unsigned int, void **);
typedef int (*nv_memory_fn)(void *, nv_memory *);

int d_gpu_free_memory(size_t *free_bytes, char *why, size_t whylen)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { snprintf(why, whylen, "libnvidia-ml.so.1 cannot be loaded"); return -1; }
    nv_init_fn init = (nv_init_fn)dlsym(lib, "nvmlInit_v2");
    nv_init_fn shutdown = (nv_init_fn)dlsym(lib, "nvmlShutdown");
    nv_handle_fn handle = (nv_handle_fn)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    nv_memory_fn memory = (nv_memory_fn)dlsym(lib, "nvmlDeviceGetMemoryInfo");
    void *dev = NULL;
    nv_memory m;
    int rc = -1;
    if (!init || !shutdown || !handle || !memory) snprintf(why, whylen, "NVML lacks its memory calls");
    else if (init() != 0) snprintf(why, whylen, "NVML does not initialise");
    else {
        if (handle(0, &dev) != 0 || memory(dev, &m) != 0) snprintf(why, whylen, "NVML cannot read GPU 0");
        else { *free_bytes = (size_t)m.free; rc = 0; }
        shutdown();
    }
    dlclose(lib);
    return rc;
}
