/* libFuzzer target for memwatch's trace reader (mw_trace_load): every
 * input is a trace file's whole text, read back as `memwatch summarize`,
 * `phases` and `plot` read it. */
#include "memfile.h"

#include "g16_memwatch.h"

static volatile double sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mw_trace tr;
    char err[512] = "";
    if (mw_trace_load(fuzz_memfile(data, size), &tr, err, sizeof err) == G16_OK) {
        for (size_t i = 0; i < tr.n; i++)
            sink += tr.rows[i].unix_s + (double)tr.rows[i].rss + (double)tr.rows[i].phase[0];
        mw_trace_free(&tr);
    } else if (!err[0]) {
        abort(); /* every refusal names its cause */
    }
    return 0;
}
