/* The chunked and streamed MSM schedule (gpu/msm_stream.h) under the
 * stream-and-event model of gpu_stream_emu.h, with tokens for data: each
 * chunk buffer holds the round whose copy last filled it, and every chunk
 * must find its own round there, every MSM its rounds in order, FINISH
 * after its last one and nothing after it.  Over round counts that differ
 * between the MSMs, last chunks short and full, B2 skipped, MSMs of no
 * points, resident chunks (no copies), and the device's choices of order
 * (copies first, kernels first, random).  Then the same schedule without
 * its waits on done must be caught.  Plain C: runs on machines without a
 * GPU (the MSM arithmetic of the same schedule: test_gpu_emulate). */
#include <string.h>

#include "../common/test.h"
#include "gpu/msm_plan.h"
#include "gpu/msm_stream.h"
#include "gpu_stream_emu.h"

typedef struct {
    const size_t *count;
    const int *want;
    size_t chunk;
    int streamed;
    long buf[GPU_PLAN_MSMS][2]; /* the round each chunk buffer holds, -1: none */
    size_t next[GPU_PLAN_MSMS]; /* each MSM's next round */
    int finished[GPU_PLAN_MSMS];
    char what[160];
} tok_run;

static int tok_fail(tok_run *r, const char *why, int msm, size_t round)
{
    snprintf(r->what, sizeof r->what, "%s: msm %d round %zu", why, msm, round);
    return -1;
}

static int tok_copy(void *ctx, int msm, int buf, size_t round)
{
    tok_run *r = ctx;
    if (!r->streamed) return tok_fail(r, "a copy for resident points", msm, round);
    if (r->finished[msm] || round >= gpu_plan_rounds(r->count[msm], r->chunk))
        return tok_fail(r, "a copy of no round", msm, round);
    r->buf[msm][buf] = (long)round;
    return 0;
}

static int tok_chunk(void *ctx, int msm, int buf, size_t round)
{
    tok_run *r = ctx;
    if (!r->want[msm] || r->finished[msm]) return tok_fail(r, "a chunk of no MSM", msm, round);
    if (round != r->next[msm]) return tok_fail(r, "a chunk out of order", msm, round);
    if (r->streamed && r->buf[msm][buf] != (long)round)
        return tok_fail(r, "a chunk read another round's points", msm, round);
    if (buf != (int)(round & 1)) return tok_fail(r, "a chunk in the wrong buffer", msm, round);
    r->next[msm]++;
    return 0;
}

static int tok_finish(void *ctx, int msm)
{
    tok_run *r = ctx;
    if (!r->want[msm] || r->finished[msm]) return tok_fail(r, "a second FINISH", msm, 0);
    if (r->next[msm] != gpu_plan_rounds(r->count[msm], r->chunk))
        return tok_fail(r, "FINISH before the last chunk", msm, r->next[msm]);
    r->finished[msm] = 1;
    return 0;
}

/* Builds the schedule, drops its WAIT_DONE operations when asked, runs it
 * under policy: 0 when every check held, else -1 (r->what says why). */
static int tok_schedule(tok_run *r, int policy, unsigned seed, int drop_waits)
{
    size_t n = gpu_sq_build(r->count, r->want, r->chunk, r->streamed, NULL, 0), kept = 0;
    gpu_sq_op *ops = malloc((n ? n : 1) * sizeof *ops);
    CHECK(gpu_sq_build(r->count, r->want, r->chunk, r->streamed, ops, n) == n);
    for (size_t o = 0; o < n; o++)
        if (!drop_waits || ops[o].kind != GPU_SQ_WAIT_DONE) ops[kept++] = ops[o];
    memset(r->buf, 0xff, sizeof r->buf);
    memset(r->next, 0, sizeof r->next);
    memset(r->finished, 0, sizeof r->finished);
    r->what[0] = 0;
    se_hooks h = {tok_copy, tok_chunk, tok_finish, r};
    int deadlock = 0, rc = se_run(ops, kept, policy, seed, &h, &deadlock);
    if (deadlock) snprintf(r->what, sizeof r->what, "the queues deadlocked");
    for (int i = 0; i < GPU_PLAN_MSMS && !rc; i++)
        if (r->want[i] && !r->finished[i]) rc = tok_fail(r, "no FINISH", i, r->next[i]);
    free(ops);
    return rc;
}

/* Every policy (random ones under several seeds) on one shape. */
static void tok_check(const size_t *count, const int *want, size_t chunk, int streamed)
{
    tok_run r = {count, want, chunk, streamed, {{0}}, {0}, {0}, ""};
    for (int policy = 0; policy <= SE_RANDOM; policy++)
        for (unsigned seed = 1; seed <= (policy == SE_RANDOM ? 20u : 1u); seed++)
            if (tok_schedule(&r, policy, seed, 0)) {
                fprintf(stderr,
                        "schedule failed (%s): chunk %zu streamed %d policy %d seed %u, counts "
                        "%zu %zu %zu %zu %zu, B2 %s\n",
                        r.what, chunk, streamed, policy, seed, count[0], count[1], count[2],
                        count[3], count[4], want[2] ? "on" : "skipped");
                CHECK(0);
                return;
            }
}

/* A proof's shapes: A, B1, B2 of n_vars points, C of fewer, H of the
 * domain; chunks that divide, that leave a short last chunk, of one
 * point, and as large as every MSM (one round each). */
static void schedules(void)
{
    static const size_t shapes[][GPU_PLAN_MSMS] = {{150, 150, 150, 131, 256}, {7, 7, 7, 0, 8},
                                                   {1, 1, 1, 0, 2},           {64, 64, 64, 60, 64},
                                                   {5, 5, 5, 3, 200},         {0, 0, 0, 0, 0}};
    static const size_t chunks[] = {1, 2, 3, 7, 25, 64, 1000};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
            for (int b2 = 0; b2 < 2; b2++)
                for (int streamed = 0; streamed < 2; streamed++) {
                    int want[GPU_PLAN_MSMS] = {1, 1, b2, 1, 1};
                    tok_check(shapes[s], want, chunks[c], streamed);
                }
}

/* The counts the schedule makes: each MSM's rounds once, two copies
 * ahead at most, one FINISH each, nothing for a skipped MSM. */
static void schedule_counts(void)
{
    const size_t count[GPU_PLAN_MSMS] = {150, 150, 150, 131, 256};
    const int want[GPU_PLAN_MSMS] = {1, 1, 0, 1, 1};
    size_t n = gpu_sq_build(count, want, 25, 1, NULL, 0);
    gpu_sq_op *ops = malloc(n * sizeof *ops);
    size_t chunks[GPU_PLAN_MSMS] = {0}, copies[GPU_PLAN_MSMS] = {0}, fin[GPU_PLAN_MSMS] = {0};
    gpu_sq_build(count, want, 25, 1, ops, n);
    for (size_t o = 0; o < n; o++) {
        int i = ops[o].msm;
        chunks[i] += ops[o].kind == GPU_SQ_CHUNK;
        fin[i] += ops[o].kind == GPU_SQ_FINISH;
        if (ops[o].kind != GPU_SQ_COPY) continue;
        copies[i]++;
        CHECK(ops[o].round < chunks[i] + 2); /* never more than two rounds ahead */
    }
    for (int i = 0; i < GPU_PLAN_MSMS; i++) {
        size_t r = want[i] ? gpu_plan_rounds(count[i], 25) : 0;
        CHECK(chunks[i] == r && copies[i] == r && fin[i] == (size_t)want[i]);
    }
    free(ops);
}

/* Without the copy streams' waits for the chunks that last read their
 * buffers, copies run ahead and overwrite points not yet read: the model
 * must catch that (else the checks above prove nothing about the waits). */
static void missing_waits_caught(void)
{
    const size_t count[GPU_PLAN_MSMS] = {150, 150, 150, 131, 256};
    const int want[GPU_PLAN_MSMS] = {1, 1, 1, 1, 1};
    tok_run r = {count, want, 25, 1, {{0}}, {0}, {0}, ""};
    CHECK(tok_schedule(&r, SE_COPIES_FIRST, 1, 1) != 0);
    CHECK(strstr(r.what, "another round's points") != NULL);
    CHECK(tok_schedule(&r, SE_COPIES_FIRST, 1, 0) == 0);
}

int main(void)
{
    schedules();
    schedule_counts();
    missing_waits_caught();
    return test_finish("test_gpu_stream");
}
