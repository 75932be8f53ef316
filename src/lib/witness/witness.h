/* witness: circom witness calculators run natively (the public API is
 * include/g16_witness.h; this header is the module's inside).
 *
 * - input.c   input.json to field values, as snarkjs reads it: keys are
 *             signal names, values nested arrays of numbers or strings,
 *             each reduced modulo the prime.  Nothing circuit-specific.
 * - cache.c   the compiled-circuit cache: wasm -> C (wasm2c) -> shared
 *             object (cc), named by the wasm's SHA-256, written atomically
 *             with a trailer holding the object's own SHA-256, verified
 *             before every dlopen.
 * - ticks.c   the time limit's check points added to wasm2c's output.
 * - native_fr.c  circom's field runtime in wasm2c's output replaced by the
 *             native code of native_fr.h where it is recognised.
 * - circuit.c g16_circuit_* and g16_witness_*: drives one calculator
 *             instance per call through glue_abi.h and writes the .wtns.
 * - glue.c    compiled into each circuit's shared object, not into libg16
 *             (see its header); embedded as text with glue_abi.h and
 *             native_fr.h.
 */
#ifndef G16_WITNESS_INTERNAL_H
#define G16_WITNESS_INTERNAL_H

#include <nettle/sha2.h>
#include <stddef.h>
#include <stdint.h>

#include "witness/glue_abi.h"

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
    int compiled;                            /* 1: this load compiled it */
    uint8_t wasm_sha256[SHA256_DIGEST_SIZE]; /* of the bytes it was compiled from */
} witness_object;

/* Loads the compiled form of wasm_path from cache_dir, compiling and
 * caching it first when it is missing or damaged.  expect (NULL: any):
 * the SHA-256 the wasm's bytes must have, else G16_ERR_MISMATCH before
 * anything is compiled or loaded. */
int witness_object_load(const char *wasm_path, const char *cache_dir, const uint8_t *expect,
                        witness_object *out, char *err, size_t errlen);
void witness_object_unload(witness_object *obj);

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

/* The texts of glue.c, glue_abi.h, native_fr.h and the field module's
 * field_asm_x86.h, which native_fr.h includes (generated from the files). */
extern const char witness_glue_c[];
extern const char witness_glue_abi_h[];
extern const char witness_native_fr_h[];
extern const char witness_field_asm_h[];

#endif
