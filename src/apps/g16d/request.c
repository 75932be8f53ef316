/* The request bodies of POST /v1/keys and POST /v1/proofs, parsed and
 * checked for shape alone: no state, no files, no lock, so that a fuzzer
 * drives them without a daemon.  Anything not in the API's shape is
 * D_ERR_ARG (400) with a one-line message. */
#include <jansson.h>

#include "d.h"

#define MAX_PARTS 1024

static json_t *load(const char *body, size_t len, size_t flags, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_loadb(body, len, flags, &je);
    if (!root) d_errf(err, errlen, "malformed JSON: line %d: %s", je.line, je.text);
    return root;
}

d_status d_key_request_parse(const char *body, size_t len, json_t **root, const char **name,
                             const char **path, const char **wasm, char *err, size_t errlen)
{
    if (!(*root = load(body, len, 0, err, errlen))) return D_ERR_ARG;
    *name = json_string_value(json_object_get(*root, "name"));
    *path = json_string_value(json_object_get(*root, "path"));
    json_t *w = json_object_get(*root, "wasm");
    *wasm = json_string_value(w);
    if (!*name || !*path || (w && !*wasm)) {
        d_errf(err, errlen,
               "expected {\"name\": NAME, \"path\": KEY.zkey, \"wasm\": CIRCUIT.wasm (optional)}");
        return D_ERR_ARG;
    }
    if (!d_name_ok(*name)) {
        d_errf(err, errlen, "key names are 1-127 of [A-Za-z0-9._-]");
        return D_ERR_ARG;
    }
    return D_OK;
}

/* "witnesses" or "inputs" (one of them), each a list of 1 to MAX_PARTS. */
static d_status parts_list(json_t *root, json_t **list, int *inputs, char *err, size_t errlen)
{
    json_t *ws = json_object_get(root, "witnesses"), *in = json_object_get(root, "inputs");
    *inputs = in != NULL;
    *list = in ? in : ws;
    if (ws && in) {
        d_errf(err, errlen, "give \"witnesses\" or \"inputs\", not both");
        return D_ERR_ARG;
    }
    if (!json_is_array(*list) || json_array_size(*list) == 0 ||
        json_array_size(*list) > MAX_PARTS) {
        d_errf(err, errlen, "\"%s\" must be an array of 1 to %d %s", in ? "inputs" : "witnesses",
               MAX_PARTS, in ? "input objects" : "witnesses");
        return D_ERR_ARG;
    }
    return D_OK;
}

/* D_OK, or D_ERR_ARG for a request that is not what the API takes.
 * Integers are read as reals (as JavaScript reads input.json: a number
 * beyond 64 bits is no error there). */
d_status d_proof_request_parse(const char *body, size_t len, json_t **root, const char **key,
                               json_t **ws, int *inputs, int *prio, char *err, size_t errlen)
{
    if (!(*root = load(body, len, JSON_DECODE_INT_AS_REAL, err, errlen))) return D_ERR_ARG;
    *key = json_string_value(json_object_get(*root, "key"));
    json_t *pr = json_object_get(*root, "priority");
    if (!json_is_object(*root) || !*key) {
        d_errf(err, errlen, "expected {\"key\": NAME, \"witnesses\" | \"inputs\": [...]}");
        return D_ERR_ARG;
    }
    d_status rc = parts_list(*root, ws, inputs, err, errlen);
    if (rc) return rc;
    double v = json_number_value(pr);
    if (pr && (!json_is_number(pr) || v < -1000000 || v > 1000000 || v != (double)(int)v)) {
        d_errf(err, errlen, "\"priority\" must be an integer in [-1000000, 1000000]");
        return D_ERR_ARG;
    }
    *prio = pr ? (int)v : 0;
    return D_OK;
}
