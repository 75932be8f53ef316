/* test_graph_limits WASM INPUT.json SHARED_CACHE SMALL.wasm SMALL_INPUT.json PRIVATE_CACHE
 *                   BRANCH.wasm:
 * the circuit's limits on its witness graph (docs/witness-graph.md).
 * - Time: once the graph gives WASM's witness, a calculation under a
 *   limit it cannot meet stops in the graph with G16_ERR_TIMEOUT and the
 *   wasm's message (no fallback), and the path says the graph ran past
 *   it; with the limit back the graph computes again.
 * - g16_circuit_graph: present with its bytes, or the reason without one.
 * - On request (g16_circuit_graph_on_request): SMALL.wasm in a fresh cache
 *   gets no graph from its calculations (they stay the wasm's, saying
 *   why); g16_circuit_make_graph makes it, and the next calculation is
 *   the graph's.
 * - Per thread (g16_circuit_witness_path): BRANCH.wasm (data/branch.circom)
 *   traced with x != 0; a thread whose x = 0 falls back sees "wasm (a
 *   guard ...)", the main thread still its own "graph", and a thread that
 *   calculated nothing the circuit's last. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "g16_witness.h"
#include "../common/test.h"

static char *slurp(const char *path)
{
    char err[512], *text = NULL;
    if (g16_file_read_text(path, 1 << 24, &text, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    return text;
}

static g16_circuit *open_at(const char *wasm, const char *cache)
{
    char err[1024];
    g16_circuit *c = NULL;
    int rc = g16_circuit_open(wasm, cache, &c, err, sizeof err);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    return c;
}

/* One calculation: its status, its error into err, its path into path. */
static int calc(const g16_circuit *c, const char *input, char *err, size_t errlen, char *path)
{
    uint8_t *w = NULL;
    size_t len = 0;
    err[0] = 0;
    int rc = g16_witness_calculate(c, input, strlen(input), "input.json", NULL, NULL, &w, &len, err,
                                   errlen);
    g16_witness_free(w);
    CHECK(!g16_circuit_witness_path(c, path, 320));
    return rc;
}

static void time_limit(const char *wasm, const char *input, const char *cache)
{
    g16_circuit *c = open_at(wasm, cache);
    char err[1024], path[320], want[1200];
    CHECKF(calc(c, input, err, sizeof err, path) == G16_OK, "%s", err);
    CHECKF(calc(c, input, err, sizeof err, path) == G16_OK, "%s", err);
    CHECKF(!strcmp(path, "graph"), "the second calculation: %s", path);
    g16_circuit_graph_info g;
    CHECK(!g16_circuit_graph(c, &g));
    CHECKF(g.present && g.bytes > 0 && g.eval_bytes > 0, "present %d bytes %zu eval %zu why %s",
           g.present, g.bytes, g.eval_bytes, g.why);

    g16_circuit_set_time_limit(c, 1e-9);
    int rc = calc(c, input, err, sizeof err, path);
    snprintf(want, sizeof want, "%s: the witness calculation ran past its time limit of 1e-09 s",
             wasm);
    CHECKF(rc == G16_ERR_TIMEOUT, "status %d: %s", rc, err);
    CHECKF(!strcmp(err, want), "'%s', expected '%s'", err, want);
    CHECKF(!strncmp(path, "graph (ran past the time limit", 30), "path: %s", path);

    g16_circuit_set_time_limit(c, 60);
    CHECKF(calc(c, input, err, sizeof err, path) == G16_OK, "%s", err);
    CHECKF(!strcmp(path, "graph"), "after the limit is back: %s", path);
    g16_circuit_close(c);
}

static void on_request(const char *wasm, const char *input, const char *cache)
{
    g16_circuit *c = open_at(wasm, cache);
    char err[1024], path[320];
    g16_circuit_graph_info g;
    CHECK(!g16_circuit_graph_on_request(c, 1));
    for (int i = 0; i < 2; i++) {
        CHECKF(calc(c, input, err, sizeof err, path) == G16_OK, "%s", err);
        CHECKF(!strcmp(path, "wasm (no graph yet (one is made on request))"), "path: %s", path);
    }
    CHECK(!g16_circuit_graph(c, &g));
    CHECKF(!g.present && g.bytes == 0, "a graph before the request: %zu bytes", g.bytes);
    CHECKF(!strcmp(g.why, "no graph yet (one is made on request)"), "why: %s", g.why);

    CHECKF(g16_circuit_make_graph(c, "{\"nope\": 1}", 11, "bad.json", err, sizeof err) ==
               G16_ERR_FORMAT,
           "a bad input: %s", err);
    CHECKF(strstr(err, "bad.json") != NULL, "the error names the input: %s", err);
    CHECKF(g16_circuit_make_graph(c, input, strlen(input), "input.json", err, sizeof err) == G16_OK,
           "%s", err);
    CHECK(!g16_circuit_graph(c, &g));
    CHECKF(g.present && g.bytes > 0, "no graph after the request: %s", g.why);
    CHECKF(calc(c, input, err, sizeof err, path) == G16_OK, "%s", err);
    CHECKF(!strcmp(path, "graph"), "after the request: %s", path);
    g16_circuit_close(c);
}

typedef struct {
    const g16_circuit *c;
    const char *input; /* NULL: no calculation, the path only */
    char path[320];
} path_thread;

static void *calc_thread(void *arg)
{
    path_thread *t = arg;
    char err[1024];
    if (t->input)
        calc(t->c, t->input, err, sizeof err, t->path);
    else
        CHECK(!g16_circuit_witness_path(t->c, t->path, sizeof t->path));
    return NULL;
}

static void per_thread(const char *wasm, const char *cache)
{
    g16_circuit *c = open_at(wasm, cache);
    char err[1024], path[320];
    const char *one = "{\"x\":\"3\",\"y\":\"5\"}";
    CHECKF(calc(c, one, err, sizeof err, path) == G16_OK, "%s", err);
    CHECKF(calc(c, one, err, sizeof err, path) == G16_OK && !strcmp(path, "graph"), "path: %s",
           path);
    path_thread other = {c, "{\"x\":\"0\",\"y\":\"5\"}", ""}, idle = {c, NULL, ""};
    pthread_t t;
    CHECK(!pthread_create(&t, NULL, calc_thread, &other) && !pthread_join(t, NULL));
    CHECKF(!strncmp(other.path, "wasm (a guard", 13), "the other thread's path: %s", other.path);
    CHECK(!g16_circuit_witness_path(c, path, sizeof path));
    CHECKF(!strcmp(path, "graph"), "this thread's path after the other's: %s", path);
    CHECK(!pthread_create(&t, NULL, calc_thread, &idle) && !pthread_join(t, NULL));
    CHECKF(!strcmp(idle.path, other.path), "a thread with no calculation: %s", idle.path);
    g16_circuit_close(c);
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr,
                "usage: %s WASM INPUT SHARED_CACHE SMALL.wasm SMALL_INPUT CACHE BRANCH.wasm\n",
                argv[0]);
        return 2;
    }
    char *input = slurp(argv[2]), *small = slurp(argv[5]);
    time_limit(argv[1], input, argv[3]);
    on_request(argv[4], small, argv[6]);
    per_thread(argv[7], argv[6]);
    free(input);
    free(small);
    return test_finish("test_graph_limits");
}
