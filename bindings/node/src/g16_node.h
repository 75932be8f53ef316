/* g16 for Node.js: the native half of the package, on Node-API.
 *
 * Contract
 * - index.js gives this snarkjs's shape; here are the library's calls, each
 *   as small as the library allows:
 *       openKey(path, threads)          -> Promise<handle>  (key, points checked)
 *       openCircuit(path, cacheDir)     -> Promise<handle>  (compiled on first use)
 *       close(handle)                   -> undefined
 *       keyInfo(handle)                 -> {curve, nVars, nPublic, domainSize}
 *       keyVk(handle)                   -> Promise<string>  (verification_key.json)
 *       prove(key, witness, device, threads)
 *                                       -> Promise<[proof.json, public.json]>
 *         witness: a .wtns path (string) or its bytes (Uint8Array)
 *       fullProve(key, circuit, inputJson, device, threads)
 *                                       -> Promise<[proof.json, public.json, log]>
 *       verify(vkJson, publicJson, proofJson) -> Promise<boolean>
 *       gpuAvailable()                  -> boolean
 *   Arguments are checked by index.js; here only their types are.
 * - Everything that reads a file or computes runs as async work on libuv's
 *   thread pool, never on the event loop, so a service stays responsive.
 * - A handle is a JS external over a reference-counted key or circuit.
 *   Two counts: the key or circuit is held by the JS object until close()
 *   (or collection) and by each work in flight, so closing a key while
 *   proofs run frees it when the last one completes; the handle itself is
 *   held by the JS object until the garbage collector finalizes it (close
 *   does not end the external) and by each work in flight.  Counts change
 *   on the main thread only (when work is queued, when it completes, in
 *   close and in the finalizer).
 * - Failures reject with an Error carrying the library's one-line message
 *   and code = g16_status_name(status) ("format", "not found", ...).
 *
 * Files: g16_node.c (handles, async work, the module), g16_node_open.c
 * (keys and circuits), g16_node_prove.c (proving and verifying).
 */
#ifndef G16_NODE_H
#define G16_NODE_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stddef.h>

#define GN_ERRLEN 1024

/* A failed Node-API call: throw what Node says (unless an exception is
 * already pending) and return NULL to JavaScript. */
#define GN_CALL(env, call)                                                                         \
    do {                                                                                           \
        if ((call) != napi_ok) return gn_throw_last(env);                                          \
    } while (0)

napi_value gn_throw_last(napi_env env);

/* ---- Handles ---- */
enum gn_kind { GN_KEY = 1, GN_CIRCUIT = 2 };

typedef struct {
    enum gn_kind kind;
    void *obj;    /* g16_key * or g16_circuit *; NULL once freed */
    int obj_refs; /* holders of obj: the JS object until closed, works */
    int refs;     /* holders of this struct: the JS external, works */
    int closed;   /* close() was called or the external collected */
} gn_handle;

/* A new handle's JS external (holding the first reference), or NULL with
 * an exception (obj is then freed). */
napi_value gn_handle_wrap(napi_env env, enum gn_kind kind, void *obj);
/* The open handle of that kind in v, or NULL with an exception. */
gn_handle *gn_handle_get(napi_env env, napi_value v, enum gn_kind kind);
/* A work's hold on both (NULL: none). */
void gn_handle_release(gn_handle *h);

/* ---- Arguments ---- */
/* Fills argv with want arguments; NULL with an exception when fewer. */
napi_value gn_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv);
/* A JS string as a malloc'd NUL-terminated text (*len: its length, may be
 * NULL), or NULL with an exception. */
char *gn_string(napi_env env, napi_value v, size_t *len);
int gn_int(napi_env env, napi_value v, int *out);
int gn_double(napi_env env, napi_value v, double *out);
napi_value gn_string_value(napi_env env, const char *s);

/* ---- Async work: one shape for every call ---- */
typedef struct gn_work gn_work;
struct gn_work {
    napi_async_work async;
    napi_deferred deferred;
    void (*run)(gn_work *);                   /* on a worker thread */
    napi_value (*value)(napi_env, gn_work *); /* main thread, on success */
    void (*done)(gn_work *);                  /* main thread: frees the rest and w */
    int status;                               /* a g16_status */
    char err[GN_ERRLEN];
    gn_handle *key, *circuit; /* held while the work is in flight */
    napi_ref buffer;          /* a JS buffer the work reads, kept alive */
};

/* A zeroed work of size bytes (the gn_work first), or NULL with an exception. */
void *gn_work_new(napi_env env, size_t size);
/* Takes a reference on each non-NULL handle for w. */
void gn_work_hold(gn_work *w, gn_handle *key, gn_handle *circuit);
/* Frees w and releases what it holds (for a work that was not queued). */
void gn_work_free(napi_env env, gn_work *w);
/* Queues w and returns its promise; on failure frees w and everything it
 * holds and returns NULL with an exception. */
napi_value gn_work_queue(napi_env env, gn_work *w, const char *name);

/* ---- The calls (g16_node_open.c, g16_node_prove.c) ---- */
napi_value gn_open_key(napi_env env, napi_callback_info info);
napi_value gn_open_circuit(napi_env env, napi_callback_info info);
napi_value gn_key_info(napi_env env, napi_callback_info info);
napi_value gn_key_vk(napi_env env, napi_callback_info info);
napi_value gn_prove(napi_env env, napi_callback_info info);
napi_value gn_full_prove(napi_env env, napi_callback_info info);
napi_value gn_verify(napi_env env, napi_callback_info info);

#endif
