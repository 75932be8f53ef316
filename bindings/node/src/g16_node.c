/* Handles, async work and the module (contract in g16_node.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "g16_node.h"
#include "g16_witness.h"

napi_value gn_throw_last(napi_env env)
{
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) {
        const napi_extended_error_info *info = NULL;
        napi_get_last_error_info(env, &info);
        const char *msg =
            info && info->error_message ? info->error_message : "Node-API call failed";
        napi_throw_error(env, "internal", msg);
    }
    return NULL;
}

/* ---- Handles ---- */

static void gn_handle_obj_release(gn_handle *h)
{
    if (--h->obj_refs > 0) return;
    if (h->kind == GN_KEY)
        g16_key_free(h->obj);
    else
        g16_circuit_close(h->obj);
    h->obj = NULL;
}

static void gn_handle_struct_release(gn_handle *h)
{
    if (--h->refs == 0) free(h);
}

void gn_handle_release(gn_handle *h)
{
    if (!h) return;
    gn_handle_obj_release(h);
    gn_handle_struct_release(h);
}

/* Drops the JS object's hold on the key or circuit, once. */
static void gn_handle_close(gn_handle *h)
{
    if (h->closed) return;
    h->closed = 1;
    gn_handle_obj_release(h);
}

static void gn_handle_finalize(napi_env env, void *data, void *hint)
{
    (void)env;
    (void)hint;
    gn_handle_close(data);
    gn_handle_struct_release(data);
}

napi_value gn_handle_wrap(napi_env env, enum gn_kind kind, void *obj)
{
    gn_handle *h = calloc(1, sizeof *h);
    napi_value v = NULL;
    if (h) {
        *h = (gn_handle){.kind = kind, .obj = obj, .refs = 1, .obj_refs = 1};
        if (napi_create_external(env, h, gn_handle_finalize, NULL, &v) == napi_ok) return v;
        free(h);
    }
    if (kind == GN_KEY)
        g16_key_free(obj);
    else
        g16_circuit_close(obj);
    return NULL;
}

gn_handle *gn_handle_get(napi_env env, napi_value v, enum gn_kind kind)
{
    void *data = NULL;
    napi_valuetype t;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
        napi_get_value_external(env, v, &data) != napi_ok || !data ||
        ((gn_handle *)data)->kind != kind) {
        napi_throw_type_error(env, "argument", kind == GN_KEY ? "not a key" : "not a circuit");
        return NULL;
    }
    gn_handle *h = data;
    if (h->closed) {
        napi_throw_error(env, "argument",
                         kind == GN_KEY ? "the key is closed" : "the circuit is closed");
        return NULL;
    }
    return h;
}

/* ---- Arguments ---- */

napi_value gn_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv)
{
    size_t argc = want;
    GN_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc < want) {
        napi_throw_type_error(env, "argument", "too few arguments");
        return NULL;
    }
    return argv[0];
}

char *gn_string(napi_env env, napi_value v, size_t *len)
{
    size_t n = 0;
    if (napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok) {
        napi_throw_type_error(env, "argument", "expected a string");
        return NULL;
    }
    char *s = malloc(n + 1);
    if (!s) {
        napi_throw_error(env, "out of memory", "out of memory");
        return NULL;
    }
    napi_get_value_string_utf8(env, v, s, n + 1, &n);
    /* C would read a path, or any text, only up to a NUL byte: "/x/a\0evil"
     * would name /x/a (index.js says which argument; this is the floor) */
    if (strlen(s) != n) {
        free(s);
        napi_throw_type_error(env, "argument", "expected a string without null bytes");
        return NULL;
    }
    if (len) *len = n;
    return s;
}

int gn_int(napi_env env, napi_value v, int *out)
{
    if (napi_get_value_int32(env, v, out) == napi_ok) return 0;
    napi_throw_type_error(env, "argument", "expected an integer");
    return -1;
}

int gn_double(napi_env env, napi_value v, double *out)
{
    if (napi_get_value_double(env, v, out) == napi_ok) return 0;
    napi_throw_type_error(env, "argument", "expected a number");
    return -1;
}

napi_value gn_string_value(napi_env env, const char *s)
{
    napi_value v;
    GN_CALL(env, napi_create_string_utf8(env, s ? s : "", NAPI_AUTO_LENGTH, &v));
    return v;
}

/* ---- Async work ---- */

void *gn_work_new(napi_env env, size_t size)
{
    void *w = calloc(1, size);
    if (!w) napi_throw_error(env, "out of memory", "out of memory");
    return w;
}

void gn_work_hold(gn_work *w, gn_handle *key, gn_handle *circuit)
{
    gn_handle *held[2] = {w->key = key, w->circuit = circuit};
    for (int i = 0; i < 2; i++)
        if (held[i]) {
            held[i]->refs++;
            held[i]->obj_refs++;
        }
}

static void gn_work_execute(napi_env env, void *data)
{
    (void)env;
    gn_work *w = data;
    w->run(w);
}

static napi_value gn_error(napi_env env, int status, const char *msg)
{
    napi_value error = NULL;
    napi_create_error(env, gn_string_value(env, g16_status_name(status)), gn_string_value(env, msg),
                      &error);
    return error;
}

void gn_work_free(napi_env env, gn_work *w)
{
    if (w->buffer) napi_delete_reference(env, w->buffer);
    gn_handle_release(w->key);
    gn_handle_release(w->circuit);
    if (w->async) napi_delete_async_work(env, w->async);
    w->done(w);
}

static void gn_work_complete(napi_env env, napi_status status, void *data)
{
    gn_work *w = data;
    napi_value v = NULL;
    if (status != napi_ok && !w->status) {
        w->status = G16_ERR_INTERNAL;
        snprintf(w->err, sizeof w->err, "the work was cancelled");
    }
    if (!w->status && !(v = w->value(env, w))) {
        /* The result could not be made in JavaScript: reject with that. */
        napi_value ignored;
        napi_get_and_clear_last_exception(env, &ignored);
        w->status = G16_ERR_NOMEM;
        snprintf(w->err, sizeof w->err, "the result could not be returned to JavaScript");
    }
    if (v)
        napi_resolve_deferred(env, w->deferred, v);
    else
        napi_reject_deferred(env, w->deferred, gn_error(env, w->status, w->err));
    gn_work_free(env, w);
}

napi_value gn_work_queue(napi_env env, gn_work *w, const char *name)
{
    napi_value promise, resource;
    if (napi_create_promise(env, &w->deferred, &promise) != napi_ok) {
        gn_work_free(env, w);
        return gn_throw_last(env);
    }
    if (napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource) != napi_ok ||
        napi_create_async_work(env, NULL, resource, gn_work_execute, gn_work_complete, w,
                               &w->async) != napi_ok ||
        napi_queue_async_work(env, w->async) != napi_ok) {
        napi_value ignored;
        napi_get_and_clear_last_exception(env, &ignored);
        napi_reject_deferred(env, w->deferred,
                             gn_error(env, G16_ERR_INTERNAL, "could not start the work"));
        gn_work_free(env, w);
    }
    return promise;
}

/* ---- Module ---- */

static napi_value gn_close(napi_env env, napi_callback_info info)
{
    napi_value argv[1];
    void *data = NULL;
    napi_valuetype t;
    if (!gn_args(env, info, 1, argv)) return NULL;
    if (napi_typeof(env, argv[0], &t) != napi_ok || t != napi_external ||
        napi_get_value_external(env, argv[0], &data) != napi_ok || !data) {
        napi_throw_type_error(env, "argument", "not a key or circuit");
        return NULL;
    }
    gn_handle_close(data);
    return NULL;
}

static napi_value gn_gpu_available(napi_env env, napi_callback_info info)
{
    (void)info;
    napi_value v;
    GN_CALL(env, napi_get_boolean(env, g16_gpu_available() != 0, &v));
    return v;
}

#define GN_FN(name, fn)                                                                            \
    {                                                                                              \
        name, NULL, fn, NULL, NULL, NULL, napi_enumerable, NULL                                    \
    }

static napi_value gn_init(napi_env env, napi_value exports)
{
    const napi_property_descriptor fns[] = {
        GN_FN("openKey", gn_open_key),
        GN_FN("openCircuit", gn_open_circuit),
        GN_FN("close", gn_close),
        GN_FN("keyInfo", gn_key_info),
        GN_FN("keyVk", gn_key_vk),
        GN_FN("prove", gn_prove),
        GN_FN("fullProve", gn_full_prove),
        GN_FN("verify", gn_verify),
        GN_FN("gpuAvailable", gn_gpu_available),
    };
    GN_CALL(env, napi_define_properties(env, exports, sizeof fns / sizeof fns[0], fns));
    return exports;
}

NAPI_MODULE(g16, gn_init)
