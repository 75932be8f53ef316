/* pgqueue: the fleet's shared job queue in PostgreSQL (libpq).  Every g16d
 * started with the same --queue URL is one fleet: its jobs, partitions,
 * keys and results are rows here, and each host claims the partitions it
 * can run now.
 *
 * Contract:
 * - URL: a postgresql:// (or postgres://) URL that libpq's own parser
 *   accepts and that carries no password (a command line shows in ps);
 *   libpq supplies the password (~/.pgpass, PGPASSFILE, PGPASSWORD) and
 *   honours sslmode itself.
 * - Schema: versioned migrations, applied at open, each in a transaction
 *   that first inserts its row in schema_version (two hosts starting at
 *   once: the second waits on that row, fails on its key and re-reads the
 *   version).  A database whose schema is newer than this program's is
 *   refused.
 * - Claims: d_pgq_claim takes up to max queued partitions (or running
 *   ones whose lease expired) with SELECT ... FOR UPDATE SKIP LOCKED, in
 *   priority (higher first), then submission, then partition order, and
 *   leases them to this host until now + lease_s on the database's clock.
 *   Each claim numbers its lease (attempt); two claimers never hold the
 *   same partition.  d_pgq_heartbeat renews the unexpired leases it names.
 * - Results: d_pgq_result is accepted only while the lease it names is
 *   still this host's and unexpired; then the partition is final and its
 *   one results row written in the same transaction.  Anything else is
 *   discarded (*accepted = 0), so a partition has exactly one result.
 * - Correctness uses only row locks, unique keys and transactions:
 *   nothing that YugabyteDB's PostgreSQL API lacks (no advisory locks, no
 *   LOCK TABLE).  LISTEN/NOTIFY, which it lacks too, only wakes idle
 *   claimers sooner (d_pgq_listen): without it they poll, as they do
 *   anyway.
 * - Threads: one connection per d_pgq behind its own mutex; every call may
 *   come from any thread.  A broken connection is reset and the call
 *   retried (as are serialization failures and deadlocks), a few times.
 * - Errors: G16_OK, or G16_ERR_ARG (bad URL), G16_ERR_UNSUPPORTED (newer
 *   schema), G16_ERR_NOT_FOUND, G16_ERR_IO (the database failed), with a
 *   one-line message in err. */
#ifndef G16D_PGQUEUE_H
#define G16D_PGQUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "jobview.h"

/* The schema this program writes and reads. */
#define D_PGQ_SCHEMA 2

typedef struct d_pgq d_pgq;

/* A partition's input at submission: its bytes (stored as bytea) or,
 * when data is NULL, a path every host can read; kind says what it is
 * (NULL: "wtns", a witness file). */
typedef struct {
    const uint8_t *data;
    size_t len;
    const char *path;
    const char *kind;
} d_pgq_payload;

/* A claimed partition.  payload (malloc'd) or path (malloc'd) is set. */
typedef struct {
    char job[33];
    int idx;
    char key[128];
    int priority;
    int64_t seq;
    int attempt; /* the lease's number: its result names it */
    uint8_t *payload;
    size_t payload_len;
    char *path;
    int64_t bytes; /* the payload's size as submitted (0 for a path) */
    char kind[16];
} d_pgq_lease;

/* A registered key. */
typedef struct {
    int64_t size;
    char sha256[65]; /* hex, of the .zkey */
    char path[1024];
    char wasm[1024]; /* its circuit's witness calculator; "" when it has none */
    /* hex, of the .wasm the registering host compiled; "" without a
     * circuit, or for a circuit registered before schema 2 */
    char wasm_sha256[65];
} d_pgq_key;

/* G16_OK when url is a password-free postgresql:// URL libpq accepts. */
int d_pgq_url_ok(const char *url, char *err, size_t errlen);

/* Connects, migrates and registers host (a name unique in the fleet). */
d_pgq *d_pgq_open(const char *url, const char *host, char *err, size_t errlen);
void d_pgq_close(d_pgq *q);
const char *d_pgq_host(const d_pgq *q);

int d_pgq_key_put(d_pgq *q, const char *name, const d_pgq_key *k, char *err, size_t errlen);
int d_pgq_key_get(d_pgq *q, const char *name, d_pgq_key *k, char *err, size_t errlen);
int d_pgq_key_delete(d_pgq *q, const char *name, char *err, size_t errlen);

/* One transaction: the job and its n partitions, or nothing. */
int d_pgq_submit(d_pgq *q, const char *id, const char *key, int priority,
                 const d_pgq_payload *parts, int n, char *err, size_t errlen);

/* Wake-ups, an optimisation only: d_pgq_listen makes q's connection
 * LISTEN for the notices that d_pgq_submit and d_pgq_release send after
 * their commits (best effort), and again after every reconnect: G16_OK,
 * or G16_ERR_IO when the database refused (YugabyteDB has no LISTEN), and
 * then the caller polls only.  d_pgq_wait blocks up to timeout_s until a
 * notice comes (1) or wake_fd (-1: none) is readable or the time passes
 * (0; a negative timeout_s: no limit); without LISTEN it returns 0 at
 * once, and on a broken connection it waits for wake_fd alone (the next
 * call resets the connection).
 * Only one thread may wait on a q, and it holds q for as long. */
int d_pgq_listen(d_pgq *q, char *err, size_t errlen);
int d_pgq_wait(d_pgq *q, double timeout_s, int wake_fd);

/* Up to max partitions of the keys named (nkeys 0: any key) into out[],
 * their number in *n, in claim order. */
int d_pgq_claim(d_pgq *q, const char *const *keys, int nkeys, int max, double lease_s,
                d_pgq_lease *out, int *n, char *err, size_t errlen);
void d_pgq_lease_free(d_pgq_lease *c);

/* A lease's name for d_pgq_heartbeat. */
#define D_PGQ_LEASE_ID 64
void d_pgq_lease_id(const d_pgq_lease *l, char out[D_PGQ_LEASE_ID]);

/* Renews this host's heartbeat row (info: a JSON object it publishes in
 * GET /v1/fleet) and, of the leases named held[0..nheld) (d_pgq_lease_id),
 * those still unexpired to now + lease_s; *renewed (may be NULL) counts
 * them.  Only leases the host knows it holds are renewed: one whose claim
 * reply a broken connection lost lapses, and another host takes it. */
int d_pgq_heartbeat(d_pgq *q, double lease_s, const char *info, const char *const *held, int nheld,
                    int *renewed, char *err, size_t errlen);

/* Whether the lease c names is still this host's and unexpired: 1, 0, or
 * -1 when the database could not say. */
int d_pgq_lease_held(d_pgq *q, const d_pgq_lease *c);

/* Gives back a lease this host will not work on (it is queued again at
 * once instead of lapsing). */
int d_pgq_release(d_pgq *q, const d_pgq_lease *c, char *err, size_t errlen);

/* Deletes the jobs whose every partition is final and whose last result
 * (or, with none, creation) is older than ttl_s, with their rows. */
int d_pgq_purge(d_pgq *q, double ttl_s, char *err, size_t errlen);

/* The result of a claimed partition: ok with proof, pub (JSON text), or
 * failed with error; timings may be NULL.  *accepted says whether it was
 * recorded (the lease was still held) or discarded. */
int d_pgq_result(d_pgq *q, const d_pgq_lease *c, int ok, const char *proof, const char *pub,
                 const char *error, const char *timings, int *accepted, char *err, size_t errlen);

/* The key of the first partition in claim order whose key is none of
 * skip[0..nskip): G16_OK with key filled ("" when there is none). */
int d_pgq_head_key(d_pgq *q, const char *const *skip, int nskip, char key[128], char *err,
                   size_t errlen);

/* Job id as a view (jobview.h: state, partitions, each one's proof and
 * public inputs once recorded): G16_OK with *v (free with
 * d_job_view_free), or G16_ERR_NOT_FOUND. */
int d_pgq_job_view(d_pgq *q, const char *id, d_job_view *v, char *err, size_t errlen);

/* Every job of the fleet in submission order, with partitions_done and
 * submitted_by (the host it came through), as GET /v1/proofs lists them:
 * G16_OK with *l (free with d_job_list_free). */
int d_pgq_jobs_view(d_pgq *q, d_job_list *l, char *err, size_t errlen);

/* Cancels job id: its partitions not yet final become cancelled (a
 * running one's result is then discarded).  G16_OK, G16_ERR_NOT_FOUND,
 * or D_PGQ_FINAL when it had finished already. */
#define D_PGQ_FINAL 200
int d_pgq_cancel(d_pgq *q, const char *id, char *err, size_t errlen);

/* The fleet's hosts as a JSON array (malloc'd): id, started, heartbeat
 * (Unix seconds), age_s (since the heartbeat, on the database's clock),
 * info (what the host published), leases (partitions it holds now). */
int d_pgq_hosts_json(d_pgq *q, char **json, char *err, size_t errlen);

/* Partitions queued (claimable now, expired leases included) and running
 * under a live lease, over the whole fleet. */
int d_pgq_depth(d_pgq *q, int64_t *queued, int64_t *running, char *err, size_t errlen);

#endif
