/* test_graph CACHE_DIR FIXTURES_DIR DATA_DIR: the witness graph
 * (docs/witness-graph.md) against the wasm it is made from.
 * - Every fixture: the first calculation is the wasm's and makes the
 *   graph; the second is the graph's; both equal the fixture's
 *   witness.wtns; a reopened circuit has the graph from the cache; on
 *   random inputs the graph's witness equals the wasm's, byte for byte
 *   (merkle: random roots fail the circuit's check, the graph's guard
 *   falls back and the calculation fails as the wasm's).
 * - pubmany: its signals given in another order than the traced input's
 *   fall back (the graph models one order of setInputSignal calls).
 * - A damaged graph file (a byte flipped, or cut short), or another
 *   circuit's renamed to this one's, is not used (the wasm calculates,
 *   and the graph is made again).
 * - data/branch.wasm (branch.circom): a graph made from x != 0 serves
 *   x != 0 and falls back for x = 0 (the other branch), for x = p - 1 (a
 *   division by zero) and y = 7 (a failed assert, the wasm's error); a
 *   graph made from x = 0 serves x = 0 and falls back for x != 0.
 * - An open that finds a graph loads no calculator: the graph computes
 *   with none compiled, and the first fallback loads (compiles) it;
 *   first fallbacks on several threads at once load it once and agree. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "g16.h"
#include "g16_witness.h"
#include "witness/witness.h"
#include "../common/test.h"

static const char *cache;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random decimal of up to 76 digits (reduced by the parser: any field
 * element, small ones too). */
static void random_value(char *out)
{
    int digits = 1 + (int)(next() % 76);
    for (int i = 0; i < digits; i++) out[i] = (char)('0' + next() % 10);
    out[digits] = 0;
}

static void forget_graphs(void)
{
    DIR *d = opendir(cache);
    char path[4400];
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 7 && !strcmp(e->d_name + n - 7, ".wgraph")) {
            snprintf(path, sizeof path, "%s/%s", cache, e->d_name);
            unlink(path);
        }
    }
    if (d) closedir(d);
}

static g16_circuit *open_circuit(const char *wasm)
{
    char err[1024];
    g16_circuit *c = NULL;
    int rc = g16_circuit_open(wasm, cache, &c, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    CHECK(rc == G16_OK);
    return c;
}

/* Calculates input by the library (graph when it has one) and by the wasm
 * alone; checks they agree (same bytes, or the same error) and that the
 * library took the path want ("graph" or "wasm"); returns the library's
 * status. */
static int agree(const g16_circuit *c, const char *input, const char *want)
{
    uint8_t *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    char erra[1024] = "", errb[1024] = "", path[320];
    int ra = g16_witness_calculate(c, input, strlen(input), "input.json", NULL, NULL, &a, &alen,
                                   erra, sizeof erra);
    g16_circuit_witness_path(c, path, sizeof path);
    int rb = witness_calculate_wasm(c, input, strlen(input), &b, &blen, errb, sizeof errb);
    CHECKF(ra == rb && !strcmp(erra, errb), "%d '%s' against the wasm's %d '%s'", ra, erra, rb,
           errb);
    CHECKF(alen == blen && (!alen || !memcmp(a, b, alen)), "witnesses differ for %.200s", input);
    CHECKF(!strncmp(path, want, strlen(want)), "path '%s', expected '%s', input %.100s", path, want,
           input);
    g16_witness_free(a);
    g16_witness_free(b);
    return ra;
}

static char *read_text(const char *dir, const char *name)
{
    char path[4400], err[512], *text = NULL;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (g16_file_read_text(path, 1 << 24, &text, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    return text;
}

/* Fixture name's random input, NULL when not every input is valid. */
static char *random_input(const char *name)
{
    char *s = malloc(1 << 14), v[80], w[80];
    size_t n = 0;
    random_value(v);
    random_value(w);
    if (!strcmp(name, "multiplier"))
        snprintf(s, 1 << 14, "{\"a\":\"%s\",\"b\":\"%s\"}", v, w);
    else if (!strcmp(name, "chain"))
        snprintf(s, 1 << 14, "{\"x\":\"%s\"}", v);
    else if (!strcmp(name, "pubmany")) {
        /* the fixture's order: pub, then key (another order falls back) */
        n = (size_t)snprintf(s, 1 << 14, "{\"pub\":[");
        for (int i = 0; i < 5; i++) {
            random_value(v);
            n += (size_t)snprintf(s + n, (1 << 14) - n, "%s\"%s\"", i ? "," : "", v);
        }
        snprintf(s + n, (1 << 14) - n, "],\"key\":\"%s\"}", w);
    } else if (!strcmp(name, "merkle")) {
        /* a random root fails the circuit's check (root === cur[depth]):
         * the guard falls back, and the calculation fails as the wasm's */
        n = (size_t)snprintf(s, 1 << 14, "{\"leaf\":\"%s\",\"root\":\"%s\",\"pathElements\":[", v,
                             w);
        for (int i = 0; i < 20; i++) {
            random_value(v);
            n += (size_t)snprintf(s + n, (1 << 14) - n, "%s\"%s\"", i ? "," : "", v);
        }
        n += (size_t)snprintf(s + n, (1 << 14) - n, "],\"pathIndices\":[");
        for (int i = 0; i < 20; i++)
            n += (size_t)snprintf(s + n, (1 << 14) - n, "%s%d", i ? "," : "", (int)(next() & 1));
        snprintf(s + n, (1 << 14) - n, "]}");
    } else if (!strcmp(name, "sha256")) {
        n = (size_t)snprintf(s, 1 << 14, "{\"in\":[");
        for (int i = 0; i < 256; i++)
            n += (size_t)snprintf(s + n, (1 << 14) - n, "%s%d", i ? "," : "", (int)(next() & 1));
        snprintf(s + n, (1 << 14) - n, "]}");
    } else {
        free(s);
        return NULL;
    }
    return s;
}

static void fixture(const char *dir, const char *name)
{
    char wasm[4400], ref[4400], err[512];
    snprintf(wasm, sizeof wasm, "%s/circuit.wasm", dir);
    snprintf(ref, sizeof ref, "%s/witness.wtns", dir);
    const uint8_t *want;
    size_t want_len;
    CHECK(g16_file_map(ref, &want, &want_len, err, sizeof err) == G16_OK);
    char *input = read_text(dir, "input.json");
    forget_graphs();
    g16_circuit *c = open_circuit(wasm);
    if (!c) return;
    for (int round = 0; round < 2; round++) {
        uint8_t *w = NULL;
        size_t len = 0;
        char path[320];
        int rc = g16_witness_calculate(c, input, strlen(input), "input.json", NULL, NULL, &w, &len,
                                       err, sizeof err);
        g16_circuit_witness_path(c, path, sizeof path);
        CHECKF(rc == G16_OK && len == want_len && !memcmp(w, want, len), "%s round %d: %s", dir,
               round, rc ? err : "witness differs");
        CHECKF(!strncmp(path, round ? "graph" : "wasm", round ? 5 : 4), "%s round %d: %s", dir,
               round, path);
        g16_witness_free(w);
    }
    g16_circuit_close(c);
    c = open_circuit(wasm); /* the graph from the cache */
    if (c) agree(c, input, "graph");
    for (int i = 0; c && i < 4; i++) {
        char *r = random_input(name);
        if (r && strcmp(name, "merkle"))
            agree(c, r, "graph");
        else if (r)
            CHECK(agree(c, r, "wasm (a guard") == G16_ERR_FORMAT);
        free(r);
    }
    if (c && !strcmp(name, "pubmany")) /* the signals in another order */
        agree(c, "{\"key\":\"5\",\"pub\":[\"1\",\"2\",\"3\",\"4\",\"5\"]}",
              "wasm (the input's signals are not");
    g16_circuit_close(c);
    g16_file_unmap(want, want_len);
    free(input);
}

/* The first graph file of wasm's circuit in the cache ("" if none): by
 * its wasm's SHA-256, so that graphs other tests write into the shared
 * cache meanwhile are never taken for it. */
static void graph_file(char *out, size_t cap, const char *wasm)
{
    out[0] = 0;
    g16_circuit *c = open_circuit(wasm);
    if (!c) return;
    uint8_t sha[G16_SHA256_BYTES];
    char hex[2 * G16_SHA256_BYTES + 1];
    g16_circuit_wasm_sha256(c, sha);
    g16_circuit_close(c);
    for (int i = 0; i < G16_SHA256_BYTES; i++) sprintf(hex + 2 * i, "%02x", sha[i]);
    DIR *d = opendir(cache);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        /* <sha>-<recipe>.wgraph: the first path's (the others: .N.wgraph) */
        if (!strncmp(e->d_name, hex, 64) && n == 64 + 1 + 16 + 7 &&
            !strcmp(e->d_name + n - 7, ".wgraph"))
            snprintf(out, cap, "%s/%s", cache, e->d_name);
    }
    if (d) closedir(d);
}

/* Opens wasm and calculates in twice: paths first and second. */
static void twice(const char *wasm, const char *in, const char *first, const char *second)
{
    g16_circuit *c = open_circuit(wasm);
    if (!c) return;
    agree(c, in, first);
    if (second) agree(c, in, second);
    g16_circuit_close(c);
}

/* A damaged graph file (a byte flipped, cut short), or another circuit's
 * under this one's name, is not used: the circuit calculates with the
 * wasm (saying the cached graph was refused) and makes it again. */
static void damaged_graph(const char *fixtures)
{
    char mul[4400], pub[4400], a[4400], b[4400];
    const char *in_mul = "{\"a\":\"3\",\"b\":\"11\"}";
    const char *in_pub = "{\"pub\":[\"1\",\"2\",\"3\",\"4\",\"5\"],\"key\":\"6\"}";
    snprintf(mul, sizeof mul, "%s/bn128/multiplier/circuit.wasm", fixtures);
    snprintf(pub, sizeof pub, "%s/bn128/pubmany/circuit.wasm", fixtures);
    forget_graphs();
    twice(mul, in_mul, "wasm", "graph");
    graph_file(a, sizeof a, mul);
    CHECK(a[0]);
    FILE *f = fopen(a, "r+b"); /* one byte flipped */
    CHECK(f && fseek(f, 40, SEEK_SET) == 0 && fputc(0x5a, f) != EOF);
    if (f) fclose(f);
    twice(mul, in_mul, "wasm (the cached graph was refused", "graph");
    twice(pub, in_pub, "wasm", NULL);
    graph_file(b, sizeof b, pub);
    CHECK(b[0] && rename(b, a) == 0); /* pubmany's graph as multiplier's */
    twice(mul, in_mul, "wasm (the cached graph was refused", "graph");
    struct stat st; /* cut short: the trailer's length and sum no longer hold */
    CHECK(stat(a, &st) == 0 && truncate(a, st.st_size - 7) == 0);
    twice(mul, in_mul, "wasm (the cached graph was refused", "graph");
}

static void branch(const char *data)
{
    char wasm[4200], in[256], y[80];
    snprintf(wasm, sizeof wasm, "%s/branch.wasm", data);
    const char *p_minus_1 =
        "21888242871839275222246405745257275088548364400416034343698204186575808495616";
    forget_graphs();
    g16_circuit *c = open_circuit(wasm);
    if (!c) return;
    agree(c, "{\"x\":\"3\",\"y\":\"5\"}", "wasm"); /* traced: x != 0 */
    for (int i = 0; i < 4; i++) {
        random_value(y);
        snprintf(in, sizeof in, "{\"x\":\"%d\",\"y\":\"%s\"}", 1 + (int)(next() % 1000), y);
        agree(c, in, "graph");
    }
    agree(c, "{\"x\":\"0\",\"y\":\"5\"}", "wasm (a guard");
    snprintf(in, sizeof in, "{\"x\":\"%s\",\"y\":\"5\"}", p_minus_1);
    agree(c, in, "wasm (a division by zero");
    CHECK(agree(c, "{\"x\":\"3\",\"y\":\"7\"}", "wasm (a guard") == G16_ERR_FORMAT);
    g16_circuit_close(c);

    forget_graphs();
    c = open_circuit(wasm);
    if (!c) return;
    agree(c, "{\"x\":\"0\",\"y\":\"9\"}", "wasm"); /* traced: x = 0 */
    agree(c, "{\"x\":\"0\",\"y\":\"12345\"}", "graph");
    agree(c, "{\"x\":\"4\",\"y\":\"9\"}", "wasm (a guard");
    g16_circuit_close(c);
}

/* Whether the cache holds the calculator (the compiled wasm) of c. */
static int calculator_cached(const g16_circuit *c)
{
    uint8_t sha[G16_SHA256_BYTES];
    char hex[2 * G16_SHA256_BYTES + 1];
    g16_circuit_wasm_sha256(c, sha);
    for (int i = 0; i < G16_SHA256_BYTES; i++) sprintf(hex + 2 * i, "%02x", sha[i]);
    DIR *d = opendir(cache);
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (!strncmp(e->d_name, hex, 64) && n > 3 && !strcmp(e->d_name + n - 3, ".so") &&
            !strstr(e->d_name, ".trace.so"))
            found = 1;
    }
    if (d) closedir(d);
    return found;
}

/* Removes c's calculator from the cache. */
static void forget_calculator(const g16_circuit *c)
{
    uint8_t sha[G16_SHA256_BYTES];
    char hex[2 * G16_SHA256_BYTES + 1], path[4400];
    g16_circuit_wasm_sha256(c, sha);
    for (int i = 0; i < G16_SHA256_BYTES; i++) sprintf(hex + 2 * i, "%02x", sha[i]);
    DIR *d = opendir(cache);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (!strncmp(e->d_name, hex, 64) && n > 3 && !strcmp(e->d_name + n - 3, ".so") &&
            !strstr(e->d_name, ".trace.so")) {
            snprintf(path, sizeof path, "%s/%s", cache, e->d_name);
            unlink(path);
        }
    }
    if (d) closedir(d);
}

/* One calculation of lazy_input on lazy_circuit, by several threads at
 * once: the first fallbacks of a circuit opened with its graph race to
 * load its calculator. */
#define LAZY_THREADS 4
static const g16_circuit *lazy_circuit;
static const char *lazy_input;
typedef struct {
    uint8_t *wtns;
    size_t len;
    int rc;
} lazy_result;

static void *lazy_thread(void *arg)
{
    lazy_result *r = arg;
    char err[1024];
    r->rc = g16_witness_calculate(lazy_circuit, lazy_input, strlen(lazy_input), "input.json", NULL,
                                  NULL, &r->wtns, &r->len, err, sizeof err);
    return NULL;
}

/* The threads' witnesses all equal the wasm's of lazy_input. */
static void lazy_race(const g16_circuit *c, const char *input)
{
    lazy_circuit = c;
    lazy_input = input;
    pthread_t t[LAZY_THREADS];
    lazy_result r[LAZY_THREADS] = {{0}};
    for (int i = 0; i < LAZY_THREADS; i++) CHECK(!pthread_create(&t[i], NULL, lazy_thread, &r[i]));
    for (int i = 0; i < LAZY_THREADS; i++) pthread_join(t[i], NULL);
    uint8_t *want = NULL;
    size_t wlen = 0;
    char err[1024];
    CHECK(witness_calculate_wasm(c, input, strlen(input), &want, &wlen, err, sizeof err) == 0);
    for (int i = 0; i < LAZY_THREADS; i++) {
        CHECK(r[i].rc == G16_OK && r[i].len == wlen && want && !memcmp(r[i].wtns, want, wlen));
        g16_witness_free(r[i].wtns);
    }
    g16_witness_free(want);
}

/* An open that finds a graph still loads the calculator of the bytes it
 * opened (compiled again when the cache lost it): a long-lived caller
 * must not load, at its first fallback, a wasm replaced since; the graph
 * computes, and an input that falls back agrees with the wasm. */
static void lazy_calculator(const char *data)
{
    char wasm[4200], err[1024];
    snprintf(wasm, sizeof wasm, "%s/branch.wasm", data);
    forget_graphs();
    g16_circuit *c = open_circuit(wasm);
    if (!c) return;
    agree(c, "{\"x\":\"3\",\"y\":\"5\"}", "wasm"); /* traced: x != 0 */
    forget_calculator(c);
    g16_circuit_close(c);
    c = open_circuit(wasm);
    if (!c) return;
    CHECK(calculator_cached(c) && g16_circuit_compiled(c));
    CHECK(g16_circuit_witness_size(c) > 0 && g16_circuit_field_bytes(c) == 32 &&
          g16_circuit_memory_bytes(c) > 0);
    uint8_t *w = NULL;
    size_t wlen = 0;
    const char *in = "{\"x\":\"8\",\"y\":\"5\"}";
    CHECK(g16_witness_calculate(c, in, strlen(in), "input.json", NULL, NULL, &w, &wlen, err,
                                sizeof err) == G16_OK &&
          wlen == g16_witness_wtns_bytes(c));
    char path[320];
    g16_circuit_witness_path(c, path, sizeof path);
    CHECKF(!strcmp(path, "graph"), "path '%s'", path);
    g16_witness_free(w);
    agree(c, "{\"x\":\"0\",\"y\":\"5\"}", "wasm (a guard");
    CHECK(calculator_cached(c));
    agree(c, in, "graph");
    g16_circuit_close(c);
    c = open_circuit(wasm); /* its calculator cached now: the threads load it */
    if (!c) return;
    lazy_race(c, "{\"x\":\"0\",\"y\":\"6\"}");
    g16_circuit_close(c);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_graph CACHE_DIR FIXTURES_DIR DATA_DIR [CURVE/NAME...]\n");
        return 2;
    }
    cache = argv[1];
    const char *all[] = {"bn128/multiplier", "bn128/chain",     "bn128/pubmany",
                         "bn128/sha256",     "bn128/merkle",    "bls12381/multiplier",
                         "bls12381/chain",   "bls12381/pubmany"};
    int n = argc > 4 ? argc - 4 : (int)(sizeof all / sizeof *all);
    for (int i = 0; i < n; i++) {
        const char *f = argc > 4 ? argv[4 + i] : all[i];
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/%s", argv[2], f);
        fixture(dir, strchr(f, '/') + 1);
    }
    if (argc == 4) damaged_graph(argv[2]);
    branch(argv[3]);
    lazy_calculator(argv[3]);
    return test_finish("test_graph");
}
