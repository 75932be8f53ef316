/* wgraph: a circuit's witness as a graph of field operations (issue 40;
 * docs/witness-graph.md).
 *
 * A graph is built once from one traced calculation of the circuit's wasm
 * (wgraph_build.c, from the trace trace_glue.c records) and evaluated
 * natively with the field module's Montgomery code for every later input
 * of the same shape.  It is only ever a shortcut: an evaluation that meets
 * a guard the input takes the other way, or an operation whose result the
 * graph cannot give (a division by zero), answers WGRAPH_FALLBACK and the
 * caller computes the witness with the compiled wasm instead.
 *
 * Nodes are in evaluation order (every operand precedes its user); node i
 * holds one field element.  Operands a and b are node indices. */
#ifndef G16_WITNESS_WGRAPH_H
#define G16_WITNESS_WGRAPH_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    WGRAPH_INPUT = 1, /* a: the input value's ordinal (in the input signature's order) */
    WGRAPH_CONST,     /* a: index into consts */
    WGRAPH_ADD,
    WGRAPH_SUB,
    WGRAPH_MUL,
    WGRAPH_NEG, /* a only */
    WGRAPH_DIV, /* a * b^-1; b = 0 falls back (the wasm decides) */
    WGRAPH_EQ,  /* 1 if a = b else 0 */
    WGRAPH_NEQ, /* 1 if a != b else 0 */
    /* Shifts as circom's: by b's signed value (b > (p-1)/2 is negative,
     * a shift the other way by p - b), 0 by the prime's bit length or
     * more; SHR and SHL have a constant b (its index into consts_plain). */
    WGRAPH_SHR,  /* a >> b */
    WGRAPH_SHL,  /* (a << b) masked to the prime's bit length, less p once */
    WGRAPH_BAND, /* a & b of the canonical values */
    WGRAPH_BOR,  /* a | b, masked and reduced as SHL */
    WGRAPH_BXOR, /* a ^ b, masked and reduced as SHL */
    /* Guards: checked where they stand; a failed one falls back.  Their
     * own value is unused. */
    WGRAPH_GUARD_NZ, /* (a != 0) must equal b (0 or 1) */
    WGRAPH_GUARD_EQ, /* a must equal node b */
    /* Made by the builder, never traced: */
    WGRAPH_BIT, /* bit b of a's canonical value (b a constant below the bit length): (a >> b) & 1 */
    WGRAPH_SEL, /* a * b where a is 0 or 1 for every input: b if a != 0, else 0 */
    /* Traced again: circom's comparisons (1 or 0) of the signed values
     * (x > (p-1)/2 is x - p), its logical operations (1 or 0), bnot,
     * integer division and remainder of the canonical values, pow, inv,
     * and shifts by a node. */
    WGRAPH_LT,
    WGRAPH_GT,
    WGRAPH_LEQ,
    WGRAPH_GEQ,
    WGRAPH_LAND, /* a != 0 && b != 0 */
    WGRAPH_LOR,  /* a != 0 || b != 0 */
    WGRAPH_LNOT, /* a only: a == 0 */
    WGRAPH_BNOT, /* a only: ~a masked to the prime's bit length, less p once */
    WGRAPH_IDIV, /* floor(a / b); b = 0 falls back */
    WGRAPH_MOD,  /* a mod b; b = 0 falls back */
    WGRAPH_POW,  /* a^b, b's canonical value the exponent (a^0 = 1) */
    WGRAPH_INV,  /* a only: a^-1; a = 0 falls back */
    WGRAPH_SHRV, /* SHR by a node b */
    WGRAPH_SHLV, /* SHL by a node b */
    WGRAPH_OP_END
} wgraph_op;

/* Operations of one operand, a (b unused). */
static inline int wgraph_unary(uint32_t op)
{
    return op == WGRAPH_NEG || op == WGRAPH_LNOT || op == WGRAPH_BNOT || op == WGRAPH_INV;
}

typedef enum { WGRAPH_BN254 = 1, WGRAPH_BLS12_381 = 2 } wgraph_field;

typedef struct {
    uint32_t op; /* wgraph_op */
    uint32_t a, b;
} wgraph_node;

/* One input signal as the trace received it: the calculation it models
 * set exactly these signals, in this order, with this many values. */
typedef struct {
    uint64_t hash;
    uint32_t count;
} wgraph_signal;

/* How an evaluation runs node i (wgraph_prepare): its operands' and its
 * own value slots (a value's slot is reused once its last user ran, so an
 * evaluation holds only the values still needed; a shift's or a bit's b
 * is its constant's index into consts_plain instead), and the first
 * witness value it is. */
typedef struct {
    uint32_t op, a, b, r;
    uint32_t out; /* first witness value this node is, or none */
} wgraph_step;

#define WGRAPH_NONE UINT32_MAX

/* Words the graph's user records about its circuit (circuit.c: the
 * circuit's header values and its instance's memory), opaque here: kept
 * in the file so that a user of the graph needs no instance of the
 * circuit to learn them. */
#define WGRAPH_CIRCUIT_WORDS 16

typedef struct {
    uint32_t field; /* wgraph_field */
    uint32_t n_nodes, n_consts, n_signals, n_outputs, n_inputs;
    wgraph_node *nodes;
    uint64_t (*consts)[4];  /* Montgomery form, < p */
    wgraph_signal *signals; /* the input signature */
    uint32_t *outputs;      /* witness value i: node outputs[i] */
    /* the plan (wgraph_prepare; what the file holds besides the above) */
    wgraph_step *steps;
    uint32_t n_slots;
    uint32_t *next_out;          /* per witness value: the next one of the same node */
    uint64_t (*consts_plain)[4]; /* the constants' plain values */
    int borrowed;                /* steps and next_out point into wgraph_parse's bytes */
    uint32_t circuit[WGRAPH_CIRCUIT_WORDS];
} wgraph;

#define WGRAPH_FALLBACK 1 /* wgraph_eval's answer when the wasm must decide */

/* The field of a circuit whose prime is prime[0..n32) (32-bit words, least
 * significant first), or 0 when the graph does not model it. */
uint32_t wgraph_field_of_prime(const uint32_t *prime, uint32_t n32);

/* Plans g's evaluation (its steps); wgraph_parse and the builder do it.
 * 0, or G16_ERR_NOMEM. */
int wgraph_prepare(wgraph *g);

/* Evaluates g (prepared) on the input values (n_inputs canonical values of 32 bytes
 * each, little-endian, in signature order, each < p) and writes witness
 * values [0, n_outputs) to out as a .wtns holds them (32 bytes each,
 * canonical, little-endian).  scratch: wgraph_scratch_bytes bytes,
 * 32-byte aligned.  Returns 0, or WGRAPH_FALLBACK with *why set to
 * the node that could not be evaluated as traced (a guard, a division by
 * zero); out is then partly written. */
int wgraph_eval(const wgraph *g, const uint8_t *inputs, uint8_t *out, void *scratch, uint32_t *why);
/* The same stopped at deadline_ns (CLOCK_MONOTONIC nanoseconds; 0: none),
 * read every few thousand steps: WGRAPH_TIMEOUT with *why the step it
 * stopped before. */
#define WGRAPH_TIMEOUT 2
int wgraph_eval_until(const wgraph *g, const uint8_t *inputs, uint8_t *out, void *scratch,
                      uint64_t deadline_ns, uint32_t *why);
size_t wgraph_scratch_bytes(const wgraph *g);
/* Memory for a graph's large arrays (free() frees it): huge pages from
 * 2 MiB on, a 2^20 graph's 100 MB being 25000 page faults otherwise. */
void *wgraph_alloc(size_t bytes);

/* The graph's plan as bytes (wgraph_parse's format: docs/witness-graph.md)
 * and back.  wgraph_parse checks everything an evaluation relies on
 * (indices in range, every slot read written by an earlier step, every
 * witness value written once, constants below p, a known field, sizes
 * that fit len) and returns G16_ERR_FORMAT with a message naming what
 * otherwise; it never reads past len.  The graph it makes has no nodes,
 * and its steps point into bytes (4-aligned), which must outlive it. */
int wgraph_serialize(const wgraph *g, uint8_t **out, size_t *len);
int wgraph_parse(const uint8_t *bytes, size_t len, wgraph *out, char *err, size_t errlen);
/* The memory g holds (its plan, its file's bytes when parsed from one,
 * its nodes when built). */
size_t wgraph_bytes(const wgraph *g);
void wgraph_free(wgraph *g);

#endif
