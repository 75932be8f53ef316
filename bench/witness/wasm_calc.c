/* wasm_calc WASM INPUT CACHE_DIR WTNS: one witness calculation as `g16
 * wtns calculate` makes it (the same library calls, limits and output
 * file), with the circuit's witness graph off, so that run.sh times g16's
 * compiled-wasm path as a whole process beside its graph path.  CACHE_DIR
 * must hold the compiled circuit and no graph file: an open that finds a
 * graph uses it, and graphs on request keep the calculation from making
 * one.  Exits 1 (one line on stderr) if the witness came from anything
 * but the wasm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16_files.h"
#include "g16_witness.h"

/* `g16 wtns calculate`'s defaults (src/apps/g16/wtns.c) */
#define INPUT_MAX     ((size_t)64 << 20)
#define MEMORY_MIN    ((size_t)64 << 20)
#define MEMORY_GROWTH 4

static int calculate(const char *wasm, const char *input_path, const char *cache_dir,
                     const char *out, char *err, size_t errlen)
{
    char *input = NULL;
    g16_circuit *c = NULL;
    g16_circuit_limits limits = {.time_limit = G16_WITNESS_TIME_LIMIT, .memory_limit = MEMORY_MIN};
    int rc = g16_file_read_text(input_path, INPUT_MAX, &input, err, errlen);
    if (!rc) rc = g16_circuit_open_limited(wasm, cache_dir, &limits, &c, err, errlen);
    if (!rc) rc = g16_circuit_graph_on_request(c, 1);
    if (!rc) {
        size_t grown = g16_circuit_memory_bytes(c) * MEMORY_GROWTH;
        g16_circuit_set_memory_limit(c, grown > MEMORY_MIN ? grown : MEMORY_MIN);
        rc = g16_witness_calculate_file(c, input, strlen(input), input_path, NULL, NULL, out, err,
                                        errlen);
    }
    char path[320];
    if (!rc && !g16_circuit_witness_path(c, path, sizeof path) && strncmp(path, "wasm", 4)) {
        snprintf(err, errlen, "%s: the witness came from the %.250s, not the wasm", wasm, path);
        rc = 1;
    }
    g16_circuit_close(c);
    free(input);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: wasm_calc WASM INPUT CACHE_DIR WTNS\n");
        return 2;
    }
    char err[1024];
    if (calculate(argv[1], argv[2], argv[3], argv[4], err, sizeof err)) {
        fprintf(stderr, "wasm_calc: %s\n", err);
        return 1;
    }
    return 0;
}
