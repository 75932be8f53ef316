/* libFuzzer target for witness_wasm_check: the .wasm header and section
 * frames the cache reads before it runs wasm2c on a module. */
#include "witness/witness.h"

static volatile uint8_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    sink ^= (uint8_t)witness_wasm_check(data, size, "fuzz.wasm", err, sizeof err);
    return 0;
}
