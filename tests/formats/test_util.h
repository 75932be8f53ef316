/* Minimal test helpers for the formats tests: counted checks, file
 * loading into exact-size heap buffers (so ASan sees any over-read), and
 * a scratch directory. */
#ifndef G16_TEST_FORMATS_UTIL_H
#define G16_TEST_FORMATS_UTIL_H

#include <stddef.h>
#include <stdint.h>

extern int test_failures;
extern const char *test_fixtures; /* the shared fixtures folder */
extern const char *test_data;     /* tests/formats/data */
extern char test_tmpdir[];        /* scratch folder, removed at exit */

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            test_fail(__FILE__, __LINE__, #cond);                                                  \
            test_note(__VA_ARGS__);                                                                \
        }                                                                                          \
    } while (0)

/* rc must be nonzero and err must start with "<name>: " and contain
 * `want`. */
#define CHECK_ERR(rc, err, name, want)                                                             \
    test_check_err(__FILE__, __LINE__, (rc), (err), (name), (want))

void test_fail(const char *file, int line, const char *what);
void test_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_check_err(const char *file, int line, int rc, const char *err, const char *name,
                    const char *want);

/* Whole file into malloc'd memory of exactly its size; exits on error. */
uint8_t *test_load(const char *path, size_t *len);
/* malloc'd copy of buf[0..len) (len 0 gives a 1-byte allocation). */
uint8_t *test_copy(const uint8_t *buf, size_t len);
/* "<fixtures>/<curve>/<circuit>/<file>" in a static buffer. */
const char *test_fixture(const char *curve, const char *circuit, const char *file);
/* "<tmpdir>/<name>" in a static buffer. */
const char *test_tmp(const char *name);
void test_write(const char *path, const void *data, size_t len);
/* Deterministic pseudo-random numbers (xorshift64*). */
uint64_t test_rand(void);

static inline void test_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline void test_put_u64(uint8_t *p, uint64_t v)
{
    test_put_u32(p, (uint32_t)v);
    test_put_u32(p + 4, (uint32_t)(v >> 32));
}

#endif
