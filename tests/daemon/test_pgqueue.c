/* The fleet's queue (src/apps/g16d/pgqueue.c) against a real PostgreSQL
 * server: pg_server.sh starts a throwaway one and passes its URL in
 * G16_PG_URL.  Claim order, two claimers racing, lease expiry and
 * takeover, late and repeated results, heartbeats, the job list, wake-ups
 * (LISTEN/NOTIFY, also after a reconnect), the schema's version and the
 * URL rules. */
#define _GNU_SOURCE
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "g16.h"
#include "pgqueue.h"

static int failures;
static const char *url;
static PGconn *sql; /* the test's own connection, to look at the rows */

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* One integer the query returns (-1 on failure). */
static long long scalar(const char *query)
{
    PGresult *r = PQexec(sql, query);
    long long v = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        v = atoll(PQgetvalue(r, 0, 0));
    else
        fprintf(stderr, "query failed: %s: %s", query, PQresultErrorMessage(r));
    PQclear(r);
    return v;
}

static void exec_sql(const char *query)
{
    PGresult *r = PQexec(sql, query);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "FAIL: %s: %s", query, PQresultErrorMessage(r));
        failures++;
    }
    PQclear(r);
}

static d_pgq *open_host(const char *host)
{
    char err[512];
    d_pgq *q = d_pgq_open(url, host, err, sizeof err);
    if (!q) {
        fprintf(stderr, "FAIL: open %s: %s\n", host, err);
        exit(1);
    }
    return q;
}

/* A job of n partitions carrying their index as a 4-byte payload (every
 * third by path instead). */
static void submit(d_pgq *q, const char *id, const char *key, int prio, int n)
{
    d_pgq_payload *p = calloc((size_t)n, sizeof *p);
    static const uint8_t bytes[4] = {'w', 't', 'n', 's'};
    char err[512];
    for (int i = 0; i < n; i++) {
        if (i % 3 == 2)
            p[i].path = "/shared/w.wtns";
        else {
            p[i].data = bytes;
            p[i].len = sizeof bytes;
        }
    }
    int rc = d_pgq_submit(q, id, key, prio, p, n, err, sizeof err);
    CHECK(rc == G16_OK, "submit %s: %s", id, err);
    free(p);
}

static void test_url(void)
{
    char err[512];
    static const char *bad[] = {"postgresql://g16:secret@/postgres?host=/tmp",
                                "postgresql:///postgres?host=/tmp&password=secret"};
    for (int i = 0; i < 2; i++) {
        CHECK(d_pgq_url_ok(bad[i], err, sizeof err) == G16_ERR_ARG && strstr(err, "password"),
              "a URL with a password is refused (%s): %s", bad[i], err);
        CHECK(!d_pgq_open(bad[i], "h", err, sizeof err) && strstr(err, "password"),
              "open refuses it too");
    }
    CHECK(d_pgq_url_ok("host=/tmp dbname=x", err, sizeof err) == G16_ERR_ARG &&
              strstr(err, "postgresql://"),
          "a conninfo string that is not a URL is refused: %s", err);
    CHECK(d_pgq_url_ok("postgresql://h/db?nosuchoption=1", err, sizeof err) == G16_ERR_ARG &&
              strstr(err, "nosuchoption"),
          "libpq's parser names the bad option: %s", err);
    CHECK(d_pgq_url_ok(url, err, sizeof err) == G16_OK, "the server's URL is fine: %s", err);
    /* sslmode is libpq's own: a bad value is its error.  (Over this test's
     * Unix socket libpq never uses TLS, so require would not fail here.) */
    char tls[1200];
    snprintf(tls, sizeof tls, "%s&sslmode=bogus", url);
    CHECK(!d_pgq_open(tls, "h", err, sizeof err) && strstr(err, "sslmode"),
          "libpq judges sslmode: %s", err);
}

typedef struct {
    const char *host;
    d_pgq *q;
} opener;

static void *open_thread(void *arg)
{
    opener *o = arg;
    o->q = open_host(o->host);
    return NULL;
}

/* Two hosts start at once on an empty database: both migrate or wait. */
static void open_two(d_pgq **a, d_pgq **b)
{
    opener oa = {"host-a", NULL}, ob = {"host-b", NULL};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, open_thread, &oa);
    pthread_create(&tb, NULL, open_thread, &ob);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    *a = oa.q;
    *b = ob.q;
    CHECK(scalar("SELECT max(version) FROM schema_version") == D_PGQ_SCHEMA, "schema at version %d",
          D_PGQ_SCHEMA);
    CHECK(scalar("SELECT count(*) FROM hosts") == 2, "both hosts registered");
}

static void test_keys(d_pgq *q)
{
    char err[512];
    d_pgq_key k = {1234, "ab01", "/shared/k.zkey", "/shared/k.wasm", "cd02"}, got;
    CHECK(d_pgq_key_put(q, "k1", &k, err, sizeof err) == G16_OK, "key put: %s", err);
    CHECK(d_pgq_key_get(q, "k1", &got, err, sizeof err) == G16_OK && got.size == 1234 &&
              !strcmp(got.sha256, "ab01") && !strcmp(got.path, "/shared/k.zkey") &&
              !strcmp(got.wasm, "/shared/k.wasm") && !strcmp(got.wasm_sha256, "cd02"),
          "key round trip");
    d_pgq_key plain = {99, "ef03", "/shared/p.zkey", "", "unused without a circuit"};
    CHECK(d_pgq_key_put(q, "k0", &plain, err, sizeof err) == G16_OK &&
              d_pgq_key_get(q, "k0", &got, err, sizeof err) == G16_OK && !got.wasm[0] &&
              !got.wasm_sha256[0],
          "a key without a circuit has no circuit digest: %s", err);
    exec_sql("DELETE FROM keys WHERE name = 'k0'");
    CHECK(d_pgq_key_get(q, "nope", &got, err, sizeof err) == G16_ERR_NOT_FOUND &&
              strstr(err, "nope"),
          "unknown key: %s", err);
}

/* Priority first, then submission order, then partition index. */
static void test_order(d_pgq *a)
{
    char err[512];
    d_pgq_lease c[8];
    int n;
    submit(a, "job-low-1", "k1", 0, 3);
    submit(a, "job-high", "k1", 5, 2);
    submit(a, "job-low-2", "k1", 0, 2);
    submit(a, "job-other", "k2", 9, 1);
    const char *k1[] = {"k1"};
    CHECK(d_pgq_claim(a, k1, 1, 4, 30, c, &n, err, sizeof err) == G16_OK && n == 4,
          "claimed 4 of k1: %d %s", n, err);
    static const char *want_job[] = {"job-high", "job-high", "job-low-1", "job-low-1"};
    static const int want_idx[] = {0, 1, 0, 1};
    for (int i = 0; i < n && i < 4; i++) {
        CHECK(!strcmp(c[i].job, want_job[i]) && c[i].idx == want_idx[i] && c[i].attempt == 1,
              "claim %d is %s/%d (attempt %d), expected %s/%d", i, c[i].job, c[i].idx, c[i].attempt,
              want_job[i], want_idx[i]);
        CHECK(c[i].payload && !strcmp(c[i].kind, "wtns") && c[i].payload_len == 4 &&
                  !memcmp(c[i].payload, "wtns", 4) && c[i].bytes == 4,
              "payload of claim %d", i);
        d_pgq_lease_free(&c[i]);
    }
    CHECK(d_pgq_claim(a, k1, 1, 8, 30, c, &n, err, sizeof err) == G16_OK && n == 3,
          "the rest of k1: %d", n);
    CHECK(n == 3 && !strcmp(c[0].job, "job-low-1") && c[0].idx == 2 && c[0].path &&
              !strcmp(c[0].path, "/shared/w.wtns") && c[0].bytes == 0,
          "the third partition comes by path");
    for (int i = 0; i < n; i++) d_pgq_lease_free(&c[i]);
    CHECK(d_pgq_claim(a, NULL, 0, 8, 30, c, &n, err, sizeof err) == G16_OK && n == 1 &&
              !strcmp(c[0].job, "job-other"),
          "no key filter: the k2 partition");
    if (n == 1) d_pgq_lease_free(&c[0]);
    int64_t queued, running;
    CHECK(d_pgq_depth(a, &queued, &running, err, sizeof err) == G16_OK && queued == 0 &&
              running == 8,
          "depth %lld queued %lld running", (long long)queued, (long long)running);
    exec_sql("DELETE FROM jobs");
}

#define RACE_PARTS 300

typedef struct {
    d_pgq *q;
    char (*seen)[48];
    int n;
} racer;

/* Claims small batches until none is left, recording each partition. */
static void *race(void *arg)
{
    racer *r = arg;
    d_pgq_lease c[5];
    char err[512];
    for (int round = 0;; round++) {
        int n;
        if (d_pgq_claim(r->q, NULL, 0, 1 + round % 5, 30, c, &n, err, sizeof err)) {
            fprintf(stderr, "FAIL: claim: %s\n", err);
            failures++;
            return NULL;
        }
        if (!n) return NULL;
        for (int i = 0; i < n; i++) {
            int accepted = 0;
            snprintf(r->seen[r->n++], 48, "%.32s/%d", c[i].job, c[i].idx);
            d_pgq_result(r->q, &c[i], 1, "{}", "[]", NULL, NULL, &accepted, err, sizeof err);
            CHECK(accepted, "a held lease's result is accepted: %s", err);
            d_pgq_lease_free(&c[i]);
        }
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

static void test_race(d_pgq *a, d_pgq *b)
{
    static char seen[2 * RACE_PARTS][48];
    for (int j = 0; j < 3; j++) {
        char id[24];
        snprintf(id, sizeof id, "race-%d", j);
        submit(a, id, "k1", j, RACE_PARTS / 3);
    }
    racer ra = {a, seen, 0}, rb = {b, seen + RACE_PARTS, 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, race, &ra);
    pthread_create(&tb, NULL, race, &rb);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(ra.n + rb.n == RACE_PARTS, "every partition claimed once: %d + %d", ra.n, rb.n);
    CHECK(ra.n > 0 && rb.n > 0, "both claimers got work: %d, %d", ra.n, rb.n);
    memmove(seen + ra.n, seen + RACE_PARTS, (size_t)rb.n * sizeof *seen);
    qsort(seen, (size_t)(ra.n + rb.n), sizeof *seen, cmp_str);
    for (int i = 1; i < ra.n + rb.n; i++)
        CHECK(strcmp(seen[i - 1], seen[i]), "%s claimed twice", seen[i]);
    CHECK(scalar("SELECT count(*) FROM results") == RACE_PARTS, "one result per partition");
    exec_sql("DELETE FROM jobs");
}

/* A lease that lapses is taken over; the first holder's late result is
 * discarded, the new holder's accepted, and a second result refused. */
static void test_takeover(d_pgq *a, d_pgq *b)
{
    char err[512];
    d_pgq_lease ca, cb;
    int n, accepted;
    submit(a, "lapse", "k1", 0, 1);
    CHECK(d_pgq_claim(a, NULL, 0, 1, 0.3, &ca, &n, err, sizeof err) == G16_OK && n == 1,
          "a claims");
    CHECK(d_pgq_claim(b, NULL, 0, 1, 30, &cb, &n, err, sizeof err) == G16_OK && n == 0,
          "b finds nothing while a's lease runs");
    CHECK(d_pgq_lease_held(a, &ca) == 1, "a holds its lease");
    sleep_s(0.5);
    CHECK(d_pgq_lease_held(a, &ca) == 0, "a's lease lapsed");
    CHECK(d_pgq_claim(b, NULL, 0, 1, 30, &cb, &n, err, sizeof err) == G16_OK && n == 1 &&
              !strcmp(cb.job, "lapse") && cb.attempt == 2,
          "b takes the lapsed partition over (attempt %d)", n ? cb.attempt : -1);
    CHECK(d_pgq_result(a, &ca, 1, "{\"late\":1}", "[]", NULL, NULL, &accepted, err, sizeof err) ==
                  G16_OK &&
              !accepted,
          "a's late result is discarded");
    CHECK(d_pgq_result(b, &cb, 1, "{\"b\":1}", "[]", NULL, NULL, &accepted, err, sizeof err) ==
                  G16_OK &&
              accepted,
          "b's result is accepted");
    CHECK(d_pgq_result(b, &cb, 0, NULL, NULL, "again", NULL, &accepted, err, sizeof err) ==
                  G16_OK &&
              accepted,
          "the same lease's result again (a retry) is reported recorded");
    CHECK(scalar("SELECT count(*) FROM results WHERE job = 'lapse'") == 1 &&
              scalar("SELECT count(*) FROM results WHERE job = 'lapse' AND host = 'host-b'"
                     " AND ok AND proof = '{\"b\":1}'") == 1,
          "exactly one result, b's first");
    if (n == 1) d_pgq_lease_free(&cb);
    d_pgq_lease_free(&ca);
    exec_sql("DELETE FROM jobs");
}

/* A lease given back is claimable at once. */
static void test_release(d_pgq *a, d_pgq *b)
{
    char err[512];
    d_pgq_lease ca, cb;
    int n, accepted;
    submit(a, "rel", "k1", 0, 1);
    CHECK(d_pgq_claim(a, NULL, 0, 1, 30, &ca, &n, err, sizeof err) == G16_OK && n == 1, "a claims");
    CHECK(d_pgq_release(a, &ca, err, sizeof err) == G16_OK, "release: %s", err);
    CHECK(d_pgq_claim(b, NULL, 0, 1, 30, &cb, &n, err, sizeof err) == G16_OK && n == 1 &&
              cb.attempt == 2,
          "b claims the released partition at once");
    CHECK(d_pgq_result(a, &ca, 1, "{}", "[]", NULL, NULL, &accepted, err, sizeof err) == G16_OK &&
              !accepted,
          "a's result after giving the lease back is discarded");
    if (n == 1) d_pgq_lease_free(&cb);
    d_pgq_lease_free(&ca);
    exec_sql("DELETE FROM jobs");
}

/* A heartbeat keeps a lease past its first expiry. */
static void test_heartbeat(d_pgq *a, d_pgq *b)
{
    char err[512];
    d_pgq_lease ca[2], cb;
    int n, renewed = 0;
    char id[D_PGQ_LEASE_ID];
    const char *held[] = {id};
    submit(a, "beat", "k1", 0, 2);
    CHECK(d_pgq_claim(a, NULL, 0, 2, 0.6, ca, &n, err, sizeof err) == G16_OK && n == 2,
          "a claims two");
    d_pgq_lease_id(&ca[0], id);
    for (int i = 0; i < 3; i++) {
        sleep_s(0.3);
        CHECK(d_pgq_heartbeat(a, 0.6, "{\"budget\":1}", held, 1, &renewed, err, sizeof err) ==
                      G16_OK &&
                  renewed == 1,
              "heartbeat renews a's lease (%d): %s", renewed, err);
    }
    CHECK(d_pgq_claim(b, NULL, 0, 2, 30, &cb, &n, err, sizeof err) == G16_OK && n == 1 &&
              cb.idx == 1,
          "after 0.9 s, more than its first lease, b takes only the lease a did not name");
    if (n == 1) d_pgq_lease_free(&cb);
    d_pgq_lease_free(&ca[1]);
    CHECK(scalar("SELECT count(*) FROM hosts WHERE id = 'host-a' AND info = '{\"budget\":1}'") == 1,
          "the heartbeat published a's info");
    d_pgq_lease_free(&ca[0]);
    exec_sql("DELETE FROM jobs");
}

/* What GET /v1/proofs/ID, DELETE and GET /v1/fleet read, and the head
 * of the queue that tells a host which key to load next. */
static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* d_pgq_wait(b, timeout, fd)'s answer, and in *s how long it took. */
static int timed_wait(d_pgq *b, double timeout, int fd, double *s)
{
    double t0 = mono();
    int got = d_pgq_wait(b, timeout, fd);
    *s = mono() - t0;
    return got;
}

/* A listening connection is woken by submissions and releases on another,
 * by its wake fd, and by nothing else before its timeout; it listens again
 * after its connection is cut and reset. */
static void test_wake(d_pgq *a, d_pgq *b)
{
    char err[512];
    double s;
    int fds[2], n;
    d_pgq_lease c;
    CHECK(pipe(fds) == 0, "pipe");
    CHECK(timed_wait(b, 5, -1, &s) == 0 && s < 0.1, "not listening: no wait (%.3f s)", s);
    CHECK(d_pgq_listen(b, err, sizeof err) == G16_OK, "listen: %s", err);
    CHECK(timed_wait(b, 0.3, -1, &s) == 0 && s > 0.25, "no notice: the timeout (%.3f s)", s);
    submit(a, "wake", "k5", 0, 1);
    CHECK(timed_wait(b, 5, -1, &s) == 1 && s < 1, "a submission wakes it (%.3f s)", s);
    CHECK(write(fds[1], "", 1) == 1 && timed_wait(b, 5, fds[0], &s) == 0 && s < 1,
          "the wake fd ends the wait (%.3f s)", s);
    CHECK(d_pgq_claim(a, NULL, 0, 1, 30, &c, &n, err, sizeof err) == G16_OK && n == 1, "claim");
    CHECK(d_pgq_release(a, &c, err, sizeof err) == G16_OK, "release: %s", err);
    CHECK(timed_wait(b, 5, -1, &s) == 1 && s < 1, "a release wakes it (%.3f s)", s);
    d_pgq_lease_free(&c);
    CHECK(scalar("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE"
                 " application_name = 'g16d' AND pid <> pg_backend_pid()") == 2,
          "a's and b's connections cut");
    int64_t queued, running;
    CHECK(d_pgq_depth(b, &queued, &running, err, sizeof err) == G16_OK, "b reconnects: %s", err);
    submit(a, "wake-again", "k5", 0, 1);
    CHECK(timed_wait(b, 5, -1, &s) == 1 && s < 1, "listening after the reset (%.3f s)", s);
    close(fds[0]);
    close(fds[1]);
    exec_sql("DELETE FROM jobs");
}

/* The job as g16d replies with it (the view rendered by jobview.c), and
 * whether every partition is final. */
static int job_json(d_pgq *q, const char *id, int with_results, char **json, int *final, char *err,
                    size_t errlen)
{
    d_job_view v;
    int rc = d_pgq_job_view(q, id, &v, err, errlen);
    if (rc) return rc;
    *final = 1;
    for (int i = 0; i < v.nparts; i++)
        *final &= !strcmp(v.parts[i].state, "done") || !strcmp(v.parts[i].state, "failed") ||
                  !strcmp(v.parts[i].state, "cancelled");
    *json = d_job_view_json(&v, with_results);
    d_job_view_free(&v);
    return G16_OK;
}

static int jobs_json(d_pgq *q, char **json, char *err, size_t errlen)
{
    d_job_list l;
    int rc = d_pgq_jobs_view(q, &l, err, errlen);
    if (rc) return rc;
    *json = d_job_list_json(&l);
    d_job_list_free(&l);
    return G16_OK;
}

static void test_views(d_pgq *a, d_pgq *b)
{
    char err[512], key[128], *json = NULL;
    d_pgq_lease c[2];
    int n, final = 1, accepted;
    submit(a, "view", "k3", 7, 2);
    submit(a, "doomed", "k4", 0, 1);
    const char *skip[] = {"k3"};
    CHECK(d_pgq_head_key(b, NULL, 0, key, err, sizeof err) == G16_OK && !strcmp(key, "k3"),
          "head key k3: '%s'", key);
    CHECK(d_pgq_head_key(b, skip, 1, key, err, sizeof err) == G16_OK && !strcmp(key, "k4"),
          "head key past k3: '%s'", key);
    CHECK(job_json(b, "view", 1, &json, &final, err, sizeof err) == G16_OK && !final &&
              strstr(json, "\"state\":\"queued\"") && strstr(json, "\"partitions_total\":2"),
          "a queued job: %s", json ? json : err);
    free(json);
    CHECK(d_pgq_claim(b, skip, 1, 2, 30, c, &n, err, sizeof err) == G16_OK && n == 2, "claim");
    d_pgq_result(b, &c[0], 1, "{\"pi_a\":1}", "[\"7\"]", NULL, "{\"msm_s\":0.5}", &accepted, err,
                 sizeof err);
    json = NULL;
    CHECK(job_json(a, "view", 1, &json, &final, err, sizeof err) == G16_OK && !final &&
              strstr(json, "\"state\":\"running\"") && !strstr(json, "pi_a"),
          "running, results withheld until every partition is final: %s", json ? json : err);
    free(json);
    d_pgq_result(b, &c[1], 0, NULL, NULL, "witness 1: bad", NULL, &accepted, err, sizeof err);
    json = NULL;
    CHECK(job_json(a, "view", 1, &json, &final, err, sizeof err) == G16_OK && final &&
              strstr(json, "\"state\":\"failed\"") && strstr(json, "\"proof\":{\"pi_a\":1}") &&
              strstr(json, "\"public\":[\"7\"]") && strstr(json, "\"msm_s\":0.5") &&
              strstr(json, "witness 1: bad") && strstr(json, "\"finished\""),
          "final, with results: %s", json ? json : err);
    free(json);
    for (int i = 0; i < n; i++) d_pgq_lease_free(&c[i]);
    CHECK(job_json(a, "nope", 1, &json, &final, err, sizeof err) == G16_ERR_NOT_FOUND,
          "unknown job");
    CHECK(d_pgq_cancel(a, "view", err, sizeof err) == D_PGQ_FINAL, "a final job: %s", err);
    CHECK(d_pgq_cancel(a, "doomed", err, sizeof err) == G16_OK, "cancel: %s", err);
    CHECK(d_pgq_cancel(a, "nope", err, sizeof err) == G16_ERR_NOT_FOUND, "cancel unknown");
    CHECK(d_pgq_claim(b, NULL, 0, 2, 30, c, &n, err, sizeof err) == G16_OK && n == 0,
          "a cancelled partition is never claimed");
    json = NULL;
    CHECK(job_json(a, "doomed", 0, &json, &final, err, sizeof err) == G16_OK && final &&
              strstr(json, "\"state\":\"cancelled\""),
          "cancelled: %s", json ? json : err);
    free(json);
    json = NULL;
    CHECK(jobs_json(b, &json, err, sizeof err) == G16_OK &&
              strstr(json, "{\"jobs\":[{\"id\":\"view\",\"key\":\"k3\",\"priority\":7,"
                           "\"state\":\"failed\",\"partitions\":2,\"partitions_done\":1,"
                           "\"submitted_by\":\"host-a\"},{\"id\":\"doomed\",\"key\":\"k4\","
                           "\"priority\":0,\"state\":\"cancelled\",\"partitions\":1,"
                           "\"partitions_done\":0,") == json,
          "the fleet's jobs in submission order: %s", json ? json : err);
    free(json);
    json = NULL;
    CHECK(d_pgq_hosts_json(a, &json, err, sizeof err) == G16_OK && strstr(json, "host-a") &&
              strstr(json, "host-b") && strstr(json, "\"budget\":1"),
          "hosts: %s", json ? json : err);
    free(json);
    submit(a, "pending", "k3", 0, 1);
    CHECK(d_pgq_purge(a, 3600, err, sizeof err) == G16_OK &&
              scalar("SELECT count(*) FROM jobs") == 3,
          "nothing is older than an hour");
    CHECK(d_pgq_purge(a, 0, err, sizeof err) == G16_OK &&
              scalar("SELECT count(*) FROM jobs") == 1 &&
              scalar("SELECT count(*) FROM jobs WHERE id = 'pending'") == 1 &&
              scalar("SELECT count(*) FROM results") == 0,
          "the final jobs are purged with their results, the pending one stays: %s", err);
    exec_sql("DELETE FROM jobs");
}

/* A database migrated by a newer g16d is refused, with the versions. */
static void test_newer_schema(void)
{
    char err[512], q[128];
    snprintf(q, sizeof q, "INSERT INTO schema_version(version) VALUES(%d)", D_PGQ_SCHEMA + 1);
    exec_sql(q);
    CHECK(!d_pgq_open(url, "host-c", err, sizeof err) && strstr(err, "newer"),
          "a newer schema is refused: %s", err);
    snprintf(q, sizeof q, "DELETE FROM schema_version WHERE version = %d", D_PGQ_SCHEMA + 1);
    exec_sql(q);
    d_pgq *c = open_host("host-c");
    d_pgq_close(c);
}

/* A schema-1 database (keys without their circuit's digest) migrates:
 * its keys keep their rows, with no circuit digest to trust. */
static void test_migration_2(void)
{
    char err[512];
    exec_sql("ALTER TABLE keys DROP COLUMN wasm_sha256");
    exec_sql("DELETE FROM schema_version WHERE version >= 2");
    exec_sql("INSERT INTO keys(name, size, sha256, path, wasm)"
             " VALUES('old', 5, 'ab', '/shared/o.zkey', '/shared/o.wasm')");
    d_pgq *c = open_host("host-m");
    d_pgq_key got;
    CHECK(scalar("SELECT max(version) FROM schema_version") == D_PGQ_SCHEMA, "migrated to %d",
          D_PGQ_SCHEMA);
    CHECK(c && d_pgq_key_get(c, "old", &got, err, sizeof err) == G16_OK &&
              !strcmp(got.wasm, "/shared/o.wasm") && !got.wasm_sha256[0],
          "a key registered before keeps its circuit, with no digest: %s", err);
    exec_sql("DELETE FROM keys WHERE name = 'old'");
    d_pgq_close(c);
}

int main(void)
{
    url = getenv("G16_PG_URL");
    if (!url) {
        fprintf(stderr, "FAIL: G16_PG_URL is not set (run through tests/daemon/pg_server.sh)\n");
        return 1;
    }
    sql = PQconnectdb(url);
    if (PQstatus(sql) != CONNECTION_OK) {
        fprintf(stderr, "FAIL: %s", PQerrorMessage(sql));
        return 1;
    }
    test_url();
    d_pgq *a, *b;
    open_two(&a, &b);
    test_keys(a);
    test_order(a);
    test_race(a, b);
    test_takeover(a, b);
    test_release(a, b);
    test_heartbeat(a, b);
    test_views(a, b);
    test_wake(a, b);
    test_newer_schema();
    test_migration_2();
    d_pgq_close(a);
    d_pgq_close(b);
    PQfinish(sql);
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
