/* g16 setup / synth / check: argument handling for the setup module's
 * commands.  Exit status: 0 success, 1 failure (a bad or unwritable file,
 * or for check an unsatisfied constraint), 2 usage errors (and, for
 * check, unreadable input, so 1 means exactly "not satisfied"). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "setup.h"
#include "g16.h"

static const char setup_usage[] =
    "usage: g16 setup --insecure-dev [--seed N] [--threads N] [-v] CIRCUIT.r1cs KEY.zkey\n"
    "\n"
    "Makes a Groth16 proving key (snarkjs .zkey, bn128 or bls12381) for a circom\n"
    ".r1cs in one step, without a powers-of-tau file or a ceremony.  snarkjs reads\n"
    "the key (zkey export verificationkey, groth16 prove) as one of its own.\n"
    "\n"
    "Why --insecure-dev: a Groth16 key is built from secret random values (the\n"
    "\"toxic waste\": tau, alpha, beta, gamma, delta).  Here one process draws them\n"
    "all, so whoever knows them -- this machine while it runs, or anyone with the\n"
    "--seed -- can forge proofs of false statements for this circuit.  A real key\n"
    "comes from a multi-party ceremony (snarkjs powersoftau + zkey contribute),\n"
    "where one honest participant suffices.  Use this only for development,\n"
    "tests and benchmarks; the flag is required so nobody gets it by accident.\n"
    "\n"
    "options:\n"
    "  --insecure-dev  required: acknowledge that the key is not safe to deploy\n"
    "  --seed N        derive the toxic waste from N (reproducible, even less\n"
    "                  secret); default: fresh randomness from getrandom()\n"
    "  --threads N     worker threads (default: all CPUs)\n"
    "  -v, --verbose   print the time of each phase on stderr\n"
    "  -h, --help      show this help\n";

static const char synth_usage[] =
    "usage: g16 synth --constraints N --curve bn128|bls12381 [--public K] [--seed S]\n"
    "                 --out DIR [--setup [--no-r1cs]] [--threads N] [-v]\n"
    "\n"
    "Writes DIR/circuit.r1cs and DIR/witness.wtns: a satisfied synthetic circuit of\n"
    "N constraints shaped like real ones (boolean constraints b*(b-1)=0, AND/XOR\n"
    "of bits, bit packing, full-width products of linear combinations), with K\n"
    "public inputs (default 1).  The same N, K, S and curve give byte-identical\n"
    "files.  N may be written 2^k.  DIR is created if missing.\n"
    "\n"
    "  --setup   also write DIR/circuit.zkey (g16 setup --insecure-dev --seed S:\n"
    "            a development key, see g16 setup --help) and\n"
    "            DIR/verification_key.json\n"
    "  --no-r1cs with --setup: keep the circuit in memory (~170 bytes a\n"
    "            constraint) and write no DIR/circuit.r1cs, for keys whose\n"
    "            circuit would not fit on the disk beside them (same key)\n"
    "  --seed S  default 1\n"
    "  -v        with --setup: the setup's phase times on stderr\n";

static const char check_usage[] =
    "usage: g16 check [--threads N] CIRCUIT.r1cs WITNESS.wtns\n"
    "\n"
    "Checks that the witness satisfies every constraint (A.w)*(B.w) = (C.w) of\n"
    "the circuit and that witness[0] = 1.  Prints OK and exits 0, or names the\n"
    "first failing constraint and exits 1; exits 2 for unreadable, malformed or\n"
    "mismatched files.\n";

/* Decimal (or 2^k) below or equal to max. */
static int parse_count(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    if (!strncmp(s, "2^", 2)) {
        if (s[2] < '0' || s[2] > '9') return -1;
        unsigned long k = strtoul(s + 2, &end, 10);
        if (*end || k > 63) return -1;
        *out = 1ULL << k;
    } else {
        if (*s < '0' || *s > '9') return -1;
        errno = 0;
        *out = strtoull(s, &end, 10);
        if (*end || errno) return -1;
    }
    return *out <= max ? 0 : -1;
}

/* "--name value" or "--name=value"; advances *i past the value. */
static const char *opt_value(const char *cmd, int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=') return argv[*i] + n + 1;
    if (strcmp(argv[*i], name)) return NULL;
    if (*i + 1 >= argc) {
        fprintf(stderr, "g16 %s: %s needs a value\n", cmd, name);
        exit(2);
    }
    return argv[++*i];
}

static uint64_t count_arg(const char *cmd, const char *name, const char *v, uint64_t max)
{
    uint64_t x;
    if (parse_count(v, max, &x)) {
        fprintf(stderr, "g16 %s: %s must be a number from 0 to %llu, not '%s'\n", cmd, name,
                (unsigned long long)max, v);
        exit(2);
    }
    return x;
}

static int is_help(const char *a) { return !strcmp(a, "-h") || !strcmp(a, "--help"); }

/* ---- setup --------------------------------------------------------------- */

/* An argument that is not an option: kept in pos (three at most; more are
 * counted, so the caller can say how many it expected), else an unknown
 * option.  0, or -1 after printing the error. */
static int take_positional(const char *cmd, const char *arg, const char **pos, int *npos)
{
    if (arg[0] == '-' && arg[1]) {
        fprintf(stderr, "g16 %s: unknown option '%s' (see g16 %s --help)\n", cmd, arg, cmd);
        return -1;
    }
    if (*npos < 3) pos[*npos] = arg;
    (*npos)++;
    return 0;
}

int cli_setup(int argc, char **argv)
{
    g16_setup_options opt = {0};
    int insecure = 0, npos = 0;
    const char *pos[3] = {0}, *v;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(setup_usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--insecure-dev"))
            insecure = 1;
        else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
            opt.verbose = 1;
        else if ((v = opt_value("setup", argc, argv, &i, "--seed"))) {
            opt.seed = count_arg("setup", "--seed", v, UINT64_MAX);
            opt.seeded = 1;
        } else if ((v = opt_value("setup", argc, argv, &i, "--threads")))
            opt.threads = (int)count_arg("setup", "--threads", v, 4096);
        else if (take_positional("setup", argv[i], pos, &npos))
            return 2;
    }
    if (npos != 2) {
        fprintf(stderr, "g16 setup: expected CIRCUIT.r1cs KEY.zkey (see g16 setup --help)\n");
        return 2;
    }
    if (!insecure) {
        fprintf(stderr, "g16 setup: refusing to run without --insecure-dev: the key would be "
                        "forgeable by whoever knows its toxic waste (see g16 setup --help)\n");
        return 2;
    }
    if (cli_check_outputs("g16 setup", pos, 1, pos + 1, 1)) return 1;
    char err[512];
    if (g16_setup_insecure_dev(pos[0], pos[1], &opt, err, sizeof err)) {
        fprintf(stderr, "g16 setup: %s\n", err);
        return 1;
    }
    printf("wrote %s (development key: its toxic waste was known to this process)\n", pos[1]);
    return 0;
}

/* ---- synth --------------------------------------------------------------- */

typedef struct {
    g16_synth_params p;
    const char *out;
    int with_setup, no_r1cs, verbose, threads;
} synth_args;

/* snarkjs's curve names, and the other common spellings. */
static int parse_curve(const char *v, const char **c)
{
    if (!strcmp(v, "bn128") || !strcmp(v, "bn254"))
        *c = "bn128";
    else if (!strcmp(v, "bls12381") || !strcmp(v, "bls12-381"))
        *c = "bls12381";
    else
        return -1;
    return 0;
}

/* Returns -1 after printing usage (exit 0), 2 on a usage error, else 0. */
static int parse_synth(int argc, char **argv, synth_args *a)
{
    const char *v;
    int have_n = 0, have_curve = 0;
    a->p.n_public = 1;
    a->p.seed = 1;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(synth_usage, stdout);
            return -1;
        }
        if (!strcmp(argv[i], "--setup"))
            a->with_setup = 1;
        else if (!strcmp(argv[i], "--no-r1cs"))
            a->no_r1cs = 1;
        else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
            a->verbose = 1;
        else if ((v = opt_value("synth", argc, argv, &i, "--constraints"))) {
            a->p.n_constraints =
                (uint32_t)count_arg("synth", "--constraints", v, G16_SYNTH_MAX_CONSTRAINTS);
            have_n = 1;
        } else if ((v = opt_value("synth", argc, argv, &i, "--public")))
            a->p.n_public = (uint32_t)count_arg("synth", "--public", v, G16_SYNTH_MAX_PUBLIC);
        else if ((v = opt_value("synth", argc, argv, &i, "--seed")))
            a->p.seed = count_arg("synth", "--seed", v, UINT64_MAX);
        else if ((v = opt_value("synth", argc, argv, &i, "--threads")))
            a->threads = (int)count_arg("synth", "--threads", v, 4096);
        else if ((v = opt_value("synth", argc, argv, &i, "--out")))
            a->out = v;
        else if ((v = opt_value("synth", argc, argv, &i, "--curve"))) {
            if (parse_curve(v, &a->p.curve)) {
                fprintf(stderr, "g16 synth: --curve must be bn128 or bls12381, not '%s'\n", v);
                return 2;
            }
            have_curve = 1;
        } else {
            fprintf(stderr, "g16 synth: unexpected argument '%s' (see g16 synth --help)\n",
                    argv[i]);
            return 2;
        }
    }
    if (!have_n || !have_curve || !a->out || !*a->out) {
        fprintf(
            stderr,
            "g16 synth: --constraints, --curve and --out are required (see g16 synth --help)\n");
        return 2;
    }
    if (a->no_r1cs && !a->with_setup) {
        fprintf(stderr, "g16 synth: --no-r1cs needs --setup (without it there is no output but "
                        "the circuit)\n");
        return 2;
    }
    if (a->p.n_constraints == 0) {
        fprintf(stderr, "g16 synth: --constraints must be at least 1\n");
        return 2;
    }
    return 0;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static int run_synth(const synth_args *a, char **paths, char *err, size_t errlen)
{
    g16_setup_options opt = {
        .threads = a->threads, .seeded = 1, .seed = a->p.seed, .verbose = a->verbose};
    if (a->no_r1cs) {
        if (g16_synth_setup(&a->p, paths[1], paths[2], &opt, err, errlen)) return -1;
    } else if (g16_synth_write(&a->p, paths[0], paths[1], err, errlen))
        return -1;
    if (!a->with_setup) return 0;
    if ((!a->no_r1cs && g16_setup_insecure_dev(paths[0], paths[2], &opt, err, errlen)) ||
        g16_setup_write_vk(paths[2], paths[3], err, errlen)) {
        unlink(paths[2]); /* all or nothing: no half-made output folder */
        unlink(paths[1]);
        if (!a->no_r1cs) unlink(paths[0]);
        return -1;
    }
    return 0;
}

/* mkdir -p; 1 when the last component was created here, 0 when it
 * existed, -1 on error (errno set). */
static int make_dirs(const char *path)
{
    char *p = strdup(path);
    if (!p) return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0777) && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int made = mkdir(p, 0777) == 0;
    int e = errno;
    free(p);
    errno = e;
    if (made) return 1;
    struct stat st;
    if (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    if (errno == EEXIST) errno = ENOTDIR;
    return -1;
}

int cli_synth(int argc, char **argv)
{
    synth_args a = {0};
    int rc = parse_synth(argc, argv, &a);
    if (rc) return rc < 0 ? 0 : rc;
    int made_dir = make_dirs(a.out);
    if (made_dir < 0) {
        fprintf(stderr, "g16 synth: %s: %s\n", a.out, strerror(errno));
        return 1;
    }
    char *paths[4] = {join(a.out, "circuit.r1cs"), join(a.out, "witness.wtns"),
                      join(a.out, "circuit.zkey"), join(a.out, "verification_key.json")};
    char err[512] = "out of memory";
    rc = paths[0] && paths[1] && paths[2] && paths[3] ? run_synth(&a, paths, err, sizeof err) : -1;
    if (rc) {
        fprintf(stderr, "g16 synth: %s\n", err);
        if (made_dir > 0) rmdir(a.out);
    } else if (a.no_r1cs) {
        printf("wrote %s, %s and %s\n", paths[1], paths[2], paths[3]);
    } else {
        printf("wrote %s and %s%s\n", paths[0], paths[1],
               a.with_setup ? " (+ circuit.zkey, verification_key.json)" : "");
    }
    for (int i = 0; i < 4; i++) free(paths[i]);
    return rc ? 1 : 0;
}

/* ---- check --------------------------------------------------------------- */

int cli_check(int argc, char **argv)
{
    int threads = 0, npos = 0;
    const char *pos[3] = {0}, *v;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(check_usage, stdout);
            return 0;
        }
        if ((v = opt_value("check", argc, argv, &i, "--threads")))
            threads = (int)count_arg("check", "--threads", v, 4096);
        else if (take_positional("check", argv[i], pos, &npos))
            return 2;
    }
    if (npos != 2) {
        fprintf(stderr, "g16 check: expected CIRCUIT.r1cs WITNESS.wtns (see g16 check --help)\n");
        return 2;
    }
    char err[512];
    g16_check_result res;
    if (g16_check_files(pos[0], pos[1], threads, &res, err, sizeof err)) {
        fprintf(stderr, "g16 check: %s\n", err);
        return 2;
    }
    if (res.satisfied) {
        printf("OK: all %u constraints hold\n", res.n_constraints);
        return 0;
    }
    if (res.first_failure != UINT32_MAX)
        printf("FAIL: constraint %u of %u does not hold\n", res.first_failure, res.n_constraints);
    else
        printf("FAIL: witness[0] is not 1\n");
    return 1;
}
