/* test_open_sha256 WASM SHA256_HEX CACHE_DIR FRESH_DIR: a circuit opened
 * with g16_circuit_open_sha256 is opened only from bytes with the digest
 * named: the right one opens it (and g16_circuit_wasm_sha256 gives it
 * back), another is G16_ERR_MISMATCH naming the file and both digests,
 * with nothing compiled (FRESH_DIR, a cache directory not yet made, stays
 * so). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/test.h"
#include "g16_witness.h"

static void to_hex(const uint8_t *d, char out[2 * G16_SHA256_BYTES + 1])
{
    for (int i = 0; i < G16_SHA256_BYTES; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

static int from_hex(const char *hex, uint8_t out[G16_SHA256_BYTES])
{
    if (strlen(hex) != 2 * G16_SHA256_BYTES) return -1;
    for (int i = 0; i < G16_SHA256_BYTES; i++)
        if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1) return -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: test_open_sha256 WASM SHA256_HEX CACHE_DIR FRESH_DIR\n");
        return 2;
    }
    const char *wasm = argv[1], *cache = argv[3], *fresh = argv[4];
    uint8_t want[G16_SHA256_BYTES], got[G16_SHA256_BYTES], other[G16_SHA256_BYTES];
    char err[512], hex[2 * G16_SHA256_BYTES + 1], other_hex[2 * G16_SHA256_BYTES + 1];
    if (from_hex(argv[2], want)) {
        fprintf(stderr, "FAIL: %s is no SHA-256\n", argv[2]);
        return 2;
    }
    rmdir(fresh); /* a failed run's, when empty */
    g16_circuit *c = NULL;
    int rc = g16_circuit_open(wasm, cache, &c, err, sizeof err);
    CHECKF(rc == 0, "open: %s", err);
    if (c) {
        g16_circuit_wasm_sha256(c, got);
        to_hex(got, hex);
        CHECKF(!memcmp(got, want, sizeof got), "the circuit's digest is %s, not %s", hex, argv[2]);
        g16_circuit_close(c);
    }
    c = NULL;
    rc = g16_circuit_open_sha256(wasm, cache, want, &c, err, sizeof err);
    CHECKF(rc == 0 && c, "open with its own digest: %s", err);
    g16_circuit_close(c);

    memcpy(other, want, sizeof other);
    other[G16_SHA256_BYTES - 1] ^= 1;
    to_hex(other, other_hex);
    c = NULL;
    err[0] = 0;
    rc = g16_circuit_open_sha256(wasm, fresh, other, &c, err, sizeof err);
    CHECKF(rc == G16_ERR_MISMATCH && !c, "another digest: rc %d, %s", rc, err);
    CHECKF(strstr(err, wasm) && strstr(err, argv[2]) && strstr(err, other_hex) &&
               !strchr(err, '\n'),
           "the error names the file and both digests on one line: %s", err);
    struct stat st;
    CHECKF(stat(fresh, &st) != 0, "%s was made: the open went on past the digest", fresh);
    return test_finish("test_open_sha256");
}
