/* g16_prove.h: keys, options and the proving stages
 * (included by g16.h; see its head comment for the contract). */
#ifndef G16_PUBLIC_PROVE_H
#define G16_PUBLIC_PROVE_H

#include <stddef.h>
#include <stdint.h>

#include "g16_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

typedef struct g16_key g16_key;
typedef struct g16_job g16_job;

enum g16_device { G16_DEVICE_AUTO = 0, G16_DEVICE_CPU = 1, G16_DEVICE_GPU = 2 };

typedef struct {
    int threads;   /* CPU threads; <= 0: all online CPUs */
    int device;    /* enum g16_device; the GPU is CUDA's device 0 (choose it
                      with CUDA_VISIBLE_DEVICES) */
    int g2_on_cpu; /* GPU path: run the B2 MSM on the CPU concurrently */
    int verbose;   /* print the time split to stderr */
    /* 1: a job points into the .wtns buffer given to g16_job_new instead of
     * copying its values (at 2^24 a 512 MB copy into fresh pages, ~0.3 s);
     * the buffer must then outlive the job.  0 (default): copied. */
    int borrow_witness;
    /* GPU path, when this call loads the key onto the device: > 1 keeps that
     * many shift copies of each MSM's points there (that many times their
     * device memory) for faster MSMs; 0 or 1 (default): the points alone.
     * A key already on the device keeps the copies it was loaded with. */
    int gpu_msm_copies;
    /* GPU path, when this call loads the key onto the device: the device
     * bytes the key and its proofs may hold; 0 (default): the device's free
     * memory less a margin.  A key whose proofs do not fit whole runs its
     * MSMs in chunks of points, and one that does not fit that way keeps its
     * points in pinned host memory and streams them through the GPU
     * (g16_key_gpu_mode says which); the proof is the same either way. */
    size_t gpu_memory_budget;
} g16_options;

/* Seconds spent in each part of a proof (filled as stages run). */
typedef struct {
    double read, abc, ntt, msm_a, msm_b1, msm_b2, msm_c, msm_h, finish, total;
    double transfer; /* GPU path: witness to the device (0 on the CPU) */
    int on_gpu;      /* 1 when the heavy stages ran on the GPU */
} g16_timings;

void g16_options_default(g16_options *opt);

g16_status g16_key_open(const char *zkey_path, g16_key **out, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 2);
/* The buffer must outlive the key; it is not copied. */
g16_status g16_key_open_buffer(const uint8_t *buf, size_t len, const char *name, g16_key **out,
                               char *err, size_t errlen) G16_MUST_USE G16_NONNULL(4);
void g16_key_free(g16_key *key);

/* 1 when this build has the CUDA backend and a usable GPU (compute
 * capability 9.0 or later) is present, else 0. */
int g16_gpu_available(void);
/* Makes the key resident on the GPU (points and coefficients in device
 * memory), once; later calls return at once.  Jobs with device GPU (or
 * AUTO with a GPU present) call it themselves; a daemon calls it at load
 * time so the first proof does not pay for it.  msm_copies as
 * g16_options.gpu_msm_copies (0: the points alone).  *device_bytes (may
 * be NULL) receives the device memory the key holds. */
g16_status g16_key_gpu_load(g16_key *key, int msm_copies, size_t *device_bytes, char *err,
                            size_t errlen) G16_MUST_USE G16_NONNULL(1);
/* g16_key_gpu_load under a device memory budget (as
 * g16_options.gpu_memory_budget; 0: the device's free memory less a
 * margin). */
g16_status g16_key_gpu_load_budget(g16_key *key, int msm_copies, size_t device_budget,
                                   size_t *device_bytes, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1);
/* How a key loaded on the GPU holds its points: "resident", "resident,
 * chunked MSMs" or "streamed from host", and *chunk (may be NULL) the
 * points an MSM pass takes; NULL when the key is not on the GPU. */
const char *g16_key_gpu_mode(const g16_key *key, size_t *chunk);

const char *g16_key_curve(const g16_key *key); /* "bn128" or "bls12381" */
uint32_t g16_key_n_vars(const g16_key *key);
uint32_t g16_key_n_public(const g16_key *key);
uint32_t g16_key_domain_size(const g16_key *key);

/* The witness buffer is copied only as far as needed; it may be freed
 * after g16_job_new returns (unless opt->borrow_witness). */
g16_status g16_job_new(const g16_key *key, const uint8_t *wtns, size_t len, const char *name,
                       const g16_options *opt, g16_job **out, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 6);
g16_status g16_job_synthesize(g16_job *job, char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1);
g16_status g16_job_msm(g16_job *job, char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1);
/* g16_job_msm for n synthesized jobs at once.  When all are on the GPU, of
 * one key, without g2_on_cpu, their MSMs run as one batch on the device
 * (each MSM one pass over the key's points for every job's witness: for
 * small keys far fewer launches, synchronisations and copies a proof);
 * else one after another.  The results are those of g16_job_msm, bit for
 * bit; each job's timings get the batch's spans.  A job not synthesized
 * fails the call before any job runs; on a later failure err names the
 * first job of the batch that failed, and the jobs before it may have
 * moved on. */
g16_status g16_jobs_msm(g16_job *const *jobs, int n, char *err, size_t errlen) G16_MUST_USE;
/* On success *proof_json and *public_json are malloc'd texts (caller frees). */
g16_status g16_job_finish(g16_job *job, char **proof_json, char **public_json, char *err,
                          size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 3);
const g16_timings *g16_job_timings(const g16_job *job);
void g16_job_free(g16_job *job);

/* All stages in one call. */
g16_status g16_prove(const g16_key *key, const uint8_t *wtns, size_t len, const char *name,
                     const g16_options *opt, char **proof_json, char **public_json,
                     g16_timings *timings, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 6, 7);

/* ---- Checking input before accepting it (a daemon's submissions) ---- */

/* Checks a circom .wtns against the key as g16_job_new does (header,
 * curve, number of values, witness[0] = 1, every value reduced) without
 * making a job, so a service can refuse a bad witness when it is
 * submitted instead of failing it when it is proved.  name labels the
 * message (NULL: "witness").  G16_OK, G16_ERR_FORMAT (not a witness, or
 * corrupt) or G16_ERR_MISMATCH (the witness of another curve or circuit). */
g16_status g16_witness_check(const g16_key *key, const uint8_t *wtns, size_t len, const char *name,
                             char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1);
/* The same for a file (read if small, else mapped).  Anything but a regular
 * file (a FIFO, a device, a directory) is refused without waiting on it:
 * G16_ERR_ARG; also G16_ERR_NOT_FOUND and G16_ERR_IO.  *file_bytes (may
 * be NULL) receives the file's size. */
g16_status g16_witness_check_file(const g16_key *key, const char *path, size_t *file_bytes,
                                  char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1, 2);

/* Checks that every point of the key (A, B1, B2, C, H, IC and the
 * verification key's) is reduced and on its curve, so a damaged key
 * fails here rather than giving a proof no verifier accepts.  One pass
 * over the whole key (threads as in g16_options), linear in its size:
 * BN254 on 16 cores 0.08 s at 2^20 (3% of a CPU proof), 0.9 s at 2^24
 * (12 s on one core), several GPU proofs' worth with the key resident, so
 * a long-lived program checks a key once, at load.  G16_ERR_FORMAT with
 * "<key>: <section> point <i> is not on the curve". */
g16_status g16_key_check_points(const g16_key *key, int threads, char *err,
                                size_t errlen) G16_MUST_USE G16_NONNULL(1);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
