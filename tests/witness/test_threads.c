/* test_threads CHECK.wasm CACHE_DIR: one circuit serves several threads at
 * once.  Each thread computes witnesses for its own inputs (some failing
 * the circuit's assert, some exhausting its stack) and every result must
 * equal the same input's witness computed alone, one call at a time. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16_witness.h"

#define THREADS 4
#define ROUNDS  24

typedef struct {
    uint8_t *wtns; /* NULL: the call failed */
    size_t len;
    char err[256];
} result;

static const g16_circuit *circuit;
static result expected[ROUNDS];
static int mismatches;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Round i's input: a = i (asserts a < 10, so rounds 10+ fail), and every
 * seventh round recurses past the stack limit. */
static void compute(int i, result *r)
{
    char json[160];
    snprintf(json, sizeof json, "{\"a\": %d, \"b\": [[%d, 2], [3, %d]], \"d\": %d}", i, i * 7,
             i + 1, i % 7 == 6 ? 1000000 : i);
    r->wtns = NULL;
    if (g16_witness_calculate(circuit, json, strlen(json), "input.json", NULL, NULL, &r->wtns,
                              &r->len, r->err, sizeof r->err))
        r->wtns = NULL;
}

static int same(const result *a, const result *b)
{
    if (!a->wtns || !b->wtns) return !a->wtns && !b->wtns && !strcmp(a->err, b->err);
    return a->len == b->len && !memcmp(a->wtns, b->wtns, a->len);
}

static void *worker(void *arg)
{
    int t = (int)(size_t)arg;
    for (int k = 0; k < ROUNDS; k++) {
        int i = (k + t * 5) % ROUNDS;
        result r;
        compute(i, &r);
        if (!same(&r, &expected[i])) {
            pthread_mutex_lock(&lock);
            mismatches++;
            fprintf(stderr, "thread %d round %d differs (%s)\n", t, i, r.wtns ? "witness" : r.err);
            pthread_mutex_unlock(&lock);
        }
        g16_witness_free(r.wtns);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_threads CHECK.wasm CACHE_DIR\n");
        return 2;
    }
    char err[512];
    g16_circuit *c;
    if (g16_circuit_open(argv[1], argv[2], &c, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    circuit = c;
    int failing = 0;
    for (int i = 0; i < ROUNDS; i++) {
        compute(i, &expected[i]);
        failing += !expected[i].wtns;
    }
    /* Rounds 10..23 fail the assert, and rounds 6 (a trap) too. */
    if (failing != ROUNDS - 10 + 1) {
        fprintf(stderr, "%d rounds failed alone, expected 15\n", failing);
        return 1;
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(size_t)t);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int i = 0; i < ROUNDS; i++) g16_witness_free(expected[i].wtns);
    g16_circuit_close(c);
    if (mismatches) {
        fprintf(stderr, "%d mismatches\n", mismatches);
        return 1;
    }
    printf("%d threads x %d rounds matched\n", THREADS, ROUNDS);
    return 0;
}
