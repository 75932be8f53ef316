/* The fleet's queue alone (src/apps/g16d/pgqueue.c) against one
 * PostgreSQL: claims per second with H hosts claiming empty work items
 * (each claim followed by its result, as a host does), and the time from
 * a submission to its claim with hosts idle as g16d's claimer is: polling,
 * and with LISTEN, woken by the submission's notice (polling as well).
 *   claims URL HOSTS ITEMS BATCH poll|listen
 * bench/fleet/run.sh starts a throwaway server and runs the table. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "g16.h"
#include "pgqueue.h"

#define POLL_S 0.1 /* as fleet.c's claimer */

static const char *url;
static int batch, listening;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static d_pgq *host(int i)
{
    char name[32], err[512];
    snprintf(name, sizeof name, "bench-%d", i);
    d_pgq *q = d_pgq_open(url, name, err, sizeof err);
    if (!q) {
        fprintf(stderr, "claims: %s\n", err);
        exit(1);
    }
    return q;
}

typedef struct {
    d_pgq *q;
    int claimed;
    double claim_s; /* time inside d_pgq_claim */
} drainer;

/* Claims and answers until the queue is empty. */
static void *drain(void *arg)
{
    drainer *w = arg;
    d_pgq_lease *ls = calloc((size_t)batch, sizeof *ls);
    char err[512];
    for (;;) {
        int n = 0, accepted;
        double t0 = now();
        if (d_pgq_claim(w->q, NULL, 0, batch, 30, ls, &n, err, sizeof err)) {
            fprintf(stderr, "claims: %s\n", err);
            exit(1);
        }
        w->claim_s += now() - t0;
        if (!n) break;
        for (int i = 0; i < n; i++) {
            d_pgq_result(w->q, &ls[i], 1, "{}", "[]", NULL, NULL, &accepted, err, sizeof err);
            d_pgq_lease_free(&ls[i]);
        }
        w->claimed += n;
    }
    free(ls);
    return NULL;
}

static void submit_items(d_pgq *q, int items)
{
    char id[40], err[512];
    d_pgq_payload *p = calloc((size_t)items, sizeof *p);
    static const uint8_t none[1];
    for (int i = 0; i < items; i++) p[i].data = none; /* an empty witness */
    snprintf(id, sizeof id, "bench-%.0f", now() * 1e6);
    if (d_pgq_submit(q, id, "k", 0, p, items, err, sizeof err)) {
        fprintf(stderr, "claims: %s\n", err);
        exit(1);
    }
    free(p);
}

static void throughput(d_pgq **qs, int hosts, int items)
{
    drainer w[64];
    pthread_t t[64];
    submit_items(qs[0], items);
    double t0 = now();
    for (int i = 0; i < hosts; i++) {
        w[i] = (drainer){qs[i], 0, 0};
        pthread_create(&t[i], NULL, drain, &w[i]);
    }
    int total = 0, calls = 0;
    double in_claim = 0;
    for (int i = 0; i < hosts; i++) {
        pthread_join(t[i], NULL);
        total += w[i].claimed;
        in_claim += w[i].claim_s;
        calls += w[i].claimed / batch + 1;
    }
    double s = now() - t0;
    printf("| %d | %s | %d | %d | %.0f | %.2f |", hosts, listening ? "LISTEN" : "poll", batch,
           total, total / s, 1e3 * in_claim / calls);
}

typedef struct {
    d_pgq *q;
    int stop, got;
    double claimed_at;
} poller;

/* Claims one at a time every POLL_S, or sooner on a notice when
 * listening, as an idle g16d does. */
static void *poll_queue(void *arg)
{
    poller *p = arg;
    d_pgq_lease l;
    char err[512];
    while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
        int n = 0, accepted;
        if (!d_pgq_claim(p->q, NULL, 0, 1, 30, &l, &n, err, sizeof err) && n == 1) {
            p->claimed_at = now();
            __atomic_store_n(&p->got, 1, __ATOMIC_RELEASE);
            d_pgq_result(p->q, &l, 1, "{}", "[]", NULL, NULL, &accepted, err, sizeof err);
            d_pgq_lease_free(&l);
            continue;
        }
        struct timespec ts = {0, (long)(POLL_S * 1e9)};
        if (listening)
            d_pgq_wait(p->q, POLL_S, -1);
        else
            nanosleep(&ts, NULL);
    }
    return NULL;
}

/* Submission to claim, 20 times, with hosts polling. */
static void latency(d_pgq **qs, int hosts, d_pgq *submitter)
{
    poller p[64];
    pthread_t t[64];
    double sum = 0, worst = 0;
    const int rounds = 20;
    for (int i = 0; i < hosts; i++) {
        p[i] = (poller){qs[i], 0, 0, 0};
        pthread_create(&t[i], NULL, poll_queue, &p[i]);
    }
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < hosts; i++) __atomic_store_n(&p[i].got, 0, __ATOMIC_RELEASE);
        double t0 = now(), got = 0;
        submit_items(submitter, 1);
        while (!got)
            for (int i = 0; i < hosts; i++)
                if (__atomic_load_n(&p[i].got, __ATOMIC_ACQUIRE)) got = p[i].claimed_at;
        sum += got - t0;
        if (got - t0 > worst) worst = got - t0;
    }
    for (int i = 0; i < hosts; i++) {
        __atomic_store_n(&p[i].stop, 1, __ATOMIC_RELEASE);
        pthread_join(t[i], NULL);
    }
    printf(" %.1f | %.1f |\n", 1e3 * sum / rounds, 1e3 * worst);
}

int main(int argc, char **argv)
{
    if (argc != 6 || (strcmp(argv[5], "poll") && strcmp(argv[5], "listen"))) {
        fprintf(stderr, "usage: claims URL HOSTS ITEMS BATCH poll|listen\n");
        return 2;
    }
    listening = !strcmp(argv[5], "listen");
    url = argv[1];
    int hosts = atoi(argv[2]), items = atoi(argv[3]);
    batch = atoi(argv[4]);
    if (hosts < 1 || hosts > 64 || items < 1 || batch < 1) return 2;
    d_pgq *qs[64];
    char err[512];
    for (int i = 0; i < hosts; i++) {
        qs[i] = host(i);
        if (listening && d_pgq_listen(qs[i], err, sizeof err)) {
            fprintf(stderr, "claims: %s\n", err);
            return 1;
        }
    }
    d_pgq *submitter = host(99);
    throughput(qs, hosts, items);
    latency(qs, hosts, submitter);
    for (int i = 0; i < hosts; i++) d_pgq_close(qs[i]);
    d_pgq_close(submitter);
    return 0;
}
