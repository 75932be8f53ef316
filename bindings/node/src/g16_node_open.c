/* Keys and circuits: opened on a worker thread, wrapped as handles
 * (contract in g16_node.h). */
#include <stdlib.h>

#include "g16.h"
#include "g16_node.h"
#include "g16_witness.h"

typedef struct {
    gn_work base;
    char *path, *cache_dir;
    int threads;
    double time_limit; /* a circuit's witnessTimeout, seconds */
    void *obj;         /* the opened g16_key * or g16_circuit * until wrapped */
    enum gn_kind kind;
} gn_open_work;

/* A key is checked point by point once, here, as `g16 prove` checks it:
 * a damaged key fails at open rather than giving proofs nobody accepts.
 * A circuit's time limit goes with its open, whose start code it bounds:
 * a worker thread stuck in one would hold up every later call and
 * process.exit (which waits for the pool). */
static void gn_open_run(gn_work *w)
{
    gn_open_work *o = (gn_open_work *)w;
    if (o->kind == GN_CIRCUIT) {
        g16_circuit_limits limits = {.time_limit = o->time_limit};
        w->status = g16_circuit_open_limited(o->path, o->cache_dir, &limits,
                                             (g16_circuit **)&o->obj, w->err, sizeof w->err);
        return;
    }
    g16_key *key = NULL;
    w->status = g16_key_open(o->path, &key, w->err, sizeof w->err);
    if (!w->status) w->status = g16_key_check_points(key, o->threads, w->err, sizeof w->err);
    if (w->status)
        g16_key_free(key);
    else
        o->obj = key;
}

static napi_value gn_open_value(napi_env env, gn_work *w)
{
    gn_open_work *o = (gn_open_work *)w;
    void *obj = o->obj;
    o->obj = NULL; /* the handle owns it now, or freed it */
    return gn_handle_wrap(env, o->kind, obj);
}

static void gn_open_done(gn_work *w)
{
    gn_open_work *o = (gn_open_work *)w;
    if (o->obj && o->kind == GN_KEY) g16_key_free(o->obj);
    if (o->obj && o->kind == GN_CIRCUIT) g16_circuit_close(o->obj);
    free(o->path);
    free(o->cache_dir);
    free(o);
}

/* openKey(path, threads) / openCircuit(path, cacheDir, witnessTimeout) */
static napi_value gn_open(napi_env env, napi_callback_info info, enum gn_kind kind)
{
    napi_value argv[3];
    if (!gn_args(env, info, kind == GN_KEY ? 2 : 3, argv)) return NULL;
    gn_open_work *o = gn_work_new(env, sizeof *o);
    if (!o) return NULL;
    *o = (gn_open_work){.base = {.run = gn_open_run, .value = gn_open_value, .done = gn_open_done},
                        .kind = kind};
    int ok = (o->path = gn_string(env, argv[0], NULL)) &&
             (kind == GN_KEY ? !gn_int(env, argv[1], &o->threads)
                             : (o->cache_dir = gn_string(env, argv[1], NULL)) &&
                                   !gn_double(env, argv[2], &o->time_limit));
    if (!ok) {
        gn_work_free(env, &o->base);
        return NULL;
    }
    return gn_work_queue(env, &o->base, kind == GN_KEY ? "g16.openKey" : "g16.openCircuit");
}

napi_value gn_open_key(napi_env env, napi_callback_info info) { return gn_open(env, info, GN_KEY); }

napi_value gn_open_circuit(napi_env env, napi_callback_info info)
{
    return gn_open(env, info, GN_CIRCUIT);
}

static int gn_set_u32(napi_env env, napi_value obj, const char *name, uint32_t x)
{
    napi_value v;
    return napi_create_uint32(env, x, &v) != napi_ok ||
           napi_set_named_property(env, obj, name, v) != napi_ok;
}

/* keyInfo(key): what the key says of itself (read from its header). */
napi_value gn_key_info(napi_env env, napi_callback_info info)
{
    napi_value argv[1], obj, curve;
    if (!gn_args(env, info, 1, argv)) return NULL;
    gn_handle *h = gn_handle_get(env, argv[0], GN_KEY);
    if (!h) return NULL;
    const g16_key *key = h->obj;
    GN_CALL(env, napi_create_object(env, &obj));
    if (!(curve = gn_string_value(env, g16_key_curve(key)))) return NULL;
    GN_CALL(env, napi_set_named_property(env, obj, "curve", curve));
    if (gn_set_u32(env, obj, "nVars", g16_key_n_vars(key)) ||
        gn_set_u32(env, obj, "nPublic", g16_key_n_public(key)) ||
        gn_set_u32(env, obj, "domainSize", g16_key_domain_size(key)))
        return gn_throw_last(env);
    return obj;
}

typedef struct {
    gn_work base;
    char *json;
} gn_vk_work;

static void gn_vk_run(gn_work *w)
{
    gn_vk_work *v = (gn_vk_work *)w;
    w->status = g16_key_vk_json(w->key->obj, &v->json, w->err, sizeof w->err);
}

static napi_value gn_vk_value(napi_env env, gn_work *w)
{
    return gn_string_value(env, ((gn_vk_work *)w)->json);
}

static void gn_vk_done(gn_work *w)
{
    free(((gn_vk_work *)w)->json);
    free(w);
}

/* keyVk(key): its verification key (the pairing e(alpha, beta) makes it
 * worth a worker thread). */
napi_value gn_key_vk(napi_env env, napi_callback_info info)
{
    napi_value argv[1];
    if (!gn_args(env, info, 1, argv)) return NULL;
    gn_handle *h = gn_handle_get(env, argv[0], GN_KEY);
    gn_vk_work *v = h ? gn_work_new(env, sizeof *v) : NULL;
    if (!v) return NULL;
    v->base = (gn_work){.run = gn_vk_run, .value = gn_vk_value, .done = gn_vk_done};
    gn_work_hold(&v->base, h, NULL);
    return gn_work_queue(env, &v->base, "g16.keyVk");
}
