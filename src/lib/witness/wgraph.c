/* wgraph: the graph's evaluator and its file format (wgraph.h). */
#define G16_HOT_PATH 1
#include "witness/wgraph.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "field/field.h"
#include "g16.h"

/* The bit operations on canonical values: four 64-bit limbs. */
static void limbs_shr(uint64_t r[4], const uint64_t a[4], unsigned k)
{
    unsigned w = k / 64, s = k % 64;
    for (unsigned i = 0; i < 4; i++) {
        uint64_t lo = i + w < 4 ? a[i + w] : 0, hi = i + w + 1 < 4 ? a[i + w + 1] : 0;
        r[i] = s ? (lo >> s) | (hi << (64 - s)) : lo;
    }
}

static void limbs_shl(uint64_t r[4], const uint64_t a[4], unsigned k)
{
    unsigned w = k / 64, s = k % 64;
    for (int i = 3; i >= 0; i--) {
        uint64_t hi = i >= (int)w ? a[i - w] : 0, lo = i >= (int)w + 1 ? a[i - w - 1] : 0;
        r[i] = s ? (hi << s) | (lo >> (64 - s)) : hi;
    }
}

/* circom's adjustment of a bit operation's result: keep the prime's bit
 * length, then subtract p once if it is not below it. */
static void limbs_adjust(uint64_t r[4], const uint64_t p[4], unsigned bits)
{
    for (unsigned i = 0; i < 4; i++) {
        unsigned lo = 64 * i;
        if (bits <= lo)
            r[i] = 0;
        else if (bits < lo + 64)
            r[i] &= ((uint64_t)1 << (bits - lo)) - 1;
    }
    int ge = 1;
    for (int i = 3; i >= 0; i--)
        if (r[i] != p[i]) {
            ge = r[i] > p[i];
            break;
        }
    if (!ge) return;
    unsigned char c = 0;
    for (int i = 0; i < 4; i++) c = g16_subb(c, r[i], p[i], &r[i]);
}

static int limbs_cmp(const uint64_t a[4], const uint64_t b[4])
{
    for (int i = 3; i >= 0; i--)
        if (a[i] != b[i]) return a[i] > b[i] ? 1 : -1;
    return 0;
}

static void limbs_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    unsigned char c = 0;
    for (int i = 0; i < 4; i++) c = g16_subb(c, a[i], b[i], &r[i]);
}

/* circom's integer division of canonical values: x becomes x / y (or
 * x mod y when rem); 1 (x unchanged) when y is 0. */
static int limbs_divmod(uint64_t x[4], const uint64_t y[4], int rem)
{
    _Static_assert(sizeof(mp_limb_t) == 8, "64-bit GMP limbs");
    mp_size_t dn = 4;
    while (dn > 0 && !y[dn - 1]) dn--;
    if (!dn) return 1;
    mp_limb_t n[4], d[4], q[5] = {0}, r[4] = {0};
    for (int i = 0; i < 4; i++) {
        n[i] = x[i];
        d[i] = y[i];
    }
    mpn_tdiv_qr(q, r, 0, n, 4, d, dn);
    for (int i = 0; i < 4; i++) x[i] = rem ? r[i] : q[i];
    return 0;
}

/* A small canonical value's size, or UINT32_MAX when it is 2^32 or more. */
static uint32_t limbs_small(const uint64_t a[4])
{
    return a[1] || a[2] || a[3] || a[0] > 0xffffffffu ? UINT32_MAX : (uint32_t)a[0];
}

/* The time limit is read every WGRAPH_CLOCK_STEPS steps: a clock read
 * per 2^16 steps (a millisecond or two of them) costs nothing, and a
 * graph past its deadline stops within that. */
#define WGRAPH_CLOCK_STEPS 65536u

static int wgraph_past(uint64_t deadline_ns)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec >= deadline_ns;
}

#define WGRAPH_FIELD bn254_fr
#define WGRAPH_BITS  254u
#include "witness/wgraph_eval.h"

#define WGRAPH_FIELD bls12_381_fr
#define WGRAPH_BITS  255u
#include "witness/wgraph_eval.h"

uint32_t wgraph_field_of_prime(const uint32_t *prime, uint32_t n32)
{
    if (n32 != 8) return 0;
    uint64_t p[4];
    for (int i = 0; i < 4; i++) p[i] = prime[2 * i] | (uint64_t)prime[2 * i + 1] << 32;
    if (!memcmp(p, bn254_fr_modulus.v, sizeof p)) return WGRAPH_BN254;
    if (!memcmp(p, bls12_381_fr_modulus.v, sizeof p)) return WGRAPH_BLS12_381;
    return 0;
}

void *wgraph_alloc(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    if (bytes < huge) return malloc(bytes ? bytes : 1);
    void *p;
    if (posix_memalign(&p, huge, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes & ~(huge - 1), MADV_HUGEPAGE);
#endif
    return p;
}

size_t wgraph_scratch_bytes(const wgraph *g) { return (size_t)32 * (g->n_slots + 1); }

static int has_b(uint32_t op)
{
    return op != WGRAPH_INPUT && op != WGRAPH_CONST && !wgraph_unary(op) && op != WGRAPH_GUARD_NZ;
}

/* The constants' plain values (bit operations read them so). */
static void plain_consts(wgraph *g)
{
    for (uint32_t i = 0; i < g->n_consts; i++)
        if (g->field == WGRAPH_BN254) {
            bn254_fr x;
            memcpy(x.v, g->consts[i], 32);
            bn254_fr_to_plain(&x, &x);
            memcpy(g->consts_plain[i], x.v, 32);
        } else {
            bls12_381_fr x;
            memcpy(x.v, g->consts[i], 32);
            bls12_381_fr_to_plain(&x, &x);
            memcpy(g->consts_plain[i], x.v, 32);
        }
}

static int fixed_b(uint32_t op) { return op == WGRAPH_SHR || op == WGRAPH_SHL || op == WGRAPH_BIT; }

/* Slots: a node's slot is taken from the free ones as it runs, and its
 * operands' slots are freed when it is their last user (after it took its
 * own: a result never overwrites an operand it is still reading).  Each
 * step's out holds its node's last user meanwhile (wgraph_prepare), so
 * that no array of the graph's size is needed beside the steps. */
static int plan_slots(wgraph *g)
{
    uint32_t n_free = 0, cap = 1024, *free_slots = malloc(4 * cap);
    int ok = free_slots != NULL;
    g->n_slots = 0;
    for (uint32_t i = 0; ok && i < g->n_nodes; i++) {
        const wgraph_node *n = &g->nodes[i];
        wgraph_step *s = &g->steps[i];
        uint32_t r = n_free ? free_slots[--n_free] : g->n_slots++;
        int leaf = n->op == WGRAPH_INPUT || n->op == WGRAPH_CONST;
        s->op = n->op;
        s->r = r;
        s->a = leaf ? n->a : g->steps[n->a].r;
        /* a shift's or a bit's amount: its constant's index (plain values) */
        s->b = fixed_b(n->op) ? g->nodes[n->b].a : has_b(n->op) ? g->steps[n->b].r : n->b;
        if (n_free + 3 > cap) {
            uint32_t *more = realloc(free_slots, 8 * (size_t)cap);
            if (!more) {
                ok = 0;
                break;
            }
            free_slots = more;
            cap *= 2;
        }
        if (!leaf && g->steps[n->a].out == i) free_slots[n_free++] = s->a;
        if (has_b(n->op) && n->b != n->a && g->steps[n->b].out == i)
            free_slots[n_free++] = g->steps[n->b].r;
        if (s->out == WGRAPH_NONE) free_slots[n_free++] = r; /* an output or a guard */
    }
    free(free_slots);
    return ok ? 0 : G16_ERR_NOMEM;
}

int wgraph_prepare(wgraph *g)
{
    free(g->steps);
    free(g->next_out);
    free(g->consts_plain);
    g->steps = wgraph_alloc(sizeof *g->steps * (g->n_nodes + 1));
    g->next_out = malloc(4 * ((size_t)g->n_outputs + 1));
    g->consts_plain = malloc(32 * ((size_t)g->n_consts + 1));
    int rc = g->steps && g->next_out && g->consts_plain ? 0 : G16_ERR_NOMEM;
    if (rc) return rc;
    for (uint32_t i = 0; i < g->n_nodes; i++) g->steps[i].out = WGRAPH_NONE; /* last users */
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const wgraph_node *n = &g->nodes[i];
        if (n->op == WGRAPH_INPUT || n->op == WGRAPH_CONST) continue;
        g->steps[n->a].out = i;
        if (has_b(n->op)) g->steps[n->b].out = i;
    }
    rc = plan_slots(g);
    for (uint32_t i = 0; i < g->n_nodes; i++) g->steps[i].out = WGRAPH_NONE;
    for (uint32_t o = g->n_outputs; o-- > 0;) {
        wgraph_step *s = &g->steps[g->outputs[o]];
        g->next_out[o] = s->out;
        s->out = o;
    }
    plain_consts(g);
    return rc;
}

int wgraph_eval(const wgraph *g, const uint8_t *inputs, uint8_t *out, void *scratch, uint32_t *why)
{
    return wgraph_eval_until(g, inputs, out, scratch, 0, why);
}

int wgraph_eval_until(const wgraph *g, const uint8_t *inputs, uint8_t *out, void *scratch,
                      uint64_t deadline_ns, uint32_t *why)
{
    if (g->field == WGRAPH_BN254)
        return wgraph_eval_bn254_fr(g, inputs, out, scratch, deadline_ns, why);
    return wgraph_eval_bls12_381_fr(g, inputs, out, scratch, deadline_ns, why);
}

/* ------------------------------------------------------------------ */
/* The file format: the evaluation's plan itself, so that a graph is used
 * straight from a mapping of its file (no copy, no planning at load).
 * "g16wgr05" (04 had the same layout under a UMAC-64 sum, entry.c; 03
 * lacked the comparisons, logical and integer operations, and shifts by a
 * node: wgraph.h), eight u32 (field, steps, consts, signals, outputs, inputs,
 * slots, 0), the circuit's words (WGRAPH_CIRCUIT_WORDS u32), then the signals (u64 hash, u32 count), the constants (32
 * bytes each, Montgomery form), the steps (five u32 each: op, a, b, r,
 * out) and the outputs' chains (next_out, u32 each); little-endian, no
 * padding (the steps start at a multiple of 4). */

static const char wgraph_magic[8] = {'g', '1', '6', 'w', 'g', 'r', '0', '5'};
#define HEADER_BYTES (8 + 8 * 4 + 4 * WGRAPH_CIRCUIT_WORDS)

static size_t body_bytes(const wgraph *g)
{
    return (size_t)12 * g->n_signals + (size_t)32 * g->n_consts + sizeof(wgraph_step) * g->n_nodes +
           (size_t)4 * g->n_outputs;
}

static void put(uint8_t **p, const void *v, size_t n)
{
    memcpy(*p, v, n);
    *p += n;
}

int wgraph_serialize(const wgraph *g, uint8_t **out, size_t *len)
{
    *len = HEADER_BYTES + body_bytes(g);
    uint8_t *buf = malloc(*len), *p = buf;
    if (!buf) return G16_ERR_NOMEM;
    uint32_t head[8] = {g->field,     g->n_nodes,  g->n_consts, g->n_signals,
                        g->n_outputs, g->n_inputs, g->n_slots,  0};
    put(&p, wgraph_magic, 8);
    put(&p, head, sizeof head);
    put(&p, g->circuit, sizeof g->circuit);
    for (uint32_t i = 0; i < g->n_signals; i++) {
        put(&p, &g->signals[i].hash, 8);
        put(&p, &g->signals[i].count, 4);
    }
    put(&p, g->consts, (size_t)32 * g->n_consts);
    put(&p, g->steps, sizeof(wgraph_step) * g->n_nodes);
    put(&p, g->next_out, (size_t)4 * g->n_outputs);
    *out = buf;
    return 0;
}

size_t wgraph_bytes(const wgraph *g)
{
    size_t nodes = g->nodes ? sizeof(wgraph_node) * g->n_nodes : 0;
    size_t more = (size_t)32 * g->n_consts + (size_t)4 * g->n_outputs; /* plain, outputs */
    return HEADER_BYTES + body_bytes(g) + nodes + more;
}

void wgraph_free(wgraph *g)
{
    if (!g->borrowed) {
        free(g->steps);
        free(g->next_out);
    }
    free(g->consts_plain);
    free(g->nodes);
    free(g->consts);
    free(g->signals);
    free(g->outputs);
    memset(g, 0, sizeof *g);
}

static int bad(char *err, size_t errlen, const char *what, uint32_t i)
{
    snprintf(err, errlen, "%s (at %u)", what, i);
    return G16_ERR_FORMAT;
}

/* Step i's operands and result name what its op needs; every slot it
 * reads was written by an earlier step (written: one byte a slot). */
static int step_ok(const wgraph *g, uint32_t i, uint8_t *written, char *err, size_t errlen)
{
    const wgraph_step *s = &g->steps[i];
    uint32_t slots = g->n_slots;
    if (s->op == 0 || s->op >= WGRAPH_OP_END) return bad(err, errlen, "an unknown operation", i);
    if (s->r >= slots) return bad(err, errlen, "a result beyond the slots", i);
    if (s->out != WGRAPH_NONE && s->out >= g->n_outputs)
        return bad(err, errlen, "an output beyond the witness", i);
    int ok;
    switch (s->op) {
    case WGRAPH_INPUT: ok = s->a < g->n_inputs; break;
    case WGRAPH_CONST: ok = s->a < g->n_consts; break;
    case WGRAPH_NEG:
    case WGRAPH_LNOT:
    case WGRAPH_BNOT:
    case WGRAPH_INV: ok = s->a < slots && written[s->a]; break;
    case WGRAPH_GUARD_NZ: ok = s->a < slots && written[s->a] && s->b <= 1; break;
    case WGRAPH_SHR:
    case WGRAPH_SHL:
    case WGRAPH_BIT: ok = s->a < slots && written[s->a] && s->b < g->n_consts; break;
    default: ok = s->a < slots && s->b < slots && written[s->a] && written[s->b]; break;
    }
    if (!ok) return bad(err, errlen, "an operand that is no value written before it", i);
    written[s->r] = 1;
    return 0;
}

/* Step i's chain of outputs reaches witness values not reached before
 * (seen: one byte an output; reached: how many so far). */
static int outputs_ok(const wgraph *g, uint32_t i, uint8_t *seen, uint64_t *reached, char *err,
                      size_t errlen)
{
    for (uint32_t o = g->steps[i].out; o != WGRAPH_NONE; o = g->next_out[o]) {
        if (o >= g->n_outputs || seen[o]) return bad(err, errlen, "a witness value twice", i);
        seen[o] = 1;
        ++*reached;
    }
    return 0;
}

static int parse_checks(const wgraph *g, char *err, size_t errlen)
{
    const uint64_t *p = g->field == WGRAPH_BN254 ? bn254_fr_modulus.v : bls12_381_fr_modulus.v;
    uint64_t total = 0;
    for (uint32_t i = 0; i < g->n_signals; i++) total += g->signals[i].count;
    if (total != g->n_inputs)
        return bad(err, errlen, "signals that do not add up to the inputs", 0);
    for (uint32_t i = 0; i < g->n_consts; i++) {
        int below = 0;
        for (int j = 3; j >= 0; j--)
            if (g->consts[i][j] != p[j]) {
                below = g->consts[i][j] < p[j];
                break;
            }
        if (!below) return bad(err, errlen, "a constant not below the prime", i);
    }
    uint8_t *marks = calloc((size_t)g->n_slots + g->n_outputs + 1, 1);
    if (!marks) return bad(err, errlen, "out of memory for the checks", 0);
    /* one walk of the steps (60 MB at 2^20): every witness value is
     * written exactly once, by the steps' chains of outputs */
    int rc = 0;
    uint64_t reached = 0;
    for (uint32_t i = 0; !rc && i < g->n_nodes; i++) {
        rc = step_ok(g, i, marks, err, errlen);
        if (!rc) rc = outputs_ok(g, i, marks + g->n_slots, &reached, err, errlen);
    }
    if (!rc && reached != g->n_outputs) rc = bad(err, errlen, "a witness value never written", 0);
    free(marks);
    return rc;
}

static void take(const uint8_t **p, void *v, size_t n)
{
    memcpy(v, *p, n);
    *p += n;
}

int wgraph_parse(const uint8_t *bytes, size_t len, wgraph *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    uint32_t head[8];
    if (len < HEADER_BYTES || memcmp(bytes, wgraph_magic, 8)) {
        snprintf(err, errlen, "not a witness graph (no header)");
        return G16_ERR_FORMAT;
    }
    const uint8_t *p = bytes + 8;
    take(&p, head, sizeof head);
    wgraph g = {.field = head[0],
                .n_nodes = head[1],
                .n_consts = head[2],
                .n_signals = head[3],
                .n_outputs = head[4],
                .n_inputs = head[5],
                .n_slots = head[6],
                .borrowed = 1};
    take(&p, g.circuit, sizeof g.circuit);
    if ((g.field != WGRAPH_BN254 && g.field != WGRAPH_BLS12_381) || head[7] || !g.n_nodes ||
        !g.n_slots || g.n_slots > g.n_nodes || HEADER_BYTES + body_bytes(&g) != len ||
        (uintptr_t)bytes % 4) {
        snprintf(err, errlen, "a witness graph with a bad header or size");
        return G16_ERR_FORMAT;
    }
    g.signals = malloc(sizeof *g.signals * (g.n_signals + 1));
    g.consts = malloc(32 * ((size_t)g.n_consts + 1));
    g.consts_plain = malloc(32 * ((size_t)g.n_consts + 1));
    if (!g.signals || !g.consts || !g.consts_plain) {
        wgraph_free(&g);
        snprintf(err, errlen, "out of memory for a witness graph");
        return G16_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < g.n_signals; i++) {
        take(&p, &g.signals[i].hash, 8);
        take(&p, &g.signals[i].count, 4);
    }
    take(&p, g.consts, (size_t)32 * g.n_consts);
    /* the plan in place: 4-aligned (bytes is, and so is every size before) */
    g.steps = (wgraph_step *)(uintptr_t)p;
    g.next_out = (uint32_t *)(uintptr_t)(p + sizeof(wgraph_step) * g.n_nodes);
    int rc = parse_checks(&g, err, errlen);
    if (rc) {
        wgraph_free(&g);
        return rc;
    }
    plain_consts(&g);
    *out = g;
    return 0;
}
