/* One prime field, stamped out by field.h (no include guard on purpose).
 * Expects FIELD (name prefix and type name), FIELD_N (limbs), FIELD_P,
 * FIELD_R2, FIELD_ONE (limb lists) and FIELD_INV (-p^-1 mod 2^64).
 * The Montgomery product below is the "no-carry" CIOS variant: it is exact
 * because every modulus here has its top limb below 2^63 - 1, which also
 * lets add work without a carry-out word (a + b < 2p < 2^(64N)). */

#define F_(name) G16_CAT(FIELD, _##name)

typedef struct {
    uint64_t v[FIELD_N];
} FIELD;

static const FIELD F_(modulus) = {{FIELD_P}};
static const FIELD F_(r2) = {{FIELD_R2}};
static const FIELD F_(mont_one) = {{FIELD_ONE}};
enum { F_(limbs) = FIELD_N, F_(bytes) = 8 * FIELD_N };

static inline void F_(zero)(FIELD *r) { memset(r, 0, sizeof *r); }
static inline void F_(one)(FIELD *r) { *r = F_(mont_one); }
static inline void F_(copy)(FIELD *r, const FIELD *a) { *r = *a; }

static inline int F_(is_zero)(const FIELD *a)
{
    uint64_t acc = 0;
    for (int i = 0; i < FIELD_N; i++) acc |= a->v[i];
    return acc == 0;
}

static inline int F_(eq)(const FIELD *a, const FIELD *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FIELD_N; i++) acc |= a->v[i] ^ b->v[i];
    return acc == 0;
}

/* a >= p, for limbs that may hold values up to 2^(64N) - 1. */
static inline int F_(geq_modulus)(const uint64_t *a)
{
    for (int i = FIELD_N - 1; i >= 0; i--) {
        if (a[i] != F_(modulus).v[i]) return a[i] > F_(modulus).v[i];
    }
    return 1;
}

static inline int F_(is_canonical)(const FIELD *a) { return !F_(geq_modulus)(a->v); }

/* r = a - p when a >= p.  Computes the subtraction always and selects with
 * g16_select (cmov), so no branch depends on the value. */
G16_HOT_INLINE void F_(reduce_once)(FIELD *r, const uint64_t *a)
{
    uint64_t t[FIELD_N];
    unsigned char borrow = 0;
    for (int i = 0; i < FIELD_N; i++) borrow = g16_subb(borrow, a[i], F_(modulus).v[i], &t[i]);
    for (int i = 0; i < FIELD_N; i++) r->v[i] = g16_select(borrow, a[i], t[i]); /* borrow: a < p */
}

G16_HOT_INLINE void F_(add)(FIELD *r, const FIELD *a, const FIELD *b)
{
    uint64_t s[FIELD_N];
    unsigned char carry = 0;
    for (int i = 0; i < FIELD_N; i++) carry = g16_addc(carry, a->v[i], b->v[i], &s[i]);
    F_(reduce_once)(r, s);
}

G16_HOT_INLINE void F_(sub)(FIELD *r, const FIELD *a, const FIELD *b)
{
    uint64_t d[FIELD_N];
    unsigned char borrow = 0, carry = 0;
    for (int i = 0; i < FIELD_N; i++) borrow = g16_subb(borrow, a->v[i], b->v[i], &d[i]);
    uint64_t mask = (uint64_t)0 - borrow; /* add p back when it went negative */
    for (int i = 0; i < FIELD_N; i++)
        carry = g16_addc(carry, d[i], F_(modulus).v[i] & mask, &r->v[i]);
}

G16_HOT_INLINE void F_(dbl)(FIELD *r, const FIELD *a) { F_(add)(r, a, a); }

static inline void F_(neg)(FIELD *r, const FIELD *a)
{
    FIELD z;
    F_(zero)(&z);
    F_(sub)(r, &z, a);
}

G16_HOT_INLINE void F_(mul)(FIELD *r, const FIELD *a, const FIELD *b)
{
    uint64_t t[FIELD_N] = {0};
#if G16_CAT(G16_FIELD_ASM_LIMBS_, FIELD_N)
    if (g16_cpu_has_adx()) {
        G16_CAT(G16_CAT(g16_mont_mul, FIELD_N), _adx)(t, a->v, b->v, F_(modulus).v, FIELD_INV);
        F_(reduce_once)(r, t);
        return;
    }
#endif
    for (int i = 0; i < FIELD_N; i++) {
        g16_u128 x = (g16_u128)a->v[0] * b->v[i] + t[0];
        uint64_t carry_a = (uint64_t)(x >> 64);
        t[0] = (uint64_t)x;
        uint64_t m = t[0] * (uint64_t)FIELD_INV;
        g16_u128 y = (g16_u128)m * F_(modulus).v[0] + t[0];
        uint64_t carry_m = (uint64_t)(y >> 64);
        for (int j = 1; j < FIELD_N; j++) {
            x = (g16_u128)a->v[j] * b->v[i] + t[j] + carry_a;
            carry_a = (uint64_t)(x >> 64);
            y = (g16_u128)m * F_(modulus).v[j] + (uint64_t)x + carry_m;
            carry_m = (uint64_t)(y >> 64);
            t[j - 1] = (uint64_t)y;
        }
        t[FIELD_N - 1] = carry_a + carry_m;
    }
    F_(reduce_once)(r, t);
}

G16_HOT_INLINE void F_(sqr)(FIELD *r, const FIELD *a) { F_(mul)(r, a, a); }

static inline void F_(from_plain)(FIELD *r, const FIELD *a) { F_(mul)(r, a, &F_(r2)); }

static inline void F_(to_plain)(FIELD *r, const FIELD *a)
{
    FIELD plain_one = {{1}};
    F_(mul)(r, a, &plain_one);
}

static inline void F_(from_u64)(FIELD *r, uint64_t x)
{
    FIELD t;
    F_(zero)(&t);
    t.v[0] = x;
    F_(from_plain)(r, &t);
}

/* r = a^e, e given as little-endian limbs.  Square-and-multiply over every
 * bit of e, so the time depends on e's length only. */
static inline void F_(pow)(FIELD *r, const FIELD *a, const uint64_t *e, int e_limbs)
{
    FIELD acc, base = *a;
    F_(one)(&acc);
    for (int i = 64 * e_limbs - 1; i >= 0; i--) {
        F_(sqr)(&acc, &acc);
        FIELD t;
        F_(mul)(&t, &acc, &base);
        uint64_t bit = (e[i / 64] >> (i % 64)) & 1, mask = (uint64_t)0 - bit;
        for (int k = 0; k < FIELD_N; k++) acc.v[k] = (t.v[k] & mask) | (acc.v[k] & ~mask);
    }
    *r = acc;
}

/* p - k for small k, used to form the exponents p - 2 and (p - 1) / 2. */
static inline void F_(modulus_minus)(uint64_t *out, uint64_t k)
{
    uint64_t borrow = k;
    for (int i = 0; i < FIELD_N; i++) {
        g16_u128 d = (g16_u128)F_(modulus).v[i] - borrow;
        out[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}

static inline void F_(shift_right)(uint64_t *x, int bits)
{
    for (int i = 0; i < FIELD_N; i++) {
        uint64_t hi = i + 1 < FIELD_N ? x[i + 1] : 0;
        x[i] = bits ? (x[i] >> bits) | (hi << (64 - bits)) : x[i];
    }
}

/* r = a^e for an exponent that is not secret: 4-bit fixed windows, about
 * 64·e_limbs squarings and 16·e_limbs multiplications where F_(pow) needs
 * 64·e_limbs of each.  Which multiplications run and which table entries
 * they read depend on e alone, so the time is still independent of a. */
static inline void F_(pow_public)(FIELD *r, const FIELD *a, const uint64_t *e, int e_limbs)
{
    FIELD tab[16], acc;
    int started = 0;
    F_(one)(&tab[0]);
    for (int i = 1; i < 16; i++) F_(mul)(&tab[i], &tab[i - 1], a);
    F_(one)(&acc);
    for (int i = 16 * e_limbs - 1; i >= 0; i--) {
        unsigned d = (unsigned)(e[i / 16] >> (4 * (i % 16))) & 15;
        if (started)
            for (int k = 0; k < 4; k++) F_(sqr)(&acc, &acc);
        if (d) {
            if (started)
                F_(mul)(&acc, &acc, &tab[d]);
            else
                acc = tab[d];
            started = 1;
        }
    }
    *r = acc;
}

/* Fermat: a^(p-2), the exponent being public (pow_public).  Maps 0 to 0,
 * which callers that batch inversions rely on to skip points at infinity.
 * It is the MSM's batch-inversion cost, so the cheaper chain pays there. */
static inline void F_(inv)(FIELD *r, const FIELD *a)
{
    uint64_t e[FIELD_N];
    F_(modulus_minus)(e, 2);
    F_(pow_public)(r, a, e, FIELD_N);
}

/* Euler's criterion: 1 for a non-zero square, -1 for a non-square, 0 for 0. */
static inline int F_(legendre)(const FIELD *a)
{
    uint64_t e[FIELD_N];
    FIELD t, one, minus_one;
    F_(modulus_minus)(e, 1);
    F_(shift_right)(e, 1);
    F_(pow)(&t, a, e, FIELD_N);
    F_(one)(&one);
    F_(neg)(&minus_one, &one);
    if (F_(eq)(&t, &one)) return 1;
    return F_(eq)(&t, &minus_one) ? -1 : 0;
}

/* Tonelli-Shanks (it degenerates to a^((p+1)/4) when p = 3 mod 4).
 * Returns 1 and a root in r, or 0 when a is not a square. */
static inline int F_(sqrt)(FIELD *r, const FIELD *a)
{
    if (F_(is_zero)(a)) {
        F_(zero)(r);
        return 1;
    }
    if (F_(legendre)(a) != 1) return 0;
    uint64_t q[FIELD_N];
    int s = 0;
    F_(modulus_minus)(q, 1);
    while (!(q[0] & 1)) {
        F_(shift_right)(q, 1);
        s++;
    }
    FIELD z; /* any non-residue */
    for (uint64_t k = 2;; k++) {
        F_(from_u64)(&z, k);
        if (F_(legendre)(&z) == -1) break;
    }
    FIELD c, t, x, b;
    F_(pow)(&c, &z, q, FIELD_N);
    F_(pow)(&t, a, q, FIELD_N);
    uint64_t q1[FIELD_N]; /* (q + 1) / 2 */
    memcpy(q1, q, sizeof q1);
    F_(shift_right)(q1, 1);
    for (int i = 0; i < FIELD_N && ++q1[i] == 0; i++) /* q odd: (q+1)/2 = (q>>1) + 1 */
        ;
    F_(pow)(&x, a, q1, FIELD_N);
    FIELD one;
    F_(one)(&one);
    while (!F_(eq)(&t, &one)) {
        int i = 0;
        FIELD t2 = t;
        while (!F_(eq)(&t2, &one)) {
            F_(sqr)(&t2, &t2);
            i++;
        }
        b = c;
        for (int j = 0; j < s - i - 1; j++) F_(sqr)(&b, &b);
        s = i;
        F_(sqr)(&c, &b);
        F_(mul)(&t, &t, &c);
        F_(mul)(&x, &x, &b);
    }
    *r = x;
    return 1;
}

/* Canonical little-endian bytes of the plain value (n8 = 8N bytes). */
static inline int F_(from_bytes)(FIELD *r, const uint8_t *in)
{
    FIELD t;
    for (int i = 0; i < FIELD_N; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) w = (w << 8) | in[8 * i + b];
        t.v[i] = w;
    }
    if (!F_(is_canonical)(&t)) return 0;
    F_(from_plain)(r, &t);
    return 1;
}

static inline void F_(to_bytes)(uint8_t *out, const FIELD *a)
{
    FIELD t;
    F_(to_plain)(&t, a);
    for (int i = 0; i < FIELD_N; i++)
        for (int b = 0; b < 8; b++) out[8 * i + b] = (uint8_t)(t.v[i] >> (8 * b));
}

/* Decimal text of the plain value; out needs 8N*2.5+2 bytes (>= 160). */
static inline void F_(to_dec)(char *out, const FIELD *a)
{
    FIELD t;
    char digits[8 * FIELD_N * 3 + 1];
    int n = 0;
    F_(to_plain)(&t, a);
    do { /* divide by 10^19 repeatedly */
        g16_u128 rem = 0;
        for (int i = FIELD_N - 1; i >= 0; i--) {
            g16_u128 cur = (rem << 64) | t.v[i];
            t.v[i] = (uint64_t)(cur / 10000000000000000000ULL);
            rem = cur % 10000000000000000000ULL;
        }
        uint64_t chunk = (uint64_t)rem;
        int last = F_(is_zero)(&t);
        for (int d = 0; d < 19 && (!last || chunk); d++) {
            digits[n++] = (char)('0' + chunk % 10);
            chunk /= 10;
        }
        if (last) break;
    } while (1);
    if (n == 0) digits[n++] = '0';
    for (int i = 0; i < n; i++) out[i] = digits[n - 1 - i];
    out[n] = 0;
}

/* Parses a decimal integer < p (optionally surrounded by nothing else).
 * Returns 0 on empty text, non-digits, or a value >= p. */
static inline int F_(from_dec)(FIELD *r, const char *s, size_t len)
{
    uint64_t acc[FIELD_N + 1] = {0};
    if (len == 0 || len > 8 * FIELD_N * 3) return 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9') return 0;
        g16_u128 carry = (uint64_t)(s[k] - '0');
        for (int i = 0; i <= FIELD_N; i++) {
            g16_u128 x = (g16_u128)acc[i] * 10 + carry;
            acc[i] = (uint64_t)x;
            carry = x >> 64;
        }
        if (acc[FIELD_N] || carry) return 0;
    }
    if (F_(geq_modulus)(acc)) return 0;
    FIELD t;
    memcpy(t.v, acc, sizeof t.v);
    F_(from_plain)(r, &t);
    return 1;
}

#undef F_
#undef FIELD
#undef FIELD_N
#undef FIELD_P
#undef FIELD_R2
#undef FIELD_ONE
#undef FIELD_INV
