/* libFuzzer target for g16d's configuration file (config.c): every input
 * is a file given to `g16d --config FILE`, read with the options' own
 * checks as the daemon reads it at startup.  g16d explains each refusal
 * on stderr; that goes to /dev/null here (the sanitizers report on file
 * descriptor 2 itself). */
#include "memfile.h"

#include <string.h>

#include "d.h"

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w"))) abort();
    stdout = stderr = null;
    char *argv[] = {"g16d", "--config", (char *)fuzz_memfile(data, size), NULL};
    d_config cfg;
    int exit_code;
    if (d_config_load(&cfg, 3, argv, &exit_code) == 0)
        sink += cfg.budget + (size_t)cfg.threads + strlen(cfg.socket_path);
    else if (exit_code != 2)
        abort(); /* a file cannot ask for --help */
    return 0;
}
