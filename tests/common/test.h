/* Minimal test harness shared by the unit tests: CHECK records a failure
 * with its location and keeps going, so one run reports every broken case;
 * the test's main returns test_finish(). */
#ifndef G16_TEST_H
#define G16_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int test_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (test_failures++ < 20)                                                              \
                fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
        }                                                                                          \
    } while (0)

/* CHECK with a printf message saying what was seen. */
#define CHECKF(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond) && test_failures++ < 20) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static inline int test_finish(const char *name)
{
    if (test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

/* xorshift64*: deterministic so a failure can be replayed from its seed. */
static uint64_t test_rng_state = 0x9e3779b97f4a7c15ULL;

static inline uint64_t test_rand64(void)
{
    uint64_t x = test_rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    test_rng_state = x;
    return x * 0x2545f4914f6cdd1dULL;
}

#endif
