/* The interface between libg16 and a compiled circuit (a shared object
 * built from wasm2c's translation of a circom witness calculator plus
 * glue.c).  Both sides include this header: libg16 when it is built, the
 * circuit when it is compiled at run time (the text is embedded in libg16
 * and written next to the generated C).  Any change to this file or to
 * glue.c changes the cache key, so a stale shared object is never loaded.
 *
 * Calls that run circuit code return 0, or why the circuit stopped:
 * a wasm trap (G16W_TRAP | wasm_rt_trap_t), a circom exception
 * (G16W_EXCEPTION | circom's exceptionHandler code), G16W_NOMEM, or
 * G16W_TIMEOUT (the instance's deadline passed while its code ran), or
 * G16W_SPENT (a call after witness, which the instance refuses).
 *
 * witness is an instance's last call but for more witness calls: it
 * reads values natively where it can, without the copies into circom's
 * shared memory and scratch that the calculator's getWitness makes, so
 * code run later could see memory that differs from the translation's. */
#ifndef G16_WITNESS_GLUE_ABI_H
#define G16_WITNESS_GLUE_ABI_H

#include <stdint.h>

#define G16W_ABI_VERSION 6u
#define G16W_MAX_N32     16u /* field elements up to 512 bits */
#define G16W_TRAP        0x100
#define G16W_EXCEPTION   0x200
#define G16W_NOMEM       0x300
#define G16W_TIMEOUT     0x400
#define G16W_SPENT       0x500

typedef struct g16w_instance g16w_instance;

/* What the circuit says about itself (read once per instance). */
typedef struct {
    uint32_t version, minor, patch; /* circom's version (getVersion...) */
    uint32_t n32;                   /* 32-bit words per field element */
    uint32_t prime[G16W_MAX_N32];   /* the prime, least significant word first */
    uint32_t witness_size;          /* values in the witness */
    uint32_t input_size;            /* input values the circuit expects */
} g16w_info;

/* Receivers of circom's log() output: text pieces and field values. */
typedef struct {
    void *ctx;
    void (*text)(void *ctx, const char *piece);
    void (*value)(void *ctx, const uint32_t *words, uint32_t n32);
} g16w_log;

typedef struct {
    uint32_t abi; /* G16W_ABI_VERSION */
    /* A fresh instance with its own linear memory (grows to at most
     * max_pages of 64 KiB, capped by the module's own limit and never
     * below its initial size; its start code too), its start code run.  deadline_ns: CLOCK_MONOTONIC time in nanoseconds after
     * which its code stops with G16W_TIMEOUT (0: never).  NULL when it
     * could not be made, *why saying why: G16W_NOMEM, or how its start
     * code stopped (a trap, G16W_TIMEOUT). */
    g16w_instance *(*create)(uint32_t max_pages, uint64_t deadline_ns, const g16w_log *log,
                             int *why);
    void (*destroy)(g16w_instance *);
    /* Sets what create sets, for the instance's later calls: the memory's
     * limit (lower or higher, never below its size now nor above the
     * module's own), the deadline and the log. */
    void (*configure)(g16w_instance *, uint32_t max_pages, uint64_t deadline_ns,
                      const g16w_log *log);
    int (*info)(g16w_instance *, g16w_info *out);
    int (*init)(g16w_instance *, uint32_t sanity_check);
    /* getInputSignalSize: the signal's value count, or negative if unknown. */
    int (*input_size)(g16w_instance *, uint32_t hash_msb, uint32_t hash_lsb, int32_t *size);
    /* Sets value index of the signal; value has n32 words, least first. */
    int (*set_input)(g16w_instance *, uint32_t hash_msb, uint32_t hash_lsb, uint32_t index,
                     const uint32_t *value);
    /* Writes values [first, first + count) of the witness to out as a
     * .wtns holds them: n32 little-endian 32-bit words each, least
     * significant first (4 * n32 * count bytes, no alignment needed). */
    int (*witness)(g16w_instance *, uint8_t *out, uint32_t first, uint32_t count);
    /* The text the circuit gave with its last error (printErrorMessage). */
    const char *(*error_text)(const g16w_instance *);
    /* The instance's linear memory now, in 64 KiB pages. */
    uint32_t (*pages)(const g16w_instance *);
} g16w_api;

/* The one symbol a circuit's shared object exports. */
#define G16W_API_SYMBOL "g16w_api_v1"

#endif
