/* The four moduli g16 knows, and the helpers that recognise them. */
#include <string.h>
#include "formats_internal.h"

/* Little-endian bytes, checked against ffjavascript's bn128.js and
 * bls12381.js and against the fixtures' headers. */
static const uint8_t bn128_fr[32] = {
    0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9, 0x79, 0x48, 0xe8, 0x33, 0x28,
    0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30,
};
static const uint8_t bn128_fq[32] = {
    0x47, 0xfd, 0x7c, 0xd8, 0x16, 0x8c, 0x20, 0x3c, 0x8d, 0xca, 0x71, 0x68, 0x91, 0x6a, 0x81, 0x97,
    0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30,
};
static const uint8_t bls12381_fr[32] = {
    0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
    0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73,
};
static const uint8_t bls12381_fq[48] = {
    0xab, 0xaa, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xb9, 0xff, 0xff, 0x53, 0xb1, 0xfe, 0xff, 0xab, 0x1e,
    0x24, 0xf6, 0xb0, 0xf6, 0xa0, 0xd2, 0x30, 0x67, 0xbf, 0x12, 0x85, 0xf3, 0x84, 0x4b, 0x77, 0x64,
    0xd7, 0xac, 0x4b, 0x43, 0xb6, 0xa7, 0x1b, 0x4b, 0x9a, 0xe6, 0x7f, 0x39, 0xea, 0x11, 0x01, 0x1a,
};

static const struct {
    formats_field field;
    formats_curve curve;
    const uint8_t *bytes;
    uint32_t n8;
} known_fields[] = {
    {FORMATS_FIELD_BN128_FR, FORMATS_CURVE_BN128, bn128_fr, 32},
    {FORMATS_FIELD_BN128_FQ, FORMATS_CURVE_BN128, bn128_fq, 32},
    {FORMATS_FIELD_BLS12381_FR, FORMATS_CURVE_BLS12381, bls12381_fr, 32},
    {FORMATS_FIELD_BLS12381_FQ, FORMATS_CURVE_BLS12381, bls12381_fq, 48},
};
#define N_KNOWN (sizeof known_fields / sizeof known_fields[0])

formats_field formats_field_of_prime(const uint8_t *p, uint32_t n8)
{
    for (size_t i = 0; p && i < N_KNOWN; i++)
        if (known_fields[i].n8 == n8 && !memcmp(known_fields[i].bytes, p, n8))
            return known_fields[i].field;
    return FORMATS_FIELD_UNKNOWN;
}

formats_curve formats_curve_of_prime(const uint8_t *p, uint32_t n8)
{
    formats_field f = formats_field_of_prime(p, n8);
    for (size_t i = 0; i < N_KNOWN; i++)
        if (known_fields[i].field == f) return known_fields[i].curve;
    return FORMATS_CURVE_UNKNOWN;
}

const char *formats_curve_name(formats_curve c)
{
    switch (c) {
    case FORMATS_CURVE_BN128: return "bn128";
    case FORMATS_CURVE_BLS12381: return "bls12381";
    default: return "unknown";
    }
}

const uint8_t *formats_field_modulus(formats_field f, uint32_t *n8)
{
    for (size_t i = 0; i < N_KNOWN; i++)
        if (known_fields[i].field == f) {
            if (n8) *n8 = known_fields[i].n8;
            return known_fields[i].bytes;
        }
    return NULL;
}

formats_field formats_scalar_field(formats_curve c)
{
    switch (c) {
    case FORMATS_CURVE_BN128: return FORMATS_FIELD_BN128_FR;
    case FORMATS_CURVE_BLS12381: return FORMATS_FIELD_BLS12381_FR;
    default: return FORMATS_FIELD_UNKNOWN;
    }
}

formats_field formats_base_field(formats_curve c)
{
    switch (c) {
    case FORMATS_CURVE_BN128: return FORMATS_FIELD_BN128_FQ;
    case FORMATS_CURVE_BLS12381: return FORMATS_FIELD_BLS12381_FQ;
    default: return FORMATS_FIELD_UNKNOWN;
    }
}

int formats_lt(const uint8_t *a, const uint8_t *b, uint32_t n8)
{
    for (uint32_t i = n8; i-- > 0;)
        if (a[i] != b[i]) return a[i] < b[i];
    return 0;
}
