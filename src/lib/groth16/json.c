/* proof.json and public.json in exactly the shape snarkjs writes them
 * (JSON.stringify with an indent of one space, no trailing newline), so
 * tools that compare or hash these files see no difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/groth16.h"

char *groth16_format_proof(char dec[8][GROTH16_DEC_MAX], const int inf[3], const char *curve)
{
    /* snarkjs prints infinity as the projective (0, 1, 0) */
    const char *a[3] = {dec[0], dec[1], "1"}, *c[3] = {dec[6], dec[7], "1"};
    const char *b[6] = {dec[2], dec[3], dec[4], dec[5], "1", "0"};
    if (inf[0]) {
        a[0] = "0";
        a[1] = "1";
        a[2] = "0";
    }
    if (inf[2]) {
        c[0] = "0";
        c[1] = "1";
        c[2] = "0";
    }
    if (inf[1]) {
        b[0] = b[1] = b[3] = b[4] = b[5] = "0";
        b[2] = "1";
    }
    size_t cap = 8 * GROTH16_DEC_MAX + 512;
    char *out = malloc(cap);
    if (!out) return NULL;
    snprintf(out, cap,
             "{\n \"pi_a\": [\n  \"%s\",\n  \"%s\",\n  \"%s\"\n ],\n"
             " \"pi_b\": [\n  [\n   \"%s\",\n   \"%s\"\n  ],\n  [\n   \"%s\",\n   \"%s\"\n  ],\n"
             "  [\n   \"%s\",\n   \"%s\"\n  ]\n ],\n"
             " \"pi_c\": [\n  \"%s\",\n  \"%s\",\n  \"%s\"\n ],\n"
             " \"protocol\": \"groth16\",\n \"curve\": \"%s\"\n}",
             a[0], a[1], a[2], b[0], b[1], b[2], b[3], b[4], b[5], c[0], c[1], c[2], curve);
    return out;
}

/* Decimal text of a plain little-endian scalar (both curves' Fr: 4 limbs). */
static void scalar_to_dec(char *out, const uint8_t *bytes, size_t len)
{
    uint64_t v[8] = {0};
    size_t limbs = (len + 7) / 8;
    memcpy(v, bytes, len);
    char digits[GROTH16_DEC_MAX];
    int n = 0;
    for (;;) {
        unsigned __int128 rem = 0;
        int nonzero = 0;
        for (size_t i = limbs; i-- > 0;) {
            unsigned __int128 cur = (rem << 64) | v[i];
            v[i] = (uint64_t)(cur / 10);
            rem = cur % 10;
            nonzero |= v[i] != 0;
        }
        digits[n++] = (char)('0' + (int)rem);
        if (!nonzero) break;
    }
    for (int i = 0; i < n; i++) out[i] = digits[n - 1 - i];
    out[n] = 0;
}

char *groth16_public_json(const groth16_curve *c, const uint8_t *witness, uint32_t n_public)
{
    size_t cap = 8 + (size_t)n_public * (GROTH16_DEC_MAX + 8);
    char *out = malloc(cap), dec[GROTH16_DEC_MAX];
    if (!out) return NULL;
    size_t pos = (size_t)snprintf(out, cap, "[");
    for (uint32_t i = 1; i <= n_public; i++) {
        scalar_to_dec(dec, witness + (size_t)i * c->fr_bytes, c->fr_bytes);
        pos += (size_t)snprintf(out + pos, cap - pos, "%s\n \"%s\"", i > 1 ? "," : "", dec);
    }
    snprintf(out + pos, cap - pos, "%s]", n_public ? "\n" : "");
    return out;
}
