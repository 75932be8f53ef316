/* groth16: the prover, generic over the curve.
 *
 * Contract
 * - A groth16_curve is a table of what the prover needs from one curve:
 *   sizes, the synthesis step over its scalar field (a, b, c from the key's
 *   coefficients, the coset NTTs, h), its G1 and G2 MSMs, and the final
 *   assembly of the proof from the MSM results and r, s.  The tables are
 *   stamped out from prover_template.h, so the prover's logic (prover.c,
 *   which implements include/g16.h) names no curve.
 * - Points cross this interface as affine bytes in the .zkey layout
 *   (Montgomery, little-endian, infinity all zero) and scalars as plain
 *   little-endian bytes, the layouts of the files themselves, so the CPU
 *   and GPU backends and the files meet without conversions.
 */
#ifndef G16_GROTH16_H
#define G16_GROTH16_H

#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"
#include "g16.h"

enum { GROTH16_MSM_A, GROTH16_MSM_B1, GROTH16_MSM_B2, GROTH16_MSM_C, GROTH16_MSM_H, GROTH16_MSMS };

typedef struct groth16_curve {
    const char *name; /* snarkjs's name: "bn128", "bls12381" */
    formats_curve id;
    size_t fr_bytes, g1_bytes, g2_bytes;
    const uint8_t *fr_modulus; /* little-endian r */
    /* Writes h (domain_size plain scalars) from the witness (n_vars plain
     * scalars).  Uses scratch of 2·domain_size scalars.  grouped: the key's
     * coefficients come grouped by (matrix, constraint), so the a/b build
     * can be split among threads (see groth16_coefs_grouped).  Returns
     * 0, or -1 when out of memory. */
    int (*synthesize)(const zkey *key, int grouped, const uint8_t *witness, uint8_t *h,
                      uint8_t *scratch, int threads, g16_timings *t);
    void (*g1_msm)(uint8_t *out, const uint8_t *points, const uint8_t *scalars, size_t n,
                   int threads);
    void (*g2_msm)(uint8_t *out, const uint8_t *points, const uint8_t *scalars, size_t n,
                   int threads);
    /* msm[i] holds GROTH16_MSM_* results (G1, except B2 in G2); r, s plain. */
    char *(*assemble)(const zkey *key, uint8_t *const msm[GROTH16_MSMS], const uint8_t *r,
                      const uint8_t *s);
    /* The most g1_msm / g2_msm allocate for n points (src/msm's
     * G_msm_scratch_bytes), for the job-bytes estimates. */
    size_t (*g1_msm_scratch)(size_t n, int threads);
    size_t (*g2_msm_scratch)(size_t n, int threads);
    /* 1 when the point at p (affine bytes in the .zkey layout) has reduced
     * coordinates and lies on the curve (infinity does). */
    int (*g1_on_curve)(const uint8_t *p);
    int (*g2_on_curve)(const uint8_t *p);
} groth16_curve;

const groth16_curve *groth16_curve_for(formats_curve id);

/* The parsed .zkey inside an opened key, for the library's other modules
 * (verification-key export); *name (may be NULL): the name it was opened as. */
const zkey *groth16_key_zkey(const g16_key *key, const char **name);

/* Whether the key's coefficient entries are sorted by (matrix,
 * constraint), which snarkjs does; one pass at key open. */
int groth16_coefs_grouped(const zkey *key);

/* Room for the decimal text of any base-field element. */
#define GROTH16_DEC_MAX 160

/* proof.json text from the decimal coordinates of pi_a (x, y), pi_b
 * (x.c0, x.c1, y.c0, y.c1), pi_c (x, y); inf flags points at infinity. */
char *groth16_format_proof(char dec[8][GROTH16_DEC_MAX], const int inf[3], const char *curve);

double groth16_now(void);

/* The GPU path (prover_gpu.c).  Without the CUDA backend in the build,
 * groth16_gpu_present says so in why and the rest fail with that reason. */
typedef struct groth16_gpu_key groth16_gpu_key;
/* 1 when a usable GPU is there; else 0 and the reason in why. */
int groth16_gpu_present(char *why, size_t whylen);
/* The key's points and coefficients copied to the device once (msm_copies:
 * gpu_key_desc's). */
groth16_gpu_key *groth16_gpu_upload(const zkey *z, int msm_copies, size_t budget, size_t *bytes,
                                    char *err, size_t errlen);
/* The key's memory mode (gpu_plan_mode_name's text) and chunk. */
const char *groth16_gpu_mode(const groth16_gpu_key *k, size_t *chunk);
/* Host bytes of pinned copies of a streamed key's points (gpu_key_host_copied). */
size_t groth16_gpu_host_copied(const groth16_gpu_key *k);
void groth16_gpu_free(groth16_gpu_key *k);
/* The five MSM results into msm[] (as g16_job_msm on the CPU), computed
 * on the device from the witness alone; with g2_cpu, B2 runs on the CPU
 * (threads) while the device does the rest.  Adds to t. */
int groth16_gpu_prove(groth16_gpu_key *k, const groth16_curve *c, const zkey *z,
                      const uint8_t *witness, uint8_t *const msm[GROTH16_MSMS], int g2_cpu,
                      int threads, g16_timings *t, char *err, size_t errlen);

/* n proofs of the key at once on the device (gpu_prove_msms_batch, in
 * batches of up to its maximum): witness[j] and msm[j] as
 * groth16_gpu_prove's, B2 on the device; the batch's spans are added to
 * each t[j]. */
int groth16_gpu_prove_batch(groth16_gpu_key *k, int n, const uint8_t *const *witness,
                            uint8_t *(*msm)[GROTH16_MSMS], g16_timings *const *t, char *err,
                            size_t errlen);

/* Public signals witness[1..n_public] as snarkjs's public.json text. */
char *groth16_public_json(const groth16_curve *c, const uint8_t *witness, uint32_t n_public);

#endif
