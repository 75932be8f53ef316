/* args: the numbers the programs' options take (g16, g16d, memwatch), read
 * one way everywhere.
 *
 * Contract
 * - A number is a plain non-negative decimal: digits with at most one
 *   point ("8", "1.5", ".5").  No sign, exponent, hexadecimal, "inf" or
 *   "nan": strtod takes them all, and a NaN passes every range check and
 *   turns into an undefined conversion later.
 * - A size is a number with an optional unit K, M, G or T (powers of
 *   1024, any case), an optional "i" and an optional "B": "512M", "8G",
 *   "1.5GiB", "64KB", "1000000".  At most 1e18 bytes.
 * - Each function writes its result only when it returns 0; -1 leaves it
 *   as it was, and the caller names the option and the value.
 */
#ifndef G16_APPS_ARGS_H
#define G16_APPS_ARGS_H

#include <stddef.h>

/* The number at the start of s: its value and where it ends (*end). */
int args_decimal_prefix(const char *s, double *value, const char **end);

/* s is a number and nothing else. */
int args_decimal(const char *s, double *value);

/* s is a size in bytes. */
int args_size(const char *s, size_t *bytes);

#endif
