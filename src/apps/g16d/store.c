/* Persistence: accepted jobs, their partitions' results and the loaded
 * keys, in SQLite (WAL) in the state directory, so a kill -9 loses no
 * accepted job: anything not finished runs again after a restart.
 * Every function but open/restore runs with d->mu held; a failed write is
 * logged, never fatal (the job still runs, it is just not durable).
 *
 * This is the local backend (d_backend_local, at the end): jobs live in
 * this process's job table (jobtab.c) and in SQLite; a fleet's host uses
 * fleet.c's instead. */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d.h"
#include "jobtab.h"

static const char k_schema[] =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;"
    "CREATE TABLE IF NOT EXISTS keys(name TEXT PRIMARY KEY, path TEXT NOT NULL, wasm TEXT);"
    "CREATE TABLE IF NOT EXISTS jobs(id TEXT PRIMARY KEY, key TEXT NOT NULL, priority INT,"
    " seq INT, created REAL, finished REAL, fetched REAL, cancelled INT);"
    "CREATE TABLE IF NOT EXISTS parts(job TEXT NOT NULL, idx INT NOT NULL, wtns TEXT,"
    " wtns_bytes INT, uploaded INT, state TEXT, error TEXT, proof TEXT, public TEXT,"
    " timings TEXT, input TEXT, input_bytes INT, PRIMARY KEY(job, idx));";

/* Columns added since the first schema: a state directory written by an
 * older g16d gains them (empty) when it is opened. */
static const char *const k_added[][2] = {
    {"keys", "wasm TEXT"}, {"parts", "input TEXT"}, {"parts", "input_bytes INT"}};

#define DB(d) ((sqlite3 *)(d)->db)

static void logerr(g16d *d, const char *what)
{
    d_log(D_LOG_ERR, "database_error", "state_dir=%s what=%s error=%s", d->cfg.state_dir, what,
          sqlite3_errmsg(DB(d)));
}

static int has_column(sqlite3 *db, const char *table, const char *column)
{
    char sql[200];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "SELECT %.*s FROM %s LIMIT 0", (int)strcspn(column, " "), column,
             table);
    int ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    return ok;
}

static d_status add_columns(g16d *d, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof k_added / sizeof k_added[0]; i++) {
        char sql[200];
        if (has_column(DB(d), k_added[i][0], k_added[i][1])) continue;
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s", k_added[i][0], k_added[i][1]);
        if (sqlite3_exec(DB(d), sql, NULL, NULL, NULL) != SQLITE_OK) {
            d_errf(err, errlen, "%s/jobs.db: %s: %s", d->cfg.state_dir, sql, sqlite3_errmsg(DB(d)));
            return D_ERR_IO;
        }
    }
    return D_OK;
}

static d_status d_store_open(g16d *d, char *err, size_t errlen)
{
    char path[1100];
    sqlite3 *db;
    snprintf(path, sizeof path, "%s/jobs.db", d->cfg.state_dir);
    if (sqlite3_open_v2(path, &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        d_errf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return D_ERR_IO;
    }
    sqlite3_busy_timeout(db, 5000);
    char *msg = NULL;
    if (sqlite3_exec(db, k_schema, NULL, NULL, &msg) != SQLITE_OK) {
        d_errf(err, errlen, "%s: %s", path, msg ? msg : "schema failed");
        sqlite3_free(msg);
        sqlite3_close(db);
        return D_ERR_IO;
    }
    d->db = db;
    return add_columns(d, err, errlen);
}

static void d_store_close(g16d *d)
{
    if (d->db) sqlite3_close(DB(d));
    d->db = NULL;
}

static sqlite3_stmt *prep(g16d *d, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(DB(d), sql, -1, &st, NULL) != SQLITE_OK) logerr(d, "prepare");
    return st;
}

static void run(g16d *d, sqlite3_stmt *st, const char *what)
{
    if (!st) return;
    if (sqlite3_step(st) != SQLITE_DONE) logerr(d, what);
    sqlite3_finalize(st);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static void d_store_key(g16d *d, const dkey *k, int present)
{
    if (!d->db) return;
    sqlite3_stmt *st =
        prep(d, present ? "INSERT OR REPLACE INTO keys(name, path, wasm) VALUES(?, ?, ?)"
                        : "DELETE FROM keys WHERE name = ?");
    if (!st) return;
    bind_text(st, 1, k->name);
    if (present) {
        bind_text(st, 2, k->path);
        bind_text(st, 3, k->wasm[0] ? k->wasm : NULL);
    }
    run(d, st, "key");
}

static void insert_part(g16d *d, const part *p)
{
    sqlite3_stmt *st =
        prep(d, "INSERT OR REPLACE INTO parts(job, idx, wtns, wtns_bytes, uploaded, state,"
                " input, input_bytes) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
    if (!st) return;
    bind_text(st, 1, p->job->id);
    sqlite3_bind_int(st, 2, p->idx);
    bind_text(st, 3, p->wtns_path);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)p->wtns_bytes);
    sqlite3_bind_int(st, 5, p->uploaded);
    bind_text(st, 6, d_state_name(p->state));
    bind_text(st, 7, p->input_path);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)p->input_bytes);
    run(d, st, "insert partition");
}

/* One transaction: a job is durable with all its partitions or not at all. */
static void d_store_job(g16d *d, const job *j)
{
    if (!d->db) return;
    sqlite3_exec(DB(d), "BEGIN", NULL, NULL, NULL);
    sqlite3_stmt *st =
        prep(d, "INSERT OR REPLACE INTO jobs(id, key, priority, seq, created, finished,"
                " fetched, cancelled) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
    if (st) {
        bind_text(st, 1, j->id);
        bind_text(st, 2, j->key);
        sqlite3_bind_int(st, 3, j->priority);
        sqlite3_bind_int64(st, 4, j->seq);
        sqlite3_bind_double(st, 5, j->created);
        sqlite3_bind_double(st, 6, j->finished);
        sqlite3_bind_double(st, 7, j->fetched);
        sqlite3_bind_int(st, 8, j->cancelled);
        run(d, st, "insert job");
    }
    for (int i = 0; i < j->nparts; i++) insert_part(d, &j->parts[i]);
    if (sqlite3_exec(DB(d), "COMMIT", NULL, NULL, NULL) != SQLITE_OK) logerr(d, "commit");
}

static void d_store_part(g16d *d, const part *p)
{
    if (!d->db) return;
    sqlite3_stmt *st =
        prep(d, "UPDATE parts SET state = ?, error = ?, proof = ?, public = ?, timings = ?"
                " WHERE job = ? AND idx = ?");
    if (!st) return;
    bind_text(st, 1, d_state_name(p->state));
    bind_text(st, 2, p->error);
    bind_text(st, 3, p->proof);
    bind_text(st, 4, p->pub);
    bind_text(st, 5, p->timings);
    bind_text(st, 6, p->job->id);
    sqlite3_bind_int(st, 7, p->idx);
    run(d, st, "update partition");
}

static void d_store_job_state(g16d *d, const job *j)
{
    if (!d->db) return;
    sqlite3_stmt *st =
        prep(d, "UPDATE jobs SET finished = ?, fetched = ?, cancelled = ? WHERE id = ?");
    if (!st) return;
    sqlite3_bind_double(st, 1, j->finished);
    sqlite3_bind_double(st, 2, j->fetched);
    sqlite3_bind_int(st, 3, j->cancelled);
    bind_text(st, 4, j->id);
    run(d, st, "update job");
}

static void d_store_job_delete(g16d *d, const job *j)
{
    if (!d->db) return;
    sqlite3_stmt *st = prep(d, "DELETE FROM parts WHERE job = ?");
    if (st) {
        bind_text(st, 1, j->id);
        run(d, st, "delete partitions");
    }
    st = prep(d, "DELETE FROM jobs WHERE id = ?");
    if (st) {
        bind_text(st, 1, j->id);
        run(d, st, "delete job");
    }
}

static char *col(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? strdup((const char *)s) : NULL;
}

static part_state state_of(const char *s)
{
    for (int i = P_DONE; i <= P_CANCELLED; i++)
        if (s && !strcmp(s, d_state_name((part_state)i))) return (part_state)i;
    return P_QUEUED; /* anything unfinished runs again */
}

static void restore_parts(g16d *d, job *j)
{
    sqlite3_stmt *st =
        prep(d, "SELECT idx, wtns, wtns_bytes, uploaded, state, error, proof, public,"
                " timings, input, input_bytes FROM parts WHERE job = ? ORDER BY idx");
    if (!st) return;
    bind_text(st, 1, j->id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int i = sqlite3_column_int(st, 0);
        if (i < 0 || i >= j->nparts) continue;
        part *p = &j->parts[i];
        p->job = j;
        p->idx = i;
        p->wtns_path = col(st, 1);
        p->wtns_bytes = (size_t)sqlite3_column_int64(st, 2);
        p->uploaded = sqlite3_column_int(st, 3);
        p->state = state_of((const char *)sqlite3_column_text(st, 4));
        p->error = col(st, 5);
        p->proof = col(st, 6);
        p->pub = col(st, 7);
        p->timings = col(st, 8);
        p->input_path = col(st, 9);
        p->input = p->input_path != NULL;
        p->input_bytes = (size_t)sqlite3_column_int64(st, 10);
        p->t_queued = d_now();
    }
    sqlite3_finalize(st);
}

static void restore_job(g16d *d, sqlite3_stmt *st)
{
    int n = 0;
    sqlite3_stmt *c = prep(d, "SELECT COUNT(*) FROM parts WHERE job = ?");
    if (!c) return;
    sqlite3_bind_text(c, 1, (const char *)sqlite3_column_text(st, 0), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(c) == SQLITE_ROW) n = sqlite3_column_int(c, 0);
    sqlite3_finalize(c);
    job *j = calloc(1, sizeof *j);
    if (!j || n <= 0 || !(j->parts = calloc((size_t)n, sizeof *j->parts))) {
        free(j);
        return;
    }
    snprintf(j->id, sizeof j->id, "%s", (const char *)sqlite3_column_text(st, 0));
    snprintf(j->key, sizeof j->key, "%s", (const char *)sqlite3_column_text(st, 1));
    j->priority = sqlite3_column_int(st, 2);
    j->seq = sqlite3_column_int64(st, 3);
    j->created = sqlite3_column_double(st, 4);
    j->finished = sqlite3_column_double(st, 5);
    j->fetched = sqlite3_column_double(st, 6);
    j->cancelled = sqlite3_column_int(st, 7);
    j->nparts = n;
    restore_parts(d, j);
    const dkey *k = d_key_find(d, j->key);
    for (int i = 0; i < n; i++) {
        part *p = &j->parts[i];
        if (!p->job) {
            p->job = j;
            p->idx = i;
            p->state = P_FAILED;
            p->error = strdup("lost partition");
        }
        if (p->state == P_QUEUED && j->cancelled) p->state = P_CANCELLED;
        if (p->input_path && k && k->circuit) d_part_input_bytes(p, k);
    }
    jobtab_add(d, j); /* j->seq kept */
}

/* Keys first (their partitions need them), then jobs in submission order. */
static d_status d_store_restore(g16d *d, char *err, size_t errlen)
{
    sqlite3_stmt *st = prep(d, "SELECT name, path, wasm FROM keys");
    if (!st) {
        d_errf(err, errlen, "%s/jobs.db: %s", d->cfg.state_dir, sqlite3_errmsg(DB(d)));
        return D_ERR_IO;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        char name[D_NAME_MAX], path[1024], e2[D_ERR];
        snprintf(name, sizeof name, "%s", (const char *)sqlite3_column_text(st, 0));
        snprintf(path, sizeof path, "%s", (const char *)sqlite3_column_text(st, 1));
        const char *wasm = (const char *)sqlite3_column_text(st, 2);
        if (d_key_load(d, name, path, wasm, 0, e2, sizeof e2))
            d_log(D_LOG_WARNING, "key_not_restored", "key=%s error=%s", name, e2);
    }
    sqlite3_finalize(st);
    st = prep(d, "SELECT id, key, priority, seq, created, finished, fetched, cancelled FROM jobs "
                 "ORDER BY seq");
    if (!st) return D_ERR_IO;
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        restore_job(d, st);
        n++;
    }
    sqlite3_finalize(st);
    if (n) d_log(D_LOG_NOTICE, "restored", "jobs=%d partitions_queued=%d", n, d->nstate[P_QUEUED]);
    return D_OK;
}

/* ---- the local backend ---- */

static d_status local_open(g16d *d, char *err, size_t errlen)
{
    return d_store_open(d, err, errlen) ? -1 : 0;
}

static d_status local_restore(g16d *d, char *err, size_t errlen)
{
    return d_store_restore(d, err, errlen);
}

static int local_start(g16d *d)
{
    (void)d;
    return 0;
}

static void local_stop(g16d *d) { (void)d; }

static d_status local_key_load(g16d *d, const char *name, const char *path, const char *wasm,
                               char *err, size_t errlen)
{
    return d_key_load(d, name, path, wasm, 1, err, errlen);
}

/* A key loaded here is ready: pin_key says whether it is loaded. */
static d_status local_key_ready(g16d *d, const char *name, char *err, size_t errlen)
{
    (void)d, (void)name, (void)err, (void)errlen;
    return D_OK;
}

/* A partition's bytes into the state directory, where they stay until
 * its job expires: uploads under wtns/, inputs under inputs/.  A failure
 * to store them is the daemon's (D_ERR_IO). */
static d_status journal(g16d *d, const job *j, part *p, char *err, size_t errlen)
{
    char path[1200], e2[D_ERR];
    snprintf(path, sizeof path, "%s/%s/%s-%d.%s", d->cfg.state_dir, p->input ? "inputs" : "wtns",
             j->id, p->idx, p->input ? "json" : "wtns");
    char *copy = strdup(path);
    if (!copy || g16_write_file(path, p->payload, p->payload_len, e2, sizeof e2)) {
        d_errf(err, errlen, "%s %d: %s", p->input ? "input" : "witness", p->idx,
               copy ? e2 : "out of memory");
        free(copy);
        return copy ? D_ERR_IO : D_ERR_NOMEM;
    }
    if (p->input)
        p->input_path = copy;
    else {
        p->wtns_path = copy;
        p->uploaded = 1;
    }
    free(p->payload);
    p->payload = NULL;
    return D_OK;
}

/* Durable before the workers see it: its bytes journaled (without the
 * lock), then the job stored and listed. */
static d_status local_submit(g16d *d, job *j, char *err, size_t errlen)
{
    for (int i = 0; i < j->nparts; i++) {
        d_status rc = j->parts[i].payload ? journal(d, j, &j->parts[i], err, errlen) : D_OK;
        if (rc) return rc;
    }
    pthread_mutex_lock(&d->mu);
    jobtab_add(d, j);
    d_store_job(d, j);
    pthread_cond_broadcast(&d->work);
    pthread_mutex_unlock(&d->mu);
    return D_OK;
}

/* A finished job's first read starts its --fetched-ttl. */
static d_status local_job_view(g16d *d, const char *id, double wait, d_job_view *v, char *err,
                               size_t errlen)
{
    (void)wait; /* the HTTP layer parked the long-poll (local_waitable) */
    pthread_mutex_lock(&d->mu);
    job *j = jobtab_find(d, id);
    d_status rc = D_OK;
    if (!j) {
        rc = D_ERR_NOT_FOUND;
        d_errf(err, errlen, "no job %s (unknown, or its results expired)", id);
    } else {
        if (d_job_terminal(j) && j->fetched <= 0) {
            j->fetched = d_now();
            d_store_job_state(d, j);
        }
        if (d_job_view_of(j, v)) {
            rc = D_ERR_NOMEM;
            d_errf(err, errlen, "out of memory");
        }
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

static d_status local_job_list(g16d *d, d_job_list *l, char *err, size_t errlen)
{
    int n = 0, rc = D_OK;
    pthread_mutex_lock(&d->mu);
    for (job *j = d->jobs; j; j = j->next) n++;
    *l = (d_job_list){0};
    if (!(l->rows = calloc(n > 0 ? (size_t)n : 1, sizeof *l->rows))) {
        rc = D_ERR_NOMEM;
        d_errf(err, errlen, "out of memory");
    }
    for (job *j = l->rows ? d->jobs : NULL; j; j = j->next) d_job_row_of(j, &l->rows[l->n++]);
    pthread_mutex_unlock(&d->mu);
    return rc;
}

static d_status local_cancel(g16d *d, const char *id, d_job_view *v, char *err, size_t errlen)
{
    pthread_mutex_lock(&d->mu);
    job *j = jobtab_find(d, id);
    d_status rc = D_OK;
    if (!j) {
        rc = D_ERR_NOT_FOUND;
        d_errf(err, errlen, "no job %s", id);
    } else if (d_job_cancel(d, j)) {
        rc = D_ERR_CONFLICT;
        d_errf(err, errlen, "job %s has already finished", id);
    } else if (d_job_view_of(j, v)) {
        rc = D_ERR_NOMEM;
        d_errf(err, errlen, "out of memory");
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

static int local_waitable(g16d *d, const char *id)
{
    job *j = jobtab_find(d, id);
    return j && !d_job_terminal(j);
}

static d_status local_hosts(g16d *d, char **json, char *err, size_t errlen)
{
    (void)d;
    *json = NULL;
    d_errf(err, errlen, "this g16d is no fleet's host (start it with --queue)");
    return D_ERR_NOT_FOUND;
}

static char *local_metrics(g16d *d)
{
    (void)d;
    return NULL;
}

const d_backend d_backend_local = {
    .name = "local",
    .open = local_open,
    .restore = local_restore,
    .start = local_start,
    .stop = local_stop,
    .close = d_store_close,
    .key_load = local_key_load,
    .key_saved = d_store_key,
    .key_ready = local_key_ready,
    .submit = local_submit,
    .part_done = d_store_part,
    .job_changed = d_store_job_state,
    .job_deleted = d_store_job_delete,
    .job_view = local_job_view,
    .job_list = local_job_list,
    .cancel = local_cancel,
    .waitable = local_waitable,
    .hosts = local_hosts,
    .metrics = local_metrics,
    .remote = 0,
    .proves_submitted = 1,
};
