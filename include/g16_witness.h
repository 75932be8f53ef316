/* g16 witness: circom witness calculation from inputs, natively.
 *
 * Contract
 * - A circuit (g16_circuit) is opened once from circom's witness calculator
 *   (circuit.wasm).  The first open of a given .wasm translates it to C
 *   (wasm2c) and compiles it with the system C compiler into a shared
 *   object, cached in cache_dir under the wasm's SHA-256; later opens, from
 *   any process, load the cached object (its trailer's digests of the
 *   wasm, the build recipe and its own bytes are checked first, so a
 *   damaged entry or another circuit's is rebuilt, never loaded).  Loading
 *   runs the object's code, so cache_dir must be one only this user and
 *   root may change (g16_dir_private in g16.h; docs/security.md), and an
 *   entry file must be this user's, single-linked and writable by no one
 *   else, or it is rebuilt.  Compiling needs `wasm2c` (Debian: wabt) and
 *   a C compiler, run by the paths CMake found when libg16 was configured
 *   (g16_circuit_tools_default) or those g16_circuit_limits gives, never
 *   looked up in PATH; a large circuit takes seconds to minutes.
 * - The circuit's code runs with WebAssembly's memory safety: every load
 *   and store is bounds-checked against its own linear memory, runaway
 *   recursion and traps become errors, never a crash of the caller.
 * - g16_witness_calculate computes the witness for one input.json text and
 *   returns the .wtns file bytes, identical to `snarkjs wtns calculate`.
 *   Inputs are read as snarkjs reads them: signal names as keys, nested
 *   arrays for array signals, values as numbers, decimal or 0x-hex strings
 *   (any string JavaScript's BigInt() accepts), reduced modulo the field
 *   prime (negative values count from p).
 * - A circuit may be used from several threads at once: each call runs its
 *   own instance of the calculator (own linear memory, globals and
 *   tables), destroyed before it returns, so concurrent calculations
 *   never share an instance and no input's values reach another call.
 *   Instances are created for their call, but for the first call's: the
 *   one g16_circuit_open read the circuit's header with (start code and
 *   header getters run, no input: what snarkjs calculates with), kept
 *   until then.
 * - Memory: an instance starts with g16_circuit_memory_bytes of linear
 *   memory and may grow it (circom allocates as components are created)
 *   up to the circuit's limit, 4 GiB unless g16_circuit_open_limited or
 *   g16_circuit_set_memory_limit says less; a calculation that needs more
 *   fails with G16_ERR_NOMEM.  The limit holds for an instance's start
 *   code too, the open's included (g16_circuit_open_limited's limit).
 *   The circuit's witness graph (g16_circuit_graph), when it has one,
 *   counts against the same limit: the graph with an evaluation's own
 *   memory must fit in it, or calculations use the wasm.
 *   Beside it a calculation holds the parsed inputs, the witness values
 *   and the .wtns it returns (g16_witness_wtns_bytes each).  Until its
 *   first calculation an open circuit holds that first instance: the
 *   pages its data segments and start code touched.
 * - Time: a calculation may run for the circuit's time limit, by default
 *   G16_WITNESS_TIME_LIMIT seconds (elapsed time, from the call's start
 *   to the witness's last value), unless g16_circuit_open_limited or
 *   g16_circuit_set_time_limit says otherwise; one that runs longer (a
 *   circuit loop that an input never lets end) stops within milliseconds
 *   of the limit with G16_ERR_TIMEOUT, its instance freed, and the thread
 *   and the circuit stay usable.  An instance's start code (a wasm's
 *   start function, run as it is created: by the open for the first
 *   instance, after the compile, and by a calculation that needs a new
 *   one) runs under the same limit, the open's under the one
 *   g16_circuit_open_limited gives (g16_circuit_open: the default), so
 *   the open of a circuit whose start code never ends fails with
 *   G16_ERR_TIMEOUT; with no limit set (0) start code still stops after
 *   G16_WITNESS_TIME_LIMIT seconds, so opening a circuit always ends.
 *   The check is compiled into the circuit's code (no signals or
 *   timers).  A calculation by the witness graph runs under the same
 *   limit (its clock read every 65536 steps) and stops past it with the
 *   same G16_ERR_TIMEOUT and message, without falling back to the wasm
 *   (which would run past it too).
 * - Errors: a g16_status code (g16.h) and a one-line message in err naming
 *   the file (the .wasm, or input_name for the inputs) and the problem: an
 *   unknown signal, a wrong number of values, a bad value, a failed circuit
 *   assert (with the template and line circom reports).
 */
#ifndef G16_WITNESS_H
#define G16_WITNESS_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

typedef struct g16_circuit g16_circuit;

/* Opens (compiling on first use) the witness calculator wasm_path, with
 * compiled objects cached in cache_dir (created 0700 if missing).  A
 * cache_dir that others may change (g16_dir_private's rule) is refused
 * before anything in it is read: G16_ERR_ARG, the message naming it. */
g16_status g16_circuit_open(const char *wasm_path, const char *cache_dir, g16_circuit **out,
                            char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 3);

/* The same, only when the file's bytes have the SHA-256 sha256 (NULL:
 * any): else G16_ERR_MISMATCH, naming the file and both digests, before
 * anything is compiled or loaded.  The digest checked is that of the very
 * bytes the circuit is compiled from (and its cache entry named by), so a
 * file replaced meanwhile is never the circuit opened. */
#define G16_SHA256_BYTES 32
g16_status g16_circuit_open_sha256(const char *wasm_path, const char *cache_dir,
                                   const uint8_t sha256[G16_SHA256_BYTES], g16_circuit **out,
                                   char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 4);
void g16_circuit_close(g16_circuit *circuit);

/* 1 when this open compiled the circuit, 0 when it loaded a cached one. */
int g16_circuit_compiled(const g16_circuit *circuit);
/* How the calling thread's last witness calculation on the circuit ran
 * (else, when this thread made none, the circuit's last one on any
 * thread), as one line into out: "graph" when its witness graph gave the
 * witness (docs/witness-graph.md), "graph (ran past the time limit ...)"
 * when it stopped there (G16_ERR_TIMEOUT), else "wasm (why not the
 * graph)".  G16_OK. */
g16_status g16_circuit_witness_path(const g16_circuit *circuit, char *out, size_t len);

/* Whether the circuit has a witness graph that its calculations try
 * first, and if not why; the graphs' memory while the circuit holds them
 * (counted against the memory limit with the largest evaluation's own,
 * eval_bytes: graphs over the limit are not used).  A circuit whose
 * calculation branches on its inputs has a graph per path traced (at
 * most 8): a calculation tries them in turn, the one that last gave a
 * witness first, and falls back to the wasm when none fits. */
typedef struct {
    int present;       /* 1: calculations try the graphs first */
    size_t bytes;      /* the graphs' memory (mapped files, or arrays); 0 without one */
    size_t eval_bytes; /* an evaluation's memory beside the witness it writes */
    char why[256];     /* without a usable graph: why not; with graphs: why some
                          are not used, or why the last trace of another path made
                          no graph, else empty */
    unsigned graphs;   /* graphs held: one per path of the calculation traced */
} g16_circuit_graph_info;
g16_status g16_circuit_graph(const g16_circuit *circuit, g16_circuit_graph_info *out) G16_MUST_USE
    G16_NONNULL(1, 2);
/* By default a calculation that the wasm computes because no graph fitted
 * its input's path (the first calculation, for the first graph) makes
 * that path's graph before it returns (seconds for a large circuit).
 * on: calculations never do; g16_circuit_make_graph does, on a thread of
 * the caller's choosing.  Set before calculations start. */
g16_status g16_circuit_graph_on_request(g16_circuit *circuit, int on) G16_MUST_USE G16_NONNULL(1);
/* 1 when the calling thread's last calculation on the circuit was the
 * wasm's because no graph fitted its input's path (a guard of each went
 * another way, or there was none yet) and the circuit would make a graph
 * of that input (g16_circuit_make_graph); else 0. */
int g16_circuit_graph_wanted(const g16_circuit *circuit) G16_NONNULL(1);
/* Makes the graph of the input.json text input's path from a trace of it
 * (its witness computed by the wasm, which the graph must reproduce),
 * when no graph of the circuit fits that input and it has fewer than
 * its bound; G16_OK whether or not a graph came of it
 * (g16_circuit_graph says), or the calculation's error for a bad input. */
g16_status g16_circuit_make_graph(const g16_circuit *circuit, const char *input, size_t len,
                                  const char *input_name, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 2);
/* The SHA-256 of the .wasm bytes the circuit was opened from. */
void g16_circuit_wasm_sha256(const g16_circuit *circuit, uint8_t out[G16_SHA256_BYTES]);
/* Values in the circuit's witness, and bytes per value (32 for BN254 and
 * BLS12-381's scalar fields). */
uint32_t g16_circuit_witness_size(const g16_circuit *circuit);
uint32_t g16_circuit_field_bytes(const g16_circuit *circuit);
/* "bn128" or "bls12381" when the circuit's prime is that curve's scalar
 * field (its witnesses prove with that curve's keys); NULL otherwise. */
const char *g16_circuit_curve(const g16_circuit *circuit);
/* Linear memory an instance starts with, and the most a calculation may
 * grow it to (set before calculations start: not synchronized with them;
 * rounded down to 64 KiB pages, never below the start). */
size_t g16_circuit_memory_bytes(const g16_circuit *circuit);
size_t g16_circuit_memory_limit(const g16_circuit *circuit);
void g16_circuit_set_memory_limit(g16_circuit *circuit, size_t bytes);

/* Seconds a calculation may run (see Time above); 0 or less: no limit.
 * Set before calculations start, like the memory limit. */
#define G16_WITNESS_TIME_LIMIT 600.0
double g16_circuit_time_limit(const g16_circuit *circuit);
void g16_circuit_set_time_limit(g16_circuit *circuit, double seconds);

/* The limits above, given before the open's start code runs (the setters
 * come too late for it), and the tools a circuit not yet in the cache is
 * compiled with. */
typedef struct {
    double time_limit;   /* seconds, as g16_circuit_set_time_limit takes them */
    size_t memory_limit; /* bytes, as g16_circuit_set_memory_limit (never below
                            the wasm's initial memory); 0: 4 GiB */
    /* The C compiler and wasm2c, as paths (a bare name is refused with
     * G16_ERR_ARG: nothing is looked up in PATH); NULL: the configured
     * ones.  They are part of the cache entry's recipe: another compiler
     * makes (and loads) an entry of its own. */
    const char *cc, *wasm2c;
} g16_circuit_limits;

/* The tools libg16 was configured with (paths; static text); either
 * pointer may be NULL. */
void g16_circuit_tools_default(const char **cc, const char **wasm2c);

/* g16_circuit_open with limits (NULL: the defaults, as g16_circuit_open):
 * the open's start code runs under them, and calculations after it. */
g16_status g16_circuit_open_limited(const char *wasm_path, const char *cache_dir,
                                    const g16_circuit_limits *limits, g16_circuit **out, char *err,
                                    size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 4);
/* Both: the limits (NULL: the defaults) and the bytes' SHA-256 (NULL:
 * any), as g16_circuit_open_limited and g16_circuit_open_sha256. */
g16_status g16_circuit_open_checked(const char *wasm_path, const char *cache_dir,
                                    const g16_circuit_limits *limits,
                                    const uint8_t sha256[G16_SHA256_BYTES], g16_circuit **out,
                                    char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 5);

/* Receives each line the circuit prints with circom's log() (without the
 * newline); NULL drops them. */
typedef void (*g16_witness_log_fn)(void *ctx, const char *line);

/* Computes the witness for the input.json text input (len bytes; input_name
 * names it in errors) and returns the .wtns bytes in *wtns (malloc'd: free
 * with g16_witness_free) and their length in *wtns_len. */
g16_status g16_witness_calculate(const g16_circuit *circuit, const char *input, size_t len,
                                 const char *input_name, g16_witness_log_fn log, void *log_ctx,
                                 uint8_t **wtns, size_t *wtns_len, char *err,
                                 size_t errlen) G16_MUST_USE G16_NONNULL(1, 7, 8);
void g16_witness_free(uint8_t *wtns);

/* The same into caller memory: wtns has room for capacity bytes, at least
 * g16_witness_wtns_bytes (else G16_ERR_ARG before anything runs); the
 * .wtns length goes to *wtns_len.  A service reuses one buffer per worker. */
g16_status g16_witness_calculate_into(const g16_circuit *circuit, const char *input, size_t len,
                                      const char *input_name, g16_witness_log_fn log, void *log_ctx,
                                      uint8_t *wtns, size_t capacity, size_t *wtns_len, char *err,
                                      size_t errlen) G16_MUST_USE G16_NONNULL(1, 7, 9);

/* The same written to the file wtns_path (atomically: no file is left on
 * an error) a piece at a time: no memory for the whole witness. */
g16_status g16_witness_calculate_file(const g16_circuit *circuit, const char *input, size_t len,
                                      const char *input_name, g16_witness_log_fn log, void *log_ctx,
                                      const char *wtns_path, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 7);

/* Proves from inputs: the witness of the input.json text (as
 * g16_witness_calculate computes it), then g16_prove with key and opt
 * (NULL: defaults); the circuit must be the key's.  The proof and public
 * signals are malloc'd texts as g16_prove returns them. */
g16_status g16_prove_input(const g16_key *key, const g16_circuit *circuit, const char *input,
                           size_t len, const char *input_name, const g16_options *opt,
                           char **proof_json, char **public_json, g16_timings *timings, char *err,
                           size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 7, 8);

/* The size of every .wtns the circuit's calculations return. */
size_t g16_witness_wtns_bytes(const g16_circuit *circuit);

/* Checks an input.json text as g16_witness_calculate reads it (values,
 * every signal one of the circuit's inputs with as many values, none
 * missing) without running the circuit, so a service can refuse bad
 * input when it is submitted.  Same errors; an instance's starting
 * memory for the call's duration. */
g16_status g16_witness_check_input(const g16_circuit *circuit, const char *input, size_t len,
                                   const char *input_name, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
