/* gpu: the CUDA backend (MSM, NTT, a whole proof's heavy part) for g16.
 *
 * Contract
 * - Built only when CMake found nvcc (G16_HAVE_CUDA); the library is
 *   g16_gpu.  Every function here has C linkage and is safe to call on a
 *   machine without a GPU or driver: gpu_available() then returns 0 and
 *   every other call fails with a message instead of crashing.
 * - Curves are named by formats_curve (formats/formats.h: one curve enum
 *   for host and device), FORMATS_CURVE_BN128 or FORMATS_CURVE_BLS12381,
 *   passed as int.  Byte layouts are the .zkey's:
 *   field elements little-endian, n8 bytes (32 for BN254 Fq and both Fr,
 *   48 for BLS12-381 Fq); points affine (x, y), Fq2 as (c0, c1), Montgomery
 *   form; the point at infinity is all zero bytes.
 * - MSM scalars are plain (not Montgomery) little-endian 32-byte integers,
 *   as in a .wtns; values >= r are reduced.  Results come back as affine
 *   points in the same zkey layout, so they compare bit for bit with the
 *   CPU path's affine results.
 * - NTT data are Fr elements in Montgomery form, natural order in and out,
 *   with snarkjs's roots: omega_n = nr^((r-1)/2^n) squared down, nr the
 *   smallest quadratic non-residue >= 2.  GPU_NTT_INVERSE computes the
 *   inverse (scaled by 1/n).  GPU_NTT_COSET evaluates on the odd coset
 *   g*<omega_n>, g = omega_2n: forward multiplies a_j by g^j first, the
 *   inverse multiplies by g^-j last (so inverse(coset) undoes coset).
 * - Every call that can fail returns 0 on success, non-zero on failure with
 *   one line in err.  The MSM/NTT calls are serialized internally (they
 *   share one set of work buffers).  A resident key keeps its own buffers
 *   in lanes (gpu_key_desc.lanes): each proof call in flight takes one, with
 *   one set of MSM buffers per MSM (the five run at once on their own
 *   streams), so as many calls as lanes run on the device at once and the
 *   next caller waits for a lane.  Results do not depend on the order of
 *   additions nor on batching, because they are returned as canonical
 *   affine points.
 */
#ifndef G16_GPU_H
#define G16_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"
#include "gpu/msm_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NTT flags.  ROUND_TRIP: the inverse NTT then the coset NTT (values on
 * the domain to values on its odd coset, the proof's step for each of a,
 * b, c) in one call, with no bit-reversal pass; the other flags are then
 * ignored. */
enum { GPU_NTT_INVERSE = 1, GPU_NTT_COSET = 2, GPU_NTT_ROUND_TRIP = 4 };

/* 1 when a CUDA device of compute capability >= 9.0 is usable, else 0. */
int gpu_available(void);

/* Sizes in bytes of one Fq element, one G1 affine point, one G2 affine
 * point for the curve. */
size_t gpu_fq_bytes(int curve);
size_t gpu_g1_bytes(int curve);
size_t gpu_g2_bytes(int curve);

/* out = sum scalars[i] * points[i]; host buffers; out is an affine point
 * (gpu_g1_bytes / gpu_g2_bytes bytes). */
int gpu_msm_g1(int curve, const uint8_t *points, const uint8_t *scalars, size_t n, uint8_t *out,
               char *err, size_t errlen);
int gpu_msm_g2(int curve, const uint8_t *points, const uint8_t *scalars, size_t n, uint8_t *out,
               char *err, size_t errlen);

/* In-place NTT of 2^log_n Fr elements (host buffer), flags GPU_NTT_*. */
int gpu_ntt(int curve, uint8_t *data, int log_n, int flags, char *err, size_t errlen);

/* ---- a proving key resident on the device ---- */
typedef struct gpu_key gpu_key;

typedef struct {
    formats_curve curve;
    const uint8_t *a, *b1, *b2, *c, *h; /* zkey sections 5..9 (points) */
    const uint8_t *host_buf;            /* the writable block holding all five
                                         * (the zkey read into memory), or NULL: a
                                         * streamed key pins its points there, in
                                         * place, and reads them until
                                         * gpu_key_free; else (or where the driver
                                         * declines) it copies them into pinned
                                         * memory */
    size_t host_len;
    size_t n_vars;        /* points in a, b1, b2 */
    size_t n_public;      /* c holds n_vars - n_public - 1 points */
    int domain_log;       /* h holds 2^domain_log points */
    const uint8_t *coefs; /* zkey section 4 entries (after the count) */
    size_t n_coefs;
    int msm_copies;       /* > 1: each MSM's points as a table of this many
                                * shift copies (copy k = 2^(c k) P), built at
                                * upload: that many times the points' device
                                * memory for MSMs ~12% faster at 2^24
                                * (docs/gpu-notes.md, MSM v8); 0 or 1: the points alone */
    int lanes;            /* proof calls the key serves at once (1 or 2; 0: 1): with 2, a
                * second caller's witness upload and a/b/c overlap the first's
                * MSMs; each lane holds its own work buffers (msm_plan.h,
                * gpu_plan_lanes, for the choice and its memory) */
    size_t device_budget; /* device bytes the key and its proofs may hold; 0: the
                           * device's free memory less a margin.  What does not
                           * fit whole runs its MSMs in chunks, and what does not
                           * fit that way keeps its points in pinned host memory
                           * (msm_plan.h, gpu_plan_memory); then one lane, and
                           * msm_copies is ignored */
} gpu_key_desc;

/* Copies the points and coefficients to the device once, and allocates
 * the first lane's witness and a/b/c buffers and its pinned host buffer
 * for witnesses (32 bytes a signal).  *bytes_used (may be NULL) receives
 * the device memory the key holds then; on top come each lane's MSM work
 * buffers (one set per MSM since the five run at once), the second lane's
 * buffers when two calls first run at once, and a lane's growth to the
 * largest batch it served, all kept for the next proof (msm_plan.h and
 * g16_key_gpu_workspace_bytes estimate them). */
gpu_key *gpu_key_upload(const gpu_key_desc *desc, size_t *bytes_used, char *err, size_t errlen);
void gpu_key_free(gpu_key *key);
/* How the key holds its points: GPU_MEM_WHOLE, GPU_MEM_CHUNKED or
 * GPU_MEM_STREAMED (msm_plan.h), and *chunk (may be NULL) the points an
 * MSM pass takes. */
int gpu_key_memory_mode(const gpu_key *key, size_t *chunk);
/* Host bytes a streamed key copied its points into (pinned memory): 0 when
 * they are pinned where the caller's buffer holds them (gpu_key_desc's
 * arrays must then outlive the key, as they do any key's upload), or
 * when the key is not streamed. */
size_t gpu_key_host_copied(const gpu_key *key);
/* What a key of desc's sizes needs (msm_plan.h's gpu_mem_need, budget
 * left 0): the plan gpu_key_upload makes from it. */
void gpu_key_need(const gpu_key_desc *desc, gpu_mem_need *need);

/* Seconds, from CUDA events.  upload: the witness into the key's pinned
 * buffer and onto the device; abc and ntt: their stream's spans after it.
 * msm_*: each MSM's span on its stream; A, B1, B2 and C start once the
 * witness is there and run concurrently with a/b/c, the NTTs and each
 * other, so the spans overlap and their sum exceeds the proof's time. */
typedef struct {
    double upload, abc, ntt, msm_a, msm_b1, msm_b2, msm_c, msm_h;
} gpu_prove_timings;

/* The heavy part of one proof: a, b from the coefficients and the witness
 * (n_vars plain 32-byte scalars), c = a*b, the three coset NTT round trips,
 * h = a*b - c on the odd coset (as snarkjs), and the five MSMs.  Outputs are
 * affine points: pi_a_acc = sum w_i A_i, b1 = sum w_i B1_i, b2 = sum w_i B2_i
 * (G2), c = sum_{i > n_public} w_i C_i, h = sum h_j H_j.  b2 may be NULL to
 * skip the G2 MSM (the caller runs it on the CPU).  timings may be NULL. */
int gpu_prove_msms(gpu_key *key, const uint8_t *witness, uint8_t *a_out, uint8_t *b1_out,
                   uint8_t *b2_out, uint8_t *c_out, uint8_t *h_out, gpu_prove_timings *timings,
                   char *err, size_t errlen);

/* One proof of a batch: its witness (n_vars plain scalars) and its five
 * result slots, as gpu_prove_msms's arguments. */
typedef struct {
    const uint8_t *witness;
    uint8_t *a, *b1, *b2, *c, *h;
} gpu_proof_io;

#define GPU_BATCH_MAX 64

/* gpu_prove_msms for sets proofs of the key at once (1 <= sets <=
 * GPU_BATCH_MAX): each of the five MSMs is one pass over the key's points
 * for all sets scalar vectors (one digit pass, one sort, one accumulation,
 * the bucket sums of every proof side by side), which for small keys
 * replaces sets times the launches, synchronisations and copies of one
 * proof by one.  The results equal gpu_prove_msms's bit for bit.  B2 is
 * skipped for all when io[0].b2 is NULL (then every b2 must be NULL).  The
 * lane's witness and a/b/c buffers grow to the batch (kept for the next
 * call); timings are the batch's spans. */
int gpu_prove_msms_batch(gpu_key *key, int sets, const gpu_proof_io *io, gpu_prove_timings *timings,
                         char *err, size_t errlen);

/* Frees the cached work buffers (they grow to the largest call). */
void gpu_release(void);

#ifdef __cplusplus
}
#endif

#endif
