/* libFuzzer target: zkey_parse must reject or accept any bytes without
 * reading outside them, and whatever it accepts must be safe to use. */
#include "formats/formats.h"

static volatile uint8_t sink;

/* Touch the first and last byte of a region the parser vouched for. */
static void touch(const uint8_t *p, uint64_t n)
{
    if (n) sink ^= p[0] ^ p[n - 1];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    zkey z;
    if (zkey_parse(data, size, "fuzz.zkey", &z, err, sizeof err) != 0) return 0;
    uint64_t g1 = 2ull * z.n8q, g2 = 4ull * z.n8q;
    touch(z.alpha1, g1);
    touch(z.delta2, g2);
    touch(z.ic, g1 * (z.n_public + 1ull));
    touch(z.a_points, g1 * z.n_vars);
    touch(z.b1_points, g1 * z.n_vars);
    touch(z.b2_points, g2 * z.n_vars);
    touch(z.c_points, g1 * ((uint64_t)z.n_vars - z.n_public - 1));
    touch(z.h_points, g1 * z.domain_size);
    for (uint32_t i = 0; i < z.n_coefs; i++) {
        zkey_coef c = zkey_coef_at(&z, i);
        touch(c.value, z.n8r);
        if (c.matrix > 1 || c.constraint >= z.domain_size || c.signal >= z.n_vars)
            __builtin_trap(); /* the parser promised these ranges */
    }
    return 0;
}
