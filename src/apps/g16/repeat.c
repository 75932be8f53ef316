/* `g16 prove --repeat N [--jobs J]`: N proofs of one witness with the key
 * opened once, J of them in flight at a time.  With J > 1 the CPU threads
 * are shared out (each proof gets threads / J), so the rate printed is the
 * machine's capacity for this key: the number an operator compares with
 * g16d's rate for the same key. */
#include "prove.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

typedef struct {
    const g16_key *key;
    const uint8_t *wtns;
    size_t wtns_len;
    const char *name;
    g16_options opt; /* threads already divided between the jobs */
    int repeat;
    const char *vk_json;  /* each proof checked against it; NULL: not checked */
    const char *key_path; /* whose verification key vk_json is */
    atomic_int next;      /* the next proof to start */
    atomic_int failed;    /* set by the first failure: the others stop */
    double *total;        /* each proof's own time, in start order */
    pthread_mutex_t lock; /* guards err and the kept texts */
    char err[512];
    char *proof, *pub; /* the proof that finished last */
} repeat_run;

static void keep_last(repeat_run *r, char *proof, char *pub)
{
    pthread_mutex_lock(&r->lock);
    free(r->proof);
    free(r->pub);
    r->proof = proof;
    r->pub = pub;
    pthread_mutex_unlock(&r->lock);
}

static void fail_first(repeat_run *r, const char *err)
{
    pthread_mutex_lock(&r->lock);
    if (!atomic_exchange(&r->failed, 1)) snprintf(r->err, sizeof r->err, "%s", err);
    pthread_mutex_unlock(&r->lock);
}

/* A proof checked against the run's verification key, as g16d checks
 * its own; 0, or -1 with the reason in err. */
static int check_proof(const repeat_run *r, const char *proof, const char *pub, char *err,
                       size_t errlen)
{
    char verr[400];
    bool valid = false;
    if (!r->vk_json ||
        (g16_verify_json(r->vk_json, pub, proof, &valid, verr, sizeof verr) == G16_OK && valid))
        return 0;
    snprintf(err, errlen,
             "%s: the proof of %s does not verify with this key's own verification key (%s)",
             r->key_path, r->name, verr);
    return -1;
}

static void *repeat_worker(void *arg)
{
    repeat_run *r = arg;
    for (;;) {
        int i = atomic_fetch_add(&r->next, 1);
        if (i >= r->repeat || atomic_load(&r->failed)) return NULL;
        char *proof = NULL, *pub = NULL, err[512];
        g16_timings t;
        double t0 = cli_seconds();
        if (g16_prove(r->key, r->wtns, r->wtns_len, r->name, &r->opt, &proof, &pub, &t, err,
                      sizeof err) ||
            check_proof(r, proof, pub, err, sizeof err)) {
            free(proof);
            free(pub);
            fail_first(r, err);
            return NULL;
        }
        r->total[i] = r->vk_json ? cli_seconds() - t0 : t.total;
        keep_last(r, proof, pub);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const repeat_run *r, int jobs, double wall)
{
    double first = r->total[0];
    qsort(r->total, (size_t)r->repeat, sizeof *r->total, cmp_double);
    fprintf(stderr, "g16 prove: %d proofs: first %.4f s, median %.4f s, best %.4f s\n", r->repeat,
            first, r->total[r->repeat / 2], r->total[0]);
    fprintf(stderr, "g16 prove: %d in flight, %d threads each: %.3f s wall, %.2f proofs/s%s\n",
            jobs, r->opt.threads, wall, r->repeat / wall, r->vk_json ? ", each verified" : "");
}

/* Each job's share of the CPU threads (at least one). */
static int threads_per_job(int threads, int jobs)
{
    long cpus = threads > 0 ? threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1) cpus = 1;
    return cpus / jobs > 0 ? (int)(cpus / jobs) : 1;
}

int cli_prove_repeated(const g16_key *key, const uint8_t *wtns, size_t wtns_len, const char *name,
                       const g16_options *opt, const cli_repeat_plan *plan, char **proof,
                       char **pub, char *err, size_t errlen)
{
    int repeat = plan->repeat, jobs = plan->jobs < repeat ? plan->jobs : repeat;
    repeat_run r = {.key = key,
                    .wtns = wtns,
                    .wtns_len = wtns_len,
                    .name = name,
                    .opt = *opt,
                    .repeat = repeat,
                    .vk_json = plan->vk_json,
                    .key_path = plan->key_path};
    r.opt.threads = threads_per_job(opt->threads, jobs);
    pthread_t *tid = calloc((size_t)jobs, sizeof *tid);
    r.total = calloc((size_t)repeat, sizeof *r.total);
    if (!tid || !r.total) {
        snprintf(err, errlen, "%s: out of memory", name);
        free(tid);
        free(r.total);
        return -1;
    }
    pthread_mutex_init(&r.lock, NULL);
    double t0 = cli_seconds();
    int started = 0;
    while (started < jobs && !pthread_create(&tid[started], NULL, repeat_worker, &r)) started++;
    if (started == 0) repeat_worker(&r); /* no thread could start: prove here */
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    double wall = cli_seconds() - t0;
    int failed = atomic_load(&r.failed);
    if (failed) snprintf(err, errlen, "%s", r.err);
    if (!failed && repeat > 1) report(&r, started ? started : 1, wall);
    *proof = r.proof;
    *pub = r.pub;
    if (failed) {
        free(*proof);
        free(*pub);
        *proof = *pub = NULL;
    }
    pthread_mutex_destroy(&r.lock);
    free(tid);
    free(r.total);
    return failed ? -1 : 0;
}
