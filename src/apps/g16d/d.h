/* g16d internals: the daemon's state and the functions its files share.
 * The daemon is a program on libg16's public interface: g16.h,
 * g16_witness.h (keys that carry their circuit), g16_memwatch.h (its
 * memory telemetry) and nothing below them.
 *
 * Concurrency: one mutex (d->mu) guards every field below that changes
 * after startup (keys, jobs, budget, counters, the database handle).
 * Workers take it only to pick work and to publish a stage's result; the
 * proving itself runs unlocked, and so do a key's reading, its point check
 * and its freeing (eviction hands the evicted keys to its caller, which
 * frees them with d_key_reap after the lock).  d->work is broadcast
 * whenever work or budget may have appeared, d->changed whenever a job
 * changed state (the parked long-polls are woken by it).  The job table
 * and the keys' pending counts are jobtab.c's alone (jobtab.h: their
 * invariants and the partition's state diagram); where jobs live is the
 * backend's (d_backend, below).
 *
 * Errors: the key and job logic returns a d_status (D_OK, a library
 * kind it passes through, or one of the daemon's own), with a one-line
 * message; only the API layer (api.c, d_http_status) turns a kind into
 * an HTTP status. */
#ifndef G16D_H
#define G16D_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "g16.h"
#include "g16_witness.h"
#include "jobview.h"
#include "policy.h"

#define D_NAME_MAX  128
#define D_ERR       512
#define D_MAX_ALLOW 16

/* What kind of failure a daemon call returned: the library's kinds
 * (same names, D_ for G16_, same values: d_status_of maps a library
 * result) and the daemon's own (from 100: never a library code).
 * d_http_status (api.c) is the one place a kind becomes an HTTP status. */
typedef enum {
    D_OK = G16_OK,
    D_ERR_ARG = G16_ERR_ARG,                 /* a bad request (400) */
    D_ERR_IO = G16_ERR_IO,                   /* a file could not be read or written */
    D_ERR_NOT_FOUND = G16_ERR_NOT_FOUND,     /* no such file, key or job */
    D_ERR_FORMAT = G16_ERR_FORMAT,           /* a malformed key, witness or input */
    D_ERR_MISMATCH = G16_ERR_MISMATCH,       /* files that do not belong together */
    D_ERR_UNSUPPORTED = G16_ERR_UNSUPPORTED, /* well-formed but not provable here */
    D_ERR_TOO_LARGE = G16_ERR_TOO_LARGE,     /* no room in the budget now (507) */
    D_ERR_NOMEM = G16_ERR_NOMEM,             /* out of host or device memory */
    D_ERR_DEVICE = G16_ERR_DEVICE,           /* the GPU failed */
    D_ERR_INTERNAL = G16_ERR_INTERNAL,       /* a bug */
    D_ERR_TIMEOUT = G16_ERR_TIMEOUT,         /* an input whose circuit ran past its limit */
    D_ERR_FORBIDDEN = 100,                   /* a path outside --allow-dir */
    D_ERR_CONFLICT,  /* a name taken by another key, a busy key, a finished job */
    D_ERR_EXISTS,    /* the same key is already loaded: nothing to do */
    D_ERR_STOPPING,  /* the daemon is shutting down */
    D_ERR_DRAINING,  /* draining (SIGTERM or POST /v1/drain): no new work */
    D_ERR_QUEUE,     /* the fleet's database (--queue) did not answer */
    D_ERR_NEVER_FITS /* more than the budget could ever hold (413) */
} d_status;

/* A library result as the daemon's kind (util.c). */
d_status d_status_of(g16_status s);

enum { ST_SYNTH, ST_MSM, ST_FINAL, ST_COUNT };

typedef struct {
    char socket_path[108];
    char state_dir[1024];
    char allow_dir[D_MAX_ALLOW][1024];
    int n_allow;
    int tcp_port;    /* 0: no TCP listener */
    char token[256]; /* bearer token for TCP */
    size_t budget;   /* bytes; 0: from MemAvailable */
    size_t budget_margin;
    int workers[ST_COUNT];     /* synthesis, MSM, finalize (MSM 0: decided at start) */
    int queue_depth[ST_COUNT]; /* [ST_MSM], [ST_FINAL]: parts allowed to wait */
    int threads;               /* CPU threads the stage calls share (resolved: >= 1) */
    int domain_per_thread;     /* a key's partitions get a thread per this much domain */
    size_t max_body;
    double result_ttl;  /* seconds a finished result is kept */
    double fetched_ttl; /* seconds it is kept once fetched */
    int sample_ms;
    int self_verify;
    int max_connections;
    int device;            /* enum g16_device: where proofs run (--device) */
    int g2_on_cpu;         /* GPU proofs run the B2 MSM on the CPU alongside */
    int gpu_copies;        /* --gpu-copies: shift copies of a GPU key's points (0: none) */
    int gpu_batch;         /* --gpu-batch: most partitions in one GPU pass (0: the key's own) */
    int pin_keys;          /* mlock each key's bytes: 1, 0, or -1 (auto: decided at startup) */
    size_t device_budget;  /* --device-memory-budget; 0: derived at startup */
    size_t witness_memory; /* --witness-memory: a calculator's linear memory cap (0: per circuit) */
    double witness_timeout; /* --witness-timeout: seconds a calculation may run (0: no limit) */
    char queue[1024];       /* --queue: the fleet's PostgreSQL URL ("": one host, SQLite) */
    double lease_s;         /* --lease: seconds a claimed partition is this host's unrenewed */
    int queue_listen;       /* an idle host is woken by LISTEN/NOTIFY (off: --no-listen) */
    int log_json;           /* --log-format json */
    int log_level;          /* --log-level: a d_log_level */
    int argc;               /* the command line, read again with the file at SIGHUP */
    char **argv;
} d_config;

typedef enum {
    P_QUEUED,
    P_SYNTH,
    P_SYNTHED,
    P_MSM,
    P_MSMED,
    P_FINAL,
    P_DONE,
    P_FAILED,
    P_CANCELLED
} part_state;

typedef struct dkey {
    char name[D_NAME_MAX];
    char path[1024];
    g16_key *key;
    uint8_t *buf; /* the .zkey bytes, resident (the key points into them), own pages */
    size_t buf_len;
    int pinned;                  /* buf is mlock'ed */
    char *pin_error;             /* why pinning failed; NULL if it did not (or was not asked) */
    char *vk_json;               /* for self-verification; NULL if unavailable */
    size_t bytes;                /* charged to the budget */
    int threads;                 /* its partitions' threads (sched.c: more when few wait) */
    size_t job_bytes, abc_bytes; /* a partition's host reservation with those threads, and what
                                    synthesis gives back */
    int on_gpu;                  /* resident on the GPU: its jobs prove there (and only there) */
    size_t device_bytes;         /* GPU memory the key holds */
    size_t host_pinned;          /* on the GPU: its pinned witness buffer, charged beside bytes */
    size_t dev_charge;           /* charged to the device budget: its copy + its proofs' workspace
                                   (while it uploads: the estimate of both) */
    char *gpu_error;             /* why an AUTO daemon keeps it on the CPU; NULL if it did not */
    char wasm[1024];             /* its circuit's witness calculator; "" when it has none */
    g16_circuit *circuit;        /* open (compiled or from the cache) while the key is */
    int wasm_compiled;           /* this load compiled it (else it came from the cache) */
    /* hex SHA-256 of the wasm bytes compiled: before the load, the digest
     * they must have ("" for any) */
    char wasm_sha256[65];
    size_t wasm_bytes;     /* the .wasm's size */
    size_t compile_charge; /* while its circuit is opened (compiled unless cached): the
                                    budget it holds for wasm2c and cc (keys.c) */
    int opening_circuit;   /* listed as compiling meanwhile */
    /* Its circuit's witness graphs (keys.c, Graphs): the memory they
     * hold, charged beside bytes; whether one is being built (1) or not
     * (0), and the build's reservation meanwhile. */
    size_t graph_bytes;
    int graph_build;
    size_t graph_reserved;
    double last_used;
    int pending; /* unfinished partitions that need it, and holds (jobtab.c) */
    int holds;   /* pending's share that is no partition: a submission being checked */
    struct dkey *next;
} dkey;

struct job;

/* A partition's .wtns bytes, read from its file, taken from its payload
 * (owned: malloc'd) or computed from its input (computed): which says how
 * to free them.  Its job points into them
 * (g16_options.borrow_witness: no copy of the values, at 2^24 512 MB of
 * fresh pages), so they live until the job is freed (d_reap). */
typedef struct {
    uint8_t *buf;
    size_t len;
    int computed, owned;
} d_wtns;

void d_wtns_free(d_wtns *w);

typedef struct {
    struct job *job;
    int idx;
    part_state state;
    char *wtns_path;   /* where the witness is read at synthesis */
    size_t wtns_bytes; /* its size (for an input: the size of the .wtns computed) */
    int uploaded;      /* wtns_path is ours (state dir): delete with the job */
    char *input_path;  /* an input.json (state dir, ours) computed at synthesis instead */
    size_t input_bytes;
    int input; /* its witness is computed from an input (input_path or payload) */
    /* the uploaded .wtns or the input's text (NUL-terminated) in memory
     * rather than in a file: from submission until the backend takes the
     * job (local: journaled to the state directory; fleet: sent as
     * bytes), and a fleet's claimed partition until its synthesis */
    uint8_t *payload;
    size_t payload_len;
    size_t calc_bytes; /* the witness calculation's share of the reservation (0: none) */
    size_t reserved;   /* budget bytes held now */
    int threads;       /* its stage calls' threads, chosen with its reservation */
    int whole;         /* runs as one whole-proof call (policy_whole_proof), not staged */
    int read_early;    /* its witness was read (and checked) at submission */
    /* its witness computed from its input by the "graph" or the "wasm"; "" if not */
    char witness_path[8];
    g16_job *gj;
    d_wtns wtns;                         /* what gj's witness points into; for a lone job, read at
                    submission (its bytes reserved since: d_part_hold) */
    char *proof, *pub, *error, *timings; /* timings: JSON object text */
    double t_queued, t_stage, wait_s, witness_s, synth_s, msm_s, final_s, verify_s;
    g16_timings t;
} part;

typedef struct job {
    char id[33];
    char key[D_NAME_MAX];
    int priority;
    int64_t seq;
    double created, finished, fetched;
    int nparts, nterminal, nfailed;
    int cancelled;
    dkey *k; /* valid while a partition is unfinished (pinned by k->pending) */
    part *parts;
    struct job *next;
} job;

typedef struct {
    double le[12];
    uint64_t count[13];
    double sum;
    uint64_t n;
} histo;

typedef struct d_sample {
    double unix_s;
    int64_t rss_kb, anon_kb, file_kb, shmem_kb, hwm_kb, locked_kb;
    int64_t gpu_kb; /* this process's GPU memory (NVML); -1: unknown */
    int64_t reserved_kb, held_parts;
    int queued[ST_COUNT], busy[ST_COUNT];
} d_sample;

typedef struct reap {
    g16_job *gj;
    d_wtns wtns; /* freed after gj */
    part *p;     /* reservation to release (NULL: none) */
    size_t bytes;
    struct reap *next;
} reap;

struct d_backend;

typedef struct g16d {
    d_config cfg;
    pthread_mutex_t mu;
    pthread_cond_t work, changed, reap_cv;
    dkey *keys;
    job *jobs;
    int64_t next_seq;
    int use_gpu; /* keys go to the GPU at load (--device gpu, or auto with a GPU) */
    size_t reserved, key_bytes;
    size_t body_reserved;        /* the part of reserved that request bodies hold (http.c) */
    size_t dev_budget, dev_used; /* device memory budget (0: none) and the GPU keys' charges */
    int held_parts;              /* partitions holding a reservation */
    int synth_needs_memory;      /* the next partition waits for budget (pick_synth) */
    int nstate[P_CANCELLED + 1]; /* partitions in each state (kept by jobtab_set_state) */
    int busy[ST_COUNT];
    int cpu_busy;   /* threads the running CPU stage calls hold (<= cfg.threads) */
    int long_polls; /* long-polls parked by the HTTP layer, waiting for a job */
    int stopping, stopped_workers;
    int graph_builders;   /* graph builds running (keys.c); the workers' stop waits for them */
    int draining;         /* D_DRAIN_API or D_DRAIN_SIGNAL: no new work taken (health.c) */
    char gpu_lost[D_ERR]; /* why the GPU failed a stage call ("": it has not) */
    uint64_t proofs_done, proofs_failed, jobs_submitted;
    histo hist[ST_COUNT + 1]; /* + budget wait */
    reap *reap_head, *reap_tail;
    const struct d_backend *be; /* where jobs live: local (store.c) or fleet (fleet.c) */
    void *db;                   /* store.c's sqlite3; NULL in a fleet */
    void *fleet;                /* fleet.c's state under --queue; NULL otherwise */
    /* telemetry (own lock: a sample never waits for the pipeline's) */
    pthread_mutex_t tmu;
    double started;
    d_sample *ring;
    size_t ring_cap, ring_n, ring_pos;
    int64_t peak_since_scrape_kb;
    void *mw; /* mw_writer */
    char trace_path[1100];
    pthread_t workers[64];
    int n_workers;
    pthread_t reaper;
    /* cron.c: the thread of the periodic tasks */
    pthread_mutex_t cron_mu;
    pthread_cond_t cron_cv;
    int cron_stop, cron_started;
    pthread_t cron;
    int lock_fd;
    int listen_fd; /* a socket systemd passed (g16d.socket): served, never bound nor unlinked;
                      -1: bind --socket */
    int reloads;   /* SIGHUPs that changed the configuration (reload.c) */
} g16d;

/* config.c */
int d_config_load(d_config *c, int argc, char **argv, int *exit_code);
/* reload.c: SIGHUP: the --config file (and the flags, which still win)
 * read again; what can change live does, under mu; the rest is named in
 * one log line and kept. */
void d_reload(g16d *d);
void d_default_socket(char *buf, size_t len);

/* sd.c: systemd's notify protocol and socket activation (no-ops without
 * libsystemd).  d_sd_listen: 1 with the passed socket in d->listen_fd (its
 * path in cfg.socket_path), 0 with none, -1 with err.
 * d_sd_watchdog_interval: seconds between WATCHDOG=1 pings, 0 without a
 * watchdog. */
int d_sd_listen(g16d *d, char *err, size_t errlen);
void d_sd_notify(const char *state);
double d_sd_watchdog_interval(void);
/* log.c: one line per event on stderr, text or JSON (its head comment
 * says how a call's fields are written). */
typedef enum { D_LOG_DEBUG, D_LOG_INFO, D_LOG_NOTICE, D_LOG_WARNING, D_LOG_ERR } d_log_level;
void d_log_setup(int json, d_log_level min);
/* "debug", "info", "notice", "warning" or "error": 0 with *out, else -1. */
int d_log_parse_level(const char *s, d_log_level *out);
/* fmt: "name=%conv name=%conv ...", one conversion a field. */
void d_log(d_log_level lvl, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* util.c */
double d_now(void);
/* t (d_now's clock, which pthread_cond_timedwait uses) as a timespec. */
void d_abs_time(struct timespec *ts, double t);
void d_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* D_OK with the resolved path in real, D_ERR_NOT_FOUND (errno says
 * why) or D_ERR_FORBIDDEN. */
d_status d_path_allowed(const d_config *c, const char *path, char *real, size_t reallen);
int d_base64_decode(const char *in, size_t inlen, uint8_t **out, size_t *outlen);
void d_random_id(char out[33]);
int d_mkdirs(const char *path, int mode);
const char *d_state_name(part_state s);
int d_name_ok(const char *s);
int d_cap_ipc_lock(void);
/* The first line of a /proc file that fmt (one %llu or %llx) matches:
 * 0 with *out, or -1 (*out untouched). */
int d_proc_value(const char *path, const char *fmt, unsigned long long *out);

/* request.c: request bodies parsed for shape alone (no state, no files).
 * D_OK, or D_ERR_ARG with why; *root (free with json_decref, also on
 * failure) owns the strings returned. */
struct json_t;
d_status d_key_request_parse(const char *body, size_t len, struct json_t **root, const char **name,
                             const char **path, const char **wasm, char *err, size_t errlen);
/* {"key", "witnesses" | "inputs": [1..1024 entries, not looked into],
 * "priority"}; *inputs says which list *ws is. */
d_status d_proof_request_parse(const char *body, size_t len, struct json_t **root, const char **key,
                               struct json_t **ws, int *inputs, int *prio, char *err,
                               size_t errlen);

/* keys.c */
dkey *d_key_find(g16d *d, const char *name);
/* The threads each stage call of a CPU key's partitions gets, from the
 * key's domain size (the scheduler's policy: see sched.c). */
int d_key_threads(const g16d *d, uint32_t domain_size);
/* An input partition's witness and calculation sizes, from its key's
 * circuit (at submission and when restored). */
void d_part_input_bytes(part *p, const dkey *k);
d_status d_key_load(g16d *d, const char *name, const char *path, const char *wasm, int persist,
                    char *err, size_t errlen);
/* The same, only with a circuit whose bytes have the SHA-256 wasm_sha256
 * (hex; NULL: any): another file there is refused with G16_ERR_MISMATCH
 * before it is compiled. */
d_status d_key_load_bound(g16d *d, const char *name, const char *path, const char *wasm,
                          const char *wasm_sha256, int persist, char *err, size_t errlen);
/* What computing one witness from an input of input_len bytes holds
 * beyond the .wtns (the calculator's linear memory at its cap, the
 * parsed inputs and the witness values): reserved with the partition. */
size_t d_key_calc_bytes(const dkey *k, size_t input_len);
/* After a partition's witness came from k's wasm: starts building the
 * circuit's graph from the same input on a thread of its own, once per
 * key, when the budget has room for it; takes *text (the input) then. */
void d_key_graph_after(g16d *d, dkey *k, char **text);
void d_key_free(dkey *k);
d_status d_key_evict(g16d *d, const char *name, char *err, size_t errlen);
/* Evicts idle keys until need bytes are free (0), or -1; mu held.  The
 * evicted keys are unlisted and added to *freed, for the caller to free
 * with d_key_reap once mu is released. */
int d_key_make_room(g16d *d, size_t need, const dkey *keep, dkey **freed);
/* Frees the keys of *freed (and empties it); mu not held: freeing
 * gigabytes (munmap, munlock, the GPU copy) must not hold the lock. */
void d_key_reap(dkey **freed);
size_t d_budget_free(const g16d *d);

/* devbudget.c: the device memory budget's decision, pure so it is
 * testable without a GPU.  A key resident on the GPU as it sees it: its
 * charge (device memory its eviction gives back), busy when unfinished
 * partitions need it (or it is loading), its last use. */
typedef policy_key d_dev_key;
/* Which of keys[0..n) to evict so that need more bytes fit in budget (0:
 * no budget): policy_evict over the keys' charges. */
int d_dev_fit(size_t budget, const d_dev_key *keys, int n, size_t need, int *victims,
              int *nvictims);

/* bodybudget.c: a request body's parse, charged to the memory budget
 * before it starts (pure, so testable without a daemon).  What parsing
 * body (len bytes) may hold beyond the body itself: jansson's tree,
 * counted from the body's tokens, and for each input object its text
 * written back and its values as field words. */
size_t d_body_parse_bytes(const char *body, size_t len);
typedef enum { D_BODY_FITS, D_BODY_NOT_NOW, D_BODY_NEVER } d_body_fit_t;
/* more bytes for a request that holds held already, against the budget
 * and what of it is free now: NEVER when held + more is more than the
 * whole budget (413), NOT_NOW when more is more than is free (507). */
d_body_fit_t d_body_fit(size_t budget, size_t free_now, size_t held, size_t more);

/* sched.c */
int d_workers_start(g16d *d);
/* Threads up to the stages' worker counts, which a reload may have
 * raised (fewer: the counts cap the calls, the extra threads idle).
 * mu held, before d_workers_stop. */
int d_workers_grow(g16d *d);
void d_workers_stop(g16d *d);
void d_part_finish(g16d *d, part *p, part_state st, const char *error);
void d_release(g16d *d, part *p, size_t bytes);
void d_reap(g16d *d, g16_job *gj, part *p, size_t bytes);
/* Whether a one-partition job submitted now would run alone
 * (policy_whole_proof) with a reservation of need bytes free now: then
 * its witness is read into memory at submission (jobs.c).  mu held. */
int d_lone_now(const g16d *d, size_t need);
/* bytes of p's reservation taken before it is queued (its witness read
 * at submission), or given back with the witness when it is not. */
void d_part_hold(g16d *d, part *p, size_t bytes);
void d_part_unhold(g16d *d, part *p);

/* jobs.c */
d_status d_job_submit(g16d *d, const char *body, size_t len, char **out, char *err, size_t errlen);
/* Whether a long-poll for job id has something to wait for here (the
 * backend says, and the daemon is not stopping).  mu held. */
int d_job_waitable(g16d *d, const char *id);
/* The job as a reply shows it (mu held; *v freed with d_job_view_free):
 * 0, or -1 when out of memory. */
int d_job_view_of(const job *j, d_job_view *v);
void d_job_row_of(const job *j, d_job_row *r);
int d_job_cancel(g16d *d, job *j);
int d_job_terminal(const job *j);

/* The backend: where jobs live, one table of operations for each mode,
 * so nothing outside store.c (local: SQLite, jobs in this process) and
 * fleet.c (a fleet's host: PostgreSQL) asks which mode it runs in.
 * Calls marked "mu held" run under d->mu and must not block on a
 * database other than the local file; the rest run without it. */
typedef struct d_backend {
    const char *name;
    /* opens what holds the jobs, then restores what it held */
    d_status (*open)(g16d *d, char *err, size_t errlen);
    d_status (*restore)(g16d *d, char *err, size_t errlen);
    int (*start)(g16d *d); /* its threads, after the workers' */
    void (*stop)(g16d *d); /* after the workers stopped */
    void (*close)(g16d *d);
    /* POST /v1/keys: loaded here (and registered, in a fleet) */
    d_status (*key_load)(g16d *d, const char *name, const char *path, const char *wasm, char *err,
                         size_t errlen);
    void (*key_saved)(g16d *d, const dkey *k, int present); /* mu held */
    /* before a submission is checked: the key is here and the right one */
    d_status (*key_ready)(g16d *d, const char *name, char *err, size_t errlen);
    /* a checked job: taken (queued here, or in the fleet's queue, then
     * discarded here) on G16_OK */
    d_status (*submit)(g16d *d, job *j, char *err, size_t errlen);
    void (*part_done)(g16d *d, const part *p);  /* mu held: p is terminal */
    void (*job_changed)(g16d *d, const job *j); /* mu held: finished, fetched, cancelled */
    void (*job_deleted)(g16d *d, const job *j); /* mu held: purged */
    /* GET /v1/proofs/ID (fetching it), waiting up to wait seconds for
     * it to finish when the backend waits itself (waitable says 0) */
    d_status (*job_view)(g16d *d, const char *id, double wait, d_job_view *v, char *err,
                         size_t errlen);
    d_status (*job_list)(g16d *d, d_job_list *l, char *err, size_t errlen);
    d_status (*cancel)(g16d *d, const char *id, d_job_view *v, char *err, size_t errlen);
    int (*waitable)(g16d *d, const char *id); /* mu held: the HTTP layer may park a long-poll */
    /* GET /v1/fleet (G16_ERR_NOT_FOUND with why on one host) */
    d_status (*hosts)(g16d *d, char **json, char *err, size_t errlen);
    char *(*metrics)(g16d *d); /* /metrics lines beyond the daemon's (malloc'd; NULL: none) */
    /* mu held: 0 while where the jobs live answers, else 1 with why
     * (GET /v1/health says degraded); NULL: always answers */
    int (*health)(g16d *d, char *why, size_t whylen);
    /* periodic work, run by cron.c (NULL: none in this mode) */
    void (*heartbeat)(g16d *d); /* this host's leases renewed */
    void (*purge)(g16d *d);     /* the backend's own expired jobs deleted */
    void (*poll)(g16d *d);      /* look for work (a fleet's claimer) */
    void (*tick)(g16d *d);      /* requests waiting on the backend look again */
    int remote;                 /* job requests ask a database: served on threads of their own */
    /* its submitted jobs are proved here as submitted (local), so a lone
     * partition's witness read at submission is the one proved (0: a
     * fleet's go to its queue, and come back as claims) */
    int proves_submitted;
} d_backend;

/* store.c */
extern const d_backend d_backend_local;

/* telemetry.c */
int d_telemetry_start(g16d *d, char *err, size_t errlen);
/* One memory sample into the ring and the trace (cron.c's "sample"). */
void d_telemetry_sample(g16d *d);
void d_telemetry_stop(g16d *d);

/* cron.c: every periodic task, on one thread (its head comment lists
 * them).  Started once the workers and the backend run; stopped after
 * the backend, before the telemetry. */
int d_cron_start(g16d *d);
void d_cron_stop(g16d *d);
void d_histo_init(histo *h);
void d_histo_add(histo *h, double v);
char *d_metrics_text(g16d *d);
char *d_memory_csv(g16d *d, double since);
char *d_memory_json(g16d *d, double since);
void d_memory_now(g16d *d, d_sample *s);

/* http.c */
typedef struct d_http d_http;
d_http *d_http_start(g16d *d, char *err, size_t errlen);
void d_http_quiesce(d_http *h);
void d_http_stop(d_http *h);

/* api.c */
typedef struct {
    int status;
    char *body; /* malloc'd */
    const char *content_type;
} d_reply;
typedef struct {
    const char *method, *path;
    const char *(*query)(void *ctx, const char *name); /* a ?name= argument or NULL */
    void *qctx;
    const char *body;
    size_t len;
} d_request;
void d_api(g16d *d, const d_request *rq, d_reply *r);
/* 1 when the request may take long (files, freeing a key, the fleet's
 * database): the HTTP layer serves it on a thread of its own, never on
 * its event thread. */
int d_api_blocks(const g16d *d, const d_request *rq);
/* A long-poll: the seconds GET /v1/proofs/ID?wait=S may wait (capped),
 * with *id; 0 when the request is none. */
double d_api_wait(const d_request *rq, const char **id);
/* The HTTP status of a failure kind. */
int d_http_status(d_status code);
void d_reply_error(d_reply *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* health.c: whether this host takes work (GET /v1/health) and the
 * drain that takes it out of service without losing work. */
enum { D_DRAIN_API = 1, D_DRAIN_SIGNAL };
typedef struct {
    const char *state; /* "ready", "draining" or "degraded" */
    const char *lost;  /* degraded: "database" or "gpu" */
    char why[D_ERR];
} d_health;
/* mu held. */
void d_health_of(g16d *d, d_health *h);
/* Partitions this daemon holds that are not final yet.  mu held. */
int d_drain_left(const g16d *d);
/* Drains (how: D_DRAIN_API or D_DRAIN_SIGNAL) or, with 0, resumes; a
 * drain a signal began cannot be resumed (D_ERR_STOPPING). */
d_status d_drain_set(g16d *d, int how, char *err, size_t errlen);
/* A stage call failed with G16_ERR_DEVICE: the GPU is lost.  mu held. */
void d_health_gpu_failed(g16d *d, const char *why);
/* main.c's signals until the daemon should stop: SIGTERM drains and
 * returns once nothing is left, a second SIGTERM or SIGINT at once;
 * SIGHUP reloads the configuration.  The signal that stopped it. */
int d_signal_loop(g16d *d);

/* fleet.c: this daemon as one host of a fleet (--queue). */
extern const d_backend d_backend_fleet;

#endif
