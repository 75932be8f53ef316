/* input.json -> field values, read as snarkjs reads it (see witness.h).
 *
 * snarkjs parses the file with JSON.parse (every number a double), turns
 * strings of decimal digits or 0x-hex into BigInts, passes everything else
 * to BigInt(), and reduces with ((v % p) + p) % p.  So here: numbers are
 * parsed as doubles and must be integral; strings follow BigInt()'s syntax
 * (surrounding whitespace ignored, empty = 0, an optional sign on decimal,
 * 0x / 0o / 0b prefixes); true and false are 1 and 0; null and objects are
 * errors. */
#include <ctype.h>
#include <gmp.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "witness/witness.h"

uint64_t witness_name_hash(const char *name)
{
    /* 64-bit FNV-1a over the name's bytes.  circom hashes UTF-16 code
     * units; they equal the bytes for the ASCII names circom allows. */
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Where a value sits, for error messages. */
typedef struct {
    const char *file, *signal;
    size_t index;
    char *err;
    size_t errlen;
} value_site;

static int value_error(const value_site *at, const char *what, const char *text)
{
    snprintf(at->err, at->errlen, "%s: signal '%s' value %zu: %s%s%s%s", at->file, at->signal,
             at->index, what, text ? " ('" : "", text ? text : "", text ? "')" : "");
    return G16_ERR_FORMAT;
}

/* The base of a string BigInt() accepts, with *digits at its first digit,
 * or 0 when it is not one.  *negative is set for "-123". */
static int bigint_string_base(const char *s, size_t len, const char **digits, int *negative)
{
    const char *end = s + len;
    *negative = 0;
    int base = 10;
    if (len > 2 && s[0] == '0' && strchr("xXoObB", s[1])) {
        base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
        s += 2;
    } else if (len > 1 && (s[0] == '+' || s[0] == '-')) {
        *negative = s[0] == '-';
        s++;
    }
    if (s == end) return 0;
    for (const char *p = s; p < end; p++) {
        int d = isdigit((unsigned char)*p)    ? *p - '0'
                : isxdigit((unsigned char)*p) ? tolower((unsigned char)*p) - 'a' + 10
                                              : 99;
        if (d >= base) return 0;
    }
    *digits = s;
    return base;
}

static int string_value(mpz_t v, const char *s, const value_site *at)
{
    size_t len = strlen(s);
    const char *t = s;
    while (len && isspace((unsigned char)*t)) t++, len--;
    while (len && isspace((unsigned char)t[len - 1])) len--;
    if (len == 0) {
        mpz_set_ui(v, 0);
        return 0;
    }
    const char *digits;
    int negative;
    int base = bigint_string_base(t, len, &digits, &negative);
    if (!base) return value_error(at, "not an integer", s);
    char *copy = strndup(digits, len - (size_t)(digits - t));
    if (!copy) return value_error(at, "out of memory", NULL);
    int bad = mpz_set_str(v, copy, base);
    free(copy);
    if (bad) return value_error(at, "not an integer", s);
    if (negative) mpz_neg(v, v);
    return 0;
}

static int json_value(mpz_t v, const json_t *j, const value_site *at)
{
    if (json_is_string(j)) return string_value(v, json_string_value(j), at);
    if (json_is_boolean(j)) {
        mpz_set_ui(v, json_is_true(j));
        return 0;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        if (isfinite(d) && d == floor(d)) {
            mpz_set_d(v, d);
            return 0;
        }
        char text[64]; /* for the message only: formatting every value was a third of a
                          large input's parse */
        snprintf(text, sizeof text, "%.17g", d);
        return value_error(at, "not an integer", text);
    }
    return value_error(at, json_is_null(j) ? "null is not a number" : "an object is not a number",
                       NULL);
}

/* Growable list of reduced values for one signal. */
typedef struct {
    uint32_t *words;
    size_t count, cap;
    uint32_t n32;
    mpz_t prime, v;
} value_list;

static int list_push(value_list *l, const json_t *j, const value_site *at)
{
    if (l->count == l->cap) return value_error(at, "more values than counted", NULL);
    int rc = json_value(l->v, j, at);
    if (rc) return rc;
    mpz_mod(l->v, l->v, l->prime);
    uint32_t *dst = l->words + l->count * l->n32;
    memset(dst, 0, l->n32 * sizeof *dst);
    mpz_export(dst, NULL, -1, sizeof *dst, 0, 0, l->v);
    l->count++;
    return 0;
}

/* Flattens nested arrays depth first, as snarkjs's flatArray does. */
static int list_flatten(value_list *l, const json_t *j, value_site *at, int depth)
{
    if (!json_is_array(j)) {
        at->index = l->count;
        return list_push(l, j, at);
    }
    if (depth > 64) return value_error(at, "arrays nested too deeply", NULL);
    size_t i;
    const json_t *e;
    json_array_foreach(j, i, e)
    {
        int rc = list_flatten(l, e, at, depth + 1);
        if (rc) return rc;
    }
    return 0;
}

/* The values nested arrays flatten to (deeper than list_flatten goes
 * counts as one: it refuses them). */
static size_t leaf_count(const json_t *j, int depth)
{
    if (!json_is_array(j) || depth > 64) return 1;
    size_t i, n = 0;
    const json_t *e;
    json_array_foreach(j, i, e) n += leaf_count(e, depth + 1);
    return n;
}

static int parse_signal(witness_signal *sig, const char *name, const json_t *j, value_list *l,
                        value_site *at)
{
    /* the words allocated once at their count: a signal of millions of
     * values never holds a doubled array, nor the old one beside it */
    l->count = 0;
    l->cap = leaf_count(j, 0);
    l->words = l->cap ? malloc(l->cap * l->n32 * sizeof *l->words) : NULL;
    at->signal = name;
    int rc =
        l->cap && !l->words ? value_error(at, "out of memory", NULL) : list_flatten(l, j, at, 0);
    sig->name = strdup(name);
    sig->hash = witness_name_hash(name);
    sig->values = l->words;
    sig->count = l->count;
    if (!rc && !sig->name) rc = value_error(at, "out of memory", NULL);
    return rc;
}

static int parse_object(const json_t *root, const char *input_name, value_list *l,
                        witness_inputs *out, char *err, size_t errlen)
{
    out->signals = calloc(json_object_size(root) + 1, sizeof *out->signals);
    if (!out->signals) {
        snprintf(err, errlen, "%s: out of memory", input_name);
        return G16_ERR_NOMEM;
    }
    value_site at = {input_name, NULL, 0, err, errlen};
    const char *name;
    const json_t *j;
    json_object_foreach((json_t *)root, name, j)
    {
        int rc = parse_signal(&out->signals[out->count++], name, j, l, &at);
        if (rc) return rc;
    }
    return 0;
}

int witness_inputs_parse(const char *text, size_t len, const char *input_name,
                         const uint32_t *prime, uint32_t n32, witness_inputs *out, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    /* Every number as a double, as JSON.parse reads it. */
    json_t *root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &jerr);
    if (!root) {
        snprintf(err, errlen, "%s: line %d: %s", input_name, jerr.line, jerr.text);
        return G16_ERR_FORMAT;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        snprintf(err, errlen, "%s: not a JSON object of input signals", input_name);
        return G16_ERR_FORMAT;
    }
    value_list l = {.n32 = n32};
    mpz_inits(l.prime, l.v, NULL);
    mpz_import(l.prime, n32, -1, sizeof *prime, 0, 0, prime);
    int rc = parse_object(root, input_name, &l, out, err, errlen);
    mpz_clears(l.prime, l.v, NULL);
    json_decref(root);
    if (rc) witness_inputs_free(out);
    return rc;
}

void witness_inputs_free(witness_inputs *in)
{
    for (size_t i = 0; i < in->count; i++) {
        free(in->signals[i].name);
        free(in->signals[i].values);
    }
    free(in->signals);
    memset(in, 0, sizeof *in);
}
