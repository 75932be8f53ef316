/* fr_ops: the scalar field of either curve behind one table of functions.
 *
 * Contract
 * - fr_t has the layout of bn254_fr and bls12_381_fr (four little-endian
 *   64-bit limbs, Montgomery form); fr_ops_for(curve) returns the table for
 *   FORMATS_CURVE_BN128 or FORMATS_CURVE_BLS12381 (NULL otherwise).
 * - from_bytes / to_bytes convert the canonical 32-byte little-endian
 *   plain value (as in .r1cs and .wtns); from_bytes returns 0 when the
 *   value is not below the modulus.
 *
 * Why a table and not templates: the synthetic generator and the checker
 * spend their time in file I/O and a handful of multiplications per
 * constraint, so one copy of their logic for both curves is worth an
 * indirect call.
 */
#ifndef G16_SYNTH_FR_OPS_H
#define G16_SYNTH_FR_OPS_H

#include <stdint.h>

#include "formats/formats.h"

typedef struct {
    uint64_t v[4];
} fr_t;

typedef struct {
    formats_curve curve;
    unsigned bits;       /* bit length of the modulus */
    formats_field field; /* for formats_field_modulus */
    fr_t one;            /* Montgomery form of 1 */
    void (*add)(fr_t *r, const fr_t *a, const fr_t *b);
    void (*sub)(fr_t *r, const fr_t *a, const fr_t *b);
    void (*mul)(fr_t *r, const fr_t *a, const fr_t *b);
    void (*from_u64)(fr_t *r, uint64_t x);
    int (*from_bytes)(fr_t *r, const uint8_t *in);
    void (*to_bytes)(uint8_t *out, const fr_t *a);
    int (*is_canonical)(const fr_t *a);
} fr_ops;

const fr_ops *fr_ops_for(formats_curve curve);

/* The modulus as 32 little-endian bytes. */
static inline const uint8_t *fr_modulus(const fr_ops *f)
{
    uint32_t n8;
    return formats_field_modulus(f->field, &n8);
}

static inline int fr_eq(const fr_t *a, const fr_t *b)
{
    return ((a->v[0] ^ b->v[0]) | (a->v[1] ^ b->v[1]) | (a->v[2] ^ b->v[2]) |
            (a->v[3] ^ b->v[3])) == 0;
}

static inline int fr_is_zero(const fr_t *a) { return (a->v[0] | a->v[1] | a->v[2] | a->v[3]) == 0; }

#endif
