/* wgraph's builder: a graph from one traced calculation (trace_glue.c).
 *
 * Passes, in one sweep over the trace's nodes (already in evaluation
 * order) and one back:
 * - constants: each circom element decoded to the Montgomery form, equal
 *   ones shared (the wasm itself folded every operation on constants: the
 *   trace only holds operations with an input-dependent operand);
 * - common subexpressions: a node equal to an earlier one (same operation,
 *   same operands, in either order where the operation commutes) is that
 *   one; guards too;
 * - dead values: only what the witness or a guard needs is kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/field.h"
#include "g16.h"
#include "witness/wgraph.h"
#include "witness/witness.h"

#define SAME(x, y) ((int)(x) == (int)(y))
_Static_assert(SAME(G16T_INPUT, WGRAPH_INPUT) && SAME(G16T_CONST, WGRAPH_CONST) &&
                   SAME(G16T_ADD, WGRAPH_ADD) && SAME(G16T_NEG, WGRAPH_NEG) &&
                   SAME(G16T_DIV, WGRAPH_DIV) && SAME(G16T_SHR, WGRAPH_SHR) &&
                   SAME(G16T_BXOR, WGRAPH_BXOR) && SAME(G16T_GUARD_NZ, WGRAPH_GUARD_NZ) &&
                   SAME(G16T_GUARD_EQ, WGRAPH_GUARD_EQ) && SAME(G16T_LT, WGRAPH_LT) &&
                   SAME(G16T_GEQ, WGRAPH_GEQ) && SAME(G16T_LNOT, WGRAPH_LNOT) &&
                   SAME(G16T_IDIV, WGRAPH_IDIV) && SAME(G16T_INV, WGRAPH_INV),
               "trace_abi.h's operations are wgraph.h's");

/* Open addressing from a 64-bit key to a node. */
typedef struct {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, n;
} table;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static int table_init(table *t, size_t expect)
{
    t->cap = 1024;
    while (t->cap < 2 * expect) t->cap *= 2;
    t->n = 0;
    t->keys = calloc(t->cap, sizeof *t->keys);
    t->vals = calloc(t->cap, sizeof *t->vals);
    return t->keys && t->vals ? 0 : G16_ERR_NOMEM;
}

static void table_free(table *t)
{
    free(t->keys);
    free(t->vals);
}

/* The slot of key (keys are never 0). */
static size_t table_slot(const table *t, uint64_t key)
{
    size_t i = mix(key) & (t->cap - 1);
    while (t->keys[i] && t->keys[i] != key) i = (i + 1) & (t->cap - 1);
    return i;
}

typedef struct {
    const g16t_trace *tr;
    uint32_t field;
    wgraph g;      /* nodes appended as they are made */
    uint32_t *map; /* trace node -> graph node */
    table nodes, consts;
    size_t node_cap, const_cap;
    char *why;
    size_t whylen;
} builder;

static int refuse(builder *b, const char *what, uint32_t at)
{
    snprintf(b->why, b->whylen, "%s (trace node %u)", what, at);
    return WGRAPH_FALLBACK;
}

static int push_node(builder *b, uint32_t op, uint32_t x, uint32_t y, uint32_t *out)
{
    if (b->g.n_nodes == b->node_cap) {
        size_t cap = b->node_cap ? 2 * b->node_cap : 4096;
        wgraph_node *n = realloc(b->g.nodes, cap * sizeof *n);
        if (!n) return G16_ERR_NOMEM;
        b->g.nodes = n;
        b->node_cap = cap;
    }
    b->g.nodes[b->g.n_nodes] = (wgraph_node){op, x, y};
    *out = b->g.n_nodes++;
    return 0;
}

/* A circom element (trace_abi.h's words: the short value, the type, the
 * long value) in the Montgomery form; 0 when it is not a field element. */
static int decode(const builder *b, const uint32_t *raw, uint64_t out[4])
{
    uint64_t v[4] = {0};
    int mont = 0;
    if (raw[1] & 0x80000000u) {
        for (int i = 0; i < 4; i++) v[i] = raw[2 + 2 * i] | (uint64_t)raw[3 + 2 * i] << 32;
        mont = (raw[1] & 0x40000000u) != 0;
    } else {
        int32_t s = (int32_t)raw[0];
        v[0] = s < 0 ? (uint64_t) - (int64_t)s : (uint64_t)s;
        if (s < 0) {
            /* p - |s| */
            const uint64_t *p =
                b->field == WGRAPH_BN254 ? bn254_fr_modulus.v : bls12_381_fr_modulus.v;
            unsigned char c = 0;
            uint64_t r[4];
            for (int i = 0; i < 4; i++) c = g16_subb(c, p[i], v[i], &r[i]);
            memcpy(v, r, sizeof v);
        }
    }
    if (b->field == WGRAPH_BN254) {
        bn254_fr x;
        memcpy(x.v, v, 32);
        if (!bn254_fr_is_canonical(&x)) return 0;
        if (!mont) bn254_fr_from_plain(&x, &x);
        memcpy(out, x.v, 32);
    } else {
        bls12_381_fr x;
        memcpy(x.v, v, 32);
        if (!bls12_381_fr_is_canonical(&x)) return 0;
        if (!mont) bls12_381_fr_from_plain(&x, &x);
        memcpy(out, x.v, 32);
    }
    return 1;
}

static uint64_t const_key(const uint64_t v[4])
{
    uint64_t k = mix(v[0] ^ mix(v[1] ^ mix(v[2] ^ mix(v[3]))));
    return k ? k : 1;
}

/* The graph node of the trace's constant c. */
static int add_const(builder *b, uint32_t at, uint32_t c, uint32_t *out)
{
    uint64_t v[4];
    if (c >= b->tr->n_consts || !decode(b, b->tr->consts + (size_t)c * (b->tr->n32 + 2), v))
        return refuse(b, "a constant that is no field element", at);
    /* equal keys are checked by value: a collision gets a node of its own */
    uint64_t key = const_key(v);
    size_t slot = table_slot(&b->consts, key);
    if (b->consts.keys[slot]) {
        uint32_t n = b->consts.vals[slot];
        if (!memcmp(b->g.consts[b->g.nodes[n].a], v, 32)) {
            *out = n;
            return 0;
        }
    }
    if (b->g.n_consts == b->const_cap) {
        size_t cap = b->const_cap ? 2 * b->const_cap : 1024;
        uint64_t(*cs)[4] = realloc(b->g.consts, cap * sizeof *cs);
        if (!cs) return G16_ERR_NOMEM;
        b->g.consts = cs;
        b->const_cap = cap;
    }
    memcpy(b->g.consts[b->g.n_consts], v, 32);
    int rc = push_node(b, WGRAPH_CONST, b->g.n_consts++, 0, out);
    if (!rc && !b->consts.keys[slot] && 2 * (b->consts.n + 1) < b->consts.cap) {
        b->consts.keys[slot] = key;
        b->consts.vals[slot] = *out;
        b->consts.n++;
    }
    return rc;
}

static int commutes(uint32_t op)
{
    return op == WGRAPH_ADD || op == WGRAPH_MUL || op == WGRAPH_EQ || op == WGRAPH_NEQ ||
           op == WGRAPH_BAND || op == WGRAPH_BOR || op == WGRAPH_BXOR || op == WGRAPH_LAND ||
           op == WGRAPH_LOR;
}

/* What the trace records: its own operations, none the builder makes. */
static int traced_op(uint32_t op)
{
    return op >= WGRAPH_ADD && op < WGRAPH_OP_END && op != WGRAPH_BIT && op != WGRAPH_SEL &&
           op != WGRAPH_SHRV && op != WGRAPH_SHLV;
}

static int const_is(const builder *b, uint32_t n, int one)
{
    if (b->g.nodes[n].op != WGRAPH_CONST) return 0;
    const uint64_t *v = b->g.consts[b->g.nodes[n].a];
    const uint64_t *m = b->field == WGRAPH_BN254 ? bn254_fr_mont_one.v : bls12_381_fr_mont_one.v;
    uint64_t zero[4] = {0};
    return !memcmp(v, one ? m : zero, 32);
}

/* Constant node n's plain value when it is below the prime's bit length
 * (a shift that keeps bits), else UINT32_MAX. */
static uint32_t const_bit_index(const builder *b, uint32_t n)
{
    uint64_t v[4];
    memcpy(v, b->g.consts[b->g.nodes[n].a], 32);
    if (b->field == WGRAPH_BN254) {
        bn254_fr x;
        memcpy(x.v, v, 32);
        bn254_fr_to_plain(&x, &x);
        memcpy(v, x.v, 32);
    } else {
        bls12_381_fr x;
        memcpy(x.v, v, 32);
        bls12_381_fr_to_plain(&x, &x);
        memcpy(v, x.v, 32);
    }
    uint32_t bits = b->field == WGRAPH_BN254 ? 254 : 255;
    return v[1] || v[2] || v[3] || v[0] >= bits ? UINT32_MAX : (uint32_t)v[0];
}

/* Whether node n is 0 or 1 for every input. */
static int is_bool(const builder *b, uint32_t n)
{
    const wgraph_node *x = &b->g.nodes[n];
    switch (x->op) {
    case WGRAPH_EQ:
    case WGRAPH_NEQ:
    case WGRAPH_BIT:
    case WGRAPH_LT:
    case WGRAPH_GT:
    case WGRAPH_LEQ:
    case WGRAPH_GEQ:
    case WGRAPH_LAND:
    case WGRAPH_LOR:
    case WGRAPH_LNOT: return 1;
    case WGRAPH_BAND: return is_bool(b, x->a) || is_bool(b, x->b);
    case WGRAPH_SEL: return is_bool(b, x->b);
    case WGRAPH_CONST: return const_is(b, n, 0) || const_is(b, n, 1);
    default: return 0;
    }
}

/* Whether p = q for every input: circom's check that a bit is a bit,
 * t * (t - 1) === 0 (or t * (1 - t)), t 0 or 1. */
static int always_equal(const builder *b, uint32_t p, uint32_t q)
{
    if (p == q) return 1;
    if (!const_is(b, q, 0) || (b->g.nodes[p].op != WGRAPH_MUL && b->g.nodes[p].op != WGRAPH_SEL))
        return 0;
    const wgraph_node *m = &b->g.nodes[p];
    for (int side = 0; side < 2; side++) {
        uint32_t t = side ? m->b : m->a, u = side ? m->a : m->b;
        const wgraph_node *d = &b->g.nodes[u];
        if (d->op == WGRAPH_SUB && is_bool(b, t) &&
            ((d->a == t && const_is(b, d->b, 1)) || (d->b == t && const_is(b, d->a, 1))))
            return 1;
    }
    return 0;
}

/* The simpler form of an operation: a bit of a shifted value is one BIT,
 * a guard on an EQ a guard of equality, a guard that always holds none
 * (0: *op set to 0); x > y is y < x, x >= y is y <= x. */
static void simplify(const builder *b, uint32_t *op, uint32_t *x, uint32_t *y)
{
    if (*op == WGRAPH_GT || *op == WGRAPH_GEQ) {
        uint32_t t = *x;
        *x = *y;
        *y = t;
        *op = *op == WGRAPH_GT ? WGRAPH_LT : WGRAPH_LEQ;
    }
    if (*op == WGRAPH_BAND && const_is(b, *x, 1)) {
        uint32_t t = *x;
        *x = *y;
        *y = t;
    }
    if (*op == WGRAPH_BAND && const_is(b, *y, 1) && b->g.nodes[*x].op == WGRAPH_SHR &&
        const_bit_index(b, b->g.nodes[*x].b) != UINT32_MAX) {
        const wgraph_node *s = &b->g.nodes[*x];
        *op = WGRAPH_BIT;
        *y = s->b;
        *x = s->a;
    }
    /* a product by a value that is 0 or 1 (a circuit's bits times their
     * weights, ANDs of bits): a choice, no product */
    if (*op == WGRAPH_MUL && (is_bool(b, *x) || is_bool(b, *y))) {
        if (!is_bool(b, *x)) {
            uint32_t t = *x;
            *x = *y;
            *y = t;
        }
        *op = WGRAPH_SEL;
    }
    if (*op == WGRAPH_GUARD_NZ && *y == 1 && b->g.nodes[*x].op == WGRAPH_EQ) {
        const wgraph_node *e = &b->g.nodes[*x];
        *op = WGRAPH_GUARD_EQ;
        *x = e->a;
        *y = e->b;
    }
    if (*op == WGRAPH_GUARD_EQ && (always_equal(b, *x, *y) || always_equal(b, *y, *x))) *op = 0;
}

/* The graph node of an operation on graph nodes x and y (CSE). */
static int add_op(builder *b, uint32_t op, uint32_t x, uint32_t y, uint32_t *out)
{
    simplify(b, &op, &x, &y);
    if (!op) { /* a guard that always holds: no node (no one uses a guard's value) */
        *out = x;
        return 0;
    }
    if (commutes(op) && x > y) {
        uint32_t t = x;
        x = y;
        y = t;
    }
    uint64_t key = (uint64_t)op << 58 ^ (uint64_t)x << 29 ^ y;
    key = key ? key : 1;
    size_t slot = table_slot(&b->nodes, key);
    if (b->nodes.keys[slot]) {
        const wgraph_node *n = &b->g.nodes[b->nodes.vals[slot]];
        if (n->op == op && n->a == x && n->b == y) {
            *out = b->nodes.vals[slot];
            return 0;
        }
    }
    int rc = push_node(b, op, x, y, out);
    if (!rc && !b->nodes.keys[slot] && 2 * (b->nodes.n + 1) < b->nodes.cap) {
        b->nodes.keys[slot] = key;
        b->nodes.vals[slot] = *out;
        b->nodes.n++;
    }
    return rc;
}

/* Trace node i into the graph. */
static int add_traced(builder *b, uint32_t i, uint32_t n_inputs)
{
    const g16t_node *n = &b->tr->nodes[i];
    uint32_t *out = &b->map[i];
    if (n->op == WGRAPH_CONST) return add_const(b, i, n->a, out);
    if (n->op == WGRAPH_INPUT) {
        if (n->a >= n_inputs) return refuse(b, "an input beyond those given", i);
        return push_node(b, WGRAPH_INPUT, n->a, 0, out);
    }
    if (!traced_op(n->op)) return refuse(b, "an unknown operation", i);
    int unary = wgraph_unary(n->op), nz = n->op == WGRAPH_GUARD_NZ;
    if (n->a == 0 || n->a >= i || (!unary && !nz && (n->b == 0 || n->b >= i)))
        return refuse(b, "an operand that is not an earlier node", i);
    uint32_t x = b->map[n->a], y = unary ? 0 : nz ? (n->b != 0) : b->map[n->b], op = n->op;
    /* a shift by an input-dependent amount */
    if ((op == WGRAPH_SHR || op == WGRAPH_SHL) && b->g.nodes[y].op != WGRAPH_CONST)
        op = op == WGRAPH_SHR ? WGRAPH_SHRV : WGRAPH_SHLV;
    return add_op(b, op, x, y, out);
}

/* Keeps the nodes the outputs and guards need, renumbered in order. */
static int drop_dead(builder *b)
{
    wgraph *g = &b->g;
    uint8_t *live = calloc(g->n_nodes ? g->n_nodes : 1, 1);
    uint32_t *to = malloc(sizeof *to * (g->n_nodes ? g->n_nodes : 1));
    if (!live || !to) {
        free(live);
        free(to);
        return G16_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < g->n_outputs; i++) live[g->outputs[i]] = 1;
    for (uint32_t i = g->n_nodes; i-- > 0;) {
        const wgraph_node *n = &g->nodes[i];
        if (n->op == WGRAPH_GUARD_NZ || n->op == WGRAPH_GUARD_EQ) live[i] = 1;
        if (!live[i] || n->op == WGRAPH_INPUT || n->op == WGRAPH_CONST) continue;
        live[n->a] = 1;
        if (!wgraph_unary(n->op) && n->op != WGRAPH_GUARD_NZ) live[n->b] = 1;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        if (!live[i]) continue;
        wgraph_node n = g->nodes[i];
        if (n.op != WGRAPH_INPUT && n.op != WGRAPH_CONST) {
            n.a = to[n.a];
            if (!wgraph_unary(n.op) && n.op != WGRAPH_GUARD_NZ) n.b = to[n.b];
        }
        to[i] = k;
        g->nodes[k++] = n;
    }
    g->n_nodes = k;
    for (uint32_t i = 0; i < g->n_outputs; i++) g->outputs[i] = to[g->outputs[i]];
    free(live);
    free(to);
    return 0;
}

static int build_nodes(builder *b, uint32_t n_inputs)
{
    const g16t_trace *tr = b->tr;
    int rc = table_init(&b->nodes, tr->n_nodes);
    if (!rc) rc = table_init(&b->consts, tr->n_consts);
    for (uint32_t i = 1; !rc && i < tr->n_nodes; i++) rc = add_traced(b, i, n_inputs);
    b->g.outputs = malloc(4 * ((size_t)tr->n_outputs + 1));
    if (!rc && !b->g.outputs) rc = G16_ERR_NOMEM;
    b->g.n_outputs = tr->n_outputs;
    for (uint32_t i = 0; !rc && i < tr->n_outputs; i++) {
        uint32_t o = tr->outputs[i];
        if (o == 0 || o >= tr->n_nodes) rc = refuse(b, "a witness value with no node", i);
        if (!rc) b->g.outputs[i] = b->map[o];
    }
    if (!rc && b->g.n_nodes == 0) rc = refuse(b, "an empty graph", 0);
    if (!rc) rc = drop_dead(b);
    if (!rc) rc = wgraph_prepare(&b->g);
    table_free(&b->nodes);
    table_free(&b->consts);
    return rc;
}

int wgraph_from_trace(const g16t_trace *tr, const witness_inputs *in, const uint32_t *prime,
                      wgraph *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    builder b = {.tr = tr, .why = why, .whylen = whylen};
    if (tr->reason[0]) {
        snprintf(why, whylen, "%s", tr->reason);
        return WGRAPH_FALLBACK;
    }
    b.field = b.g.field = wgraph_field_of_prime(prime, tr->n32);
    if (!b.field) return refuse(&b, "a field other than BN254's or BLS12-381's scalar field", 0);
    uint32_t n_inputs = 0;
    b.g.signals = malloc(sizeof *b.g.signals * (in->count + 1));
    b.map = calloc(tr->n_nodes ? tr->n_nodes : 1, sizeof *b.map);
    int rc = b.g.signals && b.map ? 0 : G16_ERR_NOMEM;
    for (size_t i = 0; !rc && i < in->count; i++) {
        b.g.signals[i] = (wgraph_signal){in->signals[i].hash, (uint32_t)in->signals[i].count};
        n_inputs += (uint32_t)in->signals[i].count;
    }
    b.g.n_signals = (uint32_t)in->count;
    b.g.n_inputs = n_inputs;
    if (!rc) rc = build_nodes(&b, n_inputs);
    free(b.map);
    if (rc) {
        wgraph_free(&b.g);
        return rc;
    }
    *out = b.g;
    return 0;
}
