/* verify: Groth16 verification of snarkjs JSON files, and the verification
 * key of a .zkey as `snarkjs zkey export verificationkey` writes it.
 *
 * Contract
 * - g16_verify_json and g16_verify_json_named (include/g16.h) return
 *   1 when the proof is valid, 0 when it is invalid, -1 when an input is
 *   malformed; err always gets one line "<name>: <what>" for 0 and -1,
 *   where <name> is the file the problem is in and <what> names the field
 *   ("proof.json: pi_a[1] is not a decimal number below the field modulus").
 *   g16_verify_json names the inputs "verification key", "public signals"
 *   and "proof"; the CLI passes the paths.
 * - Malformed (-1): unparsable JSON, missing or mistyped fields, an unknown
 *   curve or protocol, curve names that disagree between the proof and the
 *   key, a public-signal count other than nPublic, coordinates that are not
 *   decimal field elements, verification-key points off their curve.
 * - Invalid (0): a public signal >= r, a proof point off its curve or
 *   outside the order-r subgroup, or a failed pairing equation
 *   e(-pi_a, pi_b) e(alpha1, beta2) e(vk_x, gamma2) e(pi_c, delta2) = 1,
 *   vk_x = IC[0] + sum_i public[i] IC[i+1].  snarkjs also answers
 *   "false" for all three.
 * - Points may be given as [x, y] or [x, y, z] (Jacobian, z = 0 is
 *   infinity), as ffjavascript reads them.
 * - g16_vk_check_json (include/g16.h) checks a verification key alone, for
 *   a program that publishes it: the key's checks above, and its points in
 *   their order-r subgroups too (a key outside them makes every proof
 *   fail, which a verifier on its own, trusting the key, does not look
 *   for); it gives the key back with every point affine and reduced.
 * - vk_export_json: text (malloc'd, caller frees) of the verification key
 *   of an opened zkey: protocol, curve, nPublic, vk_alpha_1, vk_beta_2,
 *   vk_gamma_2, vk_delta_2, vk_alphabeta_12 = e(alpha1, beta2), IC, in that
 *   order, one-space indentation like snarkjs.  Returns 0, or non-zero with
 *   "<name>: <what>" in err (a key point that is not reduced or not on its
 *   curve).
 * - vk_C_g1_json / vk_C_g2_json (C: bn254, bls12_381): a new JSON array of
 *   an affine point as ffjavascript's toObject writes it: [x, y, "1"],
 *   infinity ["0", "1", "0"] (G2 likewise with [c0, c1] pairs).
 */
#ifndef G16_VERIFY_H
#define G16_VERIFY_H

#include <stddef.h>

#include "curve/curve.h"
#include "formats/formats.h"
#include "g16.h"

struct json_t;

int vk_export_json(const zkey *z, const char *name, char **out, char *err, size_t errlen);

struct json_t *vk_bn254_g1_json(const bn254_g1_affine *p);
struct json_t *vk_bn254_g2_json(const bn254_g2_affine *p);
struct json_t *vk_bls12_381_g1_json(const bls12_381_g1_affine *p);
struct json_t *vk_bls12_381_g2_json(const bls12_381_g2_affine *p);

#endif
