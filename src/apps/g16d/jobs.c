/* Jobs: submission (every witness is checked against the key, every
 * input against the key's circuit, before the job is accepted, so bad
 * input is a 4xx now rather than a failure later), a job as a reply's
 * view, cancellation.  The checked job goes to the backend (d->be) with
 * its uploaded witnesses and inputs as bytes: the local backend journals
 * them in the state directory before the job is stored, so an accepted
 * one survives a restart, and a fleet sends them to its queue. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "d.h"
#include "jobtab.h"

int d_job_terminal(const job *j) { return j->nterminal == j->nparts; }

/* The lone job's witness (d_lone_now: it would run alone, and its
 * reservation is free now) read into memory once, checked there, and
 * kept with its bytes reserved for the proof, which is made from them
 * (witness_of in sched.c) instead of reading the file again: G16_OK, a
 * failure of the check, or -1 when it is not taken this way (not alone,
 * no room, or not a regular file of the size it had: the file's own
 * check says why). */
static int witness_read_lone(g16d *d, const dkey *k, part *p, const char *real, char *e2,
                             size_t e2len)
{
    struct stat st;
    if (!d->be->proves_submitted || p->job->nparts != 1 || stat(real, &st) || !S_ISREG(st.st_mode))
        return -1;
    size_t len = (size_t)st.st_size;
    pthread_mutex_lock(&d->mu);
    int lone = d_lone_now(d, k->job_bytes + len + 1);
    if (lone) d_part_hold(d, p, len + 1); /* g16_file_read's buffer is one byte larger */
    pthread_mutex_unlock(&d->mu);
    if (!lone) return -1;
    int rc = g16_file_read(real, len, &p->wtns.buf, &p->wtns.len, e2, e2len);
    if (rc == G16_OK) rc = g16_witness_check(k->key, p->wtns.buf, p->wtns.len, real, e2, e2len);
    if (rc == G16_OK) {
        p->wtns_bytes = p->wtns.len;
        p->read_early = 1;
        return G16_OK;
    }
    int checked = p->wtns.buf != NULL; /* read whole: the check's verdict stands */
    pthread_mutex_lock(&d->mu);
    d_part_unhold(d, p);
    pthread_mutex_unlock(&d->mu);
    return checked ? rc : -1;
}

/* A witness named by path: under --allow-dir, a regular file (a FIFO is
 * refused without being waited on), checked against the key by the
 * library as the prover will check it: for a lone job in the one pass
 * that reads it for the proof (witness_read_lone). */
static d_status witness_path(g16d *d, const dkey *k, part *p, const char *path, char *err,
                             size_t errlen)
{
    const g16_key *key = k->key;
    char real[1024], e2[D_ERR];
    d_status rc = d_path_allowed(&d->cfg, path, real, sizeof real);
    if (rc) {
        d_errf(err, errlen, "witness %d: %s: %s", p->idx, path,
               rc == D_ERR_FORBIDDEN ? "outside the allowed directories (--allow-dir)"
                                     : strerror(errno));
        return rc;
    }
    int checked = witness_read_lone(d, k, p, real, e2, sizeof e2);
    if (checked < 0) checked = g16_witness_check_file(key, real, &p->wtns_bytes, e2, sizeof e2);
    if ((rc = d_status_of((g16_status)checked))) {
        d_errf(err, errlen, "witness %d: %s", p->idx, e2);
        return rc;
    }
    if (!(p->wtns_path = strdup(real))) {
        d_errf(err, errlen, "out of memory");
        return D_ERR_NOMEM;
    }
    return D_OK;
}

/* An uploaded witness, checked and kept as bytes for the backend (the
 * local one journals it to the state directory, a fleet sends it). */
static d_status witness_upload(const g16_key *key, part *p, const char *b64, char *err,
                               size_t errlen)
{
    uint8_t *buf;
    size_t len;
    char e2[D_ERR];
    if (d_base64_decode(b64, strlen(b64), &buf, &len)) {
        d_errf(err, errlen, "witness %d: neither an absolute path nor base64", p->idx);
        return D_ERR_ARG;
    }
    d_status rc = d_status_of(g16_witness_check(key, buf, len, "uploaded witness", e2, sizeof e2));
    if (rc) {
        free(buf);
        d_errf(err, errlen, "witness %d: %s", p->idx, e2);
        return rc;
    }
    p->wtns_bytes = p->payload_len = len;
    p->payload = buf;
    return D_OK;
}

/* A string starting with '/' is a path; otherwise base64 of a .wtns.  An
 * object may say which: {"path": ...} or {"base64": ...}. */
static d_status add_witness(g16d *d, const dkey *k, part *p, json_t *ws, char *err, size_t errlen)
{
    json_t *v = json_array_get(ws, (size_t)p->idx);
    const char *path = NULL, *b64 = NULL;
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (s[0] == '/')
            path = s;
        else
            b64 = s;
    } else if (json_is_object(v)) {
        path = json_string_value(json_object_get(v, "path"));
        b64 = json_string_value(json_object_get(v, "base64"));
    }
    if (path && path[0] == '/') return witness_path(d, k, p, path, err, errlen);
    if (b64) { /* its string goes from the request's tree: the bytes take its place */
        d_status rc = witness_upload(k->key, p, b64, err, errlen);
        if (!rc) json_array_set_new(ws, (size_t)p->idx, json_null());
        return rc;
    }
    d_errf(err, errlen,
           "witness %d: expected an absolute path, base64 or {\"path\"|\"base64\": ...}", p->idx);
    return D_ERR_ARG;
}

/* An input object: written back as text, its subtree freed, then the
 * text checked against the circuit without running it (its values, each
 * signal one of the circuit's inputs with as many values, none missing)
 * and kept for the backend (the local one journals it to the state
 * directory, a fleet sends it).  Numbers were read as JavaScript reads
 * them (doubles), and 17 digits write a double back exactly.  The
 * request's tree of it is freed before the check: the library's parse of
 * the text never shares memory with it (bodybudget.c's estimate counts
 * one tree and the text). */
static d_status add_input(const dkey *k, part *p, json_t *ws, char *err, size_t errlen)
{
    char name[64], e2[D_ERR];
    json_t *v = json_array_get(ws, (size_t)p->idx);
    if (!json_is_object(v)) {
        d_errf(err, errlen, "input %d: expected an object of signal names to values", p->idx);
        return D_ERR_ARG;
    }
    snprintf(name, sizeof name, "input %d", p->idx);
    char *text = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (!text) {
        d_errf(err, errlen, "out of memory");
        return D_ERR_NOMEM;
    }
    json_array_set_new(ws, (size_t)p->idx, json_null());
    p->input = 1;
    p->payload = (uint8_t *)text;
    p->input_bytes = p->payload_len = strlen(text);
    d_status rc =
        d_status_of(g16_witness_check_input(k->circuit, text, p->input_bytes, name, e2, sizeof e2));
    if (rc) {
        d_errf(err, errlen, "%s", e2);
        return rc;
    }
    d_part_input_bytes(p, k);
    return D_OK;
}

/* Looks the key up and pins it (pending) so it cannot be evicted while
 * the witnesses are checked without the lock: D_OK with *out, or why
 * not. */
static d_status pin_key(g16d *d, const char *name, int n, dkey **out, char *err, size_t errlen)
{
    pthread_mutex_lock(&d->mu);
    dkey *k = d_key_find(d, name);
    d_status rc = D_OK;
    if (d->stopping) {
        rc = D_ERR_STOPPING;
        d_errf(err, errlen, "g16d is shutting down");
    } else if (d->draining) {
        rc = D_ERR_DRAINING;
        d_errf(err, errlen, "g16d is draining (%s): it takes no new jobs; submit to another host",
               d->draining == D_DRAIN_SIGNAL ? "SIGTERM" : "POST /v1/drain");
    } else if (!k || !k->key) {
        rc = D_ERR_NOT_FOUND;
        d_errf(err, errlen, "no key named '%s' (load it with POST /v1/keys)", name);
    } else {
        jobtab_key_hold(d, k, n);
    }
    pthread_mutex_unlock(&d->mu);
    *out = rc ? NULL : k;
    return rc;
}

static job *new_job(const char *key, int n, int prio)
{
    job *j = calloc(1, sizeof *j);
    if (!j || !(j->parts = calloc((size_t)n, sizeof *j->parts))) {
        free(j);
        return NULL;
    }
    d_random_id(j->id);
    snprintf(j->key, sizeof j->key, "%s", key);
    j->nparts = n;
    j->priority = prio;
    j->created = d_now();
    for (int i = 0; i < n; i++) {
        j->parts[i].job = j;
        j->parts[i].idx = i;
        j->parts[i].t_queued = j->created;
    }
    return j;
}

/* Every witness or input checked, and the largest partition must fit
 * the budget with its own key resident, or it would wait forever. */
static d_status check_all(g16d *d, dkey *k, job *j, json_t *ws, int inputs, char *err,
                          size_t errlen)
{
    size_t maxw = 0;
    if (inputs && !k->circuit) {
        d_errf(err, errlen,
               "key %s has no circuit to compute witnesses from inputs (load it with \"wasm\")",
               k->name);
        return D_ERR_ARG;
    }
    for (int i = 0; i < j->nparts; i++) {
        part *p = &j->parts[i];
        d_status rc =
            inputs ? add_input(k, p, ws, err, errlen) : add_witness(d, k, p, ws, err, errlen);
        if (rc) return rc;
        if (p->wtns_bytes + p->calc_bytes > maxw) maxw = p->wtns_bytes + p->calc_bytes;
    }
    /* the key's charge: its bytes and its circuit's graph (built meanwhile: under mu) */
    pthread_mutex_lock(&d->mu);
    size_t held = k->bytes + k->graph_bytes;
    pthread_mutex_unlock(&d->mu);
    size_t need = k->job_bytes + maxw, room = d->cfg.budget > held ? d->cfg.budget - held : 0;
    if (!policy_part_fits(d->cfg.budget, held, need)) {
        d_errf(err, errlen, "a partition needs %zu bytes but the budget leaves %zu beside the key",
               need, room);
        return D_ERR_NEVER_FITS; /* waiting would never help */
    }
    return D_OK;
}

/* The submission's hold on its key goes once the backend has taken the
 * job (its partitions pin the key now) or it was refused. */
static void release(g16d *d, dkey *k, int n)
{
    if (!k) return;
    pthread_mutex_lock(&d->mu);
    jobtab_key_hold(d, k, -n);
    pthread_mutex_unlock(&d->mu);
}

/* The backend first says whether the key is ready (a fleet loads it on
 * demand and checks it against its registration), and takes the checked
 * job (queued here, or in the fleet's queue). */
d_status d_job_submit(g16d *d, const char *body, size_t len, char **out, char *err, size_t errlen)
{
    json_t *root, *ws;
    const char *key;
    int prio, inputs;
    dkey *k = NULL;
    job *j = NULL;
    d_status rc = d_proof_request_parse(body, len, &root, &key, &ws, &inputs, &prio, err, errlen);
    int n = rc ? 0 : (int)json_array_size(ws);
    if (!rc) rc = d->be->key_ready(d, key, err, errlen);
    if (!rc) rc = pin_key(d, key, n, &k, err, errlen);
    if (!rc && !(j = new_job(key, n, prio))) {
        rc = D_ERR_NOMEM;
        d_errf(err, errlen, "out of memory");
    }
    if (!rc) rc = check_all(d, k, j, ws, inputs, err, errlen);
    json_decref(root);
    if (!rc &&
        asprintf(out, "{\"id\":\"%s\",\"state\":\"queued\",\"partitions\":%d}\n", j->id, n) < 0)
        *out = NULL;
    char id[33] = "", kname[D_NAME_MAX] = ""; /* for the log: the backend may free j */
    if (!rc) {
        snprintf(id, sizeof id, "%s", j->id);
        snprintf(kname, sizeof kname, "%s", j->key);
        rc = d->be->submit(d, j, err, errlen);
    }
    if (rc && j) { /* a witness read at submission goes back with the job */
        pthread_mutex_lock(&d->mu);
        for (int i = 0; i < j->nparts; i++) d_part_unhold(d, &j->parts[i]);
        pthread_mutex_unlock(&d->mu);
    }
    release(d, k, n);
    if (rc) {
        jobtab_discard(j);
        if (*out) free(*out);
        *out = NULL;
        return rc;
    }
    pthread_mutex_lock(&d->mu);
    d->jobs_submitted++;
    pthread_mutex_unlock(&d->mu);
    d_log(D_LOG_INFO, "job_accepted", "id=%s key=%s partitions=%d priority=%d inputs=%d", id, kname,
          n, prio, inputs);
    return D_OK;
}

int d_job_waitable(g16d *d, const char *id) { return !d->stopping && d->be->waitable(d, id); }

static void part_view(const part *p, d_part_view *v)
{
    v->idx = p->idx;
    snprintf(v->state, sizeof v->state, "%s", d_state_name(p->state));
    v->error = p->error ? strdup(p->error) : NULL;
    v->timings = p->timings ? strdup(p->timings) : NULL;
    v->proof = p->proof ? strdup(p->proof) : NULL;
    v->pub = p->pub ? strdup(p->pub) : NULL;
}

/* mu held. */
int d_job_view_of(const job *j, d_job_view *v)
{
    *v = (d_job_view){0};
    if (d_job_view_alloc(v, j->nparts)) return -1;
    snprintf(v->id, sizeof v->id, "%s", j->id);
    snprintf(v->key, sizeof v->key, "%s", j->key);
    v->priority = j->priority;
    v->cancelled = j->cancelled;
    v->created = j->created;
    v->finished = j->finished;
    for (int i = 0; i < j->nparts; i++) part_view(&j->parts[i], &v->parts[i]);
    return 0;
}

/* mu held. */
void d_job_row_of(const job *j, d_job_row *r)
{
    *r = (d_job_row){0};
    snprintf(r->id, sizeof r->id, "%s", j->id);
    snprintf(r->key, sizeof r->key, "%s", j->key);
    r->priority = j->priority;
    r->cancelled = j->cancelled;
    r->nparts = j->nparts;
    r->nfinal = j->nterminal;
    r->nfailed = j->nfailed;
    for (int i = 0; i < j->nparts; i++) {
        r->nstarted += j->parts[i].state != P_QUEUED;
        r->ndone += j->parts[i].state == P_DONE;
    }
}

/* mu held.  Running partitions are dropped by their worker when it
 * finishes the stage; waiting ones are dropped here. */
int d_job_cancel(g16d *d, job *j)
{
    if (d_job_terminal(j)) return -1;
    j->cancelled = 1;
    for (int i = 0; i < j->nparts; i++) {
        part *p = &j->parts[i];
        if (p->state == P_QUEUED) {
            if (p->reserved) d_reap(d, NULL, p, p->reserved); /* its witness read at submission */
            d_part_finish(d, p, P_CANCELLED, NULL);
        } else if (p->state == P_SYNTHED || p->state == P_MSMED) {
            d_reap(d, p->gj, p, p->reserved);
            p->gj = NULL;
            d_part_finish(d, p, P_CANCELLED, NULL);
        }
    }
    d->be->job_changed(d, j);
    pthread_cond_broadcast(&d->work);
    return 0;
}
