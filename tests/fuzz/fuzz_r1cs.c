/* libFuzzer target for r1cs_parse and the constraint iterator (see
 * fuzz_zkey.c). */
#include "formats/formats.h"

static volatile uint8_t sink;

static void touch_lc(const r1cs *r, const r1cs_lc *lc)
{
    for (uint32_t t = 0; t < lc->n_terms; t++) {
        if (r1cs_term_wire(r, lc, t) >= r->n_wires)
            __builtin_trap(); /* the parser promised this range */
        sink ^= r1cs_term_value(r, lc, t)[r->n8 - 1];
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    r1cs r;
    r1cs_iter it;
    r1cs_lc lc[3];
    uint32_t n = 0;
    int rc;
    if (r1cs_parse(data, size, "fuzz.r1cs", &r, err, sizeof err) != 0) return 0;
    r1cs_iter_init(&it, &r);
    while ((rc = r1cs_iter_next(&it, lc)) == 1) {
        for (int k = 0; k < 3; k++) touch_lc(&r, &lc[k]);
        n++;
    }
    if (rc != 0 || n != r.n_constraints || it.pos != r.size)
        __builtin_trap(); /* parse-validated data must walk cleanly */
    if (r.wire_labels && r.n_wires) sink ^= r.wire_labels[8ull * r.n_wires - 1];
    return 0;
}
