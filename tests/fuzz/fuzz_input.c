/* libFuzzer target for the witness module's input.json parser
 * (witness_inputs_parse), for both curves' scalar fields. */
#include <string.h>

#include "g16.h"
#include "witness/witness.h"

/* r of BN254 and of BLS12-381, 32-bit words, least significant first */
static const uint32_t bn254_r[8] = {0xf0000001, 0x43e1f593, 0x79b97091, 0x2833e848,
                                    0x8181585d, 0xb85045b6, 0xe131a029, 0x30644e72};
static const uint32_t bls12_381_r[8] = {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402,
                                        0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753};

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    /* the first byte picks the field, the rest is the text */
    const uint32_t *prime = size && (data[0] & 1) ? bls12_381_r : bn254_r;
    const char *text = size ? (const char *)data + 1 : "";
    size_t len = size ? size - 1 : 0;
    witness_inputs in;
    if (witness_inputs_parse(text, len, "input.json", prime, 8, &in, err, sizeof err) == G16_OK) {
        for (size_t i = 0; i < in.count; i++) {
            const witness_signal *s = &in.signals[i];
            sink ^= s->hash ^ strlen(s->name);
            if (s->count) sink ^= s->values[s->count * 8 - 1];
        }
        witness_inputs_free(&in);
    } else
        sink ^= strlen(err);
    return 0;
}
