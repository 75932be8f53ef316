/* msm_stream: the order in which a chunked or streamed key's MSMs are
 * enqueued (key.cu, prove_chunked), plain C so that the CPU emulation
 * (tests/gpu) runs the very same list of operations under its own model
 * of streams and events.
 *
 * Why a list enqueued at once: the schedule this replaces ended every
 * round of chunks in a host wait for all five MSMs before the next
 * round's copy was even issued, so the copy engine and the kernels took
 * turns, and the slowest MSM of each round held up the others (streamed
 * runs moved 15-45% of the link's measured bandwidth, docs/gpu-notes.md,
 * "streamed MSMs without host waits").  Now the host enqueues every round
 * up front and waits once an MSM, at the end; the device orders the rest.
 *
 * Streams (each MSM i has two): copy stream i (only a streamed key's)
 * fills MSM i's two chunk buffers from pinned host memory; compute stream
 * i runs MSM i's chunks.  Events, two per MSM and buffer b:
 *   copied[i][b]  recorded on copy stream i after a chunk's copy into b;
 *   done[i][b]    recorded on compute stream i after the chunk that read b.
 * The chunk of round j uses buffer j % 2.  Its kernels wait for
 * copied[i][j % 2]; the copy of round j + 2 into the same buffer waits
 * (on the copy stream, not the host) for done[i][j % 2] of round j.
 * A wait takes the event's latest record enqueued before it (CUDA's
 * cudaStreamWaitEvent), which is why the list interleaves as it does:
 * round j's chunk and its done record come before round j + 2's copy and
 * its copied record, and round j's wait on copied comes before that
 * copy re-records it.
 *
 * Each MSM's chunks add into the same buckets (msm_template.cuh,
 * chunk_add); FINISH takes the window sums once, after the MSM's last
 * round (or at once for an MSM of no points: infinity).  MSMs may have
 * different round counts; one not wanted (B2 left to the CPU) has no
 * operations at all. */
#ifndef G16_GPU_MSM_STREAM_H
#define G16_GPU_MSM_STREAM_H

#include <stddef.h>

#include "gpu/msm_plan.h"

enum {
    GPU_SQ_COPY,        /* copy stream: round's points into buffer buf */
    GPU_SQ_REC_COPIED,  /* copy stream: record copied[msm][buf] */
    GPU_SQ_WAIT_DONE,   /* copy stream: wait for done[msm][buf] */
    GPU_SQ_WAIT_COPIED, /* compute stream: wait for copied[msm][buf] */
    GPU_SQ_CHUNK,       /* compute stream: round's chunk into the buckets */
    GPU_SQ_REC_DONE,    /* compute stream: record done[msm][buf] */
    GPU_SQ_FINISH       /* compute stream: window sums, copy back */
};

typedef struct {
    int kind, msm, buf;
    size_t round;
} gpu_sq_op;

/* Whether op runs on MSM op->msm's copy stream (else its compute stream). */
static inline int gpu_sq_on_copy(const gpu_sq_op *op)
{
    return op->kind == GPU_SQ_COPY || op->kind == GPU_SQ_REC_COPIED || op->kind == GPU_SQ_WAIT_DONE;
}

static inline size_t gpu_sq_put(gpu_sq_op *ops, size_t at, size_t cap, int kind, int msm,
                                size_t round)
{
    if (at < cap) {
        ops[at].kind = kind;
        ops[at].msm = msm;
        ops[at].buf = (int)(round & 1);
        ops[at].round = round;
    }
    return at + 1;
}

/* Copy of MSM i's round j, with its record (and, from round 2 on, the
 * wait for the chunk that last read its buffer). */
static inline size_t gpu_sq_copy(gpu_sq_op *ops, size_t at, size_t cap, int i, size_t j)
{
    if (j >= 2) at = gpu_sq_put(ops, at, cap, GPU_SQ_WAIT_DONE, i, j - 2);
    at = gpu_sq_put(ops, at, cap, GPU_SQ_COPY, i, j);
    return gpu_sq_put(ops, at, cap, GPU_SQ_REC_COPIED, i, j);
}

/* The operations in enqueue order, for MSMs of count[i] points in chunks
 * of chunk (want[i] 0: none for MSM i; streamed 0: the points are
 * resident, no copies and no events); writes up to cap of them into ops
 * and returns how many there are (call with cap 0 to size ops). */
static inline size_t gpu_sq_build(const size_t count[GPU_PLAN_MSMS], const int want[GPU_PLAN_MSMS],
                                  size_t chunk, int streamed, gpu_sq_op *ops, size_t cap)
{
    size_t rounds[GPU_PLAN_MSMS], most = 0, at = 0;
    for (int i = 0; i < GPU_PLAN_MSMS; i++) {
        rounds[i] = want[i] ? gpu_plan_rounds(count[i], chunk) : 0;
        most = rounds[i] > most ? rounds[i] : most;
        if (want[i] && rounds[i] == 0) at = gpu_sq_put(ops, at, cap, GPU_SQ_FINISH, i, 0);
    }
    for (int i = 0; i < GPU_PLAN_MSMS && streamed; i++)
        for (size_t j = 0; j < 2 && j < rounds[i]; j++) at = gpu_sq_copy(ops, at, cap, i, j);
    for (size_t j = 0; j < most; j++) {
        for (int i = 0; i < GPU_PLAN_MSMS; i++) {
            if (j >= rounds[i]) continue;
            if (streamed) at = gpu_sq_put(ops, at, cap, GPU_SQ_WAIT_COPIED, i, j);
            at = gpu_sq_put(ops, at, cap, GPU_SQ_CHUNK, i, j);
            if (streamed && j + 2 < rounds[i]) at = gpu_sq_put(ops, at, cap, GPU_SQ_REC_DONE, i, j);
            if (j + 1 == rounds[i]) at = gpu_sq_put(ops, at, cap, GPU_SQ_FINISH, i, j);
        }
        for (int i = 0; i < GPU_PLAN_MSMS && streamed; i++)
            if (j + 2 < rounds[i]) at = gpu_sq_copy(ops, at, cap, i, j + 2);
    }
    return at;
}

#endif
