/* Native code for circom's field runtime, compiled into each circuit's
 * shared object with glue.c (embedded as text like it; not part of libg16's
 * build).  native_fr.c rewrites wasm2c's output so that the runtime
 * functions it recognises call these in place of their translation; the
 * translation stays beside them (renamed "<name>_wasm") for the cases
 * below and for the tests.
 *
 * Contract: a replacement has the same effect as the translated function
 * on everything a later instruction can observe.
 * - Memory: it reads and writes the same bytes, each store after the loads
 *   that precede it in the translation (so overlapping operands give the
 *   same result), with the same values.
 * - Bounds: it checks each operand's whole range against the memory's size
 *   once, before touching memory, where the translation checks every
 *   access.  Every access of these functions is unconditional or lies
 *   inside a range whose last byte the function always touches, so it traps
 *   (WASM_RT_TRAP_OOB, the same error) exactly when the translation would.
 *   The translation may have stored some bytes before its trap: a trapped
 *   instance is never run again (glue.c destroys it), so nobody sees them.
 * - Call depth: the wrappers native_fr.c writes keep FUNC_PROLOGUE and call
 *   the runtime's other functions by name where the translation calls them.
 * - Field: circom's long elements hold 8 little-endian 32-bit words, the
 *   Montgomery form uses R = 2^256, and the prime is the one in the
 *   instance's memory at the address the translation reads it from.  The
 *   product needs -p^-1 mod 2^64; when the translation's constant
 *   -p^-1 mod 2^32 does not fit the prime in memory (not a circom circuit,
 *   or memory overwritten) the wrapper runs the translation instead.
 * Little-endian hosts only, as the rest of the glue. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the native field code assumes a little-endian host"
#endif

typedef unsigned __int128 g16n_u128;

static inline void g16n_check(const wasm_rt_memory_t *m, uint64_t addr, uint64_t len)
{
    if (__builtin_expect(addr + len > m->size, 0)) wasm_rt_trap(WASM_RT_TRAP_OOB);
}

static inline uint32_t g16n_ld32(const wasm_rt_memory_t *m, uint64_t addr)
{
    uint32_t v;
    memcpy(&v, m->data + addr, 4);
    return v;
}

static inline void g16n_st32(wasm_rt_memory_t *m, uint64_t addr, uint32_t v)
{
    memcpy(m->data + addr, &v, 4);
}

static inline uint64_t g16n_ld64(const wasm_rt_memory_t *m, uint64_t addr)
{
    uint64_t v;
    memcpy(&v, m->data + addr, 8);
    return v;
}

static inline void g16n_st64(wasm_rt_memory_t *m, uint64_t addr, uint64_t v)
{
    memcpy(m->data + addr, &v, 8);
}

/* Fr_copy (n = 5: a whole element) and Fr_int_copy (n = 4: the limbs):
 * 8-byte words in order, each stored before the next is loaded. */
static inline void g16n_copy(wasm_rt_memory_t *m, uint32_t r, uint32_t x, int n)
{
    g16n_check(m, x, 8u * n);
    g16n_check(m, r, 8u * n);
    for (int i = 0; i < n; i++) g16n_st64(m, r + 8u * i, g16n_ld64(m, x + 8u * i));
}

static inline void g16n_zero(wasm_rt_memory_t *m, uint32_t r)
{
    g16n_check(m, r, 32);
    for (int i = 0; i < 4; i++) g16n_st64(m, r + 8u * i, 0);
}

/* Fr_int_add: 32-bit words, carry in the high half; returns the carry. */
static inline uint32_t g16n_int_add(wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r)
{
    g16n_check(m, x, 32);
    g16n_check(m, y, 32);
    g16n_check(m, r, 32);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) {
        c = (uint64_t)g16n_ld32(m, x + 4u * i) + g16n_ld32(m, y + 4u * i) + (c >> 32);
        g16n_st32(m, r + 4u * i, (uint32_t)c);
    }
    return (uint32_t)(c >> 32);
}

/* Fr_int_sub: the borrow travels as the arithmetic shift of a 64-bit
 * difference; returns its high half (0 or all ones). */
static inline uint32_t g16n_int_sub(wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r)
{
    g16n_check(m, x, 32);
    g16n_check(m, y, 32);
    g16n_check(m, r, 32);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t d = (uint64_t)g16n_ld32(m, x + 4u * i) - g16n_ld32(m, y + 4u * i);
        c = d + (i ? (uint64_t)((int64_t)c >> 32) : 0);
        g16n_st32(m, r + 4u * i, (uint32_t)c);
    }
    return (uint32_t)(uint64_t)((int64_t)c >> 32);
}

/* Fr_int_gt (or_equal 0) and Fr_int_gte (1): 64-bit words from the top. */
static inline uint32_t g16n_int_cmp(const wasm_rt_memory_t *m, uint32_t x, uint32_t y, int or_equal)
{
    g16n_check(m, x, 32);
    g16n_check(m, y, 32);
    for (int i = 3; i > 0; i--) {
        uint64_t a = g16n_ld64(m, x + 8u * i), b = g16n_ld64(m, y + 8u * i);
        if (a != b) return a > b;
    }
    uint64_t a = g16n_ld64(m, x), b = g16n_ld64(m, y);
    return or_equal ? a >= b : a > b;
}

/* The prime the product reduces by and -p^-1 mod 2^64. */
typedef struct {
    uint64_t q[4], np;
} g16n_prime;

/* Reads the prime at addr; 0 when it is not in memory or np32 is not
 * -p^-1 mod 2^32 (then only the translation computes what it computes). */
static inline int g16n_prime_load(const wasm_rt_memory_t *m, uint32_t addr, uint32_t np32,
                                  g16n_prime *p)
{
    if ((uint64_t)addr + 32 > m->size) return 0;
    memcpy(p->q, m->data + addr, 32);
    if ((uint32_t)p->q[0] * np32 != 0xffffffffu) return 0;
    uint64_t inv = (uint32_t)(0u - np32); /* p^-1 mod 2^32; one Newton step */
    inv *= 2 - p->q[0] * inv;             /* doubles its precision */
    p->np = 0 - inv;
    return 1;
}

/* Fr_F1m_mul without its final subtraction: r = (x y + M p) / 2^256 for
 * the M < 2^256 that makes the division exact (the same M whatever the
 * word size), the low 256 bits stored at r, bit 256 returned.  The
 * translation loads every operand word before its first store, as this
 * does.  CIOS keeps t < x + p < 2^257 after every round. */
static inline uint32_t g16n_mont_mul(wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r,
                                     const g16n_prime *p)
{
    g16n_check(m, x, 32);
    g16n_check(m, y, 32);
    g16n_check(m, r, 32);
    uint64_t a[4], b[4], t[6] = {0};
    memcpy(a, m->data + x, 32);
    memcpy(b, m->data + y, 32);
    /* Unrolled: as loops GCC keeps t in memory (five times slower). */
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        uint64_t c = 0;
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) {
            g16n_u128 s = (g16n_u128)a[j] * b[i] + t[j] + c;
            t[j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        g16n_u128 s = (g16n_u128)t[4] + c;
        t[4] = (uint64_t)s;
        t[5] = (uint64_t)(s >> 64);
        uint64_t k = t[0] * p->np;
        s = (g16n_u128)k * p->q[0] + t[0];
        c = (uint64_t)(s >> 64);
#pragma GCC unroll 3
        for (int j = 1; j < 4; j++) {
            s = (g16n_u128)k * p->q[j] + t[j] + c;
            t[j - 1] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        s = (g16n_u128)t[4] + c;
        t[3] = (uint64_t)s;
        t[4] = t[5] + (uint64_t)(s >> 64);
    }
    memcpy(m->data + r, t, 32);
    return (uint32_t)t[4];
}
