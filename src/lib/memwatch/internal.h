/* Pieces of g16_memwatch shared between its files; not part of the API. */
#ifndef G16_MEMWATCH_INTERNAL_H
#define G16_MEMWATCH_INTERNAL_H

#include "g16_memwatch.h"

#include <stdarg.h>

typedef struct mw_nvml mw_nvml;

typedef struct {
    pid_t pid;
    int64_t kb;
} mw_gpu_use;

/* NULL with why when libnvidia-ml.so.1 or a GPU is absent (or
 * MEMWATCH_NO_NVML is set): GPU columns stay empty. */
mw_nvml *mw_nvml_open(char *why, size_t whylen);
/* Fills *use (owned by nvml, valid until the next call) with every compute
 * process on every device; *dev_kb: memory used on all devices together. */
int mw_nvml_query(mw_nvml *n, const mw_gpu_use **use, int *nuse, int64_t *dev_kb);
void mw_nvml_close(mw_nvml *n);

#endif
