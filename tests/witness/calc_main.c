/* witness_calc CIRCUIT.wasm INPUT.json OUT.wtns CACHE_DIR: the library's
 * witness calculation alone (no CLI), for the tests; prints "compiled" or
 * "cached" on stdout and circom's log() lines prefixed with "log: ". */
#include <stdio.h>
#include <stdlib.h>

#include "g16_witness.h"

static void print_log(void *ctx, const char *line)
{
    (void)ctx;
    printf("log: %s\n", line);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            char *b = realloc(buf, cap = cap ? 2 * cap : 4096);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        size_t n = fread(buf + *len, 1, cap - *len, f);
        if (!n) break;
        *len += n;
    }
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: witness_calc CIRCUIT.wasm INPUT.json OUT.wtns CACHE_DIR\n");
        return 2;
    }
    char err[1024];
    g16_circuit *c;
    if (g16_circuit_open(argv[1], argv[4], &c, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("%s\n", g16_circuit_compiled(c) ? "compiled" : "cached");
    size_t len, wlen;
    char *input = slurp(argv[2], &len);
    uint8_t *wtns;
    int rc = 1;
    if (!input)
        perror(argv[2]);
    else if (g16_witness_calculate(c, input, len, argv[2], print_log, NULL, &wtns, &wlen, err,
                                   sizeof err))
        fprintf(stderr, "%s\n", err);
    else {
        rc = g16_write_file(argv[3], wtns, wlen, err, sizeof err) ? 1 : 0;
        if (rc) fprintf(stderr, "%s\n", err);
        g16_witness_free(wtns);
    }
    free(input);
    g16_circuit_close(c);
    return rc;
}
