/* witness: circom witness calculators run natively (the public API is
 * include/g16_witness.h; this header is the module's inside).
 *
 * - input.c   input.json to field values, as snarkjs reads it: keys are
 *             signal names, values nested arrays of numbers or strings,
 *             each reduced modulo the prime.  Nothing circuit-specific.
 * - cache.c   the compiled-circuit cache: wasm -> C (wasm2c) -> shared
 *             object (cc), named by the wasm's SHA-256, written atomically
 *             into a directory only this user may change
 *             (g16_dir_private), with a trailer binding the object to
 *             its wasm and recipe, verified before every dlopen.
 * - entry.c   the trailer's format, and the .wasm's header and section
 *             frames read before wasm2c runs (pure: fuzzed).
 * - ticks.c   the time limit's check points added to wasm2c's output.
 * - native_fr.c  circom's field runtime in wasm2c's output replaced by the
 *             native code of native_fr.h where it is recognised.
 * - circuit.c g16_circuit_* and g16_witness_*: drives one calculator
 *             instance per call through glue_abi.h and writes the .wtns.
 * - glue.c    compiled into each circuit's shared object, not into libg16
 *             (see its header); embedded as text with glue_abi.h and
 *             native_fr.h.
 * - wgraph*.c the witness graph (docs/witness-graph.md): its evaluator
 *             and file format (wgraph.c), its compiler from a trace
 *             (wgraph_build.c); the tracing object's glue (trace_glue.c,
 *             embedded as text like glue.c) and rewrite (wasm_trace.c).
 */
#ifndef G16_WITNESS_INTERNAL_H
#define G16_WITNESS_INTERNAL_H

#include <nettle/sha2.h>
#include <stddef.h>
#include <stdint.h>

#include "witness/glue_abi.h"
#include "witness/trace_abi.h"

/* One input signal: its name, the 64-bit FNV-1a hash circom looks it up by,
 * and its values flattened (arrays in row-major order), n32 words each,
 * least significant word first, reduced below the prime. */
typedef struct {
    char *name;
    uint64_t hash;
    size_t count;
    uint32_t *values;
} witness_signal;

typedef struct {
    witness_signal *signals; /* in the file's order */
    size_t count;
} witness_inputs;

/* The hash circom's calculator identifies a signal name by. */
uint64_t witness_name_hash(const char *name);

/* Parses an input.json text.  prime: n32 words, least significant first.
 * Errors (G16_ERR_FORMAT) name input_name and the signal. */
int witness_inputs_parse(const char *text, size_t len, const char *input_name,
                         const uint32_t *prime, uint32_t n32, witness_inputs *out, char *err,
                         size_t errlen);
void witness_inputs_free(witness_inputs *in);

/* A loaded compiled circuit. */
typedef struct {
    void *handle; /* dlopen's */
    int fd;       /* the entry it was opened from, open while it is loaded */
    const g16w_api *api;
    const g16t_api *trace; /* instead of api in a tracing object (witness_trace_load) */
    int compiled;          /* 1: this load compiled it */
    uint8_t wasm_sha256[SHA256_DIGEST_SIZE]; /* of the bytes it was compiled from */
} witness_object;

/* The programs a circuit is compiled with, as paths (run as given, never
 * looked up in PATH). */
typedef struct {
    const char *cc, *wasm2c;
} witness_tools;

/* Loads the compiled form of wasm_path from cache_dir, compiling and
 * caching it first (with tools) when it is missing or damaged.  expect
 * (NULL: any): the SHA-256 the wasm's bytes must have, else
 * G16_ERR_MISMATCH before anything is compiled or loaded. */
int witness_object_load(const char *wasm_path, const char *cache_dir, const uint8_t *expect,
                        const witness_tools *tools, witness_object *out, char *err, size_t errlen);
void witness_object_unload(witness_object *obj);
/* The SHA-256 of wasm_path's bytes (a .wasm by its header), which name
 * its cache entries, without loading anything: G16_ERR_MISMATCH when
 * expect (NULL: any) says otherwise. */
int witness_wasm_sha256(const char *wasm_path, const uint8_t *expect,
                        uint8_t digest[SHA256_DIGEST_SIZE], char *err, size_t errlen);
/* The same for the circuit's tracing object (trace_glue.c): its own cache
 * entry beside the calculator's, under the same rules, compiled from the
 * same translation rewritten by witness_add_trace. */
int witness_trace_load(const char *wasm_path, const char *cache_dir, const uint8_t *expect,
                       const witness_tools *tools, witness_object *out, char *err, size_t errlen);

/* What binds a cache entry to its circuit (entry.c): the SHA-256 of the
 * wasm and of the recipe (everything else that shapes the object). */
typedef struct {
    uint8_t wasm[SHA256_DIGEST_SIZE];
    uint8_t recipe[SHA256_DIGEST_SIZE];
} witness_entry_id;

#define WITNESS_TRAILER_SIZE (8 + 3 * SHA256_DIGEST_SIZE + 8)

typedef enum {
    WITNESS_ENTRY_OK,      /* whole, and built from this wasm and recipe */
    WITNESS_ENTRY_DAMAGED, /* no trailer, or bytes that do not match it */
    WITNESS_ENTRY_OLD,     /* the trailer of an older libg16 (no digests) */
    WITNESS_ENTRY_OTHER,   /* whole, but another circuit's or recipe's */
} witness_entry_verdict;

/* The trailer appended to the object body[0..len) for the entry id. */
void witness_entry_trailer(const uint8_t *body, size_t len, const witness_entry_id *id,
                           uint8_t out[WITNESS_TRAILER_SIZE]);
/* What the entry bytes[0..len) (object and trailer) is for id. */
witness_entry_verdict witness_entry_check(const uint8_t *bytes, size_t len,
                                          const witness_entry_id *id);
/* The same for a graph file: its own magic, and a fast checksum (XXH3-128)
 * instead of the SHA-256 of the bytes before the sum. */
void witness_graph_trailer(const uint8_t *body, size_t len, const witness_entry_id *id,
                           uint8_t out[WITNESS_TRAILER_SIZE]);
witness_entry_verdict witness_graph_check(const uint8_t *bytes, size_t len,
                                          const witness_entry_id *id);
/* Reads a .wasm's header and section frames (id, size within the file)
 * before wasm2c is run on it: G16_ERR_FORMAT naming wasm_path. */
int witness_wasm_check(const uint8_t *bytes, size_t len, const char *wasm_path, char *err,
                       size_t errlen);

/* Rewrites wasm2c's output c_path in place so that every loop branch and
 * function entry checks the instance's deadline (glue.c).  Errors name
 * wasm_path. */
int witness_add_ticks(const char *c_path, const char *wasm_path, char *err, size_t errlen);
/* What that rewrite does, as text: part of the cache key. */
extern const char witness_tick_recipe[];

/* Rewrites wasm2c's output c_path in place: the field runtime functions
 * native_fr.c recognises call native_fr.h's code (their translation kept
 * as "<name>_wasm").  replaced: how many.  Errors name wasm_path. */
int witness_add_native(const char *c_path, const char *wasm_path, size_t *replaced, char *err,
                       size_t errlen);
/* What that rewrite does, into a cache key. */
void witness_native_recipe(struct sha256_ctx *ctx);

/* Rewrites wasm2c's output c_path in place for the tracing object
 * (wasm_trace.c); G16_ERR_UNSUPPORTED when its text is not as expected. */
int witness_add_trace(const char *c_path, const char *wasm_path, char *err, size_t errlen);
/* What that rewrite does, into a cache key. */
void witness_trace_recipe(struct sha256_ctx *ctx);
/* The texts of trace_glue.c, trace_hooks.h and trace_abi.h. */
extern const char witness_trace_glue_c[];
extern const char witness_trace_hooks_h[];
extern const char witness_trace_abi_h[];

/* The texts of glue.c, glue_abi.h, native_fr.h and the field module's
 * field_asm_x86.h, which native_fr.h includes (generated from the files). */
extern const char witness_glue_c[];
extern const char witness_glue_abi_h[];
extern const char witness_native_fr_h[];
extern const char witness_field_asm_h[];

/* A graph (wgraph.h) of a traced calculation of the inputs in; why:
 * the reason when the trace cannot be one (WGRAPH_FALLBACK). */
#include "witness/wgraph.h"
int wgraph_from_trace(const g16t_trace *tr, const witness_inputs *in, const uint32_t *prime,
                      wgraph *out, char *why, size_t whylen);

/* The witness of input by the circuit's wasm alone, never its graph (the
 * graph's reference in the tests); as g16_witness_calculate. */
struct g16_circuit;
int witness_calculate_wasm(const struct g16_circuit *c, const char *input, size_t len,
                           uint8_t **wtns, size_t *wtns_len, char *err, size_t errlen);

/* The graphs a circuit keeps, one per path through its input-dependent
 * branches (circuit.c makes one for each input that no graph's guards
 * fit, after the wasm computed its witness).  A bound, because a circuit
 * whose branches multiply (one per input bit) has a path per input: each
 * graph costs a trace (seconds at 2^20), its memory under the circuit's
 * memory limit, a file in the cache and an evaluation tried before the
 * wasm's.  Eight hold a few independent branches (IsZero's two each). */
#define WITNESS_GRAPHS_MAX 8u

/* The circuit's graph file index (0 .. WITNESS_GRAPHS_MAX-1) in the cache
 * (cache.c): beside its compiled form, named and bound (trailer) to the
 * wasm's SHA-256 and the graph's recipe, under the same trust rules.
 * map: G16_ERR_NOT_FOUND when there is none, G16_ERR_FORMAT when there is
 * one that fails its checks; else a read-only mapping of it
 * (munmap(*bytes, *map_len)), *len its bytes before the trailer. */
int witness_graph_map(const char *cache_dir, const uint8_t *wasm_sha256, unsigned index,
                      const uint8_t **bytes, size_t *len, size_t *map_len);
int witness_graph_write(const char *cache_dir, const uint8_t *wasm_sha256, unsigned index,
                        const uint8_t *bytes, size_t len, char *err, size_t errlen);

#endif
