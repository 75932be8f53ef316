/* Every periodic task of g16d, run from one loop on one thread, each at
 * its period (a task runs when due; a late one is not run twice to catch
 * up).  What waits for an event (a worker for work, the reaper for
 * finished partitions, a parked long-poll for its job, the claimer for a
 * submission's notice) waits on its own; what happens every so often is
 * here, and only here:
 *
 *   task         period               does
 *   purge        PURGE_S (1 s)        finished jobs past --result-ttl (or --fetched-ttl once
 *                                     fetched) leave the job table, SQLite and the state
 *                                     directory (jobtab_purge); a fleet's local copies too
 *   sample       --sample-interval    a memory sample into the ring and memory.csv
 *                                     (d_telemetry_sample)
 *   heartbeat    --lease / 3          a fleet host's row and the leases it holds renewed
 *                                     (backend's heartbeat)
 *   queue purge  QUEUE_PURGE_S (60 s) a fleet's finished jobs past --result-ttl leave the
 *                                     database (backend's purge; each host, harmless twice)
 *   claim poll   CLAIM_POLL_S (0.1 s) a fleet's claimer looks at the queue, when no
 *                                     LISTEN/NOTIFY woke it sooner (backend's poll)
 *   job poll     JOB_POLL_S (0.2 s)   a fleet's long-polls read their job again (backend's
 *                                     tick)
 *
 * A task the backend lacks (NULL) is not run.  The tasks that call the
 * database use connections of their own (not the claimer's), so a slow
 * claim holds none of them up; a slow database call delays the tasks
 * after it by as much. */
#define _GNU_SOURCE
#include <stdio.h>

#include "d.h"
#include "jobtab.h"

#define PURGE_S       1.0
#define QUEUE_PURGE_S 60.0
#define CLAIM_POLL_S  0.1
#define JOB_POLL_S    0.2

static void purge(g16d *d)
{
    pthread_mutex_lock(&d->mu);
    jobtab_purge(d, d_now());
    pthread_mutex_unlock(&d->mu);
}

static void heartbeat(g16d *d) { d->be->heartbeat(d); }
static void queue_purge(g16d *d) { d->be->purge(d); }
static void claim_poll(g16d *d) { d->be->poll(d); }
static void job_poll(g16d *d) { d->be->tick(d); }

static double every_purge(const g16d *d) { return (void)d, PURGE_S; }
static double every_sample(const g16d *d) { return d->cfg.sample_ms / 1e3; }
static double every_heartbeat(const g16d *d) { return d->be->heartbeat ? d->cfg.lease_s / 3 : 0; }
static double every_queue_purge(const g16d *d) { return d->be->purge ? QUEUE_PURGE_S : 0; }
static double every_claim_poll(const g16d *d) { return d->be->poll ? CLAIM_POLL_S : 0; }
static double every_job_poll(const g16d *d) { return d->be->tick ? JOB_POLL_S : 0; }

typedef struct {
    const char *name;
    double (*period)(const g16d *d); /* seconds; 0: not in this daemon */
    void (*run)(g16d *d);
} cron_task;

static const cron_task k_tasks[] = {
    {"purge", every_purge, purge},
    {"sample", every_sample, d_telemetry_sample},
    {"heartbeat", every_heartbeat, heartbeat},
    {"queue purge", every_queue_purge, queue_purge},
    {"claim poll", every_claim_poll, claim_poll},
    {"job poll", every_job_poll, job_poll},
};
#define NTASKS ((int)(sizeof k_tasks / sizeof k_tasks[0]))

/* Until the earliest task is due or the loop is told to stop: 1 when it
 * is to stop. */
static int wait_due(g16d *d, const double *next)
{
    double t = 0;
    for (int i = 0; i < NTASKS; i++)
        if (next[i] > 0 && (t == 0 || next[i] < t)) t = next[i];
    struct timespec ts;
    d_abs_time(&ts, t);
    pthread_mutex_lock(&d->cron_mu);
    while (!d->cron_stop && d_now() < t)
        if (pthread_cond_timedwait(&d->cron_cv, &d->cron_mu, &ts)) break;
    int stop = d->cron_stop;
    pthread_mutex_unlock(&d->cron_mu);
    return stop;
}

static void *loop(void *arg)
{
    g16d *d = arg;
    double next[NTASKS], now = d_now();
    for (int i = 0; i < NTASKS; i++) next[i] = k_tasks[i].period(d) > 0 ? now : 0;
    while (!wait_due(d, next))
        for (int i = 0; i < NTASKS; i++) {
            if (next[i] == 0 || d_now() < next[i]) continue;
            k_tasks[i].run(d);
            double period = k_tasks[i].period(d);
            next[i] += period;
            if (next[i] <= d_now()) next[i] = d_now() + period; /* late: no catching up */
        }
    return NULL;
}

int d_cron_start(g16d *d)
{
    if (pthread_create(&d->cron, NULL, loop, d)) return -1;
    d->cron_started = 1;
    return 0;
}

void d_cron_stop(g16d *d)
{
    if (!d->cron_started) return;
    pthread_mutex_lock(&d->cron_mu);
    d->cron_stop = 1;
    pthread_cond_broadcast(&d->cron_cv);
    pthread_mutex_unlock(&d->cron_mu);
    pthread_join(d->cron, NULL);
    d->cron_started = 0;
}
