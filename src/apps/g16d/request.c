/* The request bodies of POST /v1/keys and POST /v1/proofs, parsed and
 * checked for shape alone: no state, no files, no lock, so that a fuzzer
 * drives them without a daemon.  Anything not in the API's shape is
 * G16_ERR_ARG (400) with a one-line message. */
#include <jansson.h>

#include "d.h"

#define MAX_PARTS 1024

static json_t *load(const char *body, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_loadb(body, len, 0, &je);
    if (!root) d_errf(err, errlen, "malformed JSON: line %d: %s", je.line, je.text);
    return root;
}

int d_key_request_parse(const char *body, size_t len, json_t **root, const char **name,
                        const char **path, char *err, size_t errlen)
{
    if (!(*root = load(body, len, err, errlen))) return G16_ERR_ARG;
    *name = json_string_value(json_object_get(*root, "name"));
    *path = json_string_value(json_object_get(*root, "path"));
    if (!*name || !*path) {
        d_errf(err, errlen, "expected {\"name\": NAME, \"path\": KEY.zkey}");
        return G16_ERR_ARG;
    }
    if (!d_name_ok(*name)) {
        d_errf(err, errlen, "key names are 1-127 of [A-Za-z0-9._-]");
        return G16_ERR_ARG;
    }
    return G16_OK;
}

int d_proof_request_parse(const char *body, size_t len, json_t **root, const char **key,
                          json_t **ws, int *prio, char *err, size_t errlen)
{
    if (!(*root = load(body, len, err, errlen))) return G16_ERR_ARG;
    *key = json_string_value(json_object_get(*root, "key"));
    *ws = json_object_get(*root, "witnesses");
    json_t *pr = json_object_get(*root, "priority");
    if (!json_is_object(*root) || !*key) {
        d_errf(err, errlen, "expected {\"key\": NAME, \"witnesses\": [...]}");
        return G16_ERR_ARG;
    }
    if (!json_is_array(*ws) || json_array_size(*ws) == 0 || json_array_size(*ws) > MAX_PARTS) {
        d_errf(err, errlen, "\"witnesses\" must be an array of 1 to %d witnesses", MAX_PARTS);
        return G16_ERR_ARG;
    }
    if (pr && (!json_is_integer(pr) || json_integer_value(pr) < -1000000 ||
               json_integer_value(pr) > 1000000)) {
        d_errf(err, errlen, "\"priority\" must be an integer in [-1000000, 1000000]");
        return G16_ERR_ARG;
    }
    *prio = pr ? (int)json_integer_value(pr) : 0;
    return G16_OK;
}
