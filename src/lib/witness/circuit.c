/* g16_circuit_* and g16_witness_* (include/g16_witness.h): one calculator
 * instance per call, driven as snarkjs drives circom's calculator:
 * init, then each input signal's values in the file's order, then the
 * witness, written as a version-2 .wtns. */
#include <gmp.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "formats/formats.h"
#include "g16_witness.h"
#include "witness/witness.h"

struct g16_circuit {
    /* The compiled circuit: loaded by the open, or at the first need when
     * the open found a graph (object_ready; under obj_lock, then
     * obj_ready set): a calculation by the graph makes no instance. */
    witness_object obj;
    pthread_mutex_t obj_lock;
    atomic_int obj_ready;
    uint8_t wasm_sha256[G16_SHA256_BYTES];
    /* The instance the header was read with, kept for the first
     * calculation: it has run its start code and header getters only, as
     * the instance snarkjs calculates with has, so it is as fresh as a new
     * one and saves an instantiation (the data segments' copy: 4 MB and a
     * tenth of a 2^20 witness's time).  Taken by one caller at most
     * (atomic exchange); never given back, so no input's values ever
     * reach another calculation. */
    _Atomic(g16w_instance *) spare;
    g16w_info info;
    char *wasm_path;
    uint32_t start_pages; /* an instance's linear memory before it runs */
    uint32_t max_pages;   /* what a calculation's memory may grow to */
    double time_limit;    /* seconds a calculation may run; 0: no limit */
    /* The witness graphs (wgraph.h; docs/witness-graph.md), one per path
     * through the circuit's input-dependent branches: read from the cache
     * by the open, else made after a calculation that the wasm computed
     * because no graph's guards fitted its input (the first calculation,
     * for the first graph), from a trace of the same input.
     * graphs[0, n_graphs) are published in order, each once (appended
     * under graph_lock); at most WITNESS_GRAPHS_MAX (witness.h: why). */
    char *cache_dir;
    char *cc, *wasm2c; /* the tools the calculator was compiled with, for the tracer */
    _Atomic(wgraph *) graphs[WITNESS_GRAPHS_MAX];
    atomic_uint n_graphs;
    atomic_uint graph_last;     /* the graph that last gave a witness: tried first */
    pthread_mutex_t graph_lock; /* the attempts to make one */
    atomic_uint graph_tries;    /* traces made into graphs or refused (changed under graph_lock) */
    char graph_why[256];        /* why there is none (under graph_lock) */
    char path_why[256];         /* why the last trace of another path made no graph (same) */
    pthread_mutex_t path_lock;
    char last_path[320]; /* how the last calculation ran (under path_lock) */
    /* per graph: the cached file the open mapped (its steps), else NULL;
     * the index of its file in the cache (read or written), else UINT_MAX */
    const uint8_t *graph_map[WITNESS_GRAPHS_MAX];
    size_t graph_map_len[WITNESS_GRAPHS_MAX];
    unsigned graph_file[WITNESS_GRAPHS_MAX];
    atomic_int graph_on_request; /* only g16_circuit_make_graph makes them */
    uint64_t id;                 /* this open's number: a thread's path note names it */
};

/* Instances' linear memory may grow to the wasm32 limit (4 GiB) unless
 * g16_circuit_set_memory_limit says less; a circuit cannot take more. */
#define MAX_PAGES 65536u
#define PAGE_SIZE 65536u

static const char *exception_text(int code)
{
    switch (code) {
    case 1: return "signal not found";
    case 2: return "too many signals set";
    case 3: return "signal already set";
    case 4: return "assert failed";
    case 5: return "not enough memory";
    case 6: return "input signal array access exceeds the size";
    default: return "unknown circuit exception";
    }
}

/* The message for a stopped call: the circuit's own words (circom's
 * "Error in template T line: N") joined onto one line. */
static int stopped(const g16_circuit *c, g16w_instance *inst, int why, const char *doing, char *err,
                   size_t errlen)
{
    if (why == G16W_SPENT) {
        snprintf(err, errlen, "%s: internal error: the calculator ran after its witness was read",
                 c->wasm_path);
        return G16_ERR_INTERNAL;
    }
    if (why == G16W_TIMEOUT) {
        snprintf(err, errlen, "%s: the witness calculation ran past its time limit of %g s",
                 c->wasm_path, c->time_limit);
        return G16_ERR_TIMEOUT;
    }
    char text[512];
    snprintf(text, sizeof text, "%s", c->obj.api->error_text(inst));
    for (char *p = text; *p; p++)
        if (*p == '\n') *p = p[1] ? ' ' : 0;
    int exception = (why & 0xf00) == G16W_EXCEPTION;
    /* A trap's own text (wasm2c's) is in text. */
    const char *what = why == G16W_NOMEM ? "out of memory"
                       : exception       ? exception_text(why & 0xff)
                                         : "the calculator trapped";
    snprintf(err, errlen, "%s: %s%s%s%s%s", c->wasm_path, doing, doing[0] ? " " : "", what,
             text[0] ? ": " : "", text);
    return exception && (why & 0xff) == 5 ? G16_ERR_NOMEM : G16_ERR_FORMAT;
}

/* CLOCK_MONOTONIC nanoseconds when code starting now must stop after
 * seconds (glue_abi.h's deadline_ns), 0 without a limit. */
static uint64_t deadline_after(double seconds)
{
    if (!(seconds > 0)) return 0;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double ns = seconds * 1e9;
    if (ns > 1e18) ns = 1e18; /* about 30 years: no limit in practice, and no overflow */
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec + (uint64_t)ns;
}

/* When a calculation starting now must stop. */
static uint64_t deadline(const g16_circuit *c) { return deadline_after(c->time_limit); }

/* Seconds an instance's start code may run: the calculations' limit, or
 * without one the default, so that no open of a circuit whose start code
 * never ends (its instance is created before anyone can cancel it: a
 * daemon's key load, a Node.js open) runs forever. */
static double start_limit(const g16_circuit *c)
{
    return c->time_limit > 0 ? c->time_limit : G16_WITNESS_TIME_LIMIT;
}

static g16w_instance *instance_make(const g16_circuit *c, uint32_t max_pages, const g16w_log *log,
                                    int *rc, char *err, size_t errlen);
static int read_info(g16_circuit *c, char *err, size_t errlen);

/* The compiled circuit loaded (once; by the open when it found no graph,
 * which then reads the circuit's header with its first instance, else by
 * the first call that needs an instance).  expect: the wasm's SHA-256 the
 * open was asked for; later, the one the open found, so that a wasm
 * changed since is refused rather than loaded as this circuit. */
static int object_ready(const g16_circuit *c, const uint8_t *expect, char *err, size_t errlen)
{
    g16_circuit *m = (g16_circuit *)c;
    if (atomic_load(&m->obj_ready)) return 0;
    pthread_mutex_lock(&m->obj_lock);
    int rc = 0;
    if (!atomic_load(&m->obj_ready)) {
        witness_tools tools = {c->cc, c->wasm2c};
        int first = !atomic_load(&m->n_graphs);
        rc = witness_object_load(c->wasm_path, c->cache_dir, first ? expect : c->wasm_sha256,
                                 &tools, &m->obj, err, errlen);
        if (!rc && first) memcpy(m->wasm_sha256, m->obj.wasm_sha256, G16_SHA256_BYTES);
        if (!rc && first) rc = read_info(m, err, errlen);
        if (rc && m->obj.handle) witness_object_unload(&m->obj);
        if (!rc) atomic_store(&m->obj_ready, 1);
    }
    pthread_mutex_unlock(&m->obj_lock);
    return rc;
}

/* An instance with its start code run (the spare, else a new one), or
 * the error of why not: out of memory, or its start code trapped or ran
 * past the time limit.  c is const to its callers, who may calculate on
 * several threads at once; the spare alone changes, atomically (c itself
 * was allocated mutable, by g16_circuit_open). */
static g16w_instance *instance_make(const g16_circuit *c, uint32_t max_pages, const g16w_log *log,
                                    int *rc, char *err, size_t errlen)
{
    int why;
    *rc = 0;
    g16w_instance *inst = atomic_exchange(&((g16_circuit *)c)->spare, NULL);
    if (inst) {
        c->obj.api->configure(inst, max_pages, deadline(c), log);
        return inst;
    }
    inst = c->obj.api->create(max_pages, deadline_after(start_limit(c)), log, &why);
    if (inst && !(c->time_limit > 0)) c->obj.api->configure(inst, max_pages, 0, log);
    if (inst) return inst;
    if (why == G16W_TIMEOUT) {
        snprintf(err, errlen, "%s: its start code ran past the time limit of %g s", c->wasm_path,
                 start_limit(c));
        *rc = G16_ERR_TIMEOUT;
    } else if (why == G16W_NOMEM) {
        snprintf(err, errlen, "%s: out of memory for a calculator instance", c->wasm_path);
        *rc = G16_ERR_NOMEM;
    } else {
        snprintf(err, errlen, "%s: its start code %s (code %d)", c->wasm_path,
                 (why & 0xf00) == G16W_TRAP ? "trapped" : "raised a circom exception", why & 0xff);
        *rc = G16_ERR_FORMAT;
    }
    return NULL;
}

/* The same, the compiled circuit loaded first when it is not yet. */
static g16w_instance *instance_new(const g16_circuit *c, uint32_t max_pages, const g16w_log *log,
                                   int *rc, char *err, size_t errlen)
{
    *rc = object_ready(c, NULL, err, errlen);
    return *rc ? NULL : instance_make(c, max_pages, log, rc, err, errlen);
}

static int read_info(g16_circuit *c, char *err, size_t errlen)
{
    int rc;
    g16w_instance *inst = instance_make(c, c->max_pages, NULL, &rc, err, errlen);
    if (!inst) return rc;
    c->start_pages = c->obj.api->pages(inst);
    int why = c->obj.api->info(inst, &c->info);
    rc = why ? stopped(c, inst, why, "reading its header:", err, errlen) : 0;
    if (rc)
        c->obj.api->destroy(inst);
    else
        atomic_store(&c->spare, inst);
    if (!rc && (c->info.n32 == 0 || c->info.n32 > G16W_MAX_N32 || c->info.version != 2)) {
        snprintf(err, errlen, "%s: not a circom 2 witness calculator (version %u, %u-word field)",
                 c->wasm_path, c->info.version, c->info.n32);
        rc = G16_ERR_UNSUPPORTED;
    }
    return rc;
}

/* Notes why the circuit has no graph (under graph_lock). */
static void graph_none(g16_circuit *c, const char *why)
{
    snprintf(c->graph_why, sizeof c->graph_why, "%s", why);
}

/* The circuit's words in its graph (wgraph.circuit): its header's values
 * and its instance's start pages, so that an open that finds the graph
 * needs no instance.  Only n32 = 8 circuits have graphs. */
enum { W_VERSION, W_MINOR, W_PATCH, W_N32, W_PRIME, W_WITNESS = W_PRIME + 8, W_INPUTS, W_PAGES };

static void graph_words_put(const g16_circuit *c, uint32_t w[WGRAPH_CIRCUIT_WORDS])
{
    memset(w, 0, 4 * WGRAPH_CIRCUIT_WORDS);
    w[W_VERSION] = c->info.version;
    w[W_MINOR] = c->info.minor;
    w[W_PATCH] = c->info.patch;
    w[W_N32] = c->info.n32;
    memcpy(w + W_PRIME, c->info.prime, 4 * 8);
    w[W_WITNESS] = c->info.witness_size;
    w[W_INPUTS] = c->info.input_size;
    w[W_PAGES] = c->start_pages;
}

/* The circuit's header from its graph g (first: the circuit's first
 * graph; the others' words must be the same): 0, or -1 when g's words
 * are not a circuit's that g can be the graph of (g is then not used). */
static int graph_words_take(g16_circuit *c, const wgraph *g, int first)
{
    const uint32_t *w = g->circuit;
    if (w[W_VERSION] != 2 || w[W_N32] != 8 || w[W_WITNESS] != g->n_outputs ||
        wgraph_field_of_prime(w + W_PRIME, 8) != g->field || w[W_PAGES] > MAX_PAGES)
        return -1;
    if (!first) {
        uint32_t mine[WGRAPH_CIRCUIT_WORDS];
        graph_words_put(c, mine);
        return memcmp(mine, w, sizeof mine) ? -1 : 0;
    }
    c->info.version = w[W_VERSION];
    c->info.minor = w[W_MINOR];
    c->info.patch = w[W_PATCH];
    c->info.n32 = 8;
    memcpy(c->info.prime, w + W_PRIME, 4 * 8);
    c->info.witness_size = w[W_WITNESS];
    c->info.input_size = w[W_INPUTS];
    c->start_pages = w[W_PAGES];
    return 0;
}

/* Appends g (malloc'd) to c's graphs, its cache file being file; under
 * graph_lock, or by the open. */
static void graph_publish(g16_circuit *c, wgraph *g, unsigned file, const uint8_t *map,
                          size_t map_len)
{
    unsigned n = atomic_load(&c->n_graphs);
    c->graph_map[n] = map;
    c->graph_map_len[n] = map_len;
    c->graph_file[n] = file;
    atomic_store(&c->graphs[n], g);
    atomic_store(&c->n_graphs, n + 1);
}

/* The graph in the cache's file index, when it is intact and fits the
 * circuit (the circuit's header then read from it when it is the first);
 * else a note of why it was refused (out of memory too: the graph is
 * then not used). */
static void graph_load(g16_circuit *c, unsigned index)
{
    const uint8_t *bytes;
    size_t len, map_len;
    int found = witness_graph_map(c->cache_dir, c->wasm_sha256, index, &bytes, &len, &map_len);
    if (found == G16_ERR_FORMAT)
        graph_none(c, "the cached graph was refused (its digest does not match); one is made "
                      "after the first calculation");
    if (found) return;
    wgraph g, *p = malloc(sizeof *p);
    char why[256];
    int rc = p ? wgraph_parse(bytes, len, &g, why, sizeof why) : G16_ERR_NOMEM;
    if (!rc && graph_words_take(c, &g, !atomic_load(&c->n_graphs))) {
        wgraph_free(&g);
        snprintf(why, sizeof why, "it is another circuit's");
        rc = G16_ERR_FORMAT;
    }
    if (rc) {
        char note[256];
        snprintf(note, sizeof note,
                 "the cached graph was refused (%.150s); one is made after the first calculation",
                 rc == G16_ERR_NOMEM ? "out of memory" : why);
        graph_none(c, note);
        /* a cached graph that does not parse is made again, as a damaged
         * compiled circuit is */
        free(p);
        munmap((void *)bytes, map_len);
        return;
    }
    *p = g;
    graph_publish(c, p, index, bytes, map_len); /* its steps are read from the mapping */
}

/* The graphs from the cache, each intact one that fits the circuit;
 * without any the first calculation makes one.  Only out of memory is an
 * error. */
static int graph_open(g16_circuit *c, const char *cache_dir, char *err, size_t errlen)
{
    c->cache_dir = strdup(cache_dir);
    if (!c->cache_dir) {
        snprintf(err, errlen, "%s: out of memory", c->wasm_path);
        return G16_ERR_NOMEM;
    }
    graph_none(c, "no graph yet (one is made after the first calculation)");
    for (unsigned i = 0; i < WITNESS_GRAPHS_MAX; i++) graph_load(c, i);
    c->graph_tries = atomic_load(&c->n_graphs);
    return 0;
}

g16_status g16_circuit_open(const char *wasm_path, const char *cache_dir, g16_circuit **out,
                            char *err, size_t errlen)
{
    return g16_circuit_open_checked(wasm_path, cache_dir, NULL, NULL, out, err, errlen);
}

g16_status g16_circuit_open_sha256(const char *wasm_path, const char *cache_dir,
                                   const uint8_t sha256[G16_SHA256_BYTES], g16_circuit **out,
                                   char *err, size_t errlen)
{
    return g16_circuit_open_checked(wasm_path, cache_dir, NULL, sha256, out, err, errlen);
}

g16_status g16_circuit_open_limited(const char *wasm_path, const char *cache_dir,
                                    const g16_circuit_limits *limits, g16_circuit **out, char *err,
                                    size_t errlen)
{
    return g16_circuit_open_checked(wasm_path, cache_dir, limits, NULL, out, err, errlen);
}

void g16_circuit_tools_default(const char **cc, const char **wasm2c)
{
    if (cc) *cc = G16_CC;
    if (wasm2c) *wasm2c = G16_WASM2C;
}

/* The limits' tools, else the configured ones; a tool given by name alone
 * is refused: the caller's PATH must not choose what compiles a circuit
 * whose code this process then loads. */
static g16_status circuit_tools(const char *wasm_path, const g16_circuit_limits *limits,
                                witness_tools *tools, char *err, size_t errlen)
{
    tools->cc = limits && limits->cc ? limits->cc : G16_CC;
    tools->wasm2c = limits && limits->wasm2c ? limits->wasm2c : G16_WASM2C;
    const char *bad = !strchr(tools->cc, '/')       ? tools->cc
                      : !strchr(tools->wasm2c, '/') ? tools->wasm2c
                                                    : NULL;
    if (!bad) return G16_OK;
    snprintf(err, errlen,
             "%s: the compiler tool '%s' is no path (tools are never looked up in PATH)", wasm_path,
             bad);
    return G16_ERR_ARG;
}

g16_status g16_circuit_open_checked(const char *wasm_path, const char *cache_dir,
                                    const g16_circuit_limits *limits,
                                    const uint8_t sha256[G16_SHA256_BYTES], g16_circuit **out,
                                    char *err, size_t errlen)
{
    *out = NULL;
    witness_tools tools;
    g16_status st = circuit_tools(wasm_path, limits, &tools, err, errlen);
    if (st) return st;
    g16_circuit *c = calloc(1, sizeof *c);
    if (c) c->wasm_path = strdup(wasm_path);
    if (c) c->cc = strdup(tools.cc);
    if (c) c->wasm2c = strdup(tools.wasm2c);
    if (c) pthread_mutex_init(&c->graph_lock, NULL);
    if (c) pthread_mutex_init(&c->path_lock, NULL);
    static _Atomic uint64_t opens;
    if (c) c->id = atomic_fetch_add(&opens, 1) + 1;
    if (c) pthread_mutex_init(&c->obj_lock, NULL);
    if (!c || !c->wasm_path || !c->cc || !c->wasm2c) {
        if (c) {
            free(c->wasm_path);
            free(c->cc);
            free(c->wasm2c);
        }
        free(c);
        snprintf(err, errlen, "%s: out of memory", wasm_path);
        return G16_ERR_NOMEM;
    }
    /* the limits before the first instance, whose start code they bound */
    c->max_pages = MAX_PAGES;
    c->time_limit = G16_WITNESS_TIME_LIMIT;
    if (limits && limits->memory_limit) g16_circuit_set_memory_limit(c, limits->memory_limit);
    if (limits) g16_circuit_set_time_limit(c, limits->time_limit);
    /* the graph first (the circuit's header comes from it when there is
     * one); the compiled circuit of these bytes is loaded now all the
     * same: a long-lived caller (g16d) must never load, at its first
     * fallback, a wasm that replaced the file since the open */
    int rc = witness_wasm_sha256(wasm_path, sha256, c->wasm_sha256, err, errlen);
    if (!rc) rc = graph_open(c, cache_dir, err, errlen);
    if (!rc) rc = object_ready(c, sha256, err, errlen);
    if (!rc && c->max_pages < c->start_pages) c->max_pages = c->start_pages;
    if (rc) {
        g16_circuit_close(c);
        return rc;
    }
    *out = c;
    return 0;
}

void g16_circuit_close(g16_circuit *c)
{
    if (!c) return;
    g16w_instance *spare = atomic_exchange(&c->spare, NULL);
    if (spare) c->obj.api->destroy(spare);
    witness_object_unload(&c->obj);
    unsigned n = atomic_exchange(&c->n_graphs, 0);
    for (unsigned i = 0; i < n; i++) {
        wgraph *g = atomic_exchange(&c->graphs[i], NULL);
        wgraph_free(g);
        free(g);
        if (c->graph_map[i]) munmap((void *)c->graph_map[i], c->graph_map_len[i]);
    }
    pthread_mutex_destroy(&c->graph_lock);
    pthread_mutex_destroy(&c->path_lock);
    pthread_mutex_destroy(&c->obj_lock);
    free(c->cache_dir);
    free(c->cc);
    free(c->wasm2c);
    free(c->wasm_path);
    free(c);
}

int g16_circuit_compiled(const g16_circuit *c) { return c->obj.compiled; }

void g16_circuit_wasm_sha256(const g16_circuit *c, uint8_t out[G16_SHA256_BYTES])
{
    memcpy(out, c->wasm_sha256, G16_SHA256_BYTES);
}

uint32_t g16_circuit_witness_size(const g16_circuit *c) { return c->info.witness_size; }
uint32_t g16_circuit_field_bytes(const g16_circuit *c) { return 4 * c->info.n32; }

/* A curve's name when the circuit's prime is its scalar field: a witness
 * over another field (or a base field) proves nothing for its keys. */
const char *g16_circuit_curve(const g16_circuit *c)
{
    uint8_t prime[4 * G16W_MAX_N32];
    uint32_t n8 = 4 * c->info.n32;
    for (uint32_t j = 0; j < c->info.n32; j++)
        for (int b = 0; b < 4; b++) prime[4 * j + b] = (uint8_t)(c->info.prime[j] >> 8 * b);
    formats_curve curve = formats_curve_of_prime(prime, n8);
    if (curve == FORMATS_CURVE_UNKNOWN ||
        formats_field_of_prime(prime, n8) != formats_scalar_field(curve))
        return NULL;
    return formats_curve_name(curve);
}

size_t g16_circuit_memory_bytes(const g16_circuit *c) { return (size_t)c->start_pages * PAGE_SIZE; }

size_t g16_circuit_memory_limit(const g16_circuit *c) { return (size_t)c->max_pages * PAGE_SIZE; }

void g16_circuit_set_memory_limit(g16_circuit *c, size_t bytes)
{
    size_t pages = bytes / PAGE_SIZE;
    if (pages > MAX_PAGES) pages = MAX_PAGES;
    c->max_pages = pages > c->start_pages ? (uint32_t)pages : c->start_pages;
    if (!c->max_pages) c->max_pages = 1; /* 0 pages would mean no cap to the instance */
}

double g16_circuit_time_limit(const g16_circuit *c) { return c->time_limit; }

void g16_circuit_set_time_limit(g16_circuit *c, double seconds)
{
    c->time_limit = seconds > 0 ? seconds : 0; /* NaN too: no limit */
}

/* ------------------------------------------------------------------ */
/* log(): circom sends each item (text, or a value in shared memory) and
 * then "\n"; items are joined by a space into one line. */

typedef struct {
    g16_witness_log_fn fn;
    void *ctx;
    char line[4096];
    size_t len;
} log_lines;

static void log_append(log_lines *l, const char *piece)
{
    if (l->len && l->len + 1 < sizeof l->line) l->line[l->len++] = ' ';
    size_t room = sizeof l->line - 1 - l->len, n = strlen(piece);
    memcpy(l->line + l->len, piece, n < room ? n : room);
    l->len += n < room ? n : room;
    l->line[l->len] = 0;
}

static void log_text(void *ctx, const char *piece)
{
    log_lines *l = ctx;
    if (strcmp(piece, "\n")) {
        log_append(l, piece);
        return;
    }
    l->line[l->len] = 0;
    if (l->fn) l->fn(l->ctx, l->line);
    l->len = 0;
}

static void log_value(void *ctx, const uint32_t *words, uint32_t n32)
{
    mpz_t v;
    mpz_init(v);
    mpz_import(v, n32, -1, sizeof *words, 0, 0, words);
    char *s = mpz_get_str(NULL, 10, v);
    if (s) log_append(ctx, s);
    free(s);
    mpz_clear(v);
}

/* ------------------------------------------------------------------ */

typedef struct {
    const g16_circuit *c;
    g16w_instance *inst;
    const char *input_name;
    char *err;
    size_t errlen;
} run;

/* The signal is one of the circuit's inputs, with as many values. */
static int check_signal(const run *r, const witness_signal *s)
{
    uint32_t msb = (uint32_t)(s->hash >> 32), lsb = (uint32_t)s->hash;
    int32_t size;
    int why = r->c->obj.api->input_size(r->inst, msb, lsb, &size);
    if (why) return stopped(r->c, r->inst, why, "looking up an input:", r->err, r->errlen);
    /* circom's lookup answers 0 (older: negative) for a name it lacks. */
    if (size < 0 || (size == 0 && s->count > 0)) {
        snprintf(r->err, r->errlen, "%s: unknown signal '%s' (not an input of %s)", r->input_name,
                 s->name, r->c->wasm_path);
        return G16_ERR_FORMAT;
    }
    if ((size_t)size != s->count) {
        snprintf(r->err, r->errlen, "%s: signal '%s' has %zu value%s, the circuit expects %d",
                 r->input_name, s->name, s->count, s->count == 1 ? "" : "s", size);
        return G16_ERR_FORMAT;
    }
    return 0;
}

static int set_signal(const run *r, const witness_signal *s)
{
    uint32_t msb = (uint32_t)(s->hash >> 32), lsb = (uint32_t)s->hash;
    int rc = check_signal(r, s);
    if (rc) return rc;
    for (size_t i = 0; i < s->count; i++) {
        int why = r->c->obj.api->set_input(r->inst, msb, lsb, (uint32_t)i,
                                           s->values + i * r->c->info.n32);
        if (why) return stopped(r->c, r->inst, why, "", r->err, r->errlen);
    }
    return 0;
}

typedef int (*signal_fn)(const run *r, const witness_signal *s);

/* fn on every input signal after init, then the count of values: when
 * fn sets them, the circuit runs as the last one is set. */
static int each_signal(const run *r, const witness_inputs *in, signal_fn fn)
{
    int why = r->c->obj.api->init(r->inst, 0);
    if (why) return stopped(r->c, r->inst, why, "init:", r->err, r->errlen);
    size_t given = 0;
    for (size_t i = 0; i < in->count; i++) {
        int rc = fn(r, &in->signals[i]);
        if (rc) return rc;
        given += in->signals[i].count;
    }
    if (given >= r->c->info.input_size) return 0;
    /* The calculator knows its inputs only by hash, so the name of the
     * missing one cannot be told. */
    snprintf(r->err, r->errlen,
             "%s: a signal is missing (%zu of the circuit's %u input values given)", r->input_name,
             given, r->c->info.input_size);
    return G16_ERR_FORMAT;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* The .wtns header as snarkjs writes it: "wtns", version 2, 2 sections;
 * section 1 (n8, prime, count), section 2 (the values). */
static size_t wtns_header(uint8_t *p, const g16w_info *info)
{
    uint32_t n8 = 4 * info->n32;
    memcpy(p, "wtns", 4);
    put32(p + 4, 2);
    put32(p + 8, 2);
    put32(p + 12, 1);
    put64(p + 16, 8 + n8);
    put32(p + 24, n8);
    for (uint32_t j = 0; j < info->n32; j++) put32(p + 28 + 4 * j, info->prime[j]);
    uint8_t *q = p + 28 + n8;
    put32(q, info->witness_size);
    put32(q + 4, 2);
    put64(q + 8, (uint64_t)n8 * info->witness_size);
    return 28 + n8 + 16;
}

/* The .wtns into o's caller buffer when it has one (its room checked
 * before the circuit ran), else into a malloc'd one. */
typedef struct {
    uint8_t **wtns;
    size_t *wtns_len;
    uint8_t *into; /* caller memory of g16_witness_wtns_bytes, or NULL */
} wtns_out;

/* A .wtns buffer (freed by free()): large ones in transparent huge pages,
 * a 2^20 witness's 33 MB being 8000 page faults otherwise (the graph's
 * allocator, wgraph_alloc). */
static uint8_t *wtns_alloc(size_t bytes) { return wgraph_alloc(bytes); }

static int write_witness(const run *r, const wtns_out *o)
{
    const g16w_info *info = &r->c->info;
    size_t values = (size_t)info->witness_size * info->n32 * 4;
    uint8_t *buf = o->into ? o->into : wtns_alloc(44 + 4 * info->n32 + values);
    if (!buf) {
        snprintf(r->err, r->errlen, "%s: out of memory for the witness", r->c->wasm_path);
        return G16_ERR_NOMEM;
    }
    size_t at = wtns_header(buf, info);
    int why = r->c->obj.api->witness(r->inst, buf + at, 0, info->witness_size);
    if (why) {
        if (!o->into) free(buf);
        return stopped(r->c, r->inst, why, "reading the witness:", r->err, r->errlen);
    }
    if (o->wtns) *o->wtns = buf;
    *o->wtns_len = at + values;
    return 0;
}

/* Values a streamed .wtns is written by: 1 MiB of BN254 values. */
#define STREAM_VALUES 32768u

/* The .wtns to a file, a piece at a time through one small buffer: no
 * buffer of the whole witness (33 MB at 2^20) to fault in and copy. */
static int stream_witness(const run *r, const char *path)
{
    const g16w_info *info = &r->c->info;
    size_t n8 = 4 * (size_t)info->n32;
    uint8_t *buf = malloc(STREAM_VALUES * n8 > 44 + n8 ? STREAM_VALUES * n8 : 44 + n8);
    if (!buf) {
        snprintf(r->err, r->errlen, "%s: out of memory for the witness", r->c->wasm_path);
        return G16_ERR_NOMEM;
    }
    atomic_file f;
    int opened = !atomic_file_open(&f, path, r->err, r->errlen), rc = opened ? 0 : G16_ERR_IO;
    if (!rc && atomic_file_write(&f, buf, wtns_header(buf, info), r->err, r->errlen))
        rc = G16_ERR_IO;
    for (uint32_t first = 0; !rc && first < info->witness_size; first += STREAM_VALUES) {
        uint32_t n =
            info->witness_size - first < STREAM_VALUES ? info->witness_size - first : STREAM_VALUES;
        int why = r->c->obj.api->witness(r->inst, buf, first, n);
        if (why)
            rc = stopped(r->c, r->inst, why, "reading the witness:", r->err, r->errlen);
        else if (atomic_file_write(&f, buf, n * n8, r->err, r->errlen))
            rc = G16_ERR_IO;
    }
    if (!rc && atomic_file_commit(&f, r->err, r->errlen)) rc = G16_ERR_IO;
    if (rc && opened) atomic_file_abort(&f); /* idempotent after a failed write */
    free(buf);
    return rc;
}

/* Parses the inputs and gives them, with an instance of the calculator
 * that has run no input (instance_new: the spare or a new one; its memory
 * capped at the circuit's limit), to body; the instance is destroyed
 * after it. */
static int with_instance(const g16_circuit *c, const char *input, size_t len,
                         const char *input_name, const g16w_log *hooks,
                         int (*body)(const run *r, const witness_inputs *in, void *arg), void *arg,
                         char *err, size_t errlen)
{
    witness_inputs in;
    int rc =
        witness_inputs_parse(input, len, input_name, c->info.prime, c->info.n32, &in, err, errlen);
    if (rc) return rc;
    run r = {c, instance_new(c, c->max_pages, hooks, &rc, err, errlen), input_name, err, errlen};
    if (!rc) rc = body(&r, &in, arg);
    if (r.inst) c->obj.api->destroy(r.inst);
    witness_inputs_free(&in);
    return rc;
}

static int calculate(const run *r, const witness_inputs *in, void *arg)
{
    wtns_out *o = arg;
    int rc = each_signal(r, in, set_signal);
    return rc ? rc : write_witness(r, o);
}

static int calculate_to_file(const run *r, const witness_inputs *in, void *arg)
{
    int rc = each_signal(r, in, set_signal);
    return rc ? rc : stream_witness(r, arg);
}

/* ------------------------------------------------------------------ */
/* The witness graph (docs/witness-graph.md).                           */

/* The calling thread's last calculation (g16_circuit_witness_path): a
 * service calculating on several threads at once asks each its own. */
static _Thread_local uint64_t path_circuit; /* the circuit's id */
static _Thread_local char path_text[320];
/* 1 when that calculation fell back because no graph fitted its path (a
 * guard of each went another way, or there was none yet): its input may
 * make another graph (graph_wanted) */
static _Thread_local int path_new;

static void path_note(const g16_circuit *c, const char *fmt, const char *why)
{
    g16_circuit *m = (g16_circuit *)c;
    pthread_mutex_lock(&m->path_lock);
    snprintf(m->last_path, sizeof m->last_path, fmt, why);
    pthread_mutex_unlock(&m->path_lock);
    path_circuit = c->id;
    path_new = 0;
    snprintf(path_text, sizeof path_text, fmt, why);
}

/* The input values of in, 32 bytes each in the graph's order, when in
 * has the shape of the traced calculation's inputs; NULL (why set) when
 * not, or when out of memory. */
static uint8_t *graph_inputs(const wgraph *g, const witness_inputs *in, char *why, size_t whylen)
{
    int same = in->count == g->n_signals;
    for (size_t i = 0; same && i < in->count; i++)
        same = in->signals[i].hash == g->signals[i].hash &&
               in->signals[i].count == g->signals[i].count;
    if (!same) {
        snprintf(why, whylen, "the input's signals are not those of the traced calculation");
        return NULL;
    }
    uint8_t *vals = malloc((size_t)32 * g->n_inputs + 32), *p = vals;
    for (size_t i = 0; vals && i < in->count; i++) {
        memcpy(p, in->signals[i].values, 32 * in->signals[i].count);
        p += 32 * in->signals[i].count;
    }
    if (!vals) snprintf(why, whylen, "out of memory for the graph's inputs");
    return vals;
}

static const char *graph_op_name(uint32_t op)
{
    if (op == WGRAPH_GUARD_NZ || op == WGRAPH_GUARD_EQ) return "a guard";
    /* the others that fall back: DIV, IDIV, MOD and INV by zero */
    return op == WGRAPH_BIT ? "a bit beyond the prime's bit length" : "a division by zero";
}

/* graph_values' answers */
enum {
    GRAPH_DONE,     /* the witness values are written */
    GRAPH_FALLBACK, /* the wasm must compute them (and no other graph would) */
    GRAPH_TIMEOUT,  /* past the time limit: the wasm's error, no fallback */
    GRAPH_OTHER,    /* a guard went another way: another path's graph may fit */
};

/* The witness values of in by the graph g into values (32 bytes each), or
 * why not (graph_values' answers). */
static int graph_values(const wgraph *g, const witness_inputs *in, uint64_t deadline_ns,
                        uint8_t *values, char *why, size_t whylen)
{
    uint8_t *inputs = graph_inputs(g, in, why, whylen);
    if (!inputs) return GRAPH_FALLBACK;
    void *scratch = wtns_alloc(wgraph_scratch_bytes(g));
    uint32_t at = 0;
    int r = scratch ? wgraph_eval_until(g, inputs, values, scratch, deadline_ns, &at) : 1;
    if (!scratch)
        snprintf(why, whylen, "out of memory for the graph's values");
    else if (r == WGRAPH_TIMEOUT)
        snprintf(why, whylen, "ran past the time limit (graph node %u)", at);
    else if (r)
        snprintf(why, whylen, "%s (graph node %u) went another way than in the traced calculation",
                 graph_op_name(g->steps[at].op), at);
    int guard = scratch && r && r != WGRAPH_TIMEOUT &&
                (g->steps[at].op == WGRAPH_GUARD_NZ || g->steps[at].op == WGRAPH_GUARD_EQ);
    free(scratch);
    free(inputs);
    return r == WGRAPH_TIMEOUT ? GRAPH_TIMEOUT
           : guard             ? GRAPH_OTHER
           : r                 ? GRAPH_FALLBACK
                               : GRAPH_DONE;
}

/* The witness values of in by the first n of c's graphs: the one that
 * last gave a witness first, and where a guard goes another way the next
 * (a division by zero, or a bit beyond the prime's bit length, does not
 * depend on the path: every graph that gets that far meets it);
 * graph_values' answers,
 * GRAPH_OTHER when every graph's guards went another way. */
static int graphs_values(const g16_circuit *c, unsigned n, const witness_inputs *in,
                         uint64_t deadline_ns, uint8_t *values, char *why, size_t whylen)
{
    g16_circuit *m = (g16_circuit *)c;
    unsigned last = atomic_load(&m->graph_last);
    if (last >= n) last = 0;
    int r = GRAPH_FALLBACK;
    char later[256];
    for (unsigned k = 0; k < n; k++) {
        unsigned i = k == 0 ? last : k <= last ? k - 1 : k;
        r = graph_values(atomic_load(&m->graphs[i]), in, deadline_ns, values, k ? later : why,
                         k ? sizeof later : whylen);
        if (r == GRAPH_DONE && i != last) atomic_store(&m->graph_last, i);
        if (r != GRAPH_OTHER) {
            if (k) snprintf(why, whylen, "%s", later);
            return r;
        }
    }
    if (n > 1) {
        size_t at = strlen(why);
        snprintf(why + at, whylen - at, ", and in the other %u graphs", n - 1);
    }
    return r;
}

/* An evaluation's own memory beside the witness: its slots, its inputs. */
static size_t graph_eval_bytes(const wgraph *g)
{
    return wgraph_scratch_bytes(g) + (size_t)32 * g->n_inputs + 32;
}

/* The graphs' memory counts against the circuit's memory limit where the
 * wasm's linear memory does: of the first n graphs, how many (from the
 * first on) fit with the largest of their evaluations' own memory; the
 * others are not used (why says so). */
static unsigned graphs_fitting(const g16_circuit *c, unsigned n, char *why, size_t whylen)
{
    size_t held = 0, eval = 0, limit = g16_circuit_memory_limit(c);
    for (unsigned i = 0; i < n; i++) {
        const wgraph *g = atomic_load(&((g16_circuit *)c)->graphs[i]);
        size_t e = graph_eval_bytes(g) > eval ? graph_eval_bytes(g) : eval;
        size_t need = held + wgraph_bytes(g) + e;
        if (need > limit && i == 0)
            snprintf(why, whylen,
                     "the graph needs %zu bytes, over the circuit's memory limit of %zu", need,
                     limit);
        else if (need > limit)
            snprintf(why, whylen,
                     "%u of the %u graphs (other paths') do not fit: they need %zu bytes with the "
                     "first %u, over the circuit's memory limit of %zu",
                     n - i, n, need, i, limit);
        if (need > limit) return i;
        held += wgraph_bytes(g);
        eval = e;
    }
    return n;
}

static int write_whole(const char *path, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    atomic_file f;
    if (atomic_file_open(&f, path, err, errlen)) return G16_ERR_IO;
    if (atomic_file_write_direct(&f, buf, len, err, errlen) ||
        atomic_file_commit(&f, err, errlen)) {
        atomic_file_abort(&f);
        return G16_ERR_IO;
    }
    return 0;
}

/* The witness by the graph, as o says or to path: 0, 1 when the wasm must
 * compute it (last_path says why), or an error of the input (the wasm
 * path's own: the same parser). */
static int graph_calculate(const g16_circuit *c, const char *input, size_t len,
                           const char *input_name, const wtns_out *o, const char *path, char *err,
                           size_t errlen)
{
    unsigned n = atomic_load(&((g16_circuit *)c)->n_graphs);
    char why[320];
    if (!n) {
        /* not waiting while another calculation makes the graph */
        int free_now = !pthread_mutex_trylock(&((g16_circuit *)c)->graph_lock);
        int untried = free_now && !c->graph_tries;
        if (free_now) {
            snprintf(why, sizeof why, "%s", c->graph_why);
            pthread_mutex_unlock(&((g16_circuit *)c)->graph_lock);
        } else {
            snprintf(why, sizeof why, "the graph is being made");
        }
        path_note(c, "wasm (%s)", why);
        path_new = untried;
        return 1;
    }
    char unfit[256] = "";
    unsigned all = n;
    n = graphs_fitting(c, all, unfit, sizeof unfit);
    if (!n) {
        path_note(c, "wasm (%s)", unfit);
        return 1;
    }
    uint64_t until = deadline(c); /* from the call's start, as the wasm's */
    witness_inputs in;
    int rc =
        witness_inputs_parse(input, len, input_name, c->info.prime, c->info.n32, &in, err, errlen);
    if (rc) return rc;
    size_t bytes = g16_witness_wtns_bytes(c);
    uint8_t *buf = o && o->into ? o->into : wtns_alloc(bytes);
    int r = GRAPH_FALLBACK;
    if (buf)
        r = graphs_values(c, n, &in, until, buf + wtns_header(buf, &c->info), why, sizeof why);
    else
        snprintf(why, sizeof why, "out of memory for the witness");
    witness_inputs_free(&in);
    if (r == GRAPH_TIMEOUT) {
        /* the wasm's error: falling back would run past the limit again */
        if (buf != (o ? o->into : NULL)) free(buf);
        path_note(c, "graph (%s)", why);
        snprintf(err, errlen, "%s: the witness calculation ran past its time limit of %g s",
                 c->wasm_path, c->time_limit);
        return G16_ERR_TIMEOUT;
    }
    if (r) {
        if (buf != (o ? o->into : NULL)) free(buf);
        if (r == GRAPH_OTHER && n < all) { /* the graphs not tried may have fitted */
            size_t at = strlen(why);
            snprintf(why + at, sizeof why - at, "; %s", unfit);
        }
        path_note(c, "wasm (%s)", why);
        path_new = r == GRAPH_OTHER && n == all;
        return 1;
    }
    path_note(c, "graph%s", "");
    if (path) {
        rc = write_whole(path, buf, bytes, err, errlen);
        free(buf);
        return rc;
    }
    if (o->wtns) *o->wtns = buf;
    *o->wtns_len = bytes;
    return 0;
}

/* The graph of the calculation of input, traced; 0 with *out, or why
 * there is none (G16_ERR_NOMEM aside, no error: the wasm computes). */
static int graph_trace(const g16_circuit *c, const witness_inputs *in, wgraph *out, char *why,
                       size_t whylen)
{
    witness_object t;
    char err[512];
    witness_tools tools = {c->cc, c->wasm2c};
    if (witness_trace_load(c->wasm_path, c->cache_dir, c->wasm_sha256, &tools, &t, err,
                           sizeof err)) {
        snprintf(why, whylen, "no tracing object: %.200s", err);
        return 1;
    }
    g16t_signal *sig = malloc(sizeof *sig * (in->count + 1));
    for (size_t i = 0; sig && i < in->count; i++)
        sig[i] = (g16t_signal){in->signals[i].hash, (uint32_t)in->signals[i].count,
                               in->signals[i].values};
    g16t_trace tr;
    int stop =
        sig ? t.trace->trace(sig, (uint32_t)in->count, c->max_pages, deadline(c), &tr) : G16W_NOMEM;
    int rc = 1;
    if (stop)
        snprintf(why, whylen, "the traced calculation stopped (code 0x%x)", (unsigned)stop);
    else {
        rc = wgraph_from_trace(&tr, in, c->info.prime, out, why, whylen);
        t.trace->release(&tr);
    }
    free(sig);
    witness_object_unload(&t);
    return rc;
}

/* Whether c may make another graph (under graph_lock): its first once, the
 * others (other paths) while it has tried fewer than WITNESS_GRAPHS_MAX. */
static int graph_may_make(const g16_circuit *c)
{
    return c->graph_tries < WITNESS_GRAPHS_MAX && (c->graph_tries == 0 || c->n_graphs > 0);
}

/* Whether in's path has no graph among c's: every graph's guards go
 * another way (or c has none).  1, or 0 (a graph fits it, or in falls
 * back for another reason, or out of memory). */
static int graph_path_new(const g16_circuit *c, const witness_inputs *in)
{
    unsigned n = atomic_load(&((g16_circuit *)c)->n_graphs);
    if (!n) return 1;
    uint8_t *values = malloc((size_t)32 * c->info.witness_size + 32);
    char why[256];
    int r = values ? graphs_values(c, n, in, 0, values, why, sizeof why) : GRAPH_FALLBACK;
    free(values);
    return r == GRAPH_OTHER;
}

/* The cache file index for a new graph of c (under graph_lock): the first
 * that none of c's graphs has and that holds no intact graph (another
 * process's, of a path this one may not have), else UINT_MAX (the graph
 * is kept in memory only). */
static unsigned graph_file_free(const g16_circuit *c)
{
    unsigned n = atomic_load(&((g16_circuit *)c)->n_graphs);
    for (unsigned i = 0; i < WITNESS_GRAPHS_MAX; i++) {
        int mine = 0;
        for (unsigned j = 0; j < n; j++) mine |= c->graph_file[j] == i;
        const uint8_t *bytes;
        size_t len, map_len;
        if (mine) continue;
        if (witness_graph_map(c->cache_dir, c->wasm_sha256, i, &bytes, &len, &map_len))
            return i; /* none, or a damaged one: written over */
        munmap((void *)bytes, map_len);
    }
    return UINT_MAX;
}

/* Notes why a trace made no graph (under graph_lock): for the first, why
 * the circuit has none; for another path's, apart. */
static void graph_refused(g16_circuit *c, const char *why)
{
    if (atomic_load(&c->n_graphs))
        snprintf(c->path_why, sizeof c->path_why, "%s", why);
    else
        graph_none(c, why);
}

/* The graph of in's path, traced, checked against values (the wasm's
 * witness values of in, which it must give on the same input) and
 * against the memory limit with c's other graphs: 0 with *out, or 1 and
 * why there is none. */
static int graph_of(const g16_circuit *c, const witness_inputs *in, const uint8_t *values,
                    wgraph *out, char *why, size_t whylen)
{
    int rc = graph_trace(c, in, out, why, whylen);
    if (rc) return rc;
    size_t bytes = (size_t)32 * c->info.witness_size;
    uint8_t *own = malloc(bytes ? bytes : 1);
    why[0] = 0;
    if (!own || graph_values(out, in, 0, own, why, whylen) || memcmp(own, values, bytes)) {
        if (!why[0])
            snprintf(why, whylen, "%s",
                     own ? "the graph disagrees with the wasm"
                         : "out of memory for the graph's check");
        rc = 1;
    }
    free(own);
    unsigned n = atomic_load(&((g16_circuit *)c)->n_graphs);
    if (!rc && n) {
        /* the others are used with it only when all fit (graphs_fitting) */
        size_t held = wgraph_bytes(out), eval = graph_eval_bytes(out);
        for (unsigned i = 0; i < n; i++) {
            const wgraph *g = atomic_load(&((g16_circuit *)c)->graphs[i]);
            held += wgraph_bytes(g);
            if (graph_eval_bytes(g) > eval) eval = graph_eval_bytes(g);
        }
        if (held + eval > g16_circuit_memory_limit(c)) {
            snprintf(why, whylen,
                     "the graph of another path would need %zu bytes with the circuit's %u, over "
                     "its memory limit of %zu",
                     held + eval, n, g16_circuit_memory_limit(c));
            rc = 1;
        }
    }
    if (rc) wgraph_free(out);
    return rc;
}

/* Makes a graph of input's path from a trace of input, after the wasm
 * computed its witness (values: that witness's values), when c has no
 * graph that fits input and may make another (graph_may_make); kept
 * beside c's others and saved to the cache.  requested: by
 * g16_circuit_make_graph, which waits for another attempt to end. */
static void graph_make(const g16_circuit *c, const char *input, size_t len, const char *input_name,
                       const uint8_t *values, int requested)
{
    g16_circuit *m = (g16_circuit *)c;
    if (atomic_load(&m->graph_on_request) && !requested) return;
    path_new = 0; /* this input's graph made or tried (graph_wanted) */
    if (requested)
        pthread_mutex_lock(&m->graph_lock);
    else if (pthread_mutex_trylock(&m->graph_lock))
        return;
    witness_inputs in;
    char why[256] = "", err[512];
    if (!graph_may_make(m) || witness_inputs_parse(input, len, input_name, c->info.prime,
                                                   c->info.n32, &in, err, sizeof err)) {
        pthread_mutex_unlock(&m->graph_lock);
        return;
    }
    wgraph g, *p = NULL;
    /* another calculation may have made this path's graph meanwhile */
    if (graph_path_new(c, &in)) {
        m->graph_tries++;
        if (!graph_of(c, &in, values, &g, why, sizeof why) && !(p = malloc(sizeof *p))) {
            wgraph_free(&g);
            snprintf(why, sizeof why, "out of memory for the graph");
        }
        if (!p) graph_refused(m, why);
    }
    witness_inputs_free(&in);
    if (p) {
        *p = g;
        graph_words_put(c, p->circuit);
        unsigned file = graph_file_free(c);
        uint8_t *bytes;
        size_t flen;
        if (file != UINT_MAX && !wgraph_serialize(p, &bytes, &flen)) {
            if (witness_graph_write(c->cache_dir, c->wasm_sha256, file, bytes, flen, err,
                                    sizeof err))
                file = UINT_MAX;
            free(bytes);
        }
        graph_publish(m, p, file, NULL, 0);
    }
    pthread_mutex_unlock(&m->graph_lock);
}

g16_status g16_circuit_witness_path(const g16_circuit *c, char *out, size_t len)
{
    g16_circuit *m = (g16_circuit *)c;
    if (path_circuit == c->id) {
        snprintf(out, len, "%s", path_text);
        return G16_OK;
    }
    pthread_mutex_lock(&m->path_lock);
    snprintf(out, len, "%s", c->last_path[0] ? c->last_path : "no calculation yet");
    pthread_mutex_unlock(&m->path_lock);
    return G16_OK;
}

/* Whether the calling thread's last calculation on c fell back because no
 * graph fitted its input's path (after graph_calculate). */
static int graph_path_noted(const g16_circuit *c) { return path_circuit == c->id && path_new; }

int g16_circuit_graph_wanted(const g16_circuit *c)
{
    return c->info.n32 == 8 && graph_path_noted(c) && graph_may_make(c);
}

/* The graph for a file: made from the file the wasm wrote. */
static void graph_make_from_file(const g16_circuit *c, const char *input, size_t len,
                                 const char *input_name, const char *path)
{
    if (!graph_path_noted(c)) return;
    formats_mapping m;
    char ignored[256];
    if (formats_map_file(path, &m, ignored, sizeof ignored)) return;
    size_t head = g16_witness_wtns_bytes(c) - (size_t)32 * c->info.witness_size;
    if (m.len == g16_witness_wtns_bytes(c) && c->info.n32 == 8)
        graph_make(c, input, len, input_name, (const uint8_t *)m.addr + head, 0);
    formats_unmap_file(&m);
}

g16_status g16_witness_calculate_file(const g16_circuit *c, const char *input, size_t len,
                                      const char *input_name, g16_witness_log_fn log, void *log_ctx,
                                      const char *wtns_path, char *err, size_t errlen)
{
    int rc = graph_calculate(c, input, len, input_name, NULL, wtns_path, err, errlen);
    if (rc != 1) return rc;
    log_lines lines = {.fn = log, .ctx = log_ctx};
    g16w_log hooks = {&lines, log_text, log_value};
    rc = with_instance(c, input, len, input_name, &hooks, calculate_to_file, (void *)wtns_path, err,
                       errlen);
    if (rc) path_new = 0; /* the wasm's error: no path to trace */
    if (!rc) graph_make_from_file(c, input, len, input_name, wtns_path);
    return rc;
}

/* One calculation with the circuit's log() lines going to log. */
static int calculate_logged(const g16_circuit *c, const char *input, size_t len,
                            const char *input_name, g16_witness_log_fn log, void *log_ctx,
                            wtns_out *o, char *err, size_t errlen)
{
    int rc = graph_calculate(c, input, len, input_name, o, NULL, err, errlen);
    if (rc != 1) return rc;
    log_lines lines = {.fn = log, .ctx = log_ctx};
    g16w_log hooks = {&lines, log_text, log_value};
    rc = with_instance(c, input, len, input_name, &hooks, calculate, o, err, errlen);
    if (rc) path_new = 0; /* the wasm's error: no path to trace */
    const uint8_t *buf = o->into ? o->into : o->wtns ? *o->wtns : NULL;
    size_t head = g16_witness_wtns_bytes(c) - (size_t)32 * c->info.witness_size;
    if (!rc && buf && c->info.n32 == 8 && graph_path_noted(c))
        graph_make(c, input, len, input_name, buf + head, 0);
    return rc;
}

g16_status g16_circuit_graph_on_request(g16_circuit *c, int on)
{
    pthread_mutex_lock(&c->graph_lock);
    atomic_store(&c->graph_on_request, on != 0);
    if (on && !c->graph_tries && !atomic_load(&c->n_graphs))
        graph_none(c, "no graph yet (one is made on request)");
    pthread_mutex_unlock(&c->graph_lock);
    return G16_OK;
}

g16_status g16_circuit_make_graph(const g16_circuit *c, const char *input, size_t len,
                                  const char *input_name, char *err, size_t errlen)
{
    if (c->info.n32 != 8 || !graph_may_make(c)) return G16_OK;
    /* nothing to make when a graph fits the input's path, or the input
     * falls back for another reason than its path */
    witness_inputs in;
    int rc =
        witness_inputs_parse(input, len, input_name, c->info.prime, c->info.n32, &in, err, errlen);
    if (rc) return rc;
    int wanted = graph_path_new(c, &in);
    witness_inputs_free(&in);
    if (!wanted) return G16_OK;
    uint8_t *wtns;
    size_t wtns_len;
    wtns_out o = {&wtns, &wtns_len, NULL};
    rc = with_instance(c, input, len, input_name, NULL, calculate, &o, err, errlen);
    if (rc) return rc;
    size_t head = g16_witness_wtns_bytes(c) - (size_t)32 * c->info.witness_size;
    graph_make(c, input, len, input_name, wtns + head, 1);
    free(wtns);
    return G16_OK;
}

g16_status g16_circuit_graph(const g16_circuit *c, g16_circuit_graph_info *out)
{
    g16_circuit *m = (g16_circuit *)c;
    memset(out, 0, sizeof *out);
    unsigned n = atomic_load(&m->n_graphs);
    if (n) {
        out->graphs = n;
        for (unsigned i = 0; i < n; i++) {
            const wgraph *g = atomic_load(&m->graphs[i]);
            out->bytes += wgraph_bytes(g);
            if (graph_eval_bytes(g) > out->eval_bytes) out->eval_bytes = graph_eval_bytes(g);
        }
        unsigned usable = graphs_fitting(c, n, out->why, sizeof out->why);
        out->present = usable > 0;
        if (usable == n && !pthread_mutex_trylock(&m->graph_lock)) {
            snprintf(out->why, sizeof out->why, "%s", c->path_why);
            pthread_mutex_unlock(&m->graph_lock);
        }
    } else if (pthread_mutex_trylock(&m->graph_lock)) {
        snprintf(out->why, sizeof out->why, "the graph is being made");
    } else {
        snprintf(out->why, sizeof out->why, "%s", c->graph_why);
        pthread_mutex_unlock(&m->graph_lock);
    }
    return G16_OK;
}

g16_status g16_witness_calculate(const g16_circuit *c, const char *input, size_t len,
                                 const char *input_name, g16_witness_log_fn log, void *log_ctx,
                                 uint8_t **wtns, size_t *wtns_len, char *err, size_t errlen)
{
    *wtns = NULL;
    *wtns_len = 0;
    wtns_out o = {wtns, wtns_len, NULL};
    return calculate_logged(c, input, len, input_name, log, log_ctx, &o, err, errlen);
}

int witness_calculate_wasm(const g16_circuit *c, const char *input, size_t len, uint8_t **wtns,
                           size_t *wtns_len, char *err, size_t errlen)
{
    *wtns = NULL;
    *wtns_len = 0;
    wtns_out o = {wtns, wtns_len, NULL};
    return with_instance(c, input, len, "input.json", NULL, calculate, &o, err, errlen);
}

g16_status g16_witness_calculate_into(const g16_circuit *c, const char *input, size_t len,
                                      const char *input_name, g16_witness_log_fn log, void *log_ctx,
                                      uint8_t *wtns, size_t capacity, size_t *wtns_len, char *err,
                                      size_t errlen)
{
    *wtns_len = 0;
    if (capacity < g16_witness_wtns_bytes(c)) {
        snprintf(err, errlen, "%s: the witness needs %zu bytes, the buffer has %zu", c->wasm_path,
                 g16_witness_wtns_bytes(c), capacity);
        return G16_ERR_ARG;
    }
    wtns_out o = {NULL, wtns_len, wtns};
    return calculate_logged(c, input, len, input_name, log, log_ctx, &o, err, errlen);
}

g16_status g16_prove_input(const g16_key *key, const g16_circuit *c, const char *input, size_t len,
                           const char *input_name, const g16_options *opt, char **proof_json,
                           char **public_json, g16_timings *timings, char *err, size_t errlen)
{
    uint8_t *wtns;
    size_t wtns_len;
    *proof_json = *public_json = NULL;
    int rc =
        g16_witness_calculate(c, input, len, input_name, NULL, NULL, &wtns, &wtns_len, err, errlen);
    if (rc) return rc;
    g16_options borrowed;
    if (opt)
        borrowed = *opt;
    else
        g16_options_default(&borrowed);
    borrowed.borrow_witness = 1; /* the buffer outlives the proof */
    rc = g16_prove(key, wtns, wtns_len, input_name, &borrowed, proof_json, public_json, timings,
                   err, errlen);
    g16_witness_free(wtns);
    return rc;
}

static int check_only(const run *r, const witness_inputs *in, void *arg)
{
    (void)arg;
    return each_signal(r, in, check_signal);
}

g16_status g16_witness_check_input(const g16_circuit *c, const char *input, size_t len,
                                   const char *input_name, char *err, size_t errlen)
{
    return with_instance(c, input, len, input_name, NULL, check_only, NULL, err, errlen);
}

size_t g16_witness_wtns_bytes(const g16_circuit *c)
{
    return 44 + 4 * (size_t)c->info.n32 * (1 + (size_t)c->info.witness_size);
}

void g16_witness_free(uint8_t *wtns) { free(wtns); }
