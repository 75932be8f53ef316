/* Shared between setup.c (curve-independent: input checks, output stream,
 * randomness) and the per-curve instances of setup_curve_template.h. */
#ifndef G16_SETUP_INTERNAL_H
#define G16_SETUP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"
#include "setup/blake2b.h"
#include "setup/setup.h"

typedef struct {
    const char *r1cs_path, *zkey_path;
    const setup_options *opt;
    r1cs r;
    uint32_t n_vars, n_public, n_constraints;
    uint32_t domain, log_domain;
    uint32_t n_coefs; /* A and B terms plus the public rows */
    int threads;
    atomic_file out;
    uint8_t *buf;
    size_t used;
    blake2b_state hash; /* over the key's points (section 10) */
    int hashing;
    double t0;
    char *err;
    size_t errlen;
} setup_ctx;

/* Buffered output; bytes are also hashed while c->hashing is set. */
int setup_put(setup_ctx *c, const void *p, size_t n);
/* A section header (id, size); never hashed. */
int setup_section(setup_ctx *c, uint32_t id, uint64_t size);
/* snarkjs's hashU32: the count of points that follow, big-endian. */
void setup_hash_count(setup_ctx *c, uint32_t n);
/* 32 random bytes for the toxic-waste value `label` (attempt `counter`). */
int setup_draw(setup_ctx *c, const char *label, uint32_t counter, uint8_t out[32]);
int setup_fail(setup_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void setup_phase(setup_ctx *c, const char *what);

int setup_run_bn254(setup_ctx *c);
int setup_run_bls12_381(setup_ctx *c);

#endif
