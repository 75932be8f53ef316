/* The bytes the cache reads before it trusts them (see witness.h): a
 * .wasm's header and section frames, read before wasm2c runs, and a cache
 * entry's trailer, read before dlopen.  Pure functions of the bytes, so
 * tests/fuzz runs them alone.
 *
 * An entry is the shared object's bytes followed by a trailer:
 *   "g16wso2\n"                  magic (8 bytes)
 *   SHA-256 of the wasm          the circuit it was built from (32)
 *   SHA-256 of the recipe        glue, rewrites, compiler flags (32)
 *   SHA-256 of all bytes before  object, magic and both digests (32)
 *   length of the object         little-endian (8)
 * A graph file (cache.c) has the same trailer with the magic "g16wgs2\n"
 * and an XXH3-128 of the same bytes, zero-padded, for the sum.
 * The digests bind the entry to its circuit: a whole, valid object of
 * another circuit (or of another recipe) under this one's name is told
 * apart from this circuit's own and rebuilt, never run.  The trailer is a
 * checksum, not a signature: who may write an entry at all is decided by
 * the directory's owner and mode (g16_dir_private, docs/security.md). */
#include <stdio.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* the state on the stack */
#include <xxhash.h>

#include "g16.h"
#include "witness/witness.h"

#define TRAILER_MAGIC     "g16wso2\n"
#define TRAILER_MAGIC_OLD "g16wso1\n" /* no digests of wasm and recipe */
#define GRAPH_MAGIC       "g16wgs2\n" /* a graph file's: XXH3-128 for the sum (1: UMAC-64) */
#define MAGIC_AT          0
#define WASM_AT           8
#define RECIPE_AT         (WASM_AT + SHA256_DIGEST_SIZE)
#define SUM_AT            (RECIPE_AT + SHA256_DIGEST_SIZE)
#define LENGTH_AT         (SUM_AT + SHA256_DIGEST_SIZE)

static void sum_of(const uint8_t *body, size_t len, const uint8_t *head, uint8_t out[32])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, len, body);
    sha256_update(&ctx, SUM_AT, head);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
}

/* A graph file's sum (witness_graph_trailer): XXH3-128, zero-padded to
 * the digest's room.  A checksum against damage, as the SHA-256 of an
 * object's trailer is (neither is a signature: the directory's rules
 * decide who writes an entry), at the memory's speed: 3-5 ms for a 2^20
 * graph's 64 MB, where SHA-256 took 60-65 ms and UMAC-64 5-8 ms of every
 * process that opened it (docs/witness-graph.md).  Its 128 bits cost
 * what 64 would. */
static void graph_sum_of(const uint8_t *body, size_t len, const uint8_t *head, uint8_t out[32])
{
    XXH3_state_t state;
    XXH3_128bits_reset(&state);
    XXH3_128bits_update(&state, body, len);
    XXH3_128bits_update(&state, head, SUM_AT);
    XXH128_canonical_t sum;
    XXH128_canonicalFromHash(&sum, XXH3_128bits_digest(&state));
    memset(out, 0, SHA256_DIGEST_SIZE);
    memcpy(out, sum.digest, sizeof sum.digest);
}

typedef void sum_fn(const uint8_t *body, size_t len, const uint8_t *head, uint8_t out[32]);

static void trailer_of(const uint8_t *body, size_t len, const witness_entry_id *id,
                       const char *magic, sum_fn *sum, uint8_t out[WITNESS_TRAILER_SIZE])
{
    memcpy(out + MAGIC_AT, magic, 8);
    memcpy(out + WASM_AT, id->wasm, SHA256_DIGEST_SIZE);
    memcpy(out + RECIPE_AT, id->recipe, SHA256_DIGEST_SIZE);
    sum(body, len, out, out + SUM_AT);
    for (int i = 0; i < 8; i++) out[LENGTH_AT + i] = (uint8_t)((uint64_t)len >> 8 * i);
}

static witness_entry_verdict check_of(const uint8_t *bytes, size_t len, const witness_entry_id *id,
                                      const char *magic, sum_fn *sum)
{
    if (len <= WITNESS_TRAILER_SIZE || memcmp(bytes + len - WITNESS_TRAILER_SIZE, magic, 8))
        return len >= 48 && !memcmp(bytes + len - 48, TRAILER_MAGIC_OLD, 8) ? WITNESS_ENTRY_OLD
                                                                            : WITNESS_ENTRY_DAMAGED;
    size_t body = len - WITNESS_TRAILER_SIZE;
    const uint8_t *t = bytes + body;
    uint64_t declared = 0;
    for (int i = 0; i < 8; i++) declared |= (uint64_t)t[LENGTH_AT + i] << 8 * i;
    if (declared != body) return WITNESS_ENTRY_DAMAGED;
    /* before the hash of the whole object: the cheap test first */
    if (memcmp(t + WASM_AT, id->wasm, SHA256_DIGEST_SIZE) ||
        memcmp(t + RECIPE_AT, id->recipe, SHA256_DIGEST_SIZE))
        return WITNESS_ENTRY_OTHER;
    uint8_t got[SHA256_DIGEST_SIZE];
    sum(bytes, body, t, got);
    return memcmp(got, t + SUM_AT, sizeof got) ? WITNESS_ENTRY_DAMAGED : WITNESS_ENTRY_OK;
}

void witness_entry_trailer(const uint8_t *body, size_t len, const witness_entry_id *id,
                           uint8_t out[WITNESS_TRAILER_SIZE])
{
    trailer_of(body, len, id, TRAILER_MAGIC, sum_of, out);
}

witness_entry_verdict witness_entry_check(const uint8_t *bytes, size_t len,
                                          const witness_entry_id *id)
{
    return check_of(bytes, len, id, TRAILER_MAGIC, sum_of);
}

void witness_graph_trailer(const uint8_t *body, size_t len, const witness_entry_id *id,
                           uint8_t out[WITNESS_TRAILER_SIZE])
{
    trailer_of(body, len, id, GRAPH_MAGIC, graph_sum_of, out);
}

witness_entry_verdict witness_graph_check(const uint8_t *bytes, size_t len,
                                          const witness_entry_id *id)
{
    return check_of(bytes, len, id, GRAPH_MAGIC, graph_sum_of);
}

/* An unsigned LEB128 of at most 32 bits at bytes[*at..len): 0 and *at
 * past it, or -1 when it is cut off, too long or over 32 bits. */
static int leb_u32(const uint8_t *bytes, size_t len, size_t *at, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 5; i++) {
        if (*at >= len) return -1;
        uint8_t b = bytes[(*at)++];
        if (i == 4 && (b & 0xf0)) return -1; /* bits past 32, or a sixth byte */
        v |= (uint32_t)(b & 0x7f) << 7 * i;
        if (!(b & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* The section ids of WebAssembly 1.0 and the proposals wasm2c reads:
 * data count (12) and tags (13). */
#define WASM_LAST_SECTION 13

int witness_wasm_check(const uint8_t *bytes, size_t len, const char *wasm_path, char *err,
                       size_t errlen)
{
    if (len < 8 || memcmp(bytes, "\0asm\1\0\0\0", 8)) {
        snprintf(err, errlen, "%s: not a WebAssembly module (no \\0asm version-1 header)",
                 wasm_path);
        return G16_ERR_FORMAT;
    }
    for (size_t at = 8; at < len;) {
        size_t start = at;
        uint8_t id = bytes[at++];
        uint32_t size;
        const char *bad = NULL;
        if (id > WASM_LAST_SECTION)
            bad = "an unknown section id";
        else if (leb_u32(bytes, len, &at, &size))
            bad = "a malformed section size";
        else if (size > len - at)
            bad = "a section that runs past the end of the file";
        if (bad) {
            snprintf(err, errlen, "%s: not a valid WebAssembly module (%s at byte %zu)", wasm_path,
                     bad, start);
            return G16_ERR_FORMAT;
        }
        at += size;
    }
    return G16_OK;
}
