/* The two scalar fields wrapped for fr_ops.  memcpy in and out instead of
 * pointer casts: fr_t and bnxxx_fr are distinct types, and the copies of
 * 32 bytes vanish under optimisation. */
#include "synth/fr_ops.h"

#include <string.h>

#include "field/field.h"

_Static_assert(sizeof(fr_t) == sizeof(bn254_fr), "fr_t layout");
_Static_assert(sizeof(fr_t) == sizeof(bls12_381_fr), "fr_t layout");

#define FR_WRAP(F)                                                                                 \
    static void F##_w_add(fr_t *r, const fr_t *a, const fr_t *b)                                   \
    {                                                                                              \
        F x, y, z;                                                                                 \
        memcpy(&x, a, 32);                                                                         \
        memcpy(&y, b, 32);                                                                         \
        F##_add(&z, &x, &y);                                                                       \
        memcpy(r, &z, 32);                                                                         \
    }                                                                                              \
    static void F##_w_sub(fr_t *r, const fr_t *a, const fr_t *b)                                   \
    {                                                                                              \
        F x, y, z;                                                                                 \
        memcpy(&x, a, 32);                                                                         \
        memcpy(&y, b, 32);                                                                         \
        F##_sub(&z, &x, &y);                                                                       \
        memcpy(r, &z, 32);                                                                         \
    }                                                                                              \
    static void F##_w_mul(fr_t *r, const fr_t *a, const fr_t *b)                                   \
    {                                                                                              \
        F x, y, z;                                                                                 \
        memcpy(&x, a, 32);                                                                         \
        memcpy(&y, b, 32);                                                                         \
        F##_mul(&z, &x, &y);                                                                       \
        memcpy(r, &z, 32);                                                                         \
    }                                                                                              \
    static void F##_w_from_u64(fr_t *r, uint64_t v)                                                \
    {                                                                                              \
        F z;                                                                                       \
        F##_from_u64(&z, v);                                                                       \
        memcpy(r, &z, 32);                                                                         \
    }                                                                                              \
    static int F##_w_from_bytes(fr_t *r, const uint8_t *in)                                        \
    {                                                                                              \
        F z;                                                                                       \
        if (!F##_from_bytes(&z, in)) return 0;                                                     \
        memcpy(r, &z, 32);                                                                         \
        return 1;                                                                                  \
    }                                                                                              \
    static void F##_w_to_bytes(uint8_t *out, const fr_t *a)                                        \
    {                                                                                              \
        F x;                                                                                       \
        memcpy(&x, a, 32);                                                                         \
        F##_to_bytes(out, &x);                                                                     \
    }                                                                                              \
    static int F##_w_is_canonical(const fr_t *a)                                                   \
    {                                                                                              \
        F x;                                                                                       \
        memcpy(&x, a, 32);                                                                         \
        return F##_is_canonical(&x);                                                               \
    }

FR_WRAP(bn254_fr)
FR_WRAP(bls12_381_fr)

#define FR_TABLE(F, C, FLD, BITS, ONE)                                                             \
    {                                                                                              \
        C, BITS, FLD, {{ONE}}, F##_w_add, F##_w_sub, F##_w_mul, F##_w_from_u64, F##_w_from_bytes,  \
            F##_w_to_bytes, F##_w_is_canonical                                                     \
    }

static const fr_ops tables[2] = {
    FR_TABLE(bn254_fr, FORMATS_CURVE_BN128, FORMATS_FIELD_BN128_FR, BN254_FR_BITS, BN254_FR_ONE),
    FR_TABLE(bls12_381_fr, FORMATS_CURVE_BLS12381, FORMATS_FIELD_BLS12381_FR, BLS12_381_FR_BITS,
             BLS12_381_FR_ONE),
};

const fr_ops *fr_ops_for(formats_curve curve)
{
    for (int i = 0; i < 2; i++)
        if (tables[i].curve == curve) return &tables[i];
    return NULL;
}
