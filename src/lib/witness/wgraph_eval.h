/* The evaluator of wgraph.c for one field, stamped out per field with
 * WGRAPH_FIELD (a field type of field/field.h) and WGRAPH_BITS (circom's
 * bit length of the prime for its bit operations) defined. */
#define WF_(name) G16_CAT(WGRAPH_FIELD, _##name)
#define WE_(name) G16_CAT(G16_CAT(wgraph_, name##_), WGRAPH_FIELD)

/* A bit operation: both operands to canonical limbs, the result back;
 * 0, or WGRAPH_FALLBACK for a shift the graph does not model. */
static int WE_(bitop)(uint32_t op, WGRAPH_FIELD *r, const WGRAPH_FIELD *a, const WGRAPH_FIELD *b)
{
    WGRAPH_FIELD x, y, z;
    WF_(to_plain)(&x, a);
    WF_(to_plain)(&y, b);
    uint32_t k = limbs_small(y.v);
    switch (op) {
    case WGRAPH_SHR:
        if (k >= WGRAPH_BITS) return WGRAPH_FALLBACK;
        limbs_shr(z.v, x.v, k);
        break;
    case WGRAPH_SHL:
        if (k >= WGRAPH_BITS) return WGRAPH_FALLBACK;
        limbs_shl(z.v, x.v, k);
        limbs_adjust(z.v, WF_(modulus).v, WGRAPH_BITS);
        break;
    default:
        for (int i = 0; i < 4; i++)
            z.v[i] = op == WGRAPH_BAND  ? x.v[i] & y.v[i]
                     : op == WGRAPH_BOR ? x.v[i] | y.v[i]
                                        : x.v[i] ^ y.v[i];
        limbs_adjust(z.v, WF_(modulus).v, WGRAPH_BITS);
        break;
    }
    WF_(from_plain)(r, &z);
    return 0;
}

/* Node i of g into v[i]: 0, or WGRAPH_FALLBACK. */
static inline int WE_(node)(const wgraph *g, const uint8_t *inputs, WGRAPH_FIELD *v, uint32_t i)
{
    const wgraph_node *n = &g->nodes[i];
    WGRAPH_FIELD *r = &v[i], t;
    switch (n->op) {
    case WGRAPH_INPUT:
        memcpy(t.v, inputs + (size_t)32 * n->a, 32);
        WF_(from_plain)(r, &t);
        return 0;
    case WGRAPH_CONST: memcpy(r->v, g->consts[n->a], 32); return 0;
    case WGRAPH_ADD: WF_(add)(r, &v[n->a], &v[n->b]); return 0;
    case WGRAPH_SUB: WF_(sub)(r, &v[n->a], &v[n->b]); return 0;
    case WGRAPH_MUL: WF_(mul)(r, &v[n->a], &v[n->b]); return 0;
    case WGRAPH_NEG: WF_(neg)(r, &v[n->a]); return 0;
    case WGRAPH_DIV:
        if (WF_(is_zero)(&v[n->b])) return WGRAPH_FALLBACK;
        WF_(inv)(&t, &v[n->b]);
        WF_(mul)(r, &v[n->a], &t);
        return 0;
    case WGRAPH_EQ:
    case WGRAPH_NEQ:
        if (WF_(eq)(&v[n->a], &v[n->b]) == (n->op == WGRAPH_EQ))
            WF_(one)(r);
        else
            WF_(zero)(r);
        return 0;
    case WGRAPH_GUARD_NZ:
        WF_(zero)(r);
        return (uint32_t)!WF_(is_zero)(&v[n->a]) == n->b ? 0 : WGRAPH_FALLBACK;
    case WGRAPH_GUARD_EQ: WF_(zero)(r); return WF_(eq)(&v[n->a], &v[n->b]) ? 0 : WGRAPH_FALLBACK;
    default: return WE_(bitop)(n->op, r, &v[n->a], &v[n->b]);
    }
}

static int WE_(eval)(const wgraph *g, const uint8_t *inputs, uint8_t *out, void *scratch,
                     uint32_t *why)
{
    WGRAPH_FIELD *v = scratch;
    for (uint32_t i = 0; i < g->n_nodes; i++)
        if (WE_(node)(g, inputs, v, i)) {
            *why = i;
            return WGRAPH_FALLBACK;
        }
    for (uint32_t i = 0; i < g->n_outputs; i++)
        WF_(to_bytes)(out + (size_t)32 * i, &v[g->outputs[i]]);
    return 0;
}

#undef WE_
#undef WF_
#undef WGRAPH_FIELD
#undef WGRAPH_BITS
