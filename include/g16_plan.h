/* g16_plan.h: memory planning: what a key and its proofs will hold, on the host and the GPU
 * (included by g16.h; see its head comment for the contract). */
#ifndef G16_PUBLIC_PLAN_H
#define G16_PUBLIC_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "g16_files.h"
#include "g16_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

typedef struct g16_key g16_key;

/* Host bytes one proof of this key holds beyond the key while it runs
 * (a daemon's budget unit), an upper bound: on the CPU the witness copy,
 * the synthesis vectors and the MSMs' scratch from the MSM's own plan
 * (per-thread buckets: up to ~32 MiB a thread, so threads matter); on
 * the GPU (device G16_DEVICE_GPU) the witness copy and, with g2_on_cpu,
 * the CPU G2 MSM.  device AUTO: the GPU when the key is already loaded
 * there, else the CPU.  threads as in g16_options (<= 0: all cores).
 * g16_key_job_bytes is the CPU case on all cores. */
size_t g16_key_job_bytes_on(const g16_key *key, int device, int g2_on_cpu, int threads);
size_t g16_key_job_bytes(const g16_key *key);
/* The part of a CPU job's bytes freed when synthesis returns (a, b, c);
 * a GPU job frees nothing then. */
size_t g16_key_job_abc_bytes(const g16_key *key);
/* Device memory of a key on the GPU, estimates from the backend's layout
 * (not measurements) for planning before g16_key_gpu_load: its copy (what
 * device_bytes will report: points, coefficients by row, the witness and
 * a/b/c vectors; msm_copies > 1 multiplies the points' share), and what
 * its proofs work in beyond it (NTT tables, the five MSMs' sort, bucket and
 * partial-sum buffers, kept between proofs), for every lane the backend
 * gives the key (two up to 2^22: two proof calls in flight) and batches of
 * g16_key_gpu_batch proofs. */
size_t g16_key_gpu_key_bytes(const g16_key *key, int msm_copies);
size_t g16_key_gpu_workspace_bytes(const g16_key *key);
/* Device memory the key will hold under a device budget (0: none): the
 * sum above when it fits, else what it holds with its MSMs in chunks or
 * its points streamed from host memory (g16_key_gpu_load_budget's plan;
 * *mode, may be NULL, as g16_key_gpu_mode names it); 0 when not even
 * streaming fits the budget. */
size_t g16_key_gpu_plan_bytes(const g16_key *key, int msm_copies, size_t budget, const char **mode);
/* Host memory a key on the GPU keeps while it is loaded, beyond the key's
 * own buffer: the pinned buffers the witnesses go to the device through
 * (n_vars scalars a proof, for each lane and a whole batch; the MSMs'
 * pinned result buffers are a few KB more), and pinned copies of a
 * streamed key's points where they could not be pinned in place.  A
 * streamed key pins its points where its buffer holds them when that is
 * the caller's memory (g16_key_open_buffer: anonymous memory, as
 * g16_file_read's, pins; the driver declines read-only pages, and then the
 * points are copied), and then they add nothing; a key g16_key_open
 * mapped from its file always copies them (pinning a file's page-cache
 * pages for the key's life may stall on their migration and writeback). */
size_t g16_key_gpu_host_bytes(const g16_key *key);
/* Host memory g16_key_gpu_load takes while it runs and gives back when it
 * returns: the coefficients sorted by row for their copy to the device
 * (36 bytes a coefficient).  Pinned copies of streamed points, when the
 * driver declines to pin them in place, are g16_key_gpu_host_bytes's
 * afterwards. */
size_t g16_key_gpu_upload_host_bytes(const g16_key *key);

/* How many jobs of this key g16_jobs_msm should batch on the GPU (the
 * backend's policy, gpu_plan_batch: 16 at 2^16, 4 at 2^18, 1 above
 * 2^18); the key's device workspace estimate counts batches this large. */
int g16_key_gpu_batch(const g16_key *key);

/* The device memory a Groth16 key of zkey's sizes (g16_file_info_read's)
 * needs on a GPU, the key and one proof's work buffers, in the plan
 * g16_key_gpu_load_budget chooses from: needs[0] whole, needs[1] the
 * least with its MSMs in chunks of points (points resident), needs[2] the
 * least with its points streamed from host memory; a budget from
 * needs[0] up runs whole, and so on.  G16_ERR_ARG when zkey is no typed
 * zkey of a known curve. */
g16_status g16_gpu_memory_needs(const g16_file_info *zkey, size_t needs[3]) G16_MUST_USE
    G16_NONNULL(1, 2);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
