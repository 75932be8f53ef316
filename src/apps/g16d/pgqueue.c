/* The fleet's queue in PostgreSQL: see pgqueue.h for the contract.  Time
 * is always the database's (now()), so hosts with skewed clocks agree on
 * which lease has expired. */
#define _GNU_SOURCE
#include "pgqueue.h"

#include <endian.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "g16.h"

#define ATTEMPTS 6
#define CHANNEL  "g16d_queue" /* submissions are announced here (LISTEN/NOTIFY) */

enum { RETRY_NO, RETRY_AGAIN, RETRY_RESET };

struct d_pgq {
    PGconn *conn;
    pthread_mutex_t mu;
    int retry;     /* RETRY_*: whether the last failure may pass if the call is made again */
    int listening; /* LISTENs on CHANNEL, again after every reset */
    int no_notify; /* the database refused NOTIFY once: not tried again */
    char host[128];
};

/* Migration i brings the schema from version i to i + 1.  Never edit one
 * that has shipped: add the next. */
static const char *const k_migrations[] = {
    "CREATE TABLE hosts(id text PRIMARY KEY, started timestamptz NOT NULL DEFAULT now(),"
    " heartbeat timestamptz NOT NULL DEFAULT now(), info text NOT NULL DEFAULT '{}');"
    "CREATE TABLE keys(name text PRIMARY KEY, size bigint NOT NULL, sha256 text NOT NULL,"
    " path text NOT NULL, wasm text, registered timestamptz NOT NULL DEFAULT now());"
    "CREATE TABLE jobs(id text PRIMARY KEY, key text NOT NULL, priority int NOT NULL,"
    " seq bigserial, nparts int NOT NULL, created timestamptz NOT NULL DEFAULT now(),"
    " submitted_by text, cancelled boolean NOT NULL DEFAULT false, fetched timestamptz);"
    "CREATE TABLE partitions(job text NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,"
    " idx int NOT NULL, key text NOT NULL, priority int NOT NULL, seq bigint NOT NULL,"
    " state text NOT NULL DEFAULT 'queued', lease_owner text, lease_expiry timestamptz,"
    " attempt int NOT NULL DEFAULT 0, payload_kind text NOT NULL, payload bytea, payload_path text,"
    " payload_bytes bigint NOT NULL, PRIMARY KEY(job, idx));"
    "CREATE INDEX partitions_claim ON partitions(state, priority DESC, seq, idx);"
    "CREATE INDEX partitions_owner ON partitions(lease_owner);"
    "CREATE TABLE results(job text NOT NULL, idx int NOT NULL, host text NOT NULL,"
    " attempt int NOT NULL, ok boolean NOT NULL, proof text, public text, error text,"
    " timings text, finished timestamptz NOT NULL DEFAULT now(), PRIMARY KEY(job, idx),"
    " FOREIGN KEY(job, idx) REFERENCES partitions(job, idx) ON DELETE CASCADE);",
    /* 2: the circuit bound to its bytes as the key is (NULL in a key
     * registered before: such a key's circuit is refused until it is
     * registered again) */
    "ALTER TABLE keys ADD COLUMN wasm_sha256 text;",
};
_Static_assert(sizeof k_migrations / sizeof *k_migrations == D_PGQ_SCHEMA,
               "one migration per schema version");

static void errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    /* libpq's messages run over lines (DETAIL, HINT): one line is kept */
    char *nl = strchr(err, '\n');
    if (nl) *nl = 0;
}

int d_pgq_url_ok(const char *url, char *err, size_t errlen)
{
    if (strncmp(url, "postgresql://", 13) && strncmp(url, "postgres://", 11)) {
        errf(err, errlen, "--queue: expected a postgresql:// URL");
        return G16_ERR_ARG;
    }
    char *msg = NULL;
    PQconninfoOption *opts = PQconninfoParse(url, &msg);
    if (!opts) {
        errf(err, errlen, "--queue: %s", msg ? msg : "out of memory");
        PQfreemem(msg);
        return G16_ERR_ARG;
    }
    int rc = G16_OK;
    for (PQconninfoOption *o = opts; o->keyword; o++)
        if (!strcmp(o->keyword, "password") && o->val && o->val[0]) {
            errf(err, errlen,
                 "--queue: the URL carries a password, which any user can read in ps: leave it "
                 "out and use ~/.pgpass, PGPASSFILE or PGPASSWORD");
            rc = G16_ERR_ARG;
        }
    PQconninfoFree(opts);
    return rc;
}

/* ROLLBACK outside a transaction is a notice, and so are other harmless
 * remarks: none of them belongs in the daemon's log. */
static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* One statement with text parameters (bytea ones binary, by fmts), its
 * result when it ended as want, else NULL with err (and q->retry when
 * trying again may pass). */
static PGresult *exec_fmt(d_pgq *q, const char *sql, int n, const char *const *vals,
                          const int *lens, const int *fmts, int binary_out, ExecStatusType want,
                          char *err, size_t errlen)
{
    PGresult *r = PQexecParams(q->conn, sql, n, NULL, vals, lens, fmts, binary_out);
    if (r && PQresultStatus(r) == want) return r;
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    errf(err, errlen, "queue: %s", msg ? msg : PQerrorMessage(q->conn));
    /* a lost connection (libpq's own errors carry no SQLSTATE; class 08;
     * the server shutting down, 57P0x): reset it and try again */
    if (PQstatus(q->conn) != CONNECTION_OK || !state || !strncmp(state, "08", 2) ||
        !strncmp(state, "57P0", 4))
        q->retry = RETRY_RESET;
    /* serialization failure, deadlock, and the races of two hosts
     * migrating at once (duplicate row, table or type) */
    else if (!strcmp(state, "40001") || !strcmp(state, "40P01") || !strcmp(state, "23505") ||
             !strcmp(state, "42P07") || !strcmp(state, "42710"))
        q->retry = RETRY_AGAIN;
    PQclear(r);
    return NULL;
}

static PGresult *exec(d_pgq *q, const char *sql, int n, const char *const *vals,
                      ExecStatusType want, char *err, size_t errlen)
{
    return exec_fmt(q, sql, n, vals, NULL, NULL, 0, want, err, errlen);
}

/* A statement whose rows do not matter: G16_OK or G16_ERR_IO. */
static int run(d_pgq *q, const char *sql, int n, const char *const *vals, char *err, size_t errlen)
{
    PGresult *r = exec(q, sql, n, vals, PGRES_COMMAND_OK, err, errlen);
    PQclear(r);
    return r ? G16_OK : G16_ERR_IO;
}

static int begin(d_pgq *q, char *err, size_t errlen)
{
    return run(q, "BEGIN", 0, NULL, err, errlen);
}

static int commit(d_pgq *q, int rc, char *err, size_t errlen)
{
    if (rc == G16_OK) return run(q, "COMMIT", 0, NULL, err, errlen);
    PQclear(PQexec(q->conn, "ROLLBACK"));
    return rc;
}

typedef int (*pgq_fn)(d_pgq *q, void *arg, char *err, size_t errlen);

/* fn under the lock, again (after a reset when the connection broke, and
 * a growing pause: a restarting server takes a moment) while its failure
 * may pass. */
static int call(d_pgq *q, pgq_fn fn, void *arg, char *err, size_t errlen)
{
    int rc;
    pthread_mutex_lock(&q->mu);
    for (int i = 0;; i++) {
        q->retry = RETRY_NO;
        rc = fn(q, arg, err, errlen);
        if (rc == G16_OK || !q->retry || i + 1 == ATTEMPTS) break;
        struct timespec ts = {0, (long)(50 * 1000 * 1000) << i};
        if (ts.tv_nsec >= 1000000000L) ts = (struct timespec){1, 0};
        nanosleep(&ts, NULL);
        if (q->retry == RETRY_RESET) {
            PQreset(q->conn);
            if (q->listening) PQclear(PQexec(q->conn, "LISTEN " CHANNEL));
        }
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}

/* ---- schema ---- */

static int schema_version(d_pgq *q, int *v, char *err, size_t errlen)
{
    PGresult *r = exec(q, "SELECT coalesce(max(version), 0) FROM schema_version", 0, NULL,
                       PGRES_TUPLES_OK, err, errlen);
    if (!r) return G16_ERR_IO;
    *v = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return G16_OK;
}

static int apply(d_pgq *q, int v, char *err, size_t errlen)
{
    char num[16];
    snprintf(num, sizeof num, "%d", v + 1);
    const char *vals[] = {num};
    int rc = begin(q, err, errlen);
    if (rc) return rc;
    rc = run(q, "INSERT INTO schema_version(version) VALUES($1::int)", 1, vals, err, errlen);
    if (!rc) {
        PGresult *r = PQexec(q->conn, k_migrations[v]);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            errf(err, errlen, "queue: schema migration %d: %s", v + 1, PQresultErrorMessage(r));
            q->retry = PQstatus(q->conn) != CONNECTION_OK ? RETRY_RESET : RETRY_NO;
            rc = G16_ERR_IO;
        }
        PQclear(r);
    }
    return commit(q, rc, err, errlen);
}

static int migrate(d_pgq *q, void *arg, char *err, size_t errlen)
{
    (void)arg;
    int v = 0;
    int rc = run(q,
                 "CREATE TABLE IF NOT EXISTS schema_version(version int PRIMARY KEY,"
                 " applied timestamptz NOT NULL DEFAULT now())",
                 0, NULL, err, errlen);
    if (!rc) rc = schema_version(q, &v, err, errlen);
    if (!rc && v > D_PGQ_SCHEMA) {
        errf(err, errlen,
             "queue: the database's schema is version %d, newer than this g16d's (%d): "
             "upgrade g16d",
             v, D_PGQ_SCHEMA);
        return G16_ERR_UNSUPPORTED;
    }
    for (; !rc && v < D_PGQ_SCHEMA; v++) rc = apply(q, v, err, errlen);
    return rc;
}

static int hello(d_pgq *q, void *arg, char *err, size_t errlen)
{
    (void)arg;
    const char *vals[] = {q->host};
    return run(q,
               "INSERT INTO hosts(id) VALUES($1) ON CONFLICT (id) DO UPDATE SET"
               " started = now(), heartbeat = now()",
               1, vals, err, errlen);
}

d_pgq *d_pgq_open(const char *url, const char *host, char *err, size_t errlen)
{
    if (d_pgq_url_ok(url, err, errlen)) return NULL;
    d_pgq *q = calloc(1, sizeof *q);
    if (!q) {
        errf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&q->mu, NULL);
    snprintf(q->host, sizeof q->host, "%s", host);
    /* named in pg_stat_activity (unless the URL names itself otherwise) */
    const char *const keys[] = {"dbname", "fallback_application_name", NULL};
    const char *const vals[] = {url, "g16d", NULL};
    q->conn = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(q->conn) != CONNECTION_OK) {
        errf(err, errlen, "queue: %s", PQerrorMessage(q->conn));
        d_pgq_close(q);
        return NULL;
    }
    PQsetNoticeProcessor(q->conn, quiet, NULL);
    if (call(q, migrate, NULL, err, errlen) || call(q, hello, NULL, err, errlen)) {
        d_pgq_close(q);
        return NULL;
    }
    return q;
}

void d_pgq_close(d_pgq *q)
{
    if (!q) return;
    PQfinish(q->conn);
    pthread_mutex_destroy(&q->mu);
    free(q);
}

const char *d_pgq_host(const d_pgq *q) { return q->host; }

/* ---- keys ---- */

typedef struct {
    const char *name;
    const d_pgq_key *in;
    d_pgq_key *out;
} key_args;

static int key_put(d_pgq *q, void *arg, char *err, size_t errlen)
{
    key_args *a = arg;
    char size[24];
    snprintf(size, sizeof size, "%lld", (long long)a->in->size);
    const char *vals[] = {a->name,
                          size,
                          a->in->sha256,
                          a->in->path,
                          a->in->wasm[0] ? a->in->wasm : NULL,
                          a->in->wasm[0] ? a->in->wasm_sha256 : NULL};
    return run(q,
               "INSERT INTO keys(name, size, sha256, path, wasm, wasm_sha256)"
               " VALUES($1, $2::bigint, $3, $4, $5, $6)"
               " ON CONFLICT (name) DO UPDATE SET size = EXCLUDED.size, sha256 = EXCLUDED.sha256,"
               " path = EXCLUDED.path, wasm = EXCLUDED.wasm, wasm_sha256 = EXCLUDED.wasm_sha256,"
               " registered = now()",
               6, vals, err, errlen);
}

static int key_get(d_pgq *q, void *arg, char *err, size_t errlen)
{
    key_args *a = arg;
    const char *vals[] = {a->name};
    PGresult *r = exec(q,
                       "SELECT size, sha256, path, coalesce(wasm, ''), coalesce(wasm_sha256, '')"
                       " FROM keys WHERE name = $1",
                       1, vals, PGRES_TUPLES_OK, err, errlen);
    if (!r) return G16_ERR_IO;
    int rc = G16_OK;
    if (PQntuples(r) != 1) {
        errf(err, errlen, "no key named '%s' in the fleet (register it with POST /v1/keys)",
             a->name);
        rc = G16_ERR_NOT_FOUND;
    } else {
        a->out->size = atoll(PQgetvalue(r, 0, 0));
        snprintf(a->out->sha256, sizeof a->out->sha256, "%s", PQgetvalue(r, 0, 1));
        snprintf(a->out->path, sizeof a->out->path, "%s", PQgetvalue(r, 0, 2));
        snprintf(a->out->wasm, sizeof a->out->wasm, "%s", PQgetvalue(r, 0, 3));
        snprintf(a->out->wasm_sha256, sizeof a->out->wasm_sha256, "%s", PQgetvalue(r, 0, 4));
    }
    PQclear(r);
    return rc;
}

static int key_delete(d_pgq *q, void *arg, char *err, size_t errlen)
{
    key_args *a = arg;
    const char *vals[] = {a->name};
    return run(q, "DELETE FROM keys WHERE name = $1", 1, vals, err, errlen);
}

int d_pgq_key_put(d_pgq *q, const char *name, const d_pgq_key *k, char *err, size_t errlen)
{
    key_args a = {name, k, NULL};
    return call(q, key_put, &a, err, errlen);
}

int d_pgq_key_get(d_pgq *q, const char *name, d_pgq_key *k, char *err, size_t errlen)
{
    key_args a = {name, NULL, k};
    return call(q, key_get, &a, err, errlen);
}

int d_pgq_key_delete(d_pgq *q, const char *name, char *err, size_t errlen)
{
    key_args a = {name, NULL, NULL};
    return call(q, key_delete, &a, err, errlen);
}

/* ---- submission ---- */

typedef struct {
    const char *id, *key;
    int priority, n;
    const d_pgq_payload *parts;
} submit_args;

static int insert_part(d_pgq *q, const submit_args *a, const char *seq, int i, char *err,
                       size_t errlen)
{
    const d_pgq_payload *p = &a->parts[i];
    char idx[16], prio[16], bytes[24];
    snprintf(idx, sizeof idx, "%d", i);
    snprintf(prio, sizeof prio, "%d", a->priority);
    snprintf(bytes, sizeof bytes, "%zu", p->len);
    const char *vals[] = {a->id,
                          idx,
                          a->key,
                          prio,
                          seq,
                          (const char *)p->data,
                          p->data ? NULL : p->path,
                          bytes,
                          p->kind ? p->kind : "wtns"};
    int lens[] = {0, 0, 0, 0, 0, (int)p->len, 0, 0, 0};
    int fmts[] = {0, 0, 0, 0, 0, 1, 0, 0, 0};
    PGresult *r = exec_fmt(q,
                           "INSERT INTO partitions(job, idx, key, priority, seq, payload,"
                           " payload_path, payload_bytes, payload_kind) VALUES($1, $2::int, $3,"
                           " $4::int, $5::bigint, $6::bytea, $7, $8::bigint, $9)",
                           9, vals, lens, fmts, 0, PGRES_COMMAND_OK, err, errlen);
    PQclear(r);
    return r ? G16_OK : G16_ERR_IO;
}

static int submit(d_pgq *q, void *arg, char *err, size_t errlen)
{
    submit_args *a = arg;
    char prio[16], n[16];
    snprintf(prio, sizeof prio, "%d", a->priority);
    snprintf(n, sizeof n, "%d", a->n);
    const char *vals[] = {a->id, a->key, prio, n, q->host};
    int rc = begin(q, err, errlen);
    if (rc) return rc;
    PGresult *r = exec(q,
                       "INSERT INTO jobs(id, key, priority, nparts, submitted_by)"
                       " VALUES($1, $2, $3::int, $4::int, $5) RETURNING seq",
                       5, vals, PGRES_TUPLES_OK, err, errlen);
    rc = r ? G16_OK : G16_ERR_IO;
    for (int i = 0; !rc && i < a->n; i++)
        rc = insert_part(q, a, PQgetvalue(r, 0, 0), i, err, errlen);
    PQclear(r);
    return commit(q, rc, err, errlen);
}

/* Tells the listening hosts that there is work, once it is committed.
 * Best effort: a host that misses it polls; a database without NOTIFY
 * (feature not supported) is not asked again. */
static void notify(d_pgq *q)
{
    pthread_mutex_lock(&q->mu);
    if (!q->no_notify) {
        PGresult *r = PQexec(q->conn, "NOTIFY " CHANNEL);
        const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
        if (state && !strcmp(state, "0A000")) q->no_notify = 1;
        PQclear(r);
    }
    pthread_mutex_unlock(&q->mu);
}

int d_pgq_submit(d_pgq *q, const char *id, const char *key, int priority,
                 const d_pgq_payload *parts, int n, char *err, size_t errlen)
{
    submit_args a = {id, key, priority, n, parts};
    int rc = call(q, submit, &a, err, errlen);
    if (!rc) notify(q);
    return rc;
}

static int listen_fn(d_pgq *q, void *arg, char *err, size_t errlen)
{
    (void)arg;
    return run(q, "LISTEN " CHANNEL, 0, NULL, err, errlen);
}

int d_pgq_listen(d_pgq *q, char *err, size_t errlen)
{
    int rc = call(q, listen_fn, NULL, err, errlen);
    pthread_mutex_lock(&q->mu);
    q->listening = rc == G16_OK;
    pthread_mutex_unlock(&q->mu);
    return rc;
}

/* Whether a notice has come (read from the socket, all of them taken).
 * q->mu held. */
static int notices(d_pgq *q)
{
    int n = 0;
    PGnotify *nf;
    if (!PQconsumeInput(q->conn)) return 0; /* the next call resets the connection */
    while ((nf = PQnotifies(q->conn))) {
        n++;
        PQfreemem(nf);
    }
    return n > 0;
}

int d_pgq_wait(d_pgq *q, double timeout_s, int wake_fd)
{
    int got = 0;
    pthread_mutex_lock(&q->mu);
    if (q->listening && !(got = notices(q))) {
        /* a broken connection (closed, or at its end) would answer poll at
         * once, over and over: then wake_fd alone, until the next call
         * resets it */
        int fd = PQstatus(q->conn) == CONNECTION_OK ? PQsocket(q->conn) : -1;
        struct pollfd p[2] = {{wake_fd, POLLIN, 0}, {fd, POLLIN, 0}};
        if (poll(p, 2, (int)(timeout_s * 1e3)) > 0 && p[1].revents) got = notices(q);
    }
    pthread_mutex_unlock(&q->mu);
    return got;
}

/* ---- claims and leases ---- */

/* keys[0..n) as a PostgreSQL array literal, each element quoted. */
static char *text_array(const char *const *keys, int n)
{
    size_t len = 3;
    for (int i = 0; i < n; i++) len += 2 * strlen(keys[i]) + 3;
    char *s = malloc(len), *o = s;
    if (!s) return NULL;
    *o++ = '{';
    for (int i = 0; i < n; i++) {
        if (i) *o++ = ',';
        *o++ = '"';
        for (const char *c = keys[i]; *c; c++) {
            if (*c == '"' || *c == '\\') *o++ = '\\';
            *o++ = *c;
        }
        *o++ = '"';
    }
    *o++ = '}';
    *o = 0;
    return s;
}

typedef struct {
    const char *const *keys;
    int nkeys, max;
    double lease_s;
    d_pgq_lease *out;
    int n;
} claim_args;

static int32_t be32(const PGresult *r, int row, int col)
{
    uint32_t v;
    memcpy(&v, PQgetvalue(r, row, col), 4);
    return (int32_t)be32toh(v);
}

static int64_t be64(const PGresult *r, int row, int col)
{
    uint64_t v;
    memcpy(&v, PQgetvalue(r, row, col), 8);
    return (int64_t)be64toh(v);
}

/* One row of the claim (binary columns) into c. */
static int claimed(const PGresult *r, int row, d_pgq_lease *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->job, sizeof c->job, "%s", PQgetvalue(r, row, 0));
    c->idx = be32(r, row, 1);
    snprintf(c->key, sizeof c->key, "%s", PQgetvalue(r, row, 2));
    c->priority = be32(r, row, 3);
    c->seq = be64(r, row, 4);
    c->attempt = be32(r, row, 5);
    c->bytes = be64(r, row, 8);
    snprintf(c->kind, sizeof c->kind, "%s", PQgetvalue(r, row, 9));
    if (!PQgetisnull(r, row, 6)) {
        c->payload_len = (size_t)PQgetlength(r, row, 6);
        if (!(c->payload = malloc(c->payload_len ? c->payload_len : 1))) return -1;
        memcpy(c->payload, PQgetvalue(r, row, 6), c->payload_len);
    } else if (!PQgetisnull(r, row, 7) && !(c->path = strdup(PQgetvalue(r, row, 7))))
        return -1;
    return 0;
}

static int claim_order(const void *a, const void *b)
{
    const d_pgq_lease *x = a, *y = b;
    if (x->priority != y->priority) return x->priority > y->priority ? -1 : 1;
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static int claim(d_pgq *q, void *arg, char *err, size_t errlen)
{
    claim_args *a = arg;
    char lease[32], max[16];
    snprintf(lease, sizeof lease, "%.3f", a->lease_s);
    snprintf(max, sizeof max, "%d", a->max);
    char *keys = a->nkeys ? text_array(a->keys, a->nkeys) : NULL;
    const char *vals[] = {q->host, lease, keys, max};
    PGresult *r =
        exec_fmt(q,
                 "WITH c AS (SELECT job, idx FROM partitions"
                 " WHERE (state = 'queued' OR (state = 'running' AND lease_expiry < now()))"
                 " AND ($3::text[] IS NULL OR key = ANY($3::text[]))"
                 " ORDER BY priority DESC, seq, idx LIMIT $4::int FOR UPDATE SKIP LOCKED)"
                 " UPDATE partitions p SET state = 'running', lease_owner = $1,"
                 " lease_expiry = now() + $2::float8 * interval '1 second', attempt = p.attempt + 1"
                 " FROM c WHERE p.job = c.job AND p.idx = c.idx"
                 " RETURNING p.job, p.idx, p.key, p.priority, p.seq, p.attempt, p.payload,"
                 " p.payload_path, p.payload_bytes, p.payload_kind",
                 4, vals, NULL, NULL, 1, PGRES_TUPLES_OK, err, errlen);
    free(keys);
    if (!r) return G16_ERR_IO;
    int rows = PQntuples(r), rc = G16_OK;
    for (a->n = 0; a->n < rows && a->n < a->max; a->n++)
        if (claimed(r, a->n, &a->out[a->n])) {
            /* the leases lapse by themselves: nothing to undo */
            errf(err, errlen, "out of memory");
            rc = G16_ERR_NOMEM;
            break;
        }
    PQclear(r);
    if (rc)
        for (int i = 0; i <= a->n && i < rows; i++) d_pgq_lease_free(&a->out[i]);
    qsort(a->out, (size_t)(rc ? 0 : a->n), sizeof *a->out, claim_order);
    return rc;
}

int d_pgq_claim(d_pgq *q, const char *const *keys, int nkeys, int max, double lease_s,
                d_pgq_lease *out, int *n, char *err, size_t errlen)
{
    claim_args a = {keys, nkeys, max, lease_s, out, 0};
    *n = 0;
    if (max <= 0) return G16_OK;
    int rc = call(q, claim, &a, err, errlen);
    *n = rc ? 0 : a.n;
    return rc;
}

void d_pgq_lease_free(d_pgq_lease *c)
{
    free(c->payload);
    free(c->path);
    c->payload = NULL;
    c->path = NULL;
}

typedef struct {
    double lease_s;
    const char *info;
    const char *const *held;
    int nheld, renewed;
} beat_args;

void d_pgq_lease_id(const d_pgq_lease *l, char out[D_PGQ_LEASE_ID])
{
    snprintf(out, D_PGQ_LEASE_ID, "%s/%d/%d", l->job, l->idx, l->attempt);
}

static int heartbeat(d_pgq *q, void *arg, char *err, size_t errlen)
{
    beat_args *a = arg;
    char lease[32];
    snprintf(lease, sizeof lease, "%.3f", a->lease_s);
    const char *host[] = {q->host, a->info ? a->info : "{}"};
    int rc = run(q,
                 "INSERT INTO hosts(id, info) VALUES($1, $2) ON CONFLICT (id) DO UPDATE SET"
                 " heartbeat = now(), info = EXCLUDED.info",
                 2, host, err, errlen);
    if (rc || !a->nheld) return rc;
    char *held = text_array(a->held, a->nheld);
    const char *vals[] = {q->host, lease, held};
    PGresult *r = held ? exec(q,
                              "UPDATE partitions SET lease_expiry = now() + $2::float8 * interval"
                              " '1 second' WHERE lease_owner = $1 AND state = 'running'"
                              " AND lease_expiry > now() AND job || '/' || idx::text || '/' ||"
                              " attempt::text = ANY($3::text[])",
                              3, vals, PGRES_COMMAND_OK, err, errlen)
                       : NULL;
    free(held);
    if (!r) return G16_ERR_IO;
    a->renewed = atoi(PQcmdTuples(r));
    PQclear(r);
    return G16_OK;
}

int d_pgq_heartbeat(d_pgq *q, double lease_s, const char *info, const char *const *held, int nheld,
                    int *renewed, char *err, size_t errlen)
{
    beat_args a = {lease_s, info, held, nheld, 0};
    int rc = call(q, heartbeat, &a, err, errlen);
    if (renewed) *renewed = a.renewed;
    return rc;
}

/* The lease's identity as parameters: job, idx, host, attempt. */
typedef struct {
    char idx[16], attempt[16];
    const char *vals[4];
} lease_params;

static void lease_of(const d_pgq *q, const d_pgq_lease *c, lease_params *l)
{
    snprintf(l->idx, sizeof l->idx, "%d", c->idx);
    snprintf(l->attempt, sizeof l->attempt, "%d", c->attempt);
    l->vals[0] = c->job;
    l->vals[1] = l->idx;
    l->vals[2] = q->host;
    l->vals[3] = l->attempt;
}

#define LEASE_HELD                                                                                 \
    "job = $1 AND idx = $2::int AND lease_owner = $3 AND attempt = $4::int AND state = "           \
    "'running' AND lease_expiry > now()"

typedef struct {
    const d_pgq_lease *c;
    int held;
} held_args;

static int held(d_pgq *q, void *arg, char *err, size_t errlen)
{
    held_args *a = arg;
    lease_params l;
    lease_of(q, a->c, &l);
    PGresult *r = exec(q, "SELECT 1 FROM partitions WHERE " LEASE_HELD, 4, l.vals, PGRES_TUPLES_OK,
                       err, errlen);
    if (!r) return G16_ERR_IO;
    a->held = PQntuples(r) == 1;
    PQclear(r);
    return G16_OK;
}

int d_pgq_lease_held(d_pgq *q, const d_pgq_lease *c)
{
    char err[256];
    held_args a = {c, 0};
    return call(q, held, &a, err, sizeof err) ? -1 : a.held;
}

static int release(d_pgq *q, void *arg, char *err, size_t errlen)
{
    lease_params l;
    lease_of(q, arg, &l);
    return run(q,
               "UPDATE partitions SET state = 'queued', lease_owner = NULL, lease_expiry = NULL"
               " WHERE " LEASE_HELD,
               4, l.vals, err, errlen);
}

int d_pgq_release(d_pgq *q, const d_pgq_lease *c, char *err, size_t errlen)
{
    int rc = call(q, release, (void *)c, err, errlen);
    if (!rc) notify(q);
    return rc;
}

static int purge(d_pgq *q, void *arg, char *err, size_t errlen)
{
    char ttl[32];
    snprintf(ttl, sizeof ttl, "%.3f", *(const double *)arg);
    const char *vals[] = {ttl};
    return run(q,
               "DELETE FROM jobs j WHERE j.created < now() - $1::float8 * interval '1 second'"
               " AND NOT EXISTS (SELECT 1 FROM partitions p WHERE p.job = j.id"
               " AND p.state IN ('queued', 'running'))"
               " AND coalesce((SELECT max(r.finished) FROM results r WHERE r.job = j.id),"
               " j.created) < now() - $1::float8 * interval '1 second'",
               1, vals, err, errlen);
}

int d_pgq_purge(d_pgq *q, double ttl_s, char *err, size_t errlen)
{
    return call(q, purge, &ttl_s, err, errlen);
}

typedef struct {
    const d_pgq_lease *c;
    int ok;
    const char *proof, *pub, *error, *timings;
    int accepted;
} result_args;

/* The partition was not ours (any more): unless the result is already
 * there from this very lease (a retry after a commit whose answer the
 * broken connection lost), it is discarded. */
static int already_recorded(d_pgq *q, const lease_params *l, int *yes, char *err, size_t errlen)
{
    PGresult *r = exec(q,
                       "SELECT 1 FROM results WHERE job = $1 AND idx = $2::int AND host = $3"
                       " AND attempt = $4::int",
                       4, l->vals, PGRES_TUPLES_OK, err, errlen);
    if (!r) return G16_ERR_IO;
    *yes = PQntuples(r) == 1;
    PQclear(r);
    return G16_OK;
}

static int record(d_pgq *q, result_args *a, const lease_params *l, char *err, size_t errlen)
{
    const char *vals[] = {l->vals[0], l->vals[1], l->vals[2], l->vals[3], a->ok ? "t" : "f",
                          a->proof,   a->pub,     a->error,   a->timings};
    return run(q,
               "INSERT INTO results(job, idx, host, attempt, ok, proof, public, error, timings)"
               " VALUES($1, $2::int, $3, $4::int, $5::boolean, $6, $7, $8, $9)",
               9, vals, err, errlen);
}

static int result(d_pgq *q, void *arg, char *err, size_t errlen)
{
    result_args *a = arg;
    lease_params l;
    lease_of(q, a->c, &l);
    const char *vals[] = {l.vals[0], l.vals[1], l.vals[2], l.vals[3], a->ok ? "done" : "failed"};
    int rc = begin(q, err, errlen);
    if (rc) return rc;
    PGresult *r = exec(q,
                       "UPDATE partitions SET state = $5, lease_owner = NULL, lease_expiry = NULL,"
                       " payload = NULL WHERE " LEASE_HELD,
                       5, vals, PGRES_COMMAND_OK, err, errlen);
    rc = r ? G16_OK : G16_ERR_IO;
    a->accepted = r && !strcmp(PQcmdTuples(r), "1");
    PQclear(r);
    if (!rc && a->accepted) rc = record(q, a, &l, err, errlen);
    if (!rc && !a->accepted) rc = already_recorded(q, &l, &a->accepted, err, errlen);
    return commit(q, rc, err, errlen);
}

int d_pgq_result(d_pgq *q, const d_pgq_lease *c, int ok, const char *proof, const char *pub,
                 const char *error, const char *timings, int *accepted, char *err, size_t errlen)
{
    result_args a = {c, ok, proof, pub, error, timings, 0};
    int rc = call(q, result, &a, err, errlen);
    *accepted = rc ? 0 : a.accepted;
    return rc;
}

typedef struct {
    int64_t queued, running;
} depth_args;

static int depth(d_pgq *q, void *arg, char *err, size_t errlen)
{
    depth_args *a = arg;
    PGresult *r = exec(q,
                       "SELECT count(*) FILTER (WHERE state = 'queued' OR lease_expiry <= now()),"
                       " count(*) FILTER (WHERE state = 'running' AND lease_expiry > now())"
                       " FROM partitions WHERE state IN ('queued', 'running')",
                       0, NULL, PGRES_TUPLES_OK, err, errlen);
    if (!r) return G16_ERR_IO;
    a->queued = atoll(PQgetvalue(r, 0, 0));
    a->running = atoll(PQgetvalue(r, 0, 1));
    PQclear(r);
    return G16_OK;
}

int d_pgq_depth(d_pgq *q, int64_t *queued, int64_t *running, char *err, size_t errlen)
{
    depth_args a = {0, 0};
    int rc = call(q, depth, &a, err, errlen);
    *queued = a.queued;
    *running = a.running;
    return rc;
}

/* ---- what clients and operators read ---- */

typedef struct {
    const char *const *skip;
    int nskip;
    char *key;
} head_args;

static int head_key(d_pgq *q, void *arg, char *err, size_t errlen)
{
    head_args *a = arg;
    char *skip = a->nskip ? text_array(a->skip, a->nskip) : NULL;
    const char *vals[] = {skip};
    PGresult *r = exec(q,
                       "SELECT key FROM partitions"
                       " WHERE (state = 'queued' OR (state = 'running' AND lease_expiry < now()))"
                       " AND NOT ($1::text[] IS NOT NULL AND key = ANY($1::text[]))"
                       " ORDER BY priority DESC, seq, idx LIMIT 1",
                       1, vals, PGRES_TUPLES_OK, err, errlen);
    free(skip);
    if (!r) return G16_ERR_IO;
    snprintf(a->key, 128, "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return G16_OK;
}

int d_pgq_head_key(d_pgq *q, const char *const *skip, int nskip, char key[128], char *err,
                   size_t errlen)
{
    head_args a = {skip, nskip, key};
    key[0] = 0;
    return call(q, head_key, &a, err, errlen);
}

typedef struct {
    const char *id;
    d_job_view *v;
} job_args;

static char *col_or_null(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : strdup(PQgetvalue(r, row, col));
}

/* Columns of the job query: 0 key, 1 priority, 2 created, 3 cancelled,
 * 4 idx, 5 state, 6 error, 7 timings, 8 proof, 9 public, 10 finished.
 * The job finished when its last result did. */
static int job_fill(const PGresult *r, const char *id, d_job_view *v)
{
    int n = PQntuples(r);
    if (d_job_view_alloc(v, n)) return -1;
    snprintf(v->id, sizeof v->id, "%s", id);
    snprintf(v->key, sizeof v->key, "%s", PQgetvalue(r, 0, 0));
    v->priority = atoi(PQgetvalue(r, 0, 1));
    v->created = atof(PQgetvalue(r, 0, 2));
    v->cancelled = !strcmp(PQgetvalue(r, 0, 3), "t");
    v->finished = 0;
    for (int i = 0; i < n; i++) {
        d_part_view *p = &v->parts[i];
        p->idx = atoi(PQgetvalue(r, i, 4));
        snprintf(p->state, sizeof p->state, "%s", PQgetvalue(r, i, 5));
        p->error = col_or_null(r, i, 6);
        p->timings = col_or_null(r, i, 7);
        p->proof = col_or_null(r, i, 8);
        p->pub = col_or_null(r, i, 9);
        if (!PQgetisnull(r, i, 10) && atof(PQgetvalue(r, i, 10)) > v->finished)
            v->finished = atof(PQgetvalue(r, i, 10));
    }
    return 0;
}

static int job_get(d_pgq *q, void *arg, char *err, size_t errlen)
{
    job_args *a = arg;
    const char *vals[] = {a->id};
    PGresult *r = exec(q,
                       "SELECT j.key, j.priority, extract(epoch FROM j.created), j.cancelled,"
                       " p.idx, p.state, r.error, r.timings, r.proof, r.public,"
                       " extract(epoch FROM r.finished)"
                       " FROM jobs j JOIN partitions p ON p.job = j.id"
                       " LEFT JOIN results r ON r.job = p.job AND r.idx = p.idx"
                       " WHERE j.id = $1 ORDER BY p.idx",
                       1, vals, PGRES_TUPLES_OK, err, errlen);
    if (!r) return G16_ERR_IO;
    int rc = G16_OK;
    d_job_view_free(a->v); /* a retried call starts afresh */
    if (!PQntuples(r)) {
        errf(err, errlen, "no job %s (unknown, or its results expired)", a->id);
        rc = G16_ERR_NOT_FOUND;
    } else if (job_fill(r, a->id, a->v)) {
        errf(err, errlen, "out of memory");
        rc = G16_ERR_NOMEM;
    }
    PQclear(r);
    return rc;
}

int d_pgq_job_view(d_pgq *q, const char *id, d_job_view *v, char *err, size_t errlen)
{
    job_args a = {id, v};
    *v = (d_job_view){0};
    int rc = call(q, job_get, &a, err, errlen);
    if (rc) d_job_view_free(v);
    return rc;
}

/* Columns: 0 id, 1 key, 2 priority, 3 cancelled, 4 partitions, 5 final,
 * 6 failed, 7 started, 8 done, 9 submitted_by. */
static void job_row(const PGresult *r, int i, d_job_row *o)
{
    snprintf(o->id, sizeof o->id, "%s", PQgetvalue(r, i, 0));
    snprintf(o->key, sizeof o->key, "%s", PQgetvalue(r, i, 1));
    o->priority = atoi(PQgetvalue(r, i, 2));
    o->cancelled = !strcmp(PQgetvalue(r, i, 3), "t");
    o->nparts = atoi(PQgetvalue(r, i, 4));
    o->nfinal = atoi(PQgetvalue(r, i, 5));
    o->nfailed = atoi(PQgetvalue(r, i, 6));
    o->nstarted = atoi(PQgetvalue(r, i, 7));
    o->ndone = atoi(PQgetvalue(r, i, 8));
    snprintf(o->submitted_by, sizeof o->submitted_by, "%s", PQgetvalue(r, i, 9));
}

static int jobs_list(d_pgq *q, void *arg, char *err, size_t errlen)
{
    d_job_list *l = arg;
    PGresult *r = exec(q,
                       "SELECT j.id, j.key, j.priority, j.cancelled, count(*),"
                       " count(*) FILTER (WHERE p.state IN ('done', 'failed', 'cancelled')),"
                       " count(*) FILTER (WHERE p.state = 'failed'),"
                       " count(*) FILTER (WHERE p.state <> 'queued'),"
                       " count(*) FILTER (WHERE p.state = 'done'), coalesce(j.submitted_by, '')"
                       " FROM jobs j JOIN partitions p ON p.job = j.id"
                       " GROUP BY j.id ORDER BY j.seq",
                       0, NULL, PGRES_TUPLES_OK, err, errlen);
    if (!r) return G16_ERR_IO;
    d_job_list_free(l);
    int n = PQntuples(r);
    if (!(l->rows = calloc(n > 0 ? (size_t)n : 1, sizeof *l->rows))) {
        PQclear(r);
        errf(err, errlen, "out of memory");
        return G16_ERR_NOMEM;
    }
    for (l->n = 0; l->n < n; l->n++) job_row(r, l->n, &l->rows[l->n]);
    PQclear(r);
    return G16_OK;
}

int d_pgq_jobs_view(d_pgq *q, d_job_list *l, char *err, size_t errlen)
{
    *l = (d_job_list){0};
    return call(q, jobs_list, l, err, errlen);
}

static int cancel(d_pgq *q, void *arg, char *err, size_t errlen)
{
    const char *vals[] = {arg};
    int rc = begin(q, err, errlen);
    if (rc) return rc;
    PGresult *r = exec(q, "UPDATE jobs SET cancelled = true WHERE id = $1", 1, vals,
                       PGRES_COMMAND_OK, err, errlen);
    rc = !r ? G16_ERR_IO : strcmp(PQcmdTuples(r), "1") ? G16_ERR_NOT_FOUND : G16_OK;
    if (rc == G16_ERR_NOT_FOUND) errf(err, errlen, "no job %s", (const char *)arg);
    PQclear(r);
    if (!rc) {
        r = exec(q,
                 "UPDATE partitions SET state = 'cancelled', lease_owner = NULL,"
                 " lease_expiry = NULL WHERE job = $1 AND state IN ('queued', 'running')",
                 1, vals, PGRES_COMMAND_OK, err, errlen);
        rc = !r ? G16_ERR_IO : strcmp(PQcmdTuples(r), "0") ? G16_OK : D_PGQ_FINAL;
        if (rc == D_PGQ_FINAL) errf(err, errlen, "job %s has already finished", (const char *)arg);
        PQclear(r);
    }
    return commit(q, rc, err, errlen);
}

int d_pgq_cancel(d_pgq *q, const char *id, char *err, size_t errlen)
{
    return call(q, cancel, (void *)id, err, errlen);
}

/* Columns: 0 id, 1 started, 2 heartbeat, 3 age, 4 info, 5 leases. */
typedef json_t *(*row_json_fn)(const PGresult *r, int row);

/* The rows of a query without parameters, each as fn makes it, as a JSON
 * array in text (malloc'd) into *out. */
static int rows_json(d_pgq *q, const char *sql, row_json_fn fn, char **out, char *err,
                     size_t errlen)
{
    PGresult *r = exec(q, sql, 0, NULL, PGRES_TUPLES_OK, err, errlen);
    if (!r) return G16_ERR_IO;
    json_t *a = json_array();
    for (int i = 0; i < PQntuples(r); i++) json_array_append_new(a, fn(r, i));
    PQclear(r);
    *out = json_dumps(a, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(a);
    if (*out) return G16_OK;
    errf(err, errlen, "out of memory");
    return G16_ERR_NOMEM;
}

static json_t *host_row_json(const PGresult *r, int i)
{
    json_t *info = json_loads(PQgetvalue(r, i, 4), 0, NULL);
    return json_pack("{s:s,s:f,s:f,s:f,s:o,s:I}", "id", PQgetvalue(r, i, 0), "started",
                     atof(PQgetvalue(r, i, 1)), "heartbeat", atof(PQgetvalue(r, i, 2)), "age_s",
                     atof(PQgetvalue(r, i, 3)), "info", info ? info : json_object(), "leases",
                     (json_int_t)atoll(PQgetvalue(r, i, 5)));
}

static int hosts(d_pgq *q, void *arg, char *err, size_t errlen)
{
    return rows_json(q,
                     "SELECT h.id, extract(epoch FROM h.started), extract(epoch FROM h.heartbeat),"
                     " extract(epoch FROM now() - h.heartbeat), h.info,"
                     " (SELECT count(*) FROM partitions p WHERE p.lease_owner = h.id"
                     " AND p.state = 'running' AND p.lease_expiry > now())"
                     " FROM hosts h ORDER BY h.id",
                     host_row_json, arg, err, errlen);
}

int d_pgq_hosts_json(d_pgq *q, char **json, char *err, size_t errlen)
{
    *json = NULL;
    return call(q, hosts, json, err, errlen);
}
