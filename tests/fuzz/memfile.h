/* For the readers that take a path (memwatch traces, g16d's --config): the
 * input written to one memory file, named through /proc/self/fd, reused
 * by every run of a fuzzer. */
#ifndef G16_FUZZ_MEMFILE_H
#define G16_FUZZ_MEMFILE_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *fuzz_memfile(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        if ((fd = memfd_create("fuzz-input", 0)) < 0) abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) abort();
    return path;
}

#endif
