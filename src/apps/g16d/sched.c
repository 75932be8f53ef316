/* The pipeline: synthesis, MSM and finalize workers, the memory budget and
 * the reaper that frees finished partitions off the critical path (the
 * purge of expired jobs is cron.c's).
 *
 * Budget rule (the lesson of the OOM at pw=12 in system.md): a partition
 * reserves its whole footprint before synthesis and keeps it while it waits
 * for the MSM stage; only the a/b/c share is returned once synthesis has
 * freed those vectors, and the rest once the finished job's buffers have
 * actually been freed.  Work that does not fit waits in the queue.  A key
 * on the GPU reserves far less (g16_key_job_bytes_on): a, b, c never
 * exist on the host, so only the witness file goes back after synthesis.
 *
 * A partition submitted as inputs computes its witness first, in the
 * same synthesis step and under the same reservation: the calculator's
 * linear memory at its cap, the parsed inputs, the witness values and
 * the .wtns are reserved with the rest and go back with the witness.
 * Each calculation runs its own instance of the circuit's calculator
 * (the library makes one per call), so synthesis workers compute
 * witnesses in parallel without sharing one.
 *
 * Threads: the CPU's threads (--threads) are shared out, never
 * oversubscribed: a stage call holds its partition's threads while it
 * runs (a finalize call one), and a worker whose call does not fit waits.
 * Small circuits scale badly over threads (per-thread buckets, a
 * fork-join per tiny MSM), so several of their partitions run side by
 * side with few threads each, as `g16 prove --repeat --jobs J` does;
 * a large circuit's partitions get all threads, which keeps one proof's
 * latency and memory where they were.  A key's share is fixed at load
 * from its domain (--domain-per-thread of it a thread: below that a
 * second thread costs more than it gains, measured with `g16 prove
 * --repeat --jobs` in bench/RESULTS.md), but never so
 * small that the MSM workers could not use every thread.  A partition
 * that finds fewer partitions waiting or in flight than threads gets
 * its part of all of them (a lone proof runs on every core) when the
 * budget has room for the larger reservation that brings (each thread
 * adds MSM buckets), else the key's share.  Freed threads go to the
 * later stages first: a partition in flight finishes before a new one
 * starts, which keeps the results in order and the memory held low.
 *
 * Workers: every worker runs every stage (--synth-workers and the like
 * cap how many calls of each stage run at once, and add up to the
 * workers), so the worker that finishes a partition's stage usually runs
 * its next stage itself, without waking another thread, and an idle
 * worker is woken only when a call may start (wake_next). */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d.h"
#include "jobtab.h"

void d_release(g16d *d, part *p, size_t bytes)
{
    if (bytes > p->reserved) bytes = p->reserved;
    p->reserved -= bytes;
    d->reserved -= bytes;
    if (bytes && p->reserved == 0) d->held_parts--;
}

static void reserve(g16d *d, part *p, size_t bytes)
{
    if (!p->reserved && bytes) d->held_parts++;
    p->reserved += bytes;
    d->reserved += bytes;
}

void d_part_hold(g16d *d, part *p, size_t bytes) { reserve(d, p, bytes); }

void d_part_unhold(g16d *d, part *p)
{
    d_wtns_free(&p->wtns);
    d_release(d, p, p->reserved);
}

/* Frees gj and then returns the bytes to the budget, on the reaper thread:
 * unmapping large buffers costs TLB shootdowns the pipeline need not wait
 * for.  mu held. */
void d_reap(g16d *d, g16_job *gj, part *p, size_t bytes)
{
    reap *r = calloc(1, sizeof *r);
    if (!r) { /* no memory for the note: do it here */
        g16_job_free(gj);
        if (p) {
            d_wtns_free(&p->wtns);
            d_release(d, p, bytes);
        }
        return;
    }
    r->gj = gj;
    if (p) { /* the witness the job pointed into goes with it */
        r->wtns = p->wtns;
        p->wtns = (d_wtns){0};
    }
    r->p = p;
    r->bytes = bytes;
    if (d->reap_tail)
        d->reap_tail->next = r;
    else
        d->reap_head = r;
    d->reap_tail = r;
    pthread_cond_signal(&d->reap_cv);
}

/* Until the queue is empty and every worker has stopped.  mu held. */
static reap *next_reap(g16d *d)
{
    while (!d->reap_head && d->stopped_workers < d->n_workers)
        pthread_cond_wait(&d->reap_cv, &d->mu);
    return d->reap_head;
}

/* Partitions waiting for synthesis or in flight (holding threads or
 * about to). */
static int parts_active(const g16d *d)
{
    int n = 0;
    for (int s = P_QUEUED; s <= P_FINAL; s++) n += d->nstate[s];
    return n;
}

/* Wakes one idle worker when a call may start: while threads are free
 * (or the GPU's calls, which hold none, may run).  The worker woken
 * passes the wake-up on the same way once it took a call, and one that
 * finds nothing to start wakes nobody: every worker could start the same
 * calls, so none could.  One wake-up where a broadcast woke every idle
 * worker to find nothing, several times a proof.  mu held. */
static void wake_next(g16d *d)
{
    if (d->cpu_busy < d->cfg.threads || d->use_gpu) pthread_cond_signal(&d->work);
}

/* How much free memory (freed partitions' buffers under the mmap
 * threshold, kept in the allocator's arenas) the allocator may keep
 * before the reaper gives it back (malloc_trim): policy_trim_mark.  mu
 * held. */
static size_t trim_mark(const g16d *d)
{
    return policy_trim_mark(d_budget_free(d), parts_active(d));
}

static void *reaper(void *arg)
{
    g16d *d = arg;
    pthread_mutex_lock(&d->mu);
    for (;;) {
        reap *r = next_reap(d);
        if (!r) break;
        d->reap_head = r->next;
        if (!d->reap_head) d->reap_tail = NULL;
        size_t mark = trim_mark(d);
        pthread_mutex_unlock(&d->mu);
        g16_job_free(r->gj);
        d_wtns_free(&r->wtns);
        if (mallinfo2().fordblks > mark) malloc_trim(0); /* or RSS ratchets up */
        pthread_mutex_lock(&d->mu);
        if (r->p) d_release(d, r->p, r->bytes);
        free(r);
        wake_next(d); /* the memory released may let a partition start */
        pthread_cond_broadcast(&d->changed);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* A partition reached a terminal state.  mu held. */
void d_part_finish(g16d *d, part *p, part_state st, const char *error)
{
    job *j = p->job;
    jobtab_set_state(d, p, st);
    if (error && !p->error) p->error = strdup(error);
    if (st == P_FAILED) d->proofs_failed++;
    if (st == P_DONE) d->proofs_done++;
    if (st == P_FAILED)
        d_log(D_LOG_WARNING, "partition_failed", "job=%s index=%d key=%s error=%s", j->id, p->idx,
              j->key, p->error ? p->error : "");
    else
        d_log(D_LOG_INFO, st == P_DONE ? "partition_done" : "partition_cancelled",
              "job=%s index=%d key=%s seconds=%.3f", j->id, p->idx, j->key, d_now() - p->t_queued);
    d->be->part_done(d, p);
    if (j->nterminal == j->nparts) {
        j->finished = d_now();
        d->be->job_changed(d, j);
    }
    pthread_cond_broadcast(&d->changed);
}

/* The first partition in state want in policy_before's order.  A job
 * whose first partition could not go before the best so far is skipped
 * without looking at its partitions. */
static part *best(g16d *d, part_state want)
{
    part *b = NULL;
    policy_rank rb = {0}, r;
    if (!d->nstate[want]) return NULL;
    for (job *j = d->jobs; j; j = j->next) {
        r = (policy_rank){j->priority, j->seq, 0};
        if (j->nterminal == j->nparts || (b && !policy_before(&r, &rb))) continue;
        for (r.idx = 0; r.idx < j->nparts; r.idx++)
            if (j->parts[r.idx].state == want) {
                if (!b || policy_before(&r, &rb)) {
                    b = &j->parts[r.idx];
                    rb = r;
                }
                break;
            }
    }
    return b;
}

/* The threads a stage call of p holds (policy_call_threads). */
static int call_threads(const part *p, int stage)
{
    return policy_call_threads(p->job->k->on_gpu, stage == ST_FINAL, p->threads);
}

static int threads_free(const g16d *d, int n)
{
    return policy_threads_fit(d->cpu_busy, n, d->cfg.threads);
}

/* A CPU partition's reservation with t threads: the library's estimate. */
static size_t cpu_bytes_with(const void *key, int t)
{
    return g16_key_job_bytes_on(key, G16_DEVICE_CPU, 0, t);
}

/* The threads p's stage calls get, and *need, its reservation with them
 * (policy_part_threads).  mu held. */
static int part_threads(const g16d *d, const part *p, size_t *need)
{
    const dkey *k = p->job->k;
    policy_part in = {.threads = d->cfg.threads,
                      .active = parts_active(d),
                      .key_threads = k->threads,
                      .on_gpu = k->on_gpu,
                      .key_bytes = k->job_bytes,
                      .extra = p->wtns_bytes + p->calc_bytes,
                      .budget_free = d_budget_free(d),
                      .bytes_with = cpu_bytes_with,
                      .ctx = k->key};
    return policy_part_threads(&in, need);
}

/* Why a partition cannot start: its key (or the key's circuit) is not
 * loaded, e.g. it failed to reload after a restart; NULL if it can. */
static const char *unrunnable(const part *p)
{
    const dkey *k = p->job->k;
    if (!k || !k->key) return "the key of this job is not loaded (reload it and resubmit)";
    if (p->input && !k->circuit)
        return "the key of this job has no circuit to compute its inputs (reload it with its wasm)";
    return NULL;
}

/* The most partitions one GPU pass takes (--gpu-batch's upper bound). */
#define GPU_BATCH_MAX POLICY_BATCH_MAX

/* How many of key k's partitions one GPU pass takes (policy_gpu_batch):
 * the key's own choice (it knows its size), lowered by --gpu-batch. */
static int key_batch(const g16d *d, const dkey *k)
{
    return policy_gpu_batch(k->on_gpu, k->on_gpu ? g16_key_gpu_batch(k->key) : 1, d->cfg.gpu_batch);
}

/* Partitions that may wait for the MSM stage: --msm-queue, or a GPU
 * batch's worth when p's key batches more (batch_pick). */
static int synth_room(const g16d *d, const part *p)
{
    return policy_queue_room(d->nstate[P_SYNTHED], d->cfg.queue_depth[ST_MSM],
                             key_batch(d, p->job->k));
}

static policy_stages stages_now(const g16d *d);

/* Whether the partition about to leave the queue runs its stages as one
 * whole-proof call (policy_whole_proof): it is alone in the pipeline.
 * Its reservation is the staged one: the library's estimate is already
 * the largest of the stages, which one call never holds together.  mu
 * held. */
static int whole_proof(const g16d *d)
{
    policy_stages s = stages_now(d);
    return policy_whole_proof(&s, d->nstate[P_FINAL]);
}

int d_lone_now(const g16d *d, size_t need)
{
    policy_stages s = stages_now(d);
    s.queued++; /* the job being submitted */
    return policy_whole_proof(&s, d->nstate[P_FINAL]) && need <= d_budget_free(d);
}

static part *pick_synth(g16d *d, dkey **evicted)
{
    if (d->stopping) return NULL;
    part *p;
    const char *why;
    while ((p = best(d, P_QUEUED)) && (why = unrunnable(p))) {
        if (p->reserved) d_reap(d, NULL, p, p->reserved); /* its witness read at submission */
        d_part_finish(d, p, P_FAILED, why);
    }
    if (!p || !synth_room(d, p)) return NULL;
    size_t need;
    p->threads = part_threads(d, p, &need);
    if (!threads_free(d, call_threads(p, ST_SYNTH))) return NULL; /* wait for threads */
    need = need > p->reserved ? need - p->reserved : 0; /* a witness read at submission is held */
    int waits = d_budget_free(d) < need && d_key_make_room(d, need, p->job->k, evicted);
    if (waits != d->synth_needs_memory) /* a wait's start and end, not each look */
        d_log(D_LOG_INFO, waits ? "budget_wait" : "budget_wait_over",
              "job=%s index=%d need=%zu free=%zu", p->job->id, p->idx, need, d_budget_free(d));
    d->synth_needs_memory = waits;
    if (d->synth_needs_memory) return NULL;
    reserve(d, p, need);
    p->whole = whole_proof(d);
    return p;
}

/* Finalize batches (policy_final_batch): how many of k's partitions one
 * finalize call takes. */
static int key_final_batch(const g16d *d, const dkey *k)
{
    policy_final_key in = {d->cfg.self_verify && k->vk_json && k->key,
                           k->key ? g16_key_domain_size(k->key) : 0, k->job_bytes, k->abc_bytes,
                           d->cfg.budget};
    return policy_final_batch(&in);
}

/* The finalize batch of the first partition in state s (0: none). */
static int head_final_batch(g16d *d, part_state s)
{
    part *p = best(d, s);
    return p ? key_final_batch(d, p->job->k) : 0;
}

/* The pipeline's counts for policy_msm_ready and policy_final_ready;
 * the batches of the first partitions waiting are looked up by the
 * callers, only where the rule reads them.  mu held. */
static policy_stages stages_now(const g16d *d)
{
    return (policy_stages){.queued = d->nstate[P_QUEUED],
                           .synth = d->nstate[P_SYNTH],
                           .synthed = d->nstate[P_SYNTHED],
                           .msm = d->nstate[P_MSM],
                           .msmed = d->nstate[P_MSMED],
                           .stopping = d->stopping,
                           .waits_memory = d->synth_needs_memory,
                           .final_depth = d->cfg.queue_depth[ST_FINAL]};
}

/* Whether the finalize stage starts now (policy_final_ready); without
 * self-verification no key batches, so no partition is looked up. */
static int final_ready(g16d *d)
{
    policy_stages s = stages_now(d);
    if (!s.msmed) return 0;
    s.head_batch = d->cfg.self_verify ? head_final_batch(d, P_MSMED) : 1;
    if (s.head_batch > 1) s.next_batch = head_final_batch(d, P_SYNTHED);
    return policy_final_ready(&s);
}

/* Whether stage has a partition to start (threads aside). */
static int stage_ready(g16d *d, int stage)
{
    if (stage != ST_MSM) return final_ready(d);
    policy_stages s = stages_now(d);
    if (s.synthed && s.msmed >= s.final_depth) s.next_batch = head_final_batch(d, P_SYNTHED);
    return policy_msm_ready(&s);
}

/* Whether a later stage has a partition to start and a worker free to
 * start it: freed threads go to it first. */
static int later_stage_ready(g16d *d, int stage)
{
    for (int s = stage + 1; s < ST_COUNT; s++)
        if (d->busy[s] < d->cfg.workers[s] && stage_ready(d, s)) return 1;
    return 0;
}

static part *pick(g16d *d, int stage, dkey **evicted)
{
    if (later_stage_ready(d, stage)) return NULL;
    if (stage == ST_SYNTH) return pick_synth(d, evicted);
    part *p = stage_ready(d, stage) ? best(d, stage == ST_MSM ? P_SYNTHED : P_MSMED) : NULL;
    return p && threads_free(d, call_threads(p, stage)) ? p : NULL;
}

/* Whether partitions started are still unfinished: a stopping daemon
 * drains what it started instead of dropping it. */
static int in_flight(const g16d *d)
{
    int n = 0;
    for (int s = P_SYNTH; s <= P_FINAL; s++) n += d->nstate[s];
    return n > 0;
}

/* The next stage call for a worker, the latest stage first (a partition
 * in flight finishes before a new one starts), in *stage; NULL if none
 * can start.  Every worker runs every stage, within each stage's worker
 * count: the one that finished a partition's stage usually runs its next
 * stage itself, so a small proof's stages need no hand-off (a wake-up of
 * another thread on another core) between them.  The keys evicted to
 * make room go to *evicted, for the worker to free after the lock. */
static part *pick_any(g16d *d, int *stage, dkey **evicted)
{
    for (int s = ST_COUNT - 1; s >= 0; s--) {
        part *p = d->busy[s] < d->cfg.workers[s] ? pick(d, s, evicted) : NULL;
        if (p) {
            *stage = s;
            return p;
        }
    }
    return NULL;
}

static const part_state k_running[ST_COUNT] = {P_SYNTH, P_MSM, P_FINAL};
static const part_state k_after[ST_COUNT] = {P_SYNTHED, P_MSMED, P_DONE};

/* The partition's witness: computed from its input by the key's circuit,
 * or read from its file; a payload in memory (a fleet's claimed
 * partition) is taken instead of the file.  The calculation's seconds go
 * to the partition's timings. */
static int witness_of(g16d *d, part *p, d_wtns *w, char *err, size_t errlen)
{
    if (w->buf) return G16_OK; /* read (and checked) at submission */
    w->computed = p->input;
    if (!w->computed && p->payload) { /* the job borrows it; d_wtns_free frees it */
        w->buf = p->payload;
        w->len = p->payload_len;
        w->owned = 1;
        p->payload = NULL;
        return G16_OK;
    }
    if (!w->computed)
        return g16_file_read(p->wtns_path, p->wtns_bytes, &w->buf, &w->len, err, errlen);
    char *text = (char *)p->payload, name[64];
    p->payload = NULL;
    int rc = text ? G16_OK : g16_file_read_text(p->input_path, p->input_bytes, &text, err, errlen);
    if (rc) return rc;
    snprintf(name, sizeof name, "%s/%d: input", p->job->id, p->idx);
    double t0 = d_now();
    rc = g16_witness_calculate(p->job->k->circuit, text, strlen(text), name, NULL, NULL, &w->buf,
                               &w->len, err, errlen);
    p->witness_s = d_now() - t0;
    /* this thread's calculation: the graph, or the wasm and why */
    char path[320];
    if (!rc && !g16_circuit_witness_path(p->job->k->circuit, path, sizeof path)) {
        snprintf(p->witness_path, sizeof p->witness_path, "%s",
                 strncmp(path, "graph", 5) ? "wasm" : "graph");
        d_log(D_LOG_INFO, "witness_computed",
              "job=%s index=%d key=%s path=%s seconds=%.3f detail=%s", p->job->id, p->idx,
              p->job->key, p->witness_path, p->witness_s, path);
        if (p->witness_path[0] == 'w' && g16_circuit_graph_wanted(p->job->k->circuit))
            d_key_graph_after(d, p->job->k, &text);
    }
    free(text);
    return rc;
}

void d_wtns_free(d_wtns *w)
{
    if (!w->buf) return;
    if (w->computed)
        g16_witness_free(w->buf);
    else if (w->owned)
        free(w->buf);
    else
        g16_file_release(w->buf, w->len);
    *w = (d_wtns){0};
}

/* The library's options for p's calls. */
static void part_options(const g16d *d, const part *p, g16_options *opt)
{
    g16_options_default(opt);
    opt->threads = p->threads;
    /* the key's device, decided at load: a job never uploads a key itself
     * (unbudgeted host memory) nor falls back to the CPU (unreserved) */
    opt->device = p->job->k->on_gpu ? G16_DEVICE_GPU : G16_DEVICE_CPU;
    opt->g2_on_cpu = d->cfg.g2_on_cpu;
    /* the values stay where they were read: the reservation counted the
     * file's bytes until synthesis ends and the job's copy of them after,
     * which the borrowed buffer, one header larger, takes the place of */
    opt->borrow_witness = 1;
}

/* What a partition's first stage call needs, staged or whole: its
 * options, its witness (read or computed) and its name ("job/index"). */
static int part_begin(g16d *d, part *p, g16_options *opt, char name[64], char *err, size_t errlen)
{
    part_options(d, p, opt);
    snprintf(name, 64, "%s/%d", p->job->id, p->idx);
    return witness_of(d, p, &p->wtns, err, errlen);
}

static int run_synth(g16d *d, part *p, char *err, size_t errlen)
{
    g16_options opt;
    char name[64];
    int rc = part_begin(d, p, &opt, name, err, errlen);
    if (rc) return rc;
    rc = g16_job_new(p->job->k->key, p->wtns.buf, p->wtns.len, name, &opt, &p->gj, err, errlen);
    if (rc) d_wtns_free(&p->wtns);
    return rc ? rc : (int)g16_job_synthesize(p->gj, err, errlen);
}

/* Where its witness came from: computed from an input, read into memory
 * at submission (a lone job: the bytes checked there were proved), or
 * read at synthesis (from its file or the bytes a fleet's claim
 * carried). */
static const char *witness_from(const part *p)
{
    return p->input ? "input" : p->read_early ? "submission" : "synthesis";
}

static char *timings_json(const part *p)
{
    const g16_timings *t = &p->t;
    char *s = NULL;
    if (asprintf(&s,
                 "{\"wait_s\":%.6f,\"witness_s\":%.6f,\"synthesis_s\":%.6f,\"msm_s\":%.6f,"
                 "\"finalize_s\":%.6f,"
                 "\"verify_s\":%.6f,\"read_s\":%.6f,\"abc_s\":%.6f,\"ntt_s\":%.6f,\"msm_a_s\":%.6f,"
                 "\"msm_b1_s\":%.6f,\"msm_b2_s\":%.6f,\"msm_c_s\":%.6f,\"msm_h_s\":%.6f,\"finish_"
                 "s\":%.6f,"
                 "\"transfer_s\":%.6f,\"device\":\"%s\",\"threads\":%d,\"path\":\"%s\","
                 "\"witness_from\":\"%s\"%s%s%s}",
                 p->wait_s, p->witness_s, p->synth_s, p->msm_s, p->final_s, p->verify_s, t->read,
                 t->abc, t->ntt, t->msm_a, t->msm_b1, t->msm_b2, t->msm_c, t->msm_h, t->finish,
                 t->transfer, t->on_gpu ? "gpu" : "cpu", p->threads, p->whole ? "whole" : "staged",
                 witness_from(p), p->witness_path[0] ? ",\"witness_path\":\"" : "", p->witness_path,
                 p->witness_path[0] ? "\"" : "") < 0)
        return NULL;
    return s;
}

/* p's proof checked alone against its key's verification key. */
static int self_check(part *p, char *err, size_t errlen)
{
    double t0 = d_now();
    char verr[D_ERR];
    bool valid = false;
    g16_status rc =
        g16_verify_json(p->job->k->vk_json, p->pub, p->proof, &valid, verr, sizeof verr);
    p->verify_s = d_now() - t0;
    if (rc == G16_OK && valid) return 0;
    d_errf(err, errlen, "%s/%d: self-verification failed: %s", p->job->id, p->idx, verr);
    return -1;
}

static int run_final(g16d *d, part *p, char *err, size_t errlen)
{
    if (g16_job_finish(p->gj, &p->proof, &p->pub, err, errlen)) return -1;
    return d->cfg.self_verify && p->job->k->vk_json ? self_check(p, err, errlen) : 0;
}

/* A lone partition's stages as one call (policy_whole_proof): the
 * library's whole proof, as `g16 prove` makes it, from the witness read
 * once (borrowed, as the staged calls borrow it), then the self-check.
 * Its seconds are the partition's synthesis_s (the only stage call). */
static int run_whole(g16d *d, part *p, char *err, size_t errlen)
{
    g16_options opt;
    char name[64];
    int rc = part_begin(d, p, &opt, name, err, errlen);
    if (rc) return rc;
    rc = g16_prove(p->job->k->key, p->wtns.buf, p->wtns.len, name, &opt, &p->proof, &p->pub, &p->t,
                   err, errlen);
    if (rc) return rc;
    return d->cfg.self_verify && p->job->k->vk_json ? self_check(p, err, errlen) : 0;
}

/* Finalize for partitions of one key (key_final_batch: self-verification
 * on): each proof assembled, then the proofs checked as one equation
 * (each verify_s its share); a proof the combined check rejects, or every
 * proof when the call itself fails, is checked alone for its message. */
static void run_final_batch(part **batch, int n, int *rc, char (*err)[D_ERR])
{
    const char *pubs[GPU_BATCH_MAX], *proofs[GPU_BATCH_MAX];
    int at[GPU_BATCH_MAX], valid[GPU_BATCH_MAX], m = 0;
    for (int i = 0; i < n; i++) {
        part *p = batch[i];
        if ((rc[i] = g16_job_finish(p->gj, &p->proof, &p->pub, err[i], D_ERR))) continue;
        pubs[m] = p->pub;
        proofs[m] = p->proof;
        at[m++] = i;
    }
    double t0 = d_now();
    char verr[D_ERR];
    int called = g16_verify_batch_json(batch[0]->job->k->vk_json, (size_t)m, pubs, proofs, valid,
                                       verr, sizeof verr) == 0;
    double share = m ? (d_now() - t0) / m : 0;
    for (int j = 0; j < m; j++) {
        part *p = batch[at[j]];
        p->verify_s = share;
        if (!called || valid[j] != 1) rc[at[j]] = self_check(p, err[at[j]], D_ERR);
    }
}

static int run_stage(g16d *d, int stage, part *p, char *err, size_t errlen)
{
    if (stage == ST_SYNTH)
        return p->whole ? run_whole(d, p, err, errlen) : run_synth(d, p, err, errlen);
    if (stage == ST_MSM) return g16_job_msm(p->gj, err, errlen);
    return run_final(d, p, err, errlen);
}

/* Publishes a stage's outcome.  mu held. */
static void after_stage(g16d *d, int stage, part *p, int rc, const char *err, double secs)
{
    d_histo_add(&d->hist[stage], secs);
    if (stage == ST_SYNTH)
        p->synth_s = secs;
    else if (stage == ST_MSM)
        p->msm_s = secs;
    else
        p->final_s = secs;
    if (p->gj) p->t = *g16_job_timings(p->gj);
    int last = stage == ST_FINAL || p->whole; /* a whole-proof call was the last */
    if (rc || p->job->cancelled || last) {
        part_state st = rc ? P_FAILED : p->job->cancelled && !last ? P_CANCELLED : P_DONE;
        if (st == P_DONE) {
            free(p->timings);
            p->timings = timings_json(p);
        }
        if (rc == G16_ERR_DEVICE) d_health_gpu_failed(d, err);
        d_reap(d, p->gj, p, p->reserved);
        p->gj = NULL;
        d_part_finish(d, p, st, rc ? err : NULL);
        return;
    }
    if (stage == ST_SYNTH) /* a, b, c are freed and the job's witness copy (counted in
                            * job_bytes) is the borrowed buffer: their share goes back */
        d_release(d, p, p->job->k->abc_bytes + p->wtns_bytes + p->calc_bytes);
    jobtab_set_state(d, p, k_after[stage]);
    p->t_stage = d_now();
}

/* A stage call's batch: after p (already running), the next partitions
 * of p's key waiting for the same stage, in the order best() gives them.
 * MSM: up to the key's GPU batch (g16_key_gpu_batch: the library's choice
 * from the domain, 16 at 2^16, 4 at 2^18, 1 above; its device workspace
 * estimate, charged at load, counts batches that large), their MSMs one
 * pass over the key's points (g16_jobs_msm); the finalize queue's depth
 * was checked for p alone: a batch may pass it by its size, finalizing is
 * cheap.  Finalize: up to the key's finalize batch, their proofs checked
 * as one (run_final_batch).  Fills batch[0..n) (p first) and marks the
 * others running.  mu held. */
static int batch_pick(g16d *d, int stage, part *p, part **batch)
{
    const dkey *k = p->job->k;
    int want = stage == ST_MSM ? key_batch(d, k) : stage == ST_FINAL ? key_final_batch(d, k) : 1;
    part_state from = stage == ST_MSM ? P_SYNTHED : P_MSMED;
    int n = 1;
    batch[0] = p;
    for (part *q; n < want && (q = best(d, from)) && q->job->k == k; n++) {
        jobtab_set_state(d, q, k_running[stage]);
        batch[n] = q;
    }
    return n;
}

/* A stage call for batch[0..n): rc[i] and err[i] are partition i's. */
static void run_batch(g16d *d, int stage, part **batch, int n, int *rc, char (*err)[D_ERR])
{
    if (n == 1) {
        rc[0] = run_stage(d, stage, batch[0], err[0], D_ERR);
        return;
    }
    if (stage == ST_FINAL) {
        run_final_batch(batch, n, rc, err);
        return;
    }
    g16_job *jobs[GPU_BATCH_MAX];
    for (int i = 0; i < n; i++) jobs[i] = batch[i]->gj;
    rc[0] = g16_jobs_msm(jobs, n, err[0], D_ERR);
    for (int i = 1; i < n; i++) {
        rc[i] = rc[0];
        memcpy(err[i], err[0], D_ERR);
    }
}

static void *worker(void *arg)
{
    g16d *d = arg;
    char err[GPU_BATCH_MAX][D_ERR];
    pthread_mutex_lock(&d->mu);
    for (;;) {
        part *p;
        int stage;
        dkey *evicted = NULL;
        while (!(p = pick_any(d, &stage, &evicted))) {
            if (d->stopping && !in_flight(d)) goto out;
            pthread_cond_wait(&d->work, &d->mu);
        }
        double t0 = d_now();
        if (stage == ST_SYNTH) {
            p->wait_s = t0 - p->t_queued;
            d_histo_add(&d->hist[ST_COUNT], p->wait_s);
        }
        int threads = call_threads(p, stage);
        d->cpu_busy += threads;
        jobtab_set_state(d, p, k_running[stage]);
        part *batch[GPU_BATCH_MAX];
        int n = batch_pick(d, stage, p, batch), rc[GPU_BATCH_MAX];
        d->busy[stage]++;
        wake_next(d);
        pthread_cond_broadcast(&d->changed);
        pthread_mutex_unlock(&d->mu);
        d_key_reap(&evicted); /* what pick evicted to make room */
        for (int i = 0; i < n; i++) err[i][0] = 0;
        run_batch(d, stage, batch, n, rc, err);
        double secs = d_now() - t0;
        pthread_mutex_lock(&d->mu);
        d->busy[stage]--;
        d->cpu_busy -= threads;
        /* a batch's time is shared out among its partitions, so a stage's
         * histogram sum stays the time the stage was busy */
        for (int i = 0; i < n; i++) after_stage(d, stage, batch[i], rc[i], err[i], secs / n);
        if (n > 1) wake_next(d); /* the batch's other partitions wait for a finalize call */
        if (d->stopping) pthread_cond_broadcast(&d->work); /* the idle ones may exit */
    }
out:
    d->stopped_workers++;
    pthread_cond_broadcast(&d->work);
    pthread_cond_signal(&d->reap_cv);
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* As many workers as the stages' worker counts add up to (each count
 * caps its stage's calls at once). */
int d_workers_grow(g16d *d)
{
    int n = 0;
    for (int s = 0; s < ST_COUNT; s++) n += d->cfg.workers[s];
    for (; d->n_workers < n && d->n_workers < 64; d->n_workers++)
        if (pthread_create(&d->workers[d->n_workers], NULL, worker, d)) return -1;
    return 0;
}

int d_workers_start(g16d *d)
{
    if (d_workers_grow(d)) return -1;
    /* last: the reaper exits once every worker has (n_workers must be final) */
    return pthread_create(&d->reaper, NULL, reaper, d) ? -1 : 0;
}

/* Stops taking new partitions, lets the ones in flight finish, frees. */
void d_workers_stop(g16d *d)
{
    pthread_mutex_lock(&d->mu);
    d->stopping = 1;
    pthread_cond_broadcast(&d->work);
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->mu);
    for (int i = 0; i < d->n_workers; i++) pthread_join(d->workers[i], NULL);
    pthread_join(d->reaper, NULL);
    /* a graph build (keys.c) uses its key's circuit: it ends first */
    pthread_mutex_lock(&d->mu);
    while (d->graph_builders) pthread_cond_wait(&d->changed, &d->mu);
    pthread_mutex_unlock(&d->mu);
}
