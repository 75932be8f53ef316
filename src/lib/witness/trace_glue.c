/* The tracing object's glue (trace_abi.h; docs/witness-graph.md): glue.c
 * plus a shadow of the linear memory that says, for every 32-bit word,
 * whether it holds part of a value that depends on the inputs, and which.
 * Compiled at run time like glue.c, from a translation that
 * wasm_trace.c rewrote so that
 * - every load and store of the circuit's code calls g16t_load/g16t_store
 *   (DEFINE_LOAD and DEFINE_STORE), and
 * - every call of a modelled field function (G16T_MODELLED) goes to its
 *   g16t_ wrapper here.
 *
 * The rules that make a trace sound (a graph made of it computes what the
 * wasm computes, for every input that passes its guards):
 * - A modelled function called by circuit code on input-dependent
 *   operands runs as it is (its memory accesses unwatched) and becomes a
 *   node; its result's words are marked with the node, every other word
 *   it stored as opaque (dependent, but no value the graph knows).
 * - Circuit code, and any field function that is not modelled (it runs
 *   watched like circuit code), must not load a marked word: the trace is
 *   refused (nothing outside the modelled functions may see a dependent
 *   value, so every branch it takes, every address it computes and every
 *   constant it stores is the same for every input).  Its stores unmark.
 * - Branches on dependent values happen only through Fr_isTrue and
 *   Fr_toInt (and setInputSignal's Fr_eqR, below): each records a guard,
 *   the result this calculation saw, which every later input must give.
 * - Field functions that are modelled with constant operands only run as
 *   circuit code's constants: their result is unmarked.
 * - Any log() output refuses the trace: a graph would not repeat it. */
#include "glue.c"

/* ------------------------------------------------------------------ */
/* The trace's nodes and constants.                                     */

static uint32_t g16t_emit(g16t_state *t, uint32_t op, uint32_t a, uint32_t b)
{
    g16t_trace *o = t->out;
    if (t->failed) return 0;
    if (o->n_nodes == t->node_cap) {
        size_t cap = t->node_cap ? 2 * t->node_cap : 4096;
        g16t_node *n = cap < (1u << 30) ? realloc(o->nodes, cap * sizeof *n) : NULL;
        if (!n) {
            g16t_fail(t, "out of memory for the trace's nodes (%llu)", o->n_nodes);
            return 0;
        }
        o->nodes = n;
        t->node_cap = cap;
    }
    o->nodes[o->n_nodes] = (g16t_node){op, a, b};
    return o->n_nodes++;
}

/* A CONST node for the element whose words raw holds. */
static uint32_t g16t_const(g16t_state *t, const uint32_t *raw)
{
    g16t_trace *o = t->out;
    if (t->failed) return 0;
    if (o->n_consts == t->const_cap) {
        size_t cap = t->const_cap ? 2 * t->const_cap : 1024;
        uint32_t *c = realloc(o->consts, cap * 4 * (t->ewords));
        if (!c) {
            g16t_fail(t, "out of memory for the trace's constants (%llu)", o->n_consts);
            return 0;
        }
        o->consts = c;
        t->const_cap = cap;
    }
    memcpy(o->consts + (size_t)o->n_consts * t->ewords, raw, 4 * t->ewords);
    return g16t_emit(t, G16T_CONST, o->n_consts++, 0);
}

/* The node the element at addr holds (0: not input-dependent); refuses
 * the trace when it is dependent but no whole value of the graph's. */
static uint32_t g16t_id(g16t_state *t, uint32_t addr)
{
    if (!g16t_cover(t)) return 0;
    uint64_t first = addr / 4, last = ((uint64_t)addr + 4 * t->ewords - 1) / 4;
    if (last >= t->words) return 0; /* beyond memory: the function traps */
    int any = 0;
    for (uint64_t w = first; w <= last; w++) any |= t->shadow[w] != 0;
    if (!any) return 0;
    /* A short element (circuit code stores constants so: the type word
     * with bit 31 clear) is its first two words: what stays beyond them of
     * an earlier value is never read as part of it. */
    uint32_t type;
    memcpy(&type, t->mem->data + (uint64_t)addr + 4, 4);
    if (addr % 4 == 0 && !t->shadow[first] && !t->shadow[first + 1] && !(type & 0x80000000u))
        return 0;
    uint32_t s = t->shadow[first], id = s >> 1;
    int whole = addr % 4 == 0 && s != G16T_OPAQUE && (s & 1);
    for (uint64_t w = first + 1; whole && w <= last; w++) whole = t->shadow[w] == id << 1;
    if (!whole) g16t_fail(t, "an input-dependent value at address %llu is not whole", addr);
    return whole ? id : 0;
}

/* Marks the element at addr as holding node id (0: unmarks it). */
static void g16t_mark(g16t_state *t, uint32_t addr, uint32_t id)
{
    if (!g16t_cover(t) || (uint64_t)addr / 4 + t->ewords > t->words) return;
    if (id && addr % 4) {
        g16t_fail(t, "an input-dependent value at the unaligned address %llu", addr);
        return;
    }
    for (uint32_t k = 0; k < t->ewords; k++)
        t->shadow[addr / 4 + k] = id ? (id << 1 | (k == 0)) : 0;
}

/* ------------------------------------------------------------------ */
/* The wrappers: before the function, the operands' nodes and words;
 * after it, the operands' marks restored (circom's functions change an
 * operand only to another form of the same value: to Montgomery form, to
 * a long element) and the result marked. */

#define G16T_MAX_OPS 2
typedef struct {
    uint32_t n, addr[G16T_MAX_OPS], id[G16T_MAX_OPS];
    uint32_t raw[G16T_MAX_OPS][G16W_MAX_N32 + 2];
    int tainted;
} g16t_ops;

/* 1 when the call is to be traced (else the caller just runs it). */
static int g16t_before(g16t_state *t, g16t_ops *o, uint32_t n, uint32_t a, uint32_t b)
{
    if (!t || t->in_fr || t->failed) return 0;
    if (t->set_input == 1 || t->set_input == 2)
        g16t_fail(t, "setInputSignal calls field functions this tracer does not expect", 0);
    t->set_input = 0;
    o->n = n;
    o->addr[0] = a;
    o->addr[1] = b;
    o->tainted = 0;
    for (uint32_t k = 0; k < n; k++) {
        o->id[k] = g16t_id(t, o->addr[k]);
        o->tainted |= o->id[k] != 0;
        uint64_t end = (uint64_t)o->addr[k] + 4 * t->ewords;
        if (end <= t->mem->size) memcpy(o->raw[k], t->mem->data + o->addr[k], 4 * t->ewords);
    }
    t->in_fr = 1;
    t->cur_tainted = o->tainted;
    return 1;
}

static int g16t_overlap(const g16t_state *t, uint32_t x, uint32_t y)
{
    uint64_t n = 4 * t->ewords;
    return x != y && (uint64_t)x < y + n && (uint64_t)y < x + n;
}

/* Operand k's node: its own, or a constant of its words before the call. */
static uint32_t g16t_operand(g16t_state *t, const g16t_ops *o, uint32_t k)
{
    return o->id[k] ? o->id[k] : g16t_const(t, o->raw[k]);
}

/* After the call: the operands' marks back; the result r (none: ~0u)
 * marked with node, 0 for a constant result. */
static void g16t_after(g16t_state *t, const g16t_ops *o, uint32_t r, uint32_t node)
{
    t->in_fr = 0;
    for (uint32_t k = 0; k < o->n; k++) {
        if (r != ~0u && g16t_overlap(t, r, o->addr[k]))
            g16t_fail(t, "a field function's result overlaps its operand at %llu", o->addr[k]);
        else if (r != o->addr[k])
            g16t_mark(t, o->addr[k], o->id[k]);
    }
    if (r != ~0u) g16t_mark(t, r, node);
}

static void g16t_binary(Z_circuit_instance_t *inst, uint32_t op, u32 r, u32 a, u32 b,
                        void (*fn)(Z_circuit_instance_t *, u32, u32, u32))
{
    g16t_state *t = g16t_now;
    g16t_ops o;
    if (!g16t_before(t, &o, 2, a, b)) {
        fn(inst, r, a, b);
        return;
    }
    fn(inst, r, a, b);
    uint32_t node = 0;
    if (o.tainted) {
        uint32_t x = g16t_operand(t, &o, 0), y = g16t_operand(t, &o, 1);
        node = g16t_emit(t, op, x, y);
    }
    g16t_after(t, &o, r, node);
}

#define G16T_BINARY(name, op)                                                                      \
    static void g16t_##name(Z_circuit_instance_t *inst, u32 r, u32 a, u32 b)                       \
    {                                                                                              \
        g16t_binary(inst, op, r, a, b, w2c_##name);                                                \
    }
G16T_BINARY(Fr_add, G16T_ADD)
G16T_BINARY(Fr_sub, G16T_SUB)
G16T_BINARY(Fr_mul, G16T_MUL)
G16T_BINARY(Fr_div, G16T_DIV)
G16T_BINARY(Fr_eq, G16T_EQ)
G16T_BINARY(Fr_neq, G16T_NEQ)
G16T_BINARY(Fr_band, G16T_BAND)
G16T_BINARY(Fr_bor, G16T_BOR)
G16T_BINARY(Fr_bxor, G16T_BXOR)
G16T_BINARY(Fr_shr, G16T_SHR)
G16T_BINARY(Fr_shl, G16T_SHL)
G16T_BINARY(Fr_lt, G16T_LT)
G16T_BINARY(Fr_gt, G16T_GT)
G16T_BINARY(Fr_leq, G16T_LEQ)
G16T_BINARY(Fr_geq, G16T_GEQ)
G16T_BINARY(Fr_land, G16T_LAND)
G16T_BINARY(Fr_lor, G16T_LOR)
G16T_BINARY(Fr_idiv, G16T_IDIV)
G16T_BINARY(Fr_mod, G16T_MOD)
G16T_BINARY(Fr_pow, G16T_POW)

static void g16t_unary(Z_circuit_instance_t *inst, uint32_t op, u32 r, u32 a,
                       void (*fn)(Z_circuit_instance_t *, u32, u32))
{
    g16t_state *t = g16t_now;
    g16t_ops o;
    if (!g16t_before(t, &o, 1, a, 0)) {
        fn(inst, r, a);
        return;
    }
    fn(inst, r, a);
    g16t_after(t, &o, r, o.tainted ? g16t_emit(t, op, o.id[0], 0) : 0);
}

#define G16T_UNARY(name, op)                                                                       \
    static void g16t_##name(Z_circuit_instance_t *inst, u32 r, u32 a)                              \
    {                                                                                              \
        g16t_unary(inst, op, r, a, w2c_##name);                                                    \
    }
G16T_UNARY(Fr_neg, G16T_NEG)
G16T_UNARY(Fr_lnot, G16T_LNOT)
G16T_UNARY(Fr_bnot, G16T_BNOT)
G16T_UNARY(Fr_inv, G16T_INV)

/* Fr_copy(r, x): r holds x's node. */
static void g16t_Fr_copy(Z_circuit_instance_t *inst, u32 r, u32 x)
{
    g16t_state *t = g16t_now;
    g16t_ops o;
    if (!g16t_before(t, &o, 1, x, 0)) {
        w2c_Fr_copy(inst, r, x);
        return;
    }
    w2c_Fr_copy(inst, r, x);
    g16t_after(t, &o, r, o.id[0]);
}

/* Fr_copyn(r, x, n): n elements, each keeping its node. */
static void g16t_Fr_copyn(Z_circuit_instance_t *inst, u32 r, u32 x, u32 n)
{
    g16t_state *t = g16t_now;
    g16t_ops o;
    if (!g16t_before(t, &o, 0, 0, 0)) {
        w2c_Fr_copyn(inst, r, x, n);
        return;
    }
    uint64_t bytes = 4ull * t->ewords * n;
    if (n && r != x && (uint64_t)r < x + bytes && (uint64_t)x < r + bytes)
        g16t_fail(t, "Fr_copyn between overlapping ranges at %llu", r);
    uint32_t *ids = n && !t->failed ? calloc(n, 4) : NULL;
    for (uint32_t k = 0; ids && k < n; k++) ids[k] = g16t_id(t, x + 4 * t->ewords * k);
    for (uint32_t k = 0; ids && k < n; k++) t->cur_tainted |= ids[k] != 0;
    w2c_Fr_copyn(inst, r, x, n);
    t->in_fr = 0;
    for (uint32_t k = 0; ids && k < n; k++) {
        g16t_mark(t, x + 4 * t->ewords * k, ids[k]);
        g16t_mark(t, r + 4 * t->ewords * k, ids[k]);
    }
    if (n && !ids) g16t_fail(t, "out of memory for Fr_copyn of %llu elements", n);
    free(ids);
}

/* In-place changes of form: the element keeps its node. */
#define G16T_IN_PLACE(name)                                                                        \
    static void g16t_##name(Z_circuit_instance_t *inst, u32 r)                                     \
    {                                                                                              \
        g16t_state *t = g16t_now;                                                                  \
        g16t_ops o;                                                                                \
        if (!g16t_before(t, &o, 1, r, 0)) {                                                        \
            w2c_##name(inst, r);                                                                   \
            return;                                                                                \
        }                                                                                          \
        w2c_##name(inst, r);                                                                       \
        g16t_after(t, &o, r, o.id[0]);                                                             \
    }
G16T_IN_PLACE(Fr_toNormal)
G16T_IN_PLACE(Fr_toLongNormal)
G16T_IN_PLACE(Fr_toMontgomery)

/* Fr_isTrue decides a branch: a guard on what it answered. */
static u32 g16t_Fr_isTrue(Z_circuit_instance_t *inst, u32 x)
{
    g16t_state *t = g16t_now;
    g16t_ops o;
    if (!g16t_before(t, &o, 1, x, 0)) return w2c_Fr_isTrue(inst, x);
    u32 v = w2c_Fr_isTrue(inst, x);
    g16t_after(t, &o, ~0u, 0);
    if (o.tainted) g16t_emit(t, G16T_GUARD_NZ, o.id[0], v != 0);
    return v;
}

/* Fr_toInt makes an address or a count: a guard that the value is the one
 * this calculation had.  In setInputSignal (set_input 1), the input's own
 * conversion, which setInputSignal compares back (Fr_eqR below). */
static u32 g16t_Fr_toInt(Z_circuit_instance_t *inst, u32 x)
{
    g16t_state *t = g16t_now;
    int in_set = t && t->set_input == 1 && x == t->shared - 8;
    if (in_set) t->set_input = 0; /* g16t_before's check */
    g16t_ops o;
    if (!g16t_before(t, &o, 1, x, 0)) return w2c_Fr_toInt(inst, x);
    u32 v = w2c_Fr_toInt(inst, x);
    g16t_after(t, &o, ~0u, 0);
    if (in_set) {
        t->set_input = 2;
        t->set_lo = UINT64_MAX;
        t->set_hi = 0;
    } else if (o.tainted)
        g16t_emit(t, G16T_GUARD_EQ, o.id[0], g16t_const(t, o.raw[0]));
    return v;
}

/* Fr_eqR answers a branch: a guard on an EQ node.  In setInputSignal
 * (set_input 2), its comparison of the signal's new short form with the
 * input decides only whether the input is copied over it: either way the
 * signal then holds the input, its node. */
static u32 g16t_Fr_eqR(Z_circuit_instance_t *inst, u32 a, u32 b)
{
    g16t_state *t = g16t_now;
    int in_set = t && t->set_input == 2 && b == t->shared - 8;
    /* what it stored since Fr_toInt lies in the signal it compares */
    if (in_set && t->set_hi && (t->set_lo < a || t->set_hi > a + 4ull * t->ewords))
        g16t_fail(t, "setInputSignal stores outside the signal it sets (%llu)", t->set_lo);
    if (in_set) t->set_input = 0;
    g16t_ops o;
    if (!g16t_before(t, &o, 2, a, b)) return w2c_Fr_eqR(inst, a, b);
    u32 v = w2c_Fr_eqR(inst, a, b);
    if (in_set) {
        o.id[0] = t->input_node; /* marked so by g16t_after */
        t->set_done = 1;
    } else if (o.tainted) {
        uint32_t eq = g16t_emit(t, G16T_EQ, g16t_operand(t, &o, 0), g16t_operand(t, &o, 1));
        g16t_emit(t, G16T_GUARD_NZ, eq, v != 0);
    }
    g16t_after(t, &o, ~0u, 0);
    if (in_set && g16t_id(t, a) == t->input_node) {
        t->set_input = 3; /* the short form may be written again (g16t_store) */
        t->slot = a;
    }
    return v;
}

/* ------------------------------------------------------------------ */
/* The traced calculation.                                              */

static void g16t_log_text(void *ctx, const char *piece)
{
    (void)piece;
    g16t_fail(ctx, "the circuit logs (a graph would not repeat its log() output)", 0);
}

static void g16t_log_value(void *ctx, const uint32_t *words, uint32_t n32)
{
    (void)words;
    (void)n32;
    g16t_log_text(ctx, "");
}

static void g16t_set_body(struct g16w_instance *self, g16t_state *t, const g16t_signal *s,
                          uint32_t index, uint32_t ordinal)
{
    uint32_t msb = (uint32_t)(s->hash >> 32), lsb = (uint32_t)s->hash;
    for (uint32_t j = 0; j < t->n32; j++)
        Z_circuitZ_writeSharedRWMemory(&self->wasm, j, s->values[(size_t)index * t->n32 + j]);
    const wasm_rt_memory_t *m = &self->wasm.w2c_memory;
    uint32_t type;
    memcpy(&type, m->data + t->shared - 4, 4); /* in bounds: the writes above were */
    if (type != 0x80000000u) g16t_fail(t, "the shared memory's element is not long normal", 0);
    t->input_node = g16t_emit(t, G16T_INPUT, ordinal, 0);
    g16t_mark(t, t->shared - 8, t->input_node);
    t->set_input = 1;
    t->set_done = 0;
    Z_circuitZ_setInputSignal(&self->wasm, msb, lsb, index);
    if (!t->set_done) g16t_fail(t, "setInputSignal does not run as this tracer expects", 0);
    t->set_input = 0;
}

static int g16t_set(struct g16w_instance *self, g16t_state *t, const g16t_signal *s, uint32_t index,
                    uint32_t ordinal)
{
    G16W_GUARDED(self, g16t_set_body(self, t, s, index, ordinal));
}

/* Witness value i's node: what getWitness leaves in the shared memory. */
static void g16t_witness_body(struct g16w_instance *self, g16t_state *t, uint32_t i)
{
    Z_circuitZ_getWitness(&self->wasm, i);
    uint32_t id = g16t_id(t, t->shared - 8);
    if (!id && !t->failed) {
        uint32_t raw[G16W_MAX_N32 + 2];
        memcpy(raw, self->wasm.w2c_memory.data + t->shared - 8, 4 * t->ewords);
        id = g16t_const(t, raw);
    }
    t->out->outputs[i] = id;
}

static int g16t_witness(struct g16w_instance *self, g16t_state *t, uint32_t i)
{
    G16W_GUARDED(self, g16t_witness_body(self, t, i));
}

static int g16t_shared(struct g16w_instance *self, uint32_t *out)
{
    G16W_GUARDED(self, *out = Z_circuitZ_getSharedRWMemoryStart(&self->wasm));
}

static int g16t_run(struct g16w_instance *self, g16t_state *t, const g16t_signal *signals,
                    uint32_t n_signals)
{
    g16w_info info;
    int why = glue_info(self, &info);
    if (!why) why = g16t_shared(self, &t->shared);
    if (why) return why;
    t->n32 = t->out->n32 = info.n32;
    t->ewords = info.n32 + 2;
    if (t->shared < 8 || t->shared % 4) g16t_fail(t, "a shared memory at %llu", t->shared);
    t->out->outputs = calloc(info.witness_size ? info.witness_size : 1, 4);
    if (!t->out->outputs) return G16W_NOMEM;
    g16t_emit(t, 0, 0, 0); /* node 0: none */
    g16t_now = t;
    why = glue_init(self, 0);
    uint32_t ordinal = 0;
    for (uint32_t s = 0; !why && s < n_signals; s++)
        for (uint32_t k = 0; !why && k < signals[s].count; k++)
            why = g16t_set(self, t, &signals[s], k, ordinal++);
    for (uint32_t i = 0; !why && !t->failed && i < info.witness_size; i++)
        why = g16t_witness(self, t, i);
    t->out->n_outputs = info.witness_size;
    g16t_now = NULL;
    return why;
}

static void g16t_release(g16t_trace *tr)
{
    free(tr->nodes);
    free(tr->consts);
    free(tr->outputs);
    memset(tr, 0, sizeof *tr);
}

static int g16t_trace_run(const g16t_signal *signals, uint32_t n_signals, uint32_t max_pages,
                          uint64_t deadline_ns, g16t_trace *out)
{
    memset(out, 0, sizeof *out);
    g16t_state t = {.out = out};
    g16w_log log = {&t, g16t_log_text, g16t_log_value};
    int why;
    g16w_instance *self = glue_create(max_pages, deadline_ns, &log, &why);
    if (!self) return why;
    t.mem = &self->wasm.w2c_memory;
    why = g16t_run(self, &t, signals, n_signals);
    g16t_now = NULL;
    glue_destroy(self);
    free(t.shadow);
    if (why) g16t_release(out);
    return why;
}

G16T_EXPORT const g16t_api g16t_api_v1 = {G16T_ABI_VERSION, g16t_trace_run, g16t_release};
