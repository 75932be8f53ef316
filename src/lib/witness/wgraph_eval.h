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

/* A bit operation on the canonical values of its operands: 0, or
 * WGRAPH_FALLBACK for a shift the graph does not model.  Kept out of
 * line: inlined, its frame made every step's (2^20: 10% of the
 * evaluation, best of 9 in a process 36 against 40 ms). */
__attribute__((noinline)) static int WE_(bitop)(const wgraph *g, const wgraph_step *s,
                                                WGRAPH_FIELD *v, WE_(cache) * c)
{
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
        if (k >= WGRAPH_BITS) return WGRAPH_FALLBACK;
        limbs_shr(z.v, px->v, k);
        break;
    case WGRAPH_SHL:
        if (k >= WGRAPH_BITS) return WGRAPH_FALLBACK;
        limbs_shl(z.v, px->v, k);
        limbs_adjust(z.v, WF_(modulus).v, WGRAPH_BITS);
        break;
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
