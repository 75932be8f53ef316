/* g16 export solidityverifier | soliditycalldata (see export.h).
 *
 * Numbers are read with GMP so that the checks (decimal, below the field
 * order, on the curve) and the hexadecimal rendering snarkjs gives are
 * exact for any size.  Output is assembled in memory first: a failure
 * half-way prints nothing and leaves no file behind. */
#define _GNU_SOURCE
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
    "reduced and on the curve, affine or at infinity.  Code size grows with\n"
    "N, about 90 bytes a signal with solc's optimizer: the EVM's 24 KiB limit\n"
    "on a contract's code is reached near 250 public signals.  The file is\n"
    "written to a temporary file and renamed into place.\n"
    "\n"
    "soliditycalldata prints the arguments of verifyProof for a proof, as hex\n"
    "strings, exactly as `snarkjs zkey export soliditycalldata PUBLIC.json\n"
    "PROOF.json` prints them (pi_b's coordinates in the precompiles' order,\n"
    "imaginary part first).  Numbers must be decimal or 0x-hex strings, the\n"
    "forms snarkjs reads as numbers; anything else is refused.\n"
    "\n"
    "Not provided: checking that a key belongs to a circuit and a powers-of-tau\n"
    "file (`snarkjs zkey verify CIRCUIT.r1cs PTAU KEY.zkey`) is out of scope;\n"
    "g16 trusts the key it is given.\n"
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

/* Parses a JSON string of decimal digits (or, with hex_ok, "0x" and hex
 * digits: the forms snarkjs reads as numbers) into v; 0 or -1. */
static int export_number(const json_t *s, int hex_ok, mpz_t v)
{
    const char *t = json_string_value(s);
    if (!t) return -1;
    int base = 10;
    const char *digits = "0123456789";
    if (hex_ok && t[0] == '0' && t[1] == 'x') {
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
        if (export_number(x, 1, v)) {
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
        if (export_number(json_array_get(pub, i), 1, v)) {
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

/* The verification key, its numbers as canonical decimal texts.  G2
 * coordinates are kept in the precompiles' order: x = x1*i + x0 as
 * (x1, x0), then y likewise. */
typedef struct {
    size_t n_public;
    char *alpha[2], *beta[4], *gamma[4], *delta[4];
    char **ic; /* 2 * (n_public + 1): x, y of IC[0], IC[1], ... */
} sol_vk;

/* What reading a key needs at hand: the file's name for messages, the
 * field order and scratch numbers (t[0..3] hold the point being read). */
typedef struct {
    const char *path;
    mpz_t q, t[8];
    char *err;
    size_t errlen;
} sol_reader;

/* a = a * b in Fq2 (a0 + a1*i with i^2 = -1); uses t[6], t[7]. */
static void sol_fq2_mul(sol_reader *rd, mpz_t a0, mpz_t a1, const mpz_t b0, const mpz_t b1)
{
    mpz_mul(rd->t[6], a0, b0);
    mpz_submul(rd->t[6], a1, b1);
    mpz_mul(rd->t[7], a0, b1);
    mpz_addmul(rd->t[7], a1, b0);
    mpz_mod(a0, rd->t[6], rd->q);
    mpz_mod(a1, rd->t[7], rd->q);
}

/* Whether (x, y) = (t[0], t[1]) lies on G1: y^2 = x^3 + 3. */
static int sol_on_g1(sol_reader *rd)
{
    mpz_t *t = rd->t;
    mpz_powm_ui(t[4], t[0], 3, rd->q);
    mpz_add_ui(t[4], t[4], 3);
    mpz_submul(t[4], t[1], t[1]);
    mpz_mod(t[4], t[4], rd->q);
    return !mpz_sgn(t[4]);
}

/* Whether (x0 + x1*i, y0 + y1*i) = t[0..3] lies on the twist G2:
 * y^2 = x^3 + 3 / (9 + i), checked as (y^2 - x^3) (9 + i) = 3. */
static int sol_on_g2(sol_reader *rd)
{
    mpz_t *t = rd->t, nine, one;
    mpz_init_set_ui(nine, 9);
    mpz_init_set_ui(one, 1);
    mpz_set(t[4], t[0]);
    mpz_set(t[5], t[1]);
    sol_fq2_mul(rd, t[4], t[5], t[0], t[1]); /* x^2 */
    sol_fq2_mul(rd, t[4], t[5], t[0], t[1]); /* x^3 */
    mpz_neg(t[4], t[4]);
    mpz_neg(t[5], t[5]);
    mpz_addmul(t[4], t[2], t[2]); /* y^2 - x^3, y^2 = (y0^2 - y1^2) + 2 y0 y1 i */
    mpz_submul(t[4], t[3], t[3]);
    mpz_addmul(t[5], t[2], t[3]);
    mpz_addmul(t[5], t[2], t[3]);
    sol_fq2_mul(rd, t[4], t[5], nine, one);
    mpz_clears(nine, one, NULL);
    return !mpz_cmp_ui(t[4], 3) && !mpz_sgn(t[5]);
}

/* Number k of a point: G1 [x, y, z], G2 [[x0, x1], [y0, y1], [z0, z1]]. */
static const json_t *sol_coord(const json_t *p, int g2, int k)
{
    return g2 ? json_array_get(json_array_get(p, (size_t)k / 2), (size_t)k % 2)
              : json_array_get(p, (size_t)k);
}

/* Reads the point p named what into t[0..] (G1: x y; G2: x0 x1 y0 y1) and
 * checks it: coordinates decimal strings below q, z = 1 (affine, on the
 * curve) or z = 0 (infinity as snarkjs writes it; read as all zero, the
 * precompiles' encoding). */
static int sol_point_read(sol_reader *rd, const json_t *p, int g2, const char *what)
{
    int n = g2 ? 4 : 2;
    const char *z0 = json_string_value(sol_coord(p, g2, n));
    const char *z1 = g2 ? json_string_value(sol_coord(p, g2, n + 1)) : "0";
    if (json_array_size(p) != 3 || !z0 || !z1 || strcmp(z1, "0") ||
        (strcmp(z0, "1") && strcmp(z0, "0"))) {
        snprintf(rd->err, rd->errlen, "%s: %s is neither affine (z = 1) nor infinity (z = 0)",
                 rd->path, what);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        if (export_number(sol_coord(p, g2, k), 0, rd->t[k]) || mpz_cmp(rd->t[k], rd->q) >= 0) {
            snprintf(rd->err, rd->errlen,
                     "%s: %s has a coordinate that is not a decimal string below the BN254 "
                     "field order",
                     rd->path, what);
            return -1;
        }
        if (!strcmp(z0, "0")) mpz_set_ui(rd->t[k], 0);
    }
    if (!strcmp(z0, "1") && !(g2 ? sol_on_g2(rd) : sol_on_g1(rd))) {
        snprintf(rd->err, rd->errlen, "%s: %s is not on the BN254 curve", rd->path, what);
        return -1;
    }
    return 0;
}

/* Reads point what of the key into out as decimal texts, G2 in the
 * precompiles' order (x1, x0, y1, y0). */
static int sol_point(sol_reader *rd, const json_t *p, int g2, const char *what, char **out)
{
    if (sol_point_read(rd, p, g2, what)) return -1;
    for (int k = 0; k < (g2 ? 4 : 2); k++) out[k] = mpz_get_str(NULL, 10, rd->t[g2 ? k ^ 1 : k]);
    return 0;
}

static void sol_vk_free(sol_vk *vk)
{
    char **all[] = {vk->alpha, vk->beta, vk->gamma, vk->delta};
    for (size_t i = 0; i < 4; i++)
        for (size_t k = 0; k < (i ? 4u : 2u); k++) free(all[i][k]);
    for (size_t k = 0; vk->ic && k < 2 * (vk->n_public + 1); k++) free(vk->ic[k]);
    free(vk->ic);
}

/* Checks the key's header: a Groth16 key on BN254 with nPublic >= 1
 * public signals and an IC point for each, plus one. */
static int sol_vk_header(sol_reader *rd, const json_t *j, size_t *n_public)
{
    const char *protocol = json_string_value(json_object_get(j, "protocol"));
    const char *curve = json_string_value(json_object_get(j, "curve"));
    const json_t *np = json_object_get(j, "nPublic");
    size_t n_ic = json_array_size(json_object_get(j, "IC"));
    const char *why = NULL;
    if (!protocol || strcmp(protocol, "groth16"))
        why = "not a Groth16 verification key (protocol is not \"groth16\")";
    else if (!curve || strcmp(curve, "bn128"))
        why = "the key is not on BN254 (curve is not \"bn128\"); g16's verifier contract "
              "uses the EVM's BN254 precompiles only";
    else if (!json_is_integer(np) || json_integer_value(np) < 0 ||
             (size_t)json_integer_value(np) + 1 != n_ic)
        why = "nPublic is not the number of IC points less one";
    else if (n_ic < 2)
        why = "the key has no public signals (nPublic 0), and verifyProof's uint[0] argument "
              "is not valid Solidity";
    if (why) {
        snprintf(rd->err, rd->errlen, "%s: %s", rd->path, why);
        return -1;
    }
    *n_public = n_ic - 1;
    return 0;
}

static int sol_vk_read(sol_reader *rd, const json_t *j, sol_vk *vk)
{
    if (sol_vk_header(rd, j, &vk->n_public)) return -1;
    size_t n_ic = vk->n_public + 1;
    if (!(vk->ic = calloc(2 * n_ic, sizeof *vk->ic))) {
        snprintf(rd->err, rd->errlen, "%s: out of memory", rd->path);
        return -1;
    }
    if (sol_point(rd, json_object_get(j, "vk_alpha_1"), 0, "vk_alpha_1", vk->alpha) ||
        sol_point(rd, json_object_get(j, "vk_beta_2"), 1, "vk_beta_2", vk->beta) ||
        sol_point(rd, json_object_get(j, "vk_gamma_2"), 1, "vk_gamma_2", vk->gamma) ||
        sol_point(rd, json_object_get(j, "vk_delta_2"), 1, "vk_delta_2", vk->delta))
        return -1;
    for (size_t i = 0; i < n_ic; i++) {
        char what[32];
        snprintf(what, sizeof what, "IC[%zu]", i);
        if (sol_point(rd, json_array_get(json_object_get(j, "IC"), i), 0, what, vk->ic + 2 * i))
            return -1;
    }
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

static void sol_point_consts(FILE *f, const char *name, int g2, char *const *v)
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

static int export_verifier(const char *vk_path, const char *sol_path, char *err, size_t errlen)
{
    sol_reader rd = {.path = vk_path, .err = err, .errlen = errlen};
    sol_vk vk = {0};
    char *text = NULL;
    size_t len = 0;
    mpz_init_set_str(rd.q, bn254_q, 10);
    for (int k = 0; k < 8; k++) mpz_init(rd.t[k]);
    json_t *j = export_read_json(vk_path, err, errlen);
    int rc = !j || sol_vk_read(&rd, j, &vk);
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
    json_decref(j);
    sol_vk_free(&vk);
    mpz_clear(rd.q);
    for (int k = 0; k < 8; k++) mpz_clear(rd.t[k]);
    return rc ? -1 : 0;
}

int cli_export(int argc, char **argv)
{
    static const struct {
        const char *name, *args;
        int (*run)(const char *, const char *, char *, size_t);
    } subs[] = {
        {"solidityverifier", "VK.json VERIFIER.sol", export_verifier},
        {"soliditycalldata", "PUBLIC.json PROOF.json", export_calldata},
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
        char err[512] = "";
        if (!subs[s].run(argv[2], argv[3], err, sizeof err)) return 0;
        fprintf(stderr, "g16 export %s: %s\n", subs[s].name, err);
        return 1;
    }
    fprintf(stderr, "g16 export: expected solidityverifier or soliditycalldata (see g16 export "
                    "--help)\n");
    return 2;
}
