/* libFuzzer target for g16d's configuration file (config.c): every input
 * is a file given to `g16d --config FILE`, read with the options' own
 * checks as the daemon reads it at startup.  The reader takes a path, so
 * the input is written to one memory file and named through
 * /proc/self/fd.  g16d explains each refusal on stderr; that goes to
 * /dev/null here (the sanitizers report on file descriptor 2 itself). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "d.h"

static int memory_fd = -1;
static char memory_path[64];
static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memory_fd < 0) {
        memory_fd = memfd_create("g16d.conf", 0);
        FILE *null = fopen("/dev/null", "w");
        if (memory_fd < 0 || !null) abort();
        snprintf(memory_path, sizeof memory_path, "/proc/self/fd/%d", memory_fd);
        stdout = stderr = null;
    }
    if (ftruncate(memory_fd, 0) != 0 || pwrite(memory_fd, data, size, 0) != (ssize_t)size) abort();
    char *argv[] = {"g16d", "--config", memory_path, NULL};
    d_config cfg;
    int exit_code;
    if (d_config_load(&cfg, 3, argv, &exit_code) == 0)
        sink += cfg.budget + (size_t)cfg.threads + strlen(cfg.socket_path);
    else if (exit_code != 2)
        abort(); /* a file cannot ask for --help */
    return 0;
}
