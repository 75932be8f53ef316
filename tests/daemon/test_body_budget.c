/* The request body's parse estimate (d_body_parse_bytes) against what
 * the parse really allocates, and the fit decision (d_body_fit).
 *
 * Each body is put through what g16d does with it, every allocation of
 * jansson counted through json_set_alloc_funcs (chunk sizes as malloc
 * gives them): the request parsed into a tree; then, for each input
 * object, its text written back (to a file in g16d: only its length is
 * held, when it is read back), its subtree freed, the text parsed again
 * by the library and its values stored as field words (32 bytes each: a
 * key's circuit computes over a 256-bit field).  The peak of all that
 * must stay within the estimate, for the shapes that cost jansson the most per byte of text (numbers,
 * short strings, empty arrays and objects, many members, deep nesting)
 * and for an uploaded witness (one long string); and the estimate of a
 * body of numbers must not be loose beyond twice its measured peak. */
#include <jansson.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d.h"
#include "../common/test.h"

static size_t now_bytes, peak_bytes;

static void charge(size_t n)
{
    now_bytes += n;
    if (now_bytes > peak_bytes) peak_bytes = now_bytes;
}

static void *counted_malloc(size_t n)
{
    void *p = malloc(n);
    if (p) charge(malloc_usable_size(p) + 8); /* the chunk's header too */
    return p;
}

static void counted_free(void *p)
{
    if (p) now_bytes -= malloc_usable_size(p) + 8;
    free(p);
}

static size_t leaves(const json_t *j)
{
    if (!json_is_array(j)) return 1;
    size_t i, n = 0;
    const json_t *e;
    json_array_foreach(j, i, e) n += leaves(e);
    return n;
}

static int count_len(const char *buf, size_t size, void *data)
{
    (void)buf;
    *(size_t *)data += size;
    return 0;
}

/* One input as jobs.c takes it: its text written back (to a file: held
 * only once read back), its subtree freed, the text parsed by the
 * library and its values stored as words. */
static void check_input(json_t *inputs, size_t i)
{
    size_t len = 0, words = 0;
    json_t *input = json_array_get(inputs, i);
    json_dump_callback(input, count_len, &len, JSON_COMPACT | JSON_REAL_PRECISION(17));
    char *text = malloc(len + 1);
    json_dumpb(input, text, len, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_array_set_new(inputs, i, json_null());
    charge(len + 1);
    json_t *again = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, NULL);
    CHECK(again != NULL);
    const char *name;
    json_t *v;
    json_object_foreach(again, name, v) words += 32 * leaves(v);
    charge(words);
    now_bytes -= words;
    json_decref(again);
    now_bytes -= len + 1;
    free(text);
}

/* The peak of g16d's parse of body (beside the body itself). */
static size_t measure(const char *body)
{
    now_bytes = peak_bytes = 0;
    json_t *root = json_loads(body, JSON_DECODE_INT_AS_REAL, NULL);
    CHECK(root != NULL);
    json_t *in = json_object_get(root, "inputs");
    for (size_t i = 0; i < json_array_size(in); i++) check_input(in, i);
    json_decref(root);
    CHECK(now_bytes == 0);
    return peak_bytes;
}

/* {"key":"k","inputs":[{"a":[ITEM,ITEM,...]}]} with n items, or the
 * items as members, {"s0":ITEM,...}, when members is set. */
static char *body_of(const char *item, size_t n, int members)
{
    size_t cap = n * (strlen(item) + 16) + 64, at = 0;
    char *b = malloc(cap);
    at += (size_t)sprintf(b, "{\"key\":\"k\",\"inputs\":[{%s", members ? "" : "\"a\":[");
    for (size_t i = 0; i < n; i++) {
        if (members) at += (size_t)sprintf(b + at, "\"s%zu\":", i);
        at += (size_t)sprintf(b + at, "%s%s", item, i + 1 < n ? "," : "");
    }
    sprintf(b + at, "%s}]}", members ? "" : "]");
    return b;
}

static size_t check_body(const char *what, char *body)
{
    size_t len = strlen(body), est = d_body_parse_bytes(body, len), got = measure(body);
    printf("%-22s %9zu bytes: parse peak %10zu (%5.1fx), estimate %10zu (%5.1fx)\n", what, len, got,
           (double)got / len, est, (double)est / len);
    CHECK(got <= est);
    free(body);
    return est / (got ? got : 1);
}

int main(void)
{
    json_set_alloc_funcs(counted_malloc, counted_free);
    size_t n = 100000;
    CHECK(check_body("numbers", body_of("1", n, 0)) < 2);
    check_body("reals", body_of("0.1", n, 0));
    check_body("big numbers", body_of("1e300", n, 0));
    check_body("short strings", body_of("\"1\"", n, 0));
    check_body("empty strings", body_of("\"\"", n, 0));
    check_body("empty arrays", body_of("[]", n, 0));
    check_body("empty objects", body_of("{}", n, 0));
    check_body("nested arrays", body_of("[[1],[[2]]]", n / 4, 0));
    check_body("members", body_of("1", n / 4, 1));
    check_body("many inputs", body_of("1]},{\"b\":[1", n / 4, 0));
    /* an uploaded witness: one string of base64 */
    size_t w = 1 << 20;
    char *b64 = malloc(w + 3);
    memset(b64, 'A', w + 2);
    b64[0] = b64[w + 1] = '"';
    b64[w + 2] = 0;
    char *wit = malloc(w + 64);
    sprintf(wit, "{\"key\":\"k\",\"witnesses\":[%s]}", b64);
    free(b64);
    check_body("witness (base64)", wit);

    /* the decision: within what is free, beyond it, beyond the budget
     * (what the request holds already counts against the budget, not
     * against what is free, which it is no part of) */
    CHECK(d_body_fit(100, 100, 0, 100) == D_BODY_FITS);
    CHECK(d_body_fit(100, 50, 0, 50) == D_BODY_FITS);
    CHECK(d_body_fit(100, 50, 0, 51) == D_BODY_NOT_NOW);
    CHECK(d_body_fit(100, 0, 0, 1) == D_BODY_NOT_NOW);
    CHECK(d_body_fit(100, 100, 0, 101) == D_BODY_NEVER);
    CHECK(d_body_fit(100, 0, 0, (size_t)-1) == D_BODY_NEVER);
    CHECK(d_body_fit(100, 40, 60, 40) == D_BODY_FITS);
    CHECK(d_body_fit(100, 39, 60, 40) == D_BODY_NOT_NOW);
    CHECK(d_body_fit(100, 40, 61, 40) == D_BODY_NEVER);
    CHECK(d_body_fit(100, 0, 101, 0) == D_BODY_NEVER);
    /* an empty body needs nothing, a malformed one no less than its tokens */
    CHECK(d_body_parse_bytes("", 0) == 0);
    CHECK(d_body_parse_bytes("[1,", 3) > 0);
    CHECK(d_body_parse_bytes("\"\\", 2) > 0);
    return test_finish("test_body_budget");
}
