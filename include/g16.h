/* g16: Groth16 proving for circom/snarkjs circuits, as a C library.
 *
 * Contract
 * - A key (g16_key) is opened once from a snarkjs .zkey (mapped, not
 *   copied) and can prove any number of witnesses, from several threads at
 *   once: a key is read-only after g16_key_open.
 * - Proving is split into stages so a pipeline (g16d) can run them on
 *   different workers and hold memory only as long as a stage needs it:
 *       g16_job_new      parse and check a .wtns against the key (cheap)
 *       g16_job_synthesize   a, b, c from the key's coefficients, the six
 *                        NTTs, h (the big per-proof buffers live here)
 *       g16_job_msm      the five MSMs (A, B1, B2, C, H); frees h
 *       g16_job_finish   draws r, s (getrandom), assembles the proof and
 *                        renders proof.json / public.json text
 *   g16_prove runs all four.  Stages must be called in this order.
 * - Every call that can fail returns 0 (G16_OK) on success and a g16_status
 *   code on failure, with a one-line message in err ("<file>: <problem>");
 *   the code says what kind of failure it was (a program maps it to an exit
 *   status or an HTTP status), the message says which.  Nothing is written
 *   to disk by the library except through g16_write_file (temp file +
 *   rename).
 * - Outputs are the JSON texts snarkjs writes: proof.json with "pi_a",
 *   "pi_b", "pi_c", "protocol": "groth16", "curve": "bn128" | "bls12381";
 *   public.json: the public signals as decimal strings.
 * - The declarations live in one header per concern, all included here:
 *   g16_status.h (failure codes), g16_prove.h (keys, options, the proving
 *   stages), g16_plan.h (memory planning), g16_verify.h (verification),
 *   g16_files.h (files), g16_setup.h (development setup, synthetic
 *   circuits, constraint checks).
 */
#ifndef G16_H
#define G16_H

#include <stddef.h>
#include <stdint.h>

#include "g16_files.h"
#include "g16_plan.h"
#include "g16_prove.h"
#include "g16_setup.h"
#include "g16_status.h"
#include "g16_verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares
 * is its exported interface. */
#pragma GCC visibility push(default)

/* A short lower-case name of the code ("format", "mismatch", ...). */
const char *g16_status_name(int status);

/* What this libg16 is: its version ("1.0.0"), the git commit it was built
 * from ("unknown" when built outside a checkout), its SONAME's version
 * (libg16.so.N) and whether its CUDA backend is compiled in (1) or not
 * (0; a GPU may still be absent at run time: g16_gpu_available). */
typedef struct {
    const char *version, *commit;
    int soname_version;
    int cuda;
} g16_build;
void g16_build_version(g16_build *out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
