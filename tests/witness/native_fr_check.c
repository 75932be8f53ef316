/* Compiled by native_fr.sh with a fixture's rewritten wasm2c output (it
 * includes glue.c, which includes the circuit): every native replacement
 * of native_fr.c against the translation it replaced ("<name>_wasm"), on
 * the same memory, for edge values of the circuit's own prime (0, 1, p-1,
 * p, p+1, 2^256-1, R mod p, ...), random values, overlapping operands and
 * short and long element forms; every byte of the memory the functions
 * touch and every return value must agree.  Then operands beyond the end of
 * memory: both must stop with the same trap and the same error text.  And
 * a prime in memory that does not fit the product's constant: the native
 * product must compute what the translation computes.  And the witness
 * read natively from the signals (glue.c) against getWitness and the
 * shared memory, for every value in every element form, and with the
 * witness map or a signal beyond memory.
 * Prints one line per failure; exits 1 on any. */
#include "glue.c"

#define SCRATCH 65536u /* bytes at the top of memory the cases use */

static struct g16w_instance *inst;
static wasm_rt_memory_t *mem;
static uint8_t *saved;  /* the memory before a case */
static uint8_t *native; /* the memory after the native call */
static int failures;

typedef enum {
    ADD,
    SUB,
    GT,
    GTE,
    EQ,
    F1M_ADD,
    MUL,
    COPY,
    INT_COPY,
    INT_ZERO,
    TO_NORMAL,
    IS_NEGATIVE,
    LSB32,
    TO_INT,
    MREDUCT,
    LT,
    FR_ADD,
    FROM_MONT,
    N_FNS
} fn_id;
static const char *const fn_names[N_FNS] = {"Fr_int_add",  "Fr_int_sub",  "Fr_int_gt",
                                            "Fr_int_gte",  "Fr_int_eq",   "Fr_F1m_add",
                                            "Fr_F1m_mul",  "Fr_copy",     "Fr_int_copy",
                                            "Fr_int_zero", "Fr_toNormal", "Fr_isNegative",
                                            "Fr_getLsb32", "Fr_toInt",    "Fr_F1m_mReduct",
                                            "Fr_lt",       "Fr_add",      "Fr_F1m_fromMontgomery"};

/* Runs fn on (a, b, c) as the native replacement (0) or the translation
 * (1); its return value, 0 for functions without one. */
static u32 call(fn_id fn, int translated, u32 a, u32 b, u32 c)
{
    Z_circuit_instance_t *w = &inst->wasm;
    switch (fn) {
    case ADD: return translated ? w2c_Fr_int_add_wasm(w, a, b, c) : w2c_Fr_int_add(w, a, b, c);
    case SUB: return translated ? w2c_Fr_int_sub_wasm(w, a, b, c) : w2c_Fr_int_sub(w, a, b, c);
    case GT: return translated ? w2c_Fr_int_gt_wasm(w, a, b) : w2c_Fr_int_gt(w, a, b);
    case GTE: return translated ? w2c_Fr_int_gte_wasm(w, a, b) : w2c_Fr_int_gte(w, a, b);
    case EQ: return translated ? w2c_Fr_int_eq_wasm(w, a, b) : w2c_Fr_int_eq(w, a, b);
    case IS_NEGATIVE: return translated ? w2c_Fr_isNegative_wasm(w, a) : w2c_Fr_isNegative(w, a);
    case LSB32: return translated ? w2c_Fr_getLsb32_wasm(w, a) : w2c_Fr_getLsb32(w, a);
    case TO_INT: return translated ? w2c_Fr_toInt_wasm(w, a) : w2c_Fr_toInt(w, a);
    case LT: translated ? w2c_Fr_lt_wasm(w, a, b, c) : w2c_Fr_lt(w, a, b, c); break;
    case FR_ADD: translated ? w2c_Fr_add_wasm(w, a, b, c) : w2c_Fr_add(w, a, b, c); break;
    case TO_NORMAL: translated ? w2c_Fr_toNormal_wasm(w, a) : w2c_Fr_toNormal(w, a); break;
    case MREDUCT:
        translated ? w2c_Fr_F1m_mReduct_wasm(w, a, b) : w2c_Fr_F1m_mReduct(w, a, b);
        break;
    case FROM_MONT:
        translated ? w2c_Fr_F1m_fromMontgomery_wasm(w, a, b) : w2c_Fr_F1m_fromMontgomery(w, a, b);
        break;
    case F1M_ADD: translated ? w2c_Fr_F1m_add_wasm(w, a, b, c) : w2c_Fr_F1m_add(w, a, b, c); break;
    case MUL: translated ? w2c_Fr_F1m_mul_wasm(w, a, b, c) : w2c_Fr_F1m_mul(w, a, b, c); break;
    case COPY: translated ? w2c_Fr_copy_wasm(w, a, b) : w2c_Fr_copy(w, a, b); break;
    case INT_COPY: translated ? w2c_Fr_int_copy_wasm(w, a, b) : w2c_Fr_int_copy(w, a, b); break;
    case INT_ZERO: translated ? w2c_Fr_int_zero_wasm(w, a) : w2c_Fr_int_zero(w, a); break;
    default: break;
    }
    return 0;
}

/* The first 64 KiB (circom's runtime constants and scratch) and the
 * cases' region: what a function may touch. */
static void snapshot(uint8_t *to)
{
    memcpy(to, mem->data, 65536);
    memcpy(to + 65536, mem->data + mem->size - SCRATCH, SCRATCH);
}

static void restore(const uint8_t *from)
{
    memcpy(mem->data, from, 65536);
    memcpy(mem->data + mem->size - SCRATCH, from + 65536, SCRATCH);
}

/* fn both ways on the same memory: the results must be equal. */
static void compare(fn_id fn, u32 a, u32 b, u32 c, const char *what)
{
    snapshot(saved);
    u32 rn = call(fn, 0, a, b, c);
    snapshot(native);
    restore(saved);
    u32 rt = call(fn, 1, a, b, c);
    uint8_t *after = malloc(2 * 65536);
    snapshot(after);
    if (rn != rt || memcmp(native, after, 2 * 65536)) {
        printf("FAIL %s %s (%u %u %u): returns %u / %u, memory %s\n", fn_names[fn], what, a, b, c,
               rn, rt, memcmp(native, after, 2 * 65536) ? "differs" : "same");
        failures++;
    }
    free(after);
}

/* circom's constants as instantiation left them (the reduction cases
 * overwrite some). */
static uint8_t pristine[65536];
static void restore_runtime(void) { memcpy(mem->data, pristine, sizeof pristine); }

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* 256-bit little-endian values from the prime in memory at 608 and the
 * largest non-negative value, (p - 1) / 2, at 1920. */
#define N_VALUES 18
static uint64_t values[N_VALUES][4];

static void add_small(uint64_t v[4], const uint64_t q[4], int64_t k)
{
    memcpy(v, q, 32);
    unsigned __int128 c = (unsigned __int128)v[0] + (uint64_t)k;
    v[0] = (uint64_t)c;
    uint64_t carry = k < 0 ? (uint64_t)-1 : 0;
    c >>= 64;
    for (int i = 1; i < 4; i++) {
        unsigned __int128 s = (unsigned __int128)v[i] + carry + (uint64_t)c;
        v[i] = (uint64_t)s;
        c = s >> 64;
    }
}

static void make_values(void)
{
    uint64_t q[4];
    memcpy(q, mem->data + 608, 32);
    memset(values, 0, sizeof values);
    values[1][0] = 1;
    values[2][0] = 2;
    add_small(values[3], q, -1);
    memcpy(values[4], q, 32);
    add_small(values[5], q, 1);
    memset(values[6], 0xff, 32); /* 2^256 - 1 */
    values[7][3] = 1ull << 63;   /* 2^255 */
    memcpy(values[8], q, 32);    /* 2p - 1 (mod 2^256) */
    for (int i = 0; i < 4; i++) values[8][i] <<= 1;
    for (int i = 3; i > 0; i--) values[8][i] |= q[i - 1] >> 63;
    values[8][0] -= 1;
    values[9][0] = 0xffffffffu; /* a word's carry */
    values[10][1] = 1;
    memcpy(values[11], mem->data + 1920, 32);
    add_small(values[12], values[11], 1);
    for (int i = 13; i < N_VALUES; i++)
        for (int j = 0; j < 4; j++) values[i][j] = rng();
    values[13][3] &= q[3]; /* likely below p */
}

static void put(u32 at, const uint64_t v[4]) { memcpy(mem->data + at, v, 32); }

static void binary_cases(fn_id fn)
{
    u32 base = (u32)(mem->size - SCRATCH), x = base, y = base + 64, r = base + 128;
    for (int i = 0; i < N_VALUES; i++)
        for (int j = 0; j < N_VALUES; j++) {
            put(x, values[i]);
            put(y, values[j]);
            put(r, values[(i + j) % N_VALUES]);
            compare(fn, x, y, r, "distinct");
            compare(fn, x, y, x, "r = x");
            compare(fn, x, x, x, "x = y = r");
            compare(fn, x, y, x + 4, "r = x + 4");
            compare(fn, x + 4, y, x, "r = x - 4");
            compare(fn, x, y, y + 8, "r = y + 8");
            if (fn != F1M_ADD && fn != MUL) continue;
            compare(fn, x, y, 600, "r on the prime");
            restore_runtime();
        }
}

/* Fr_F1m_mReduct on 64-byte values made of two of the values, in place,
 * into another place, at circom's own scratch (1504) and overlapping its
 * carries (992) or the prime (608). */
static void reduce_cases(void)
{
    u32 base = (u32)(mem->size - SCRATCH);
    const u32 at[] = {base, 1504, 980, 600};
    for (size_t a = 0; a < sizeof at / sizeof *at; a++)
        for (int i = 0; i < N_VALUES; i++)
            for (int j = 0; j < N_VALUES; j += 3) {
                put(at[a], values[i]);
                put(at[a] + 32, values[j]);
                compare(MREDUCT, at[a], base + 128, 0, "into r");
                compare(MREDUCT, at[a], at[a], 0, "r = t");
            }
    restore_runtime();
}

/* Fr_F1m_fromMontgomery from each value, into another place, in place,
 * from and into circom's scratch (1504, 1536), its carries (992) and the
 * prime (608), from and into the ends of the scratch. */
static void from_mont_cases(void)
{
    u32 base = (u32)(mem->size - SCRATCH);
    const u32 at[] = {base, 1504, 1520, 1536, 1550, 992, 1000, 608, 1472, 1480};
    for (size_t a = 0; a < sizeof at / sizeof *at; a++)
        for (size_t b = 0; b < sizeof at / sizeof *at; b++)
            for (int i = 0; i < N_VALUES; i++) {
                put(base, values[i]);
                put(base + 64, values[(i + 5) % N_VALUES]);
                if (at[a] != base) put(at[a], values[i]);
                compare(FROM_MONT, at[a], at[b] == base ? base + 64 : at[b], 0, "x to r");
                compare(FROM_MONT, at[a], at[a], 0, "r = x");
                restore_runtime();
            }
}

/* Fr_copy moves 40-byte elements: a short one (value, flags word), a
 * long one in Montgomery form, random bytes; also overlapping. */
static void copy_cases(void)
{
    u32 base = (u32)(mem->size - SCRATCH);
    for (int k = 0; k < 8; k++) {
        uint8_t *p = mem->data + base;
        for (int i = 0; i < 96; i++) p[i] = (uint8_t)rng();
        if (k == 0) memcpy(p + 4, "\0\0\0\0", 4);   /* short, no flags */
        if (k == 1) memcpy(p + 4, "\0\0\0\xc0", 4); /* long, Montgomery */
        compare(COPY, base + 48, base, 0, "distinct");
        compare(COPY, base + 8, base, 0, "r = x + 8");
        compare(COPY, base, base + 8, 0, "x = r + 8");
        compare(INT_COPY, base, base + 48, 0, "distinct");
        compare(INT_COPY, base, base + 4, 0, "r = x + 4");
        compare(INT_ZERO, base + 3, 0, 0, "unaligned");
    }
}

/* The element functions on each value in each form: short (a signed
 * 32-bit value), long normal, long Montgomery, short with the Montgomery
 * bit, and type bytes with other bits set. */
static void element_cases(void)
{
    static const uint8_t types[] = {0x00, 0x80, 0xc0, 0x40, 0xff, 0x3f};
    u32 base = (u32)(mem->size - SCRATCH);
    uint8_t *p = mem->data + base;
    for (int i = 0; i < N_VALUES; i++)
        for (size_t t = 0; t < sizeof types; t++)
            for (int neg = 0; neg < 2; neg++)
                for (fn_id fn = TO_NORMAL; fn <= TO_INT; fn++) {
                    /* afresh for each: a compare leaves the translation's
                     * writes (a Montgomery element converted) */
                    uint32_t small =
                        neg ? 0x80000000u | (uint32_t)values[i][0] : (uint32_t)values[i][1];
                    memcpy(p, &small, 4);
                    memcpy(p + 4, "\0\0\0", 3);
                    p[7] = types[t];
                    memcpy(p + 8, values[i], 32);
                    compare(fn, base, 0, 0, "element");
                }
}

/* An element of one kind at at: short above 0 (or 0 for the value 0),
 * short negative, short 0, long normal, long Montgomery. */
#define N_KINDS 5
static void put_element(u32 at, int kind, const uint64_t v[4])
{
    uint8_t *p = mem->data + at;
    uint32_t small = (uint32_t)v[0] & 0x7fffffffu;
    if (kind == 1) small |= 0x80000000u;
    if (kind == 2) small = 0;
    memcpy(p, &small, 4);
    memcpy(p + 4, "\0\0\0", 3);
    p[7] = kind == 3 ? 0x80 : kind == 4 ? 0xc0 : 0;
    memcpy(p + 8, v, 32);
}

/* Fr_lt or Fr_add on every pair of kinds and values, apart, r on an
 * operand, the same element twice, overlapping, r's limbs on the prime. */
static void pair_cases(fn_id fn)
{
    u32 a = (u32)(mem->size - SCRATCH), b = a + 64, r = a + 128;
    for (int i = 0; i < N_VALUES; i++)
        for (int j = 0; j < N_VALUES; j++)
            for (int ka = 0; ka < N_KINDS; ka++)
                for (int kb = 0; kb < N_KINDS; kb++) {
                    put_element(a, ka, values[i]);
                    put_element(b, kb, values[j]);
                    compare(fn, r, a, b, "apart");
                    if (j % 4) continue;
                    put_element(a, ka, values[i]);
                    put_element(b, kb, values[j]);
                    compare(fn, a, a, b, "r = a");
                    put_element(a, ka, values[i]);
                    compare(fn, r, a, a, "a = b");
                    put_element(a, ka, values[i]);
                    put_element(a + 16, kb, values[j]);
                    compare(fn, r, a, a + 16, "b = a + 16");
                    put_element(a, ka, values[i]);
                    put_element(b, kb, values[j]);
                    compare(fn, b + 16, a, b, "r = b + 16");
                    compare(fn, 600, a, b, "r's limbs on the prime");
                    restore_runtime();
                }
}

/* An operand past the end: the same trap and error text both ways. */
static int trapped(fn_id fn, int translated, u32 a, u32 b, u32 c)
{
    inst->error_len = 0;
    inst->error[0] = 0;
    G16W_GUARDED(inst, call(fn, translated, a, b, c));
}

static void oob_cases(void)
{
    u32 end = (u32)mem->size, ok = end - SCRATCH;
    const u32 bad[] = {end - 16, end - 4, end - 10, end, 0xffffffe0u, 0xffffffffu};
    memset(mem->data + end - 16, 0xc0, 16); /* elements there: long, Montgomery */
    for (fn_id fn = 0; fn < N_FNS; fn++)
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
            for (int arg = 0; arg < 3; arg++) {
                u32 a[3] = {ok, ok + 64, ok + 128};
                a[arg] = bad[i];
                snapshot(saved);
                int sn = trapped(fn, 0, a[0], a[1], a[2]);
                char text[G16W_ERROR_CAP];
                snprintf(text, sizeof text, "%s", inst->error);
                restore(saved);
                int st = trapped(fn, 1, a[0], a[1], a[2]);
                restore(saved);
                if (sn != st || strcmp(text, inst->error)) {
                    printf(
                        "FAIL %s operand %d at %u: native stops %#x (%s), translation %#x (%s)\n",
                        fn_names[fn], arg, bad[i], sn, text, st, inst->error);
                    failures++;
                }
                if (arg == 0 && i == 1 && sn != (G16W_TRAP | WASM_RT_TRAP_OOB)) {
                    printf("FAIL %s: %#x, not the out-of-bounds trap\n", fn_names[fn], sn);
                    failures++;
                }
            }
}

/* fn run with depth calls already on the stack. */
static int at_depth(fn_id fn, int translated, u32 depth, u32 a, u32 b, u32 c)
{
    inst->error_len = 0;
    inst->error[0] = 0;
    G16W_GUARDED(inst, (g16w_depth_count = depth, call(fn, translated, a, b, c)));
}

/* Near the call-depth limit the element functions must stop where their
 * translations do (Fr_toInt's and Fr_add's go 3 calls deep, Fr_lt's and
 * Fr_F1m_fromMontgomery's 4):
 * long normal elements (and a short one for Fr_lt), which they take
 * through their callees. */
static void depth_cases(void)
{
    static const uint64_t seven[4] = {7}, five[4] = {5};
    u32 base = (u32)(mem->size - SCRATCH);
    static const fn_id fns[] = {F1M_ADD, MUL, TO_NORMAL, IS_NEGATIVE, LSB32,
                                TO_INT,  LT,  FR_ADD,    FROM_MONT};
    for (size_t f = 0; f < sizeof fns / sizeof *fns; f++) {
        fn_id fn = fns[f];
        for (u32 left = 0; left <= 5; left++) {
            u32 depth = WASM_RT_MAX_CALL_STACK_DEPTH - left,
                a = fn == LT || fn == FR_ADD ? base + 128 : base;
            int stops[2];
            for (int translated = 0; translated < 2; translated++) {
                put_element(base, 3, seven);
                put_element(base + 64, fn == LT ? 0 : 3, five);
                stops[translated] = at_depth(fn, translated, depth, a, base, base + 64);
            }
            if (stops[0] != stops[1]) {
                printf("FAIL %s at depth %u: native stops %#x, translation %#x\n", fn_names[fn],
                       depth, stops[0], stops[1]);
                failures++;
            }
        }
    }
}

/* A prime word that does not fit -p^-1 mod 2^32: the product must fall
 * back to the translation, whatever it computes. */
static void foreign_prime_cases(void)
{
    uint8_t prime[32];
    memcpy(prime, mem->data + 608, 32);
    mem->data[608] ^= 2;
    make_values();
    binary_cases(MUL);
    memcpy(mem->data + 608, prime, 32);
    make_values();
}

#ifdef G16N_WITNESS_MAP
/* Values [0, n) through getWitness and the shared memory alone, guarded:
 * 0 or how it stopped. */
static void translated_witness_body(uint8_t *out, u32 n)
{
    for (u32 i = 0; i < n; i++) {
        w2c_getWitness(&inst->wasm, i);
        memcpy(out + 32u * i, mem->data + 1992, 32);
    }
}

static int translated_witness(uint8_t *out, u32 n)
{
    G16W_GUARDED(inst, translated_witness_body(out, n));
}
#endif

/* The witness value at index 1 both ways, its signal made the element at
 * the cases' region (the map's entry pointed there): getWitness then the
 * shared memory, against the glue's native read (which may decline: the
 * glue then takes the translation). */
static int witness_native_hits;
static void witness_value_cases(void)
{
#ifndef G16N_WITNESS_MAP
    printf("FAIL getWitness was not recognised (no native witness read)\n");
    failures++;
#else
    static const uint8_t types[] = {0x00, 0x80, 0xc0, 0x40, 0xff, 0x3f};
    u32 base = (u32)(mem->size - SCRATCH);
    u32 k = (base - G16N_WITNESS_SIGNALS + 39) / 40, s = G16N_WITNESS_SIGNALS + 40 * k;
    g16n_prime p;
    if (!g16n_prime_load(mem, 608u, g16n_mreduct_np32, &p)) {
        printf("FAIL the prime at 608 does not load\n");
        failures++;
        return;
    }
    memcpy(mem->data + G16N_WITNESS_MAP + 4, &k, 4);
    uint8_t *e = mem->data + s;
    for (int i = 0; i < N_VALUES; i++)
        for (size_t t = 0; t < sizeof types; t++)
            for (int small = 0; small < 3; small++) {
                uint32_t word = small == 0   ? (uint32_t)values[i][0] & 0x7fffffffu
                                : small == 1 ? 0x80000000u | (uint32_t)values[i][0]
                                             : (uint32_t)values[i][1];
                memcpy(e, &word, 4);
                memcpy(e + 4, "\0\0\0", 3);
                e[7] = types[t];
                memcpy(e + 8, values[i], 32);
                uint8_t native[32], translated[32];
                if (!g16w_witness_native(inst, 1, native, &p)) continue;
                witness_native_hits++;
                uint8_t both[64];
                if (translated_witness(both, 2)) {
                    printf("FAIL witness value %d: the translation stopped\n", i);
                    failures++;
                }
                memcpy(translated, both + 32, 32);
                if (memcmp(native, translated, 32)) {
                    printf("FAIL witness value %d, type %#x, short word %#x: native differs\n", i,
                           types[t], word);
                    failures++;
                }
            }
    if (witness_native_hits < N_VALUES * 3) {
        printf("FAIL only %d witness values read natively\n", witness_native_hits);
        failures++;
    }
    restore_runtime();
#endif
}

/* The whole witness through the glue against the translation alone, with
 * the map's entry for value 1 and then its signal beyond memory: the same
 * bytes, or the same trap. */
static void witness_bounds_cases(void)
{
#ifdef G16N_WITNESS_MAP
    u32 end = (u32)mem->size, n = Z_circuitZ_getWitnessSize(&inst->wasm);
    const u32 entries[] = {1, (end - G16N_WITNESS_SIGNALS) / 40, 0x7fffffffu, 0xffffffffu};
    uint8_t *outs[2] = {malloc(32u * n), malloc(32u * n)};
    for (size_t c = 0; c < sizeof entries / sizeof *entries; c++) {
        memcpy(mem->data + G16N_WITNESS_MAP + 4, &entries[c], 4);
        int stop[2];
        for (int translated = 0; translated < 2; translated++) {
            memset(outs[translated], 0, 32u * n);
            inst->spent = 0;
            if (!translated) {
                stop[0] = glue_witness(inst, outs[0], 0, n);
                continue;
            }
            stop[1] = translated_witness(outs[1], n);
        }
        if (stop[0] != stop[1] || (!stop[0] && memcmp(outs[0], outs[1], 32u * n))) {
            printf("FAIL witness with map entry %u: glue stops %#x, translation %#x%s\n",
                   entries[c], stop[0], stop[1], stop[0] == stop[1] ? ", values differ" : "");
            failures++;
        }
    }
    inst->spent = 0;
    free(outs[0]);
    free(outs[1]);
    restore_runtime();
#endif
}

int main(void)
{
    int why;
    inst = glue_create(0, 0, NULL, &why);
    if (!inst) {
        printf("FAIL cannot instantiate\n");
        return 1;
    }
    mem = &inst->wasm.w2c_memory;
    memcpy(pristine, mem->data, sizeof pristine);
    saved = malloc(2 * 65536);
    native = malloc(2 * 65536);
    make_values();
    for (fn_id fn = ADD; fn <= MUL; fn++) binary_cases(fn);
    copy_cases();
    element_cases();
    pair_cases(LT);
    pair_cases(FR_ADD);
    reduce_cases();
    from_mont_cases();
    oob_cases();
    depth_cases();
    foreign_prime_cases();
    witness_value_cases();
    witness_bounds_cases();
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
    free(saved);
    free(native);
    glue_destroy(inst);
    return failures != 0;
}
