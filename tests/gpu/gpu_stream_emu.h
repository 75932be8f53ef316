/* A model of CUDA streams and events that runs a chunked MSM schedule
 * (gpu/msm_stream.h) on the host, in any order the device could choose:
 * every MSM's copy stream and compute stream are in-order queues, filled
 * in the list's (the host's) order; a record bumps its event's count when
 * it runs; a wait holds its queue until the event has run as many records
 * as had been enqueued when the wait was (cudaStreamWaitEvent waits for
 * the latest record before it, and for nothing when there is none).
 * Which runnable queue goes next is the policy's choice, so a missing or
 * misplaced dependency shows as a chunk reading the wrong data. */
#ifndef G16_TESTS_GPU_STREAM_EMU_H
#define G16_TESTS_GPU_STREAM_EMU_H

#include <stdlib.h>

#include "gpu/msm_stream.h"

enum {
    SE_COPIES_FIRST,  /* a runnable copy stream before any compute stream */
    SE_COMPUTE_FIRST, /* the reverse: copies as late as they can be */
    SE_RANDOM         /* any runnable queue, at random (seeded) */
};

typedef struct {
    /* what the operations do; each returns 0, or -1 to stop the run */
    int (*copy)(void *ctx, int msm, int buf, size_t round);
    int (*chunk)(void *ctx, int msm, int buf, size_t round);
    int (*finish)(void *ctx, int msm);
    void *ctx;
} se_hooks;

#define SE_QUEUES (2 * GPU_PLAN_MSMS)
#define SE_EVENTS (4 * GPU_PLAN_MSMS) /* copied[i][b], then done[i][b] */

static int se_queue(const gpu_sq_op *op) { return 2 * op->msm + gpu_sq_on_copy(op); }

static int se_event(const gpu_sq_op *op)
{
    int copied = op->kind == GPU_SQ_REC_COPIED || op->kind == GPU_SQ_WAIT_COPIED;
    return (copied ? 0 : 2 * GPU_PLAN_MSMS) + 2 * op->msm + op->buf;
}

static int se_is_wait(const gpu_sq_op *op)
{
    return op->kind == GPU_SQ_WAIT_DONE || op->kind == GPU_SQ_WAIT_COPIED;
}

static int se_is_record(const gpu_sq_op *op)
{
    return op->kind == GPU_SQ_REC_DONE || op->kind == GPU_SQ_REC_COPIED;
}

static int se_exec(const gpu_sq_op *op, const se_hooks *h, size_t *ran)
{
    if (se_is_record(op)) ran[se_event(op)]++;
    if (op->kind == GPU_SQ_COPY) return h->copy(h->ctx, op->msm, op->buf, op->round);
    if (op->kind == GPU_SQ_CHUNK) return h->chunk(h->ctx, op->msm, op->buf, op->round);
    if (op->kind == GPU_SQ_FINISH) return h->finish(h->ctx, op->msm);
    return 0;
}

/* The queue policy picks among the runnable heads; -1 when none is. */
static int se_pick(const int *runnable, int policy, unsigned *seed)
{
    int cand[SE_QUEUES], n = 0;
    for (int q = 0; q < SE_QUEUES; q++)
        if (runnable[q]) cand[n++] = q;
    if (n == 0) return -1;
    if (policy == SE_RANDOM) {
        *seed = *seed * 1103515245u + 12345u;
        return cand[(*seed >> 16) % (unsigned)n];
    }
    for (int k = 0; k < n; k++)
        if ((cand[k] & 1) == (policy == SE_COPIES_FIRST)) return cand[k];
    return cand[0];
}

/* Runs the n operations; 0, or -1 when a hook fails or the queues
 * deadlock (a wait no record will ever satisfy: *deadlock set). */
static int se_run(const gpu_sq_op *ops, size_t n, int policy, unsigned seed, const se_hooks *h,
                  int *deadlock)
{
    size_t *want = calloc(n ? n : 1, sizeof *want), enq[SE_EVENTS] = {0}, ran[SE_EVENTS] = {0};
    size_t *queue[SE_QUEUES], len[SE_QUEUES] = {0}, head[SE_QUEUES] = {0};
    int rc = 0;
    *deadlock = 0;
    for (int q = 0; q < SE_QUEUES; q++) queue[q] = malloc((n ? n : 1) * sizeof(size_t));
    for (size_t o = 0; o < n; o++) { /* the host's enqueue, in list order */
        if (se_is_wait(&ops[o])) want[o] = enq[se_event(&ops[o])];
        if (se_is_record(&ops[o])) enq[se_event(&ops[o])]++;
        int q = se_queue(&ops[o]);
        queue[q][len[q]++] = o;
    }
    for (;;) {
        int runnable[SE_QUEUES], any = 0;
        for (int q = 0; q < SE_QUEUES; q++) {
            runnable[q] = 0;
            if (head[q] == len[q]) continue;
            size_t o = queue[q][head[q]];
            runnable[q] = !se_is_wait(&ops[o]) || ran[se_event(&ops[o])] >= want[o];
            any = 1;
        }
        if (!any) break;
        int q = se_pick(runnable, policy, &seed);
        if (q < 0) {
            *deadlock = 1;
            rc = -1;
            break;
        }
        if (se_exec(&ops[queue[q][head[q]++]], h, ran)) {
            rc = -1;
            break;
        }
    }
    for (int q = 0; q < SE_QUEUES; q++) free(queue[q]);
    free(want);
    return rc;
}

#endif
