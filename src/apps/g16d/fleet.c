/* g16d as one host of a fleet (--queue URL): jobs, partitions, keys and
 * results live in PostgreSQL (pgqueue.c), and every host with the same
 * URL claims the partitions its own budget admits now.
 *
 * A claimed partition runs through the ordinary pipeline: the claimer
 * turns each lease into a local job of one partition (the fleet job's id,
 * the partition's index) holding the lease's witness or input bytes in
 * memory (no file), so sched.c proves it as it proves any other.  When it
 * is final, the pipeline hands it here (fleet_part_done, mu held); the
 * claimer posts the result under its lease and the local copy goes at
 * the next purge.  Any host answers any job from the database.
 *
 * Admission: a host claims only for keys it has loaded and checked, only
 * as many partitions as its free budget (less what its queued partitions
 * will reserve) admits at the key's partition size, and keeps at most one
 * waiting partition per synthesis worker.  When nothing it has loaded is
 * queued, it loads the key at the head of the fleet's queue (LRU eviction
 * as for any key) after checking its size and SHA-256 against the
 * registration; a key it cannot load is skipped for a while.
 *
 * Threads: the claimer (claims, key loads, results) and cron.c's thread
 * (the heartbeat: lease renewal, never held up by a slow claim; the
 * purge of the fleet's expired jobs) have a connection each; requests
 * share a third.  No database call is made with d->mu held.
 *
 * Idle: the claimer waits until it is woken: by cron.c's claim poll
 * (fleet_poll, every 0.1 s), by a result to post or the stop, and where
 * the database has LISTEN/NOTIFY (PostgreSQL; not YugabyteDB) by a
 * submission on any host at once: its connection listens, and it waits
 * on that connection's socket and on a pipe that stands for f->cv.  The
 * poll stays the fallback. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "d.h"
#include "jobtab.h"
#include "pgqueue.h"

#define SKIP_S      10.0 /* a key this host could not load is not tried again for this long */
#define WTNS_HEADER 256  /* a .wtns beside its n_vars 32-byte values (estimate) */
#define INPUT_EST   4096 /* an input.json's size when none is known yet */

typedef struct flease {
    d_pgq_lease l;
    job *j;   /* the local copy: valid until done (then purged) */
    int done; /* final here: post the result below */
    int ok, post;
    char *proof, *pub, *error, *timings;
    struct flease *next;
} flease;

typedef struct fkey {
    char name[D_NAME_MAX];
    char sha256[65]; /* of the bytes loaded here, checked against the registration */
    double skip_until;
    char refused[D_ERR]; /* why it could not be loaded here, while it is skipped */
    struct fkey *next;
} fkey;

typedef struct {
    d_pgq *q, *beat, *api;
    pthread_t claimer;
    pthread_cond_t cv;   /* with d->mu: a result to post, a poll, or stop */
    pthread_cond_t tick; /* with d->mu: long-polls read their job again (fleet_tick) */
    int wake[2];         /* a pipe: the same news for a claimer that waits on its socket */
    int listening;       /* the claimer's connection LISTENs: submissions wake it */
    int stop, threads;
    flease *leases;
    fkey *keys;
    uint64_t claimed, accepted, discarded;
    char db_error[D_ERR]; /* why the last heartbeat failed ("": it did not) */
} fleet;

#define F(d) ((fleet *)(d)->fleet)

static void fleet_log(const char *what, const char *err)
{
    d_log(D_LOG_WARNING, "fleet_error", "what=%s error=%s", what, err);
}

/* News for the claimer and the heartbeat.  mu held. */
static void wake(fleet *f)
{
    pthread_cond_broadcast(&f->cv);
    if (f->wake[1] >= 0) (void)!write(f->wake[1], "", 1); /* full: the news is there already */
}

/* A queue failure as the daemon's kind: the database is unavailable. */
static d_status queue_rc(int rc)
{
    return rc == G16_ERR_IO ? D_ERR_QUEUE : d_status_of((g16_status)rc);
}

static fkey *fkey_get(fleet *f, const char *name, int create)
{
    for (fkey *k = f->keys; k; k = k->next)
        if (!strcmp(k->name, name)) return k;
    fkey *k = create ? calloc(1, sizeof *k) : NULL;
    if (k) {
        snprintf(k->name, sizeof k->name, "%s", name);
        k->next = f->keys;
        f->keys = k;
    }
    return k;
}

/* ---- keys ---- */

static void sha256_hex(const uint8_t *buf, size_t len, char out[65])
{
    struct sha256_ctx c;
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    sha256_update(&c, len, buf);
    sha256_digest(&c, sizeof dg, dg);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) sprintf(out + 2 * i, "%02x", dg[i]);
}

/* The loaded key name, once it has finished loading (another thread may
 * be loading it): pinned (pending) so it stays while it is hashed.  mu
 * held. */
static dkey *loaded(g16d *d, const char *name)
{
    dkey *k;
    while ((k = d_key_find(d, name)) && !k->key && !d->stopping) {
        struct timespec ts; /* a failed load is unlisted without a broadcast */
        d_abs_time(&ts, d_now() + 0.1);
        pthread_cond_timedwait(&d->work, &d->mu, &ts);
    }
    if (k && k->key) jobtab_key_hold(d, k, 1);
    return k && k->key ? k : NULL;
}

/* The SHA-256 and size of the bytes loaded as name: D_OK, or
 * D_ERR_NOT_FOUND when it is not loaded. */
static int hash_loaded(g16d *d, const char *name, char sha[65], int64_t *size, d_pgq_key *reg)
{
    pthread_mutex_lock(&d->mu);
    dkey *k = loaded(d, name);
    pthread_mutex_unlock(&d->mu);
    if (!k) return D_ERR_NOT_FOUND;
    sha256_hex(k->buf, k->buf_len, sha); /* the bytes never change while loaded */
    *size = (int64_t)k->buf_len;
    if (reg) { /* what a registration names: the files as this host resolved them */
        snprintf(reg->path, sizeof reg->path, "%s", k->path);
        snprintf(reg->wasm, sizeof reg->wasm, "%s", k->wasm);
        snprintf(reg->wasm_sha256, sizeof reg->wasm_sha256, "%s", k->wasm_sha256);
    }
    pthread_mutex_lock(&d->mu);
    jobtab_key_hold(d, k, -1);
    k->last_used = d_now();
    pthread_mutex_unlock(&d->mu);
    return D_OK;
}

static void mark_checked(g16d *d, const char *name, const char *sha)
{
    pthread_mutex_lock(&d->mu);
    fkey *fk = fkey_get(F(d), name, 1);
    if (fk) {
        snprintf(fk->sha256, sizeof fk->sha256, "%s", sha);
        fk->skip_until = 0;
        fk->refused[0] = 0;
    }
    pthread_mutex_unlock(&d->mu);
}

/* Whether the key loaded as name is the registered one (rk), its circuit
 * too: if not it is evicted (when idle) and refused. */
static d_status check_key(g16d *d, const char *name, const d_pgq_key *rk, char *err, size_t errlen)
{
    char sha[65];
    int64_t size;
    d_pgq_key got = {0};
    if (hash_loaded(d, name, sha, &size, &got)) {
        d_errf(err, errlen, "key %s: not loaded", name);
        return D_ERR_NOT_FOUND;
    }
    int same_key = size == rk->size && !strcmp(sha, rk->sha256);
    if (same_key && !strcmp(got.wasm_sha256, rk->wasm_sha256)) {
        mark_checked(d, name, sha);
        return D_OK;
    }
    char e2[D_ERR];
    d_key_evict(d, name, e2, sizeof e2);
    if (same_key)
        d_errf(err, errlen,
               "key %s: its circuit here (%s, SHA-256 %s) is not the one the fleet registered "
               "(%s, SHA-256 %s)",
               name, got.wasm[0] ? got.wasm : "none", got.wasm_sha256[0] ? got.wasm_sha256 : "-",
               rk->wasm[0] ? rk->wasm : "none", rk->wasm_sha256[0] ? rk->wasm_sha256 : "-");
    else
        d_errf(err, errlen,
               "key %s: %s has %lld bytes, SHA-256 %.16s..., but the fleet registered %lld bytes, "
               "SHA-256 %.16s...",
               name, rk->path, (long long)size, sha, (long long)rk->size, rk->sha256);
    return D_ERR_MISMATCH;
}

/* Whether name is loaded here and checked against rk, its circuit the
 * registered one.  mu held. */
static int ready(g16d *d, const char *name, const d_pgq_key *rk)
{
    dkey *k = d_key_find(d, name);
    fkey *fk = fkey_get(F(d), name, 0);
    return k && k->key && fk && !strcmp(fk->sha256, rk->sha256) &&
           !strcmp(k->wasm_sha256, rk->wasm_sha256);
}

/* Loads the registered key rk here: its circuit only from the bytes the
 * registration names, so a file replaced since is refused, never
 * compiled. */
static d_status load_registered(g16d *d, const char *name, const d_pgq_key *rk, char *err,
                                size_t errlen)
{
    char e2[D_ERR];
    d_status rc = d_key_load_bound(d, name, rk->path, rk->wasm[0] ? rk->wasm : NULL,
                                   rk->wasm_sha256, 0, e2, sizeof e2);
    if (rc == D_ERR_MISMATCH)
        d_errf(err, errlen, "key %s: its circuit is not the file registered in the fleet: %s", name,
               e2);
    else if (rc)
        d_errf(err, errlen, "%s", e2);
    return rc;
}

static d_status d_fleet_key_ready(g16d *d, const char *name, char *err, size_t errlen)
{
    d_pgq_key rk;
    d_status rc = d_pgq_key_get(F(d)->api, name, &rk, err, errlen);
    if (rc) return queue_rc(rc);
    if (rk.wasm[0] && !rk.wasm_sha256[0]) {
        d_errf(err, errlen,
               "key %s: its circuit %s was registered without its SHA-256 (by an older g16d): "
               "register the key again",
               name, rk.wasm);
        return D_ERR_CONFLICT;
    }
    pthread_mutex_lock(&d->mu);
    int ok = ready(d, name, &rk), present = d_key_find(d, name) != NULL;
    pthread_mutex_unlock(&d->mu);
    if (ok) return D_OK;
    if (!present && (rc = load_registered(d, name, &rk, err, errlen)) && rc != D_ERR_EXISTS)
        return rc;
    return check_key(d, name, &rk, err, errlen);
}

/* Forgets that name was checked when it is not loaded here: the claimer
 * takes partitions of checked keys only, and a key loaded now is checked
 * afresh. */
static void uncheck_unloaded(g16d *d, const char *name)
{
    pthread_mutex_lock(&d->mu);
    fkey *fk = d_key_find(d, name) ? NULL : fkey_get(F(d), name, 0);
    if (fk) fk->sha256[0] = 0;
    pthread_mutex_unlock(&d->mu);
}

/* Whether k (loaded here) may be registered over old: the same key
 * bytes, and the same circuit unless old's was registered without its
 * digest (before schema 2: bound now). */
static d_status registrable(const char *name, const d_pgq_key *k, const d_pgq_key *old, char *err,
                            size_t errlen)
{
    if (strcmp(old->sha256, k->sha256)) {
        d_errf(err, errlen,
               "key %s is registered in the fleet with other bytes (%s, SHA-256 %.16s...): "
               "register these under another name",
               name, old->path, old->sha256);
        return D_ERR_CONFLICT;
    }
    if (old->wasm_sha256[0] && strcmp(old->wasm_sha256, k->wasm_sha256)) {
        d_errf(err, errlen,
               "key %s is registered in the fleet with another circuit (%s, SHA-256 %s): "
               "register this one under another name",
               name, old->wasm[0] ? old->wasm : "none", old->wasm_sha256);
        return D_ERR_CONFLICT;
    }
    return D_OK;
}

static d_status d_fleet_key_register(g16d *d, const char *name, const char *path, const char *wasm,
                                     char *err, size_t errlen)
{
    uncheck_unloaded(d, name);
    d_status rc = d_key_load(d, name, path, wasm, 0, err, errlen), fresh = rc == D_OK;
    if (rc && rc != D_ERR_EXISTS) return rc;
    d_pgq_key k = {0}, old;
    if (hash_loaded(d, name, k.sha256, &k.size, &k)) {
        d_errf(err, errlen, "key %s: evicted while it was registered", name);
        return D_ERR_CONFLICT;
    }
    rc = d_pgq_key_get(F(d)->api, name, &old, err, errlen);
    if (rc == D_OK && (rc = registrable(name, &k, &old, err, errlen))) {
        char e2[D_ERR];
        if (fresh) d_key_evict(d, name, e2, sizeof e2); /* loaded for this: it goes again */
        return rc;
    }
    if (rc != D_OK && rc != D_ERR_NOT_FOUND) return queue_rc(rc);
    if ((rc = d_pgq_key_put(F(d)->api, name, &k, err, errlen))) return queue_rc(rc);
    mark_checked(d, name, k.sha256);
    return D_OK;
}

/* ---- submission ---- */

/* Uploaded witnesses and inputs travel as the bytes the submission
 * holds (no file between), witnesses named by path as the path (every
 * host must see it: shared storage).  On D_OK the job is taken: the
 * local copy is discarded. */
static d_status fleet_submit(g16d *d, job *j, char *err, size_t errlen)
{
    d_pgq_payload *pl = calloc((size_t)j->nparts, sizeof *pl);
    if (!pl) {
        d_errf(err, errlen, "out of memory");
        return D_ERR_NOMEM;
    }
    for (int i = 0; i < j->nparts; i++) {
        const part *p = &j->parts[i];
        pl[i].data = p->payload;
        pl[i].len = p->payload_len;
        pl[i].path = p->payload ? NULL : p->wtns_path;
        pl[i].kind = p->input ? "input" : NULL;
    }
    d_status rc =
        queue_rc(d_pgq_submit(F(d)->api, j->id, j->key, j->priority, pl, j->nparts, err, errlen));
    free(pl);
    if (!rc) jobtab_discard(j);
    return rc;
}

/* ---- claims ---- */

/* What the partitions queued here will reserve when they start.  mu held. */
static size_t queued_need(g16d *d)
{
    size_t need = 0;
    for (job *j = d->jobs; j; j = j->next)
        for (int i = 0; i < j->nparts; i++)
            if (j->parts[i].state == P_QUEUED && j->k)
                need += j->k->job_bytes + j->parts[i].wtns_bytes + j->parts[i].calc_bytes;
    return need;
}

/* A partition's reservation, estimated before it is claimed: with a
 * circuit, as if it were an input of INPUT_EST bytes (the larger case). */
static size_t part_bytes(const dkey *k)
{
    if (k->circuit)
        return k->job_bytes + g16_witness_wtns_bytes(k->circuit) + d_key_calc_bytes(k, INPUT_EST);
    return k->job_bytes + (size_t)g16_key_n_vars(k->key) * 32 + WTNS_HEADER;
}

/* How many partitions to claim now, and of which keys (names copied into
 * names[0..*n), at most max): 0 with *n = 0 when no key is loaded and
 * checked here, -1 when there is no room for any.  mu held. */
static int admissible(g16d *d, char (*names)[D_NAME_MAX], int max, int *n)
{
    size_t free_b = d_budget_free(d), queued = queued_need(d), per = 0;
    int room = d->cfg.workers[ST_SYNTH] - d->nstate[P_QUEUED], checked = 0;
    *n = 0;
    if (d->stopping || d->draining || room <= 0 || free_b <= queued) return -1;
    free_b -= queued;
    for (dkey *k = d->keys; k && *n < max; k = k->next) {
        fkey *fk = fkey_get(F(d), k->name, 0);
        if (!k->key || !fk || !fk->sha256[0]) continue;
        checked++;
        if (part_bytes(k) > free_b) continue;
        snprintf(names[(*n)++], D_NAME_MAX, "%s", k->name);
        if (part_bytes(k) > per) per = part_bytes(k);
    }
    if (!*n) return checked ? -1 : 0;
    size_t fit = free_b / per;
    return fit < (size_t)room ? (int)fit : room;
}

/* A witness named by path, as this host sees it: under its --allow-dir
 * too (the database is shared, the files this host may read are its own
 * to decide). */
static void witness_by_path(g16d *d, const d_pgq_lease *l, part *p, char *err, size_t errlen)
{
    char real[1024];
    struct stat st;
    int rc = d_path_allowed(&d->cfg, l->path, real, sizeof real);
    if (rc == D_ERR_FORBIDDEN)
        d_errf(err, errlen, "witness %d: %s: outside this host's --allow-dir", l->idx, l->path);
    else if (rc || stat(real, &st) != 0)
        d_errf(err, errlen, "witness %d: %s: %s", l->idx, l->path, strerror(errno));
    else {
        p->wtns_bytes = (size_t)st.st_size;
        p->wtns_path = strdup(real);
    }
}

/* The local job of one lease (no lock: a witness named by path is looked
 * at).  A payload becomes the partition's own (no file between): the
 * .wtns it proves, or the input text it computes that from. */
static job *local_job(g16d *d, d_pgq_lease *l, char *err, size_t errlen)
{
    job *j = calloc(1, sizeof *j);
    part *p = j ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        free(j);
        return NULL;
    }
    snprintf(j->id, sizeof j->id, "%s", l->job);
    snprintf(j->key, sizeof j->key, "%s", l->key);
    j->priority = l->priority;
    j->nparts = 1;
    j->parts = p;
    j->created = p->t_queued = d_now();
    p->job = j;
    p->idx = l->idx;
    int input = !strcmp(l->kind, "input");
    if (input && l->payload) {
        uint8_t *text = realloc(l->payload, l->payload_len + 1); /* NUL-terminated */
        if (!text) {
            d_errf(err, errlen, "out of memory");
            return j;
        }
        text[l->payload_len] = 0;
        l->payload = text;
        p->input = 1;
        p->input_bytes = l->payload_len;
    } else if (input || strcmp(l->kind, "wtns"))
        d_errf(err, errlen, "partition %d: %s", l->idx,
               input ? "an input without its text" : "a payload of an unknown kind");
    else if (l->payload)
        p->wtns_bytes = l->payload_len;
    else
        witness_by_path(d, l, p, err, errlen);
    if (!err[0] && l->payload) {
        p->payload = l->payload;
        p->payload_len = l->payload_len;
        l->payload = NULL;
    }
    return j;
}

/* A lease whose partition cannot even start here: failed, with why.
 * mu held. */
static void fail_lease(fleet *f, flease *fl, const char *why)
{
    fl->done = fl->post = 1;
    fl->error = strdup(why);
    wake(f);
}

/* Publishes a lease's local job to the pipeline.  mu held. */
static void enqueue(g16d *d, fleet *f, flease *fl, job *j)
{
    fl->j = j;
    const dkey *k = d_key_find(d, j->key);
    /* without its circuit here the pipeline fails it, saying why */
    if (j->parts[0].input && k && k->circuit) d_part_input_bytes(&j->parts[0], k);
    jobtab_add(d, j);
    f->claimed++;
    d_log(D_LOG_INFO, "lease_claimed", "job=%s index=%d attempt=%d key=%s", fl->l.job, fl->l.idx,
          fl->l.attempt, j->key);
    pthread_cond_broadcast(&d->work);
}

/* Turns claimed leases into local jobs (or failures).  mu held. */
static void take(g16d *d, fleet *f, d_pgq_lease *ls, int n)
{
    for (int i = 0; i < n; i++) {
        char err[D_ERR] = "";
        flease *fl = calloc(1, sizeof *fl);
        if (!fl) continue; /* its lease lapses and another host takes it */
        fl->l = ls[i];
        pthread_mutex_unlock(&d->mu);
        job *j = local_job(d, &fl->l, err, sizeof err);
        pthread_mutex_lock(&d->mu);
        fl->next = f->leases;
        f->leases = fl;
        if (j && (j->parts[0].wtns_path || j->parts[0].payload))
            enqueue(d, f, fl, j);
        else {
            fail_lease(f, fl, err[0] ? err : "out of memory");
            jobtab_free(j);
        }
    }
}

/* Claims what admissible() allows: the number claimed, 0 for none
 * queued, -1 when there was no room to claim, -2 on a queue error.  mu
 * held (dropped around the database). */
static int claim_some(g16d *d, fleet *f)
{
    char names[64][D_NAME_MAX];
    const char *np[64];
    int nk, slots = admissible(d, names, 64, &nk);
    if (slots <= 0) return slots;
    d_pgq_lease *ls = calloc((size_t)slots, sizeof *ls);
    if (!ls) return -1;
    for (int i = 0; i < nk; i++) np[i] = names[i];
    char err[D_ERR];
    int got = 0;
    pthread_mutex_unlock(&d->mu);
    int rc = d_pgq_claim(f->q, np, nk, slots, d->cfg.lease_s, ls, &got, err, sizeof err);
    pthread_mutex_lock(&d->mu);
    if (rc) fleet_log("claim", err);
    take(d, f, ls, got);
    free(ls);
    return rc ? -2 : got;
}

/* Loads the key at the head of the fleet's queue when it is not loaded
 * here: 1 when it was (claim again now).  mu held (dropped). */
static int load_head(g16d *d, fleet *f)
{
    const char *skip[64];
    int n = 0;
    double now = d_now();
    for (fkey *k = f->keys; k && n < 64; k = k->next)
        if (k->skip_until > now || (k->sha256[0] && d_key_find(d, k->name))) skip[n++] = k->name;
    char key[128], err[D_ERR];
    pthread_mutex_unlock(&d->mu);
    int rc = d_pgq_head_key(f->q, skip, n, key, err, sizeof err);
    if (!rc && key[0]) rc = d_fleet_key_ready(d, key, err, sizeof err);
    pthread_mutex_lock(&d->mu);
    if (rc && key[0]) {
        d_log(D_LOG_WARNING, "fleet_key_refused", "key=%s skip_s=%.0f error=%s", key, SKIP_S, err);
        fkey *fk = fkey_get(f, key, 1);
        if (fk) {
            fk->skip_until = d_now() + SKIP_S;
            snprintf(fk->refused, sizeof fk->refused, "%s", err);
        }
    }
    return !rc && key[0];
}

/* ---- results ---- */

static void fleet_part_done(g16d *d, const part *p)
{
    fleet *f = F(d);
    for (flease *fl = f->leases; fl; fl = fl->next)
        if (fl->j == p->job && !fl->done) {
            fl->done = 1;
            fl->post = p->state != P_CANCELLED; /* cancelled in the fleet: nothing to say */
            fl->ok = p->state == P_DONE;
            fl->proof = p->proof ? strdup(p->proof) : NULL;
            fl->pub = p->pub ? strdup(p->pub) : NULL;
            fl->error = p->error ? strdup(p->error) : NULL;
            fl->timings = p->timings ? strdup(p->timings) : NULL;
            fl->j = NULL;
            /* the local copy has served: the next purge takes it */
            p->job->fetched = d_now() - d->cfg.fetched_ttl - 1;
            wake(f);
            return;
        }
}

static void flease_free(flease *fl)
{
    d_pgq_lease_free(&fl->l);
    free(fl->proof);
    free(fl->pub);
    free(fl->error);
    free(fl->timings);
    free(fl);
}

/* D_OK, or the queue's failure (the result is kept to be posted again). */
static int post(g16d *d, fleet *f, flease *fl)
{
    char err[D_ERR];
    int accepted = 0;
    int rc = d_pgq_result(f->q, &fl->l, fl->ok, fl->proof, fl->pub, fl->error, fl->timings,
                          &accepted, err, sizeof err);
    if (rc) {
        fleet_log("result (kept to post again)", err);
        return rc;
    }
    pthread_mutex_lock(&d->mu);
    if (accepted)
        f->accepted++;
    else
        f->discarded++;
    pthread_mutex_unlock(&d->mu);
    d_log(accepted ? D_LOG_INFO : D_LOG_WARNING, accepted ? "lease_posted" : "lease_lapsed",
          "job=%s index=%d attempt=%d result=%s", fl->l.job, fl->l.idx, fl->l.attempt,
          accepted ? "accepted" : "discarded (the lease had lapsed)");
    return D_OK;
}

/* Posts every final lease's result, until the database fails (then the
 * rest wait for the next round).  mu held (dropped around each). */
static void post_results(g16d *d, fleet *f)
{
    for (flease **pp = &f->leases; *pp;) {
        flease *fl = *pp;
        if (!fl->done) {
            pp = &fl->next;
            continue;
        }
        *pp = fl->next;
        pthread_mutex_unlock(&d->mu);
        int rc = fl->post ? post(d, f, fl) : D_OK;
        if (!rc) flease_free(fl);
        pthread_mutex_lock(&d->mu);
        if (rc) {
            fl->next = f->leases;
            f->leases = fl;
            return;
        }
        pp = &f->leases; /* the list may have changed meanwhile */
    }
}

/* At stop (the workers have stopped): the partitions claimed but never
 * started go back to the queue now rather than when their leases lapse.
 * mu held (dropped). */
static void release_unstarted(g16d *d, fleet *f)
{
    for (flease *fl = f->leases; fl; fl = fl->next) {
        if (fl->done || !fl->j || fl->j->parts[0].state != P_QUEUED) continue;
        char err[D_ERR];
        fl->done = 1; /* nothing to post: the lease is given back */
        pthread_mutex_unlock(&d->mu);
        if (d_pgq_release(f->q, &fl->l, err, sizeof err))
            fleet_log("release", err);
        else
            d_log(D_LOG_INFO, "lease_released", "job=%s index=%d", fl->l.job, fl->l.idx);
        pthread_mutex_lock(&d->mu);
    }
}

/* The claimer with nothing to do: until news on f->cv (the next poll
 * among it) or, when listening, a submission's notice.  mu held
 * (dropped). */
static void idle(g16d *d, fleet *f)
{
    if (!f->listening) {
        pthread_cond_wait(&f->cv, &d->mu);
        return;
    }
    char buf[64];
    pthread_mutex_unlock(&d->mu);
    d_pgq_wait(f->q, -1, f->wake[0]);
    while (read(f->wake[0], buf, sizeof buf) > 0) continue; /* what it said is in the state */
    pthread_mutex_lock(&d->mu);
}

static void *claimer(void *arg)
{
    g16d *d = arg;
    fleet *f = F(d);
    pthread_mutex_lock(&d->mu);
    while (!f->stop) {
        post_results(d, f);
        int got = claim_some(d, f);
        if (got > 0) continue;
        if (got == 0 && !d->stopping && !d->nstate[P_QUEUED] && load_head(d, f)) continue;
        idle(d, f);
    }
    post_results(d, f);
    release_unstarted(d, f);
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* ---- heartbeat ---- */

/* What GET /v1/fleet shows of this host.  mu held. */
static char *host_info(g16d *d)
{
    json_t *keys = json_array(), *refused = json_object();
    for (dkey *k = d->keys; k; k = k->next)
        if (k->key) json_array_append_new(keys, json_string(k->name));
    /* the keys it could not load, while it skips them: why */
    for (fkey *k = F(d)->keys; k; k = k->next)
        if (k->refused[0] && k->skip_until > d_now())
            json_object_set_new(refused, k->name, json_string(k->refused));
    int running = 0;
    for (int s = P_SYNTH; s <= P_FINAL; s++) running += d->nstate[s];
    json_t *o =
        json_pack("{s:I,s:I,s:s,s:o,s:o,s:i,s:i,s:I,s:I}", "budget", (json_int_t)d->cfg.budget,
                  "budget_free", (json_int_t)d_budget_free(d), "device", d->use_gpu ? "gpu" : "cpu",
                  "keys", keys, "keys_refused", refused, "partitions_running", running,
                  "partitions_queued", d->nstate[P_QUEUED], "proofs_done",
                  (json_int_t)d->proofs_done, "device_budget", (json_int_t)d->dev_budget);
    json_object_set_new(o, "draining", json_boolean(d->draining));
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

/* The names of the leases this host works on (malloc'd, *n of them).
 * mu held. */
static char (*held_leases(fleet *f, int *n))[D_PGQ_LEASE_ID]
{
    int cap = 0;
    for (flease *fl = f->leases; fl; fl = fl->next) cap++;
    char(*ids)[D_PGQ_LEASE_ID] = calloc((size_t)cap + 1, sizeof *ids);
    *n = 0;
    for (flease *fl = ids ? f->leases : NULL; fl; fl = fl->next)
        if (!fl->done) d_pgq_lease_id(&fl->l, ids[(*n)++]);
    return ids;
}

static void beat(g16d *d, fleet *f)
{
    char *info = host_info(d), err[D_ERR];
    int n;
    char(*ids)[D_PGQ_LEASE_ID] = held_leases(f, &n);
    const char **held = calloc((size_t)n + 1, sizeof *held);
    for (int i = 0; held && i < n; i++) held[i] = ids[i];
    pthread_mutex_unlock(&d->mu);
    int failed = !ids || !held ||
                 d_pgq_heartbeat(f->beat, d->cfg.lease_s, info, held, n, NULL, err, sizeof err);
    if (failed) fleet_log("heartbeat", ids && held ? err : "out of memory");
    free(info);
    free(ids);
    free(held);
    pthread_mutex_lock(&d->mu);
    /* GET /v1/health: degraded while the database does not answer */
    if (failed && ids && held)
        snprintf(f->db_error, sizeof f->db_error, "%s", err);
    else if (!failed && f->db_error[0]) {
        f->db_error[0] = 0;
        d_log(D_LOG_NOTICE, "fleet_database_back", "host=%s", d_pgq_host(f->beat));
    }
}

static int fleet_health(g16d *d, char *why, size_t whylen)
{
    if (!F(d)->db_error[0]) return 0;
    snprintf(why, whylen, "the fleet's database: %s", F(d)->db_error);
    return 1;
}

/* ---- periodic work (cron.c) ---- */

static void fleet_heartbeat(g16d *d)
{
    pthread_mutex_lock(&d->mu);
    beat(d, F(d));
    pthread_mutex_unlock(&d->mu);
}

/* Finished jobs past --result-ttl leave the database, from each host
 * (deleting twice is harmless), on the heartbeat's connection. */
static void fleet_purge(g16d *d)
{
    char err[D_ERR];
    if (d_pgq_purge(F(d)->beat, d->cfg.result_ttl, err, sizeof err)) fleet_log("purge", err);
}

static void fleet_poll(g16d *d)
{
    pthread_mutex_lock(&d->mu);
    wake(F(d));
    pthread_mutex_unlock(&d->mu);
}

static void fleet_tick(g16d *d)
{
    pthread_mutex_lock(&d->mu);
    pthread_cond_broadcast(&F(d)->tick);
    pthread_mutex_unlock(&d->mu);
}

/* ---- lifecycle ---- */

/* Whether the claimer can be woken by submissions: its connection
 * listens, and the pipe that stands for f->cv is open; else why not. */
static int listen_or_poll(g16d *d, fleet *f, char *why, size_t whylen)
{
    if (!d->cfg.queue_listen) {
        snprintf(why, whylen, "--no-listen");
        return 0;
    }
    if (pipe2(f->wake, O_NONBLOCK | O_CLOEXEC)) {
        snprintf(why, whylen, "pipe: %s", strerror(errno));
        f->wake[0] = f->wake[1] = -1;
        return 0;
    }
    if (!d_pgq_listen(f->q, why, whylen)) return 1;
    close(f->wake[0]); /* nobody would read it */
    close(f->wake[1]);
    f->wake[0] = f->wake[1] = -1;
    return 0;
}

static d_status d_fleet_open(g16d *d, char *err, size_t errlen)
{
    char host[200], id[33], name[100] = "host";
    gethostname(name, sizeof name - 1);
    d_random_id(id);
    snprintf(host, sizeof host, "%s-%.8s", name, id); /* a restarted host is a new one */
    fleet *f = calloc(1, sizeof *f);
    if (!f) {
        d_errf(err, errlen, "out of memory");
        return D_ERR_NOMEM;
    }
    d->fleet = f;
    pthread_cond_init(&f->cv, NULL);
    pthread_cond_init(&f->tick, NULL);
    f->wake[0] = f->wake[1] = -1;
    if (!(f->q = d_pgq_open(d->cfg.queue, host, err, errlen)) ||
        !(f->beat = d_pgq_open(d->cfg.queue, host, err, errlen)) ||
        !(f->api = d_pgq_open(d->cfg.queue, host, err, errlen)))
        return D_ERR_QUEUE;
    char why[D_ERR];
    f->listening = listen_or_poll(d, f, why, sizeof why);
    char idle[D_ERR + 64];
    snprintf(idle, sizeof idle, "%s%s",
             f->listening ? "woken by LISTEN/NOTIFY, polling every 0.1 s as well"
                          : "polling every 0.1 s, no LISTEN: ",
             f->listening ? "" : why);
    d_log(D_LOG_NOTICE, "fleet_host", "host=%s lease_s=%.1f idle=%s", host, d->cfg.lease_s, idle);
    return D_OK;
}

static int d_fleet_start(g16d *d)
{
    fleet *f = F(d);
    if (pthread_create(&f->claimer, NULL, claimer, d)) return -1;
    f->threads = 1;
    return 0;
}

/* After the workers stopped: the last results are posted. */
static void d_fleet_stop(g16d *d)
{
    fleet *f = F(d);
    if (!f) return;
    pthread_mutex_lock(&d->mu);
    f->stop = 1;
    wake(f);
    pthread_cond_broadcast(&f->tick); /* long-polls see d->stopping */
    pthread_mutex_unlock(&d->mu);
    if (f->threads > 0) pthread_join(f->claimer, NULL);
    f->threads = 0;
}

static void d_fleet_close(g16d *d)
{
    fleet *f = F(d);
    if (!f) return;
    d_pgq_close(f->q);
    d_pgq_close(f->beat);
    d_pgq_close(f->api);
    while (f->leases) {
        flease *fl = f->leases;
        f->leases = fl->next;
        flease_free(fl);
    }
    while (f->keys) {
        fkey *k = f->keys;
        f->keys = k->next;
        free(k);
    }
    for (int i = 0; i < 2; i++)
        if (f->wake[i] >= 0) close(f->wake[i]);
    pthread_cond_destroy(&f->cv);
    pthread_cond_destroy(&f->tick);
    free(f);
    d->fleet = NULL;
}

/* ---- what requests read ---- */

static int view_final(const d_job_view *v)
{
    for (int i = 0; i < v->nparts; i++)
        if (strcmp(v->parts[i].state, "done") && strcmp(v->parts[i].state, "failed") &&
            strcmp(v->parts[i].state, "cancelled"))
            return 0;
    return 1;
}

/* The long-poll waits here (fleet_waitable says 0): a fleet job changes
 * on any host. */
/* Until cron.c's next job poll (fleet_tick), the deadline or the stop. */
static void wait_tick(g16d *d, double deadline)
{
    struct timespec ts;
    d_abs_time(&ts, deadline);
    pthread_mutex_lock(&d->mu);
    if (!d->stopping) pthread_cond_timedwait(&F(d)->tick, &d->mu, &ts);
    pthread_mutex_unlock(&d->mu);
}

static d_status fleet_job_view(g16d *d, const char *id, double wait, d_job_view *v, char *err,
                               size_t errlen)
{
    double deadline = d_now() + wait;
    for (;;) {
        d_status rc = d_pgq_job_view(F(d)->api, id, v, err, errlen);
        if (rc || view_final(v) || d_now() >= deadline || d->stopping) return queue_rc(rc);
        d_job_view_free(v);
        wait_tick(d, deadline);
    }
}

/* A fleet host lists the fleet's jobs: any host answers any job. */
static d_status fleet_job_list(g16d *d, d_job_list *l, char *err, size_t errlen)
{
    return queue_rc(d_pgq_jobs_view(F(d)->api, l, err, errlen));
}

static d_status fleet_cancel(g16d *d, const char *id, d_job_view *v, char *err, size_t errlen)
{
    d_status rc = d_pgq_cancel(F(d)->api, id, err, errlen);
    if (rc == D_PGQ_FINAL) return D_ERR_CONFLICT;
    if (rc) return queue_rc(rc);
    pthread_mutex_lock(&d->mu); /* stop what runs here of it */
    for (job *j = d->jobs; j; j = j->next)
        if (!strcmp(j->id, id) && !d_job_terminal(j)) d_job_cancel(d, j);
    pthread_mutex_unlock(&d->mu);
    return queue_rc(d_pgq_job_view(F(d)->api, id, v, err, errlen));
}

static d_status d_fleet_hosts(g16d *d, char **json, char *err, size_t errlen)
{
    char *hosts = NULL;
    int64_t queued = 0, running = 0;
    d_status rc = d_pgq_hosts_json(F(d)->api, &hosts, err, errlen);
    if (!rc) rc = d_pgq_depth(F(d)->api, &queued, &running, err, errlen);
    if (rc) {
        free(hosts);
        return queue_rc(rc);
    }
    json_t *o = json_pack("{s:s,s:o,s:{s:I,s:I}}", "host", d_pgq_host(F(d)->api), "hosts",
                          json_loads(hosts, 0, NULL), "queue", "queued", (json_int_t)queued,
                          "running", (json_int_t)running);
    free(hosts);
    *json = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(o);
    return *json ? D_OK : D_ERR_NOMEM;
}

static char *d_fleet_metrics(g16d *d)
{
    fleet *f = F(d);
    int64_t queued = -1, running = -1;
    char err[D_ERR], *s = NULL;
    d_pgq_depth(f->api, &queued, &running, err, sizeof err);
    pthread_mutex_lock(&d->mu);
    uint64_t claimed = f->claimed, accepted = f->accepted, discarded = f->discarded;
    pthread_mutex_unlock(&d->mu);
    if (asprintf(&s,
                 "# HELP g16d_fleet_queue_partitions Partitions of the whole fleet (-1: the "
                 "database did not answer).\n# TYPE g16d_fleet_queue_partitions gauge\n"
                 "g16d_fleet_queue_partitions{state=\"queued\"} %lld\n"
                 "g16d_fleet_queue_partitions{state=\"running\"} %lld\n"
                 "# HELP g16d_fleet_claims_total Partitions this host claimed.\n"
                 "# TYPE g16d_fleet_claims_total counter\ng16d_fleet_claims_total %llu\n"
                 "# HELP g16d_fleet_results_total Results this host posted, by outcome.\n"
                 "# TYPE g16d_fleet_results_total counter\n"
                 "g16d_fleet_results_total{outcome=\"accepted\"} %llu\n"
                 "g16d_fleet_results_total{outcome=\"discarded\"} %llu\n",
                 (long long)queued, (long long)running, (unsigned long long)claimed,
                 (unsigned long long)accepted, (unsigned long long)discarded) < 0)
        return NULL;
    return s;
}

/* ---- the fleet backend ---- */

static d_status fleet_restore(g16d *d, char *err, size_t errlen)
{
    (void)d, (void)err, (void)errlen; /* the jobs are the database's */
    return D_OK;
}

/* Nothing of a job is kept here but its final partitions' results, which
 * fleet_part_done hands to the claimer. */
static void fleet_key_saved(g16d *d, const dkey *k, int present)
{
    (void)d, (void)k, (void)present;
}
static void fleet_job_noop(g16d *d, const job *j) { (void)d, (void)j; }

static int fleet_waitable(g16d *d, const char *id)
{
    (void)d, (void)id;
    return 0; /* a fleet's long-poll waits on the database, on its own thread */
}

const d_backend d_backend_fleet = {
    .name = "fleet",
    .open = d_fleet_open,
    .restore = fleet_restore,
    .start = d_fleet_start,
    .stop = d_fleet_stop,
    .close = d_fleet_close,
    .key_load = d_fleet_key_register,
    .key_saved = fleet_key_saved,
    .key_ready = d_fleet_key_ready,
    .submit = fleet_submit,
    .part_done = fleet_part_done,
    .job_changed = fleet_job_noop,
    .job_deleted = fleet_job_noop,
    .job_view = fleet_job_view,
    .job_list = fleet_job_list,
    .cancel = fleet_cancel,
    .waitable = fleet_waitable,
    .hosts = d_fleet_hosts,
    .metrics = d_fleet_metrics,
    .health = fleet_health,
    .remote = 1,
    .proves_submitted = 0,
    .heartbeat = fleet_heartbeat,
    .purge = fleet_purge,
    .poll = fleet_poll,
    .tick = fleet_tick,
};
