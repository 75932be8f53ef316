/* The HTTP API: routes a request to its handler (one table, k_routes:
 * method, path, handler, whether it blocks) and renders the reply.
 * Every error is {"error": "..."} with a 4xx/5xx status; the key and job
 * logic says what kind of failure it was (a d_status) and d_http_status
 * alone says which HTTP status that kind is. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "d.h"

#define MAX_WAIT_S 600.0

/* No default: the compiler checks that every kind has its status. */
int d_http_status(d_status code)
{
    switch (code) {
    case D_OK:
    case D_ERR_EXISTS: return 200; /* loading a loaded key again: nothing to do */
    case D_ERR_NOT_FOUND: return 404;
    case D_ERR_FORBIDDEN: return 403;
    case D_ERR_CONFLICT: return 409;
    case D_ERR_NEVER_FITS: return 413; /* could never fit the budget: a permanent refusal */
    case D_ERR_STOPPING:
    case D_ERR_DRAINING:
    case D_ERR_QUEUE: return 503;
    case D_ERR_TOO_LARGE:
    case D_ERR_NOMEM: return 507; /* no room in the budget or memory now */
    case D_ERR_ARG:
    case D_ERR_FORMAT:
    case D_ERR_MISMATCH:
    case D_ERR_TIMEOUT: /* an input that keeps its circuit from ending */
    case D_ERR_UNSUPPORTED: return 400;
    case D_ERR_IO:
    case D_ERR_DEVICE:
    case D_ERR_INTERNAL: return 500;
    }
    return 500; /* a value outside the enum: a bug */
}

void d_reply_error(d_reply *r, int status, const char *fmt, ...)
{
    char msg[D_ERR];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *o = json_pack("{s:s}", "error", msg);
    free(r->body);
    r->body = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(o);
    r->status = status;
    r->content_type = "application/json";
}

static void reply_json(d_reply *r, int status, char *text)
{
    if (!text) {
        d_reply_error(r, 500, "out of memory");
        return;
    }
    r->status = status;
    r->body = text;
    r->content_type = "application/json";
}

static void reply_jansson(d_reply *r, int status, json_t *o)
{
    reply_json(r, status, json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15)));
    json_decref(o);
}

/* The key's witness calculator: null without one (or while loading). */
static json_t *circuit_json(const dkey *k)
{
    if (!k->key || !k->circuit)
        return !k->wasm[0] ? json_null()
               : k->opening_circuit
                   ? json_pack("{s:s,s:s,s:I}", "wasm", k->wasm, "state", "compiling",
                               "compile_reserved", (json_int_t)k->compile_charge)
                   : json_pack("{s:s,s:s}", "wasm", k->wasm, "state", "loading");
    const g16_circuit *c = k->circuit;
    return json_pack("{s:s,s:s,s:s,s:b,s:I,s:I,s:I,s:I,s:f}", "wasm", k->wasm, "sha256",
                     k->wasm_sha256, "state", "ready", "compiled", k->wasm_compiled, "witness_size",
                     (json_int_t)g16_circuit_witness_size(c), "wtns_bytes",
                     (json_int_t)g16_witness_wtns_bytes(c), "memory_start",
                     (json_int_t)g16_circuit_memory_bytes(c), "memory_limit",
                     (json_int_t)g16_circuit_memory_limit(c), "time_limit",
                     g16_circuit_time_limit(c));
}

/* How the key's circuit computes its witnesses now (docs/witness-graph.md):
 * witness_path graph or wasm (with why), its graphs (one per path through
 * its branches), and their bytes, which the key's bytes include. */
static void circuit_graph_json(json_t *o, const dkey *k)
{
    g16_circuit_graph_info g;
    if (!o || !json_is_object(o) || !k->key || !k->circuit || g16_circuit_graph(k->circuit, &g))
        return;
    json_object_set_new(o, "witness_path", json_string(g.present ? "graph" : "wasm"));
    if (!g.present) json_object_set_new(o, "witness_path_why", json_string(g.why));
    json_object_set_new(o, "graphs", json_integer((json_int_t)g.graphs));
    json_object_set_new(o, "graph_bytes", json_integer((json_int_t)k->graph_bytes));
}

static json_t *key_json(const dkey *k)
{
    json_t *o =
        json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:i,s:f,s:b,s:s,s:I}", "name", k->name, "path",
                  k->path, "curve", k->key ? g16_key_curve(k->key) : "loading", "bytes",
                  (json_int_t)k->bytes, "n_vars", (json_int_t)(k->key ? g16_key_n_vars(k->key) : 0),
                  "n_public", (json_int_t)(k->key ? g16_key_n_public(k->key) : 0), "domain_size",
                  (json_int_t)(k->key ? g16_key_domain_size(k->key) : 0), "partition_bytes",
                  (json_int_t)k->job_bytes, "pending", k->pending, "last_used", k->last_used,
                  "self_verify", k->vk_json != NULL, "device", k->on_gpu ? "gpu" : "cpu",
                  "device_bytes", (json_int_t)k->device_bytes);
    /* the threads each of its partitions' stage calls get (sched.c) */
    json_object_set_new(o, "threads", json_integer(k->threads));
    json_object_set_new(o, "host_pinned_bytes", json_integer((json_int_t)k->host_pinned));
    json_object_set_new(o, "device_charge", json_integer((json_int_t)k->dev_charge));
    /* how a GPU key holds its points: whole, chunked MSMs or streamed */
    size_t chunk = 0;
    const char *mode = k->key && k->on_gpu ? g16_key_gpu_mode(k->key, &chunk) : NULL;
    if (mode) {
        json_object_set_new(o, "device_mode", json_string(mode));
        json_object_set_new(o, "device_chunk", json_integer((json_int_t)chunk));
    }
    /* the loading thread fills these before it publishes k->key under mu */
    if (k->key && k->gpu_error) json_object_set_new(o, "gpu_error", json_string(k->gpu_error));
    /* a key is listed loaded only once every point passed the load's check */
    json_object_set_new(o, "points_checked", json_boolean(k->key != NULL));
    json_object_set_new(o, "pinned", json_boolean(k->key && k->pinned));
    if (k->key && k->pin_error) json_object_set_new(o, "pin_error", json_string(k->pin_error));
    json_t *circuit = circuit_json(k);
    circuit_graph_json(circuit, k);
    json_object_set_new(o, "circuit", circuit);
    json_object_set_new(o, "bytes", json_integer((json_int_t)(k->bytes + k->graph_bytes)));
    return o;
}

static const char *device_mode(int device)
{
    return device == G16_DEVICE_GPU ? "gpu" : device == G16_DEVICE_CPU ? "cpu" : "auto";
}

static void keys_list(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq, (void)id;
    json_t *a = json_array();
    pthread_mutex_lock(&d->mu);
    for (dkey *k = d->keys; k; k = k->next) json_array_append_new(a, key_json(k));
    pthread_mutex_unlock(&d->mu);
    reply_jansson(r, 200, json_pack("{s:o}", "keys", a));
}

static void keys_load(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)id;
    json_t *o;
    const char *name, *path, *wasm;
    char err[D_ERR];
    int rc = d_key_request_parse(rq->body, rq->len, &o, &name, &path, &wasm, err, sizeof err);
    if (rc || (rc = d->be->key_load(d, name, path, wasm, err, sizeof err)))
        d_reply_error(r, d_http_status(rc), "%s", err);
    else {
        pthread_mutex_lock(&d->mu);
        dkey *k = d_key_find(d, name);
        json_t *kj = k ? key_json(k) : json_object();
        pthread_mutex_unlock(&d->mu);
        reply_jansson(r, 201, kj);
    }
    json_decref(o);
}

static void keys_evict(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq;
    char err[D_ERR];
    int rc = d_key_evict(d, id, err, sizeof err);
    if (rc)
        d_reply_error(r, d_http_status(rc), "%s", err);
    else
        reply_json(r, 200, strdup("{\"evicted\":true}"));
}

static void stage_json(json_t *o, const char *name, int workers, int busy, int queued)
{
    json_object_set_new(
        o, name, json_pack("{s:i,s:i,s:i}", "workers", workers, "busy", busy, "queued", queued));
}

static void status(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq, (void)id;
    d_sample s;
    d_memory_now(d, &s);
    json_t *keys = json_array(), *stages = json_object();
    size_t device_bytes = 0;
    pthread_mutex_lock(&d->mu);
    for (dkey *k = d->keys; k; k = k->next) {
        json_array_append_new(keys, key_json(k));
        device_bytes += k->device_bytes;
    }
    stage_json(stages, "synthesis", d->cfg.workers[ST_SYNTH], d->busy[ST_SYNTH],
               d->nstate[P_QUEUED]);
    stage_json(stages, "msm", d->cfg.workers[ST_MSM], d->busy[ST_MSM], d->nstate[P_SYNTHED]);
    stage_json(stages, "finalize", d->cfg.workers[ST_FINAL], d->busy[ST_FINAL], d->nstate[P_MSMED]);
    int active = 0, total = 0;
    for (job *j = d->jobs; j; j = j->next) {
        total++;
        active += !d_job_terminal(j);
    }
    json_t *o = json_pack(
        "{s:i,s:f,s:{s:I,s:I,s:I,s:I,s:i},s:o,s:o,s:{s:i,s:i,s:i},s:{s:I,s:I},s:b}", "pid",
        (int)getpid(), "uptime_s", d_now() - d->started, "budget", "total",
        (json_int_t)d->cfg.budget, "reserved", (json_int_t)d->reserved, "keys",
        (json_int_t)d->key_bytes, "available", (json_int_t)d_budget_free(d), "partitions_holding",
        d->held_parts, "stages", stages, "keys", keys, "jobs", "active", active, "total", total,
        "long_polls", d->long_polls, "proofs", "done", (json_int_t)d->proofs_done, "failed",
        (json_int_t)d->proofs_failed, "stopping", d->stopping);
    d_health h;
    d_health_of(d, &h);
    json_object_set_new(o, "state", json_string(h.state)); /* as GET /v1/health says */
    json_object_set_new(o, "draining", json_boolean(d->draining));
    /* what a reload (SIGHUP) may change beside the budget and the stages' workers */
    json_object_set_new(o, "config",
                        json_pack("{s:f,s:f,s:I,s:i,s:i,s:i}", "result_ttl", d->cfg.result_ttl,
                                  "fetched_ttl", d->cfg.fetched_ttl, "max_body",
                                  (json_int_t)d->cfg.max_body, "msm_queue",
                                  d->cfg.queue_depth[ST_MSM], "finalize_queue",
                                  d->cfg.queue_depth[ST_FINAL], "reloads", d->reloads));
    /* request bodies being read or parsed (http.c), within "reserved" */
    json_object_set_new(json_object_get(o, "budget"), "requests",
                        json_integer((json_int_t)d->body_reserved));
    json_object_set_new(o, "threads",
                        json_pack("{s:i,s:i}", "total", d->cfg.threads, "busy", d->cpu_busy));
    json_object_set_new(o, "device",
                        json_pack("{s:s,s:s,s:b,s:i,s:I,s:{s:I,s:I}}", "proving",
                                  d->use_gpu ? "gpu" : "cpu", "mode", device_mode(d->cfg.device),
                                  "g2_on_cpu", d->use_gpu && d->cfg.g2_on_cpu, "gpu_copies",
                                  d->use_gpu ? d->cfg.gpu_copies : 0, "key_bytes",
                                  (json_int_t)device_bytes, "budget", "total",
                                  (json_int_t)d->dev_budget, "used", (json_int_t)d->dev_used));
    pthread_mutex_unlock(&d->mu);
    json_object_set_new(
        o, "memory",
        json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:b}", "rss", (json_int_t)s.rss_kb << 10, "anon",
                  (json_int_t)s.anon_kb << 10, "file", (json_int_t)s.file_kb << 10, "shmem",
                  (json_int_t)s.shmem_kb << 10, "peak", (json_int_t)s.hwm_kb << 10, "locked",
                  (json_int_t)s.locked_kb << 10, "pin_keys", d->cfg.pin_keys > 0));
    if (s.gpu_kb >= 0) /* the process's whole GPU use, key copies and workspaces */
        json_object_set_new(json_object_get(o, "memory"), "gpu",
                            json_integer((json_int_t)s.gpu_kb << 10));
    reply_jansson(r, 200, o);
}

static int is_method(const d_request *rq, const char *m) { return !strcmp(rq->method, m); }

/* For load balancers: 200 {"state":"ready"} while this host takes
 * work, else 503 with draining or degraded (and what was lost) and why
 * (health.c). */
static void health(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq, (void)id;
    d_health h;
    pthread_mutex_lock(&d->mu);
    d_health_of(d, &h);
    int left = d_drain_left(d);
    pthread_mutex_unlock(&d->mu);
    json_t *o = json_pack("{s:s}", "state", h.state);
    if (h.lost) json_object_set_new(o, "lost", json_string(h.lost));
    if (h.why[0]) json_object_set_new(o, "why", json_string(h.why));
    if (strcmp(h.state, "ready")) json_object_set_new(o, "partitions_left", json_integer(left));
    reply_jansson(r, strcmp(h.state, "ready") ? 503 : 200, o);
}

/* POST /v1/drain: no new submissions or claims, what is held runs;
 * DELETE /v1/drain: take work again (not once SIGTERM began the drain). */
static void drain(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    char err[D_ERR];
    d_status rc = d_drain_set(d, is_method(rq, "POST") ? D_DRAIN_API : 0, err, sizeof err);
    if (rc)
        d_reply_error(r, d_http_status(rc), "%s", err);
    else
        health(d, rq, id, r);
    if (!rc) r->status = 200;
}

/* A backend's answer: its job view rendered (jobview.c), or its failure. */
static void reply_view(d_reply *r, int rc, const char *err, d_job_view *v, int with_results)
{
    if (rc)
        d_reply_error(r, d_http_status(rc), "%s", err);
    else
        reply_json(r, 200, d_job_view_json(v, with_results));
    d_job_view_free(v);
}

/* The job as it is now.  A long-poll (?wait=S) reaches here once its
 * wait is over: the HTTP layer parks it (d_api_wait) without a thread
 * until the job finishes, expires, the daemon stops or S pass; a backend
 * whose jobs are elsewhere (waitable says 0) waits in job_view itself. */
static void proof_get(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    char err[D_ERR];
    const char *same;
    d_job_view v = {0};
    int rc = d->be->job_view(d, id, d_api_wait(rq, &same), &v, err, sizeof err);
    reply_view(r, rc, err, &v, 1);
}

static void proof_cancel(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq;
    char err[D_ERR];
    d_job_view v = {0};
    int rc = d->be->cancel(d, id, &v, err, sizeof err);
    reply_view(r, rc, err, &v, 0);
}

static void proofs_list(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq, (void)id;
    char err[D_ERR];
    d_job_list l = {0};
    int rc = d->be->job_list(d, &l, err, sizeof err);
    if (rc)
        d_reply_error(r, d_http_status(rc), "%s", err);
    else
        reply_json(r, 200, d_job_list_json(&l));
    d_job_list_free(&l);
}

static void proof_submit(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)id;
    char err[D_ERR], *out = NULL;
    int rc = d_job_submit(d, rq->body, rq->len, &out, err, sizeof err);
    if (rc)
        d_reply_error(r, d_http_status(rc), "%s", err);
    else
        reply_json(r, 202, out);
}

static void memory(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)id;
    const char *s = rq->query(rq->qctx, "since"), *f = rq->query(rq->qctx, "format");
    double since = s ? strtod(s, NULL) : 0;
    if (f && strcmp(f, "csv") && strcmp(f, "json")) {
        d_reply_error(r, 400, "format must be csv or json");
        return;
    }
    if (f && !strcmp(f, "json")) {
        reply_json(r, 200, d_memory_json(d, since));
        return;
    }
    r->body = d_memory_csv(d, since);
    r->status = r->body ? 200 : 500;
    r->content_type = "text/csv";
    if (!r->body) d_reply_error(r, 500, "cannot read the memory trace");
}

static void fleet_get(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq, (void)id;
    char err[D_ERR], *json = NULL;
    int rc = d->be->hosts(d, &json, err, sizeof err);
    if (rc)
        d_reply_error(r, d_http_status(rc), "%s", err);
    else
        reply_json(r, 200, json);
}

/* Prometheus text, and the fleet's (a database query) in a fleet. */
static void metrics(g16d *d, const d_request *rq, const char *id, d_reply *r)
{
    (void)rq, (void)id;
    r->body = d_metrics_text(d);
    r->status = 200;
    r->content_type = "text/plain; version=0.0.4";
    char *more = r->body ? d->be->metrics(d) : NULL, *both = NULL;
    if (more && asprintf(&both, "%s%s", r->body, more) >= 0) {
        free(r->body);
        r->body = both;
    }
    free(more);
}

/* "/v1/proofs/ID" -> "ID" when prefix matches and the rest is one segment. */
static const char *tail(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n) || !path[n] || strchr(path + n, '/')) return NULL;
    return path + n;
}

/* Where a request is served: on the HTTP event thread at once (it only
 * reads or updates state under the lock), or on a thread of its own
 * because it reads files (a key, witnesses, the memory trace), frees a
 * key (munmap of gigabytes, the GPU copy) or, with a remote backend,
 * asks the fleet's database. */
enum { RUN_HERE, BLOCKS, BLOCKS_IF_REMOTE };

/* The API, one route a row: a path ending in '/' takes one more segment,
 * the handler's id.  A path that some row has but not with the request's
 * method is 405; a path no row has, 404. */
typedef struct {
    const char *method, *path;
    void (*handler)(g16d *d, const d_request *rq, const char *id, d_reply *r);
    int blocks;
} route;

static const route k_routes[] = {
    {"GET", "/v1/status", status, RUN_HERE},
    {"GET", "/v1/health", health, RUN_HERE},
    {"POST", "/v1/drain", drain, RUN_HERE},
    {"DELETE", "/v1/drain", drain, RUN_HERE},
    {"GET", "/metrics", metrics, BLOCKS_IF_REMOTE},
    {"GET", "/v1/fleet", fleet_get, BLOCKS_IF_REMOTE},
    {"GET", "/v1/memory", memory, BLOCKS},
    {"GET", "/v1/keys", keys_list, RUN_HERE},
    {"POST", "/v1/keys", keys_load, BLOCKS},
    {"DELETE", "/v1/keys/", keys_evict, BLOCKS},
    {"POST", "/v1/proofs", proof_submit, BLOCKS},
    {"GET", "/v1/proofs", proofs_list, BLOCKS_IF_REMOTE},
    {"GET", "/v1/proofs/", proof_get, BLOCKS_IF_REMOTE},
    {"DELETE", "/v1/proofs/", proof_cancel, BLOCKS_IF_REMOTE},
};
#define NROUTES ((int)(sizeof k_routes / sizeof k_routes[0]))

/* Whether path is rt's (*id: the segment after a '/'-ended path). */
static int path_is(const route *rt, const char *path, const char **id)
{
    size_t n = strlen(rt->path);
    *id = NULL;
    if (rt->path[n - 1] != '/') return !strcmp(path, rt->path);
    return (*id = tail(path, rt->path)) != NULL;
}

/* The request's route, or NULL with *path_known when another method's
 * route has its path. */
static const route *route_of(const d_request *rq, const char **id, int *path_known)
{
    *path_known = 0;
    for (int i = 0; i < NROUTES; i++) {
        if (!path_is(&k_routes[i], rq->path, id)) continue;
        if (is_method(rq, k_routes[i].method)) return &k_routes[i];
        *path_known = 1;
    }
    return NULL;
}

int d_api_blocks(const g16d *d, const d_request *rq)
{
    const char *id;
    int known;
    const route *rt = route_of(rq, &id, &known);
    return rt && (rt->blocks == BLOCKS || (rt->blocks == BLOCKS_IF_REMOTE && d->be->remote));
}

double d_api_wait(const d_request *rq, const char **id)
{
    const char *w = is_method(rq, "GET") ? rq->query(rq->qctx, "wait") : NULL;
    double wait = w ? strtod(w, NULL) : 0;
    if (!(*id = tail(rq->path, "/v1/proofs/")) || !(wait > 0)) return 0; /* NaN too */
    return wait > MAX_WAIT_S ? MAX_WAIT_S : wait;
}

void d_api(g16d *d, const d_request *rq, d_reply *r)
{
    const char *id;
    int known;
    const route *rt = route_of(rq, &id, &known);
    r->body = NULL;
    if (rt)
        rt->handler(d, rq, id, r);
    else if (known)
        d_reply_error(r, 405, "method %s not allowed on %s", rq->method, rq->path);
    else
        d_reply_error(r, 404, "no such endpoint: %s", rq->path);
    if (!r->body) d_reply_error(r, 500, "out of memory");
}
