/* calc_repeat WASM INPUT CACHE_DIR RUNS: RUNS witness calculations in one
 * process; prints the least and the median thread CPU seconds of one (the
 * time limit's bench, time_limit.sh: CPU time is steadier than wall time
 * on a shared machine). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "g16_witness.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int runs = argc == 5 ? atoi(argv[4]) : 0;
    if (runs < 1) {
        fprintf(stderr, "usage: calc_repeat WASM INPUT CACHE_DIR RUNS\n");
        return 2;
    }
    static char input[1 << 20];
    FILE *f = fopen(argv[2], "rb");
    size_t len = f ? fread(input, 1, sizeof input, f) : 0;
    if (f) fclose(f);
    char err[512];
    g16_circuit *c;
    if (!f || g16_circuit_open(argv[1], argv[3], &c, err, sizeof err)) {
        fprintf(stderr, "%s\n", f ? err : "cannot read the input");
        return 1;
    }
    double *t = malloc(sizeof *t * (size_t)runs);
    for (int i = 0; t && i < runs; i++) {
        uint8_t *wtns;
        size_t n;
        double t0 = cpu_seconds();
        if (g16_witness_calculate(c, input, len, argv[2], NULL, NULL, &wtns, &n, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        t[i] = cpu_seconds() - t0;
        g16_witness_free(wtns);
    }
    qsort(t, (size_t)runs, sizeof *t, by_value);
    printf("min %.4f median %.4f\n", t[0], t[runs / 2]);
    free(t);
    g16_circuit_close(c);
    return 0;
}
