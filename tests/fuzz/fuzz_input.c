/* libFuzzer target for witness_inputs_parse, the input.json reader of
 * the witness calculator (g16 wtns calculate, g16d's inputs), over both
 * curves' scalar fields (the first byte picks one, the rest is the text).
 * Whatever it accepts must hold what its header promises: every value
 * reduced below the prime, a name and its hash for every signal; whatever
 * it refuses must say why. */
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "witness/witness.h"

#define N32 8

/* r of BN254 and of BLS12-381, 32-bit words, least significant first */
static const uint32_t bn254_r[N32] = {0xf0000001, 0x43e1f593, 0x79b97091, 0x2833e848,
                                      0x8181585d, 0xb85045b6, 0xe131a029, 0x30644e72};
static const uint32_t bls12_381_r[N32] = {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402,
                                          0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753};

static int below(const uint32_t *v, const uint32_t *prime)
{
    for (int i = N32 - 1; i >= 0; i--)
        if (v[i] != prime[i]) return v[i] < prime[i];
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256] = "";
    const uint32_t *prime = size && (data[0] & 1) ? bls12_381_r : bn254_r;
    const char *text = size ? (const char *)data + 1 : "";
    size_t len = size ? size - 1 : 0;
    witness_inputs in;
    if (witness_inputs_parse(text, len, "fuzz.json", prime, N32, &in, err, sizeof err) != 0) {
        if (!err[0]) abort(); /* a refusal must say why */
        return 0;
    }
    for (size_t s = 0; s < in.count; s++) {
        const witness_signal *sig = &in.signals[s];
        if (!sig->name || sig->hash != witness_name_hash(sig->name)) abort();
        for (size_t i = 0; i < sig->count; i++)
            if (!below(sig->values + i * N32, prime)) abort();
    }
    witness_inputs_free(&in);
    return 0;
}
