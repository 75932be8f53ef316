#include "util/parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

int parallel_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int parallel_threads_for(int requested, size_t count)
{
    int t = requested > 0 ? requested : parallel_default_threads();
    if (count < (size_t)t) t = count ? (int)count : 1;
    return t;
}

struct parallel_job {
    parallel_fn fn;
    void *ctx;
    size_t begin, end;
    int worker;
};

static void *parallel_trampoline(void *arg)
{
    struct parallel_job *job = arg;
    job->fn(job->ctx, job->begin, job->end, job->worker);
    return NULL;
}

void parallel_for(size_t count, int threads, parallel_fn fn, void *ctx)
{
    int t = parallel_threads_for(threads, count);
    if (t <= 1) {
        fn(ctx, 0, count, 0);
        return;
    }
    struct parallel_job *jobs = calloc((size_t)t, sizeof *jobs);
    pthread_t *ids = calloc((size_t)t, sizeof *ids);
    int *started = calloc((size_t)t, sizeof *started);
    if (!jobs || !ids || !started) { /* no memory for threads: do it inline */
        free(jobs);
        free(ids);
        free(started);
        fn(ctx, 0, count, 0);
        return;
    }
    for (int w = 0; w < t; w++) {
        jobs[w] = (struct parallel_job){fn, ctx, count * (size_t)w / (size_t)t,
                                        count * (size_t)(w + 1) / (size_t)t, w};
    }
    for (int w = 1; w < t; w++)
        started[w] = pthread_create(&ids[w], NULL, parallel_trampoline, &jobs[w]) == 0;
    parallel_trampoline(&jobs[0]);
    for (int w = 1; w < t; w++) {
        if (started[w])
            pthread_join(ids[w], NULL);
        else
            parallel_trampoline(&jobs[w]); /* thread creation failed: run its share here */
    }
    free(jobs);
    free(ids);
    free(started);
}
