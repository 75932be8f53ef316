/* g16d's scheduling policy (policy.h): the rules, each a pure function.
 * Where each is called: sched.c (order, threads, batches, stage
 * readiness, trimming), keys.c (eviction), jobs.c (admission). */

#include "policy.h"

int policy_before(const policy_rank *a, const policy_rank *b)
{
    if (a->priority != b->priority) return a->priority > b->priority;
    if (a->seq != b->seq) return a->seq < b->seq;
    return a->idx < b->idx;
}

/* Small circuits scale badly over threads (per-thread buckets, a
 * fork-join per tiny MSM), so a key gets a thread per domain_per_thread
 * of its domain (below that a second thread costs more than it gains,
 * measured with `g16 prove --repeat --jobs` in bench/RESULTS.md), but
 * never so few that the MSM workers could not use every thread. */
int policy_key_threads(int threads, int msm_workers, int domain_per_thread, uint32_t domain_size)
{
    int msm = msm_workers > 0 ? msm_workers : 1;
    int least = (threads + msm - 1) / msm;
    uint32_t want = domain_size / (uint32_t)domain_per_thread;
    if (want < (uint32_t)least) return least;
    return want > (uint32_t)threads ? threads : (int)want;
}

/* A lone proof runs on every core; the larger reservation (more MSM
 * buckets) is taken only when the budget has it free now, so more
 * threads never make a partition wait. */
int policy_part_threads(const policy_part *p, size_t *need)
{
    int share = p->threads / (p->active > 0 ? p->active : 1);
    if (share > p->key_threads && !p->on_gpu) {
        size_t more = p->bytes_with(p->ctx, share) + p->extra;
        if (more <= p->budget_free) {
            *need = more;
            return share;
        }
    }
    *need = p->key_bytes + p->extra;
    return p->key_threads;
}

int policy_call_threads(int on_gpu, int finalize, int part_threads)
{
    if (on_gpu) return 0;
    return finalize ? 1 : part_threads;
}

int policy_threads_fit(int busy, int want, int total) { return busy + want <= total; }

int policy_gpu_batch(int on_gpu, int key_batch, int cfg_batch)
{
    if (!on_gpu) return 1;
    int n = key_batch;
    if (cfg_batch && n > cfg_batch) n = cfg_batch;
    return n < POLICY_BATCH_MAX ? n : POLICY_BATCH_MAX;
}

/* Where the self-verification is a notable part of a proof (keys of
 * domain up to POLICY_FINAL_BATCH_DOMAIN: a tenth of a proof at 2^10, a
 * twenty-fifth at 2^12), one finalize call checks a batch's proofs as one
 * equation (g16_verify_batch_json: about half the time a proof).  Larger
 * keys gain too little for the wait of their first proofs.  The
 * partitions waiting for a batch keep what they hold after synthesis, so
 * a batch may take at most a quarter of the budget: under a tight budget
 * memory goes to new partitions, not to waiting ones. */
int policy_final_batch(const policy_final_key *k)
{
    if (!k->verifies) return 1;
    size_t held = k->job_bytes > k->abc_bytes ? k->job_bytes - k->abc_bytes : 0;
    int small = k->domain_size <= POLICY_FINAL_BATCH_DOMAIN;
    return small && POLICY_FINAL_BATCH * held <= k->budget / 4 ? POLICY_FINAL_BATCH : 1;
}

/* A queue admits at least a batch, so the stage after it can take one. */
int policy_queue_room(int waiting, int depth, int batch)
{
    return waiting < (batch > depth ? batch : depth);
}

/* Below the finalize queue's depth any key has room (the adapter need not
 * look up next_batch); at it, only a key whose batch is larger.  The
 * depth is checked for the first partition alone: a batch may pass it by
 * its size (finalizing is cheap). */
int policy_msm_ready(const policy_stages *s)
{
    return s->synthed && policy_queue_room(s->msmed, s->final_depth, s->next_batch);
}

/* A batching key's partitions wait for finalize until a batch's worth
 * waits, or until waiting would cost more than it saves: the next
 * partition waits for the memory the waiting ones hold, no partition is
 * queued or under way before finalize (a lone proof never waits), the MSM
 * stage is held back by the finalize queue (waiting longer would
 * deadlock), or the daemon stops. */
int policy_final_ready(const policy_stages *s)
{
    if (!s->msmed || !s->head_batch) return 0;
    int want = s->head_batch;
    if (want == 1 || s->stopping || s->msmed >= want) return 1;
    if (s->waits_memory && s->queued) return 1;
    if (s->queued + s->synth + s->synthed + s->msm == 0) return 1;
    return s->next_batch && !policy_queue_room(s->msmed, s->final_depth, s->next_batch);
}

/* The pipeline gains a lone partition nothing: its stages run one after
 * the other anyway, and each hand-off between workers costs a wake-up,
 * and on the GPU the stage calls cannot overlap the way one call does.
 * One call (the library's whole proof, as `g16 prove` runs it) is then
 * the fastest way.  Any other partition queued or in a stage means a
 * pipeline to fill: the staged calls let it share the stages. */
int policy_whole_proof(const policy_stages *s, int finalizing)
{
    if (s->stopping || s->queued != 1) return 0;
    return s->synth + s->synthed + s->msm + s->msmed + finalizing == 0;
}

/* The least recently used idle key not yet chosen, or -1. */
static int lru_idle(const policy_key *keys, int n, const int *victims, int nvictims)
{
    int v = -1;
    for (int i = 0; i < n; i++) {
        int taken = 0;
        for (int j = 0; j < nvictims; j++) taken |= victims[j] == i;
        if (!keys[i].busy && !taken && (v < 0 || keys[i].last_used < keys[v].last_used)) v = i;
    }
    return v;
}

int policy_evict(size_t budget, size_t used, const policy_key *keys, int n, size_t need,
                 int *victims, int *nvictims)
{
    *nvictims = 0;
    while (used + need > budget || used + need < used) {
        int v = lru_idle(keys, n, victims, *nvictims);
        if (v < 0) { /* even every idle key is not enough */
            *nvictims = 0;
            return -1;
        }
        victims[(*nvictims)++] = v;
        used -= keys[v].bytes < used ? keys[v].bytes : used;
    }
    return 0;
}

int policy_part_fits(size_t budget, size_t key_bytes, size_t part_bytes)
{
    return part_bytes <= (budget > key_bytes ? budget - key_bytes : 0);
}

int policy_key_fits(size_t budget, size_t key_bytes, size_t load_bytes)
{
    return key_bytes <= budget && load_bytes <= budget - key_bytes;
}

/* Trimming costs the next partitions their pages (madvise flushes every
 * core's TLB, the pages fault back in): after each partition it took a
 * tenth of a 2^10 proof's CPU, and every 4 MiB of freed partitions still
 * took 14 madvise calls and 1200 page faults a 2^14 proof, for memory the
 * next partitions reuse anyway.  Kept memory is outside the reservations,
 * so it may only use budget nobody reserved; the idle daemon gives it all
 * back. */
size_t policy_trim_mark(size_t budget_free, int active)
{
    size_t q = budget_free / 4;
    if (!active) return 0;
    return q < POLICY_TRIM_MIN ? POLICY_TRIM_MIN : q > POLICY_TRIM_MAX ? POLICY_TRIM_MAX : q;
}
