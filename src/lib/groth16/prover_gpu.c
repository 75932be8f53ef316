/* The prover's GPU path: the glue between a zkey and src/gpu's resident key.
 *
 * Kept apart from prover.c so that a build without CUDA compiles the same
 * prover: there every function here reports that the backend is absent.
 * The device does the whole heavy part of a proof (a/b/c, the six NTTs, all
 * five MSMs, or four with B2 on the CPU); only r, s and the final assembly
 * stay on the host, where they cost microseconds. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/groth16.h"

#ifdef G16_HAVE_GPU
#include "gpu/gpu.h"
#include "gpu/msm_plan.h"

struct groth16_gpu_key {
    gpu_key *dev;
};

int groth16_gpu_present(char *why, size_t whylen)
{
    if (gpu_available()) return 1;
    snprintf(why, whylen, "no CUDA GPU of compute capability 9.0 or later is usable");
    return 0;
}

groth16_gpu_key *groth16_gpu_upload(const zkey *z, int msm_copies, size_t budget, size_t *bytes,
                                    char *err, size_t errlen)
{
    /* A caller's buffer (g16_key_open_buffer: g16d reads keys into memory
     * of its own) is pinned where it lies; a key the library mapped from
     * its file (g16_key_open) is page cache, and its points are copied:
     * pinning a file's pages for the key's life may migrate each one first
     * and wait for the writeback of a key just written (a 2^24 key pinned
     * that way had not finished its first proof after 280 s on the device
     * machine; docs/gpu-notes.md). */
    gpu_key_desc d = {
        .curve = z->curve,
        .a = z->a_points,
        .b1 = z->b1_points,
        .b2 = z->b2_points,
        .c = z->c_points,
        .h = z->h_points,
        .host_buf = z->map.addr ? NULL : z->file.buf,
        .host_len = z->map.addr ? 0 : z->file.len,
        .n_vars = z->n_vars,
        .n_public = z->n_public,
        .domain_log = (int)z->log2_domain,
        .coefs = z->coefs,
        .n_coefs = z->n_coefs,
        .msm_copies = msm_copies,
        .lanes = gpu_plan_lanes((int)z->log2_domain),
        .device_budget = budget,
    };
    groth16_gpu_key *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    err[0] = 0;
    k->dev = gpu_key_upload(&d, bytes, err, errlen);
    if (!k->dev) {
        free(k);
        return NULL;
    }
    return k;
}

const char *groth16_gpu_mode(const groth16_gpu_key *k, size_t *chunk)
{
    return gpu_plan_mode_name(gpu_key_memory_mode(k->dev, chunk));
}

size_t groth16_gpu_host_copied(const groth16_gpu_key *k) { return gpu_key_host_copied(k->dev); }

void groth16_gpu_free(groth16_gpu_key *k)
{
    if (!k) return;
    gpu_key_free(k->dev);
    free(k);
}

struct g2_task {
    const groth16_curve *c;
    const zkey *z;
    const uint8_t *witness;
    uint8_t *out;
    int threads;
    double seconds;
};

static void *g2_on_cpu(void *arg)
{
    struct g2_task *t = arg;
    double t0 = groth16_now();
    t->c->g2_msm(t->out, t->z->b2_points, t->witness, t->z->n_vars, t->threads);
    t->seconds = groth16_now() - t0;
    return NULL;
}

int groth16_gpu_prove(groth16_gpu_key *k, const groth16_curve *c, const zkey *z,
                      const uint8_t *witness, uint8_t *const msm[GROTH16_MSMS], int g2_cpu,
                      int threads, g16_timings *t, char *err, size_t errlen)
{
    struct g2_task task = {c, z, witness, msm[GROTH16_MSM_B2], threads, 0};
    pthread_t th;
    int threaded = g2_cpu && pthread_create(&th, NULL, g2_on_cpu, &task) == 0;
    if (g2_cpu && !threaded) g2_on_cpu(&task); /* no thread: still correct, serial */
    gpu_prove_timings tm;
    int rc = gpu_prove_msms(k->dev, witness, msm[GROTH16_MSM_A], msm[GROTH16_MSM_B1],
                            g2_cpu ? NULL : msm[GROTH16_MSM_B2], msm[GROTH16_MSM_C],
                            msm[GROTH16_MSM_H], &tm, err, errlen);
    if (threaded) pthread_join(th, NULL);
    if (rc) return -1;
    t->transfer += tm.upload;
    t->abc += tm.abc;
    t->ntt += tm.ntt;
    t->msm_a += tm.msm_a;
    t->msm_b1 += tm.msm_b1;
    t->msm_b2 += g2_cpu ? task.seconds : tm.msm_b2;
    t->msm_c += tm.msm_c;
    t->msm_h += tm.msm_h;
    t->on_gpu = 1;
    return 0;
}

/* The batch's spans go to each of its proofs' timings. */
static void add_timings(g16_timings *t, const gpu_prove_timings *tm)
{
    t->transfer += tm->upload;
    t->abc += tm->abc;
    t->ntt += tm->ntt;
    t->msm_a += tm->msm_a;
    t->msm_b1 += tm->msm_b1;
    t->msm_b2 += tm->msm_b2;
    t->msm_c += tm->msm_c;
    t->msm_h += tm->msm_h;
    t->on_gpu = 1;
}

int groth16_gpu_prove_batch(groth16_gpu_key *k, int n, const uint8_t *const *witness,
                            uint8_t *(*msm)[GROTH16_MSMS], g16_timings *const *t, char *err,
                            size_t errlen)
{
    gpu_proof_io io[GPU_BATCH_MAX];
    for (int at = 0; at < n; at += GPU_BATCH_MAX) {
        int sets = n - at < GPU_BATCH_MAX ? n - at : GPU_BATCH_MAX;
        for (int s = 0; s < sets; s++) {
            uint8_t *const *m = msm[at + s];
            io[s] = (gpu_proof_io){witness[at + s],   m[GROTH16_MSM_A], m[GROTH16_MSM_B1],
                                   m[GROTH16_MSM_B2], m[GROTH16_MSM_C], m[GROTH16_MSM_H]};
        }
        gpu_prove_timings tm;
        if (gpu_prove_msms_batch(k->dev, sets, io, &tm, err, errlen)) return -1;
        for (int s = 0; s < sets; s++) add_timings(t[at + s], &tm);
    }
    return 0;
}

#else /* no CUDA backend in this build */

struct groth16_gpu_key {
    int unused;
};

int groth16_gpu_present(char *why, size_t whylen)
{
    snprintf(why, whylen,
             "this build of g16 has no CUDA backend (nvcc was not found when it was built)");
    return 0;
}

groth16_gpu_key *groth16_gpu_upload(const zkey *z, int msm_copies, size_t budget, size_t *bytes,
                                    char *err, size_t errlen)
{
    (void)z;
    (void)msm_copies;
    (void)budget;
    (void)bytes;
    groth16_gpu_present(err, errlen);
    return NULL;
}

void groth16_gpu_free(groth16_gpu_key *k) { (void)k; }

size_t groth16_gpu_host_copied(const groth16_gpu_key *k)
{
    (void)k;
    return 0;
}

const char *groth16_gpu_mode(const groth16_gpu_key *k, size_t *chunk)
{
    (void)k;
    if (chunk) *chunk = 0;
    return "none";
}

int groth16_gpu_prove(groth16_gpu_key *k, const groth16_curve *c, const zkey *z,
                      const uint8_t *witness, uint8_t *const msm[GROTH16_MSMS], int g2_cpu,
                      int threads, g16_timings *t, char *err, size_t errlen)
{
    (void)k;
    (void)c;
    (void)z;
    (void)witness;
    (void)msm;
    (void)g2_cpu;
    (void)threads;
    (void)t;
    groth16_gpu_present(err, errlen);
    return -1;
}

int groth16_gpu_prove_batch(groth16_gpu_key *k, int n, const uint8_t *const *witness,
                            uint8_t *(*msm)[GROTH16_MSMS], g16_timings *const *t, char *err,
                            size_t errlen)
{
    (void)k;
    (void)n;
    (void)witness;
    (void)msm;
    (void)t;
    groth16_gpu_present(err, errlen);
    return -1;
}

#endif
