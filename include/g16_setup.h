/* g16_setup.h: development setup, synthetic circuits and constraint checks
 * (included by g16.h; see its head comment for the contract). */
#ifndef G16_PUBLIC_SETUP_H
#define G16_PUBLIC_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "g16_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* A one-party Groth16 setup, INSECURE: this process knows the toxic waste
 * (tau, alpha, beta, gamma, delta), so whoever has it -- or the seed --
 * can forge proofs.  For development and benchmarks only. */
typedef struct {
    int threads; /* <= 0: all online CPUs */
    int seeded;  /* derive the toxic waste from seed (reproducible) */
    uint64_t seed;
    int verbose; /* phase timings on stderr */
} g16_setup_options;

/* Reads a circom .r1cs and writes a snarkjs Groth16 .zkey (atomically). */
g16_status g16_setup_insecure_dev(const char *r1cs_path, const char *zkey_path,
                                  const g16_setup_options *opt, char *err,
                                  size_t errlen) G16_MUST_USE G16_NONNULL(1, 2);
/* verification_key.json of a .zkey, as snarkjs exports it (atomically). */
g16_status g16_setup_write_vk(const char *zkey_path, const char *vk_path, char *err,
                              size_t errlen) G16_MUST_USE G16_NONNULL(1, 2);

/* A satisfied synthetic circuit: .r1cs and .wtns, byte-identical for the
 * same parameters; both or neither are written. */
#define G16_SYNTH_MAX_CONSTRAINTS (1u << 28)
#define G16_SYNTH_MAX_PUBLIC      (1u << 20)
typedef struct {
    const char *curve;      /* "bn128" or "bls12381" */
    uint32_t n_constraints; /* 1 .. G16_SYNTH_MAX_CONSTRAINTS */
    uint32_t n_public;      /* 0 .. G16_SYNTH_MAX_PUBLIC */
    uint64_t seed;
} g16_synth_params;

g16_status g16_synth_write(const g16_synth_params *p, const char *r1cs_path, const char *wtns_path,
                           char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 3);
/* The witness and a development key (g16_setup_insecure_dev with opt) of
 * the same circuit, without writing its .r1cs: the circuit is built in
 * memory (~170 bytes a constraint, 11 GiB at 2^26) and handed to the
 * setup, so the disk holds only the two outputs (a 2^26 BLS12-381 key is
 * ~50 GiB).  The key is byte-identical to the one made from the written
 * .r1cs.  Both or neither are written; G16_ERR_ARG for bad parameters,
 * G16_ERR_IO when the circuit or the witness cannot be written, else the
 * setup's status. */
g16_status g16_synth_setup(const g16_synth_params *p, const char *wtns_path, const char *zkey_path,
                           const g16_setup_options *opt, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 2, 3);

/* Whether a witness satisfies a circuit: (A.w)(B.w) = C.w for every
 * constraint and w[0] = 1.  Returns G16_OK with the verdict in *res, or a
 * failure code when a file is unreadable, malformed or does not belong
 * with the other. */
typedef struct {
    uint32_t n_constraints;
    int satisfied;          /* 1 when every constraint holds */
    uint32_t first_failure; /* smallest failing index when not */
    int bad_one;            /* witness[0] is not 1 */
} g16_check_result;

g16_status g16_check_files(const char *r1cs_path, const char *wtns_path, int threads,
                           g16_check_result *res, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 2, 4);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
