#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int args_decimal_prefix(const char *s, double *value, const char **end)
{
    size_t digits = strspn(s, "0123456789."), points = 0;
    for (size_t i = 0; i < digits; i++) points += s[i] == '.';
    if (digits == 0 || points > 1 || digits == points) return -1;
    char *stop;
    errno = 0;
    double v = strtod(s, &stop);
    if (errno || stop != s + digits) return -1;
    *value = v;
    *end = stop;
    return 0;
}

int args_decimal(const char *s, double *value)
{
    const char *end;
    double v;
    if (args_decimal_prefix(s, &v, &end) || *end) return -1;
    *value = v;
    return 0;
}

int args_size(const char *s, size_t *bytes)
{
    const char *end;
    double v, mul = 1;
    if (args_decimal_prefix(s, &v, &end)) return -1;
    const char *units = "KMGT", *u = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    if (u) {
        for (const char *q = units; q <= u; q++) mul *= 1024;
        end++;
    }
    if (*end == 'i' || *end == 'I') end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end || v * mul > 1e18) return -1;
    *bytes = (size_t)(v * mul);
    return 0;
}
