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
 */
#ifndef G16_H
#define G16_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares
 * is its exported interface. */
#pragma GCC visibility push(default)

typedef struct g16_key g16_key;
typedef struct g16_job g16_job;

/* What kind of failure a call returned.  Values are stable (an ABI). */
typedef enum {
    G16_OK = 0,
    G16_ERR_ARG = 1,         /* a bad argument or option from the caller */
    G16_ERR_IO = 2,          /* a file could not be read or written */
    G16_ERR_NOT_FOUND = 3,   /* a file (or a named object) does not exist */
    G16_ERR_FORMAT = 4,      /* malformed input: truncated, corrupt, wrong magic */
    G16_ERR_MISMATCH = 5,    /* inputs that do not belong together (curve, sizes) */
    G16_ERR_UNSUPPORTED = 6, /* well-formed but not provable here (PLONK key, no GPU) */
    G16_ERR_TOO_LARGE = 7,   /* beyond a size or memory limit */
    G16_ERR_NOMEM = 8,       /* out of host or device memory */
    G16_ERR_DEVICE = 9,      /* the GPU failed */
    G16_ERR_INTERNAL = 10,   /* a bug: please report it */
    G16_ERR_TIMEOUT = 11     /* ran past a time limit */
} g16_status;

/* A short lower-case name of the code ("format", "mismatch", ...). */
const char *g16_status_name(int status);

/* What this libg16 is: its version ("0.9.0"), the git commit it was built
 * from ("unknown" when built outside a checkout), its SONAME's version
 * (libg16.so.N) and whether its CUDA backend is compiled in (1) or not
 * (0; a GPU may still be absent at run time: g16_gpu_available). */
typedef struct {
    const char *version, *commit;
    int soname_version;
    int cuda;
} g16_build;
void g16_build_version(g16_build *out);

enum g16_device { G16_DEVICE_AUTO = 0, G16_DEVICE_CPU = 1, G16_DEVICE_GPU = 2 };

typedef struct {
    int threads;   /* CPU threads; <= 0: all online CPUs */
    int device;    /* enum g16_device */
    int gpu_index; /* which GPU when device is GPU */
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

int g16_key_open(const char *zkey_path, g16_key **out, char *err, size_t errlen);
/* The buffer must outlive the key; it is not copied. */
int g16_key_open_buffer(const uint8_t *buf, size_t len, const char *name, g16_key **out, char *err,
                        size_t errlen);
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
int g16_key_gpu_load(g16_key *key, int msm_copies, size_t *device_bytes, char *err, size_t errlen);
/* g16_key_gpu_load under a device memory budget (as
 * g16_options.gpu_memory_budget; 0: the device's free memory less a
 * margin). */
int g16_key_gpu_load_budget(g16_key *key, int msm_copies, size_t device_budget,
                            size_t *device_bytes, char *err, size_t errlen);
/* How a key loaded on the GPU holds its points: "resident", "resident,
 * chunked MSMs" or "streamed from host", and *chunk (may be NULL) the
 * points an MSM pass takes; NULL when the key is not on the GPU. */
const char *g16_key_gpu_mode(const g16_key *key, size_t *chunk);

const char *g16_key_curve(const g16_key *key); /* "bn128" or "bls12381" */
uint32_t g16_key_n_vars(const g16_key *key);
uint32_t g16_key_n_public(const g16_key *key);
uint32_t g16_key_domain_size(const g16_key *key);
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
/* Host memory a key on the GPU keeps while it is loaded: the pinned
 * buffers the witnesses go to the device through (n_vars scalars a proof,
 * for each lane and a whole batch; the MSMs' pinned result buffers are a
 * few KB more), and a streamed key's points (pinned). */
size_t g16_key_gpu_host_bytes(const g16_key *key);

/* The witness buffer is copied only as far as needed; it may be freed
 * after g16_job_new returns (unless opt->borrow_witness). */
int g16_job_new(const g16_key *key, const uint8_t *wtns, size_t len, const char *name,
                const g16_options *opt, g16_job **out, char *err, size_t errlen);
int g16_job_synthesize(g16_job *job, char *err, size_t errlen);
int g16_job_msm(g16_job *job, char *err, size_t errlen);
/* g16_job_msm for n synthesized jobs at once.  When all are on the GPU, of
 * one key, without g2_on_cpu, their MSMs run as one batch on the device
 * (each MSM one pass over the key's points for every job's witness: for
 * small keys far fewer launches, synchronisations and copies a proof);
 * else one after another.  The results are those of g16_job_msm, bit for
 * bit; each job's timings get the batch's spans.  A job not synthesized
 * fails the call before any job runs; on a later failure err names the
 * first job of the batch that failed, and the jobs before it may have
 * moved on. */
int g16_jobs_msm(g16_job *const *jobs, int n, char *err, size_t errlen);
/* How many jobs of this key g16_jobs_msm should batch on the GPU (the
 * backend's policy, gpu_plan_batch: 16 at 2^16, 4 at 2^18, 1 above
 * 2^18); the key's device workspace estimate counts batches this large. */
int g16_key_gpu_batch(const g16_key *key);
/* On success *proof_json and *public_json are malloc'd texts (caller frees). */
int g16_job_finish(g16_job *job, char **proof_json, char **public_json, char *err, size_t errlen);
const g16_timings *g16_job_timings(const g16_job *job);
void g16_job_free(g16_job *job);

/* All stages in one call. */
int g16_prove(const g16_key *key, const uint8_t *wtns, size_t len, const char *name,
              const g16_options *opt, char **proof_json, char **public_json, g16_timings *timings,
              char *err, size_t errlen);

/* The key's verification key as `snarkjs zkey export verificationkey`
 * writes it (malloc'd text, caller frees). */
int g16_key_vk_json(const g16_key *key, char **vk_json, char *err, size_t errlen);

/* Checks a proof against a verification key (snarkjs JSON texts).
 * Returns 1 valid, 0 invalid, -1 malformed input (message in err). */
int g16_verify_json(const char *vk_json, const char *public_json, const char *proof_json, char *err,
                    size_t errlen);

/* Checks n proofs of one verification key at once (snarkjs JSON texts:
 * public_json[i] and proof_json[i]): valid[i] gets what g16_verify_json
 * would return for proof i (1 valid, 0 invalid, -1 malformed).  The
 * pairing equations of the well-formed proofs are checked as one, with
 * random 128-bit weights from getrandom(): n + 3 pairings and one final
 * exponentiation instead of 4n and n (about a third of the time a proof
 * in batches of 8); when it fails, every proof is checked alone, so valid
 * is exact either way.  Returns 0, or -1 with the message in err when the
 * key is malformed (or memory or randomness run out). */
int g16_verify_batch_json(const char *vk_json, size_t n, const char *const *public_json,
                          const char *const *proof_json, int *valid, char *err, size_t errlen);

/* Writes data to path atomically (temporary file in the same directory,
 * then rename), so a reader never sees half a file. */
int g16_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* ---- Checking input before accepting it (a daemon's submissions) ---- */

/* Checks a circom .wtns against the key as g16_job_new does (header,
 * curve, number of values, witness[0] = 1, every value reduced) without
 * making a job, so a service can refuse a bad witness when it is
 * submitted instead of failing it when it is proved.  name labels the
 * message (NULL: "witness").  G16_OK, G16_ERR_FORMAT (not a witness, or
 * corrupt) or G16_ERR_MISMATCH (the witness of another curve or circuit). */
int g16_witness_check(const g16_key *key, const uint8_t *wtns, size_t len, const char *name,
                      char *err, size_t errlen);
/* The same for a file (read if small, else mapped).  Anything but a regular
 * file (a FIFO, a device, a directory) is refused without waiting on it:
 * G16_ERR_ARG; also G16_ERR_NOT_FOUND and G16_ERR_IO.  *file_bytes (may
 * be NULL) receives the file's size. */
int g16_witness_check_file(const g16_key *key, const char *path, size_t *file_bytes, char *err,
                           size_t errlen);

/* ---- Files, verification, setup and synthetic circuits (the g16 command's
 * needs beyond proving).  Paths name the file in every message. ---- */

/* Input files are opened without blocking (a FIFO or device never stalls
 * a reader) and must be regular files: anything else fails with
 * "<path>: not a regular file" (G16_ERR_IO). */

/* Maps a file read-only (MAP_PRIVATE: a multi-GiB key is never copied).
 * An empty file gives *data NULL and *len 0.  G16_ERR_NOT_FOUND when the
 * path does not exist, G16_ERR_IO for any other failure. */
int g16_file_map(const char *path, const uint8_t **data, size_t *len, char *err, size_t errlen);
void g16_file_unmap(const uint8_t *data, size_t len);

/* Reads a whole file of at most max_len bytes (G16_ERR_TOO_LARGE beyond,
 * checked before reading) into pages of its own: an anonymous mapping
 * that no other allocation shares, so mlock of it locks nothing else.
 * Free with g16_file_release(*data, *len). */
int g16_file_read(const char *path, size_t max_len, uint8_t **data, size_t *len, char *err,
                  size_t errlen);
void g16_file_release(uint8_t *data, size_t len);

/* Reads a whole file of at most max_len bytes as a NUL-terminated text
 * (malloc'd, caller frees).  G16_ERR_TOO_LARGE beyond max_len (checked
 * before reading), G16_ERR_FORMAT when it contains a NUL byte. */
int g16_file_read_text(const char *path, size_t max_len, char **text, char *err, size_t errlen);

/* Makes sure dir (created 0700, parents too, when missing) can be changed
 * by no one but this user and root, as a directory that code is loaded
 * from or secrets are kept in must be: its real path (symbolic links
 * resolved) and every ancestor are directories owned by the effective
 * user or root and writable by neither group nor others, but for a sticky
 * ancestor (/tmp) whose component below is the user's or root's.  The
 * real path goes to real (real_cap bytes; may be NULL): use it from then
 * on, since a link on the way may change.  G16_ERR_ARG with one line
 * naming dir, the component at fault, its owner and mode and the fix;
 * G16_ERR_IO when it cannot be created or resolved. */
int g16_dir_private(const char *dir, char *real, size_t real_cap, char *err, size_t errlen);

/* What the header of an iden3 binary file (.zkey, .wtns, .r1cs) says. */
#define G16_FILE_MAX_SECTIONS 64
typedef struct {
    uint32_t id;
    uint64_t offset, size; /* of the section body, from the file's start */
    const char *name;      /* "H points", ...; "" when unknown */
} g16_file_section;

typedef struct {
    char type[5]; /* "zkey", "wtns" or "r1cs"; "" if unreadable */
    uint32_t version;
    uint32_t n_sections;
    g16_file_section sections[G16_FILE_MAX_SECTIONS];
    uint32_t protocol; /* zkey: the protocol id in section 1 (1: Groth16) */
    const char *protocol_name;
    int typed;         /* 1 when the fields below were read */
    const char *curve; /* "bn128", "bls12381" or "unknown" */
    uint32_t n8q, n8r; /* zkey: field element bytes */
    uint32_t n_vars, n_public, domain_size, log2_domain, n_coefs;   /* zkey */
    uint32_t n8, n_witness;                                         /* wtns (n8 also r1cs) */
    uint32_t n_wires, n_constraints, n_pub_out, n_pub_in, n_prv_in; /* r1cs */
    uint64_t n_labels;
    int custom_gates; /* r1cs: uses PLONK custom gates */
} g16_file_info;

/* Reads path's header, section table and type-specific sizes, validating
 * the whole file.  On failure the message says why; info->type is set
 * once the container was read and info->typed once the sizes were, so a
 * caller can show what was read before the damage.  G16_ERR_NOT_FOUND,
 * G16_ERR_IO (unreadable) or G16_ERR_FORMAT (damaged, or not one of the
 * three types). */
int g16_file_info_read(const char *path, g16_file_info *info, char *err, size_t errlen);

/* The device memory a Groth16 key of zkey's sizes (g16_file_info_read's)
 * needs on a GPU, the key and one proof's work buffers, in the plan
 * g16_key_gpu_load_budget chooses from: needs[0] whole, needs[1] the
 * least with its MSMs in chunks of points (points resident), needs[2] the
 * least with its points streamed from host memory; a budget from
 * needs[0] up runs whole, and so on.  G16_ERR_ARG when zkey is no typed
 * zkey of a known curve. */
int g16_gpu_memory_needs(const g16_file_info *zkey, size_t needs[3]);

/* As g16_verify_json, with the names the messages give each input (the
 * paths, for a program).  Returns 1 valid, 0 invalid, -1 malformed. */
int g16_verify_json_named(const char *vk_json, const char *public_json, const char *proof_json,
                          const char *vk_name, const char *public_name, const char *proof_name,
                          char *err, size_t errlen);

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
int g16_vk_check_json(const char *text, size_t len, const char *name, g16_vk_info *info,
                      char **canonical, char *err, size_t errlen);

/* Checks that every point of the key (A, B1, B2, C, H, IC and the
 * verification key's) is reduced and on its curve, so a damaged key
 * fails here rather than giving a proof no verifier accepts.  One pass
 * over the whole key (threads as in g16_options), linear in its size:
 * BN254 on 16 cores 0.08 s at 2^20 (3% of a CPU proof), 0.9 s at 2^24
 * (12 s on one core), several GPU proofs' worth with the key resident, so
 * a long-lived program checks a key once, at load.  G16_ERR_FORMAT with
 * "<key>: <section> point <i> is not on the curve". */
int g16_key_check_points(const g16_key *key, int threads, char *err, size_t errlen);

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
int g16_setup_insecure_dev(const char *r1cs_path, const char *zkey_path,
                           const g16_setup_options *opt, char *err, size_t errlen);
/* verification_key.json of a .zkey, as snarkjs exports it (atomically). */
int g16_setup_write_vk(const char *zkey_path, const char *vk_path, char *err, size_t errlen);

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

int g16_synth_write(const g16_synth_params *p, const char *r1cs_path, const char *wtns_path,
                    char *err, size_t errlen);
/* The witness and a development key (g16_setup_insecure_dev with opt) of
 * the same circuit, without writing its .r1cs: the circuit is built in
 * memory (~170 bytes a constraint, 11 GiB at 2^26) and handed to the
 * setup, so the disk holds only the two outputs (a 2^26 BLS12-381 key is
 * ~50 GiB).  The key is byte-identical to the one made from the written
 * .r1cs.  Both or neither are written; G16_ERR_ARG for bad parameters,
 * G16_ERR_IO when the circuit or the witness cannot be written, else the
 * setup's status. */
int g16_synth_setup(const g16_synth_params *p, const char *wtns_path, const char *zkey_path,
                    const g16_setup_options *opt, char *err, size_t errlen);

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

int g16_check_files(const char *r1cs_path, const char *wtns_path, int threads,
                    g16_check_result *res, char *err, size_t errlen);

/* An output file that appears whole or not at all: written to a temporary
 * file "<path>.tmp.<pid>.<n>" in the same directory, then renamed over
 * path by g16_output_commit.  g16_output_free removes the temporary file
 * if it was not committed.  A program that removes temporary files on a
 * signal learns their names from g16_output_temp_path. */
typedef struct g16_output g16_output;
int g16_output_open(const char *path, g16_output **out, char *err, size_t errlen);
const char *g16_output_temp_path(const g16_output *f);
int g16_output_write(g16_output *f, const void *data, size_t len, char *err, size_t errlen);
int g16_output_commit(g16_output *f, char *err, size_t errlen);
void g16_output_free(g16_output *f);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
