/* libFuzzer target for g16d's request bodies (request.c): every input is
 * parsed as a POST /v1/keys and as a POST /v1/proofs body, as the daemon
 * parses them before touching any state. */
#include <jansson.h>
#include <string.h>

#include "d.h"

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[D_ERR];
    json_t *root;
    const char *name, *path, *wasm, *key;
    json_t *ws;
    int prio, inputs;
    if (d_key_request_parse((const char *)data, size, &root, &name, &path, &wasm, err,
                            sizeof err) == 0)
        sink += strlen(name) + strlen(path) + (wasm ? strlen(wasm) : 0);
    json_decref(root);
    if (d_proof_request_parse((const char *)data, size, &root, &key, &ws, &inputs, &prio, err,
                              sizeof err) == 0)
        sink += strlen(key) + json_array_size(ws) + (size_t)prio;
    json_decref(root);
    sink += strlen(err);
    return 0;
}
