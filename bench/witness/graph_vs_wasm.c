/* graph_vs_wasm WASM GRAPH_CACHE WASM_CACHE RUNS INPUT...: for each input,
 * the witness by the circuit opened on GRAPH_CACHE (its graph when the
 * cache has one, else the wasm) and by the circuit opened on WASM_CACHE
 * with graphs on request and none asked for (always the wasm: the cache
 * must hold no graph), RUNS calculations each in this process; prints
 * "INPUT PATH GRAPH_CACHE_S WASM_CACHE_S" a line, the least thread CPU
 * seconds of one calculation and the path the first cache's took, and
 * fails when the two witnesses differ (bench/witness/circomlib.sh).  An
 * input both refuse prints "INPUT error - -". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "g16_files.h"
#include "g16_witness.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The least CPU seconds of runs calculations of input; the last witness
 * in *wtns (NULL and a negative time on an error). */
static double least(const g16_circuit *c, const char *input, const char *name, int runs,
                    uint8_t **wtns, size_t *len)
{
    double best = -1;
    char err[1024];
    *wtns = NULL;
    for (int i = 0; i < runs; i++) {
        g16_witness_free(*wtns);
        *wtns = NULL;
        double t0 = cpu_seconds();
        if (g16_witness_calculate(c, input, strlen(input), name, NULL, NULL, wtns, len, err,
                                  sizeof err))
            return -1;
        double t = cpu_seconds() - t0;
        if (best < 0 || t < best) best = t;
    }
    return best;
}

static int open_circuit(const char *wasm, const char *cache, int on_request, g16_circuit **c)
{
    char err[1024];
    if (g16_circuit_open(wasm, cache, c, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (on_request && g16_circuit_graph_on_request(*c, 1)) {
        fprintf(stderr, "%s: graphs on request refused\n", wasm);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int runs = argc > 5 ? atoi(argv[4]) : 0;
    if (runs < 1) {
        fprintf(stderr, "usage: graph_vs_wasm WASM GRAPH_CACHE WASM_CACHE RUNS INPUT...\n");
        return 2;
    }
    g16_circuit *graph = NULL, *wasm = NULL;
    if (open_circuit(argv[1], argv[2], 0, &graph) || open_circuit(argv[1], argv[3], 1, &wasm))
        return 1;
    int rc = 0;
    for (int k = 5; k < argc && !rc; k++) {
        char err[1024], path[320];
        char *input = NULL;
        if (g16_file_read_text(argv[k], (size_t)64 << 20, &input, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        uint8_t *a, *b;
        size_t alen = 0, blen = 0;
        double ta = least(graph, input, argv[k], runs, &a, &alen);
        if (g16_circuit_witness_path(graph, path, sizeof path)) path[0] = 0;
        double tb = least(wasm, input, argv[k], runs, &b, &blen);
        if ((ta < 0) != (tb < 0) || (a && (alen != blen || memcmp(a, b, alen)))) {
            fprintf(stderr, "%s: the witnesses differ (%s)\n", argv[k], path);
            rc = 1;
        } else if (ta < 0)
            printf("%s error - -\n", argv[k]);
        else
            printf("%s %s %.6f %.6f\n", argv[k], path, ta, tb);
        fflush(stdout);
        g16_witness_free(a);
        g16_witness_free(b);
        free(input);
    }
    g16_circuit_close(graph);
    g16_circuit_close(wasm);
    return rc;
}
