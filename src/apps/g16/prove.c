/* g16 prove [--threads N] [--device cpu|gpu|auto] [--g2-on-cpu] [--gpu-copies N] [--verify] [--verbose] KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json
 *
 * The argument order is rapidsnark's `prover`, so g16 drops in where that
 * is used.  The outputs are checked to be creatable before any work is
 * done (an unwritable path fails in milliseconds, not after the proof),
 * written to temporary files once the proof is ready, and renamed into
 * place only when both are complete; a signal meanwhile removes them. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "g16.h"

static const char prove_usage[] =
    "usage: g16 prove [options] KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json\n"
    "\n"
    "Proves with a snarkjs Groth16 proving key (KEY.zkey, BN254 or BLS12-381)\n"
    "and a circom witness (WITNESS.wtns), and writes the proof and the public\n"
    "signals exactly as `snarkjs groth16 prove` does (same argument order as\n"
    "rapidsnark's prover).  The curve is taken from the key.  The blinding\n"
    "values r and s come from getrandom(), so two proofs of one witness differ.\n"
    "Every point of the key is checked to lie on its curve before proving.\n"
    "PROOF.json and PUBLIC.json must be two files, and neither may be an input\n"
    "(the same path however spelled, or a hard link to it).\n"
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
    "  --device-memory-budget SIZE\n"
    "                  GPU path: the device memory (e.g. 20G) the key and its\n"
    "                  proofs may hold (default: the GPU's free memory less\n"
    "                  1/32 of it).  A key whose proof does not fit whole runs\n"
    "                  its MSMs in chunks of points, and one that does not fit\n"
    "                  that way keeps its points in pinned host memory and\n"
    "                  streams them through the GPU; the proof is the same.\n"
    "                  --verbose says which\n"
    "  --repeat N      prove N times in this process with the key loaded once\n"
    "                  (resident on the GPU), then print the median and best\n"
    "                  total time and the rate; writes the last proof (for\n"
    "                  benchmarks)\n"
    "  --jobs J        with --repeat: J proofs in flight at once, each with\n"
    "                  1/J of the threads; the rate is then the machine's\n"
    "                  capacity for this key (default 1)\n"
    "  --verify        check every proof against the key's verification key\n"
    "                  before writing it (as g16d does by default): one that\n"
    "                  fails is an error and nothing is written.  With\n"
    "                  --repeat the checks count in the rate, which is then\n"
    "                  the capacity to compare with a self-verifying g16d\n"
    "  --verbose       print the time of the key's point check, where it ran\n"
    "                  (on the GPU: how the key's points are held)\n"
    "                  and the time of each step (witness transfer, a/b/c,\n"
    "                  NTTs, each MSM; on the GPU the MSMs run at once, so\n"
    "                  their times are overlapping spans)\n"
    "  -h, --help      show this help\n"
    "\n"
    "Exit status: 0 on success, 1 on any error (one line on stderr naming\n"
    "the file and the problem; no output file is left behind).\n";

static int parse_device(const char *s, int *device)
{
    if (!strcmp(s, "cpu"))
        *device = G16_DEVICE_CPU;
    else if (!strcmp(s, "gpu"))
        *device = G16_DEVICE_GPU;
    else if (!strcmp(s, "auto"))
        *device = G16_DEVICE_AUTO;
    else
        return -1;
    return 0;
}

/* Parses options into opt; positional arguments are left in pos[0..3]. */
static int parse_prove_args(int argc, char **argv, g16_options *opt, char **pos, int *repeat,
                            int *jobs, int *verify)
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(prove_usage, stdout);
            exit(0);
        }
        if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            opt->verbose = 1;
            continue;
        }
        if (!strcmp(a, "--g2-on-cpu")) {
            opt->g2_on_cpu = 1;
            continue;
        }
        if (!strcmp(a, "--verify")) {
            *verify = 1;
            continue;
        }
        if (!strcmp(a, "--threads") || !strcmp(a, "--device") || !strcmp(a, "--repeat") ||
            !strcmp(a, "--jobs") || !strcmp(a, "--gpu-copies") ||
            !strcmp(a, "--device-memory-budget")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "g16 prove: %s needs a value\n", a);
                return -1;
            }
            const char *v = argv[++i];
            char *end;
            if (!strcmp(a, "--device")) {
                if (parse_device(v, &opt->device) == 0) continue;
                fprintf(stderr, "g16 prove: --device must be cpu, gpu or auto, not '%s'\n", v);
                return -1;
            }
            if (!strcmp(a, "--device-memory-budget")) {
                if (args_size(v, &opt->gpu_memory_budget) == 0 && opt->gpu_memory_budget) continue;
                fprintf(stderr,
                        "g16 prove: --device-memory-budget must be a size such as 20G, not '%s'\n",
                        v);
                return -1;
            }
            long t = strtol(v, &end, 10);
            if (!strcmp(a, "--gpu-copies")) {
                if (*v && !*end && t >= 2 && t <= 32) {
                    opt->gpu_msm_copies = (int)t;
                    continue;
                }
                fprintf(stderr,
                        "g16 prove: --gpu-copies must be an integer from 2 to 32, not '%s'\n", v);
                return -1;
            }
            int ok = *v && !*end && t > 0 && t <= 4096;
            if (ok && (!strcmp(a, "--repeat") || !strcmp(a, "--jobs"))) {
                *(!strcmp(a, "--repeat") ? repeat : jobs) = (int)t;
                continue;
            }
            if (ok) {
                opt->threads = (int)t;
                continue;
            }
            fprintf(stderr, "g16 prove: %s must be an integer from 1 to 4096, not '%s'\n", a, v);
            return -1;
        }
        if (a[0] == '-' && a[1]) {
            fprintf(stderr, "g16 prove: unknown option %s (see g16 prove --help)\n", a);
            return -1;
        }
        if (npos == 4) {
            fprintf(stderr, "g16 prove: too many arguments (see g16 prove --help)\n");
            return -1;
        }
        pos[npos++] = argv[i];
    }
    if (npos != 4) {
        fprintf(stderr, "g16 prove: expected KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json (see g16 "
                        "prove --help)\n");
        return -1;
    }
    return 0;
}

/* A key with a point off its curve would give a proof no verifier
 * accepts, and say nothing: its points are checked once, before proving. */
static int check_key(const g16_key *key, const g16_options *opt, char *err, size_t errlen)
{
    double t0 = cli_seconds();
    int rc = g16_key_check_points(key, opt->threads, err, errlen);
    if (opt->verbose && !rc)
        fprintf(stderr, "g16 prove: key points checked in %.3f s\n", cli_seconds() - t0);
    return rc;
}

/* The key and witness proved (repeat times), each proof checked with the
 * key's verification key when verify; *proof and *pub are the last
 * proof's texts. */
static int prove_files(const g16_options *opt, int repeat, int jobs, int verify, char **pos,
                       char **proof, char **pub, char *err, size_t errlen)
{
    g16_key *key = NULL;
    const uint8_t *wtns = NULL;
    size_t wtns_len = 0;
    char *vk = NULL;
    /* the witness mapping outlives every proof: no need to copy it */
    g16_options borrowed = *opt;
    borrowed.borrow_witness = 1;
    cli_repeat_plan plan = {.repeat = repeat, .jobs = jobs, .key_path = pos[0]};
    int rc = g16_key_open(pos[0], &key, err, errlen) || check_key(key, opt, err, errlen) ||
             (verify && g16_key_vk_json(key, &vk, err, errlen)) ||
             g16_file_map(pos[1], &wtns, &wtns_len, err, errlen);
    plan.vk_json = vk;
    rc = rc ||
         cli_prove_repeated(key, wtns, wtns_len, pos[1], &borrowed, &plan, proof, pub, err, errlen);
    size_t chunk = 0;
    const char *mode = rc || !opt->verbose ? NULL : g16_key_gpu_mode(key, &chunk);
    /* a streamed key's points pinned where the key lies add nothing here;
     * copies (where the driver declines the key's pages) count */
    if (mode)
        fprintf(stderr,
                "g16 prove: key on the GPU: %s, MSMs over %zu points a pass; host memory "
                "allocated for it beyond the key: %zu bytes pinned\n",
                mode, chunk, g16_key_gpu_host_bytes(key));
    g16_file_unmap(wtns, wtns_len);
    free(vk);
    g16_key_free(key);
    return rc ? -1 : 0;
}

/* ---- outputs and signals ------------------------------------------------
 * The outputs are temporary files from the moment they are created until
 * both are renamed into place.  A signal that ends the process meanwhile
 * (SIGINT, SIGTERM, SIGHUP) must not leave them behind: the handler
 * removes the temporary files registered here, then dies of the signal.
 * Registering and renaming happen with those signals blocked, so the
 * handler never sees a half-updated list.  The renames are the commit
 * point: a signal from then on, in whichever thread it lands, is too late
 * to undo the proof and must not report it failed, so the handler lets
 * the process finish (exit 0 with both outputs, or 1 with none when a
 * rename fails). */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
static char pending_tmp[2][PATH_MAX + 64];
static volatile sig_atomic_t pending_count, committing;

static void remove_pending_and_die(int sig)
{
    if (committing) return;
    for (int i = 0; i < pending_count; i++) unlink(pending_tmp[i]);
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the exit says which signal */
}

static void cleanup_signal_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++)
        sigaddset(set, cleanup_signals[i]);
}

/* A signal already ignored (nohup, a background job) stays ignored. */
static void install_cleanup_handlers(void)
{
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(cleanup_signals[i], NULL, &old) || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_pending_and_die;
        cleanup_signal_set(&sa.sa_mask); /* one handler at a time */
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

static void block_cleanup_signals(int block)
{
    sigset_t set;
    cleanup_signal_set(&set);
    sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/* Opens an output's temporary file and registers it for the handler. */
static int open_registered(const char *path, g16_output **out, char *err, size_t errlen)
{
    block_cleanup_signals(1);
    int rc = g16_output_open(path, out, err, errlen);
    if (!rc) {
        snprintf(pending_tmp[pending_count], sizeof pending_tmp[0], "%s",
                 g16_output_temp_path(*out));
        pending_count++;
    }
    block_cleanup_signals(0);
    return rc;
}

/* Both outputs or neither: a proof is never left without its public
 * signals. */
static int commit_both(g16_output **out, const char *proof_path, char *err, size_t errlen)
{
    block_cleanup_signals(1);
    committing = 1;
    int rc = g16_output_commit(out[0], err, errlen);
    if (!rc && (rc = g16_output_commit(out[1], err, errlen))) unlink(proof_path);
    pending_count = 0;
    block_cleanup_signals(0);
    return rc;
}

static void free_outputs(g16_output **out)
{
    block_cleanup_signals(1);
    pending_count = 0; /* g16_output_free removes them itself */
    block_cleanup_signals(0);
    g16_output_free(out[0]);
    g16_output_free(out[1]);
}

static int write_outputs(char **paths, const char *proof, const char *pub, char *err, size_t errlen)
{
    g16_output *out[2] = {NULL, NULL};
    int rc = open_registered(paths[0], &out[0], err, errlen) ||
             open_registered(paths[1], &out[1], err, errlen) ||
             g16_output_write(out[0], proof, strlen(proof), err, errlen) ||
             g16_output_write(out[1], pub, strlen(pub), err, errlen) ||
             commit_both(out, paths[0], err, errlen);
    free_outputs(out);
    return rc;
}

/* An output that cannot be created fails now, not after the proof: its
 * temporary file is made and removed at once. */
static int probe_output(const char *path, char *err, size_t errlen)
{
    g16_output *out = NULL;
    int rc = open_registered(path, &out, err, errlen);
    free_outputs((g16_output *[2]){out, NULL});
    return rc;
}

int cli_prove(int argc, char **argv)
{
    g16_options opt;
    char *pos[4], *proof = NULL, *pub = NULL, err[512] = "";
    int repeat = 1, jobs = 1, verify = 0;
    g16_options_default(&opt);
    if (parse_prove_args(argc, argv, &opt, pos, &repeat, &jobs, &verify)) return 1;
    if (cli_check_outputs("g16 prove", (const char *const *)pos, 2, (const char *const *)pos + 2,
                          2))
        return 1;
    install_cleanup_handlers();
    int rc = probe_output(pos[2], err, sizeof err) || probe_output(pos[3], err, sizeof err) ||
             prove_files(&opt, repeat, jobs, verify, pos, &proof, &pub, err, sizeof err) ||
             write_outputs(pos + 2, proof, pub, err, sizeof err);
    free(proof);
    free(pub);
    if (rc) {
        fprintf(stderr, "g16 prove: %s\n", err);
        return 1;
    }
    return 0;
}
