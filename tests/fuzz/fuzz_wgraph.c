/* libFuzzer target for wgraph_parse: a witness graph file from the cache
 * (docs/witness-graph.md).  A graph it accepts must evaluate without
 * reading or writing outside its arrays (inputs of zeros; the sanitizers
 * watch) and serialize back to the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "witness/wgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wgraph g;
    char err[256];
    if (wgraph_parse(data, size, &g, err, sizeof err)) return 0;
    if (g.n_nodes > (1u << 16) || g.n_inputs > (1u << 16) || g.n_outputs > (1u << 16)) {
        wgraph_free(&g); /* parsed: large graphs are only slow to evaluate */
        return 0;
    }
    uint8_t *inputs = calloc((size_t)g.n_inputs + 1, 32),
            *out = calloc((size_t)g.n_outputs + 1, 32);
    void *scratch = aligned_alloc(32, (wgraph_scratch_bytes(&g) + 31) / 32 * 32);
    uint32_t why;
    if (inputs && out && scratch) (void)wgraph_eval(&g, inputs, out, scratch, &why);
    uint8_t *bytes;
    size_t len;
    if (!wgraph_serialize(&g, &bytes, &len)) {
        if (len != size || memcmp(bytes, data, size)) abort();
        free(bytes);
    }
    free(inputs);
    free(out);
    free(scratch);
    wgraph_free(&g);
    return 0;
}
