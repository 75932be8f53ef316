/* g16d's scheduling policy: every decision the scheduler makes, as pure
 * functions of plain values (no daemon, no lock, no clock), so that
 * tests/daemon/test_policy.c checks each rule directly instead of through
 * timing on a socket.  The daemon's adapters (sched.c, keys.c, jobs.c)
 * read the live state under d->mu into these structs and act on the
 * answers; the rules' reasons are told here and in policy.c. */
#ifndef G16D_POLICY_H
#define G16D_POLICY_H

#include <stddef.h>
#include <stdint.h>

/* ---- which partition next ---- */

/* A partition's place in a queue: its job's priority and submission order
 * (seq), its index in the job. */
typedef struct {
    int priority;
    int64_t seq;
    int idx;
} policy_rank;

/* 1 when a goes strictly before b: higher priority first, then the job
 * submitted first, then the lower partition. */
int policy_before(const policy_rank *a, const policy_rank *b);

/* ---- threads ---- */

/* The threads each stage call of a CPU key's partitions gets (the key's
 * share): one per domain_per_thread of its domain, at least what lets
 * msm_workers MSM calls use all threads, at most all threads. */
int policy_key_threads(int threads, int msm_workers, int domain_per_thread, uint32_t domain_size);

/* A partition about to be synthesized, as policy_part_threads sees it. */
typedef struct {
    int threads;        /* --threads: all the stage calls share */
    int active;         /* partitions queued or in flight, this one included */
    int key_threads;    /* its key's share (policy_key_threads) */
    int on_gpu;         /* its key proves on the GPU */
    size_t key_bytes;   /* its reservation with the key's share */
    size_t extra;       /* beside it: the witness file and its calculation */
    size_t budget_free; /* of the memory budget, now */
    /* its reservation with t threads (the library's estimate: MSM buckets
     * are per thread); asked only when more threads are on offer */
    size_t (*bytes_with)(const void *ctx, int t);
    const void *ctx;
} policy_part;

/* The threads its stage calls get and *need, its reservation with them:
 * its part of all threads when fewer partitions than threads are active
 * and the budget has room for the larger reservation now, else the key's
 * share. */
int policy_part_threads(const policy_part *p, size_t *need);

/* The threads a stage call holds: none for a GPU partition (the device's
 * work), one for a finalize call, else the partition's. */
int policy_call_threads(int on_gpu, int finalize, int part_threads);

/* 1 when a call of want threads may start beside busy of total. */
int policy_threads_fit(int busy, int want, int total);

/* ---- batches and the queues between stages ---- */

/* The most partitions one call takes (MSM on the GPU, finalize). */
#define POLICY_BATCH_MAX 16

/* How many of a key's partitions one GPU MSM pass takes: the key's own
 * batch (key_batch, g16_key_gpu_batch), lowered by --gpu-batch (cfg_batch,
 * 0: none), at most POLICY_BATCH_MAX; 1 on the CPU. */
int policy_gpu_batch(int on_gpu, int key_batch, int cfg_batch);

/* A key as the finalize batch sees it. */
typedef struct {
    int verifies;         /* self-verification on, its verification key loaded */
    uint32_t domain_size; /* its domain */
    size_t job_bytes;     /* a partition's reservation */
    size_t abc_bytes;     /* what synthesis gives back of it */
    size_t budget;        /* the whole memory budget */
} policy_final_key;

/* How many of a key's partitions one finalize call takes (their proofs
 * checked as one equation): POLICY_FINAL_BATCH for a small key whose
 * waiting partitions hold at most a quarter of the budget, else 1. */
#define POLICY_FINAL_BATCH        8
#define POLICY_FINAL_BATCH_DOMAIN (1u << 12)
int policy_final_batch(const policy_final_key *k);

/* 1 when one more partition may wait between two stages: fewer than the
 * queue's depth wait, or than a batch of the key it belongs to. */
int policy_queue_room(int waiting, int depth, int batch);

/* The pipeline's counts, as the MSM and finalize stages see them, and
 * the finalize batches (policy_final_batch) of the first partition
 * waiting for finalize (head_batch) and of the first waiting for MSM
 * (next_batch); 0 for none (or, for next_batch, not looked up: the
 * rules read it only at the finalize queue's depth or while a batch
 * fills). */
typedef struct {
    int queued, synth, synthed, msm, msmed; /* partitions in each state */
    int stopping;                           /* the daemon drains */
    int waits_memory;                       /* the next synthesis waits for the budget */
    int final_depth;                        /* --finalize-queue */
    int head_batch, next_batch;
} policy_stages;

/* Whether the MSM stage has a partition to start: one waits for it and
 * the finalize queue has room for it. */
int policy_msm_ready(const policy_stages *s);

/* Whether the finalize stage starts now: at once for a key that does not
 * batch, else when a batch waits or waiting would cost more than it
 * saves (see policy.c). */
int policy_final_ready(const policy_stages *s);

/* Whether the partition about to be synthesized (counted in s->queued)
 * runs as one whole-proof call (synthesis, MSMs and finalize in one
 * library call, g16_prove) instead of three staged calls: when it is
 * alone, nothing else queued or in any stage (finalizing: partitions in
 * a finalize call) and the daemon not stopping, so no other partition's
 * stages could fill the pipeline beside it. */
int policy_whole_proof(const policy_stages *s, int finalizing);

/* ---- the memory budgets ---- */

/* A resident key as a budget's eviction sees it. */
typedef struct {
    size_t bytes; /* what its eviction gives back */
    int busy;     /* unfinished partitions need it, it is loading, or it is
                     the key the room is for: never evicted */
    double last_used;
} policy_key;

/* Which of keys[0..n) to evict so that need more bytes fit in budget,
 * used bytes being held now (the keys' included): 0 with *nvictims
 * indices in victims (idle keys, least recently used first, the first
 * listed on a tie, no more than needed), or -1 when even every idle key
 * evicted would not make room: the work waits for the budget, and
 * nothing is evicted (*nvictims = 0). */
int policy_evict(size_t budget, size_t used, const policy_key *keys, int n, size_t need,
                 int *victims, int *nvictims);

/* 1 when a job's largest partition (part_bytes with its witness) fits the
 * budget beside its own key (key_bytes): else it would wait forever, and
 * the submission is refused. */
int policy_part_fits(size_t budget, size_t key_bytes, size_t part_bytes);

/* 1 when a key could ever be loaded under the budget: its file
 * (key_bytes) and what its load holds beside it while it runs
 * (load_bytes: a GPU load's coefficients by row) fit the whole budget.
 * Else no eviction would make room, and the load is refused for good
 * (413) rather than for now (507). */
int policy_key_fits(size_t budget, size_t key_bytes, size_t load_bytes);

/* The allocator's free memory the reaper lets it keep (no malloc_trim
 * below it): a quarter of the budget no partition or key holds, within
 * [POLICY_TRIM_MIN, POLICY_TRIM_MAX], and none once no partition is
 * active. */
#define POLICY_TRIM_MIN ((size_t)4 << 20)
#define POLICY_TRIM_MAX ((size_t)64 << 20)
size_t policy_trim_mark(size_t budget_free, int active);

#endif
