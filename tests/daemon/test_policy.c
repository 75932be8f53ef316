/* g16d's scheduling policy (src/apps/g16d/policy.c), rule by rule, without
 * a daemon: the order of work, the threads a key and a partition get, the
 * GPU and finalize batches, the queues between stages, when MSM and
 * finalize may start, the memory budget's waits and evictions, the
 * admission of a job's largest partition and the allocator's trim mark.
 * Each case is one the shell tests reach only by timing, or an edge a
 * plausible wrong rule would get wrong. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "../common/test.h"

enum { MB = 1 << 20 };

static int before(int pa, int64_t sa, int ia, int pb, int64_t sb, int ib)
{
    policy_rank a = {pa, sa, ia}, b = {pb, sb, ib};
    return policy_before(&a, &b);
}

static int rank_cmp(const void *x, const void *y)
{
    return policy_before(x, y) ? -1 : policy_before(y, x) ? 1 : 0;
}

/* Priority, then submission, then partition; strict (a tie is no "before"). */
static void test_order(void)
{
    CHECK(before(1, 9, 5, 0, 1, 0)); /* a higher priority passes older jobs */
    CHECK(!before(0, 1, 0, 1, 9, 5));
    CHECK(before(0, 1, 3, 0, 2, 0)); /* same priority: the older job, whatever its index */
    CHECK(!before(0, 2, 0, 0, 1, 3));
    CHECK(before(0, 4, 1, 0, 4, 2));   /* same job: the lower partition */
    CHECK(!before(0, 4, 2, 0, 4, 2));  /* not before itself */
    CHECK(before(-1, 1, 0, -5, 0, 0)); /* negative priorities order too */
    policy_rank q[] = {{0, 3, 0}, {2, 5, 1}, {0, 1, 2}, {2, 5, 0}, {-1, 0, 0}, {0, 1, 0}};
    const policy_rank want[] = {{2, 5, 0}, {2, 5, 1}, {0, 1, 0}, {0, 1, 2}, {0, 3, 0}, {-1, 0, 0}};
    qsort(q, 6, sizeof *q, rank_cmp);
    for (int i = 0; i < 6; i++)
        CHECKF(q[i].priority == want[i].priority && q[i].seq == want[i].seq &&
                   q[i].idx == want[i].idx,
               "place %d: priority %d seq %lld idx %d", i, q[i].priority, (long long)q[i].seq,
               q[i].idx);
}

/* A key's share: --domain-per-thread of its domain a thread, at least
 * threads / MSM workers (rounded up), at most all threads. */
static void test_key_threads(void)
{
    CHECK(policy_key_threads(16, 16, 65536, 1u << 10) == 1);  /* small: one thread */
    CHECK(policy_key_threads(16, 16, 65536, 1u << 18) == 4);  /* 2^18 / 2^16 */
    CHECK(policy_key_threads(16, 16, 65536, 1u << 22) == 16); /* capped at all */
    CHECK(policy_key_threads(16, 1, 65536, 1u << 10) == 16);  /* one MSM worker: all threads */
    CHECK(policy_key_threads(8, 3, 65536, 1u << 10) == 3);    /* ceil(8 / 3) */
    CHECK(policy_key_threads(8, 0, 65536, 1u << 10) == 8);    /* 0 workers counts as one */
    CHECK(policy_key_threads(16, 16, 1024, 1u << 13) == 8);   /* the option scales it */
}

/* A fake reservation: 1000 bytes and 100 a thread; records what it was
 * asked (ctx points to the slot). */
static size_t fake_bytes(const void *ctx, int t)
{
    *(int *)ctx = t;
    return 1000 + 100 * (size_t)t;
}

static void test_part_threads(void)
{
    int asked = 0;
    size_t need = 0;
    /* 8 threads, 2 active, key share 1: the partition gets 4 when the
     * reservation with 4 (1400 + 50 extra) is free now */
    policy_part p = {8, 2, 1, 0, 1100, 50, 1450, fake_bytes, &asked};
    CHECK(policy_part_threads(&p, &need) == 4);
    CHECK(asked == 4 && need == 1450);
    /* a byte short: the key's share and its reservation, never a wait */
    p.budget_free = 1449;
    CHECK(policy_part_threads(&p, &need) == 1 && need == 1150);
    /* a lone partition takes every thread */
    p.active = 1;
    p.budget_free = 1 << 20;
    CHECK(policy_part_threads(&p, &need) == 8 && asked == 8 && need == 1850);
    /* more active than threads: the key's share, the estimate not asked */
    p.active = 9;
    asked = 0;
    CHECK(policy_part_threads(&p, &need) == 1 && asked == 0 && need == 1150);
    /* the share only when larger than the key's */
    p.active = 2;
    p.key_threads = 4;
    p.key_bytes = 1400;
    CHECK(policy_part_threads(&p, &need) == 4 && asked == 0 && need == 1450);
    /* a GPU key keeps its threads (all of them, set at load) */
    p = (policy_part){8, 1, 8, 1, 700, 50, 1 << 20, fake_bytes, &asked};
    CHECK(policy_part_threads(&p, &need) == 8 && asked == 0 && need == 750);
    p.key_threads = 2;
    CHECK(policy_part_threads(&p, &need) == 2 && asked == 0);
}

static void test_call_threads(void)
{
    CHECK(policy_call_threads(0, 0, 4) == 4); /* synthesis, MSM: the partition's */
    CHECK(policy_call_threads(0, 1, 4) == 1); /* finalize: one */
    CHECK(policy_call_threads(1, 0, 4) == 0); /* GPU: none */
    CHECK(policy_call_threads(1, 1, 4) == 0);
    CHECK(policy_threads_fit(4, 4, 8));  /* exactly all threads */
    CHECK(!policy_threads_fit(5, 4, 8)); /* never oversubscribed */
    CHECK(policy_threads_fit(8, 0, 8));  /* a GPU call holds none */
}

static void test_gpu_batch(void)
{
    CHECK(policy_gpu_batch(0, 16, 0) == 1);  /* the CPU never batches MSMs */
    CHECK(policy_gpu_batch(1, 16, 0) == 16); /* the key's own batch */
    CHECK(policy_gpu_batch(1, 4, 0) == 4);
    CHECK(policy_gpu_batch(1, 16, 4) == 4);  /* --gpu-batch lowers it */
    CHECK(policy_gpu_batch(1, 4, 8) == 4);   /* and never raises it */
    CHECK(policy_gpu_batch(1, 16, 1) == 1);  /* 1: no batching */
    CHECK(policy_gpu_batch(1, 64, 0) == 16); /* at most POLICY_BATCH_MAX */
    CHECK(policy_gpu_batch(1, 64, 32) == 16);
}

static void test_final_batch(void)
{
    /* 2^12, 10 MB held after synthesis, 400 MB budget: 80 MB <= 100 MB */
    policy_final_key k = {1, 1u << 12, 12 * MB, 2 * MB, 400 * MB};
    CHECK(policy_final_batch(&k) == 8);
    k.verifies = 0; /* no self-verification (or no vk): nothing to batch */
    CHECK(policy_final_batch(&k) == 1);
    k = (policy_final_key){1, 1u << 13, 12 * MB, 2 * MB, 400 * MB}; /* 2^13: too large */
    CHECK(policy_final_batch(&k) == 1);
    k = (policy_final_key){1, 1u << 10, 12 * MB, 2 * MB, 320 * MB}; /* 80 MB = a quarter */
    CHECK(policy_final_batch(&k) == 8);
    k.budget = 320 * MB - 4; /* a batch would hold more than a quarter */
    CHECK(policy_final_batch(&k) == 1);
    /* what synthesis gives back is not held: 8 x (job - abc) counts */
    k = (policy_final_key){1, 1u << 10, 100 * MB, 90 * MB, 320 * MB};
    CHECK(policy_final_batch(&k) == 8);
    k = (policy_final_key){1, 1u << 10, 1 * MB, 2 * MB, 0}; /* abc > job: nothing held */
    CHECK(policy_final_batch(&k) == 8);
}

static void test_queue_room(void)
{
    CHECK(policy_queue_room(1, 2, 1));  /* below the depth */
    CHECK(!policy_queue_room(2, 2, 1)); /* at the depth */
    CHECK(policy_queue_room(2, 2, 16)); /* a batching key: up to a batch */
    CHECK(policy_queue_room(15, 2, 16));
    CHECK(!policy_queue_room(16, 2, 16));
    CHECK(!policy_queue_room(4, 4, 2)); /* a batch smaller than the depth */
}

/* queued, synth, synthed, msm, msmed, stopping, waits_memory, final_depth,
 * head_batch, next_batch */
static int final_ready(policy_stages s) { return policy_final_ready(&s); }
static int msm_ready(policy_stages s) { return policy_msm_ready(&s); }

static void test_final_ready(void)
{
    CHECK(!final_ready((policy_stages){0, 0, 0, 0, 0, 0, 0, 2, 8, 0})); /* nothing waits */
    CHECK(!final_ready((policy_stages){0, 0, 0, 1, 3, 0, 0, 2, 0, 0})); /* none found */
    CHECK(final_ready((policy_stages){5, 1, 1, 1, 1, 0, 0, 2, 1, 0}));  /* no batching */
    CHECK(final_ready((policy_stages){5, 1, 0, 1, 8, 0, 0, 2, 8, 0}));  /* a batch waits */
    CHECK(final_ready((policy_stages){5, 1, 1, 1, 9, 0, 0, 2, 8, 8}));
    CHECK(!final_ready((policy_stages){5, 1, 1, 1, 7, 0, 0, 2, 8, 8})); /* more coming: wait */
    CHECK(final_ready((policy_stages){5, 1, 1, 1, 3, 1, 0, 2, 8, 8}));  /* stopping */
    CHECK(final_ready((policy_stages){5, 0, 0, 0, 3, 0, 1, 2, 8, 0}));  /* next waits for memory */
    CHECK(!final_ready((policy_stages){0, 0, 0, 1, 3, 0, 1, 2, 8, 0})); /* ... none is queued */
    CHECK(final_ready((policy_stages){0, 0, 0, 0, 1, 0, 0, 2, 8, 0}));  /* a lone proof */
    CHECK(final_ready((policy_stages){0, 0, 0, 0, 3, 0, 0, 2, 8, 0}));  /* the last ones */
    CHECK(!final_ready((policy_stages){0, 1, 0, 0, 3, 0, 0, 2, 8, 0})); /* one in synthesis */
    CHECK(!final_ready((policy_stages){0, 0, 0, 1, 3, 0, 0, 2, 8, 0})); /* one in MSM */
    /* the next MSM waits for room in the finalize queue: its key does not
     * batch (depth 2 < 3 waiting), so finalize must start (no deadlock) */
    CHECK(final_ready((policy_stages){0, 0, 1, 0, 3, 0, 0, 2, 8, 1}));
    CHECK(!final_ready((policy_stages){0, 0, 1, 0, 3, 0, 0, 4, 8, 1})); /* depth 4: room */
    CHECK(!final_ready((policy_stages){0, 0, 1, 0, 3, 0, 0, 2, 8, 8})); /* it batches: room */
}

static void test_msm_ready(void)
{
    CHECK(!msm_ready((policy_stages){0, 0, 0, 0, 0, 0, 0, 2, 0, 0})); /* nothing synthesized */
    CHECK(msm_ready((policy_stages){0, 0, 1, 0, 1, 0, 0, 2, 0, 0}));  /* room for any key */
    CHECK(!msm_ready((policy_stages){0, 0, 1, 0, 2, 0, 0, 2, 0, 1})); /* finalize queue full */
    CHECK(msm_ready((policy_stages){0, 0, 1, 0, 2, 0, 0, 2, 0, 8}));  /* ... but a batch fits */
    CHECK(!msm_ready((policy_stages){0, 0, 1, 0, 8, 0, 0, 2, 0, 8})); /* a batch waits already */
    CHECK(!msm_ready((policy_stages){0, 0, 1, 0, 2, 0, 0, 2, 0, 0})); /* no head found */
}

/* A lone partition runs as one whole-proof call; anything else queued or
 * in any stage (finalize included), or a stopping daemon, keeps the
 * staged pipeline. */
static void test_whole_proof(void)
{
    policy_stages s = {.queued = 1, .final_depth = 2};
    CHECK(policy_whole_proof(&s, 0));  /* alone: one call */
    CHECK(!policy_whole_proof(&s, 1)); /* another is finalizing: pipeline */
    s.queued = 2;
    CHECK(!policy_whole_proof(&s, 0)); /* another waits for synthesis */
    s.queued = 0;
    CHECK(!policy_whole_proof(&s, 0)); /* (no partition about to start at all) */
    int *busy[] = {&s.synth, &s.synthed, &s.msm, &s.msmed};
    for (int i = 0; i < 4; i++) {
        s = (policy_stages){.queued = 1, .final_depth = 2};
        *busy[i] = 1;
        CHECKF(!policy_whole_proof(&s, 0), "stage state %d busy: still a whole-proof call", i);
    }
    s = (policy_stages){.queued = 1, .stopping = 1};
    CHECK(!policy_whole_proof(&s, 0)); /* draining: nothing new as a whole */
    s = (policy_stages){.queued = 1, .waits_memory = 1, .head_batch = 8, .next_batch = 8};
    CHECK(policy_whole_proof(&s, 0)); /* batches and memory waits are no other work */
}

/* policy_evict on keys[0..n) with used bytes held, victims compared with
 * want[0..nwant). */
static void evict(size_t budget, size_t used, const policy_key *keys, int n, size_t need, int rc,
                  const int *want, int nwant)
{
    int victims[16], nv = -1;
    memset(victims, 0xff, sizeof victims);
    CHECK(policy_evict(budget, used, keys, n, need, victims, &nv) == rc);
    CHECKF(nv == nwant, "need %zu: %d victims, want %d", need, nv, nwant);
    for (int i = 0; i < nwant && i < nv; i++) CHECK(victims[i] == want[i]);
}

/* The memory budget: keys and reservations held; a partition's or a key's
 * reservation evicts idle keys least recently used first and no more, or
 * waits, evicting nothing, when even all of them would not make room. */
static void test_evict(void)
{
    /* bytes, busy, last_used: 3 idle keys (1 oldest), 1 busy oldest of all */
    const policy_key keys[] = {
        {100 * MB, 0, 30}, {200 * MB, 0, 10}, {50 * MB, 0, 20}, {300 * MB, 1, 5}};
    /* 650 MB of keys and 200 MB reserved by partitions under 1000 MB */
    const size_t used = 850 * MB;
    evict(1000 * MB, used, keys, 4, 150 * MB, 0, NULL, 0);             /* fits: nothing evicted */
    evict(1000 * MB, used, keys, 4, 151 * MB, 0, (const int[]){1}, 1); /* LRU idle, not busy 3 */
    evict(1000 * MB, used, keys, 4, 351 * MB, 0, (const int[]){1, 2}, 2);
    evict(1000 * MB, used, keys, 4, 500 * MB, 0, (const int[]){1, 2, 0}, 3);
    /* the reservations and the busy key hold 500 MB: a partition of 501
     * waits for the budget (the partitions' memory comes back), and no
     * key is evicted for a wait */
    evict(1000 * MB, used, keys, 4, 501 * MB, -1, NULL, 0);
    evict(1000 * MB, used, keys, 4, SIZE_MAX - 10, -1, NULL, 0); /* no wrap-around */
    /* the key the room is for (busy) is never its own victim */
    const policy_key self[] = {{100 * MB, 1, 1}, {100 * MB, 0, 9}};
    evict(250 * MB, 200 * MB, self, 2, 100 * MB, 0, (const int[]){1}, 1);
    evict(250 * MB, 200 * MB, self, 2, 151 * MB, -1, NULL, 0);
    /* already over the budget (a larger copy than planned), nothing idle */
    const policy_key over[] = {{1200 * MB, 1, 1}};
    evict(1000 * MB, 1200 * MB, over, 1, 0, -1, NULL, 0);
    /* a tie in last use: the first listed goes first */
    const policy_key tie[] = {{10 * MB, 0, 7}, {10 * MB, 0, 7}};
    evict(25 * MB, 20 * MB, tie, 2, 10 * MB, 0, (const int[]){0}, 1);
    evict(1000 * MB, 0, NULL, 0, 1000 * MB, 0, NULL, 0); /* no keys, exact fit */
    evict(1000 * MB, 0, NULL, 0, 1000 * MB + 1, -1, NULL, 0);
}

static void test_part_fits(void)
{
    CHECK(policy_part_fits(1000, 400, 600));  /* exactly beside the key */
    CHECK(!policy_part_fits(1000, 400, 601)); /* would wait forever: refused */
    CHECK(!policy_part_fits(1000, 1200, 1));  /* the key alone is larger */
    CHECK(policy_part_fits(1000, 1000, 0));
}

static void test_key_fits(void)
{
    CHECK(policy_key_fits(1000, 1000, 0));   /* the key exactly fills it */
    CHECK(!policy_key_fits(1000, 1001, 0));  /* the key alone is larger */
    CHECK(policy_key_fits(1000, 600, 400));  /* its load beside it, exactly */
    CHECK(!policy_key_fits(1000, 600, 401)); /* the load's transient does not fit */
    CHECK(!policy_key_fits(1000, 1200, 0));  /* no wrap-around below zero */
    CHECK(!policy_key_fits(0, 1, 0));
}

static void test_trim_mark(void)
{
    CHECK(policy_trim_mark(400 * (size_t)MB, 0) == 0);               /* idle: keep nothing */
    CHECK(policy_trim_mark(100 * (size_t)MB, 1) == 25 * (size_t)MB); /* a quarter */
    CHECK(policy_trim_mark(8 * (size_t)MB, 3) == POLICY_TRIM_MIN);   /* at least */
    CHECK(policy_trim_mark(0, 3) == POLICY_TRIM_MIN);
    CHECK(policy_trim_mark(1024 * (size_t)MB, 3) == POLICY_TRIM_MAX); /* at most */
}

int main(void)
{
    test_order();
    test_key_threads();
    test_part_threads();
    test_call_threads();
    test_gpu_batch();
    test_final_batch();
    test_queue_room();
    test_final_ready();
    test_msm_ready();
    test_whole_proof();
    test_evict();
    test_part_fits();
    test_key_fits();
    test_trim_mark();
    return test_finish("daemon.policy");
}
