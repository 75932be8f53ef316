/* test_wgraph: the witness graph's evaluator and file format (wgraph.h)
 * on hand-made graphs, against GMP: every operation on random values of
 * both fields, the guards and the division by zero falling back, and the
 * parser refusing what an evaluation could not trust. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "witness/wgraph.h"
#include "../common/test.h"

static const char *const primes[] = {
    "21888242871839275222246405745257275088548364400416034343698204186575808495617",
    "52435875175126190479447740508185965837690552500527637822603658699938581184513",
};

static gmp_randstate_t rs;

static void to_bytes(uint8_t out[32], const mpz_t v)
{
    memset(out, 0, 32);
    mpz_export(out, NULL, -1, 1, -1, 0, v);
}

static void from_bytes(mpz_t v, const uint8_t in[32]) { mpz_import(v, 32, -1, 1, -1, 0, in); }

/* Inputs x (0) and y (1), a constant c (2) and k (3, a shift), then one
 * node per operation. */
enum { X, Y, C, K, ADD, SUB, MUL, NEG, DIV, EQ, NEQ, SHR, SHL, BAND, BOR, BXOR, G1, G2, N };

static void build(wgraph *g, uint32_t field, const mpz_t p, const mpz_t c, unsigned k, int nz)
{
    static wgraph_node nodes[N];
    static uint64_t consts[2][4];
    static wgraph_signal sig[1] = {{0x1234, 2}};
    static uint32_t outputs[N];
    mpz_t m, r;
    mpz_inits(m, r, NULL);
    /* constants in the Montgomery form: x * 2^256 mod p */
    mpz_mul_2exp(m, c, 256);
    mpz_mod(m, m, p);
    to_bytes((uint8_t *)consts[0], m);
    mpz_set_ui(m, k);
    mpz_mul_2exp(m, m, 256);
    mpz_mod(m, m, p);
    to_bytes((uint8_t *)consts[1], m);
    mpz_clears(m, r, NULL);
    wgraph_node n[N] = {
        [X] = {WGRAPH_INPUT, 0, 0},
        [Y] = {WGRAPH_INPUT, 1, 0},
        [C] = {WGRAPH_CONST, 0, 0},
        [K] = {WGRAPH_CONST, 1, 0},
        [ADD] = {WGRAPH_ADD, X, Y},
        [SUB] = {WGRAPH_SUB, X, C},
        [MUL] = {WGRAPH_MUL, X, Y},
        [NEG] = {WGRAPH_NEG, Y, 0},
        [DIV] = {WGRAPH_DIV, X, Y},
        [EQ] = {WGRAPH_EQ, X, Y},
        [NEQ] = {WGRAPH_NEQ, X, C},
        [SHR] = {WGRAPH_SHR, X, K},
        [SHL] = {WGRAPH_SHL, X, K},
        [BAND] = {WGRAPH_BAND, X, Y},
        [BOR] = {WGRAPH_BOR, X, Y},
        [BXOR] = {WGRAPH_BXOR, X, Y},
        [G1] = {WGRAPH_GUARD_NZ, Y, (uint32_t)nz},
        [G2] = {WGRAPH_GUARD_EQ, C, C},
    };
    memcpy(nodes, n, sizeof n);
    for (uint32_t i = 0; i < N; i++) outputs[i] = i;
    *g = (wgraph){field, N, 2, 1, N, 2, nodes, consts, sig, outputs, NULL, 0, NULL, NULL, 0, {0}};
    CHECK(wgraph_prepare(g) == 0);
}

/* What build's graph holds besides its static parts. */
static void unprepare(wgraph *g)
{
    free(g->steps);
    free(g->next_out);
    free(g->consts_plain);
}

/* What node i must hold, as circom computes it. */
static void expect(mpz_t r, int i, const mpz_t x, const mpz_t y, const mpz_t c, unsigned k,
                   const mpz_t p, unsigned bits)
{
    mpz_t mask;
    mpz_init(mask);
    mpz_set_ui(mask, 1);
    mpz_mul_2exp(mask, mask, bits);
    mpz_sub_ui(mask, mask, 1);
    switch (i) {
    case X: mpz_set(r, x); break;
    case Y: mpz_set(r, y); break;
    case C: mpz_set(r, c); break;
    case K: mpz_set_ui(r, k); break;
    case ADD: mpz_add(r, x, y); break;
    case SUB: mpz_sub(r, x, c); break;
    case MUL: mpz_mul(r, x, y); break;
    case NEG: mpz_neg(r, y); break;
    case DIV:
        mpz_invert(r, y, p);
        mpz_mul(r, r, x);
        break;
    case EQ: mpz_set_ui(r, !mpz_cmp(x, y)); break;
    case NEQ: mpz_set_ui(r, mpz_cmp(x, c) != 0); break;
    case SHR: mpz_fdiv_q_2exp(r, x, k); break;
    case SHL: mpz_mul_2exp(r, x, k); break;
    case BAND: mpz_and(r, x, y); break;
    case BOR: mpz_ior(r, x, y); break;
    case BXOR: mpz_xor(r, x, y); break;
    default: mpz_set_ui(r, 0); break;
    }
    if (i == SHL || i == BOR || i == BXOR) {
        mpz_and(r, r, mask);
        if (mpz_cmp(r, p) >= 0) mpz_sub(r, r, p);
    }
    mpz_mod(r, r, p);
    mpz_clear(mask);
}

static void one_field(int f)
{
    mpz_t p, x, y, c, r, got;
    mpz_inits(p, x, y, c, r, got, NULL);
    mpz_set_str(p, primes[f], 10);
    unsigned bits = f ? 255 : 254;
    for (int round = 0; round < 200; round++) {
        mpz_urandomm(x, rs, p);
        mpz_urandomm(y, rs, p);
        mpz_urandomm(c, rs, p);
        if (round % 5 == 0) mpz_set(y, x); /* EQ true */
        if (round % 7 == 0) mpz_set(c, x);
        if (round % 3 == 0) mpz_urandomb(y, rs, 1 + round % 64); /* small: bit ops */
        if (mpz_sgn(y) == 0) mpz_set_ui(y, 1);
        unsigned k = (unsigned)(round % bits);
        wgraph g;
        build(&g, f ? WGRAPH_BLS12_381 : WGRAPH_BN254, p, c, k, 1);
        uint8_t in[64], out[32 * N];
        void *scratch = aligned_alloc(32, wgraph_scratch_bytes(&g));
        to_bytes(in, x);
        to_bytes(in + 32, y);
        uint32_t why = 0;
        CHECK(wgraph_eval(&g, in, out, scratch, &why) == 0);
        for (int i = 0; i < G1; i++) {
            expect(r, i, x, y, c, k, p, bits);
            from_bytes(got, out + 32 * i);
            CHECKF(!mpz_cmp(r, got), "field %d round %d node %d", f, round, i);
        }
        /* the guard expecting zero fails at G1; a zero divisor at DIV */
        unprepare(&g);
        build(&g, g.field, p, c, k, 0);
        CHECK(wgraph_eval(&g, in, out, scratch, &why) == WGRAPH_FALLBACK && why == G1);
        memset(in + 32, 0, 32);
        CHECK(wgraph_eval(&g, in, out, scratch, &why) == WGRAPH_FALLBACK && why == DIV);
        unprepare(&g);
        free(scratch);
    }
    mpz_clears(p, x, y, c, r, got, NULL);
}

/* circom's signed value of x (canonical): x - p above (p - 1) / 2. */
static void signed_value(mpz_t r, const mpz_t x, const mpz_t p)
{
    mpz_t half;
    mpz_init(half);
    mpz_sub_ui(half, p, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    mpz_set(r, x);
    if (mpz_cmp(x, half) > 0) mpz_sub(r, x, p);
    mpz_clear(half);
}

/* circom's result of a bit operation: masked to the bit length, less p
 * once. */
static void adjust(mpz_t r, const mpz_t p, unsigned bits)
{
    mpz_fdiv_r_2exp(r, r, bits);
    if (mpz_cmp(r, p) >= 0) mpz_sub(r, r, p);
}

/* What circom's runtime computes for op on x and y (canonical), into r:
 * 0, or 1 where the graph falls back (the wasm decides). */
static int circom_op(mpz_t r, uint32_t op, const mpz_t x, const mpz_t y, const mpz_t p,
                     unsigned bits)
{
    mpz_t sx, sy;
    mpz_inits(sx, sy, NULL);
    signed_value(sx, x, p);
    signed_value(sy, y, p);
    int c = mpz_cmp(sx, sy), fallback = 0, left = op == WGRAPH_SHL || op == WGRAPH_SHLV;
    switch (op) {
    case WGRAPH_LT: mpz_set_ui(r, c < 0); break;
    case WGRAPH_GT: mpz_set_ui(r, c > 0); break;
    case WGRAPH_LEQ: mpz_set_ui(r, c <= 0); break;
    case WGRAPH_GEQ: mpz_set_ui(r, c >= 0); break;
    case WGRAPH_LAND: mpz_set_ui(r, mpz_sgn(x) && mpz_sgn(y)); break;
    case WGRAPH_LOR: mpz_set_ui(r, mpz_sgn(x) || mpz_sgn(y)); break;
    case WGRAPH_LNOT: mpz_set_ui(r, !mpz_sgn(x)); break;
    case WGRAPH_BNOT: /* the 256-bit complement */
        mpz_ui_pow_ui(r, 2, 256);
        mpz_sub_ui(r, r, 1);
        mpz_xor(r, r, x);
        adjust(r, p, bits);
        break;
    case WGRAPH_IDIV:
    case WGRAPH_MOD:
        if (!mpz_sgn(y)) {
            fallback = 1;
            break;
        }
        if (op == WGRAPH_IDIV)
            mpz_fdiv_q(r, x, y);
        else
            mpz_fdiv_r(r, x, y);
        break;
    case WGRAPH_POW: mpz_powm(r, x, y, p); break;
    case WGRAPH_INV: fallback = !mpz_invert(r, x, p); break;
    default: /* shifts by y's signed value: negative the other way */
        if (mpz_sgn(sy) < 0) {
            mpz_neg(sy, sy);
            left = !left;
        }
        if (mpz_cmp_ui(sy, bits) >= 0) {
            mpz_set_ui(r, 0);
        } else if (left) {
            mpz_mul_2exp(r, x, mpz_get_ui(sy));
            adjust(r, p, bits);
        } else {
            mpz_fdiv_q_2exp(r, x, mpz_get_ui(sy));
        }
        break;
    }
    mpz_clears(sx, sy, NULL);
    return fallback;
}

/* op on x and y by a graph of its own (inputs x and y; y also as the
 * constant amount of SHR and SHL): 0 with the result in r, or what
 * wgraph_eval answered. */
static int graph_op(mpz_t r, uint32_t field, uint32_t op, const mpz_t x, const mpz_t y,
                    const mpz_t p)
{
    uint64_t consts[1][4];
    mpz_t m;
    mpz_init(m);
    mpz_mul_2exp(m, y, 256);
    mpz_mod(m, m, p);
    to_bytes((uint8_t *)consts[0], m);
    mpz_clear(m);
    int fixed = op == WGRAPH_SHR || op == WGRAPH_SHL;
    wgraph_node nodes[4] = {
        {WGRAPH_INPUT, 0, 0}, {WGRAPH_INPUT, 1, 0}, {WGRAPH_CONST, 0, 0}, {op, 0, fixed ? 2 : 1}};
    wgraph_signal sig[1] = {{0x99, 2}};
    uint32_t outputs[1] = {3};
    wgraph g = {field, 4, 1, 1, 1, 2, nodes, consts, sig, outputs, NULL, 0, NULL, NULL, 0, {0}};
    CHECK(wgraph_prepare(&g) == 0);
    uint8_t in[64], out[32];
    to_bytes(in, x);
    to_bytes(in + 32, y);
    void *scratch = aligned_alloc(32, wgraph_scratch_bytes(&g));
    uint32_t why = 0;
    int rc = wgraph_eval(&g, in, out, scratch, &why);
    CHECK(rc == 0 || why == 3);
    from_bytes(r, out);
    free(scratch);
    unprepare(&g);
    return rc;
}

/* The edge values of circom's runtime for the field of p, then random
 * ones: 0, 1, small numbers, shift amounts around the bit length and
 * their negatives, (p - 1) / 2 and (p + 1) / 2 (the last positive and
 * the first negative value), p - 1, values of 2^253 and more. */
#define N_VALUES 40
static void values(mpz_t v[N_VALUES], const mpz_t p)
{
    const unsigned long small[] = {0, 1, 2, 3, 7, 64, 253, 254, 255, 256, 300, 4294967295ul};
    int n = 0;
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) mpz_set_ui(v[n++], small[i]);
    for (int d = -1; d <= 2; d++, n++) { /* (p - 1) / 2 - 1 ... (p + 1) / 2 + 1 */
        mpz_sub_ui(v[n], p, 1);
        mpz_fdiv_q_2exp(v[n], v[n], 1);
        if (d < 0)
            mpz_sub_ui(v[n], v[n], 1);
        else
            mpz_add_ui(v[n], v[n], (unsigned long)d);
    }
    const unsigned long below[] = {1, 2, 253, 254, 255, 256, 300};
    for (size_t i = 0; i < sizeof below / sizeof *below; i++) mpz_sub_ui(v[n++], p, below[i]);
    const unsigned long powers[] = {32, 64, 252, 253, 254, 255};
    for (size_t i = 0; i < sizeof powers / sizeof *powers; i++, n++) {
        mpz_ui_pow_ui(v[n], 2, powers[i]);
        mpz_mod(v[n], v[n], p); /* 2^254 and 2^255 are above BN254's p */
    }
    mpz_set_ui(v[n], 1);
    mpz_mul_2exp(v[n], v[n], 253);
    mpz_add_ui(v[n], v[n], 12345); /* >= 2^253 */
    n++;
    while (n < N_VALUES) mpz_urandomm(v[n++], rs, p);
}

/* Every operation from WGRAPH_LT on, and SHR and SHL by constants, on
 * every pair of values, against circom_op. */
static void more_ops(int f)
{
    mpz_t p, v[N_VALUES], want, got;
    mpz_inits(p, want, got, NULL);
    for (int i = 0; i < N_VALUES; i++) mpz_init(v[i]);
    mpz_set_str(p, primes[f], 10);
    values(v, p);
    unsigned bits = f ? 255 : 254;
    uint32_t field = f ? WGRAPH_BLS12_381 : WGRAPH_BN254, ops[WGRAPH_OP_END], n_ops = 0;
    for (uint32_t op = WGRAPH_LT; op < WGRAPH_OP_END; op++) ops[n_ops++] = op;
    ops[n_ops++] = WGRAPH_SHR;
    ops[n_ops++] = WGRAPH_SHL;
    for (uint32_t k = 0; k < n_ops; k++)
        for (int i = 0; i < N_VALUES; i++)
            for (int j = 0; j < N_VALUES; j++) {
                int fb = circom_op(want, ops[k], v[i], v[j], p, bits);
                int rc = graph_op(got, field, ops[k], v[i], v[j], p);
                CHECKF(rc == (fb ? WGRAPH_FALLBACK : 0) && (fb || !mpz_cmp(want, got)),
                       "field %d op %u values %d, %d: %d, %s", f, ops[k], i, j, rc,
                       mpz_get_str(NULL, 10, got));
            }
    for (int i = 0; i < N_VALUES; i++) mpz_clear(v[i]);
    mpz_clears(p, want, got, NULL);
}

/* Serialize, parse back (the plan read in place, evaluating as the
 * original), and the parser's refusals. */
static void file_format(void)
{
    mpz_t p, c;
    mpz_inits(p, c, NULL);
    mpz_set_str(p, primes[0], 10);
    mpz_set_ui(c, 77);
    wgraph g, back;
    build(&g, WGRAPH_BN254, p, c, 3, 1);
    uint8_t *bytes, *copy;
    size_t len;
    char err[256];
    CHECK(wgraph_serialize(&g, &bytes, &len) == 0);
    uint8_t in[64] = {5, [32] = 9}, out1[32 * N], out2[32 * N];
    void *scratch = aligned_alloc(32, 32 * (N + 1));
    uint32_t why;
    CHECK(wgraph_eval(&g, in, out1, scratch, &why) == 0);
    CHECK(wgraph_parse(bytes, len, &back, err, sizeof err) == 0);
    CHECK(back.n_nodes == N && back.borrowed && !memcmp(back.consts, g.consts, 64) &&
          back.signals[0].hash == 0x1234);
    CHECK(wgraph_eval(&back, in, out2, scratch, &why) == 0 && !memcmp(out1, out2, sizeof out1));
    wgraph_free(&back);
    unprepare(&g);
    for (size_t cut = 0; cut < len; cut += 7) { /* every truncation */
        copy = malloc(len);
        memcpy(copy, bytes, cut);
        CHECK(wgraph_parse(copy, cut, &back, err, sizeof err) == G16_ERR_FORMAT);
        free(copy);
    }
    /* the steps start after the header (with the circuit's words), the
     * signal and the two constants */
    size_t head = 40 + 4 * WGRAPH_CIRCUIT_WORDS, steps = head + 12 + 64, size = sizeof(wgraph_step);
    uint32_t saved, bad_slot = N + 7;
    memcpy(&saved, bytes + steps + size * ADD + 4, 4);
    memcpy(bytes + steps + size * ADD + 4, &bad_slot, 4); /* a slot beyond them */
    CHECK(wgraph_parse(bytes, len, &back, err, sizeof err) == G16_ERR_FORMAT &&
          strstr(err, "operand"));
    memcpy(bytes + steps + size * ADD + 4, &saved, 4);
    /* a constant equal to p */
    uint8_t const0[32];
    memcpy(const0, bytes + head + 12, 32);
    to_bytes(bytes + head + 12, p);
    CHECK(wgraph_parse(bytes, len, &back, err, sizeof err) == G16_ERR_FORMAT &&
          strstr(err, "prime"));
    memcpy(bytes + head + 12, const0, 32);
    /* an unknown operation; a shift's constant beyond the table */
    memcpy(bytes + steps + size * ADD, &(uint32_t){WGRAPH_OP_END}, 4);
    CHECK(wgraph_parse(bytes, len, &back, err, sizeof err) == G16_ERR_FORMAT);
    memcpy(bytes + steps + size * ADD, &(uint32_t){WGRAPH_ADD}, 4);
    memcpy(&saved, bytes + steps + size * SHR + 8, 4);
    memcpy(bytes + steps + size * SHR + 8, &(uint32_t){2}, 4);
    CHECK(wgraph_parse(bytes, len, &back, err, sizeof err) == G16_ERR_FORMAT);
    memcpy(bytes + steps + size * SHR + 8, &saved, 4);
    /* a witness value written twice (node X's chain made to reach 0 again) */
    memcpy(&saved, bytes + steps + size * X + 16, 4);
    memcpy(bytes + steps + size * Y + 16, &saved, 4);
    CHECK(wgraph_parse(bytes, len, &back, err, sizeof err) == G16_ERR_FORMAT &&
          strstr(err, "witness value"));
    memcpy(bytes + steps + size * Y + 16, &(uint32_t){Y}, 4);
    CHECK(wgraph_parse(bytes, len, &back, err, sizeof err) == 0);
    wgraph_free(&back);
    free(scratch);
    free(bytes);
    mpz_clears(p, c, NULL);
}

int main(void)
{
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 40);
    one_field(0);
    one_field(1);
    more_ops(0);
    more_ops(1);
    file_format();
    gmp_randclear(rs);
    return test_finish("test_wgraph");
}
