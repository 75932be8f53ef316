/* Groth16 verification of snarkjs JSON (see verify.h for the contract).
 * The curve-specific work is stamped out of verify_template.h; this file
 * holds the JSON plumbing and the checks that do not depend on the curve. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pairing/pairing.h"
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

/* Shape checks shared by both curves: object/array types, nPublic, the
 * number of IC points and of public signals, the proof's curve name. */
static int check_shape(json_t *vk, json_t *pub, json_t *proof, const char *curve, const vctx c[3])
{
    if (check_protocol(vk, 1, &c[0]) || check_protocol(proof, 0, &c[2])) return -1;
    json_t *np = json_object_get(vk, "nPublic");
    json_t *ic = json_object_get(vk, "IC");
    if (!np) return vfail(&c[0], "missing \"nPublic\" (is this a verification key?)");
    if (!json_is_integer(np) || json_integer_value(np) < 0)
        return vfail(&c[0], "\"nPublic\" is not a non-negative integer");
    size_t n = (size_t)json_integer_value(np);
    if (!json_is_array(ic) || json_array_size(ic) != n + 1)
        return vfail(&c[0], "\"IC\" does not hold nPublic + 1 = %zu points", n + 1);
    if (json_array_size(pub) != n)
        return vfail(&c[1], "%zu public signals, the verification key expects %zu",
                     json_array_size(pub), n);
    json_t *pc = json_object_get(proof, "curve");
    if (pc && (!json_is_string(pc) || strcmp(json_string_value(pc), curve) != 0))
        return vfail(&c[2], "curve \"%s\" does not match the verification key's \"%s\"",
                     json_is_string(pc) ? json_string_value(pc) : "?", curve);
    return 0;
}

static json_t *load(const char *text, json_type type, const vctx *c)
{
    json_error_t e;
    json_t *v = text ? json_loads(text, JSON_REJECT_DUPLICATES, &e) : NULL;
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

static int verify_parsed(json_t *vk, json_t *pub, json_t *proof, const vctx c[3])
{
    const char *curve = json_string_value(json_object_get(vk, "curve"));
    if (!curve) return vfail(&c[0], "missing \"curve\"");
    int bn = strcmp(curve, "bn128") == 0, bls = strcmp(curve, "bls12381") == 0;
    if (!bn && !bls) return vfail(&c[0], "unknown curve \"%s\" (bn128 or bls12381)", curve);
    if (check_shape(vk, pub, proof, curve, c)) return -1;
    return bn ? bn254_verify(vk, pub, proof, c) : bls12_381_verify(vk, pub, proof, c);
}

int g16_verify_json_named(const char *vk_json, const char *public_json, const char *proof_json,
                          const char *vk_name, const char *public_name, const char *proof_name,
                          char *err, size_t errlen)
{
    const vctx c[3] = {
        {vk_name, err, errlen}, {public_name, err, errlen}, {proof_name, err, errlen}};
    json_t *vk = NULL, *pub = NULL, *proof = NULL;
    int rc = -1;
    if (err && errlen) err[0] = 0;
    if ((vk = load(vk_json, JSON_OBJECT, &c[0])) && (pub = load(public_json, JSON_ARRAY, &c[1])) &&
        (proof = load(proof_json, JSON_OBJECT, &c[2])))
        rc = verify_parsed(vk, pub, proof, c);
    json_decref(vk);
    json_decref(pub);
    json_decref(proof);
    return rc;
}

int g16_verify_json(const char *vk_json, const char *public_json, const char *proof_json, char *err,
                    size_t errlen)
{
    return g16_verify_json_named(vk_json, public_json, proof_json, "verification key",
                                 "public signals", "proof", err, errlen);
}
