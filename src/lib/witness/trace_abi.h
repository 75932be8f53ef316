/* The interface between libg16 and a circuit's tracing object: the same
 * wasm2c translation as the calculator's, compiled with trace_glue.c
 * (which includes glue.c) so that one calculation records the field
 * operations it does on input-dependent values (docs/witness-graph.md).
 * Both sides include this header; its text is part of the tracing
 * object's cache key, as glue_abi.h is of the calculator's. */
#ifndef G16_WITNESS_TRACE_ABI_H
#define G16_WITNESS_TRACE_ABI_H

#include <stdint.h>

#define G16T_ABI_VERSION 1u
#define G16T_API_SYMBOL  "g16t_api_v1"

/* Node operations: wgraph.h's wgraph_op values (wgraph_build.c checks
 * that they agree). */
enum {
    G16T_INPUT = 1,
    G16T_CONST,
    G16T_ADD,
    G16T_SUB,
    G16T_MUL,
    G16T_NEG,
    G16T_DIV,
    G16T_EQ,
    G16T_NEQ,
    G16T_SHR,
    G16T_SHL,
    G16T_BAND,
    G16T_BOR,
    G16T_BXOR,
    G16T_GUARD_NZ,
    G16T_GUARD_EQ,
    /* 17 and 18 are the builder's own */
    G16T_LT = 19,
    G16T_GT,
    G16T_LEQ,
    G16T_GEQ,
    G16T_LAND,
    G16T_LOR,
    G16T_LNOT,
    G16T_BNOT,
    G16T_IDIV,
    G16T_MOD,
    G16T_POW,
    G16T_INV
};

/* In the trace:  A CONST node's a is an
 * index into consts (a circom element as memory held it: n32 + 2 words);
 * an INPUT node's a the input value's ordinal.  Node 0 is unused. */
typedef struct {
    uint32_t op, a, b;
} g16t_node;

/* One input signal to set: its hash, its values (n32 words each). */
typedef struct {
    uint64_t hash;
    uint32_t count;
    const uint32_t *values;
} g16t_signal;

typedef struct {
    g16t_node *nodes;
    uint32_t n_nodes; /* including node 0 */
    uint32_t *consts; /* n_consts elements of n32 + 2 words */
    uint32_t n_consts;
    uint32_t *outputs; /* witness value i: node outputs[i] */
    uint32_t n_outputs;
    uint32_t n32;
    char reason[256]; /* empty: the trace models the calculation; else why not */
} g16t_trace;

typedef struct {
    uint32_t abi; /* G16T_ABI_VERSION */
    /* One traced calculation on a fresh instance (memory capped at
     * max_pages, stopping at deadline_ns as glue_abi.h's create): init, the
     * signals set in order, then every witness value read.  Returns 0 with
     * *out filled (out->reason says when no graph may be made of it), or
     * glue_abi.h's code of why the calculation stopped. */
    int (*trace)(const g16t_signal *signals, uint32_t n_signals, uint32_t max_pages,
                 uint64_t deadline_ns, g16t_trace *out);
    void (*release)(g16t_trace *);
} g16t_api;

#endif
