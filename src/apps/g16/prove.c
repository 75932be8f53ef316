/* g16 prove [--threads N] [--device cpu|gpu|auto] [--g2-on-cpu] [--gpu-copies N] [--verbose] KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json
 *
 * The argument order is rapidsnark's `prover`, so g16 drops in where that
 * is used.  Both outputs are created as temporary files before any work is
 * done (an unwritable path fails in milliseconds, not after the proof) and
 * renamed into place only when both are complete. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>

#include "prove.h"
#include "g16.h"

static const char prove_usage[] =
    "usage: g16 prove [options] KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json\n"
    "\n"
    "Proves with a snarkjs Groth16 proving key (KEY.zkey, BN254 or BLS12-381)\n"
    "and a circom witness (WITNESS.wtns), and writes the proof and the public\n"
    "signals exactly as `snarkjs groth16 prove` does (same argument order as\n"
    "rapidsnark's prover).  The curve is taken from the key.  The blinding\n"
    "values r and s come from getrandom(), so two proofs of one witness differ.\n"
    "\n"
    "options:\n"
    "  --threads N     CPU threads (default: all online CPUs)\n"
    "  --device D      cpu, gpu or auto (default auto: the GPU when this build\n"
    "                  has the CUDA backend and a GPU of compute capability\n"
    "                  9.0+ is present, else the CPU).  gpu fails with an\n"
    "                  error rather than fall back to the CPU\n"
    "  --g2-on-cpu     GPU path: compute the G2 MSM (B2) on the CPU while the\n"
    "                  GPU does the rest\n"
    "  --gpu-copies N  GPU path: keep N shift copies (2 to 32) of each MSM's\n"
    "                  points on the device, N times their memory, for faster\n"
    "                  MSMs (about 12% at 2^24 with 12); default: the points\n"
    "                  alone\n"
    "  --repeat N      prove N times in this process with the key loaded once\n"
    "                  (resident on the GPU), then print the median and best\n"
    "                  total time; writes the last proof (for benchmarks)\n"
    "  --verbose       print where it ran and the time of each step (witness\n"
    "                  transfer, a/b/c, NTTs, each MSM; on the GPU the MSMs\n"
    "                  run at once, so their times are overlapping spans)\n"
    "  -h, --help      show this help\n"
    "\n"
    "Exit status: 0 on success, 1 on any error (one line on stderr naming\n"
    "the file and the problem; no output file is left behind).\n";

static int parse_device(const char *s, int *device)
{
    if (!strcmp(s, "cpu")) *device = G16_DEVICE_CPU;
    else if (!strcmp(s, "gpu")) *device = G16_DEVICE_GPU;
    else if (!strcmp(s, "auto")) *device = G16_DEVICE_AUTO;
    else return -1;
    return 0;
}

/* Parses options into opt; positional arguments are left in pos[0..3]. */
static int parse_prove_args(int argc, char **argv, g16_options *opt, char **pos, int *repeat)
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(prove_usage, stdout); exit(0); }
        if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) { opt->verbose = 1; continue; }
        if (!strcmp(a, "--g2-on-cpu")) { opt->g2_on_cpu = 1; continue; }
        if (!strcmp(a, "--threads") || !strcmp(a, "--device") || !strcmp(a, "--repeat") ||
            !strcmp(a, "--gpu-copies")) {
            if (i + 1 >= argc) { fprintf(stderr, "g16 prove: %s needs a value\n", a); return -1; }
            const char *v = argv[++i];
            char *end;
            if (!strcmp(a, "--device")) {
                if (parse_device(v, &opt->device) == 0) continue;
                fprintf(stderr, "g16 prove: --device must be cpu, gpu or auto, not '%s'\n", v);
                return -1;
            }
            long t = strtol(v, &end, 10);
            if (!strcmp(a, "--gpu-copies")) {
                if (*v && !*end && t >= 2 && t <= 32) { opt->gpu_msm_copies = (int)t; continue; }
                fprintf(stderr, "g16 prove: --gpu-copies must be an integer from 2 to 32, not '%s'\n", v);
                return -1;
            }
            int ok = *v && !*end && t > 0 && t <= 4096;
            if (ok && !strcmp(a, "--repeat")) { *repeat = (int)t; continue; }
            if (ok) { opt->threads = (int)t; continue; }
            fprintf(stderr, "g16 prove: %s must be an integer from 1 to 4096, not '%s'\n", a, v);
            return -1;
        }
        if (a[0] == '-' && a[1]) { fprintf(stderr, "g16 prove: unknown option %s (see g16 prove --help)\n", a); return -1; }
        if (npos == 4) { fprintf(stderr, "g16 prove: too many arguments (see g16 prove --help)\n"); return -1; }
        pos[npos++] = argv[i];
    }
    if (npos != 4) {
        fprintf(stderr, "g16 prove: expected KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json (see g16 prove --help)\n");
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* repeat > 1: the whole proof again with the key already open (and
 * resident on the GPU after the first), the number a service sees. */
static int prove_repeated(const g16_key *key, const uint8_t *wtns, size_t wtns_len, const char *name,
                          const g16_options *opt, int repeat, char **proof, char **pub,
                          char *err, size_t errlen)
{
    double *total = malloc(sizeof *total * (size_t)repeat);
    if (!total) { snprintf(err, errlen, "%s: out of memory", name); return -1; }
    for (int i = 0; i < repeat; i++) {
        g16_timings t;
        free(*proof);
        free(*pub);
        *proof = *pub = NULL;
        if (g16_prove(key, wtns, wtns_len, name, opt, proof, pub, &t, err, errlen)) {
            free(total);
            return -1;
        }
        total[i] = t.total;
    }
    if (repeat > 1) {
        double first = total[0];
        qsort(total, (size_t)repeat, sizeof *total, cmp_double);
        fprintf(stderr, "g16 prove: %d proofs: first %.4f s, median %.4f s, best %.4f s\n",
                repeat, first, total[repeat / 2], total[0]);
    }
    free(total);
    return 0;
}

static int prove_with_files(const g16_options *opt, int repeat, char **pos, g16_output **out,
                            char *err, size_t errlen)
{
    g16_key *key = NULL;
    const uint8_t *wtns = NULL;
    size_t wtns_len = 0;
    char *proof = NULL, *pub = NULL;
    int rc = -1;
    /* the witness mapping outlives every proof: no need to copy it */
    g16_options borrowed = *opt;
    borrowed.borrow_witness = 1;
    if (g16_key_open(pos[0], &key, err, errlen)) goto done;
    if (g16_file_map(pos[1], &wtns, &wtns_len, err, errlen)) goto done;
    if (prove_repeated(key, wtns, wtns_len, pos[1], &borrowed, repeat, &proof, &pub, err, errlen))
        goto done;
    if (g16_output_write(out[0], proof, strlen(proof), err, errlen) ||
        g16_output_write(out[1], pub, strlen(pub), err, errlen))
        goto done;
    if (g16_output_commit(out[0], err, errlen)) goto done;
    if (g16_output_commit(out[1], err, errlen)) {
        unlink(pos[2]);           /* never leave a proof without its public signals */
        goto done;
    }
    rc = 0;
done:
    free(proof);
    free(pub);
    g16_file_unmap(wtns, wtns_len);
    g16_key_free(key);
    return rc;
}

int cli_prove(int argc, char **argv)
{
    g16_options opt;
    char *pos[4], err[512] = "";
    g16_output *out[2] = {NULL, NULL};
    int repeat = 1;
    g16_options_default(&opt);
    if (parse_prove_args(argc, argv, &opt, pos, &repeat)) return 1;
    int rc = g16_output_open(pos[2], &out[0], err, sizeof err) ||
             g16_output_open(pos[3], &out[1], err, sizeof err) ||
             prove_with_files(&opt, repeat, pos, out, err, sizeof err);
    g16_output_free(out[0]);
    g16_output_free(out[1]);
    if (rc) {
        fprintf(stderr, "g16 prove: %s\n", err);
        return 1;
    }
    return 0;
}
