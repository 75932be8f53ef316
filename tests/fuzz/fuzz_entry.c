/* libFuzzer target for witness_entry_check and witness_graph_check: a
 * cache entry's trailer (a compiled circuit's, SHA-256; a graph file's,
 * XXH3-128), read before the entry is used.  Checked twice: for an id of
 * zeros (what an entry of another circuit meets), and for the id its own
 * trailer claims, so that the checksum over the whole entry is reached
 * too.  An entry made by witness_entry_trailer (witness_graph_trailer)
 * must check as whole. */
#include <stdlib.h>
#include <string.h>

#include "witness/witness.h"

static volatile uint8_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    witness_entry_id id = {{0}, {0}};
    sink ^= (uint8_t)witness_entry_check(data, size, &id);
    sink ^= (uint8_t)witness_graph_check(data, size, &id);
    if (size >= WITNESS_TRAILER_SIZE) {
        const uint8_t *t = data + size - WITNESS_TRAILER_SIZE;
        memcpy(id.wasm, t + 8, sizeof id.wasm);
        memcpy(id.recipe, t + 8 + sizeof id.wasm, sizeof id.recipe);
        sink ^= (uint8_t)witness_entry_check(data, size, &id);
        sink ^= (uint8_t)witness_graph_check(data, size, &id);
    }
    uint8_t *entry = malloc(size + WITNESS_TRAILER_SIZE);
    if (!entry) return 0;
    memcpy(entry, data, size);
    witness_entry_trailer(data, size, &id, entry + size);
    if (size && witness_entry_check(entry, size + WITNESS_TRAILER_SIZE, &id) != WITNESS_ENTRY_OK)
        abort();
    witness_graph_trailer(data, size, &id, entry + size);
    if (size && witness_graph_check(entry, size + WITNESS_TRAILER_SIZE, &id) != WITNESS_ENTRY_OK)
        abort();
    free(entry);
    return 0;
}
