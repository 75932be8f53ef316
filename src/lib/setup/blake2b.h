/* BLAKE2b (RFC 7693), unkeyed, any digest length 1..64: the hash snarkjs
 * uses for a zkey's circuit hash, and our seeded key derivation. */
#ifndef G16_SETUP_BLAKE2B_H
#define G16_SETUP_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t h[8], t[2];
    uint8_t b[128];
    size_t c, outlen;
} blake2b_state;

void blake2b_init(blake2b_state *s, size_t outlen);
void blake2b_update(blake2b_state *s, const void *in, size_t len);
void blake2b_final(blake2b_state *s, uint8_t *out);

#endif
