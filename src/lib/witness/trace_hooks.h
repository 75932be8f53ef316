/* The tracing object's memory hooks and shadow (trace_glue.c), included
 * by the rewritten translation (wasm_trace.c) just before it defines its
 * loads and stores, so that they call these. */
#ifndef G16_WITNESS_TRACE_HOOKS_H
#define G16_WITNESS_TRACE_HOOKS_H
#include "trace_abi.h"

#define G16T_OPAQUE 0xffffffffu
#define G16T_EXPORT __attribute__((visibility("default")))

typedef struct {
    wasm_rt_memory_t *mem;
    uint32_t *shadow; /* per word: 0, node << 1 | start of its element, or opaque */
    size_t words;
    int in_fr;       /* inside a modelled function: accesses unwatched */
    int cur_tainted; /* that function has dependent operands */
    int set_input;   /* setInputSignal's steps (g16t_set_body) */
    int set_done;    /* its Fr_eqR was seen */
    uint32_t input_node, n32, ewords, shared, slot;
    uint64_t set_lo, set_hi; /* what setInputSignal stored between Fr_toInt and Fr_eqR */
    g16t_trace *out;
    size_t node_cap, const_cap;
    int failed;
} g16t_state;

G16W_TLS g16t_state *g16t_now;

static void g16t_fail(g16t_state *t, const char *fmt, unsigned long long a)
{
    if (t->failed) return;
    t->failed = 1;
    snprintf(t->out->reason, sizeof t->out->reason, fmt, a);
}

/* The shadow covers the memory as it is now (it grows). */
static int g16t_cover(g16t_state *t)
{
    size_t words = t->mem->size / 4;
    if (words <= t->words) return 1;
    uint32_t *s = realloc(t->shadow, words * 4);
    if (!s) {
        g16t_fail(t, "out of memory for the trace's shadow (%llu words)", words);
        return 0;
    }
    memset(s + t->words, 0, (words - t->words) * 4);
    t->shadow = s;
    t->words = words;
    return 1;
}

static void g16t_load(wasm_rt_memory_t *mem, uint64_t addr, size_t n)
{
    g16t_state *t = g16t_now;
    if (!t || t->in_fr || t->failed || mem != t->mem || !g16t_cover(t)) return;
    if (t->set_input == 3) t->set_input = 0;
    /* between its conversion and its comparison, setInputSignal only
     * writes the short form (g16t_Fr_eqR checks where) */
    if (t->set_input == 2) g16t_fail(t, "setInputSignal reads memory (%llu) as it sets", addr);
    for (uint64_t w = addr / 4; w <= (addr + n - 1) / 4 && w < t->words; w++)
        if (t->shadow[w]) {
            g16t_fail(t, "circuit code reads an input-dependent word at address %llu", w * 4);
            return;
        }
}

static void g16t_store(wasm_rt_memory_t *mem, uint64_t addr, size_t n)
{
    g16t_state *t = g16t_now;
    if (!t || t->failed || mem != t->mem || !g16t_cover(t)) return;
    uint32_t mark = t->in_fr && t->cur_tainted ? G16T_OPAQUE : 0;
    for (uint64_t w = addr / 4; w <= (addr + n - 1) / 4 && w < t->words; w++) t->shadow[w] = mark;
    if (t->set_input == 2) {
        if (addr < t->set_lo) t->set_lo = addr;
        if (addr + n > t->set_hi) t->set_hi = addr + n;
    }
    if (t->set_input != 3) return;
    /* setInputSignal writing the input's short form into its signal after
     * Fr_eqR found it equal (trace_glue.c, g16t_Fr_eqR): the signal holds
     * the input; anything else ends that step */
    if (t->in_fr || addr < t->slot || addr + n > t->slot + 4ull * t->ewords ||
        (uint64_t)t->slot / 4 + t->ewords > t->words) {
        t->set_input = 0;
        return;
    }
    for (uint32_t k = 0; k < t->ewords; k++)
        t->shadow[t->slot / 4 + k] = t->input_node << 1 | (k == 0);
}

#define G16T_DEFINE_LOAD(name, t1, t2, t3)                                                         \
    static inline t3 name(wasm_rt_memory_t *mem, u64 addr)                                         \
    {                                                                                              \
        MEMCHECK(mem, addr, t1);                                                                   \
        g16t_load(mem, addr, sizeof(t1));                                                          \
        t1 result;                                                                                 \
        wasm_rt_memcpy(&result, &mem->data[addr], sizeof(t1));                                     \
        return (t3)(t2)result;                                                                     \
    }
#define G16T_DEFINE_STORE(name, t1, t2)                                                            \
    static inline void name(wasm_rt_memory_t *mem, u64 addr, t2 value)                             \
    {                                                                                              \
        MEMCHECK(mem, addr, t1);                                                                   \
        g16t_store(mem, addr, sizeof(t1));                                                         \
        t1 wrapped = (t1)value;                                                                    \
        wasm_rt_memcpy(&mem->data[addr], &wrapped, sizeof(t1));                                    \
    }

/* The modelled field functions (G16T_MODELLED in wasm_trace.c), which
 * the translation's calls reach through these wrappers (trace_glue.c). */
static void g16t_Fr_copy(Z_circuit_instance_t *, u32, u32);
static void g16t_Fr_copyn(Z_circuit_instance_t *, u32, u32, u32);
static void g16t_Fr_neg(Z_circuit_instance_t *, u32, u32);
static void g16t_Fr_lnot(Z_circuit_instance_t *, u32, u32);
static void g16t_Fr_bnot(Z_circuit_instance_t *, u32, u32);
static void g16t_Fr_inv(Z_circuit_instance_t *, u32, u32);
static void g16t_Fr_toNormal(Z_circuit_instance_t *, u32);
static void g16t_Fr_toLongNormal(Z_circuit_instance_t *, u32);
static void g16t_Fr_toMontgomery(Z_circuit_instance_t *, u32);
static u32 g16t_Fr_isTrue(Z_circuit_instance_t *, u32);
static u32 g16t_Fr_toInt(Z_circuit_instance_t *, u32);
static u32 g16t_Fr_eqR(Z_circuit_instance_t *, u32, u32);
#define G16T_BINARY_PROTO(name) static void g16t_##name(Z_circuit_instance_t *, u32, u32, u32);
G16T_BINARY_PROTO(Fr_add)
G16T_BINARY_PROTO(Fr_sub)
G16T_BINARY_PROTO(Fr_mul)
G16T_BINARY_PROTO(Fr_div)
G16T_BINARY_PROTO(Fr_eq)
G16T_BINARY_PROTO(Fr_neq)
G16T_BINARY_PROTO(Fr_band)
G16T_BINARY_PROTO(Fr_bor)
G16T_BINARY_PROTO(Fr_bxor)
G16T_BINARY_PROTO(Fr_shr)
G16T_BINARY_PROTO(Fr_shl)
G16T_BINARY_PROTO(Fr_lt)
G16T_BINARY_PROTO(Fr_gt)
G16T_BINARY_PROTO(Fr_leq)
G16T_BINARY_PROTO(Fr_geq)
G16T_BINARY_PROTO(Fr_land)
G16T_BINARY_PROTO(Fr_lor)
G16T_BINARY_PROTO(Fr_idiv)
G16T_BINARY_PROTO(Fr_mod)
G16T_BINARY_PROTO(Fr_pow)

#endif
