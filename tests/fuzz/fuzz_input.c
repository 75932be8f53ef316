/* libFuzzer target for witness_inputs_parse, the input.json reader of
 * the witness calculator (g16 wtns calculate, g16d's inputs), over
 * BN254's scalar field.  Whatever it accepts must hold what its header
 * promises: every value reduced below the prime, a name and its hash for
 * every signal; whatever it refuses must say why. */
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "witness/witness.h"

#define N32 8

/* r of BN254, least significant word first. */
static const uint32_t k_prime[N32] = {0xf0000001, 0x43e1f593, 0x79b97091, 0x2833e848,
                                      0x8181585d, 0xb85045b6, 0xe131a029, 0x30644e72};

static int below_prime(const uint32_t *v)
{
    for (int i = N32 - 1; i >= 0; i--)
        if (v[i] != k_prime[i]) return v[i] < k_prime[i];
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256] = "";
    witness_inputs in;
    if (witness_inputs_parse((const char *)data, size, "fuzz.json", k_prime, N32, &in, err,
                             sizeof err) != 0) {
        if (!err[0]) abort(); /* a refusal must say why */
        return 0;
    }
    for (size_t s = 0; s < in.count; s++) {
        const witness_signal *sig = &in.signals[s];
        if (!sig->name || sig->hash != witness_name_hash(sig->name)) abort();
        for (size_t i = 0; i < sig->count; i++)
            if (!below_prime(sig->values + i * N32)) abort();
    }
    witness_inputs_free(&in);
    return 0;
}
