/* g16 verify VK.json PUBLIC.json PROOF.json   (snarkjs's argument order)
 * g16 export-vk KEY.zkey VK.json
 *
 * Thin wrappers: the library (g16.h) names the file at fault in every
 * message, so these pass the paths as names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "g16.h"

static const char verify_usage[] =
    "usage: g16 verify [options] VK.json PUBLIC.json PROOF.json\n"
    "\n"
    "Checks a Groth16 proof against a verification key, as `snarkjs groth16\n"
    "verify` does (same argument order), on BN254 (bn128) and BLS12-381.\n"
    "The proof points must lie on their curves and in the order-r subgroups,\n"
    "the public signals must be below r and as many as the key's nPublic.\n"
    "\n"
    "options:\n"
    "  --time          print the time the check took to stderr\n"
    "  -h, --help      show this help\n"
    "\n"
    "Prints OK and exits 0 for a valid proof; prints INVALID and exits 1 for\n"
    "an invalid one (the reason on stderr); exits 2 with one line on stderr\n"
    "naming the file and the field for unreadable or malformed input (a key\n"
    "with alpha, beta, gamma or delta at infinity is malformed: it would\n"
    "accept forged proofs).\n";

static const char export_usage[] =
    "usage: g16 export-vk KEY.zkey VK.json\n"
    "\n"
    "Writes the verification key of a snarkjs Groth16 proving key exactly as\n"
    "`snarkjs zkey export verificationkey` does (protocol, curve, nPublic,\n"
    "vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC).\n"
    "VK.json is written to a temporary file and renamed into place; it may not\n"
    "be KEY.zkey (the same path however spelled, or a hard link to it).  A key\n"
    "whose alpha, beta, gamma or delta is the point at infinity is refused: its\n"
    "verification key would accept forged proofs.\n"
    "\n"
    "Exits 0 on success, 1 on any error (one line on stderr).\n";

/* Bounds on the JSON inputs, checked before reading, against being handed
 * a proving key (or a disk image) by mistake.  A proof is three points
 * whatever the circuit (0.8 KiB as snarkjs writes it, 1.1 KiB on
 * BLS12-381); the verification key and the public signals grow with the
 * number of public signals (some 400 and 80 bytes each), so 256 MiB holds
 * over half a million of them. */
static const size_t vk_public_max_bytes = (size_t)256 << 20;
static const size_t proof_max_bytes = (size_t)64 << 10;

static char *read_text(const char *path, size_t max, char *err, size_t errlen)
{
    char *text;
    return g16_file_read_text(path, max, &text, err, errlen) ? NULL : text;
}

/* Collects exactly n positional arguments; -1 after printing a usage error,
 * 1 when --help was shown. */
static int positional(int argc, char **argv, const char *usage, int n, char **pos, int *timing)
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 1;
        }
        if (timing && !strcmp(a, "--time")) {
            *timing = 1;
            continue;
        }
        if (a[0] == '-' && a[1]) {
            fprintf(stderr, "g16 %s: unknown option %s (see g16 %s --help)\n", argv[0], a, argv[0]);
            return -1;
        }
        if (npos == n) {
            fprintf(stderr, "g16 %s: too many arguments (see g16 %s --help)\n", argv[0], argv[0]);
            return -1;
        }
        pos[npos++] = argv[i];
    }
    if (npos == n) return 0;
    fprintf(stderr, "g16 %s: expected %s (see g16 %s --help)\n", argv[0],
            n == 3 ? "VK.json PUBLIC.json PROOF.json" : "KEY.zkey VK.json", argv[0]);
    return -1;
}

int cli_verify(int argc, char **argv)
{
    char *pos[3], *text[3] = {NULL, NULL, NULL}, err[512] = "";
    int timing = 0;
    g16_status rc = G16_ERR_IO;
    bool valid = false;
    int p = positional(argc, argv, verify_usage, 3, pos, &timing);
    if (p) return p > 0 ? 0 : 2;
    double t0 = cli_seconds();
    if ((text[0] = read_text(pos[0], vk_public_max_bytes, err, sizeof err)) &&
        (text[1] = read_text(pos[1], vk_public_max_bytes, err, sizeof err)) &&
        (text[2] = read_text(pos[2], proof_max_bytes, err, sizeof err)))
        rc = g16_verify_json_named(text[0], text[1], text[2], pos[0], pos[1], pos[2], &valid, err,
                                   sizeof err);
    if (timing) fprintf(stderr, "g16 verify: %.3f ms\n", (cli_seconds() - t0) * 1e3);
    for (int i = 0; i < 3; i++) free(text[i]);
    if (rc == G16_OK && valid) {
        puts("OK");
        return 0;
    }
    if (rc == G16_OK) {
        puts("INVALID");
        fprintf(stderr, "g16 verify: %s\n", err);
        return 1;
    }
    fprintf(stderr, "g16 verify: %s\n", err);
    return 2;
}

int cli_export_vk(int argc, char **argv)
{
    char *pos[2], *json = NULL, err[512] = "";
    g16_key *key = NULL;
    int p = positional(argc, argv, export_usage, 2, pos, NULL);
    if (p) return p > 0 ? 0 : 1;
    if (cli_check_outputs("g16 export-vk", (const char *const *)pos, 1,
                          (const char *const *)pos + 1, 1))
        return 1;
    int rc = g16_key_open(pos[0], &key, err, sizeof err) ||
             g16_key_vk_json(key, &json, err, sizeof err) ||
             g16_write_file(pos[1], json, strlen(json), err, sizeof err);
    free(json);
    g16_key_free(key);
    if (rc) {
        fprintf(stderr, "g16 export-vk: %s\n", err);
        return 1;
    }
    return 0;
}
