/* GPU memory through NVML, loaded at run time so that memwatch and g16d
 * build and run on machines without the NVIDIA driver: any failure here
 * only leaves the GPU columns empty (or g16d without a default device
 * budget).  The one loader of the library: MEMWATCH_NO_NVML in the
 * environment keeps it from loading NVML at all. */
#include "memwatch/internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The layouts below are NVML's ABI (nvml.h); v1 lacks the instance ids. */
typedef struct {
    unsigned int pid;
    unsigned long long used;
    unsigned int gpu_instance, compute_instance;
} nv_proc_v2;
typedef struct {
    unsigned int pid;
    unsigned long long used;
} nv_proc_v1;
typedef struct {
    unsigned long long total, free, used;
} nv_meminfo;

typedef int (*nv_init_fn)(void);
typedef int (*nv_count_fn)(unsigned int *);
typedef int (*nv_handle_fn)(unsigned int, void **);
typedef int (*nv_procs_fn)(void *, unsigned int *, void *);
typedef int (*nv_mem_fn)(void *, nv_meminfo *);

#define NV_SUCCESS           0
#define NV_INSUFFICIENT_SIZE 7
/* NVML reports this for memory it cannot attribute (e.g. under MIG). */
#define NV_VALUE_NOT_AVAILABLE (~0ULL)

struct mw_nvml {
    void *lib;
    nv_procs_fn procs;
    int procs_v1;
    nv_mem_fn meminfo;
    void **dev;
    unsigned int ndev;
    mw_gpu_use *use;
    int nuse, capuse;
    void *raw;
    unsigned int capraw;
};

static int nvml_bind(mw_nvml *n, char *why, size_t whylen)
{
    nv_init_fn init = (nv_init_fn)dlsym(n->lib, "nvmlInit_v2");
    nv_count_fn count = (nv_count_fn)dlsym(n->lib, "nvmlDeviceGetCount_v2");
    nv_handle_fn handle = (nv_handle_fn)dlsym(n->lib, "nvmlDeviceGetHandleByIndex_v2");
    n->meminfo = (nv_mem_fn)dlsym(n->lib, "nvmlDeviceGetMemoryInfo");
    n->procs = (nv_procs_fn)dlsym(n->lib, "nvmlDeviceGetComputeRunningProcesses_v3");
    if (!n->procs) n->procs = (nv_procs_fn)dlsym(n->lib, "nvmlDeviceGetComputeRunningProcesses_v2");
    if (!n->procs) {
        n->procs = (nv_procs_fn)dlsym(n->lib, "nvmlDeviceGetComputeRunningProcesses");
        n->procs_v1 = 1;
    }
    if (!init || !count || !handle || !n->meminfo || !n->procs) {
        mw_errf(why, whylen, "NVML lacks the calls memwatch needs");
        return -1;
    }
    if (init() != NV_SUCCESS || count(&n->ndev) != NV_SUCCESS || n->ndev == 0) {
        mw_errf(why, whylen, "NVML does not initialise or sees no GPU");
        return -1;
    }
    n->dev = calloc(n->ndev, sizeof *n->dev);
    if (!n->dev) {
        mw_errf(why, whylen, "out of memory");
        return -1;
    }
    for (unsigned int i = 0; i < n->ndev; i++)
        if (handle(i, &n->dev[i]) != NV_SUCCESS) {
            mw_errf(why, whylen, "NVML cannot open GPU %u", i);
            return -1;
        }
    return 0;
}

mw_nvml *mw_nvml_open(char *why, size_t whylen)
{
    if (getenv("MEMWATCH_NO_NVML")) {
        mw_errf(why, whylen, "NVML not loaded (MEMWATCH_NO_NVML is set)");
        return NULL;
    }
    mw_nvml *n = calloc(1, sizeof *n);
    if (!n) {
        mw_errf(why, whylen, "out of memory");
        return NULL;
    }
    n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!n->lib) mw_errf(why, whylen, "libnvidia-ml.so.1 cannot be loaded");
    if (!n->lib || nvml_bind(n, why, whylen) != 0) {
        mw_nvml_close(n);
        return NULL;
    }
    return n;
}

g16_status mw_gpu_free_memory(unsigned int index, size_t *free_bytes, char *err, size_t errlen)
{
    mw_nvml *n = mw_nvml_open(err, errlen);
    nv_meminfo mi;
    g16_status rc = G16_ERR_DEVICE;
    if (!n) return G16_ERR_UNSUPPORTED;
    if (index >= n->ndev) {
        mw_errf(err, errlen, "NVML sees no GPU %u (%u present)", index, n->ndev);
        rc = G16_ERR_ARG;
    } else if (n->meminfo(n->dev[index], &mi) != NV_SUCCESS)
        mw_errf(err, errlen, "NVML cannot read GPU %u's memory", index);
    else {
        *free_bytes = (size_t)mi.free;
        rc = G16_OK;
    }
    mw_nvml_close(n);
    return rc;
}

static int raw_reserve(mw_nvml *n, unsigned int want)
{
    if (want <= n->capraw) return 0;
    void *p = realloc(n->raw, (size_t)want * sizeof(nv_proc_v2));
    if (!p) return -1;
    n->raw = p;
    n->capraw = want;
    return 0;
}

static void add_use(mw_nvml *n, unsigned int pid, unsigned long long used)
{
    if (used == NV_VALUE_NOT_AVAILABLE) return;
    if (mw_grow(&n->use, &n->capuse, n->nuse + 1, sizeof *n->use) != 0) return;
    n->use[n->nuse].pid = (pid_t)pid;
    n->use[n->nuse].kb = (int64_t)(used / 1024);
    n->nuse++;
}

static int query_device(mw_nvml *n, void *dev)
{
    unsigned int cnt = n->capraw;
    if (raw_reserve(n, 16) != 0) return -1;
    for (int tries = 0; tries < 4; tries++) {
        cnt = n->capraw;
        int rc = n->procs(dev, &cnt, n->raw);
        if (rc == NV_SUCCESS) break;
        if (rc != NV_INSUFFICIENT_SIZE || raw_reserve(n, cnt + 16) != 0) return -1;
    }
    for (unsigned int i = 0; i < cnt && i < n->capraw; i++) {
        if (n->procs_v1) {
            nv_proc_v1 *p = (nv_proc_v1 *)n->raw + i;
            add_use(n, p->pid, p->used);
        } else {
            nv_proc_v2 *p = (nv_proc_v2 *)n->raw + i;
            add_use(n, p->pid, p->used);
        }
    }
    return 0;
}

int mw_nvml_query(mw_nvml *n, const mw_gpu_use **use, int *nuse, int64_t *dev_kb)
{
    n->nuse = 0;
    *dev_kb = 0;
    for (unsigned int i = 0; i < n->ndev; i++) {
        nv_meminfo mi;
        if (n->meminfo(n->dev[i], &mi) != NV_SUCCESS) return -1;
        *dev_kb += (int64_t)(mi.used / 1024);
        if (query_device(n, n->dev[i]) != 0) return -1;
    }
    *use = n->use;
    *nuse = n->nuse;
    return 0;
}

void mw_nvml_close(mw_nvml *n)
{
    if (!n) return;
    if (n->lib) {
        /* Shutdown only pairs with a successful init; harmless otherwise. */
        nv_init_fn shut = (nv_init_fn)dlsym(n->lib, "nvmlShutdown");
        if (shut && n->dev) shut();
        dlclose(n->lib);
    }
    free(n->dev);
    free(n->use);
    free(n->raw);
    free(n);
}
