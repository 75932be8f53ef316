/* Resident proving keys.  A key's bytes are read into memory once (so the
 * prover never waits on page faults into the file), locked there with
 * --pin-keys, and charged to the memory budget (pinned or not); idle keys
 * are evicted least-recently-used first when a key or a partition needs
 * room. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "d.h"

dkey *d_key_find(g16d *d, const char *name)
{
    for (dkey *k = d->keys; k; k = k->next)
        if (!strcmp(k->name, name)) return k;
    return NULL;
}

size_t d_budget_free(const g16d *d)
{
    size_t used = d->reserved + d->key_bytes;
    return used >= d->cfg.budget ? 0 : d->cfg.budget - used;
}

void d_key_free(dkey *k)
{
    if (!k) return;
    g16_key_free(k->key);                 /* and its GPU copy */
    g16_file_release(k->buf, k->buf_len); /* unlocks it too, when pinned */
    free(k->vk_json);
    free(k->gpu_error);
    free(k->pin_error);
    g16_circuit_close(k->circuit);
    free(k);
}

static void unlink_key(g16d *d, dkey *k)
{
    for (dkey **pp = &d->keys; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            break;
        }
    d->key_bytes -= k->bytes + k->host_pinned + k->graph_bytes;
    d->dev_used -= k->dev_charge;
    d->be->key_saved(d, k, 0);
}

/* Frees the keys unlinked under mu once the caller has let go of it:
 * freeing gigabytes (munmap, munlock, the GPU copy) must not hold the lock
 * every request needs.  The caller that made room frees the memory
 * itself before it uses that room. */
void d_key_reap(dkey **freed)
{
    while (*freed) {
        dkey *k = *freed;
        *freed = k->next;
        d_key_free(k);
    }
}

/* Unlinks k onto *freed, for d_key_reap once mu is released.  mu held. */
static void drop(g16d *d, dkey *k, dkey **freed)
{
    unlink_key(d, k);
    k->next = *freed;
    *freed = k;
}

static void evict(g16d *d, dkey *k, const char *budget, dkey **freed)
{
    d_log(D_LOG_NOTICE, "key_evicted", "key=%s bytes=%zu device_bytes=%zu why=%s", k->name,
          k->bytes, k->dev_charge, budget);
    drop(d, k, freed);
}

static int evictable(const dkey *k, const dkey *keep)
{
    return k != keep && k->pending == 0 && k->key;
}

/* Evicts the idle keys (no unfinished partition needs them) that
 * policy_evict chooses, oldest use first, until need bytes are free.  0
 * when they are; -1, evicting nothing, when even every idle key would not
 * make room (or there is no memory to ask).  The evicted keys are put on
 * *freed for the caller to free (d_key_reap) without the lock.  mu held. */
int d_key_make_room(g16d *d, size_t need, const dkey *keep, dkey **freed)
{
    int n = 0, nv = 0, rc = -1;
    for (dkey *k = d->keys; k; k = k->next) n++;
    policy_key *pk = calloc((size_t)n + 1, sizeof *pk);
    dkey **who = calloc((size_t)n + 1, sizeof *who);
    int *victims = calloc((size_t)n + 1, sizeof *victims);
    if (pk && who && victims) {
        n = 0;
        for (dkey *k = d->keys; k; k = k->next) {
            pk[n] = (policy_key){k->bytes + k->host_pinned + k->graph_bytes, !evictable(k, keep),
                                 k->last_used};
            who[n++] = k;
        }
        rc = policy_evict(d->cfg.budget, d->reserved + d->key_bytes, pk, n, need, victims, &nv);
        for (int i = 0; i < nv; i++) evict(d, who[victims[i]], "room in the memory budget", freed);
    }
    free(pk);
    free(who);
    free(victims);
    return rc;
}

/* Room in the device budget for self's need bytes (d_dev_fit over the
 * keys with a device charge; a loading key counts as busy): evicts the
 * idle GPU keys it names and charges need to self at once, so loads in
 * parallel see it.  0, or -1 with why; mu held. */
static int device_room(g16d *d, dkey *self, size_t need, dkey **freed, char *why, size_t whylen)
{
    int n = 0, nv = 0, rc = -1;
    for (dkey *k = d->keys; k; k = k->next) n += k->dev_charge > 0;
    d_dev_key *dk = calloc((size_t)n + 1, sizeof *dk);
    dkey **who = calloc((size_t)n + 1, sizeof *who);
    int *victims = calloc((size_t)n + 1, sizeof *victims);
    if (!dk || !who || !victims) {
        d_errf(why, whylen, "out of memory");
    } else {
        n = 0;
        for (dkey *k = d->keys; k; k = k->next)
            if (k->dev_charge) {
                dk[n] = (d_dev_key){k->dev_charge, k->pending > 0 || !k->key, k->last_used};
                who[n++] = k;
            }
        rc = d_dev_fit(d->dev_budget, dk, n, need, victims, &nv);
        if (rc)
            d_errf(why, whylen,
                   "its estimated %zu bytes of device memory (copy and proof workspace) "
                   "do not fit the %zu-byte device budget, %zu of it held by keys in use",
                   need, d->dev_budget, d->dev_used);
        for (int i = 0; i < nv; i++)
            evict(d, who[victims[i]], "room in the device memory budget", freed);
    }
    if (rc == 0) {
        self->dev_charge = need;
        d->dev_used += need;
    }
    free(dk);
    free(who);
    free(victims);
    return rc;
}

/* After the upload: the charge becomes the copy's reported size plus the
 * workspace estimate (or nothing, when it failed).  mu held. */
static void device_charge(g16d *d, dkey *k, int uploaded, size_t workspace)
{
    size_t planned = k->dev_charge;
    d->dev_used -= planned;
    k->dev_charge = uploaded ? k->device_bytes + workspace : 0;
    d->dev_used += k->dev_charge;
    if (k->dev_charge > planned)
        d_log(D_LOG_WARNING, "key_device_over_plan", "key=%s device_bytes=%zu planned=%zu", k->name,
              k->dev_charge, planned);
}

/* Makes the key resident on the GPU.  The upload sorts the coefficients
 * into CSR copies on the host first (36 bytes a coefficient), charged for
 * the upload's duration; a streamed key's points are pinned in the key's
 * own buffer (already charged), and pinned copies, where the driver
 * declines that, are charged after it with a warning.  On the
 * device the key is charged the library's estimates of its copy and its
 * proofs' workspace until the upload reports the copy's size.  Under AUTO
 * a key that cannot go (no room in either budget, or device memory full)
 * stays on the CPU, saying why; under GPU the load fails.  Runs without
 * the lock. */
static d_status gpu_load(g16d *d, dkey *k, g16_key *key, char *err, size_t errlen)
{
    char e2[D_ERR], why[D_ERR];
    d_status rc = D_ERR_TOO_LARGE; /* no room in one of the budgets */
    size_t ws = g16_key_gpu_workspace_bytes(key);
    /* a key too large for the budget whole plans chunked MSMs or streamed
     * points within it; that plan is then its whole charge */
    size_t plan = g16_key_gpu_plan_bytes(key, d->cfg.gpu_copies, d->dev_budget, NULL);
    int whole = plan == g16_key_gpu_key_bytes(key, d->cfg.gpu_copies) + ws;
    size_t upload = g16_key_gpu_upload_host_bytes(key);
    dkey *freed = NULL;
    pthread_mutex_lock(&d->mu);
    int never = !policy_key_fits(d->cfg.budget, k->bytes, upload);
    int room = !never && d_key_make_room(d, upload, k, &freed) == 0;
    if (never) {
        rc = D_ERR_NEVER_FITS;
        d_errf(e2, sizeof e2,
               "%s: the key's %zu bytes and its GPU upload's %zu bytes of coefficients by row "
               "exceed the whole %zu-byte memory budget",
               k->path, k->bytes, upload, d->cfg.budget);
    } else if (room && !plan) {
        room = 0;
        d_errf(e2, sizeof e2,
               "%s: not even with its points streamed from host memory does the key fit the "
               "%zu-byte device budget",
               k->path, d->dev_budget);
    } else if (!room)
        d_errf(e2, sizeof e2,
               "%s: no room in the budget for the GPU upload's %zu bytes of coefficients by row",
               k->path, upload);
    else if (device_room(d, k, plan, &freed, why, sizeof why)) {
        room = 0;
        d_errf(e2, sizeof e2, "%s: %s", k->path, why);
    } else
        d->key_bytes += upload;
    pthread_mutex_unlock(&d->mu);
    d_key_reap(&freed);
    if (room) {
        rc = d_status_of(g16_key_gpu_load_budget(key, d->cfg.gpu_copies, d->dev_budget ? plan : 0,
                                                 &k->device_bytes, e2, sizeof e2));
        pthread_mutex_lock(&d->mu);
        d->key_bytes -= upload;
        device_charge(d, k, rc == 0,
                      whole ? ws : plan - (k->device_bytes < plan ? k->device_bytes : plan));
        k->host_pinned = rc == 0 ? g16_key_gpu_host_bytes(key) : 0;
        d->key_bytes += k->host_pinned;
        if (k->host_pinned && !d_budget_free(d))
            d_log(D_LOG_WARNING, "key_host_over_budget", "key=%s host_pinned=%zu budget=%zu",
                  k->name, k->host_pinned, d->cfg.budget);
        pthread_mutex_unlock(&d->mu);
        if (rc == 0) {
            k->on_gpu = 1;
            return D_OK;
        }
    }
    if (d->cfg.device == G16_DEVICE_GPU) {
        d_errf(err, errlen, "%s (--device gpu)", e2);
        return rc;
    }
    d_log(D_LOG_WARNING, "key_on_cpu", "key=%s why=%s", k->name, e2);
    k->gpu_error = strdup(e2);
    return D_OK;
}

/* Locks the key's bytes in RAM (read in already, so every page is
 * there): a key paged out under memory pressure would stall every proof
 * on faults.  The system call itself, not mlock(3): sanitizer runtimes
 * replace that with a no-op that reports success, and a key must not
 * claim a lock it lacks.  A failure is not fatal: the key works unpinned
 * and its listing says why. */
static void pin(dkey *k)
{
    if (syscall(SYS_mlock, k->buf, k->buf_len) == 0) {
        k->pinned = 1;
        return;
    }
    int e = errno;
    struct rlimit rl;
    char why[D_ERR];
    if (!d_cap_ipc_lock() && getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        d_errf(why, sizeof why,
               "mlock of %zu bytes: %s (RLIMIT_MEMLOCK is %llu bytes and there "
               "is no CAP_IPC_LOCK: raise it with ulimit -l or systemd's LimitMEMLOCK=)",
               k->buf_len, strerror(e), (unsigned long long)rl.rlim_cur);
    else
        d_errf(why, sizeof why, "mlock of %zu bytes: %s", k->buf_len, strerror(e));
    d_log(D_LOG_WARNING, "key_unpinned", "key=%s why=%s", k->name, why);
    k->pin_error = strdup(why);
}

/* The calculator's linear memory cap: --witness-memory, else the
 * circuit's starting memory with room for circom's allocations as it
 * runs (CIRCUIT_GROWTH times, at least CIRCUIT_MIN_MEMORY). */
#define CIRCUIT_GROWTH     4
#define CIRCUIT_MIN_MEMORY ((size_t)64 << 20)

static size_t circuit_memory(const g16d *d, const g16_circuit *c)
{
    if (d->cfg.witness_memory) return d->cfg.witness_memory;
    size_t m = g16_circuit_memory_bytes(c) * CIRCUIT_GROWTH;
    return m > CIRCUIT_MIN_MEMORY ? m : CIRCUIT_MIN_MEMORY;
}

/* The scheduler's policy (sched.c, Threads): a thread per
 * --domain-per-thread of the domain, but never so few that the MSM
 * workers could not use every thread. */
int d_key_threads(const g16d *d, uint32_t domain_size)
{
    return policy_key_threads(d->cfg.threads, d->cfg.workers[ST_MSM], d->cfg.domain_per_thread,
                              domain_size);
}

void d_part_input_bytes(part *p, const dkey *k)
{
    p->wtns_bytes = g16_witness_wtns_bytes(k->circuit);
    p->calc_bytes = d_key_calc_bytes(k, p->input_bytes);
}

size_t d_key_calc_bytes(const dkey *k, size_t input_len)
{
    size_t n8 = g16_circuit_field_bytes(k->circuit);
    /* the text, its JSON tree and names (a value costs at least two
     * characters of it), the values parsed into field elements */
    size_t inputs = 4 * input_len + (input_len / 2 + 1) * n8;
    /* the memory limit covers a graph's evaluation too: the library uses
     * a graph only when it and its evaluation fit in it */
    return g16_circuit_memory_limit(k->circuit) + inputs + g16_witness_wtns_bytes(k->circuit);
}

/* hex (64 digits) into bytes: 0, or -1 when it is no SHA-256. */
static int sha256_unhex(const char *hex, uint8_t out[G16_SHA256_BYTES])
{
    if (strlen(hex) != 2 * G16_SHA256_BYTES) return -1;
    for (int i = 0; i < G16_SHA256_BYTES; i++)
        if (!isxdigit((unsigned char)hex[2 * i]) || !isxdigit((unsigned char)hex[2 * i + 1]) ||
            sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
            return -1;
    return 0;
}

/* What compiling a circuit takes, outside g16d's own memory: wasm2c
 * and cc, one after the other, in processes of their own, cc the larger
 * (its optimizer's memory follows the generated C's largest functions,
 * which grow slower than the module).  Measured peaks: 141 MB for a 34 KB
 * wasm, 392 MB for 400 KB, 1.4 GB for 8 MB; a base and a square root of
 * the size cover all three (217 MB, 431 MB, 1.49 GB). */
#define COMPILE_BASE     ((size_t)128 << 20)
#define COMPILE_PER_ROOT ((size_t)480 << 10)

static size_t compile_bytes(size_t wasm_bytes)
{
    size_t root = 0; /* the integer square root, by bits */
    for (size_t bit = (size_t)1 << 31; bit; bit >>= 1)
        if ((root + bit) * (root + bit) <= wasm_bytes) root += bit;
    return COMPILE_BASE + COMPILE_PER_ROOT * root;
}

/* The circuit's opening holds the compile's estimate in the budget, or
 * all of the budget that is free when that is less (whether it compiles
 * or finds the cache's copy is the library's to know, and a cached one
 * opens in milliseconds): partitions wait rather than run beside cc.
 * Idle keys are not evicted for it.  The listing says "compiling". */
static void compile_charge(g16d *d, dkey *k, int on)
{
    pthread_mutex_lock(&d->mu);
    if (on) {
        size_t need = compile_bytes(k->wasm_bytes), room = d_budget_free(d);
        k->compile_charge = need < room ? need : room;
        d->reserved += k->compile_charge;
    } else {
        d->reserved -= k->compile_charge;
        k->compile_charge = 0;
        pthread_cond_broadcast(&d->work);
    }
    k->opening_circuit = on;
    pthread_mutex_unlock(&d->mu);
}

/* Graphs.  A circuit's witness graph (docs/witness-graph.md) is made by
 * tracing one calculation, seconds at 2^20: never on a synthesis worker.
 * The circuit makes them only on request; a partition computed by the
 * wasm because no graph fitted its input's path (the first one, for the
 * first graph; g16_circuit_graph_wanted) hands its input to a thread of
 * its own (d_key_graph_after), one at a time a key, which holds the key
 * (a hold: not evicted meanwhile) and a reservation for the wasm's run
 * and the trace, and charges the graphs' memory to the key once made.
 * Graphs from the cache are charged at load. */
static d_status graph_at_load(g16d *d, dkey *k, char *err, size_t errlen)
{
    g16_circuit_graph_info g;
    if (g16_circuit_graph_on_request(k->circuit, 1) || g16_circuit_graph(k->circuit, &g)) {
        d_errf(err, errlen, "%s: its witness graph's state is unknown", k->wasm);
        return D_ERR_INTERNAL;
    }
    /* idle keys make room for it as for the key's bytes; the graph is
     * mapped already, so it is charged even where they cannot */
    dkey *freed = NULL;
    pthread_mutex_lock(&d->mu);
    if (g.bytes && d_key_make_room(d, g.bytes, k, &freed))
        d_log(D_LOG_WARNING, "key_graph_over_budget", "key=%s bytes=%zu free=%zu", k->name, g.bytes,
              d_budget_free(d));
    k->graph_bytes = g.bytes;
    d->key_bytes += g.bytes;
    pthread_mutex_unlock(&d->mu);
    d_key_reap(&freed);
    return D_OK;
}

/* What a graph's build may take: the wasm's calculation (as a
 * partition's), the trace's shadow of its linear memory, and the trace
 * and graph themselves (an estimate: at 2^20 about twice the witness). */
static size_t graph_build_bytes(const dkey *k, size_t input_len)
{
    return d_key_calc_bytes(k, input_len) + g16_circuit_memory_limit(k->circuit) +
           4 * g16_witness_wtns_bytes(k->circuit);
}

typedef struct {
    g16d *d;
    dkey *k;
    char *text;
} graph_job;

static void *graph_build(void *arg)
{
    graph_job *j = arg;
    g16d *d = j->d;
    dkey *k = j->k;
    char err[D_ERR];
    double t0 = d_now();
    g16_circuit_graph_info g;
    unsigned before = g16_circuit_graph_count(k->circuit);
    g16_status rc =
        g16_circuit_make_graph(k->circuit, j->text, strlen(j->text), "input", err, sizeof err);
    unsigned graphs = g16_circuit_graph_count(k->circuit);
    if (g16_circuit_graph(k->circuit, &g)) g.present = 0, graphs = before;
    pthread_mutex_lock(&d->mu);
    d->reserved -= k->graph_reserved;
    k->graph_reserved = 0;
    /* the circuit's graphs together: the one made now added */
    d->key_bytes = d->key_bytes - k->graph_bytes + g.bytes;
    k->graph_bytes = g.bytes;
    k->graph_build = 0; /* another path's input may make another */
    if (graphs > before)
        d_log(D_LOG_INFO, "key_graph", "key=%s bytes=%zu graphs=%u seconds=%.3f", k->name, g.bytes,
              graphs, d_now() - t0);
    else
        d_log(D_LOG_NOTICE, "key_graph_none", "key=%s graphs=%u why=%s", k->name, graphs,
              rc         ? err
              : g.why[0] ? g.why
                         : "a graph fits the input's path");
    k->pending--;
    k->holds--;
    d->graph_builders--;
    pthread_cond_broadcast(&d->work); /* the reservation's memory is free again */
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->mu);
    free(j->text);
    free(j);
    return NULL;
}

void d_key_graph_after(g16d *d, dkey *k, char **text)
{
    pthread_mutex_lock(&d->mu);
    size_t need = graph_build_bytes(k, strlen(*text));
    graph_job *j = NULL;
    if (!k->graph_build && !d->stopping && need <= d_budget_free(d) && (j = malloc(sizeof *j))) {
        *j = (graph_job){d, k, *text};
        k->graph_build = 1;
        k->graph_reserved = need;
        d->reserved += need;
        k->pending++;
        k->holds++;
        d->graph_builders++;
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, graph_build, j)) {
            k->graph_build = 0;
            d->reserved -= need;
            k->graph_reserved = 0;
            k->pending--;
            k->holds--;
            d->graph_builders--;
            free(j);
            j = NULL;
        }
        pthread_attr_destroy(&attr);
    }
    if (j) *text = NULL; /* the build frees it */
    pthread_mutex_unlock(&d->mu);
}

/* Opens the key's circuit (compiling it into the state directory's
 * cache on first use), only from the bytes k->wasm_sha256 names when it
 * names any, and checks that its witnesses fit the key: the same field,
 * as many values as the key has variables. */
static d_status open_circuit(g16d *d, dkey *k, const g16_key *key, char *err, size_t errlen)
{
    char cache[1100];
    uint8_t want[G16_SHA256_BYTES], got[G16_SHA256_BYTES];
    snprintf(cache, sizeof cache, "%s/circuits", d->cfg.state_dir);
    if (k->wasm_sha256[0] && sha256_unhex(k->wasm_sha256, want)) {
        d_errf(err, errlen, "%s: the expected SHA-256 '%s' is not one", k->wasm, k->wasm_sha256);
        return D_ERR_ARG;
    }
    /* The open runs the circuit's start code: under --witness-timeout and
     * the memory cap (the least of the default's, its start unknown yet),
     * so a start that never ends fails the load instead of leaving the
     * key loading, unremovable, with a core spinning. */
    g16_circuit_limits limits = {.time_limit = d->cfg.witness_timeout,
                                 .memory_limit = d->cfg.witness_memory ? d->cfg.witness_memory
                                                                       : CIRCUIT_MIN_MEMORY};
    compile_charge(d, k, 1);
    d_status rc = d_status_of(g16_circuit_open_checked(
        k->wasm, cache, &limits, k->wasm_sha256[0] ? want : NULL, &k->circuit, err, errlen));
    compile_charge(d, k, 0);
    if (rc) return rc == D_ERR_NOT_FOUND ? D_ERR_ARG : rc;
    g16_circuit_wasm_sha256(k->circuit, got);
    for (int i = 0; i < G16_SHA256_BYTES; i++) sprintf(k->wasm_sha256 + 2 * i, "%02x", got[i]);
    k->wasm_compiled = g16_circuit_compiled(k->circuit);
    const char *curve = g16_circuit_curve(k->circuit);
    if (!curve || strcmp(curve, g16_key_curve(key))) {
        d_errf(err, errlen, "%s: the circuit computes over %s but %s is a %s key", k->wasm,
               curve ? curve : "an unknown field", k->path, g16_key_curve(key));
        return D_ERR_MISMATCH;
    }
    if (g16_circuit_witness_size(k->circuit) != g16_key_n_vars(key)) {
        d_errf(err, errlen, "%s: the circuit's witness has %u values but %s expects %u", k->wasm,
               g16_circuit_witness_size(k->circuit), k->path, g16_key_n_vars(key));
        return D_ERR_MISMATCH;
    }
    g16_circuit_set_memory_limit(k->circuit, circuit_memory(d, k->circuit));
    g16_circuit_set_time_limit(k->circuit, d->cfg.witness_timeout);
    return graph_at_load(d, k, err, errlen);
}

/* Reads and opens the key (the file once: the library parses the bytes
 * read here and exports the verification key from that parse) for the
 * self-check of every proof, and puts it on the GPU when the daemon
 * proves there.  Runs without the lock; the key is published (k->key set)
 * under it once every field is final, since pin_key reads k->key. */
static d_status open_key(g16d *d, dkey *k, char *err, size_t errlen)
{
    size_t len;
    g16_key *key;
    /* pages of the key's own: mlock of them locks nothing else */
    d_status rc = d_status_of(g16_file_read(k->path, k->bytes, &k->buf, &len, err, errlen));
    if (rc) return rc;
    k->buf_len = len;
    if (d->cfg.pin_keys > 0) pin(k);
    if ((rc = d_status_of(g16_key_open_buffer(k->buf, len, k->path, &key, err, errlen)))) return rc;
    /* every point once, here: a damaged key is refused now instead of
     * giving proofs no verifier accepts */
    if ((rc = d_status_of(g16_key_check_points(key, d->cfg.threads, err, errlen))) ||
        (k->wasm[0] && (rc = open_circuit(d, k, key, err, errlen))) ||
        (d->cfg.self_verify &&
         (rc = d_status_of(g16_key_vk_json(key, &k->vk_json, err, errlen)))) ||
        (d->use_gpu && (rc = gpu_load(d, k, key, err, errlen)))) {
        g16_key_free(key);
        return rc;
    }
    /* the library's bound for a partition's host memory where it runs,
     * with the threads its stage calls get (the MSMs' buckets are per
     * thread; a partition given more recomputes it, sched.c); a GPU job
     * frees nothing at the end of synthesis */
    k->threads = k->on_gpu ? d->cfg.threads : d_key_threads(d, g16_key_domain_size(key));
    k->job_bytes = g16_key_job_bytes_on(key, k->on_gpu ? G16_DEVICE_GPU : G16_DEVICE_CPU,
                                        d->cfg.g2_on_cpu, k->threads);
    k->abc_bytes = k->on_gpu ? 0 : g16_key_job_abc_bytes(key);
    pthread_mutex_lock(&d->mu);
    k->key = key;
    pthread_mutex_unlock(&d->mu);
    return D_OK;
}

/* Charges the key's bytes before reading it, so the budget holds even
 * while the file is being read. */
static d_status charge(g16d *d, dkey *k, dkey **freed, char *err, size_t errlen)
{
    pthread_mutex_lock(&d->mu);
    dkey *old = d_key_find(d, k->name);
    d_status rc = D_OK;
    if (old) {
        rc = strcmp(old->path, k->path) || strcmp(old->wasm, k->wasm) ? D_ERR_CONFLICT
                                                                      : D_ERR_EXISTS;
        d_errf(err, errlen, "key %s is already loaded%s", k->name,
               rc == D_ERR_CONFLICT ? " from another path or with another circuit" : "");
    } else if (!policy_key_fits(d->cfg.budget, k->bytes, 0)) {
        rc = D_ERR_NEVER_FITS;
        d_errf(err, errlen, "%s: key needs %zu bytes, more than the whole %zu-byte memory budget",
               k->path, k->bytes, d->cfg.budget);
    } else if (d_key_make_room(d, k->bytes, NULL, freed)) {
        rc = D_ERR_TOO_LARGE;
        d_errf(err, errlen,
               "%s: key needs %zu bytes but only %zu of the %zu-byte budget are free "
               "(busy keys cannot be evicted)",
               k->path, k->bytes, d_budget_free(d), d->cfg.budget);
    } else {
        d->key_bytes += k->bytes;
        k->next = d->keys; /* listed at once so a second load of the name waits its turn */
        d->keys = k;
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

/* A file named by a client (the key, its circuit): absolute (as witness
 * paths: nothing depends on the daemon's working directory), under
 * --allow-dir, a regular file.  Fills real (resolved) and *bytes. */
static d_status client_file(g16d *d, const char *path, const char *what, char *real, size_t reallen,
                            size_t *bytes, char *err, size_t errlen)
{
    struct stat st;
    if (path[0] != '/') {
        d_errf(err, errlen, "%s: %s paths must be absolute", path, what);
        return D_ERR_ARG;
    }
    d_status rc = d_path_allowed(&d->cfg, path, real, reallen);
    if (rc) {
        d_errf(err, errlen, "%s: %s", path,
               rc == D_ERR_FORBIDDEN ? "outside the allowed directories (--allow-dir)"
                                     : strerror(errno));
        return rc;
    }
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        d_errf(err, errlen, "%s: not a regular file", path);
        return D_ERR_ARG;
    }
    *bytes = (size_t)st.st_size;
    return D_OK;
}

d_status d_key_load(g16d *d, const char *name, const char *path, const char *wasm, int persist,
                    char *err, size_t errlen)
{
    return d_key_load_bound(d, name, path, wasm, NULL, persist, err, errlen);
}

d_status d_key_load_bound(g16d *d, const char *name, const char *path, const char *wasm,
                          const char *wasm_sha256, int persist, char *err, size_t errlen)
{
    dkey *k = calloc(1, sizeof *k);
    if (!k) {
        d_errf(err, errlen, "out of memory");
        return D_ERR_NOMEM;
    }
    snprintf(k->name, sizeof k->name, "%s", name);
    if (wasm && wasm_sha256) snprintf(k->wasm_sha256, sizeof k->wasm_sha256, "%s", wasm_sha256);
    d_status rc = client_file(d, path, "key", k->path, sizeof k->path, &k->bytes, err, errlen);
    if (!rc && wasm)
        rc = client_file(d, wasm, "circuit", k->wasm, sizeof k->wasm, &k->wasm_bytes, err, errlen);
    dkey *freed = NULL;
    if (!rc) rc = charge(d, k, &freed, err, errlen);
    d_key_reap(&freed);
    if (rc) {
        free(k);
        return rc;
    }
    rc = open_key(d, k, err, errlen);
    pthread_mutex_lock(&d->mu);
    if (rc) {
        drop(d, k, &freed);
    } else {
        k->last_used = d_now();
        d_log(D_LOG_INFO, "key_loaded",
              "key=%s path=%s bytes=%zu device=%s circuit=%s circuit_compiled=%d", k->name, k->path,
              k->bytes, k->on_gpu ? "gpu" : "cpu", k->wasm, k->wasm_compiled);
        if (persist) d->be->key_saved(d, k, 1);
        pthread_cond_broadcast(&d->work);
    }
    pthread_mutex_unlock(&d->mu);
    d_key_reap(&freed);
    return rc;
}

d_status d_key_evict(g16d *d, const char *name, char *err, size_t errlen)
{
    dkey *freed = NULL;
    pthread_mutex_lock(&d->mu);
    dkey *k = d_key_find(d, name);
    d_status rc = D_OK;
    if (!k) {
        rc = D_ERR_NOT_FOUND;
        d_errf(err, errlen, "no key named %s", name);
    } else if (k->pending || !k->key) {
        rc = D_ERR_CONFLICT;
        d_errf(err, errlen, "key %s is %s", name,
               k->key ? "needed by unfinished partitions" : "still loading");
    } else {
        d_log(D_LOG_NOTICE, "key_evicted", "key=%s bytes=%zu device_bytes=%zu why=%s", k->name,
              k->bytes, k->dev_charge, "unloaded (DELETE /v1/keys, or not the fleet's key)");
        drop(d, k, &freed);
    }
    pthread_mutex_unlock(&d->mu);
    d_key_reap(&freed);
    return rc;
}
