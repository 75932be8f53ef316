/* setup: a one-party Groth16 setup that writes a snarkjs-format .zkey.
 *
 * INSECURE BY DESIGN: this process draws the toxic waste (tau, alpha, beta,
 * gamma, delta) itself, so whoever knows it -- or the seed it was derived
 * from -- can forge proofs for the circuit.  It exists for development and
 * benchmarks (keys for circuits of any size, no ceremony files, no Node.js).
 *
 * Contract
 * - setup_write_zkey reads a circom .r1cs (bn128 or bls12381 scalar field)
 *   and writes a Groth16 .zkey laid out exactly as snarkjs's `zkey new`
 *   does: sections 1, 2, 4, 3, 9, 8, 5, 6, 7, 10 in that order; the same
 *   domain size rule; the coefficient section with the public-input rows
 *   snarkjs appends and values c·R² mod r; IC, A, B1, B2, C points in
 *   Montgomery form with infinity as (0, 0); H points for the odd coset of
 *   the 2n-th roots of unity, already divided by delta.  gamma and delta
 *   are random (not 1 as in a fresh snarkjs key), so no contribution is
 *   needed; section 10 holds a BLAKE2b-512 hash of the key's points and
 *   zero contributions.
 * - Toxic waste comes from getrandom(), or, when opt->seeded, from
 *   BLAKE2b of the seed: the same seed and circuit give a byte-identical
 *   key.
 * - The output is written atomically; on failure nothing is left behind
 *   and err holds one line "<file>: <problem>".
 * - Both return a g16_status (g16_setup_insecure_dev and
 *   g16_setup_write_vk in include/g16.h are these two): NOT_FOUND, IO or
 *   FORMAT for the input file, UNSUPPORTED for a circuit Groth16 cannot
 *   prove here (other field, custom gates), TOO_LARGE past the curve's
 *   domain, IO when the output cannot be written.
 * - Memory: about 3 field elements per signal and 1 per domain row, plus
 *   the fixed-base tables (tens of MiB) and a bounded output buffer; the
 *   r1cs is mapped, not copied.
 */
#ifndef G16_SETUP_H
#define G16_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"
#include "g16.h"

/* The options are the public g16_setup_options (include/g16.h). */
typedef g16_setup_options setup_options;

int setup_write_zkey(const char *r1cs_path, const char *zkey_path, const setup_options *opt,
                     char *err, size_t errlen);

/* The same from a parsed circuit (r1cs_parse over any buffer: a file's
 * mapping or an in-memory one); r1cs_name names it in errors.  r is only
 * read. */
int setup_write_zkey_r1cs(const r1cs *r, const char *r1cs_name, const char *zkey_path,
                          const setup_options *opt, char *err, size_t errlen);

/* verification_key.json of a zkey, as `snarkjs zkey export
 * verificationkey` writes it (through the verify module), atomically. */
int setup_write_vk(const char *zkey_path, const char *vk_path, char *err, size_t errlen);

#endif
