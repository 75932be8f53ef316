/* SIGHUP (systemctl reload): the --config file read again, with the
 * command line's flags, which still win over it.  What can change live
 * changes under the lock, in place:
 *
 *   memory-budget                       the budget every reservation is checked against
 *                                       (lowered below what is held: new work waits)
 *   synth-/msm-/finalize-workers        the stages' caps; more threads start when raised
 *   msm-queue, finalize-queue           partitions allowed to wait between stages
 *   result-ttl, fetched-ttl             the next purge's (cron.c, every second)
 *   log-format, log-level               the next line's
 *
 * Every other option was decided at startup (the socket, the state
 * directory, the device, threads, the request size limit, the fleet's
 * URL and lease, ...): when
 * the file changes one, one line names them and the running value is
 * kept.  A file that does not parse changes nothing. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "d.h"

/* Whether option name differs between the running configuration and
 * the one read again (a field left at its "decide at startup" value in
 * the new one, such as --pin-keys' auto, is no change). */
static void kept_if(int differs, const char *name, char *list, size_t len)
{
    if (!differs) return;
    size_t n = strlen(list);
    snprintf(list + n, len - n, "%s%s", n ? "," : "", name);
}

static int allow_differs(const d_config *a, const d_config *b)
{
    if (a->n_allow != b->n_allow) return 1;
    for (int i = 0; i < a->n_allow; i++)
        if (strcmp(a->allow_dir[i], b->allow_dir[i])) return 1;
    return 0;
}

/* The options that only a restart changes, named in list. */
static void fixed_changes(const d_config *o, const d_config *n, char *list, size_t len)
{
    list[0] = 0;
    kept_if(strcmp(o->socket_path, n->socket_path) != 0, "socket", list, len);
    kept_if(strcmp(o->state_dir, n->state_dir) != 0, "state-dir", list, len);
    kept_if(allow_differs(o, n), "allow-dir", list, len);
    kept_if(o->tcp_port != n->tcp_port, "tcp-port", list, len);
    kept_if(strcmp(o->token, n->token) != 0, "token-file", list, len);
    kept_if(o->budget_margin != n->budget_margin, "budget-margin", list, len);
    kept_if(o->threads != n->threads, "threads", list, len);
    kept_if(o->domain_per_thread != n->domain_per_thread, "domain-per-thread", list, len);
    kept_if(o->sample_ms != n->sample_ms, "sample-interval", list, len);
    kept_if(o->self_verify != n->self_verify, "self-verify", list, len);
    kept_if(o->max_connections != n->max_connections, "max-connections", list, len);
    kept_if(o->max_body != n->max_body, "max-body", list, len); /* read unlocked by http.c */
    kept_if(o->device != n->device, "device", list, len);
    kept_if(o->g2_on_cpu != n->g2_on_cpu, "g2-on-cpu", list, len);
    kept_if(o->gpu_copies != n->gpu_copies, "gpu-copies", list, len);
    kept_if(o->gpu_batch != n->gpu_batch, "gpu-batch", list, len);
    kept_if(n->pin_keys >= 0 && o->pin_keys != n->pin_keys, "pin-keys", list, len);
    kept_if(o->device_budget != n->device_budget, "device-memory-budget", list, len);
    kept_if(o->witness_memory != n->witness_memory, "witness-memory", list, len);
    kept_if(o->witness_timeout != n->witness_timeout, "witness-timeout", list, len);
    kept_if(strcmp(o->queue, n->queue) != 0, "queue", list, len);
    kept_if(o->lease_s != n->lease_s, "lease", list, len);
    kept_if(o->queue_listen != n->queue_listen, "no-listen", list, len);
}

/* The live options into the running configuration.  mu held. */
static void apply(g16d *d, const d_config *n)
{
    d_config *c = &d->cfg;
    if (n->budget) c->budget = n->budget; /* 0: derived at startup, kept */
    c->workers[ST_SYNTH] = n->workers[ST_SYNTH];
    c->workers[ST_FINAL] = n->workers[ST_FINAL];
    if (n->workers[ST_MSM]) c->workers[ST_MSM] = n->workers[ST_MSM]; /* 0: decided at start */
    c->queue_depth[ST_MSM] = n->queue_depth[ST_MSM];
    c->queue_depth[ST_FINAL] = n->queue_depth[ST_FINAL];
    c->result_ttl = n->result_ttl;
    c->fetched_ttl = n->fetched_ttl;
    c->log_json = n->log_json;
    c->log_level = n->log_level;
}

void d_reload(g16d *d)
{
    d_config n;
    int code;
    if (d_config_load(&n, d->cfg.argc, d->cfg.argv, &code)) {
        /* d_config_load set the log back only on success: the old one holds */
        d_log(D_LOG_ERR, "reload_failed", "why=%s",
              "the configuration does not parse (above); "
              "nothing changed");
        return;
    }
    char kept[512];
    fixed_changes(&d->cfg, &n, kept, sizeof kept);
    pthread_mutex_lock(&d->mu);
    apply(d, &n);
    int grown = d_workers_grow(d);
    d->reloads++;
    pthread_cond_broadcast(&d->work); /* more budget or workers: work may start */
    d_log(D_LOG_NOTICE, "reloaded",
          "budget=%zu synth_workers=%d msm_workers=%d finalize_workers=%d result_ttl=%g "
          "fetched_ttl=%g",
          d->cfg.budget, d->cfg.workers[ST_SYNTH], d->cfg.workers[ST_MSM], d->cfg.workers[ST_FINAL],
          d->cfg.result_ttl, d->cfg.fetched_ttl);
    if (grown) d_log(D_LOG_ERR, "reload_workers_failed", "threads=%d", d->n_workers);
    pthread_mutex_unlock(&d->mu);
    if (kept[0])
        d_log(D_LOG_WARNING, "reload_kept", "options=%s why=%s", kept,
              "they only change at a restart: the running values are kept");
}
