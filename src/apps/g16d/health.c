/* Whether this host takes work, for load balancers (GET /v1/health),
 * and the drain that takes it out of service without losing work
 * (POST /v1/drain, DELETE /v1/drain to resume, or SIGTERM).
 *
 * A draining daemon refuses submissions (503, D_ERR_DRAINING; jobs.c)
 * and, in a fleet, claims nothing (fleet.c's admissible); what it holds,
 * queued or running, still runs and its results are kept (local) or
 * posted (fleet).  A drain SIGTERM began ends the daemon once nothing
 * is left (d_signal_loop); one the API began lasts until resumed.
 *
 * Degraded: where the jobs live does not answer (the fleet's database:
 * the backend's health, from its last heartbeat) or the GPU failed a
 * stage call (G16_ERR_DEVICE: kept until a restart, since a lost CUDA
 * context does not come back in this process).
 *
 * d_signal_loop is main.c's wait for signals: SIGTERM begins the drain
 * and a look every 0.2 s ends the loop once nothing is left; a second
 * SIGTERM or SIGINT ends it at once; SIGHUP reloads (reload.c); under a
 * systemd watchdog it also pings every half of WatchdogSec (sd.c). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "d.h"

void d_health_of(g16d *d, d_health *h)
{
    h->lost = NULL;
    h->why[0] = 0;
    if (d->draining) {
        h->state = "draining";
        snprintf(h->why, sizeof h->why, "%s: %d partitions left",
                 d->draining == D_DRAIN_SIGNAL ? "SIGTERM: exits once they are done"
                                               : "POST /v1/drain (DELETE /v1/drain resumes)",
                 d_drain_left(d));
    } else if (d->be->health && d->be->health(d, h->why, sizeof h->why)) {
        h->state = "degraded";
        h->lost = "database";
    } else if (d->gpu_lost[0]) {
        h->state = "degraded";
        h->lost = "gpu";
        snprintf(h->why, sizeof h->why, "%s", d->gpu_lost);
    } else {
        h->state = "ready";
    }
}

int d_drain_left(const g16d *d)
{
    int n = 0;
    for (int s = P_QUEUED; s <= P_FINAL; s++) n += d->nstate[s];
    return n;
}

d_status d_drain_set(g16d *d, int how, char *err, size_t errlen)
{
    d_status rc = D_OK;
    pthread_mutex_lock(&d->mu);
    if (d->draining == D_DRAIN_SIGNAL && how != D_DRAIN_SIGNAL) {
        rc = D_ERR_STOPPING;
        d_errf(err, errlen, "g16d is draining to exit (SIGTERM)");
    } else if (d->draining != how) {
        d->draining = how;
        d_log(D_LOG_NOTICE, how ? "drain" : "resume", "left=%d by=%s", d_drain_left(d),
              how == D_DRAIN_SIGNAL ? "signal" : "api");
        pthread_cond_broadcast(&d->work);
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

void d_health_gpu_failed(g16d *d, const char *why)
{
    if (d->gpu_lost[0]) return;
    snprintf(d->gpu_lost, sizeof d->gpu_lost, "%s", why);
    d_log(D_LOG_ERR, "gpu_lost", "error=%s", why);
}

/* The next of the signals in set, waiting up to timeout seconds (< 0:
 * for ever): 0 when none came. */
static int next_signal(const sigset_t *set, double timeout)
{
    int sig = 0;
    if (timeout < 0) return sigwait(set, &sig) ? 0 : sig;
    struct timespec ts = {(time_t)timeout, (long)((timeout - (double)(time_t)timeout) * 1e9)};
    sig = sigtimedwait(set, NULL, &ts);
    return sig > 0 ? sig : 0;
}

/* The wait before the next look: 0.2 s while draining, else for ever;
 * under a systemd watchdog no later than the next ping is due. */
static double next_wait(int draining, double every, double last_ping)
{
    double wait = draining ? 0.2 : -1;
    if (every > 0) {
        double due = last_ping + every - d_now();
        if (due < 0) due = 0;
        if (wait < 0 || due < wait) wait = due;
    }
    return wait;
}

int d_signal_loop(g16d *d)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    double every = d_sd_watchdog_interval(), last_ping = d_now();
    for (;;) {
        pthread_mutex_lock(&d->mu);
        int draining = d->draining == D_DRAIN_SIGNAL, left = d_drain_left(d);
        pthread_mutex_unlock(&d->mu);
        /* the watchdog is pinged only after the pipeline's lock was taken:
         * a daemon whose lock is stuck stops pinging and systemd restarts it */
        if (every > 0 && d_now() - last_ping >= every) {
            d_sd_notify("WATCHDOG=1");
            last_ping = d_now();
        }
        if (draining && !left) return SIGTERM;
        int sig = next_signal(&set, next_wait(draining, every, last_ping));
        if (sig == SIGHUP) {
            d_reload(d);
        } else if (sig == SIGTERM && !draining) {
            char err[D_ERR];
            (void)d_drain_set(d, D_DRAIN_SIGNAL, err, sizeof err);
        } else if (sig == SIGTERM || sig == SIGINT) {
            return sig;
        }
    }
}
