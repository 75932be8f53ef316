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
 *   same result), with the same values (a word the translation stores
 *   twice, Fr_F1m_add's sum then difference, is stored once, last value).
 * - Bounds: it checks each operand's whole range against the memory's size
 *   once, before touching memory, where the translation checks every
 *   access.  Every access of these functions is unconditional or lies
 *   inside a range whose last byte the function always touches, so it traps
 *   (WASM_RT_TRAP_OOB, the same error) exactly when the translation would;
 *   or, for the functions that dispatch on element types, it leaves any
 *   case near the end of memory to the translation.
 *   The translation may have stored some bytes before its trap: a trapped
 *   instance is never run again (glue.c destroys it), so nobody sees them.
 * - Call depth: the wrappers native_fr.c writes keep FUNC_PROLOGUE and call
 *   the runtime's other functions by name where the translation calls them;
 *   or, where they do the work of the translation's callees themselves
 *   (Fr_toInt, Fr_lt, Fr_add, Fr_F1m_add, Fr_F1m_mul,
 *   Fr_F1m_fromMontgomery), they
 *   first check that those calls would stay within
 *   WASM_RT_MAX_CALL_STACK_DEPTH, and else run the translation (called
 *   before their own FUNC_PROLOGUE), so the exhaustion trap comes where it
 *   came.
 * - Time: the wrappers have no G16W_TICK (ticks.c): their loops are
 *   bounded, and the runtime functions they call (Fr_toNormal calls
 *   Fr_F1m_fromMontgomery, which calls Fr_F1m_add, which calls the
 *   integer functions) never call back into them: no endless run goes
 *   through them alone.
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

/* Add-with-carry and subtract-with-borrow of 64-bit words: x86-64's own
 * (GCC turns its u128 sums into long sequences), else through u128. */
#if defined(__x86_64__)
#include <x86intrin.h>
#define G16N_ADC _addcarry_u64
#define G16N_SBB _subborrow_u64
#else
static inline unsigned char g16n_adc_u128(unsigned char c, unsigned long long a,
                                          unsigned long long b, unsigned long long *r)
{
    g16n_u128 s = (g16n_u128)a + b + c;
    *r = (unsigned long long)s;
    return (unsigned char)(s >> 64);
}

static inline unsigned char g16n_sbb_u128(unsigned char c, unsigned long long a,
                                          unsigned long long b, unsigned long long *r)
{
    g16n_u128 s = (g16n_u128)a - b - c;
    *r = (unsigned long long)s;
    return (unsigned char)(s >> 127);
}
#define G16N_ADC g16n_adc_u128
#define G16N_SBB g16n_sbb_u128
#endif

/* libg16's mulx/adcx/adox product (field_asm_x86.h, written beside this
 * file into each circuit's build), where the compiler can allocate its
 * registers as libg16's own build does; chosen at run time on CPUs with
 * BMI2 and ADX. */
#if defined(__x86_64__) && defined(__OPTIMIZE__) && !defined(__OPTIMIZE_SIZE__)
#define G16_HOT_INLINE static inline
#include "field_asm_x86.h"
#define G16N_ASM 1
#else
#define G16N_ASM 0
#endif

/* The product, inlined into each of its two callers (GCC kept it apart,
 * a call and its register moves in every Fr_F1m_mul). */
#define G16N_INLINE static inline __attribute__((always_inline))

/* The translation a wrapper falls back to when its native part does not
 * apply (rare): kept out of line, so that it does not weigh on the
 * wrapper's registers and frame. */
#define G16N_FALLBACK __attribute__((noinline, cold))

static inline void g16n_check(const wasm_rt_memory_t *m, uint64_t addr, uint64_t len)
{
    if (__builtin_expect(addr + len > m->size, 0)) wasm_rt_trap(WASM_RT_TRAP_OOB);
}

/* The accessors take the memory's data pointer, read once per function:
 * through m->data every store (a char store may alias anything) would
 * reload it. */
static inline uint32_t g16n_ld32(const uint8_t *d, uint64_t addr)
{
    uint32_t v;
    memcpy(&v, d + addr, 4);
    return v;
}

static inline void g16n_st32(uint8_t *d, uint64_t addr, uint32_t v) { memcpy(d + addr, &v, 4); }

static inline uint64_t g16n_ld64(const uint8_t *d, uint64_t addr)
{
    uint64_t v;
    memcpy(&v, d + addr, 8);
    return v;
}

static inline void g16n_st64(uint8_t *d, uint64_t addr, uint64_t v) { memcpy(d + addr, &v, 8); }

/* v, as a word the compiler must move alone: copies of operands and
 * results by word.  Merged into 16-byte moves, they would read words just
 * stored by 8 bytes, or store words just computed into a stack copy and
 * read it back by 16 bytes: a processor forwards neither from store to
 * load, and waits for the stores to reach its cache. */
static inline uint64_t g16n_word(uint64_t v)
{
    __asm__("" : "+r"(v));
    return v;
}

/* Four words from p, and to p, each moved alone (g16n_word): the words
 * a product or a sum takes and gives. */
static inline void g16n_ld4(const uint8_t *p, uint64_t v[4])
{
    for (int i = 0; i < 4; i++) v[i] = g16n_word(g16n_ld64(p, 8u * i));
}

static inline void g16n_st4(uint8_t *p, const uint64_t v[4])
{
    for (int i = 0; i < 4; i++) g16n_st64(p, 8u * i, g16n_word(v[i]));
}

/* Fr_copy (n = 5: a whole element) and Fr_int_copy (n = 4: the limbs):
 * 8-byte words in order, each stored before the next is loaded. */
static inline void g16n_copy(wasm_rt_memory_t *m, uint32_t r, uint32_t x, int n)
{
    g16n_check(m, x, 8u * n);
    g16n_check(m, r, 8u * n);
    uint8_t *d = m->data;
    /* word by word even when apart (g16n_word): x was mostly just stored so */
    for (int i = 0; i < n; i++) g16n_st64(d, r + 8u * i, g16n_word(g16n_ld64(d, x + 8u * i)));
}

static inline void g16n_zero(wasm_rt_memory_t *m, uint32_t r)
{
    g16n_check(m, r, 32);
    memset(m->data + r, 0, 32);
}

/* Whether r's 32 bytes can be written after all of x's are read with the
 * same result as the translation's word-by-word order: r is x or apart. */
static inline int g16n_in_order(uint32_t r, uint32_t x)
{
    return r == x || (uint64_t)r + 32 <= x || (uint64_t)x + 32 <= r;
}

/* Checks x, y and r (32 bytes each); whether r can be written after all
 * of x and y are read (g16n_in_order). */
static inline int g16n_operands(const wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r)
{
    g16n_check(m, x, 32);
    g16n_check(m, y, 32);
    g16n_check(m, r, 32);
    return g16n_in_order(r, x) && g16n_in_order(r, y);
}

/* name(d, x, y, r): x op y over four 64-bit words, op an add-with-carry
 * or subtract-with-borrow intrinsic; every load before the first store;
 * the final carry.  Written out: GCC keeps arrays, loops and u128 sums of
 * this in memory or in long sequences. */
#define G16N_CHAIN(name, op)                                                                       \
    static inline unsigned char name(uint8_t *d, uint32_t x, uint32_t y, uint32_t r)               \
    {                                                                                              \
        unsigned long long r0, r1, r2, r3;                                                         \
        unsigned char c = op(0, g16n_ld64(d, x), g16n_ld64(d, y), &r0);                            \
        c = op(c, g16n_ld64(d, x + 8u), g16n_ld64(d, y + 8u), &r1);                                \
        c = op(c, g16n_ld64(d, x + 16u), g16n_ld64(d, y + 16u), &r2);                              \
        c = op(c, g16n_ld64(d, x + 24u), g16n_ld64(d, y + 24u), &r3);                              \
        g16n_st64(d, r, r0);                                                                       \
        g16n_st64(d, r + 8u, r1);                                                                  \
        g16n_st64(d, r + 16u, r2);                                                                 \
        g16n_st64(d, r + 24u, r3);                                                                 \
        return c;                                                                                  \
    }
G16N_CHAIN(g16n_add4, G16N_ADC)
G16N_CHAIN(g16n_sub4, G16N_SBB)

/* Fr_int_add: 32-bit words, carry in the high half; returns the carry.
 * With operands that are the result or apart from it, 64-bit words. */
static inline uint32_t g16n_int_add(wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r)
{
    uint8_t *d = m->data;
    if (g16n_operands(m, x, y, r)) return g16n_add4(d, x, y, r);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) {
        c = (uint64_t)g16n_ld32(d, x + 4u * i) + g16n_ld32(d, y + 4u * i) + (c >> 32);
        g16n_st32(d, r + 4u * i, (uint32_t)c);
    }
    return (uint32_t)(c >> 32);
}

/* Fr_int_sub: the borrow travels as the arithmetic shift of a 64-bit
 * difference; returns its high half (0, or all ones after a borrow). */
static inline uint32_t g16n_int_sub(wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r)
{
    uint8_t *d = m->data;
    if (g16n_operands(m, x, y, r)) return g16n_sub4(d, x, y, r) ? 0xffffffffu : 0;
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t diff = (uint64_t)g16n_ld32(d, x + 4u * i) - g16n_ld32(d, y + 4u * i);
        c = diff + (i ? (uint64_t)((int64_t)c >> 32) : 0);
        g16n_st32(d, r + 4u * i, (uint32_t)c);
    }
    return (uint32_t)(uint64_t)((int64_t)c >> 32);
}

/* Fr_int_gt (how 0), Fr_int_gte (1) and Fr_int_eq (2): 64-bit words from
 * the top. */
static inline uint32_t g16n_int_cmp(const wasm_rt_memory_t *m, uint32_t x, uint32_t y, int how)
{
    g16n_check(m, x, 32);
    g16n_check(m, y, 32);
    const uint8_t *d = m->data;
    uint64_t a = g16n_ld64(d, x + 24u), b = g16n_ld64(d, y + 24u);
    if (a == b) {
        a = g16n_ld64(d, x + 16u), b = g16n_ld64(d, y + 16u);
        if (a == b) {
            a = g16n_ld64(d, x + 8u), b = g16n_ld64(d, y + 8u);
            if (a == b) {
                a = g16n_ld64(d, x), b = g16n_ld64(d, y);
                return how == 0 ? a > b : how == 1 ? a >= b : a == b;
            }
        }
    }
    return how != 2 && a > b;
}

/* The type byte of the element at a (bit 7: long form, bit 6: Montgomery),
 * after checking the first 8 bytes, which every reader of an element
 * touches (the short value, or the type word before the long limbs). */
static inline uint32_t g16n_type(const wasm_rt_memory_t *m, uint32_t a)
{
    g16n_check(m, a, 8);
    return m->data[(uint64_t)a + 7];
}

/* Fr_toNormal's own part: a long Montgomery element becomes long normal
 * (its type word set); 1 when its limbs then need fromMontgomery. */
static inline int g16n_to_normal(wasm_rt_memory_t *m, uint32_t a)
{
    uint32_t type = g16n_type(m, a);
    if (!(type & 64) || !(type & 128)) return 0;
    g16n_st32(m->data, (uint64_t)a + 4, 0x80000000u);
    return 1;
}

/* A 32-bit load at a's first limb (beyond the checked 8 bytes). */
static inline uint32_t g16n_limb32(const wasm_rt_memory_t *m, uint32_t a)
{
    g16n_check(m, (uint64_t)a + 8, 4);
    return g16n_ld32(m->data, (uint64_t)a + 8);
}

/* Fr_toInt's cases that store nothing: a short element that is not
 * negative, or a long one in normal form not above (p - 1) / 2 (the value
 * at half); *v is then its low word, as the translation's isNegative and
 * getLsb32 read it.  0 for the rest, which only the translation computes:
 * a negative value (negated through circom's scratch), a Montgomery one
 * (converted in place), an element or half near the end of memory (its
 * trap).  Needs (the caller checks) 3 more levels of call depth: toInt,
 * isNegative, then toNormal and int_gt. */
static inline int g16n_to_int(const wasm_rt_memory_t *m, uint32_t a, uint32_t half, uint32_t *v)
{
    if ((uint64_t)a + 40 > m->size || (uint64_t)half + 32 > m->size) return 0;
    const uint8_t *d = m->data;
    uint32_t type = d[(uint64_t)a + 7];
    if (!(type & 128)) {
        *v = g16n_ld32(d, a);
        return (int32_t)*v >= 0;
    }
    if ((type & 64) || g16n_int_cmp(m, a + 8u, half, 0)) return 0;
    *v = g16n_ld32(d, (uint64_t)a + 8);
    return 1;
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
    g16n_ld4(m->data + addr, p->q); /* by words: copied by 16, each word read back stalls */
    if ((uint32_t)p->q[0] * np32 != 0xffffffffu) return 0;
    uint64_t inv = (uint32_t)(0u - np32); /* p^-1 mod 2^32; one Newton step */
    inv *= 2 - p->q[0] * inv;             /* doubles its precision */
    p->np = 0 - inv;
    return 1;
}

/* 64 x 64 -> 128-bit product as (lo, hi). */
#define G16N_MUL(a, b, lo, hi)                                                                     \
    do {                                                                                           \
        g16n_u128 p_ = (g16n_u128)(a) * (b);                                                       \
        (lo) = (uint64_t)p_;                                                                       \
        (hi) = (uint64_t)(p_ >> 64);                                                               \
    } while (0)

/* t0..t4 (+ carry into t5) += (l0, l1, l2, l3) + (h0, h1, h2, h3) * 2^64:
 * two add-with-carry chains, which GCC compiles to adc (its u128 sums it
 * does not). */
#define G16N_ACC(l0, l1, l2, l3, h0, h1, h2, h3)                                                   \
    do {                                                                                           \
        unsigned char c_ = G16N_ADC(0, t0, l0, &t0);                                               \
        c_ = G16N_ADC(c_, t1, l1, &t1);                                                            \
        c_ = G16N_ADC(c_, t2, l2, &t2);                                                            \
        c_ = G16N_ADC(c_, t3, l3, &t3);                                                            \
        c_ = G16N_ADC(c_, t4, 0, &t4);                                                             \
        t5 += c_;                                                                                  \
        c_ = G16N_ADC(0, t1, h0, &t1);                                                             \
        c_ = G16N_ADC(c_, t2, h1, &t2);                                                            \
        c_ = G16N_ADC(c_, t3, h2, &t3);                                                            \
        c_ = G16N_ADC(c_, t4, h3, &t4);                                                            \
        t5 += c_;                                                                                  \
    } while (0)

/* One CIOS round on the words t0..t5 in scope: t = (t + a * bi + k p) /
 * 2^64 for the k that makes the division exact. */
#define G16N_ROUND(bi)                                                                             \
    do {                                                                                           \
        uint64_t l0_, l1_, l2_, l3_, h0_, h1_, h2_, h3_, k_;                                       \
        G16N_MUL(a0, bi, l0_, h0_);                                                                \
        G16N_MUL(a1, bi, l1_, h1_);                                                                \
        G16N_MUL(a2, bi, l2_, h2_);                                                                \
        G16N_MUL(a3, bi, l3_, h3_);                                                                \
        t5 = 0;                                                                                    \
        G16N_ACC(l0_, l1_, l2_, l3_, h0_, h1_, h2_, h3_);                                          \
        k_ = t0 * p->np;                                                                           \
        G16N_MUL(k_, p->q[0], l0_, h0_);                                                           \
        G16N_MUL(k_, p->q[1], l1_, h1_);                                                           \
        G16N_MUL(k_, p->q[2], l2_, h2_);                                                           \
        G16N_MUL(k_, p->q[3], l3_, h3_);                                                           \
        G16N_ACC(l0_, l1_, l2_, l3_, h0_, h1_, h2_, h3_);                                          \
        t0 = t1;                                                                                   \
        t1 = t2;                                                                                   \
        t2 = t3;                                                                                   \
        t3 = t4;                                                                                   \
        t4 = t5;                                                                                   \
    } while (0)

static inline int g16n_apart(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
    return (uint64_t)a + alen <= b || (uint64_t)b + blen <= a;
}

/* Fr_F1m_mul's product before its final subtraction: (a b + M p) / 2^256
 * for the M < 2^256 that makes the division exact (the same M whatever
 * the word size), its low 256 bits in t, bit 256 returned.  Through
 * libg16's mulx/adcx/adox code where it applies: its result is only
 * bounded (below 2p, so the same number) for a prime whose top word is
 * below 2^63 - 1 and operands below p, here those whose top word is below
 * p's; on other CPUs and for the rest, CIOS on scalars, which keeps
 * t < a + p < 2^257 after every round (GCC -O2 keeps arrays and loops of
 * it in memory). */
G16N_INLINE uint32_t g16n_mont_mul_words(const uint64_t a[4], const uint64_t b[4], uint64_t t[4],
                                         const g16n_prime *p)
{
#if G16N_ASM
    if (p->q[3] < 0x7fffffffffffffffu && a[3] < p->q[3] && b[3] < p->q[3] && g16_cpu_has_adx()) {
        g16_mont_mul4_adx(t, a, b, p->q, p->np);
        return 0;
    }
#endif
    uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    unsigned long long t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5; /* G16N_ADC's types */
    G16N_ROUND(b[0]);
    G16N_ROUND(b[1]);
    G16N_ROUND(b[2]);
    G16N_ROUND(b[3]);
    t[0] = t0, t[1] = t1, t[2] = t2, t[3] = t3;
    return (uint32_t)t4;
}

/* The same on the operands at x and y (checked by the caller), each
 * loaded by 64-bit words, all before any store. */
static inline uint32_t g16n_mont_mul(const uint8_t *d, uint32_t x, uint32_t y, uint64_t t[4],
                                     const g16n_prime *p)
{
    uint64_t a[4], b[4];
    g16n_ld4(d + x, a);
    g16n_ld4(d + y, b);
    return g16n_mont_mul_words(a, b, t, p);
}

/* Whether x, y, r and the prime at q (32 bytes each) are all in memory,
 * r is x or apart from it, the same for y, and r is apart from q: then the
 * sum or product can be stored once, after every load, with the
 * translation's final bytes. */
static inline int g16n_field_operands(const wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r,
                                      uint32_t q)
{
    return (uint64_t)x + 32 <= m->size && (uint64_t)y + 32 <= m->size &&
           (uint64_t)r + 32 <= m->size && (uint64_t)q + 32 <= m->size && g16n_in_order(r, x) &&
           g16n_in_order(r, y) && g16n_apart(r, 32, q, 32);
}

/* The final subtraction that Fr_F1m_add and Fr_F1m_mul end with: the
 * 257-bit value (c, s) less p when c is set or s is at least p (the
 * translation's int_sub, mod 2^256), else s, into r. */
static inline void g16n_sub_p(uint64_t r[4], const uint64_t s[4], unsigned char c,
                              const uint64_t q[4])
{
    unsigned long long t0, t1, t2, t3;
    unsigned char b = G16N_SBB(0, s[0], q[0], &t0);
    b = G16N_SBB(b, s[1], q[1], &t1);
    b = G16N_SBB(b, s[2], q[2], &t2);
    b = G16N_SBB(b, s[3], q[3], &t3);
    uint64_t keep = 0 - (uint64_t)(!c && b); /* no carry and below p: s stays */
    r[0] = t0 ^ ((s[0] ^ t0) & keep);
    r[1] = t1 ^ ((s[1] ^ t1) & keep);
    r[2] = t2 ^ ((s[2] ^ t2) & keep);
    r[3] = t3 ^ ((s[3] ^ t3) & keep);
}

/* The same, stored once at pr, word by word (g16n_st4: GCC otherwise
 * puts the words on the stack and moves them by 16 bytes, waiting for
 * the stores to forward, a quarter of the product's time). */
static inline void g16n_sub_p_store(uint8_t *pr, const uint64_t s[4], unsigned char c,
                                    const uint64_t q[4])
{
    uint64_t r[4];
    g16n_sub_p(r, s, c, q);
    g16n_st4(pr, r);
}

/* Fr_F1m_mul's whole effect when r is x or apart from it, the same for y,
 * and r is apart from the prime at q: the product, then its final
 * subtraction, stored once (the translation stores the product at r,
 * then maybe the difference: the same final bytes); every operand word is
 * loaded before the store, as in the translation.  0, having touched
 * nothing, for the rest.  p is the prime at q, read for this call
 * (g16n_prime_load).  Needs (the caller checks) 2 more levels of call
 * depth: F1m_mul, then int_gte and int_sub. */
static inline int g16n_f1m_mul(wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r, uint32_t q,
                               const g16n_prime *p)
{
    if (!g16n_field_operands(m, x, y, r, q)) return 0;
    uint64_t t[4];
    unsigned char c = (unsigned char)g16n_mont_mul(m->data, x, y, t, p);
    g16n_sub_p_store(m->data + r, t, c, p->q); /* p->q: q's bytes, read for this call */
    return 1;
}

/* One round of Fr_F1m_mReduct on the 8 words w[i..i+7] held as the
 * 64-bit words a0..a3: a + k p for k = w[i] np32 mod 2^32, the low 256
 * bits left in a0..a3, the carry above them (below 2^32: a < 2^256 and
 * k p < 2^32 2^256) returned: what the translation's inner loop adds and
 * carries.  k p's words as low and high halves, two carry chains. */
static inline uint32_t g16n_mreduct_round(unsigned long long *a0, unsigned long long *a1,
                                          unsigned long long *a2, unsigned long long *a3,
                                          const uint64_t q[4], uint32_t np32)
{
    uint64_t k = (uint32_t)((uint32_t)*a0 * np32), l0, l1, l2, l3, h0, h1, h2, h3;
    G16N_MUL(k, q[0], l0, h0);
    G16N_MUL(k, q[1], l1, h1);
    G16N_MUL(k, q[2], l2, h2);
    G16N_MUL(k, q[3], l3, h3);
    unsigned long long top = 0;
    unsigned char c = G16N_ADC(0, *a0, l0, a0);
    c = G16N_ADC(c, *a1, l1, a1);
    c = G16N_ADC(c, *a2, l2, a2);
    c = G16N_ADC(c, *a3, l3, a3);
    top = c;
    c = G16N_ADC(0, *a1, h0, a1);
    c = G16N_ADC(c, *a2, h1, a2);
    c = G16N_ADC(c, *a3, h2, a3);
    return (uint32_t)(top + h3 + c);
}

/* Fr_F1m_mReduct's rounds on registers: the 8 low words (lo, the 4
 * 64-bit words a0..a3) and the 8 high words hi of t; round i adds k p to
 * the 8 words from w[i] and keeps the carry out of w[i+7] apart, in cv[i];
 * w[i+8] is still the input's then.  So the 8 words are 4 64-bit words
 * that move by a 32-bit shift a round, w[i] (0 for circom's np32) put
 * aside in low[i]: any np32 gives the translation's words.  The high half
 * is left in a0..a3. */
static inline void g16n_mreduct_rounds(unsigned long long a[4], const uint32_t hi[8],
                                       const uint64_t p[4], uint32_t np32, uint32_t low[8],
                                       uint32_t cv[8])
{
    unsigned long long a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        cv[i] = g16n_mreduct_round(&a0, &a1, &a2, &a3, p, np32);
        low[i] = (uint32_t)a0;
        a0 = a0 >> 32 | a1 << 32;
        a1 = a1 >> 32 | a2 << 32;
        a2 = a2 >> 32 | a3 << 32;
        a3 = a3 >> 32 | (uint64_t)hi[i] << 32;
    }
    a[0] = a0, a[1] = a1, a[2] = a2, a[3] = a3;
}

/* The reduction's stores: t's low words, its high half, the carries, by
 * 64-bit words (g16n_word). */
static inline void g16n_mreduct_store(uint8_t *d, uint32_t t, uint32_t carries,
                                      const unsigned long long a[4], const uint32_t low[8],
                                      const uint32_t cv[8])
{
    for (uint32_t j = 0; j < 4; j++) {
        g16n_st64(d, t + 8u * j, g16n_word(low[2 * j] | (uint64_t)low[2 * j + 1] << 32));
        g16n_st64(d, t + 32u + 8u * j, g16n_word(a[j]));
        g16n_st64(d, carries + 8u * j, g16n_word(cv[2 * j] | (uint64_t)cv[2 * j + 1] << 32));
    }
}

/* Fr_F1m_mReduct's own part (the wrapper adds its final Fr_F1m_add):
 * word-by-word Montgomery reduction of the 64 bytes at t by the prime at
 * q, in place, each round's carry stored at carries + 4 i.  When the three
 * regions are apart (circom's are) on registers, g16n_mreduct_rounds; else
 * in memory in the translation's order. */
static inline void g16n_mreduct(wasm_rt_memory_t *m, uint32_t t, uint32_t q, uint32_t carries,
                                uint32_t np32)
{
    g16n_check(m, t, 64);
    g16n_check(m, q, 32);
    g16n_check(m, carries, 32);
    uint8_t *d = m->data;
    if (g16n_apart(t, 64, q, 32) && g16n_apart(t, 64, carries, 32) &&
        g16n_apart(q, 32, carries, 32)) {
        uint64_t p[4];
        uint32_t hi[8], low[8], cv[8];
        unsigned long long a[4];
        memcpy(p, d + q, 32);
        memcpy(a, d + t, 32);
        memcpy(hi, d + t + 32u, 32);
        g16n_mreduct_rounds(a, hi, p, np32, low, cv);
        g16n_mreduct_store(d, t, carries, a, low, cv);
        return;
    }
    for (uint32_t i = 0; i < 8; i++) {
        uint64_t c = 0, k = (g16n_ld32(d, t + 4u * i) * (uint64_t)np32) & 0xffffffffu;
        for (uint32_t j = 0; j < 8; j++) {
            c = g16n_ld32(d, t + 4u * (i + j)) + (c >> 32) + g16n_ld32(d, q + 4u * j) * k;
            g16n_st32(d, t + 4u * (i + j), (uint32_t)c);
        }
        g16n_st32(d, carries + 4u * i, (uint32_t)(c >> 32));
    }
}

/* Fr_F1m_fromMontgomery's copy and reduction: Fr_int_copy(x -> t),
 * Fr_int_zero(t + 32), then Fr_F1m_mReduct's rounds on t (the prime at q,
 * the carries at carries), for circom's t, q and carries (apart, all in
 * memory) and an x in memory apart from t's low half (else the copy's
 * order matters): x's words taken into registers, the zeros never read
 * back, the final words of t and the carries stored.  The wrapper adds the
 * reduction's Fr_F1m_add.  0, having touched nothing, for the rest. */
static inline int g16n_from_mont(wasm_rt_memory_t *m, uint32_t x, uint32_t t, uint32_t q,
                                 uint32_t carries, uint32_t np32)
{
    if ((uint64_t)x + 32 > m->size || (uint64_t)t + 64 > m->size || (uint64_t)q + 32 > m->size ||
        (uint64_t)carries + 32 > m->size || !g16n_apart(x, 32, t, 32) ||
        !g16n_apart(t, 64, q, 32) || !g16n_apart(t, 64, carries, 32) ||
        !g16n_apart(q, 32, carries, 32))
        return 0;
    uint8_t *d = m->data;
    static const uint32_t zeros[8];
    uint64_t p[4];
    uint32_t low[8], cv[8];
    unsigned long long a[4];
    memcpy(p, d + q, 32);
    for (uint32_t j = 0; j < 4; j++) a[j] = g16n_word(g16n_ld64(d, x + 8u * j));
    g16n_mreduct_rounds(a, zeros, p, np32, low, cv);
    g16n_mreduct_store(d, t, carries, a, low, cv);
    return 1;
}

/* Whether the element at a is one Fr_lt's native part takes: short and
 * above 0 (rawCopyS2L then stores it long with no further call), or long
 * in normal form; a Montgomery element is converted through memory and a
 * short one at or below 0 negated, by the translation only. */
static inline int g16n_lt_operand(const uint8_t *d, uint32_t a)
{
    return d[(uint64_t)a + 7] & 128 ? !(d[(uint64_t)a + 7] & 64) : (int32_t)g16n_ld32(d, a) > 0;
}

/* Fr_eqR's conversion of a short element beside a long one (rawCopyS2L
 * of a value above 0, then the long-normal type word). */
static inline void g16n_short_to_long(uint8_t *d, uint32_t a)
{
    uint64_t v = g16n_ld32(d, a);
    g16n_st64(d, (uint64_t)a + 8, v);
    memset(d + (uint64_t)a + 16, 0, 24);
    g16n_st32(d, (uint64_t)a + 4, 0x80000000u);
}

/* Fr_gtR on two long normal elements: by sign (above half is negative),
 * then by value. */
static inline int g16n_gt_long(const wasm_rt_memory_t *m, uint32_t a, uint32_t b, uint32_t half)
{
    int neg_a = g16n_int_cmp(m, a + 8u, half, 0), neg_b = g16n_int_cmp(m, b + 8u, half, 0);
    if (neg_a != neg_b) return neg_b;
    return g16n_int_cmp(m, a + 8u, b + 8u, 0);
}

/* Fr_lt (r = a < b as a short element, the field's values read as signed
 * by half) for operands that g16n_lt_operand takes, the same element or
 * apart, all in memory: eqR's conversion of a short operand beside a long
 * one, its comparison, gtR's, and r's 8 bytes stored last, as the
 * translation does.  0, having touched nothing, for the rest.  Needs (the
 * caller checks) 4 more levels of call depth: lt, gtR, isNegative, int_gt. */
static inline int g16n_lt(wasm_rt_memory_t *m, uint32_t r, uint32_t a, uint32_t b, uint32_t half)
{
    if ((uint64_t)a + 40 > m->size || (uint64_t)b + 40 > m->size || (uint64_t)r + 8 > m->size ||
        (uint64_t)half + 32 > m->size || (a != b && !g16n_apart(a, 40, b, 40)))
        return 0;
    uint8_t *d = m->data;
    int long_a = d[(uint64_t)a + 7] & 128, long_b = d[(uint64_t)b + 7] & 128, lt;
    if (!long_a && !long_b) {
        lt = (int32_t)g16n_ld32(d, a) < (int32_t)g16n_ld32(d, b);
    } else {
        if (!g16n_lt_operand(d, a) || !g16n_lt_operand(d, b)) return 0;
        if (!long_a) g16n_short_to_long(d, a);
        if (!long_b) g16n_short_to_long(d, b);
        lt = !g16n_int_cmp(m, a + 8u, b + 8u, 2) && !g16n_gt_long(m, a, b, half);
    }
    g16n_st64(d, r, (uint64_t)lt);
    return 1;
}

/* Fr_F1m_add's whole effect when r is x or apart from it, the same for y,
 * and r is apart from the prime at q: x + y mod 2^256, less p (mod 2^256)
 * when the sum carries or is at least p, stored once (the translation
 * stores the sum at r, then maybe the difference: the same final bytes).
 * 0, having touched nothing, for the rest.  Needs (the caller checks) 2
 * more levels of call depth: F1m_add, then int_add, int_gte, int_sub. */
static inline int g16n_f1m_add(wasm_rt_memory_t *m, uint32_t x, uint32_t y, uint32_t r, uint32_t q)
{
    if (!g16n_field_operands(m, x, y, r, q)) return 0;
    /* pointers: offsets from them fold into the loads (x + 8u, a 32-bit
     * sum, would be computed apart) */
    const uint8_t *px = m->data + x, *py = m->data + y;
    unsigned long long s0, s1, s2, s3;
    unsigned char c = G16N_ADC(0, g16n_ld64(px, 0), g16n_ld64(py, 0), &s0);
    c = G16N_ADC(c, g16n_ld64(px, 8), g16n_ld64(py, 8), &s1);
    c = G16N_ADC(c, g16n_ld64(px, 16), g16n_ld64(py, 16), &s2);
    c = G16N_ADC(c, g16n_ld64(px, 24), g16n_ld64(py, 24), &s3);
    const uint64_t s[4] = {s0, s1, s2, s3};
    uint64_t p[4];
    g16n_ld4(m->data + q, p);
    g16n_sub_p_store(m->data + r, s, c, p);
    return 1;
}

/* Fr_add's own part for two long elements both in Montgomery form or both
 * in normal form: r's type word stored, as the translation stores it
 * before it adds the limbs (the caller then does, through Fr_F1m_add's
 * native part or its wrapper, whose checks see any overlap); 0, having
 * touched nothing, for the rest (conversions, short elements, a type
 * byte or r's type word beyond memory). */
static inline int g16n_add_type(wasm_rt_memory_t *m, uint32_t r, uint32_t a, uint32_t b)
{
    if ((uint64_t)a + 8 > m->size || (uint64_t)b + 8 > m->size || (uint64_t)r + 8 > m->size)
        return 0;
    uint8_t *d = m->data;
    uint32_t ta = d[(uint64_t)a + 7], tb = d[(uint64_t)b + 7];
    if (!(ta & 128) || !(tb & 128) || (ta & 64) != (tb & 64)) return 0;
    g16n_st32(d, (uint64_t)r + 4, ta & 64 ? 0xc0000000u : 0x80000000u);
    return 1;
}

/* The value circom's getWitness leaves in its shared memory for the
 * element at s (40 bytes in memory, checked by the caller), as
 * Fr_toLongNormal makes it long and normal there: a long normal
 * element's limbs as they are; a long Montgomery one's x as
 * Fr_F1m_fromMontgomery reduces it, with the prime at 608 (p, np checked
 * by g16n_prime_load): u = (x + M p) / 2^256, which is at most p, and
 * its final addition's subtraction, 0 for u = p; a short element above 0
 * as its one word (Fr_rawCopyS2L).  0 for a short element at or below 0,
 * which rawCopyS2L negates through the field's code: the translation
 * computes those. */
static inline int g16n_witness_value(const uint8_t *d, uint32_t s, const g16n_prime *p,
                                     uint64_t v[4])
{
    static const uint64_t one[4] = {1, 0, 0, 0};
    uint32_t type = d[(uint64_t)s + 7];
    if (!(type & 128)) {
        int32_t x = (int32_t)g16n_ld32(d, s);
        if (x <= 0) return 0;
        v[0] = (uint64_t)x, v[1] = v[2] = v[3] = 0;
        return 1;
    }
    uint64_t x[4], u[4];
    for (int i = 0; i < 4; i++) x[i] = g16n_ld64(d, (uint64_t)s + 8 + 8u * i);
    if (!(type & 64)) {
        memcpy(v, x, sizeof x);
        return 1;
    }
    g16n_mont_mul_words(x, one, u, p); /* bit 256 is 0: u <= p */
    g16n_sub_p(v, u, 0, p->q);
    return 1;
}
