/* libFuzzer target for memwatch's trace reader (mw_trace_load): every
 * input is a trace file's whole text, read back as `memwatch summarize`,
 * `phases` and `plot` read it.  The reader takes a path, so the input is
 * written to one memory file and read through /proc/self/fd. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "g16_memwatch.h"

static int memory_fd = -1;
static char memory_path[64];
static volatile double sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memory_fd < 0) {
        memory_fd = memfd_create("trace.csv", 0);
        if (memory_fd < 0) abort();
        snprintf(memory_path, sizeof memory_path, "/proc/self/fd/%d", memory_fd);
    }
    if (ftruncate(memory_fd, 0) != 0 || pwrite(memory_fd, data, size, 0) != (ssize_t)size) abort();
    mw_trace tr;
    char err[512] = "";
    if (mw_trace_load(memory_path, &tr, err, sizeof err) == G16_OK) {
        for (size_t i = 0; i < tr.n; i++)
            sink += tr.rows[i].unix_s + (double)tr.rows[i].rss + (double)tr.rows[i].phase[0];
        mw_trace_free(&tr);
    } else if (!err[0]) {
        abort(); /* every refusal names its cause */
    }
    return 0;
}
