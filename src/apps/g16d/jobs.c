/* Jobs: submission (every witness is checked against the key, every
 * input against the key's circuit, before the job is accepted, so bad
 * input is a 4xx now rather than a failure later), their JSON,
 * cancellation and expiry.  An input is journaled in the state directory
 * (like an uploaded witness) before the job is stored, so an accepted one
 * survives a restart. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "d.h"

job *d_job_find(g16d *d, const char *id)
{
    for (job *j = d->jobs; j; j = j->next)
        if (!strcmp(j->id, id)) return j;
    return NULL;
}

int d_job_terminal(const job *j) { return j->nterminal == j->nparts; }

const char *d_job_state(const job *j)
{
    if (j->nterminal == j->nparts)
        return j->cancelled ? "cancelled" : j->nfailed ? "failed" : "done";
    for (int i = 0; i < j->nparts; i++)
        if (j->parts[i].state != P_QUEUED) return "running";
    return "queued";
}

void d_job_free(job *j)
{
    if (!j) return;
    for (int i = 0; i < j->nparts; i++) {
        part *p = &j->parts[i];
        free(p->wtns_path);
        free(p->input_path);
        free(p->proof);
        free(p->pub);
        free(p->error);
        free(p->timings);
    }
    free(j->parts);
    free(j);
}

/* A witness named by path: under --allow-dir, a regular file (a FIFO is
 * refused without being waited on), checked against the key by the
 * library as the prover will check it. */
static int witness_path(g16d *d, const g16_key *key, part *p, const char *path, char *err,
                        size_t errlen)
{
    char real[1024], e2[D_ERR];
    int rc = d_path_allowed(&d->cfg, path, real, sizeof real);
    if (rc) {
        d_errf(err, errlen, "witness %d: %s: %s", p->idx, path,
               rc == D_ERR_FORBIDDEN ? "outside the allowed directories (--allow-dir)"
                                     : strerror(errno));
        return rc;
    }
    if ((rc = g16_witness_check_file(key, real, &p->wtns_bytes, e2, sizeof e2))) {
        d_errf(err, errlen, "witness %d: %s", p->idx, e2);
        return rc;
    }
    if (!(p->wtns_path = strdup(real))) {
        d_errf(err, errlen, "out of memory");
        return G16_ERR_NOMEM;
    }
    return G16_OK;
}

/* An uploaded witness is checked, then kept in the state directory until
 * its job expires.  A failure to store it is the daemon's (G16_ERR_IO). */
static int witness_upload(g16d *d, const g16_key *key, const char *id, part *p, const char *b64,
                          char *err, size_t errlen)
{
    uint8_t *buf;
    size_t len;
    char e2[D_ERR], path[1200];
    if (d_base64_decode(b64, strlen(b64), &buf, &len)) {
        d_errf(err, errlen, "witness %d: neither an absolute path nor base64", p->idx);
        return G16_ERR_ARG;
    }
    snprintf(path, sizeof path, "%s/wtns/%s-%d.wtns", d->cfg.state_dir, id, p->idx);
    int rc = g16_witness_check(key, buf, len, "uploaded witness", e2, sizeof e2);
    if (!rc && g16_write_file(path, buf, len, e2, sizeof e2)) rc = G16_ERR_IO;
    free(buf);
    if (rc) {
        d_errf(err, errlen, "witness %d: %s", p->idx, e2);
        return rc;
    }
    p->wtns_bytes = len;
    p->uploaded = 1;
    if (!(p->wtns_path = strdup(path))) {
        d_errf(err, errlen, "out of memory");
        return G16_ERR_NOMEM;
    }
    return G16_OK;
}

/* A string starting with '/' is a path; otherwise base64 of a .wtns.  An
 * object may say which: {"path": ...} or {"base64": ...}. */
static int add_witness(g16d *d, const g16_key *key, const char *id, part *p, json_t *v, char *err,
                       size_t errlen)
{
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
    if (path && path[0] == '/') return witness_path(d, key, p, path, err, errlen);
    if (b64) return witness_upload(d, key, id, p, b64, err, errlen);
    d_errf(err, errlen,
           "witness %d: expected an absolute path, base64 or {\"path\"|\"base64\": ...}", p->idx);
    return G16_ERR_ARG;
}

void d_part_input_bytes(part *p, const dkey *k)
{
    p->wtns_bytes = g16_witness_wtns_bytes(k->circuit);
    p->calc_bytes = d_key_calc_bytes(k, p->input_bytes);
}

/* An input object: written to the state directory (where it stays until
 * its job expires), its subtree freed, then read back and checked
 * against the circuit without running it (its values, each signal one
 * of the circuit's inputs with as many values, none missing).  Numbers
 * were read as JavaScript reads them (doubles), and 17 digits write a
 * double back exactly.  Written straight to the file and the request's
 * tree of it freed first: the library's parse of the text never shares
 * memory with it (bodybudget.c's estimate counts one tree). */
static int add_input(g16d *d, const dkey *k, const char *id, part *p, json_t *ws, char *err,
                     size_t errlen)
{
    char name[64], path[1200], e2[D_ERR];
    json_t *v = json_array_get(ws, (size_t)p->idx);
    if (!json_is_object(v)) {
        d_errf(err, errlen, "input %d: expected an object of signal names to values", p->idx);
        return G16_ERR_ARG;
    }
    snprintf(name, sizeof name, "input %d", p->idx);
    snprintf(path, sizeof path, "%s/inputs/%s-%d.json", d->cfg.state_dir, id, p->idx);
    if (!(p->input_path = strdup(path))) { /* set first: a refused job unlinks it */
        d_errf(err, errlen, "out of memory");
        return G16_ERR_NOMEM;
    }
    if (json_dump_file(v, path, JSON_COMPACT | JSON_REAL_PRECISION(17))) {
        d_errf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return G16_ERR_IO;
    }
    json_array_set_new(ws, (size_t)p->idx, json_null());
    char *text;
    int rc = g16_file_read_text(path, SIZE_MAX, &text, e2, sizeof e2);
    if (!rc) {
        p->input_bytes = strlen(text);
        rc = g16_witness_check_input(k->circuit, text, p->input_bytes, name, e2, sizeof e2);
        free(text);
    }
    if (rc) {
        d_errf(err, errlen, "%s", e2);
        return rc;
    }
    d_part_input_bytes(p, k);
    return G16_OK;
}

/* Looks the key up and pins it (pending) so it cannot be evicted while
 * the witnesses are checked without the lock: G16_OK with *out, or why
 * not. */
static int pin_key(g16d *d, const char *name, int n, dkey **out, char *err, size_t errlen)
{
    pthread_mutex_lock(&d->mu);
    dkey *k = d_key_find(d, name);
    int rc = G16_OK;
    if (d->stopping) {
        rc = D_ERR_STOPPING;
        d_errf(err, errlen, "g16d is shutting down");
    } else if (!k || !k->key) {
        rc = G16_ERR_NOT_FOUND;
        d_errf(err, errlen, "no key named '%s' (load it with POST /v1/keys)", name);
    } else {
        k->pending += n;
        k->last_used = d_now();
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

static void unlink_uploads(job *j)
{
    for (int i = 0; i < j->nparts; i++) {
        if (j->parts[i].uploaded && j->parts[i].wtns_path) unlink(j->parts[i].wtns_path);
        if (j->parts[i].input_path) unlink(j->parts[i].input_path);
    }
}

/* Every witness or input checked, and the largest partition must fit
 * the budget with its own key resident, or it would wait forever. */
static int check_all(g16d *d, dkey *k, job *j, json_t *ws, int inputs, char *err, size_t errlen)
{
    size_t maxw = 0;
    if (inputs && !k->circuit) {
        d_errf(err, errlen,
               "key %s has no circuit to compute witnesses from inputs (load it with \"wasm\")",
               k->name);
        return G16_ERR_ARG;
    }
    for (int i = 0; i < j->nparts; i++) {
        part *p = &j->parts[i];
        int rc = inputs
                     ? add_input(d, k, j->id, p, ws, err, errlen)
                     : add_witness(d, k->key, j->id, p, json_array_get(ws, (size_t)i), err, errlen);
        if (rc) return rc;
        if (p->wtns_bytes + p->calc_bytes > maxw) maxw = p->wtns_bytes + p->calc_bytes;
    }
    size_t need = k->job_bytes + maxw,
           room = d->cfg.budget > k->bytes ? d->cfg.budget - k->bytes : 0;
    if (!policy_part_fits(d->cfg.budget, k->bytes, need)) {
        d_errf(err, errlen, "a partition needs %zu bytes but the budget leaves %zu beside the key",
               need, room);
        return G16_ERR_TOO_LARGE;
    }
    return G16_OK;
}

static void enqueue(g16d *d, job *j, dkey *k)
{
    pthread_mutex_lock(&d->mu);
    j->seq = d->next_seq++;
    j->k = k;
    job **pp = &d->jobs;
    while (*pp) pp = &(*pp)->next;
    *pp = j;
    d->nstate[P_QUEUED] += j->nparts;
    d->jobs_submitted++;
    d_store_job(d, j);
    pthread_cond_broadcast(&d->work);
    pthread_mutex_unlock(&d->mu);
}

/* A job that goes no further here: refused, or handed to the fleet. */
static void drop(g16d *d, dkey *k, int n, job *j)
{
    if (k) {
        pthread_mutex_lock(&d->mu);
        k->pending -= n;
        pthread_mutex_unlock(&d->mu);
    }
    if (j) unlink_uploads(j);
    d_job_free(j);
}

/* In a fleet (--queue) the key is loaded on demand and checked against
 * its registration first, and the checked job goes to the fleet's queue
 * instead of this daemon's. */
int d_job_submit(g16d *d, const char *body, size_t len, char **out, char *err, size_t errlen)
{
    json_t *root, *ws;
    const char *key;
    int prio, inputs;
    dkey *k = NULL;
    job *j = NULL;
    int rc = d_proof_request_parse(body, len, &root, &key, &ws, &inputs, &prio, err, errlen);
    int n = rc ? 0 : (int)json_array_size(ws);
    if (!rc && d->fleet) rc = d_fleet_key_ready(d, key, err, errlen);
    if (!rc) rc = pin_key(d, key, n, &k, err, errlen);
    if (!rc && !(j = new_job(key, n, prio))) {
        rc = G16_ERR_NOMEM;
        d_errf(err, errlen, "out of memory");
    }
    if (!rc) rc = check_all(d, k, j, ws, inputs, err, errlen);
    if (!rc && d->fleet) rc = d_fleet_submit(d, j, err, errlen);
    json_decref(root);
    if (!rc &&
        asprintf(out, "{\"id\":\"%s\",\"state\":\"queued\",\"partitions\":%d}\n", j->id, n) < 0)
        *out = NULL;
    if (rc || d->fleet) {
        drop(d, k, n, j);
        return rc;
    }
    enqueue(d, j, k);
    return G16_OK;
}

int d_job_waitable(g16d *d, const char *id)
{
    if (d->fleet) return 0; /* a fleet's long-poll waits on the database, on its own thread */
    job *j = d_job_find(d, id);
    return j && !d_job_terminal(j) && !d->stopping;
}

static json_t *part_json(const part *p, int with_results)
{
    json_t *o = json_pack("{s:i,s:s}", "index", p->idx, "state", d_state_name(p->state));
    if (p->error) json_object_set_new(o, "error", json_string(p->error));
    if (p->timings) json_object_set_new(o, "timings", json_loads(p->timings, 0, NULL));
    if (with_results && p->proof) json_object_set_new(o, "proof", json_loads(p->proof, 0, NULL));
    if (with_results && p->pub) json_object_set_new(o, "public", json_loads(p->pub, 0, NULL));
    return o;
}

/* mu held.  Results are included once every partition is terminal. */
char *d_job_json(g16d *d, job *j, int with_results)
{
    (void)d;
    int done = 0;
    for (int i = 0; i < j->nparts; i++) done += j->parts[i].state == P_DONE;
    json_t *o =
        json_pack("{s:s,s:s,s:i,s:s,s:f,s:i,s:i,s:i}", "id", j->id, "key", j->key, "priority",
                  j->priority, "state", d_job_state(j), "created", j->created, "partitions_total",
                  j->nparts, "partitions_done", done, "partitions_failed", j->nfailed);
    if (j->finished > 0) json_object_set_new(o, "finished", json_real(j->finished));
    json_t *arr = json_array();
    int results = with_results && d_job_terminal(j);
    for (int i = 0; i < j->nparts; i++)
        json_array_append_new(arr, part_json(&j->parts[i], results));
    json_object_set_new(o, "partitions", arr);
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(o);
    return s;
}

/* mu held.  Running partitions are dropped by their worker when it
 * finishes the stage; waiting ones are dropped here. */
int d_job_cancel(g16d *d, job *j)
{
    if (d_job_terminal(j)) return -1;
    j->cancelled = 1;
    for (int i = 0; i < j->nparts; i++) {
        part *p = &j->parts[i];
        if (p->state == P_QUEUED)
            d_part_finish(d, p, P_CANCELLED, NULL);
        else if (p->state == P_SYNTHED || p->state == P_MSMED) {
            d_reap(d, p->gj, p, p->reserved);
            p->gj = NULL;
            d_part_finish(d, p, P_CANCELLED, NULL);
        }
    }
    d_store_job_state(d, j);
    pthread_cond_broadcast(&d->work);
    return 0;
}

static int expired(const g16d *d, const job *j, double now)
{
    if (!d_job_terminal(j)) return 0;
    for (int i = 0; i < j->nparts; i++)
        if (j->parts[i].reserved || j->parts[i].gj) return 0; /* the reaper still owes memory */
    if (j->fetched > 0 && now - j->fetched > d->cfg.fetched_ttl) return 1;
    return now - j->finished > d->cfg.result_ttl;
}

/* mu held. */
void d_jobs_purge(g16d *d, double now)
{
    for (job **pp = &d->jobs; *pp;) {
        job *j = *pp;
        if (!expired(d, j, now)) {
            pp = &j->next;
            continue;
        }
        *pp = j->next;
        for (int i = 0; i < j->nparts; i++) d->nstate[j->parts[i].state]--;
        d_store_job_delete(d, j);
        unlink_uploads(j);
        d_job_free(j);
    }
}
