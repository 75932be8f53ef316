/* What parsing a request body costs, charged to the memory budget before
 * the parse starts (http.c), and whether it fits: pure functions, so
 * tests/daemon checks them against jansson without a daemon.
 *
 * A body is parsed by jansson into a tree whose nodes cost far more than
 * their text: a number of two characters ("1,") is a 32-byte json_real and
 * a slot in its array's table, an empty object ("{},") an 80-byte object
 * with a 144-byte bucket array.  So the cost is counted from the body's
 * tokens, not its length alone: an uploaded witness (one long string)
 * costs a few times its length, an input of a million numbers some thirty
 * times.  The count is an upper bound for jansson 2.14 on a 64-bit glibc
 * (16-byte aligned chunks with an 8-byte header, at least 32 bytes), each
 * term below the largest of what it covers; test_body_budget measures
 * jansson's heap against it. */
#include <string.h>

#include "d.h"

/* Bytes of the tree per token. */
#define TREE_CONTAINER 224 /* an object (80) and its 8 buckets (144); an array is 48 + 80 */
#define TREE_SCALAR    32  /* a json_real (json_integer the same; true/false/null: none) */
#define TREE_STRING    80  /* a json_string (48) and its value's smallest chunk (32) */
#define TREE_STRING_B                                                                              \
    4                    /* per string byte: the lexer's buffer (doubling, old and new while it
                              grows) and the value */
#define TREE_ELEMENT 24  /* an array's table slot: doubling, the old table beside the new */
#define TREE_MEMBER  128 /* an object's pair (80 with a short key) and its share of buckets */

/* An input's values as jobs.c checks them: written back as text (at most
 * 25 characters a number, no more than its own text a string), read into
 * memory once, and parsed by the library into field words (32 bytes a
 * value: a key's circuit computes over BN254's or BLS12-381's scalar field). */
#define INPUT_NUMBER_TEXT 25
#define INPUT_TOKEN_TEXT  4 /* punctuation and quotes around each token */
#define INPUT_VALUE_WORDS 32

typedef struct {
    size_t containers, scalars, strings, string_bytes, members;
} tokens;

/* One pass outside the parser: strings are skipped (a backslash escapes
 * the next byte), a run of other non-structural bytes is one scalar.
 * Malformed text is counted all the same; jansson refuses it later. */
static void count_tokens(const char *s, size_t len, tokens *t)
{
    memset(t, 0, sizeof *t);
    int in_scalar = 0;
    for (size_t i = 0; i < len; i++) {
        switch (s[i]) {
        case '"': {
            size_t start = ++i;
            while (i < len && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
            t->strings++;
            t->string_bytes += (i < len ? i : len) - start;
            in_scalar = 0;
            break;
        }
        case '{':
        case '[': t->containers++; /* fall through */
        case '}':
        case ']':
        case ',':
        case ' ':
        case '\t':
        case '\r':
        case '\n': in_scalar = 0; break;
        case ':':
            t->members++;
            in_scalar = 0;
            break;
        default: t->scalars += !in_scalar; in_scalar = 1;
        }
    }
}

size_t d_body_parse_bytes(const char *body, size_t len)
{
    tokens t;
    count_tokens(body, len, &t);
    size_t n = t.containers + t.scalars + t.strings;
    size_t tree = TREE_CONTAINER * t.containers + TREE_SCALAR * t.scalars +
                  TREE_STRING * t.strings + TREE_STRING_B * t.string_bytes + TREE_ELEMENT * n +
                  TREE_MEMBER * t.members;
    size_t text = INPUT_NUMBER_TEXT * t.scalars + t.string_bytes + INPUT_TOKEN_TEXT * n;
    size_t words = INPUT_VALUE_WORDS * n; /* counted before they are checked: an object too */
    return tree + text + words;
}

d_body_fit_t d_body_fit(size_t budget, size_t free_now, size_t held, size_t more)
{
    if (held > budget || more > budget - held) return D_BODY_NEVER;
    return more > free_now ? D_BODY_NOT_NOW : D_BODY_FITS;
}
