/* synth: synthetic circuits shaped like real ones, and the r1cs/witness
 * checker.
 *
 * Contract
 * - synth_generate writes a circom .r1cs and a satisfying .wtns for
 *   n_constraints constraints over the curve's scalar field.  Wire 0 is the
 *   constant 1, wires 1..n_public are public inputs, and each constraint
 *   defines exactly one new wire, so nWires = 1 + n_public + n_constraints.
 *   The rows mix boolean constraints b*(b-1) = 0, AND / XOR of bits, bit
 *   packing (linear rows), and full-width multiplications of linear
 *   combinations with random coefficients: few nonzeros per row, and a
 *   witness that is mostly 0 and 1.
 * - Output is a function of (curve, n_constraints, n_public, seed) only:
 *   the same parameters give byte-identical files.
 * - Memory: the witness (32 bytes per wire) is held; the constraints are
 *   streamed to disk.  Both files are written atomically: on failure
 *   neither path is left behind (nor a temporary file).
 * - check_files verifies (A·w)(B·w) = C·w for every constraint, with the
 *   given number of threads (<= 0: all CPUs).  It returns a g16_status
 *   with a one-line "<file>: <problem>" in err: the file's own status
 *   (NOT_FOUND, IO, FORMAT) when one is unreadable or malformed, MISMATCH
 *   when they do not belong together (field, wire count), FORMAT for a
 *   witness value outside the field; otherwise 0 with the verdict in *res.
 * - g16_synth_write and g16_check_files (include/g16.h) are these two
 *   (a curve given by name for synth).
 */
#ifndef G16_SYNTH_H
#define G16_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"
#include "g16.h"

#define SYNTH_MAX_CONSTRAINTS G16_SYNTH_MAX_CONSTRAINTS
#define SYNTH_MAX_PUBLIC      G16_SYNTH_MAX_PUBLIC

typedef struct {
    formats_curve curve;
    uint32_t n_constraints;
    uint32_t n_public;
    uint64_t seed;
} synth_params;

int synth_generate(const synth_params *p, const char *r1cs_path, const char *wtns_path, char *err,
                   size_t errlen);

/* The same circuit and witness, the witness to wtns_path (atomically) and
 * the .r1cs into an anonymous in-memory file (memfd) whose descriptor goes
 * to *r1cs_fd (the caller closes it; -1 on failure, when no witness is left
 * either): for a key without the circuit on disk (g16_synth_setup).  The
 * memory holds ~170 bytes a constraint and 8 a wire (the labels), besides
 * the witness's 32 a wire until the witness is written.  Errors name the
 * in-memory file SYNTH_MEMORY_R1CS. */
#define SYNTH_MEMORY_R1CS "circuit.r1cs (in memory)"
int synth_generate_memory(const synth_params *p, const char *wtns_path, int *r1cs_fd, char *err,
                          size_t errlen);

/* The public parameters (a curve by name) checked and converted: G16_OK,
 * or G16_ERR_ARG with "synth: <problem>". */
int synth_params_of(const g16_synth_params *p, synth_params *sp, char *err, size_t errlen);

/* The verdict is the public g16_check_result (include/g16.h). */
typedef g16_check_result check_result;

int check_files(const char *r1cs_path, const char *wtns_path, int threads, check_result *res,
                char *err, size_t errlen);

#endif
