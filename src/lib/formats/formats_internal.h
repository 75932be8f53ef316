/* Private helpers shared by the format readers and writers. */
#ifndef G16_FORMATS_INTERNAL_H
#define G16_FORMATS_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include "formats/formats.h"

/* Writes "<name>: <fmt...>" into err (if any) and returns -1. */
int formats_fail(char *err, size_t errlen, const char *name, const char *fmt,
                 ...) __attribute__((format(printf, 4, 5)));

/* Checked arithmetic: return 0 on overflow (result undefined then). */
static inline int formats_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static inline int formats_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

static inline void formats_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void formats_put_u64(uint8_t *p, uint64_t v)
{
    formats_put_u32(p, (uint32_t)v);
    formats_put_u32(p + 4, (uint32_t)(v >> 32));
}

/* Field element sizes we accept: whole 64-bit limbs, up to 512 bits. */
static inline int formats_n8_ok(uint32_t n8)
{
    return n8 >= 8 && n8 <= 64 && n8 % 8 == 0;
}

/* Checks section `id` has exactly count*unit bytes. */
int formats_expect_size(const char *name, uint32_t id, const char *what,
                        uint64_t size, uint64_t count, uint64_t unit,
                        char *err, size_t errlen);

/* Validates one r1cs constraint section (used by reader and writer). */
int r1cs_check_constraints(const uint8_t *sec, uint64_t size, uint32_t n8,
                           const uint8_t *prime, uint32_t n_wires,
                           uint32_t n_constraints, const char *name,
                           char *err, size_t errlen);

#endif
