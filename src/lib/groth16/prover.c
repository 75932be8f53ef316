/* The prover behind include/g16.h: keys, jobs and their stages.  Curve
 * arithmetic lives behind groth16_curve tables (curves.c); this file only
 * moves buffers between the stages and owns their lifetimes. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gpu/msm_plan.h"
#include "groth16/groth16.h"
#include "util/parallel.h"
#include "util/random.h"

struct g16_key {
    zkey z;
    const groth16_curve *curve;
    int grouped;
    char name[256];
    /* Filled on first use by a GPU job (or g16_key_gpu_load), under the
     * mutex: the only part of a key that changes after it is opened. */
    pthread_mutex_t gpu_mutex;
    groth16_gpu_key *gpu;
    size_t gpu_bytes;
};

enum job_stage { STAGE_NEW, STAGE_SYNTHESIZED, STAGE_MSM_DONE, STAGE_FINISHED };

struct g16_job {
    const g16_key *key;
    g16_options opt;
    enum job_stage stage;
    int on_gpu;                        /* the device was chosen for this job */
    const uint8_t *witness;            /* n_vars plain scalars */
    uint8_t *witness_copy;             /* what witness points to, unless borrowed */
    uint8_t *h;                        /* domain_size plain scalars */
    uint8_t msm[GROTH16_MSMS][4 * 48]; /* affine results, big enough for G2 on BLS12-381 */
    g16_timings t;
    char name[256];
};

static void set_error(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || !errlen) return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

double groth16_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void g16_options_default(g16_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->device = G16_DEVICE_AUTO;
}

static int key_finish_open(g16_key *key, char *err, size_t errlen)
{
    pthread_mutex_init(&key->gpu_mutex, NULL);
    key->curve = groth16_curve_for(key->z.curve);
    if (!key->curve || key->z.n8r != key->curve->fr_bytes) {
        set_error(err, errlen, "%s: unsupported curve", key->name);
        return -1;
    }
    key->grouped = groth16_coefs_grouped(&key->z);
    return 0;
}

/* The file mapped, then opened as a buffer: each step returns its own
 * status (not found, I/O, format, unsupported). */
g16_status g16_key_open(const char *zkey_path, g16_key **out, char *err, size_t errlen)
{
    const uint8_t *data = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = g16_file_map(zkey_path, &data, &len, err, errlen);
    if (!rc) rc = g16_key_open_buffer(data, len, zkey_path, out, err, errlen);
    if (rc) {
        g16_file_unmap(data, len);
        return rc;
    }
    /* the key owns the mapping now: g16_key_free unmaps it */
    (*out)->z.map = (formats_mapping){(void *)data, len};
    return G16_OK;
}

g16_status g16_key_open_buffer(const uint8_t *buf, size_t len, const char *name, g16_key **out,
                               char *err, size_t errlen)
{
    g16_key *key = calloc(1, sizeof *key);
    *out = NULL;
    if (!name) name = "key";
    if (!key) {
        set_error(err, errlen, "%s: out of memory", name);
        return G16_ERR_NOMEM;
    }
    snprintf(key->name, sizeof key->name, "%s", name);
    int rc = zkey_parse(buf, len, name, &key->z, err, errlen) ? G16_ERR_FORMAT
             : key_finish_open(key, err, errlen)              ? G16_ERR_UNSUPPORTED
                                                              : G16_OK;
    if (rc) {
        g16_key_free(key);
        return rc;
    }
    *out = key;
    return G16_OK;
}

void g16_key_free(g16_key *key)
{
    if (!key) return;
    if (key->curve) { /* key_finish_open ran: the mutex exists */
        groth16_gpu_free(key->gpu);
        pthread_mutex_destroy(&key->gpu_mutex);
    }
    zkey_close(&key->z);
    free(key);
}

int g16_gpu_available(void)
{
    char why[160];
    return groth16_gpu_present(why, sizeof why);
}

g16_status g16_key_gpu_load(g16_key *key, int msm_copies, size_t *device_bytes, char *err,
                            size_t errlen)
{
    return g16_key_gpu_load_budget(key, msm_copies, 0, device_bytes, err, errlen);
}

const char *g16_key_gpu_mode(const g16_key *key, size_t *chunk)
{
    pthread_mutex_lock((pthread_mutex_t *)&key->gpu_mutex);
    const char *mode = key->gpu ? groth16_gpu_mode(key->gpu, chunk) : NULL;
    pthread_mutex_unlock((pthread_mutex_t *)&key->gpu_mutex);
    return mode;
}

g16_status g16_key_gpu_load_budget(g16_key *key, int msm_copies, size_t device_budget,
                                   size_t *device_bytes, char *err, size_t errlen)
{
    char why[256] = "";
    int rc = 0;
    pthread_mutex_lock(&key->gpu_mutex);
    if (!key->gpu) {
        if (!groth16_gpu_present(why, sizeof why) ||
            !(key->gpu = groth16_gpu_upload(&key->z, msm_copies, device_budget, &key->gpu_bytes,
                                            why, sizeof why))) {
            set_error(err, errlen, "%s: cannot load the key on the GPU: %s", key->name, why);
            rc = G16_ERR_DEVICE;
        }
    }
    if (device_bytes) *device_bytes = key->gpu_bytes;
    pthread_mutex_unlock(&key->gpu_mutex);
    return rc;
}

/* AUTO means the GPU when one is usable and the key fits on it; GPU means
 * the GPU or an error, never a silent fallback. */
static int choose_device(const g16_key *key, const g16_options *opt, const char *name, int *on_gpu,
                         char *err, size_t errlen)
{
    int device = opt ? opt->device : G16_DEVICE_AUTO;
    char why[256] = "";
    *on_gpu = 0;
    if (device == G16_DEVICE_CPU) return 0;
    if (!groth16_gpu_present(why, sizeof why)) {
        if (device == G16_DEVICE_AUTO) return 0;
        set_error(err, errlen, "%s: --device gpu: %s", name, why);
        return G16_ERR_UNSUPPORTED;
    }
    /* the key's device copy is shared state, created once under its mutex */
    int rc = g16_key_gpu_load_budget((g16_key *)key, opt ? opt->gpu_msm_copies : 0,
                                     opt ? opt->gpu_memory_budget : 0, NULL, err, errlen);
    if (rc) {
        if (device == G16_DEVICE_GPU) return rc;
        if (opt && opt->verbose) fprintf(stderr, "g16: %s; proving on the CPU\n", err);
        err[0] = 0;
        return 0;
    }
    *on_gpu = 1;
    return 0;
}

const char *g16_key_curve(const g16_key *key) { return key->curve->name; }
uint32_t g16_key_n_vars(const g16_key *key) { return key->z.n_vars; }
uint32_t g16_key_n_public(const g16_key *key) { return key->z.n_public; }
uint32_t g16_key_domain_size(const g16_key *key) { return key->z.domain_size; }
const zkey *groth16_key_zkey(const g16_key *key, const char **name)
{
    if (name) *name = key->name;
    return &key->z;
}

const char *g16_status_name(int status)
{
    static const char *const names[] = {
        "ok",        "argument",      "io",     "not found", "format", "mismatch", "unsupported",
        "too large", "out of memory", "device", "internal",  "timeout"};
    if (status < 0 || (size_t)status >= sizeof names / sizeof names[0]) return "unknown";
    return names[status];
}

size_t g16_key_job_abc_bytes(const g16_key *key)
{
    return 2 * (size_t)key->z.domain_size * key->curve->fr_bytes;
}

static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

/* What every job holds besides its vectors: the job itself, the proof
 * text and public.json (a decimal per public signal), and parallel_for's
 * per-call arrays (under 64 bytes a thread). */
static size_t job_fixed_bytes(const g16_key *key, int threads)
{
    return sizeof(g16_job) + 4096 + (size_t)(key->z.n_public + 1) * (GROTH16_DEC_MAX + 4) +
           (size_t)threads * 64;
}

/* A CPU job: the witness copy, then the larger of synthesis (h, the a/b/c
 * scratch, the NTTs' twiddles of n/2 and coset table of at most 4096
 * scalars) and the MSM stage, which starts once a/b/c are freed (h, then
 * the MSMs one at a time, each with its scratch from src/msm's plan). */
static size_t cpu_job_bytes(const g16_key *key, int threads)
{
    const groth16_curve *c = key->curve;
    size_t fr = c->fr_bytes, n = key->z.domain_size, v = key->z.n_vars;
    size_t abc = g16_key_job_abc_bytes(key);
    size_t synth = n * fr + abc + (n / 2 + 4096) * fr;
    size_t msm = n * fr + c->g1_msm_scratch(n, threads);
    msm = max2(msm, c->g1_msm_scratch(v, threads));
    msm = max2(msm, c->g2_msm_scratch(v, threads));
    msm = max2(msm, c->g1_msm_scratch(v - key->z.n_public - 1, threads));
    return v * fr + job_fixed_bytes(key, threads) + max2(synth, abc + msm);
}

/* A GPU job's host side: a, b, c, h and the MSMs' buffers are device
 * memory, so the host holds the witness copy and, with g2_on_cpu, the CPU
 * G2 MSM's scratch. */
static size_t gpu_job_bytes(const g16_key *key, int g2_on_cpu, int threads)
{
    size_t v = key->z.n_vars, bytes = v * key->curve->fr_bytes + job_fixed_bytes(key, threads);
    return bytes + (g2_on_cpu ? key->curve->g2_msm_scratch(v, threads) : 0);
}

size_t g16_key_job_bytes_on(const g16_key *key, int device, int g2_on_cpu, int threads)
{
    if (threads <= 0) threads = parallel_default_threads();
    if (device == G16_DEVICE_AUTO) {
        pthread_mutex_lock((pthread_mutex_t *)&key->gpu_mutex);
        device = key->gpu ? G16_DEVICE_GPU : G16_DEVICE_CPU;
        pthread_mutex_unlock((pthread_mutex_t *)&key->gpu_mutex);
    }
    return device == G16_DEVICE_GPU ? gpu_job_bytes(key, g2_on_cpu, threads)
                                    : cpu_job_bytes(key, threads);
}

size_t g16_key_job_bytes(const g16_key *key)
{
    return g16_key_job_bytes_on(key, G16_DEVICE_CPU, 0, 0);
}

/* One GPU MSM's work buffers for p points of point_bytes (affine) each:
 * the kernels' own sizing rules (gpu/msm_plan.h), XYZZ points being twice
 * the affine size. */
static size_t gpu_msm_workspace(const g16_key *key, size_t p, size_t point_bytes, int sets)
{
    return gpu_msm_plan_workspace_bytes(p, gpu_msm_plan_rbits(key->z.curve), 1, 0, 2 * point_bytes,
                                        sets);
}

int g16_key_gpu_batch(const g16_key *key) { return gpu_plan_batch((int)key->z.log2_domain); }

static int gpu_lanes(const g16_key *key) { return gpu_plan_lanes((int)key->z.log2_domain); }

/* For each lane: one set of MSM buffers for each of A, B1, C (G1,
 * witness), H (G1, domain) and B2 (G2), sized for a whole batch (the
 * backend runs the five at once, each with its own set kept by the
 * lane), and the witnesses and a, b, c of the batch's proofs beyond the
 * first lane's first (counted in the key's copy).  The NTT tables are
 * shared. */
size_t g16_key_gpu_workspace_bytes(const g16_key *key)
{
    const groth16_curve *c = key->curve;
    size_t n = key->z.domain_size, v = key->z.n_vars, priv = v - key->z.n_public - 1;
    size_t fr = c->fr_bytes, tables = 3 * n * fr; /* twiddles n/2 + n/2, coset powers n + n */
    int sets = g16_key_gpu_batch(key), lanes = gpu_lanes(key);
    size_t msm = 2 * gpu_msm_workspace(key, v, c->g1_bytes, sets) +
                 gpu_msm_workspace(key, priv, c->g1_bytes, sets) +
                 gpu_msm_workspace(key, n, c->g1_bytes, sets) +
                 gpu_msm_workspace(key, v, c->g2_bytes, sets);
    size_t vectors = ((size_t)lanes * sets - 1) * (v + 3 * n) * fr;
    return tables + (size_t)lanes * msm + vectors;
}

size_t g16_key_gpu_host_bytes(const g16_key *key)
{
    size_t proofs = (size_t)gpu_lanes(key) * (size_t)g16_key_gpu_batch(key);
    size_t bytes = proofs * key->z.n_vars * key->curve->fr_bytes + 64 * 1024;
    return bytes + (key->gpu ? groth16_gpu_host_copied(key->gpu) : 0);
}

/* gpu_coefs_csr's buffers: row pointers and fill cursors (n + 1 and n a
 * matrix), a signal and a 32-byte scalar a coefficient. */
size_t g16_key_gpu_upload_host_bytes(const g16_key *key)
{
    size_t n = key->z.domain_size;
    return 2 * (2 * n + 1) * 4 + ((size_t)key->z.n_coefs + 2) * (4 + 32);
}

/* The key's points as stored (times the shift copies when kept), its
 * coefficients by row (a 4-byte signal and a scalar each, 2(n + 1) row
 * pointers), the witness and the a, b, c vectors. */
size_t g16_key_gpu_key_bytes(const g16_key *key, int msm_copies)
{
    const groth16_curve *c = key->curve;
    size_t n = key->z.domain_size, v = key->z.n_vars, fr = c->fr_bytes;
    size_t points = (3 * v - key->z.n_public - 1 + n) * c->g1_bytes + v * c->g2_bytes;
    size_t coefs = ((size_t)key->z.n_coefs + 2) * (4 + fr) + 2 * (n + 1) * 4;
    return points * (size_t)(msm_copies > 1 ? msm_copies : 1) + coefs + v * fr + 3 * n * fr;
}

g16_status g16_gpu_memory_needs(const g16_file_info *f, size_t needs[3])
{
    if (!f->typed || strcmp(f->type, "zkey") || !f->curve || f->n_vars < f->n_public + 1)
        return G16_ERR_ARG;
    int curve = !strcmp(f->curve, "bn128")      ? FORMATS_CURVE_BN128
                : !strcmp(f->curve, "bls12381") ? FORMATS_CURVE_BLS12381
                                                : -1;
    if (curve < 0) return G16_ERR_ARG;
    gpu_mem_need need;
    gpu_plan_need(curve, (int)f->log2_domain, f->n_vars, f->n_public, f->n_coefs, &need);
    size_t largest = f->domain_size > f->n_vars ? f->domain_size : f->n_vars;
    needs[0] = gpu_plan_bytes(&need, largest, 0);
    needs[1] = gpu_plan_bytes(&need, gpu_plan_min(GPU_PLAN_MIN_CHUNK, largest), 0);
    needs[2] = gpu_plan_bytes(&need, gpu_plan_min(GPU_PLAN_MIN_CHUNK, largest), 1);
    return G16_OK;
}

size_t g16_key_gpu_plan_bytes(const g16_key *key, int msm_copies, size_t budget, const char **mode)
{
    size_t whole = g16_key_gpu_key_bytes(key, msm_copies) + g16_key_gpu_workspace_bytes(key);
    gpu_mem_need need;
    gpu_mem_plan plan;
    gpu_plan_need(key->z.curve, (int)key->z.log2_domain, key->z.n_vars, key->z.n_public,
                  key->z.n_coefs, &need);
    need.budget = budget;
    if (mode) *mode = gpu_plan_mode_name(GPU_MEM_WHOLE);
    if (budget == 0 || whole <= budget) return whole;
    if (gpu_plan_memory(&need, &plan)) return 0;
    if (mode) *mode = gpu_plan_mode_name(plan.mode);
    return plan.device_bytes;
}

static int check_witness(const g16_key *key, const wtns *w, const char *name, char *err,
                         size_t errlen)
{
    const zkey *z = &key->z;
    if (w->n8 != z->n8r || memcmp(w->prime, z->r, z->n8r) != 0) {
        set_error(err, errlen, "%s: witness is for %s but %s is a %s key", name,
                  formats_curve_name(w->curve), key->name, key->curve->name);
        return G16_ERR_MISMATCH;
    }
    if (w->n_witness != z->n_vars) {
        set_error(err, errlen, "%s: witness has %u values but %s expects %u", name, w->n_witness,
                  key->name, z->n_vars);
        return G16_ERR_MISMATCH;
    }
    static const uint8_t one[8] = {1};
    if (memcmp(w->values, one, sizeof one) != 0 || (w->n8 > 8 && w->values[8] != 0)) {
        set_error(err, errlen, "%s: witness[0] is not 1 (not a circom witness?)", name);
        return G16_ERR_FORMAT;
    }
    return G16_OK;
}

g16_status g16_witness_check(const g16_key *key, const uint8_t *wtns_buf, size_t len,
                             const char *name, char *err, size_t errlen)
{
    wtns w;
    if (!name) name = "witness";
    if (wtns_parse(wtns_buf, len, name, &w, err, errlen)) return G16_ERR_FORMAT;
    return check_witness(key, &w, name, err, errlen);
}

/* Witness files up to this size are read to be checked, larger ones
 * mapped: a service checks every witness of a job as it is submitted,
 * and unmapping each one flushed the TLB of every core the process last
 * ran on (g16d: 0.4 ms a 2^10 witness, 400 witnesses in 0.28 s against
 * 0.10 s read); a large witness is mapped, never copied whole. */
#define WITNESS_READ_MAX ((size_t)512 << 10)

/* The kind of a failure to open path, from the errno formats_map_file
 * and formats_read_file leave (formats_open_regular refuses anything but
 * a regular file, without blocking). */
static int witness_open_status(void)
{
    if (errno == ENOENT || errno == ENOTDIR) return G16_ERR_NOT_FOUND;
    return errno == EINVAL || errno == EISDIR ? G16_ERR_ARG : G16_ERR_IO;
}

g16_status g16_witness_check_file(const g16_key *key, const char *path, size_t *file_bytes,
                                  char *err, size_t errlen)
{
    uint8_t *buf;
    size_t len;
    int rc = formats_read_file(path, WITNESS_READ_MAX, &buf, &len, err, errlen);
    if (rc == G16_OK) {
        rc = g16_witness_check(key, buf, len, path, err, errlen);
        free(buf);
    } else if (rc == G16_ERR_TOO_LARGE) {
        formats_mapping m;
        if (formats_map_file(path, &m, err, errlen)) return witness_open_status();
        rc = g16_witness_check(key, m.addr, m.len, path, err, errlen);
        len = m.len;
        formats_unmap_file(&m);
    } else {
        return rc == G16_ERR_NOMEM ? rc : witness_open_status();
    }
    if (file_bytes) *file_bytes = len;
    return rc;
}

g16_status g16_job_new(const g16_key *key, const uint8_t *buf, size_t len, const char *name,
                       const g16_options *opt, g16_job **out, char *err, size_t errlen)
{
    wtns w;
    double t0 = groth16_now();
    *out = NULL;
    if (!name) name = "witness";
    int on_gpu;
    int rc = wtns_parse(buf, len, name, &w, err, errlen)
                 ? G16_ERR_FORMAT
                 : check_witness(key, &w, name, err, errlen);
    if (!rc) rc = choose_device(key, opt, name, &on_gpu, err, errlen);
    if (rc) return rc;
    g16_job *job = calloc(1, sizeof *job);
    size_t bytes = (size_t)w.n_witness * w.n8;
    int borrow = opt && opt->borrow_witness;
    if (!job || (!borrow && !(job->witness_copy = malloc(bytes ? bytes : 1)))) {
        free(job);
        set_error(err, errlen, "%s: out of memory", name);
        return G16_ERR_NOMEM;
    }
    if (borrow) {
        job->witness = w.values;
    } else {
        memcpy(job->witness_copy, w.values, bytes);
        job->witness = job->witness_copy;
    }
    job->key = key;
    job->on_gpu = on_gpu;
    if (opt)
        job->opt = *opt;
    else
        g16_options_default(&job->opt);
    snprintf(job->name, sizeof job->name, "%s", name);
    job->t.read = groth16_now() - t0;
    *out = job;
    return 0;
}

/* The per-MSM result slots as the array the curve tables take. */
static void job_msm_results(g16_job *job, uint8_t *msm[GROTH16_MSMS])
{
    for (int i = 0; i < GROTH16_MSMS; i++) msm[i] = job->msm[i];
}

static int require_stage(g16_job *job, enum job_stage want, char *err, size_t errlen)
{
    if (job->stage == want) return 0;
    set_error(err, errlen, "%s: proving stages called out of order", job->name);
    return G16_ERR_ARG;
}

g16_status g16_job_synthesize(g16_job *job, char *err, size_t errlen)
{
    const g16_key *key = job->key;
    size_t fr = key->curve->fr_bytes, n = key->z.domain_size;
    int rc = require_stage(job, STAGE_NEW, err, errlen);
    if (rc) return rc;
    if (job->on_gpu) { /* the device builds a, b, c and h itself */
        job->stage = STAGE_SYNTHESIZED;
        return 0;
    }
    job->h = malloc(n * fr);
    uint8_t *scratch = malloc(2 * n * fr);
    if (!job->h || !scratch) {
        free(scratch);
        set_error(err, errlen, "%s: out of memory for %zu-element vectors", job->name, n);
        return G16_ERR_NOMEM;
    }
    rc = key->curve->synthesize(&key->z, key->grouped, job->witness, job->h, scratch,
                                job->opt.threads, &job->t);
    free(scratch);
    if (rc) {
        set_error(err, errlen, "%s: out of memory in the NTTs", job->name);
        return G16_ERR_NOMEM;
    }
    job->stage = STAGE_SYNTHESIZED;
    return 0;
}

g16_status g16_job_msm(g16_job *job, char *err, size_t errlen)
{
    const g16_key *key = job->key;
    const zkey *z = &key->z;
    const groth16_curve *c = key->curve;
    int threads = job->opt.threads;
    size_t fr = c->fr_bytes, n_private = z->n_vars - z->n_public - 1;
    int rc = require_stage(job, STAGE_SYNTHESIZED, err, errlen);
    if (rc) return rc;
    if (job->on_gpu) {
        uint8_t *msm[GROTH16_MSMS];
        job_msm_results(job, msm);
        char why[384] = "";
        if (groth16_gpu_prove(key->gpu, c, z, job->witness, msm, job->opt.g2_on_cpu, threads,
                              &job->t, why, sizeof why)) {
            set_error(err, errlen, "%s: %s", job->name, why);
            return G16_ERR_DEVICE;
        }
        job->stage = STAGE_MSM_DONE;
        return 0;
    }
    double t0 = groth16_now();
    c->g1_msm(job->msm[GROTH16_MSM_H], z->h_points, job->h, z->domain_size, threads);
    free(job->h); /* the largest per-proof buffer: gone first */
    job->h = NULL;
    double t1 = groth16_now();
    c->g1_msm(job->msm[GROTH16_MSM_A], z->a_points, job->witness, z->n_vars, threads);
    double t2 = groth16_now();
    c->g1_msm(job->msm[GROTH16_MSM_B1], z->b1_points, job->witness, z->n_vars, threads);
    double t3 = groth16_now();
    c->g2_msm(job->msm[GROTH16_MSM_B2], z->b2_points, job->witness, z->n_vars, threads);
    double t4 = groth16_now();
    c->g1_msm(job->msm[GROTH16_MSM_C], z->c_points, job->witness + (z->n_public + 1) * fr,
              n_private, threads);
    double t5 = groth16_now();
    job->t.msm_h += t1 - t0;
    job->t.msm_a += t2 - t1;
    job->t.msm_b1 += t3 - t2;
    job->t.msm_b2 += t4 - t3;
    job->t.msm_c += t5 - t4;
    job->stage = STAGE_MSM_DONE;
    return 0;
}

/* Whether jobs can run as one GPU batch: all on the GPU, of one key, B2
 * on the device. */
static int jobs_batchable(g16_job *const *jobs, int n)
{
    for (int j = 0; j < n; j++)
        if (!jobs[j]->on_gpu || jobs[j]->key != jobs[0]->key || jobs[j]->opt.g2_on_cpu) return 0;
    return n > 1;
}

#define JOBS_BATCH_MAX 64

g16_status g16_jobs_msm(g16_job *const *jobs, int n, char *err, size_t errlen)
{
    for (int j = 0; j < n; j++) { /* all synthesized, or none runs */
        int rc = require_stage(jobs[j], STAGE_SYNTHESIZED, err, errlen);
        if (rc) return rc;
    }
    if (!jobs_batchable(jobs, n)) {
        for (int j = 0; j < n; j++) {
            int rc = g16_job_msm(jobs[j], err, errlen);
            if (rc) return rc;
        }
        return 0;
    }
    for (int at = 0; at < n; at += JOBS_BATCH_MAX) {
        int m = n - at < JOBS_BATCH_MAX ? n - at : JOBS_BATCH_MAX;
        const uint8_t *wit[JOBS_BATCH_MAX];
        uint8_t *msm[JOBS_BATCH_MAX][GROTH16_MSMS];
        g16_timings *t[JOBS_BATCH_MAX];
        for (int j = 0; j < m; j++) {
            g16_job *job = jobs[at + j];
            wit[j] = job->witness;
            job_msm_results(job, msm[j]);
            t[j] = &job->t;
        }
        char why[384] = "";
        if (groth16_gpu_prove_batch(jobs[0]->key->gpu, m, wit, msm, t, why, sizeof why)) {
            set_error(err, errlen, "%s: %s", jobs[at]->name, why);
            return G16_ERR_DEVICE;
        }
        for (int j = 0; j < m; j++) jobs[at + j]->stage = STAGE_MSM_DONE;
    }
    return 0;
}

/* A uniform non-zero scalar below r from getrandom(): rejection sampling
 * on the bit length of r, so there is no modular bias. */
static int random_scalar(uint8_t *out, const uint8_t *modulus, size_t len)
{
    size_t top = len;
    while (top > 0 && modulus[top - 1] == 0) top--;
    uint8_t mask = 0xff;
    while (top && (mask >> 1) >= modulus[top - 1]) mask >>= 1;
    for (int tries = 0; tries < 1000; tries++) {
        if (util_random(out, len)) return -1;
        out[top - 1] &= mask;
        memset(out + top, 0, len - top);
        int nonzero = 0;
        for (size_t i = 0; i < len; i++) nonzero |= out[i];
        if (nonzero && formats_lt(out, modulus, (uint32_t)len)) return 0;
    }
    return -1;
}

g16_status g16_job_finish(g16_job *job, char **proof_json, char **public_json, char *err,
                          size_t errlen)
{
    const g16_key *key = job->key;
    const groth16_curve *c = key->curve;
    uint8_t r[64], s[64];
    *proof_json = *public_json = NULL;
    int rc = require_stage(job, STAGE_MSM_DONE, err, errlen);
    if (rc) return rc;
    double t0 = groth16_now();
    if (random_scalar(r, c->fr_modulus, c->fr_bytes) ||
        random_scalar(s, c->fr_modulus, c->fr_bytes)) {
        set_error(err, errlen, "%s: getrandom failed: %s", job->name, strerror(errno));
        return G16_ERR_IO;
    }
    uint8_t *msm[GROTH16_MSMS];
    job_msm_results(job, msm);
    *proof_json = c->assemble(&key->z, msm, r, s);
    *public_json = groth16_public_json(c, job->witness, key->z.n_public);
    memset(r, 0, sizeof r); /* r and s would let anyone strip the blinding */
    memset(s, 0, sizeof s);
    if (!*proof_json || !*public_json) {
        free(*proof_json);
        free(*public_json);
        *proof_json = *public_json = NULL;
        set_error(err, errlen, "%s: out of memory", job->name);
        return G16_ERR_NOMEM;
    }
    job->t.finish += groth16_now() - t0;
    job->stage = STAGE_FINISHED;
    return 0;
}

const g16_timings *g16_job_timings(const g16_job *job) { return &job->t; }

void g16_job_free(g16_job *job)
{
    if (!job) return;
    free(job->witness_copy);
    free(job->h);
    free(job);
}

static void print_timings(const g16_timings *t, const g16_options *opt)
{
    fprintf(stderr, "g16: %s: read %.3f s, ", t->on_gpu ? "gpu" : "cpu", t->read);
    if (t->on_gpu) fprintf(stderr, "witness to device %.4f s, ", t->transfer);
    fprintf(stderr,
            "a/b/c %.4f s, NTTs %.4f s, MSM A %.4f s, B1 %.4f s, B2%s %.4f s, "
            "C %.4f s, H %.4f s, finish %.4f s, total %.3f s\n",
            t->abc, t->ntt, t->msm_a, t->msm_b1, t->on_gpu && opt->g2_on_cpu ? " (cpu)" : "",
            t->msm_b2, t->msm_c, t->msm_h, t->finish, t->total);
}

g16_status g16_prove(const g16_key *key, const uint8_t *wtns_buf, size_t len, const char *name,
                     const g16_options *opt, char **proof_json, char **public_json,
                     g16_timings *timings, char *err, size_t errlen)
{
    g16_job *job;
    double t0 = groth16_now();
    *proof_json = *public_json = NULL;
    int rc = g16_job_new(key, wtns_buf, len, name, opt, &job, err, errlen);
    if (rc) return rc;
    rc = g16_job_synthesize(job, err, errlen);
    if (!rc) rc = g16_job_msm(job, err, errlen);
    if (!rc) rc = g16_job_finish(job, proof_json, public_json, err, errlen);
    job->t.total = groth16_now() - t0;
    if (timings) *timings = job->t;
    if (job->opt.verbose && !rc) print_timings(&job->t, &job->opt);
    g16_job_free(job);
    return rc;
}

g16_status g16_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return atomic_write_file(path, data, len, err, errlen);
}
