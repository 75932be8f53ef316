/* test_graph_paths CACHE_DIR DATA_DIR: a circuit's witness graphs, one per
 * path through its input-dependent branches (docs/witness-graph.md).
 * CACHE_DIR is this test's own (its graph files are damaged here).
 * - data/branch.wasm: its first calculation (x != 0) makes the first
 *   graph; x = 0 (the first graph's guard goes another way) is the wasm's
 *   and makes a second graph; from then on both branches are the
 *   graphs', in either order; a division by zero and a failed assert fall
 *   back without making a graph; a reopened circuit loads both from the
 *   cache (two files).
 * - A damaged second graph file is refused: the reopened circuit has the
 *   first graph, which still computes; x = 0 makes the second again.
 * - On request (as g16d): g16_circuit_graph_wanted says which fallbacks
 *   would make a graph, g16_circuit_make_graph makes it.
 * - Threads calculating both branches at once: one graph a path.
 * - data/paths.wasm (eleven paths): graphs of the first
 *   WITNESS_GRAPHS_MAX paths only; later paths stay the wasm's and make
 *   no file.
 * Every witness equals the wasm's byte for byte. */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16.h"
#include "g16_witness.h"
#include "witness/witness.h"
#include "../common/test.h"

static const char *cache;

static g16_circuit *open_circuit(const char *wasm)
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

/* Calculates input by the library (its graphs first) and by the wasm
 * alone: the same bytes or the same error, and the library's path starts
 * with want; the library's status. */
static int agree(const g16_circuit *c, const char *input, const char *want)
{
    uint8_t *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    char erra[1024] = "", errb[1024] = "", path[320];
    int ra = g16_witness_calculate(c, input, strlen(input), "input.json", NULL, NULL, &a, &alen,
                                   erra, sizeof erra);
    CHECK(!g16_circuit_witness_path(c, path, sizeof path));
    int rb = witness_calculate_wasm(c, input, strlen(input), &b, &blen, errb, sizeof errb);
    CHECKF(ra == rb && !strcmp(erra, errb), "%d '%s' against the wasm's %d '%s'", ra, erra, rb,
           errb);
    CHECKF(alen == blen && (!alen || !memcmp(a, b, alen)), "witnesses differ for %s", input);
    CHECKF(!strncmp(path, want, strlen(want)), "path '%s', expected '%s', input %s", path, want,
           input);
    g16_witness_free(a);
    g16_witness_free(b);
    return ra;
}

static unsigned graphs(const g16_circuit *c, size_t *bytes)
{
    g16_circuit_graph_info g;
    CHECK(!g16_circuit_graph(c, &g));
    if (bytes) *bytes = g.bytes;
    return g.graphs;
}

/* The cache's graph files of c: how many, and the path of the one whose
 * name ends in suffix into out. */
static int graph_files(const g16_circuit *c, const char *suffix, char *out, size_t cap)
{
    uint8_t sha[G16_SHA256_BYTES];
    char hex[2 * G16_SHA256_BYTES + 1];
    g16_circuit_wasm_sha256(c, sha);
    for (int i = 0; i < G16_SHA256_BYTES; i++) sprintf(hex + 2 * i, "%02x", sha[i]);
    DIR *d = opendir(cache);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (strncmp(e->d_name, hex, 64) || len < 7 || strcmp(e->d_name + len - 7, ".wgraph"))
            continue;
        n++;
        if (out && len >= sl && !strcmp(e->d_name + len - sl, suffix))
            snprintf(out, cap, "%s/%s", cache, e->d_name);
    }
    if (d) closedir(d);
    return n;
}

static void branch(const char *wasm)
{
    const char *p_minus_1 =
        "21888242871839275222246405745257275088548364400416034343698204186575808495616";
    char in[256];
    g16_circuit *c = open_circuit(wasm);
    CHECK(graphs(c, NULL) == 0);
    agree(c, "{\"x\":\"3\",\"y\":\"5\"}", "wasm (no graph yet"); /* the first graph: x != 0 */
    size_t one, two;
    CHECKF(graphs(c, &one) == 1, "%u graphs after the first calculation", graphs(c, NULL));
    agree(c, "{\"x\":\"4\",\"y\":\"5\"}", "graph");
    agree(c, "{\"x\":\"0\",\"y\":\"5\"}", "wasm (a guard"); /* the second: x = 0 */
    CHECKF(graphs(c, &two) == 2 && two > one, "%u graphs (%zu bytes, one %zu) after x = 0",
           graphs(c, NULL), two, one);
    agree(c, "{\"x\":\"0\",\"y\":\"12345\"}", "graph");
    agree(c, "{\"x\":\"17\",\"y\":\"2\"}", "graph");
    agree(c, "{\"x\":\"0\",\"y\":\"1\"}", "graph");
    /* not a path of its own: no graph made */
    snprintf(in, sizeof in, "{\"x\":\"%s\",\"y\":\"5\"}", p_minus_1);
    agree(c, in, "wasm (a division by zero");
    CHECK(agree(c, "{\"x\":\"3\",\"y\":\"7\"}", "wasm (a guard") == G16_ERR_FORMAT);
    CHECK(agree(c, "{\"x\":\"0\",\"y\":\"7\"}", "wasm (a guard") == G16_ERR_FORMAT);
    CHECKF(graphs(c, NULL) == 2, "%u graphs after the fallbacks", graphs(c, NULL));
    CHECKF(graph_files(c, "", NULL, 0) == 2, "%d graph files", graph_files(c, "", NULL, 0));
    g16_circuit_close(c);

    c = open_circuit(wasm); /* both from the cache */
    CHECKF(graphs(c, NULL) == 2, "%u graphs reopened", graphs(c, NULL));
    agree(c, "{\"x\":\"0\",\"y\":\"8\"}", "graph");
    agree(c, "{\"x\":\"9\",\"y\":\"8\"}", "graph");
    char second[4400] = "";
    CHECK(graph_files(c, ".1.wgraph", second, sizeof second) == 2 && second[0]);
    g16_circuit_close(c);

    FILE *f = fopen(second, "r+b"); /* one byte of the second graph flipped */
    CHECK(f && fseek(f, 40, SEEK_SET) == 0 && fputc(0x5a, f) != EOF);
    if (f) fclose(f);
    c = open_circuit(wasm);
    CHECKF(graphs(c, NULL) == 1, "%u graphs with the second damaged", graphs(c, NULL));
    agree(c, "{\"x\":\"5\",\"y\":\"8\"}", "graph");
    agree(c, "{\"x\":\"0\",\"y\":\"8\"}", "wasm (a guard"); /* made again */
    agree(c, "{\"x\":\"0\",\"y\":\"3\"}", "graph");
    g16_circuit_close(c);
    c = open_circuit(wasm);
    CHECKF(graphs(c, NULL) == 2, "%u graphs after the second was made again", graphs(c, NULL));
    g16_circuit_close(c);
}

/* As g16d: graphs made only by g16_circuit_make_graph, for the inputs
 * whose fallback g16_circuit_graph_wanted says would make one. */
static void on_request(const char *wasm)
{
    char err[1024];
    const char *zero = "{\"x\":\"0\",\"y\":\"5\"}", *three = "{\"x\":\"3\",\"y\":\"5\"}";
    g16_circuit *c = open_circuit(wasm);
    CHECK(!g16_circuit_graph_on_request(c, 1));
    agree(c, three, "wasm (no graph yet");
    CHECK(g16_circuit_graph_wanted(c) == 1 && graphs(c, NULL) == 0);
    CHECK(g16_circuit_make_graph(c, three, strlen(three), "input.json", err, sizeof err) == 0);
    CHECK(graphs(c, NULL) == 1);
    agree(c, three, "graph");
    CHECK(g16_circuit_graph_wanted(c) == 0);
    agree(c, zero, "wasm (a guard");
    CHECK(g16_circuit_graph_wanted(c) == 1 && graphs(c, NULL) == 1);
    /* an input of a path that has a graph makes none */
    CHECK(g16_circuit_make_graph(c, three, strlen(three), "input.json", err, sizeof err) == 0);
    CHECK(graphs(c, NULL) == 1);
    CHECK(g16_circuit_make_graph(c, zero, strlen(zero), "input.json", err, sizeof err) == 0);
    CHECK(graphs(c, NULL) == 2);
    agree(c, zero, "graph");
    CHECK(agree(c, "{\"x\":\"0\",\"y\":\"7\"}", "wasm (a guard") == G16_ERR_FORMAT);
    CHECK(g16_circuit_graph_wanted(c) == 0); /* failed: nothing to trace */
    g16_circuit_close(c);
}

/* Threads calculating both branches at once on a circuit with no graph
 * yet: every witness the wasm's, and one graph a path in the end (a
 * thread that finds another making a graph leaves its path to a later
 * calculation, and none makes a path's graph twice). */
#define PATH_THREADS 4
static const g16_circuit *threads_circuit;

static void *path_thread(void *arg)
{
    int t = (int)(intptr_t)arg;
    char in[128];
    for (int i = 0; i < 6; i++) {
        snprintf(in, sizeof in, "{\"x\":\"%d\",\"y\":\"%d\"}", (i + t) % 2 ? 0 : 2 + t, 10 + i);
        agree(threads_circuit, in, "");
    }
    return NULL;
}

static void threads(const char *wasm)
{
    char path[4400];
    g16_circuit *c = open_circuit(wasm);
    while (graph_files(c, "", path, sizeof path) > 0) CHECK(unlink(path) == 0);
    g16_circuit_close(c);
    c = open_circuit(wasm);
    threads_circuit = c;
    pthread_t t[PATH_THREADS];
    for (int i = 0; i < PATH_THREADS; i++)
        CHECK(!pthread_create(&t[i], NULL, path_thread, (void *)(intptr_t)i));
    for (int i = 0; i < PATH_THREADS; i++) pthread_join(t[i], NULL);
    agree(c, "{\"x\":\"0\",\"y\":\"1\"}", "");
    agree(c, "{\"x\":\"1\",\"y\":\"1\"}", "");
    agree(c, "{\"x\":\"0\",\"y\":\"2\"}", "graph");
    agree(c, "{\"x\":\"1\",\"y\":\"2\"}", "graph");
    CHECKF(graphs(c, NULL) == 2, "%u graphs after the threads", graphs(c, NULL));
    g16_circuit_close(c);
}

/* Eleven paths: graphs of the first WITNESS_GRAPHS_MAX, the rest the
 * wasm's. */
static void bound(const char *wasm)
{
    char in[128];
    g16_circuit *c = open_circuit(wasm);
    for (unsigned x = 0; x < 11; x++) {
        snprintf(in, sizeof in, "{\"x\":\"%u\",\"y\":\"%u\"}", x, 3 + x);
        agree(c, in, x ? "wasm (a guard" : "wasm (no graph yet");
        unsigned want = x + 1 < WITNESS_GRAPHS_MAX ? x + 1 : WITNESS_GRAPHS_MAX;
        CHECKF(graphs(c, NULL) == want, "after x = %u: %u graphs", x, graphs(c, NULL));
        CHECK(g16_circuit_graph_wanted(c) == 0);
    }
    for (unsigned x = 0; x < 11; x++) {
        snprintf(in, sizeof in, "{\"x\":\"%u\",\"y\":\"%u\"}", x, 40 + x);
        agree(c, in, x < WITNESS_GRAPHS_MAX ? "graph" : "wasm (a guard");
    }
    CHECKF(graph_files(c, "", NULL, 0) == (int)WITNESS_GRAPHS_MAX, "%d graph files",
           graph_files(c, "", NULL, 0));
    g16_circuit_close(c);
    c = open_circuit(wasm);
    CHECK(graphs(c, NULL) == WITNESS_GRAPHS_MAX);
    agree(c, "{\"x\":\"10\",\"y\":\"1\"}", "wasm (a guard");
    CHECK(graphs(c, NULL) == WITNESS_GRAPHS_MAX);
    agree(c, "{\"x\":\"7\",\"y\":\"1\"}", "graph");
    g16_circuit_close(c);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_graph_paths CACHE_DIR DATA_DIR\n");
        return 2;
    }
    cache = argv[1];
    char branch_wasm[4200], paths_wasm[4200];
    snprintf(branch_wasm, sizeof branch_wasm, "%s/branch.wasm", argv[2]);
    snprintf(paths_wasm, sizeof paths_wasm, "%s/paths.wasm", argv[2]);
    branch(branch_wasm);
    /* its graph files forgotten: the on-request circuit makes its own */
    char path[4400];
    g16_circuit *c = open_circuit(branch_wasm);
    while (graph_files(c, "", path, sizeof path) > 0) CHECK(unlink(path) == 0);
    g16_circuit_close(c);
    on_request(branch_wasm);
    threads(branch_wasm);
    bound(paths_wasm);
    return test_finish("test_graph_paths");
}
