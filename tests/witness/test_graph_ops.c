/* test_graph_ops CACHE_DIR DATA_DIR: the witness graph of data/ops.circom
 * (ops_bn128.wasm, ops_bls12381.wasm) against its wasm, on both fields:
 * circom's comparisons, logical operations, bit operations, integer
 * division and remainder, pow and shifts by constant and input-dependent
 * amounts, on inputs.  The first calculation is the wasm's and makes the
 * graph; every later one must take the graph and give the wasm's bytes,
 * on every pair of edge values (0, 1, (p - 1) / 2, (p + 1) / 2, p - 1,
 * values of 2^253 and more, shift amounts around the prime's bit length,
 * negative ones) and on random values; a zero divisor falls back, and the
 * wasm's error (it traps) is the calculation's. */
#include <dirent.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16.h"
#include "g16_witness.h"
#include "witness/witness.h"
#include "../common/test.h"

static const char *cache;
static gmp_randstate_t rs;
static int graph_runs;

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

/* Calculates input by the library (the graph when it has one) and by the
 * wasm alone: the same bytes or the same error, and the library's path
 * starts with want. */
static void agree(const g16_circuit *c, const char *input, const char *want)
{
    uint8_t *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    char erra[1024] = "", errb[1024] = "", path[320];
    int ra = g16_witness_calculate(c, input, strlen(input), "input.json", NULL, NULL, &a, &alen,
                                   erra, sizeof erra);
    g16_circuit_witness_path(c, path, sizeof path);
    int rb = witness_calculate_wasm(c, input, strlen(input), &b, &blen, errb, sizeof errb);
    CHECKF(ra == rb && !strcmp(erra, errb), "%d '%s' against the wasm's %d '%s' for %s", ra, erra,
           rb, errb, input);
    CHECKF(alen == blen && (!alen || !memcmp(a, b, alen)), "witnesses differ for %s", input);
    CHECKF(!strncmp(path, want, strlen(want)), "path '%s', expected '%s', input %s", path, want,
           input);
    graph_runs += !strcmp(path, "graph");
    g16_witness_free(a);
    g16_witness_free(b);
}

/* The edge values of the field of prime p, as decimals (reduced mod p by
 * the input parser where they are p or more). */
#define N_EDGES 30
static void edges(char out[N_EDGES][80], const mpz_t p)
{
    mpz_t v, half;
    mpz_inits(v, half, NULL);
    mpz_sub_ui(half, p, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    const long small[] = {0, 1, 2, 5, 7, 253, 254, 255, 256, 300, 511, 512, 2147483647};
    int n = 0;
    for (size_t i = 0; i < sizeof small / sizeof *small; i++)
        gmp_sprintf(out[n++], "%ld", small[i]);
    const long around_half[] = {-1, 0, 1, 2}; /* (p - 1) / 2 - 1 ... (p + 1) / 2 + 1 */
    for (size_t i = 0; i < 4; i++) {
        if (around_half[i] < 0)
            mpz_sub_ui(v, half, 1);
        else
            mpz_add_ui(v, half, (unsigned long)around_half[i]);
        gmp_sprintf(out[n++], "%Zd", v);
    }
    const unsigned long below_p[] = {1, 2, 253, 254, 255, 256, 2147483648ul}; /* negatives */
    for (size_t i = 0; i < sizeof below_p / sizeof *below_p; i++) {
        mpz_sub_ui(v, p, below_p[i]);
        gmp_sprintf(out[n++], "%Zd", v);
    }
    const unsigned long powers[] = {32, 64, 253, 254, 255, 256}; /* 2^k + 1 */
    for (size_t i = 0; i < sizeof powers / sizeof *powers; i++) {
        mpz_ui_pow_ui(v, 2, powers[i]);
        mpz_add_ui(v, v, 1);
        gmp_sprintf(out[n++], "%Zd", v);
    }
    CHECK(n == N_EDGES);
    mpz_clears(v, half, NULL);
}

static void random_below(char *out, const mpz_t p)
{
    mpz_t v;
    mpz_init(v);
    mpz_urandomm(v, rs, p);
    if (mpz_sgn(v) == 0) mpz_set_ui(v, 3);
    gmp_sprintf(out, "%Zd", v);
    mpz_clear(v);
}

static void one_field(const char *data, const char *name, const char *prime)
{
    char wasm[4200], in[2600], e[N_EDGES][80], r[3][80];
    snprintf(wasm, sizeof wasm, "%s/%s", data, name);
    mpz_t p;
    mpz_init_set_str(p, prime, 10);
    edges(e, p);
    forget_graphs();
    g16_circuit *c = NULL;
    char err[1024];
    int rc = g16_circuit_open(wasm, cache, &c, err, sizeof err);
    CHECKF(rc == G16_OK, "%s", err);
    if (rc) return;
    graph_runs = 0;
    agree(c, "{\"x\":\"12345\",\"y\":\"678\",\"s\":\"9\"}", "wasm"); /* traced */
    int runs = 0;
    for (int i = 0; i < N_EDGES; i++)
        for (int j = 1; j < N_EDGES; j++, runs++) { /* y = 0 below */
            snprintf(in, sizeof in, "{\"x\":\"%s\",\"y\":\"%s\",\"s\":\"%s\"}", e[i], e[j],
                     e[(i + 7 * j) % N_EDGES]);
            agree(c, in, "graph");
        }
    for (int i = 0; i < 64; i++, runs++) {
        for (int k = 0; k < 3; k++) random_below(r[k], p);
        snprintf(in, sizeof in, "{\"x\":\"%s\",\"y\":\"%s\",\"s\":\"%s\"}", r[0], r[1],
                 i % 2 ? e[i % N_EDGES] : r[2]);
        agree(c, in, "graph");
    }
    CHECKF(graph_runs == runs, "%s: %d of %d by the graph", name, graph_runs, runs);
    /* x \ 0 and x % 0: the graph falls back, and the wasm traps */
    agree(c, "{\"x\":\"5\",\"y\":\"0\",\"s\":\"1\"}", "wasm (a division by zero");
    g16_circuit_close(c);
    mpz_clear(p);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_graph_ops CACHE_DIR DATA_DIR\n");
        return 2;
    }
    cache = argv[1];
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 41);
    one_field(argv[2], "ops_bn128.wasm",
              "21888242871839275222246405745257275088548364400416034343698204186575808495617");
    one_field(argv[2], "ops_bls12381.wasm",
              "52435875175126190479447740508185965837690552500527637822603658699938581184513");
    gmp_randclear(rs);
    return test_finish("test_graph_ops");
}
