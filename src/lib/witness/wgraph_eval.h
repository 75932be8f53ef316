/* The evaluator of wgraph.c for one field, stamped out per field with
 * WGRAPH_FIELD (a field type of field/field.h) and WGRAPH_BITS (circom's
 * bit length of the prime for its bit operations) defined. */
#define WF_(name) G16_CAT(WGRAPH_FIELD, _##name)
#define WE_(name) G16_CAT(G16_CAT(wgraph_, name##_), WGRAPH_FIELD)

/* The plain value of a shift's operand: the last one kept (by its slot,
 * forgotten when the slot is written), as a number's bits are taken one
 * shift after another from the same value. */
typedef struct {
    uint32_t slot;
    WGRAPH_FIELD plain;
} WE_(cache);

/* Whether the canonical value x is negative as circom's runtime reads
 * it: above (p - 1) / 2. */
static int WE_(negative)(const uint64_t x[4])
{
    uint64_t half[4];
    limbs_shr(half, WF_(modulus).v, 1);
    return limbs_cmp(x, half) > 0;
}

/* circom's comparison of canonical values: by their signed values. */
static int WE_(signed_cmp)(const uint64_t x[4], const uint64_t y[4])
{
    int nx = WE_(negative)(x), ny = WE_(negative)(y);
    return nx != ny ? (nx ? -1 : 1) : limbs_cmp(x, y);
}

/* circom's shift of the canonical value x left or right by the field
 * element whose canonical value is b, into z (canonical): by b's signed
 * value (a negative one shifts the other way), 0 from the prime's bit
 * length on, a left shift's result masked and reduced once. */
static void WE_(shift)(uint64_t z[4], const uint64_t x[4], const uint64_t b[4], int left)
{
    uint32_t k = limbs_small(b);
    if (k >= WGRAPH_BITS && WE_(negative)(b)) {
        uint64_t m[4];
        limbs_sub(m, WF_(modulus).v, b);
        k = limbs_small(m);
        left = !left;
    }
    if (k >= WGRAPH_BITS) {
        memset(z, 0, 32);
    } else if (left) {
        limbs_shl(z, x, k);
        limbs_adjust(z, WF_(modulus).v, WGRAPH_BITS);
    } else {
        limbs_shr(z, x, k);
    }
}

static void WE_(bool)(WGRAPH_FIELD *r, int t)
{
    if (t)
        WF_(one)(r);
    else
        WF_(zero)(r);
}

/* The operations most circuits never use (wgraph.h, from WGRAPH_LT on):
 * 0, or WGRAPH_FALLBACK for a zero divisor or inverse. */
__attribute__((noinline)) static int WE_(rare)(const wgraph_step *s, WGRAPH_FIELD *v)
{
    WGRAPH_FIELD x, y, z, *r = &v[s->r];
    const WGRAPH_FIELD *a = &v[s->a], *b = wgraph_unary(s->op) ? a : &v[s->b];
    int c;
    switch (s->op) {
    case WGRAPH_LAND: WE_(bool)(r, !WF_(is_zero)(a) && !WF_(is_zero)(b)); return 0;
    case WGRAPH_LOR: WE_(bool)(r, !WF_(is_zero)(a) || !WF_(is_zero)(b)); return 0;
    case WGRAPH_LNOT: WE_(bool)(r, WF_(is_zero)(a)); return 0;
    case WGRAPH_INV:
        if (WF_(is_zero)(a)) return WGRAPH_FALLBACK;
        WF_(inv)(r, a);
        return 0;
    default: break;
    }
    WF_(to_plain)(&x, a);
    WF_(to_plain)(&y, b);
    switch (s->op) {
    case WGRAPH_LT:
    case WGRAPH_GT:
    case WGRAPH_LEQ:
    case WGRAPH_GEQ:
        c = WE_(signed_cmp)(x.v, y.v);
        c = s->op == WGRAPH_LT    ? c < 0
            : s->op == WGRAPH_GT  ? c > 0
            : s->op == WGRAPH_LEQ ? c <= 0
                                  : c >= 0;
        WE_(bool)(r, c);
        return 0;
    case WGRAPH_POW: WF_(pow)(r, a, y.v, 4); return 0;
    case WGRAPH_BNOT:
        for (int i = 0; i < 4; i++) x.v[i] = ~x.v[i];
        limbs_adjust(x.v, WF_(modulus).v, WGRAPH_BITS);
        break;
    case WGRAPH_IDIV:
    case WGRAPH_MOD:
        if (limbs_divmod(x.v, y.v, s->op == WGRAPH_MOD)) return WGRAPH_FALLBACK;
        break;
    default: /* SHRV, SHLV */
        WE_(shift)(z.v, x.v, y.v, s->op == WGRAPH_SHLV);
        x = z;
        break;
    }
    WF_(from_plain)(r, &x);
    return 0;
}

/* A bit operation on the canonical values of its operands (and the rare
 * operations, WE_(rare)): 0, or WGRAPH_FALLBACK for a bit the graph does
 * not model.  Kept out of line: inlined, its frame made every step's
 * (2^20: 10% of the evaluation, best of 9 in a process 36 against
 * 40 ms). */
__attribute__((noinline)) static int WE_(bitop)(const wgraph *g, const wgraph_step *s,
                                                WGRAPH_FIELD *v, WE_(cache) * c)
{
    if (s->op >= WGRAPH_LT) return WE_(rare)(s, v);
    WGRAPH_FIELD x, y, z;
    const WGRAPH_FIELD *px = &x;
    if (s->op == WGRAPH_SHR || s->op == WGRAPH_SHL || s->op == WGRAPH_BIT) {
        if (c->slot != s->a) {
            WF_(to_plain)(&c->plain, &v[s->a]);
            c->slot = s->a;
        }
        px = &c->plain;
        memcpy(y.v, g->consts_plain[s->b], 32);
    } else {
        WF_(to_plain)(&x, &v[s->a]);
        WF_(to_plain)(&y, &v[s->b]);
    }
    uint32_t k = limbs_small(y.v);
    switch (s->op) {
    case WGRAPH_BIT: /* 0 or 1: no conversion back */
        if (k >= WGRAPH_BITS) return WGRAPH_FALLBACK;
        if (px->v[k / 64] >> (k % 64) & 1)
            WF_(one)(&v[s->r]);
        else
            WF_(zero)(&v[s->r]);
        return 0;
    case WGRAPH_SHR:
    case WGRAPH_SHL: WE_(shift)(z.v, px->v, y.v, s->op == WGRAPH_SHL); break;
    default:
        for (int i = 0; i < 4; i++)
            z.v[i] = s->op == WGRAPH_BAND  ? x.v[i] & y.v[i]
                     : s->op == WGRAPH_BOR ? x.v[i] | y.v[i]
                                           : x.v[i] ^ y.v[i];
        limbs_adjust(z.v, WF_(modulus).v, WGRAPH_BITS);
        break;
    }
    WF_(from_plain)(&v[s->r], &z);
    return 0;
}

/* Step s into its slot of v: 0, or WGRAPH_FALLBACK. */
G16_HOT_INLINE int WE_(step)(const wgraph *g, const wgraph_step *s, const uint8_t *inputs,
                             WGRAPH_FIELD *v, WE_(cache) * c)
{
    WGRAPH_FIELD *r = &v[s->r], t;
    switch (s->op) {
    case WGRAPH_INPUT:
        memcpy(t.v, inputs + (size_t)32 * s->a, 32);
        WF_(from_plain)(r, &t);
        return 0;
    case WGRAPH_CONST: memcpy(r->v, g->consts[s->a], 32); return 0;
    case WGRAPH_ADD: WF_(add)(r, &v[s->a], &v[s->b]); return 0;
    case WGRAPH_SUB: WF_(sub)(r, &v[s->a], &v[s->b]); return 0;
    case WGRAPH_MUL: WF_(mul)(r, &v[s->a], &v[s->b]); return 0;
    case WGRAPH_SEL:
        if (WF_(is_zero)(&v[s->a]))
            WF_(zero)(r);
        else
            *r = v[s->b];
        return 0;
    case WGRAPH_NEG: WF_(neg)(r, &v[s->a]); return 0;
    case WGRAPH_DIV:
        if (WF_(is_zero)(&v[s->b])) return WGRAPH_FALLBACK;
        WF_(inv)(&t, &v[s->b]);
        WF_(mul)(r, &v[s->a], &t);
        return 0;
    case WGRAPH_EQ:
    case WGRAPH_NEQ:
        if (WF_(eq)(&v[s->a], &v[s->b]) == (s->op == WGRAPH_EQ))
            WF_(one)(r);
        else
            WF_(zero)(r);
        return 0;
    case WGRAPH_GUARD_NZ: return (uint32_t)!WF_(is_zero)(&v[s->a]) == s->b ? 0 : WGRAPH_FALLBACK;
    case WGRAPH_GUARD_EQ: return WF_(eq)(&v[s->a], &v[s->b]) ? 0 : WGRAPH_FALLBACK;
    case WGRAPH_BIT:
        if (c->slot == s->a) { /* the operand's plain value is at hand */
            uint32_t k = limbs_small(g->consts_plain[s->b]);
            if (k >= WGRAPH_BITS) return WGRAPH_FALLBACK;
            if (c->plain.v[k / 64] >> (k % 64) & 1)
                WF_(one)(r);
            else
                WF_(zero)(r);
            return 0;
        }
        return WE_(bitop)(g, s, v, c);
    default: return WE_(bitop)(g, s, v, c);
    }
}

/* A witness value's bytes: 0 and 1 (most of a circuit's bits) without
 * the conversion's product. */
static inline void WE_(put)(uint8_t *out, const WGRAPH_FIELD *x)
{
    if (WF_(is_zero)(x)) {
        memset(out, 0, 32);
    } else if (WF_(eq)(x, &WF_(mont_one))) {
        memset(out, 0, 32);
        out[0] = 1;
    } else {
        WF_(to_bytes)(out, x);
    }
}

static int WE_(eval)(const wgraph *g, const uint8_t *inputs, uint8_t *out, void *scratch,
                     uint64_t deadline_ns, uint32_t *why)
{
    WGRAPH_FIELD *v = scratch;
    WE_(cache) c = {WGRAPH_NONE, {{0}}};
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const wgraph_step *s = &g->steps[i];
        if (deadline_ns && i % WGRAPH_CLOCK_STEPS == 0 && wgraph_past(deadline_ns)) {
            *why = i;
            return WGRAPH_TIMEOUT;
        }
        if (WE_(step)(g, s, inputs, v, &c)) {
            *why = i;
            return WGRAPH_FALLBACK;
        }
        if (s->r == c.slot) c.slot = WGRAPH_NONE;
        for (uint32_t o = s->out; o != WGRAPH_NONE; o = g->next_out[o])
            WE_(put)(out + (size_t)32 * o, &v[s->r]);
    }
    return 0;
}

#undef WE_
#undef WF_
#undef WGRAPH_FIELD
#undef WGRAPH_BITS
