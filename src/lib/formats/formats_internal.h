/* Private helpers shared by the format readers and writers. */
#ifndef G16_FORMATS_INTERNAL_H
#define G16_FORMATS_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <errno.h>
#include "formats/formats.h"
#include "g16.h"

/* Writes "<name>: <fmt...>" into err (if any) and returns -1. */
int formats_fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

struct stat;
/* Opens path read-only and checks that it is a regular file (*st filled):
 * the fd, or -1 with "<path>: <problem>" in err and errno set (EINVAL for
 * "not a regular file"). */
int formats_open_regular(const char *path, struct stat *st, char *err, size_t errlen);

/* The g16_status of a failed open, map or read, from the errno that
 * formats_open_regular and formats_map_file leave. */
static inline int formats_status_of_errno(int e)
{
    if (e == ENOENT || e == ENOTDIR) return G16_ERR_NOT_FOUND;
    return e == ENOMEM ? G16_ERR_NOMEM : G16_ERR_IO;
}

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
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline void formats_put_u64(uint8_t *p, uint64_t v)
{
    formats_put_u32(p, (uint32_t)v);
    formats_put_u32(p + 4, (uint32_t)(v >> 32));
}

/* Field element sizes we accept: whole 64-bit limbs, up to 512 bits. */
static inline int formats_n8_ok(uint32_t n8) { return n8 >= 8 && n8 <= 64 && n8 % 8 == 0; }

/* Checks section `id` has exactly count*unit bytes. */
int formats_expect_size(const char *name, uint32_t id, const char *what, uint64_t size,
                        uint64_t count, uint64_t unit, char *err, size_t errlen);

/* Validates one r1cs constraint section (used by reader and writer). */
int r1cs_check_constraints(const uint8_t *sec, uint64_t size, uint32_t n8, const uint8_t *prime,
                           uint32_t n_wires, uint32_t n_constraints, const char *name, char *err,
                           size_t errlen);

#endif
