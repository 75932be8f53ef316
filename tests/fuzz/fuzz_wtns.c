/* libFuzzer target for wtns_parse (see fuzz_zkey.c). */
#include "formats/formats.h"

static volatile uint8_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    wtns w;
    if (wtns_parse(data, size, "fuzz.wtns", &w, err, sizeof err) != 0) return 0;
    sink ^= w.prime[0] ^ w.prime[w.n8 - 1];
    if (w.n_witness) sink ^= w.values[(size_t)w.n_witness * w.n8 - 1];
    return 0;
}
