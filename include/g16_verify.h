/* g16_verify.h: verification keys and proof verification (snarkjs JSON texts)
 * (included by g16.h; see its head comment for the contract). */
#ifndef G16_PUBLIC_VERIFY_H
#define G16_PUBLIC_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "g16_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

typedef struct g16_key g16_key;

/* The key's verification key as `snarkjs zkey export verificationkey`
 * writes it (malloc'd text, caller frees). */
g16_status g16_key_vk_json(const g16_key *key, char **vk_json, char *err,
                           size_t errlen) G16_MUST_USE G16_NONNULL(1, 2);

/* Checks a proof against a verification key (snarkjs JSON texts).
 * G16_OK when the inputs were read, with the verdict in *valid (true:
 * the proof holds; false: it does not, and err says why); G16_ERR_FORMAT
 * when an input is malformed (message in err; *valid false). */
g16_status g16_verify_json(const char *vk_json, const char *public_json, const char *proof_json,
                           bool *valid, char *err, size_t errlen) G16_MUST_USE G16_NONNULL(4);

/* Checks n proofs of one verification key at once (snarkjs JSON texts:
 * public_json[i] and proof_json[i]): valid[i] gets proof i's verdict:
 * 1 valid, 0 invalid, -1 malformed (what g16_verify_json would say for
 * it: G16_OK with true or false, or G16_ERR_FORMAT).  The
 * pairing equations of the well-formed proofs are checked as one, with
 * random 128-bit weights from getrandom(): n + 3 pairings and one final
 * exponentiation instead of 4n and n (about a third of the time a proof
 * in batches of 8); when it fails, every proof is checked alone, so valid
 * is exact either way.  G16_OK, or with the message in err G16_ERR_FORMAT
 * when the key is malformed and G16_ERR_NOMEM when memory or randomness
 * run out. */
g16_status g16_verify_batch_json(const char *vk_json, size_t n, const char *const *public_json,
                                 const char *const *proof_json, int *valid, char *err,
                                 size_t errlen) G16_MUST_USE;

/* As g16_verify_json, with the names the messages give each input (the
 * paths, for a program). */
g16_status g16_verify_json_named(const char *vk_json, const char *public_json,
                                 const char *proof_json, const char *vk_name,
                                 const char *public_name, const char *proof_name, bool *valid,
                                 char *err, size_t errlen) G16_MUST_USE G16_NONNULL(7);

/* What g16_vk_check_json read of a verification key. */
typedef struct {
    const char *curve; /* "bn128" or "bls12381" (static text) */
    size_t n_public;   /* nPublic: IC holds n_public + 1 points */
} g16_vk_info;

/* Checks a verification key on its own (verification_key.json's text,
 * len bytes, no NUL needed), as a program that publishes the key needs
 * (g16 export solidityverifier): a JSON object with protocol "groth16",
 * curve "bn128" or "bls12381", nPublic a non-negative integer and IC
 * holding nPublic + 1 points; vk_alpha_1, vk_beta_2, vk_gamma_2,
 * vk_delta_2 and every IC point with decimal coordinates below the field
 * modulus ([x, y] or [x, y, z] Jacobian, z = 0 infinity), on its curve
 * and in its order-r subgroup.  vk_alphabeta_12 is not read.  name labels
 * the message (NULL: "verification key").  On G16_OK, info (may be NULL)
 * is filled and *canonical (may be NULL) receives the key's text
 * (malloc'd, caller frees) with every point rewritten affine as snarkjs
 * writes one -- [x, y, "1"], infinity ["0", "1", "0"]; G2 [[x0, x1],
 * [y0, y1], ["1", "0"]], x = x0 + x1*u -- coordinates as canonical
 * decimals, other fields as given.  G16_ERR_FORMAT with "<name>: <what>"
 * ("vk.json: IC[2] is not on the curve"), G16_ERR_ARG for a NULL text,
 * G16_ERR_NOMEM. */
g16_status g16_vk_check_json(const char *text, size_t len, const char *name, g16_vk_info *info,
                             char **canonical, char *err, size_t errlen) G16_MUST_USE;

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
