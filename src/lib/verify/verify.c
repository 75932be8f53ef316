/* Groth16 verification of snarkjs JSON (see verify.h for the contract).
 * The curve-specific work is stamped out of verify_template.h; this file
 * holds the JSON plumbing and the checks that do not depend on the curve. */
#include <jansson.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairing/pairing.h"
#include "util/random.h"
#include "verify/verify.h"

/* Where errors go, and the name of the file being read. */
typedef struct {
    const char *name;
    char *err;
    size_t errlen;
} vctx;

static void vreport(const vctx *c, const char *fmt, va_list ap)
{
    if (!c->err || !c->errlen) return;
    int n = snprintf(c->err, c->errlen, "%s: ", c->name);
    if (n >= 0 && (size_t)n < c->errlen) vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
}

/* Malformed input: reports and returns -1. */
static int vfail(const vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int vfail(const vctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(c, fmt, ap);
    va_end(ap);
    return -1;
}

/* A well-formed but invalid proof: reports and returns 0. */
static int vinvalid(const vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int vinvalid(const vctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(c, fmt, ap);
    va_end(ap);
    return 0;
}

static int is_decimal(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

static const char *json_str(json_t *v) { return json_string_value(v); }

#define V                 bn254
#define V_G1_COFACTOR_ONE 1
#include "verify/verify_template.h"
#define V                 bls12_381
#define V_G1_COFACTOR_ONE 0
#include "verify/verify_template.h"

/* "groth16" where a protocol field is required (or present). */
static int check_protocol(json_t *obj, int required, const vctx *c)
{
    json_t *p = json_object_get(obj, "protocol");
    if (!p && !required) return 0;
    if (!json_is_string(p)) return vfail(c, "missing \"protocol\"");
    if (strcmp(json_string_value(p), "groth16") != 0)
        return vfail(c, "protocol \"%s\" is not groth16", json_string_value(p));
    return 0;
}

/* The checks of a key that do not depend on its curve: protocol, curve
 * name (returned as static text), nPublic, the number of IC points. */
static int check_vk_shape(json_t *vk, const char **curve, const vctx *c)
{
    const char *name = json_string_value(json_object_get(vk, "curve"));
    if (!name) return vfail(c, "missing \"curve\"");
    if (strcmp(name, "bn128") == 0)
        *curve = "bn128";
    else if (strcmp(name, "bls12381") == 0)
        *curve = "bls12381";
    else
        return vfail(c, "unknown curve \"%s\" (bn128 or bls12381)", name);
    if (check_protocol(vk, 1, c)) return -1;
    json_t *np = json_object_get(vk, "nPublic");
    json_t *ic = json_object_get(vk, "IC");
    if (!np) return vfail(c, "missing \"nPublic\" (is this a verification key?)");
    if (!json_is_integer(np) || json_integer_value(np) < 0)
        return vfail(c, "\"nPublic\" is not a non-negative integer");
    size_t n = (size_t)json_integer_value(np);
    if (!json_is_array(ic) || json_array_size(ic) != n + 1)
        return vfail(c, "\"IC\" does not hold nPublic + 1 = %zu points", n + 1);
    return 0;
}

/* What the public signals and the proof must agree on with the key: the
 * number of signals, the proof's protocol and curve name. */
static int check_shape(json_t *vk, json_t *pub, json_t *proof, const char *curve, const vctx c[3])
{
    if (check_protocol(proof, 0, &c[2])) return -1;
    size_t n = (size_t)json_integer_value(json_object_get(vk, "nPublic"));
    if (json_array_size(pub) != n)
        return vfail(&c[1], "%zu public signals, the verification key expects %zu",
                     json_array_size(pub), n);
    json_t *pc = json_object_get(proof, "curve");
    if (pc && (!json_is_string(pc) || strcmp(json_string_value(pc), curve) != 0))
        return vfail(&c[2], "curve \"%s\" does not match the verification key's \"%s\"",
                     json_is_string(pc) ? json_string_value(pc) : "?", curve);
    return 0;
}

/* text of len bytes as JSON of the given type; NULL reported. */
static json_t *load(const char *text, size_t len, json_type type, const vctx *c)
{
    json_error_t e;
    json_t *v = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &e) : NULL;
    if (!v) {
        if (text)
            vfail(c, "invalid JSON at line %d, column %d: %s", e.line, e.column, e.text);
        else
            vfail(c, "no text");
        return NULL;
    }
    if (json_typeof(v) != type) {
        vfail(c, "expected a JSON %s", type == JSON_ARRAY ? "array" : "object");
        json_decref(v);
        return NULL;
    }
    return v;
}

static json_t *load_text(const char *text, json_type type, const vctx *c)
{
    return load(text, text ? strlen(text) : 0, type, c);
}

static int verify_parsed(json_t *vk, json_t *pub, json_t *proof, const vctx c[3])
{
    const char *curve;
    if (check_vk_shape(vk, &curve, &c[0]) || check_shape(vk, pub, proof, curve, c)) return -1;
    return strcmp(curve, "bn128") == 0 ? bn254_verify(vk, pub, proof, c)
                                       : bls12_381_verify(vk, pub, proof, c);
}

/* 1 valid, 0 invalid, -1 malformed (the templates' verdict). */
static int verify_texts(const char *vk_json, const char *public_json, const char *proof_json,
                        const vctx c[3])
{
    json_t *vk = NULL, *pub = NULL, *proof = NULL;
    int rc = -1;
    if ((vk = load_text(vk_json, JSON_OBJECT, &c[0])) &&
        (pub = load_text(public_json, JSON_ARRAY, &c[1])) &&
        (proof = load_text(proof_json, JSON_OBJECT, &c[2])))
        rc = verify_parsed(vk, pub, proof, c);
    json_decref(vk);
    json_decref(pub);
    json_decref(proof);
    return rc;
}

g16_status g16_verify_json_named(const char *vk_json, const char *public_json,
                                 const char *proof_json, const char *vk_name,
                                 const char *public_name, const char *proof_name, bool *valid,
                                 char *err, size_t errlen)
{
    const vctx c[3] = {
        {vk_name, err, errlen}, {public_name, err, errlen}, {proof_name, err, errlen}};
    if (err && errlen) err[0] = 0;
    int rc = verify_texts(vk_json, public_json, proof_json, c);
    *valid = rc == 1;
    return rc < 0 ? G16_ERR_FORMAT : G16_OK;
}

g16_status g16_verify_json(const char *vk_json, const char *public_json, const char *proof_json,
                           bool *valid, char *err, size_t errlen)
{
    return g16_verify_json_named(vk_json, public_json, proof_json, "verification key",
                                 "public signals", "proof", valid, err, errlen);
}

/* Proof i's public signals and proof parsed and shaped, or NULL in both
 * with valid[i] = -1. */
static void load_item(json_t *vk, const char *curve, const char *pub_json, const char *proof_json,
                      json_t **pub, json_t **proof, int *valid, const vctx c[3])
{
    *proof = NULL;
    if ((*pub = load_text(pub_json, JSON_ARRAY, &c[1])) &&
        (*proof = load_text(proof_json, JSON_OBJECT, &c[2])) &&
        !check_shape(vk, *pub, *proof, curve, c))
        return;
    json_decref(*pub);
    json_decref(*proof);
    *pub = *proof = NULL;
    *valid = -1;
}

g16_status g16_verify_batch_json(const char *vk_json, size_t n, const char *const *public_json,
                                 const char *const *proof_json, int *valid, char *err,
                                 size_t errlen)
{
    char scratch[256];
    const vctx kc = {"verification key", err, errlen};
    const vctx c[3] = {{"verification key", scratch, sizeof scratch},
                       {"public signals", scratch, sizeof scratch},
                       {"proof", scratch, sizeof scratch}};
    const char *curve;
    if (err && errlen) err[0] = 0;
    json_t *vk = load_text(vk_json, JSON_OBJECT, &kc);
    json_t **pub = calloc(n ? n : 1, sizeof *pub), **proof = calloc(n ? n : 1, sizeof *proof);
    int rc = -1;
    g16_status st = G16_ERR_FORMAT;
    if (!pub || !proof) {
        st = G16_ERR_NOMEM;
        vfail(&kc, "out of memory");
        goto out;
    }
    if (!vk || check_vk_shape(vk, &curve, &kc)) goto out;
    for (size_t i = 0; i < n; i++)
        load_item(vk, curve, public_json[i], proof_json[i], &pub[i], &proof[i], &valid[i], c);
    rc = strcmp(curve, "bn128") == 0 ? bn254_verify_batch(vk, pub, proof, n, valid, &kc, c)
                                     : bls12_381_verify_batch(vk, pub, proof, n, valid, &kc, c);
    if (rc == -2) vfail(&kc, "out of memory or randomness");
    st = rc == 0 ? G16_OK : rc == -2 ? G16_ERR_NOMEM : G16_ERR_FORMAT;
out:
    for (size_t i = 0; pub && proof && i < n; i++) {
        json_decref(pub[i]);
        json_decref(proof[i]);
    }
    free(pub);
    free(proof);
    json_decref(vk);
    return st;
}

/* The key's points checked and made canonical in place (see g16.h). */
static g16_status vk_check_parsed(json_t *vk, g16_vk_info *info, char **canonical, const vctx *c)
{
    const char *curve;
    if (check_vk_shape(vk, &curve, c)) return G16_ERR_FORMAT;
    int rc = strcmp(curve, "bn128") == 0 ? bn254_vk_check(vk, c) : bls12_381_vk_check(vk, c);
    if (rc) return rc == -2 ? G16_ERR_NOMEM : G16_ERR_FORMAT;
    if (canonical && !(*canonical = json_dumps(vk, JSON_INDENT(1) | JSON_PRESERVE_ORDER))) {
        vfail(c, "out of memory");
        return G16_ERR_NOMEM;
    }
    if (info)
        *info = (g16_vk_info){curve, (size_t)json_integer_value(json_object_get(vk, "nPublic"))};
    return G16_OK;
}

g16_status g16_vk_check_json(const char *text, size_t len, const char *name, g16_vk_info *info,
                             char **canonical, char *err, size_t errlen)
{
    const vctx c = {name ? name : "verification key", err, errlen};
    if (err && errlen) err[0] = 0;
    if (canonical) *canonical = NULL;
    json_t *vk = load(text, len, JSON_OBJECT, &c);
    g16_status rc = vk     ? vk_check_parsed(vk, info, canonical, &c)
                    : text ? G16_ERR_FORMAT
                           : G16_ERR_ARG;
    json_decref(vk);
    return rc;
}
