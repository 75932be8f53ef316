/* Proving (from a witness, or from inputs through the circuit) and
 * verifying, on worker threads (contract in g16_node.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "g16_node.h"
#include "g16_witness.h"

typedef struct {
    char *text;
    size_t len, cap;
    int failed;
} gn_text;

typedef struct {
    gn_work base;
    g16_options opt;
    char *wtns_path;     /* prove: the witness file, or */
    const uint8_t *wtns; /* prove: its bytes (base.buffer keeps them) */
    size_t wtns_len;
    char *input; /* fullProve: input.json text */
    size_t input_len;
    gn_text log;       /* fullProve: lines the circuit printed */
    char *proof, *pub; /* results (malloc'd by the library) */
} gn_prove_work;

/* Collects the circuit's log() lines, each ending in a newline; a line
 * that does not fit in memory is dropped (the proof matters more). */
static void gn_log_line(void *ctx, const char *line)
{
    gn_text *t = ctx;
    size_t n = strlen(line);
    if (t->failed) return;
    if (t->len + n + 2 > t->cap) {
        size_t cap = (t->len + n + 2) * 2;
        char *p = realloc(t->text, cap);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->text = p;
        t->cap = cap;
    }
    memcpy(t->text + t->len, line, n);
    t->len += n;
    t->text[t->len++] = '\n';
    t->text[t->len] = 0;
}

static int gn_prove_bytes(gn_prove_work *p, const uint8_t *wtns, size_t len, const char *name)
{
    gn_work *w = &p->base;
    return g16_prove(w->key->obj, wtns, len, name, &p->opt, &p->proof, &p->pub, NULL, w->err,
                     sizeof w->err);
}

static void gn_prove_run(gn_work *w)
{
    gn_prove_work *p = (gn_prove_work *)w;
    uint8_t *calculated = NULL;
    const uint8_t *mapped = NULL;
    size_t len = 0;
    /* The witness outlives the proof in every case: the library need not
     * copy it. */
    p->opt.borrow_witness = 1;
    if (p->input) {
        w->status =
            g16_witness_calculate(w->circuit->obj, p->input, p->input_len, "input", gn_log_line,
                                  &p->log, &calculated, &len, w->err, sizeof w->err);
        if (!w->status) w->status = gn_prove_bytes(p, calculated, len, "witness");
        g16_witness_free(calculated);
    } else if (p->wtns_path) {
        w->status = g16_file_map(p->wtns_path, &mapped, &len, w->err, sizeof w->err);
        if (!w->status) w->status = gn_prove_bytes(p, mapped, len, p->wtns_path);
        if (mapped) g16_file_unmap(mapped, len);
    } else {
        w->status = gn_prove_bytes(p, p->wtns, p->wtns_len, "witness");
    }
}

static napi_value gn_prove_value(napi_env env, gn_work *w)
{
    gn_prove_work *p = (gn_prove_work *)w;
    napi_value arr, v[3];
    int n = p->input ? 3 : 2;
    if (!(v[0] = gn_string_value(env, p->proof)) || !(v[1] = gn_string_value(env, p->pub)) ||
        !(v[2] = gn_string_value(env, p->log.text)))
        return NULL;
    GN_CALL(env, napi_create_array_with_length(env, (size_t)n, &arr));
    for (int i = 0; i < n; i++) GN_CALL(env, napi_set_element(env, arr, (uint32_t)i, v[i]));
    return arr;
}

static void gn_prove_done(gn_work *w)
{
    gn_prove_work *p = (gn_prove_work *)w;
    free(p->wtns_path);
    free(p->input);
    free(p->log.text);
    free(p->proof);
    free(p->pub);
    free(p);
}

/* A new prove work holding key (and circuit), with device and threads
 * from argv[0] and argv[1]; NULL with an exception. */
static gn_prove_work *gn_prove_new(napi_env env, gn_handle *key, gn_handle *circuit,
                                   napi_value *argv)
{
    int device, threads;
    if (!key || gn_int(env, argv[0], &device) || gn_int(env, argv[1], &threads)) return NULL;
    gn_prove_work *p = gn_work_new(env, sizeof *p);
    if (!p) return NULL;
    p->base = (gn_work){.run = gn_prove_run, .value = gn_prove_value, .done = gn_prove_done};
    g16_options_default(&p->opt);
    p->opt.device = device;
    p->opt.threads = threads;
    gn_work_hold(&p->base, key, circuit);
    return p;
}

/* The witness argument: a path, or a Uint8Array kept alive by a reference. */
static int gn_prove_witness(napi_env env, gn_prove_work *p, napi_value v)
{
    napi_valuetype t;
    bool is_typed = false;
    if (napi_typeof(env, v, &t) == napi_ok && t == napi_string)
        return (p->wtns_path = gn_string(env, v, NULL)) ? 0 : -1;
    napi_typedarray_type type;
    void *data = NULL;
    if (napi_is_typedarray(env, v, &is_typed) != napi_ok || !is_typed ||
        napi_get_typedarray_info(env, v, &type, &p->wtns_len, &data, NULL, NULL) != napi_ok ||
        type != napi_uint8_array) {
        napi_throw_type_error(env, "argument", "witness: expected a path or a Uint8Array");
        return -1;
    }
    p->wtns = data;
    return napi_create_reference(env, v, 1, &p->base.buffer) == napi_ok ? 0 : -1;
}

/* prove(key, witness, device, threads) */
napi_value gn_prove(napi_env env, napi_callback_info info)
{
    napi_value argv[4];
    if (!gn_args(env, info, 4, argv)) return NULL;
    gn_prove_work *p = gn_prove_new(env, gn_handle_get(env, argv[0], GN_KEY), NULL, argv + 2);
    if (!p) return NULL;
    if (gn_prove_witness(env, p, argv[1])) {
        gn_work_free(env, &p->base);
        return NULL;
    }
    return gn_work_queue(env, &p->base, "g16.prove");
}

/* fullProve(key, circuit, inputJson, device, threads) */
napi_value gn_full_prove(napi_env env, napi_callback_info info)
{
    napi_value argv[5];
    if (!gn_args(env, info, 5, argv)) return NULL;
    gn_handle *key = gn_handle_get(env, argv[0], GN_KEY);
    gn_handle *circuit = key ? gn_handle_get(env, argv[1], GN_CIRCUIT) : NULL;
    gn_prove_work *p = circuit ? gn_prove_new(env, key, circuit, argv + 3) : NULL;
    if (!p) return NULL;
    if (!(p->input = gn_string(env, argv[2], &p->input_len))) {
        gn_work_free(env, &p->base);
        return NULL;
    }
    return gn_work_queue(env, &p->base, "g16.fullProve");
}

typedef struct {
    gn_work base;
    char *vk, *pub, *proof;
    bool valid;
} gn_verify_work;

static void gn_verify_run(gn_work *w)
{
    gn_verify_work *v = (gn_verify_work *)w;
    /* an invalid proof is G16_OK with valid false, a plain false; a
     * malformed input is G16_ERR_FORMAT, thrown */
    w->status = g16_verify_json(v->vk, v->pub, v->proof, &v->valid, w->err, sizeof w->err);
}

static napi_value gn_verify_value(napi_env env, gn_work *w)
{
    napi_value b;
    GN_CALL(env, napi_get_boolean(env, ((gn_verify_work *)w)->valid, &b));
    return b;
}

static void gn_verify_done(gn_work *w)
{
    gn_verify_work *v = (gn_verify_work *)w;
    free(v->vk);
    free(v->pub);
    free(v->proof);
    free(v);
}

/* verify(vkJson, publicJson, proofJson) */
napi_value gn_verify(napi_env env, napi_callback_info info)
{
    napi_value argv[3];
    if (!gn_args(env, info, 3, argv)) return NULL;
    gn_verify_work *v = gn_work_new(env, sizeof *v);
    if (!v) return NULL;
    v->base = (gn_work){.run = gn_verify_run, .value = gn_verify_value, .done = gn_verify_done};
    if (!(v->vk = gn_string(env, argv[0], NULL)) || !(v->pub = gn_string(env, argv[1], NULL)) ||
        !(v->proof = gn_string(env, argv[2], NULL))) {
        gn_work_free(env, &v->base);
        return NULL;
    }
    return gn_work_queue(env, &v->base, "g16.verify");
}
