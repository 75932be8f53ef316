/* test_timeout LOOP.wasm GOOD.wtns CACHE_DIR [START_LOOP.wasm]: the time
 * limit through the library.  LOOP.wasm is data/loop.circom compiled (it never ends for an
 * odd x), GOOD.wtns snarkjs's witness for {"x": 10, "y": 3}.
 *  - a new circuit has the header's default limit;
 *  - under a 1 s limit the odd input fails with G16_ERR_TIMEOUT and one
 *    line naming the wasm and the limit, in both calculation forms;
 *  - after each timeout the same thread and circuit compute the good
 *    input's witness, byte for byte snarkjs's;
 *  - a second thread's good calculations go on while one thread loops;
 *  - START_LOOP.wasm (data/start_loop.wat) has a start function of
 *    seconds, run when the circuit is opened: under a 0.1 s limit the
 *    first calculation, on the instance the open made, succeeds; the
 *    second, on a new instance, stops in the start code; opened with
 *    g16_circuit_open_limited under a 0.1 s limit, the open's own start
 *    code stops, with the same message. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "g16_witness.h"

static const char good_input[] = "{\"x\": 10, \"y\": 3}";
static const char loop_input[] = "{\"x\": 7, \"y\": 3}";

static const char *wasm_path;
static uint8_t *expected;
static size_t expected_len;
static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    void *buf = n > 0 ? malloc((size_t)n) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* One calculation of input, into caller memory (malloc'd here) or into
 * the library's buffer; release(into, *out) frees either. */
static int calc(const g16_circuit *c, const char *input, int into, uint8_t **out, size_t *len,
                char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    if (!into)
        return g16_witness_calculate(c, input, strlen(input), "input.json", NULL, NULL, out, len,
                                     err, errlen);
    size_t room = g16_witness_wtns_bytes(c);
    if (!(*out = malloc(room))) return G16_ERR_NOMEM;
    return g16_witness_calculate_into(c, input, strlen(input), "input.json", NULL, NULL, *out, room,
                                      len, err, errlen);
}

static void release(int into, uint8_t *wtns)
{
    if (into)
        free(wtns);
    else
        g16_witness_free(wtns);
}

/* The good input's witness matches snarkjs's (into: caller memory). */
static void expect_good(const g16_circuit *c, int into, const char *when)
{
    uint8_t *wtns;
    size_t len;
    char err[512] = "";
    int rc = calc(c, good_input, into, &wtns, &len, err, sizeof err);
    CHECK(rc == 0, "%s: good input failed: %s", when, err);
    CHECK(rc != 0 || (len == expected_len && !memcmp(wtns, expected, len)),
          "%s: the good input's witness differs from snarkjs's", when);
    release(into, wtns);
}

/* The looping input stops with the timeout after about limit seconds. */
static void expect_timeout(const g16_circuit *c, int into, const char *limit_text)
{
    uint8_t *wtns;
    size_t len;
    char err[512] = "", want[600];
    double t0 = now();
    int rc = calc(c, loop_input, into, &wtns, &len, err, sizeof err);
    double took = now() - t0;
    snprintf(want, sizeof want, "%s: the witness calculation ran past its time limit of %s s",
             wasm_path, limit_text);
    CHECK(rc == G16_ERR_TIMEOUT, "looping input: status %d (%s), expected timeout", rc, err);
    CHECK(!strcmp(err, want), "looping input: message '%s', expected '%s'", err, want);
    CHECK(len == 0 && (into || !wtns), "looping input: a witness came back");
    CHECK(took >= atof(limit_text), "looping input stopped after %.3f s, before its limit", took);
    printf("%s after %.3f s\n", err, took);
    release(into, wtns);
}

static void *good_worker(void *arg)
{
    const g16_circuit *c = arg;
    for (int i = 0; i < 50; i++) expect_good(c, i & 1, "beside a looping thread");
    return NULL;
}

/* START_LOOP.wasm under a 0.1 s limit: the first calculation succeeds,
 * the second stops in the start code. */
static void start_code(const char *start_wasm, const char *cache_dir)
{
    char err[512] = "", want[600];
    g16_circuit *c;
    int rc = g16_circuit_open(start_wasm, cache_dir, &c, err, sizeof err);
    CHECK(rc == 0, "opening %s: %s", start_wasm, err);
    if (rc) return;
    g16_circuit_set_time_limit(c, 0.1);
    for (int i = 0; i < 2; i++) {
        uint8_t *wtns;
        size_t len;
        err[0] = 0;
        rc = g16_witness_calculate(c, "{}", 2, "empty.json", NULL, NULL, &wtns, &len, err,
                                   sizeof err);
        if (i == 0) {
            CHECK(rc == 0, "start code: the first calculation failed: %s", err);
        } else {
            snprintf(want, sizeof want, "%s: its start code ran past the time limit of 0.1 s",
                     start_wasm);
            CHECK(rc == G16_ERR_TIMEOUT && !strcmp(err, want),
                  "start code: the second calculation: status %d, '%s', expected '%s'", rc, err,
                  want);
        }
        if (!rc) g16_witness_free(wtns);
    }
    g16_circuit_close(c);
}

/* START_LOOP.wasm opened under a 0.1 s limit: the open fails in the start
 * code, well before the start's seconds are up. */
static void start_code_limited(const char *start_wasm, const char *cache_dir)
{
    char err[512] = "", want[600];
    g16_circuit *c = NULL;
    g16_circuit_limits limits = {.time_limit = 0.1};
    double t0 = now();
    int rc = g16_circuit_open_limited(start_wasm, cache_dir, &limits, &c, err, sizeof err);
    double took = now() - t0;
    snprintf(want, sizeof want, "%s: its start code ran past the time limit of 0.1 s", start_wasm);
    CHECK(rc == G16_ERR_TIMEOUT && !c && !strcmp(err, want),
          "open under a 0.1 s limit: status %d, '%s', expected '%s'", rc, err, want);
    CHECK(took < 1, "open under a 0.1 s limit took %.3f s", took);
    g16_circuit_close(c);
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: test_timeout LOOP.wasm GOOD.wtns CACHE_DIR [START_LOOP.wasm]\n");
        return 2;
    }
    if (argc == 5) start_code(argv[4], argv[3]);
    if (argc == 5) start_code_limited(argv[4], argv[3]);
    wasm_path = argv[1];
    char err[512];
    g16_circuit *c;
    if (!(expected = read_file(argv[2], &expected_len)) ||
        g16_circuit_open(wasm_path, argv[3], &c, err, sizeof err)) {
        fprintf(stderr, "%s\n", expected ? err : "cannot read the expected witness");
        return 1;
    }
    CHECK(g16_circuit_time_limit(c) == G16_WITNESS_TIME_LIMIT, "default limit %g",
          g16_circuit_time_limit(c));
    g16_circuit_set_time_limit(c, 1);
    for (int into = 0; into < 2; into++) {
        expect_timeout(c, into, "1");
        expect_good(c, into, "after a timeout");
    }
    g16_circuit_set_time_limit(c, 0.5);
    pthread_t th;
    pthread_create(&th, NULL, good_worker, c);
    expect_timeout(c, 0, "0.5");
    pthread_join(th, NULL);
    expect_good(c, 0, "after the threads");
    g16_circuit_close(c);
    free(expected);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("all passed\n");
    return 0;
}
