/* test_prove_input FIXTURE_DIR CACHE_DIR: the library's two calls for a
 * service, through the public headers and libg16.so: the witness of the
 * fixture's input.json written into caller memory equals the fixture's
 * witness.wtns byte for byte (and a buffer one byte short is refused
 * before anything runs), and g16_prove_input's proof verifies against the
 * key's verification key with the fixture's public signals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "g16_witness.h"
#include "../common/test.h"
#include "../common/verdict.h"

static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4096], err[512];
    char *text = NULL;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (g16_file_read_text(path, (size_t)1 << 28, &text, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    *len = strlen(text);
    return text;
}

static void witness_into(const g16_circuit *c, const char *dir, const char *input, size_t len)
{
    char err[512] = "", path[4096];
    size_t need = g16_witness_wtns_bytes(c), got = 0;
    uint8_t *buf = malloc(need);
    const uint8_t *want;
    size_t want_len;
    snprintf(path, sizeof path, "%s/witness.wtns", dir);
    CHECK(buf && g16_file_map(path, &want, &want_len, err, sizeof err) == G16_OK);
    CHECK(g16_witness_calculate_into(c, input, len, "input.json", NULL, NULL, buf, need - 1, &got,
                                     err, sizeof err) == G16_ERR_ARG);
    CHECK(got == 0 && strstr(err, "bytes") != NULL);
    int rc = g16_witness_calculate_into(c, input, len, "input.json", NULL, NULL, buf, need, &got,
                                        err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    CHECK(rc == G16_OK && got == want_len && !memcmp(buf, want, want_len));
    g16_file_unmap(want, want_len);
    free(buf);
}

static void prove_input(const g16_circuit *c, const char *dir, const char *input, size_t len)
{
    char err[512] = "", path[4096], *proof = NULL, *pub = NULL, *vk = NULL;
    g16_key *key = NULL;
    size_t public_len;
    char *want_public = slurp(dir, "public.json", &public_len);
    snprintf(path, sizeof path, "%s/circuit.zkey", dir);
    int rc = g16_key_open(path, &key, err, sizeof err);
    if (!rc)
        rc = g16_prove_input(key, c, input, len, "input.json", NULL, &proof, &pub, NULL, err,
                             sizeof err);
    if (!rc) rc = g16_key_vk_json(key, &vk, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    CHECK(rc == G16_OK);
    /* g16_verify_json is a predicate: 1 valid */
    CHECK(!rc && test_verdict(vk, pub, proof, err, sizeof err) == 1);
    /* the same signals as snarkjs computed (texts may differ in spacing) */
    CHECK(!rc && test_verdict(vk, want_public, proof, err, sizeof err) == 1);
    /* and not any signals: a proof is bound to its public inputs */
    if (!rc && pub[0] == '[') {
        char *other = malloc(strlen(pub) + 8);
        snprintf(other, strlen(pub) + 8, "[\"7\"%s", strchr(pub, ',') ? strchr(pub, ',') : "]");
        CHECK(test_verdict(vk, other, proof, err, sizeof err) == 0);
        free(other);
    }
    free(proof), free(pub), free(vk), free(want_public);
    g16_key_free(key);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_prove_input FIXTURE_DIR CACHE_DIR\n");
        return 2;
    }
    char err[512], wasm[4096];
    g16_circuit *c = NULL;
    snprintf(wasm, sizeof wasm, "%s/circuit.wasm", argv[1]);
    if (g16_circuit_open(wasm, argv[2], &c, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    size_t len;
    char *input = slurp(argv[1], "input.json", &len);
    witness_into(c, argv[1], input, len);
    prove_input(c, argv[1], input, len);
    free(input);
    g16_circuit_close(c);
    return test_finish("test_prove_input");
}
