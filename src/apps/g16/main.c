/* g16: the command-line front end.  Each subcommand lives in its own file
 * (prove.c, verify.c, info.c, setup.c, ...) as int cli_NAME(argc, argv)
 * with argv[0] the subcommand; this file only dispatches and documents. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"

double cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"prove", cli_prove, "KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json: make a Groth16 proof"},
#ifdef G16_CLI_VERIFY
    {"verify", cli_verify, "VK.json PUBLIC.json PROOF.json: check a proof (prints OK or INVALID)"},
    {"export-vk", cli_export_vk, "KEY.zkey VK.json: write the verification key as snarkjs does"},
#endif
    {"info", cli_info,
     "FILE...: print the header of a .zkey, .wtns or .r1cs file (a circuit.wasm: its witness "
     "path)"},
#ifdef G16_CLI_SETUP
    {"setup", cli_setup,
     "--insecure-dev CIRCUIT.r1cs KEY.zkey: one-party setup (development only)"},
    {"synth", cli_synth,
     "--constraints N --curve C --out DIR: write a synthetic circuit and witness"},
    {"check", cli_check, "CIRCUIT.r1cs WITNESS.wtns: check that a witness satisfies a circuit"},
#endif
#ifdef G16_CLI_WTNS
    {"wtns", cli_wtns, "calculate CIRCUIT.wasm INPUT.json WITNESS.wtns: a witness from inputs"},
    {"fullprove", cli_fullprove,
     "INPUT.json CIRCUIT.wasm KEY.zkey PROOF.json PUBLIC.json: witness and proof"},
#endif
#ifdef G16_CLI_EXPORT
    {"export", cli_export,
     "solidityverifier VK.json VERIFIER.sol | soliditycalldata PUBLIC.json PROOF.json"},
#endif
#ifdef G16_CLI_CLIENT
    {"client", cli_client, "...: talk to a running g16d daemon"},
#endif
};

static void usage(FILE *out)
{
    fputs("usage: g16 COMMAND [ARGS...]\n\n"
          "g16 proves Groth16 statements described by circom and snarkjs: it reads a\n"
          "snarkjs .zkey and a circom .wtns and writes proof.json / public.json that\n"
          "`snarkjs groth16 verify` accepts, on BN254 (bn128) and BLS12-381.\n\n"
          "commands:\n",
          out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n`g16 COMMAND --help` describes each command; `g16 --version` prints the\n"
          "version, the commit, the library's SONAME and whether the CUDA backend is in.\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        g16_build b;
        g16_build_version(&b);
        printf("%s %s (commit %s; libg16.so.%d; CUDA backend: %s)\n", "g16", b.version, b.commit,
               b.soname_version, b.cuda ? "yes" : "no");
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "g16: unknown command '%s' (see g16 --help)\n", argv[1]);
    return 2;
}
