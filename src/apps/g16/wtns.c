/* g16 wtns calculate CIRCUIT.wasm INPUT.json WITNESS.wtns
 * g16 fullprove INPUT.json CIRCUIT.wasm KEY.zkey PROOF.json PUBLIC.json
 *
 * snarkjs's argument orders, so g16 drops in where those commands are
 * used.  Both use only the public API (g16.h, g16_witness.h); outputs are
 * written with g16_write_file (temporary file, then rename), and
 * fullprove removes PROOF.json again if PUBLIC.json cannot be written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "g16.h"
#include "g16_witness.h"

/* The options of the witness calculation, in both commands' help. */
#define WITNESS_OPTIONS_HELP                                                                       \
    "  --cache-dir DIR  where compiled circuits are kept (default\n"                               \
    "                   $XDG_CACHE_HOME/g16, else ~/.cache/g16); it and its\n"                     \
    "                   ancestors must be this user's or root's and writable\n"                    \
    "                   by no one else (a sticky one like /tmp aside)\n"                           \
    "  --cc PATH, --wasm2c PATH\n"                                                                 \
    "                   the C compiler and wasm2c a circuit not yet in the\n"                      \
    "                   cache is compiled with, as paths (never looked up in\n"                    \
    "                   PATH; default: those found when libg16 was built,\n"                       \
    "                   --verbose prints them)\n"                                                  \
    "  --witness-timeout S\n"                                                                      \
    "                   stop a witness calculation that runs longer than S\n"                      \
    "                   seconds (a circuit loop that never ends) with an\n"                        \
    "                   error (default 600; 0: no limit); the circuit's start\n"                   \
    "                   code, run as it is opened, too (with no limit: 600);\n"                    \
    "                   a calculation by the witness graph too (the same\n"                        \
    "                   error; it does not fall back to the wasm)\n"                               \
    "  --witness-memory SIZE\n"                                                                    \
    "                   linear memory the circuit's calculator may grow to\n"                      \
    "                   (512M, 2G, ...; K/M/G/T are powers of 1024); a\n"                          \
    "                   calculation that needs more fails (default 4x what\n"                      \
    "                   the circuit starts with, at least 64M, as in g16d);\n"                     \
    "                   witness graphs that do not fit in it with an\n"                            \
    "                   evaluation are not used (the wasm computes)\n"

static const char wtns_usage[] =
    "usage: g16 wtns calculate [options] CIRCUIT.wasm INPUT.json WITNESS.wtns\n"
    "\n"
    "Computes the witness of a circom circuit for the inputs in INPUT.json and\n"
    "writes it as `snarkjs wtns calculate` does (the same bytes).  CIRCUIT.wasm\n"
    "is circom's witness calculator (the *_js folder); on first use it is\n"
    "translated to C (wasm2c) and compiled (cc) into the cache directory,\n"
    "which takes seconds to minutes for a large circuit; later runs load the\n"
    "compiled circuit from there.  Input values may be numbers, decimal or\n"
    "0x-hex strings, nested arrays for array signals; they are reduced modulo\n"
    "the field prime as snarkjs reduces them.  Lines the circuit prints with\n"
    "log() go to standard output.  INPUT.json must be a regular file of at\n"
    "most 64 MiB (g16d's default --max-body).\n"
    "\n"
    "options:\n" WITNESS_OPTIONS_HELP
    "  --verbose        print whether the circuit was compiled or cached, the\n"
    "                   time of each step, how many witness graphs the\n"
    "                   circuit has (one per path through its input-dependent\n"
    "                   branches that a calculation took), and whether a graph\n"
    "                   or its wasm gave the witness (and why not a graph), on\n"
    "                   standard error\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 on success, 1 on any error (one line on stderr naming the\n"
    "file and the problem: an unknown or missing signal, a wrong number of\n"
    "values, a failed assert with its template and line, the time limit; no\n"
    "output file is left behind), 2 on a usage error.\n";

static const char fullprove_usage[] =
    "usage: g16 fullprove [options] INPUT.json CIRCUIT.wasm KEY.zkey PROOF.json PUBLIC.json\n"
    "\n"
    "Computes the witness as `g16 wtns calculate` does and proves it with the\n"
    "Groth16 key as `g16 prove` does, in one process with the witness kept in\n"
    "memory; writes the proof and the public signals as `snarkjs groth16\n"
    "fullprove` does (same argument order).  INPUT.json must be a regular\n"
    "file of at most 64 MiB.\n"
    "\n"
    "options:\n"
    "  --threads N      CPU threads for the proof (default: all online CPUs)\n"
    "  --device D       cpu, gpu or auto, as for g16 prove (default auto)\n" WITNESS_OPTIONS_HELP
    "  --verbose        print the compile/cache outcome, the time of each step\n"
    "                   and whether the witness graph or the wasm gave the\n"
    "                   witness (and why not the graph) on standard error\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 on success, 1 on any error (one line on stderr naming the\n"
    "file and the problem; neither output file is left behind), 2 on a usage\n"
    "error.\n";

typedef struct {
    const char *cmd; /* for messages: "g16 wtns calculate" */
    const char *usage;
    const char *pos[5];
    int npos, want;
    char *cache_dir;         /* malloc'd */
    double time_limit;       /* --witness-timeout */
    size_t memory;           /* --witness-memory; 0: WTNS_MEMORY_GROWTH times the start */
    const char *cc, *wasm2c; /* --cc, --wasm2c; NULL: the library's */
    int verbose;
    g16_options prove;
} wtns_args;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

char *cli_cache_dir_default(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *base = xdg && *xdg ? xdg : home && *home ? home : NULL;
    if (!base) return NULL;
    size_t n = strlen(base) + 16;
    char *dir = malloc(n);
    if (dir) snprintf(dir, n, xdg && *xdg ? "%s/g16" : "%s/.cache/g16", base);
    return dir;
}

/* The usage texts state the library's default. */
_Static_assert((int)G16_WITNESS_TIME_LIMIT == 600, "--witness-timeout's default in the help");

/* Without --witness-memory a calculator's memory may grow to 4x what the
 * circuit starts with, at least 64 MiB: g16d's default (circom sizes its
 * memory for the circuit up front and grows it only for deep calls).
 * The open's start code, run before that size is known, gets the least. */
#define WTNS_MEMORY_GROWTH 4
#define WTNS_MEMORY_MIN    ((size_t)64 << 20)

/* INPUT.json is read whole and parsed into a tree several times its size:
 * bounded before it is read, at g16d's default --max-body (the help says
 * 64 MiB), far above what a circuit's inputs take. */
#define WTNS_INPUT_MAX ((size_t)64 << 20)

static int option_value(wtns_args *a, const char *opt, const char *v)
{
    char *end;
    long t;
    double secs;
    if (!strcmp(opt, "--witness-timeout") && !args_decimal(v, &secs) && secs <= 1e9) {
        a->time_limit = secs;
        return 0;
    }
    if (!strcmp(opt, "--witness-memory") && !args_size(v, &a->memory) && a->memory > 0) return 0;
    t = strtol(v, &end, 10);
    static const char *const devices[] = {"auto", "cpu", "gpu"};
    static const int device_codes[] = {G16_DEVICE_AUTO, G16_DEVICE_CPU, G16_DEVICE_GPU};
    if (!strcmp(opt, "--cc") && *v) {
        a->cc = v;
        return 0;
    }
    if (!strcmp(opt, "--wasm2c") && *v) {
        a->wasm2c = v;
        return 0;
    }
    if (!strcmp(opt, "--cache-dir")) {
        free(a->cache_dir);
        return (a->cache_dir = strdup(v)) ? 0 : -1;
    }
    if (!strcmp(opt, "--threads") && *v && !*end && t > 0 && t <= 4096) {
        a->prove.threads = (int)t;
        return 0;
    }
    for (size_t i = 0; !strcmp(opt, "--device") && i < 3; i++)
        if (!strcmp(v, devices[i])) {
            a->prove.device = device_codes[i];
            return 0;
        }
    fprintf(stderr, "%s: bad value '%s' for %s (see %s --help)\n", a->cmd, v, opt, a->cmd);
    return -1;
}

/* 0: parsed; 1: help printed; -1: usage error (printed). */
static int parse_args(wtns_args *a, int argc, char **argv, int prove_options)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            fputs(a->usage, stdout);
            return 1;
        }
        if (!strcmp(s, "--verbose") || !strcmp(s, "-v")) {
            a->verbose = 1;
            continue;
        }
        int takes = !strcmp(s, "--cache-dir") || !strcmp(s, "--cc") || !strcmp(s, "--wasm2c") ||
                    !strcmp(s, "--witness-timeout") || !strcmp(s, "--witness-memory") ||
                    (prove_options && (!strcmp(s, "--threads") || !strcmp(s, "--device")));
        if (takes && i + 1 < argc) {
            if (option_value(a, s, argv[++i])) return -1;
            continue;
        }
        if (s[0] == '-' && s[1]) {
            fprintf(stderr, "%s: %s option %s (see %s --help)\n", a->cmd,
                    takes ? "a value is needed for the" : "unknown", s, a->cmd);
            return -1;
        }
        if (a->npos == a->want) {
            fprintf(stderr, "%s: too many arguments (see %s --help)\n", a->cmd, a->cmd);
            return -1;
        }
        a->pos[a->npos++] = s;
    }
    if (a->npos != a->want) {
        fprintf(stderr, "%s: expected %d file arguments (see %s --help)\n", a->cmd, a->want,
                a->cmd);
        return -1;
    }
    if (!a->cache_dir && !(a->cache_dir = cli_cache_dir_default())) {
        fprintf(stderr, "%s: no cache directory: set HOME or XDG_CACHE_HOME, or give --cache-dir\n",
                a->cmd);
        return -1;
    }
    return 0;
}

static void print_log_line(void *ctx, const char *line)
{
    (void)ctx;
    printf("%s\n", line);
}

/* The witness of input_path for the circuit at wasm_path: as .wtns bytes,
 * or written to out_path when it is not NULL. */
static int calculate(const wtns_args *a, const char *wasm_path, const char *input_path,
                     const char *out_path, uint8_t **wtns, size_t *wtns_len, char *err,
                     size_t errlen)
{
    double t0 = now();
    g16_circuit *c = NULL;
    char *input = NULL;
    /* the library's reader: a FIFO is refused, not waited on; the size
     * checked before anything is read */
    int rc = g16_file_read_text(input_path, WTNS_INPUT_MAX, &input, err, errlen);
    size_t len = input ? strlen(input) : 0;
    /* the limits bound the start code the open runs, so they go with it */
    g16_circuit_limits limits = {.time_limit = a->time_limit,
                                 .memory_limit = a->memory ? a->memory : WTNS_MEMORY_MIN,
                                 .cc = a->cc,
                                 .wasm2c = a->wasm2c};
    if (!rc) rc = g16_circuit_open_limited(wasm_path, a->cache_dir, &limits, &c, err, errlen);
    double t1 = now();
    if (!rc && !a->memory) {
        size_t grown = g16_circuit_memory_bytes(c) * WTNS_MEMORY_GROWTH;
        g16_circuit_set_memory_limit(c, grown > WTNS_MEMORY_MIN ? grown : WTNS_MEMORY_MIN);
    }
    if (!rc && out_path)
        rc = g16_witness_calculate_file(c, input, len, input_path, print_log_line, NULL, out_path,
                                        err, errlen);
    else if (!rc)
        rc = g16_witness_calculate(c, input, len, input_path, print_log_line, NULL, wtns, wtns_len,
                                   err, errlen);
    fflush(stdout);
    char path[320];
    if (!rc && a->verbose && !g16_circuit_witness_path(c, path, sizeof path)) {
        const char *cc, *wasm2c;
        g16_circuit_tools_default(&cc, &wasm2c);
        double t2 = now();
        /* after the calculation, which may have made a graph of its path */
        unsigned graphs = g16_circuit_graph_count(c);
        fprintf(stderr,
                "%s: circuit %s in %.3f s (%s; tools %s, %s; %u witness graph%s), witness of %u "
                "values in %.3f s, by the %s\n",
                a->cmd, g16_circuit_compiled(c) ? "compiled" : "loaded from the cache", t1 - t0,
                a->cache_dir, a->cc ? a->cc : cc, a->wasm2c ? a->wasm2c : wasm2c, graphs,
                graphs == 1 ? "" : "s", g16_circuit_witness_size(c), t2 - t1, path);
    }
    g16_circuit_close(c);
    free(input);
    return rc;
}

int cli_wtns(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "calculate")) {
        int help = argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
        fputs(wtns_usage, help ? stdout : stderr);
        return help ? 0 : 2;
    }
    wtns_args a = {.cmd = "g16 wtns calculate",
                   .usage = wtns_usage,
                   .want = 3,
                   .time_limit = G16_WITNESS_TIME_LIMIT};
    int p = parse_args(&a, argc - 1, argv + 1, 0);
    if (p) {
        free(a.cache_dir);
        return p > 0 ? 0 : 2;
    }
    if (cli_check_outputs(a.cmd, a.pos, 2, a.pos + 2, 1)) {
        free(a.cache_dir);
        return 1;
    }
    char err[1024];
    int rc = calculate(&a, a.pos[0], a.pos[1], a.pos[2], NULL, NULL, err, sizeof err);
    if (rc) fprintf(stderr, "%s: %s\n", a.cmd, err);
    free(a.cache_dir);
    return rc ? 1 : 0;
}

static int prove_and_write(const wtns_args *a, const uint8_t *wtns, size_t len, char *err,
                           size_t errlen)
{
    g16_key *key = NULL;
    char *proof = NULL, *pub = NULL;
    g16_timings t;
    int rc = g16_key_open(a->pos[2], &key, err, errlen);
    /* as g16 prove: a point off its curve would give a proof no verifier
     * accepts, without a word */
    if (!rc) rc = g16_key_check_points(key, a->prove.threads, err, errlen);
    if (!rc) rc = g16_prove(key, wtns, len, a->pos[0], &a->prove, &proof, &pub, &t, err, errlen);
    if (!rc && a->verbose)
        fprintf(stderr, "%s: proof in %.3f s on the %s\n", a->cmd, t.total,
                t.on_gpu ? "GPU" : "CPU");
    if (!rc) rc = g16_write_file(a->pos[3], proof, strlen(proof), err, errlen);
    if (!rc && (rc = g16_write_file(a->pos[4], pub, strlen(pub), err, errlen)))
        unlink(a->pos[3]); /* never leave a proof without its public signals */
    free(proof);
    free(pub);
    g16_key_free(key);
    return rc;
}

int cli_fullprove(int argc, char **argv)
{
    wtns_args a = {.cmd = "g16 fullprove",
                   .usage = fullprove_usage,
                   .want = 5,
                   .time_limit = G16_WITNESS_TIME_LIMIT};
    g16_options_default(&a.prove);
    int p = parse_args(&a, argc, argv, 1);
    if (p) {
        free(a.cache_dir);
        return p > 0 ? 0 : 2;
    }
    a.prove.verbose = 0;
    if (cli_check_outputs(a.cmd, a.pos, 3, a.pos + 3, 2)) {
        free(a.cache_dir);
        return 1;
    }
    char err[1024];
    uint8_t *wtns = NULL;
    size_t len;
    int rc = calculate(&a, a.pos[1], a.pos[0], NULL, &wtns, &len, err, sizeof err);
    if (!rc) rc = prove_and_write(&a, wtns, len, err, sizeof err);
    if (rc) fprintf(stderr, "%s: %s\n", a.cmd, err);
    g16_witness_free(wtns);
    free(a.cache_dir);
    return rc ? 1 : 0;
}
