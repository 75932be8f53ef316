/* g16 export solidityverifier | soliditycalldata (see export.h).
 *
 * The verification key is checked by the library (g16_vk_check_json:
 * shape, coordinates reduced, points on their curves and in their
 * subgroups), which also gives it back in canonical form; calldata's
 * numbers are read with GMP so that the hexadecimal rendering snarkjs
 * gives is exact for any size.  Output is assembled in memory first: a
 * failure half-way prints nothing and leaves no file behind. */
#define _GNU_SOURCE
#include "commands.h"
#include "export.h"

#include <gmp.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"

static const char export_usage[] =
    "usage: g16 export solidityverifier VK.json VERIFIER.sol\n"
    "       g16 export soliditycalldata PUBLIC.json PROOF.json\n"
    "\n"
    "solidityverifier writes a Solidity contract Groth16Verifier that checks\n"
    "proofs for the verification key VK.json on an Ethereum chain (snarkjs's\n"
    "command reads the .zkey; here write VK.json first with `g16 export-vk\n"
    "KEY.zkey VK.json` or `snarkjs zkey export verificationkey`), through the\n"
    "BN254 precompiles ecAdd (0x06), ecMul (0x07) and ecPairing (0x08).  Its\n"
    "interface is snarkjs's:\n"
    "  function verifyProof(uint[2] calldata _pA, uint[2][2] calldata _pB,\n"
    "      uint[2] calldata _pC, uint[N] calldata _pubSignals)\n"
    "      public view returns (bool)\n"
    "with N the key's nPublic (at least 1).  It returns false, never reverts,\n"
    "for a wrong proof, coordinates outside the base field, a point off its\n"
    "curve (B: or outside its subgroup), or a public signal not below the\n"
    "scalar field order r.  BN254 (bn128) keys only: a BLS12-381 contract\n"
    "(EIP-2537's precompiles) is not provided.  The key's points must be\n"
    "reduced, on the curve and in its order-r subgroup ([x, y] or [x, y, z]\n"
    "Jacobian, z = 0 at infinity), and alpha, beta, gamma and delta not at\n"
    "infinity (such a key accepts forged proofs).  Code size grows with N,\n"
    "about 90 bytes a signal with solc's optimizer: the EVM's 24 KiB limit on\n"
    "a contract's code is reached near 250 public signals.  The file is\n"
    "written to a temporary file and renamed into place; it may not be\n"
    "VK.json.\n"
    "\n"
    "soliditycalldata prints the arguments of verifyProof for a proof, as hex\n"
    "strings, exactly as `snarkjs zkey export soliditycalldata PUBLIC.json\n"
    "PROOF.json` prints them (pi_b's coordinates in the precompiles' order,\n"
    "imaginary part first).  Numbers must be decimal or 0x-hex strings, the\n"
    "forms snarkjs reads as numbers; anything else is refused.\n"
    "\n"
    "Not provided: checking that a key belongs to a circuit and a powers-of-tau\n"
    "file (`snarkjs zkey verify CIRCUIT.r1cs PTAU KEY.zkey`) is out of scope;\n"
    "beyond its points' checks above, g16 trusts the key it is given.\n"
    "\n"
    "Exits 0 on success, 1 with one line on stderr naming the file at fault,\n"
    "2 for wrong usage.\n";

/* BN254's base field order (point coordinates) and scalar field order
 * (public signals). */
static const char bn254_q[] =
    "21888242871839275222246405745257275088696311157297823662689037894645226208583";
static const char bn254_r[] =
    "21888242871839275222246405745257275088548364400416034343698204186575808495617";

/* JSON inputs are small; the bound is against being handed a proving key
 * by mistake. */
static const size_t export_json_max = (size_t)64 << 20;

static json_t *export_read_json(const char *path, char *err, size_t errlen)
{
    char *text;
    if (g16_file_read_text(path, export_json_max, &text, err, errlen)) return NULL;
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);
    free(text);
    if (!j) snprintf(err, errlen, "%s: not JSON (line %d: %s)", path, je.line, je.text);
    return j;
}

/* Parses a JSON string of decimal digits (or "0x" and hex digits: the
 * forms snarkjs reads as numbers) into v; 0 or -1. */
static int export_number(const json_t *s, mpz_t v)
{
    const char *t = json_string_value(s);
    if (!t) return -1;
    int base = 10;
    const char *digits = "0123456789";
    if (t[0] == '0' && t[1] == 'x') {
        t += 2;
        base = 16;
        digits = "0123456789abcdefABCDEF";
    }
    if (!*t || t[strspn(t, digits)]) return -1;
    return mpz_set_str(v, t, base);
}

/* ---- soliditycalldata ---- */

/* Prints v as snarkjs does: "0x" and lowercase hex, zero-padded to 64
 * digits (wider numbers are not cut). */
static void calldata_hex(FILE *out, const mpz_t v)
{
    char *hex = mpz_get_str(NULL, 16, v);
    int pad = 64 - (int)strlen(hex);
    fprintf(out, "\"0x%.*s%s\"", pad > 0 ? pad : 0,
            "0000000000000000000000000000000000000000000000000000000000000000", hex);
    free(hex);
}

/* The proof's numbers in verifyProof's order, each after its separator:
 * [A], [[B.x], [B.y]], [C] with B's coordinates imaginary part first. */
static const struct {
    const char *key, *sep;
    int i, j; /* j < 0: a G1 coordinate */
} calldata_items[] = {
    {"pi_a", "[", 0, -1},  {"pi_a", ", ", 1, -1}, {"pi_b", "],[[", 0, 1},  {"pi_b", ", ", 0, 0},
    {"pi_b", "],[", 1, 1}, {"pi_b", ", ", 1, 0},  {"pi_c", "]],[", 0, -1}, {"pi_c", ", ", 1, -1},
};

static int calldata_proof(FILE *out, const json_t *proof, const char *path, mpz_t v, char *err,
                          size_t errlen)
{
    const char *protocol = json_string_value(json_object_get(proof, "protocol"));
    if (!protocol || strcmp(protocol, "groth16")) {
        snprintf(err, errlen, "%s: protocol is %s, not groth16", path,
                 protocol ? protocol : "missing");
        return -1;
    }
    for (size_t k = 0; k < sizeof calldata_items / sizeof calldata_items[0]; k++) {
        const json_t *x = json_array_get(json_object_get(proof, calldata_items[k].key),
                                         (size_t)calldata_items[k].i);
        if (calldata_items[k].j >= 0) x = json_array_get(x, (size_t)calldata_items[k].j);
        if (export_number(x, v)) {
            char name[32] = "";
            if (calldata_items[k].j >= 0) snprintf(name, sizeof name, "[%d]", calldata_items[k].j);
            snprintf(err, errlen, "%s: %s[%d]%s is missing or not a number string", path,
                     calldata_items[k].key, calldata_items[k].i, name);
            return -1;
        }
        fputs(calldata_items[k].sep, out);
        calldata_hex(out, v);
    }
    return 0;
}

static int calldata_public(FILE *out, const json_t *pub, const char *path, mpz_t v, char *err,
                           size_t errlen)
{
    if (!json_is_array(pub)) {
        snprintf(err, errlen, "%s: not an array of public signals", path);
        return -1;
    }
    fputs("],[", out);
    for (size_t i = 0; i < json_array_size(pub); i++) {
        if (export_number(json_array_get(pub, i), v)) {
            snprintf(err, errlen, "%s: signal %zu is not a number string", path, i);
            return -1;
        }
        if (i) fputc(',', out);
        calldata_hex(out, v);
    }
    fputs("]\n", out);
    return 0;
}

static int export_calldata(const char *public_path, const char *proof_path, char *err,
                           size_t errlen)
{
    json_t *pub = NULL, *proof = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    mpz_t v;
    mpz_init(v);
    int rc = !out || !(pub = export_read_json(public_path, err, errlen)) ||
             !(proof = export_read_json(proof_path, err, errlen)) ||
             calldata_proof(out, proof, proof_path, v, err, errlen) ||
             calldata_public(out, pub, public_path, v, err, errlen);
    if (!out) snprintf(err, errlen, "out of memory");
    if (out) fclose(out);
    if (!rc && (fwrite(text, 1, len, stdout) != len || fflush(stdout))) {
        snprintf(err, errlen, "cannot write to standard output");
        rc = 1;
    }
    mpz_clear(v);
    json_decref(pub);
    json_decref(proof);
    free(text);
    return rc ? -1 : 0;
}

/* ---- solidityverifier ---- */

/* The verification key's numbers as decimal texts, pointing into the key
 * as g16_vk_check_json rewrote it (every point affine, coordinates
 * canonical, so the texts are valid Solidity literals).  G2 coordinates
 * are kept in the precompiles' order: x = x1*i + x0 as (x1, x0), then y
 * likewise; infinity is the precompiles' all-zero point. */
typedef struct {
    size_t n_public;
    const char *alpha[2], *beta[4], *gamma[4], *delta[4];
    const char **ic; /* 2 * (n_public + 1): x, y of IC[0], IC[1], ... */
} sol_vk;

/* Point p of the canonical key (G1 [x, y, z], G2 [[x0, x1], [y0, y1],
 * [z0, z1]], z = 0 at infinity) into out in the precompiles' order. */
static void sol_point(const json_t *p, int g2, const char **out)
{
    const json_t *z = json_array_get(p, 2);
    const char *z0 = json_string_value(g2 ? json_array_get(z, 0) : z);
    int infinity = !z0 || !strcmp(z0, "0");
    for (int k = 0; k < (g2 ? 4 : 2); k++) {
        const json_t *c = g2 ? json_array_get(json_array_get(p, (size_t)k / 2), (size_t)(k % 2) ^ 1)
                             : json_array_get(p, (size_t)k);
        out[k] = infinity || !json_string_value(c) ? "0" : json_string_value(c);
    }
}

/* What the contract needs of a key g16_vk_check_json accepted: BN254 (the
 * EVM's precompiles) and at least one public signal (uint[0] is not a
 * valid Solidity parameter). */
static int sol_vk_usable(const g16_vk_info *info, const char *path, char *err, size_t errlen)
{
    const char *why = NULL;
    if (strcmp(info->curve, "bn128"))
        why = "the key is not on BN254 (curve is not \"bn128\"); g16's verifier contract "
              "uses the EVM's BN254 precompiles only";
    else if (info->n_public == 0)
        why = "the key has no public signals (nPublic 0), and verifyProof's uint[0] argument "
              "is not valid Solidity";
    if (why) snprintf(err, errlen, "%s: %s", path, why);
    return why ? -1 : 0;
}

static int sol_vk_read(const json_t *j, size_t n_public, sol_vk *vk, char *err, size_t errlen)
{
    const json_t *ic = json_object_get(j, "IC");
    vk->n_public = n_public;
    if (!(vk->ic = calloc(2 * (n_public + 1), sizeof *vk->ic))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    sol_point(json_object_get(j, "vk_alpha_1"), 0, vk->alpha);
    sol_point(json_object_get(j, "vk_beta_2"), 1, vk->beta);
    sol_point(json_object_get(j, "vk_gamma_2"), 1, vk->gamma);
    sol_point(json_object_get(j, "vk_delta_2"), 1, vk->delta);
    for (size_t i = 0; i <= n_public; i++) sol_point(json_array_get(ic, i), 0, vk->ic + 2 * i);
    return 0;
}

/* The contract around the key's constants.  The check is Groth16's
 *   e(A, B) = e(alpha, beta) e(L, gamma) e(C, delta),
 *   L = IC[0] + sum_i pub[i] IC[i+1],
 * made as one ecPairing call on (-A, B), (alpha, beta), (L, gamma),
 * (C, delta), whose product must be 1.  A and C are checked on the curve
 * here so that ecAdd and ecMul never fail and only a bad B can make the
 * pairing precompile fail; every failure is answered with false. */
static const char sol_head[] =
    "// SPDX-License-Identifier: MIT\n"
    "// Written by `g16 export solidityverifier`: a Groth16 verifier on BN254\n"
    "// for one verification key.  verifyProof checks\n"
    "//   e(A, B) = e(alpha, beta) * e(L, gamma) * e(C, delta),\n"
    "//   L = IC0 + pub[0] * IC1 + pub[1] * IC2 + ...,\n"
    "// as a single ecPairing (0x08) call on (-A, B), (alpha, beta), (L, gamma),\n"
    "// (C, delta), L being summed with ecMul (0x07) and ecAdd (0x06).\n"
    "pragma solidity >=0.8.0 <0.9.0;\n"
    "\n"
    "contract Groth16Verifier {\n"
    "    // Base field order (coordinates) and scalar field order (signals).\n";

static const char sol_key_note[] =
    "\n"
    "    // The verification key.  A G2 coordinate x = x1 * i + x0 is given as\n"
    "    // (x1, x0), the order the precompiles read.\n";

static const char sol_verify_head[] =
    "\n"
    "    /// @notice Whether (_pA, _pB, _pC) is a valid proof for _pubSignals.\n"
    "    /// @dev _pB's coordinates come imaginary part first, as\n"
    "    /// `g16 export soliditycalldata` prints them.  Returns false, never\n"
    "    /// reverts, for a coordinate not below Q, A or C off the curve, a\n"
    "    /// signal not below R, B off the curve or its subgroup, or a wrong proof.\n"
    "    function verifyProof(\n"
    "        uint[2] calldata _pA,\n"
    "        uint[2][2] calldata _pB,\n"
    "        uint[2] calldata _pC,\n"
    "        uint[%zu] calldata _pubSignals\n"
    "    ) public view returns (bool) {\n"
    "        if (!onCurve(_pA[0], _pA[1]) || !onCurve(_pC[0], _pC[1])) return false;\n"
    "        if (_pB[0][0] >= Q || _pB[0][1] >= Q || _pB[1][0] >= Q || _pB[1][1] >= Q) return "
    "false;\n"
    "\n"
    "        uint256[2] memory l = [uint256(IC0_X), IC0_Y];\n";

static const char sol_tail[] =
    "\n"
    "        uint256[24] memory p;\n"
    "        (p[0], p[1]) = (_pA[0], (Q - _pA[1]) % Q);\n"
    "        (p[2], p[3], p[4], p[5]) = (_pB[0][0], _pB[0][1], _pB[1][0], _pB[1][1]);\n"
    "        (p[6], p[7]) = (ALPHA_X, ALPHA_Y);\n"
    "        (p[8], p[9], p[10], p[11]) = (BETA_X1, BETA_X0, BETA_Y1, BETA_Y0);\n"
    "        (p[12], p[13]) = (l[0], l[1]);\n"
    "        (p[14], p[15], p[16], p[17]) = (GAMMA_X1, GAMMA_X0, GAMMA_Y1, GAMMA_Y0);\n"
    "        (p[18], p[19]) = (_pC[0], _pC[1]);\n"
    "        (p[20], p[21], p[22], p[23]) = (DELTA_X1, DELTA_X0, DELTA_Y1, DELTA_Y0);\n"
    "        return pairingIsOne(p);\n"
    "    }\n"
    "\n"
    "    /// Whether (x, y) is a point of G1 (y^2 = x^3 + 3) or (0, 0), the\n"
    "    /// precompiles' point at infinity.\n"
    "    function onCurve(uint256 x, uint256 y) private pure returns (bool) {\n"
    "        if (x >= Q || y >= Q) return false;\n"
    "        if (x == 0 && y == 0) return true;\n"
    "        return mulmod(y, y, Q) == addmod(mulmod(mulmod(x, x, Q), x, Q), 3, Q);\n"
    "    }\n"
    "\n"
    "    /// l += s * (x, y) for a key point (x, y); false when s is not below R.\n"
    "    function addScaled(uint256[2] memory l, uint256 x, uint256 y, uint256 s)\n"
    "        private view returns (bool ok)\n"
    "    {\n"
    "        if (s >= R) return false;\n"
    "        assembly {\n"
    "            // Scratch memory past the free memory pointer, not kept:\n"
    "            // (x, y, s) -> ecMul -> s * (x, y) next to l -> ecAdd -> l.\n"
    "            let t := mload(0x40)\n"
    "            mstore(t, x)\n"
    "            mstore(add(t, 0x20), y)\n"
    "            mstore(add(t, 0x40), s)\n"
    "            ok := staticcall(gas(), 0x07, t, 0x60, add(t, 0x40), 0x40)\n"
    "            mstore(t, mload(l))\n"
    "            mstore(add(t, 0x20), mload(add(l, 0x20)))\n"
    "            ok := and(ok, staticcall(gas(), 0x06, t, 0x80, l, 0x40))\n"
    "        }\n"
    "    }\n"
    "\n"
    "    /// Whether the product of the pairings of the four (G1, G2) pairs in p\n"
    "    /// is 1; false too when the precompile refuses a point.\n"
    "    function pairingIsOne(uint256[24] memory p) private view returns (bool) {\n"
    "        uint256[1] memory out;\n"
    "        bool ok;\n"
    "        assembly {\n"
    "            ok := staticcall(gas(), 0x08, p, 0x300, out, 0x20)\n"
    "        }\n"
    "        return ok && out[0] == 1;\n"
    "    }\n"
    "}\n";

static void sol_const(FILE *f, const char *name, const char *suffix, const char *value)
{
    fprintf(f, "    uint256 private constant %s%s = %s;\n", name, suffix, value);
}

static void sol_point_consts(FILE *f, const char *name, int g2, const char *const *v)
{
    static const char *const g1[] = {"_X", "_Y"}, *const g2s[] = {"_X1", "_X0", "_Y1", "_Y0"};
    for (int k = 0; k < (g2 ? 4 : 2); k++) sol_const(f, name, g2 ? g2s[k] : g1[k], v[k]);
}

static void sol_write(FILE *f, const sol_vk *vk)
{
    fputs(sol_head, f);
    sol_const(f, "Q", "", bn254_q);
    sol_const(f, "R", "", bn254_r);
    fputs(sol_key_note, f);
    sol_point_consts(f, "ALPHA", 0, vk->alpha);
    sol_point_consts(f, "BETA", 1, vk->beta);
    sol_point_consts(f, "GAMMA", 1, vk->gamma);
    sol_point_consts(f, "DELTA", 1, vk->delta);
    for (size_t i = 0; i <= vk->n_public; i++) {
        char name[32];
        snprintf(name, sizeof name, "IC%zu", i);
        sol_point_consts(f, name, 0, vk->ic + 2 * i);
    }
    fprintf(f, sol_verify_head, vk->n_public);
    for (size_t i = 1; i <= vk->n_public; i++)
        fprintf(f, "        if (!addScaled(l, IC%zu_X, IC%zu_Y, _pubSignals[%zu])) return false;\n",
                i, i, i - 1);
    fputs(sol_tail, f);
}

/* Writes text to path atomically. */
static int export_write(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    g16_output *out = NULL;
    int rc = g16_output_open(path, &out, err, errlen) ||
             g16_output_write(out, text, len, err, errlen) || g16_output_commit(out, err, errlen);
    g16_output_free(out);
    return rc ? -1 : 0;
}

/* The key read, checked by the library and rewritten in canonical form
 * into *j; 0 or -1. */
static int sol_key_load(const char *vk_path, json_t **j, size_t *n_public, char *err, size_t errlen)
{
    char *text = NULL, *canonical = NULL;
    g16_vk_info info;
    int rc = g16_file_read_text(vk_path, export_json_max, &text, err, errlen) ||
             g16_vk_check_json(text, strlen(text), vk_path, &info, &canonical, err, errlen) ||
             sol_vk_usable(&info, vk_path, err, errlen);
    if (!rc && !(*j = json_loads(canonical, 0, NULL))) {
        snprintf(err, errlen, "%s: out of memory", vk_path);
        rc = 1;
    }
    if (!rc) *n_public = info.n_public;
    free(text);
    free(canonical);
    return rc ? -1 : 0;
}

static int export_verifier(const char *vk_path, const char *sol_path, char *err, size_t errlen)
{
    json_t *j = NULL;
    sol_vk vk = {0};
    char *text = NULL;
    size_t len = 0, n_public = 0;
    int rc = sol_key_load(vk_path, &j, &n_public, err, errlen) ||
             sol_vk_read(j, n_public, &vk, err, errlen);
    if (!rc) {
        FILE *f = open_memstream(&text, &len);
        if (f) {
            sol_write(f, &vk);
            fclose(f);
        }
        rc = f ? export_write(sol_path, text, len, err, errlen)
               : (snprintf(err, errlen, "out of memory"), -1);
    }
    free(text);
    free(vk.ic);
    json_decref(j);
    return rc ? -1 : 0;
}

int cli_export(int argc, char **argv)
{
    static const struct {
        const char *name, *args;
        int (*run)(const char *, const char *, char *, size_t);
        int writes; /* the second argument is an output file */
    } subs[] = {
        {"solidityverifier", "VK.json VERIFIER.sol", export_verifier, 1},
        {"soliditycalldata", "PUBLIC.json PROOF.json", export_calldata, 0},
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(export_usage, stdout);
            return 0;
        }
    for (size_t s = 0; argc >= 2 && s < sizeof subs / sizeof subs[0]; s++) {
        if (strcmp(argv[1], subs[s].name)) continue;
        if (argc != 4) {
            fprintf(stderr, "g16 export %s: expected %s (see g16 export --help)\n", subs[s].name,
                    subs[s].args);
            return 2;
        }
        char cmd[64];
        snprintf(cmd, sizeof cmd, "g16 export %s", subs[s].name);
        const char *const *in = (const char *const *)argv + 2;
        if (subs[s].writes && cli_check_outputs(cmd, in, 1, in + 1, 1)) return 1;
        char err[512] = "";
        if (!subs[s].run(argv[2], argv[3], err, sizeof err)) return 0;
        fprintf(stderr, "g16 export %s: %s\n", subs[s].name, err);
        return 1;
    }
    fprintf(stderr, "g16 export: expected solidityverifier or soliditycalldata (see g16 export "
                    "--help)\n");
    return 2;
}
