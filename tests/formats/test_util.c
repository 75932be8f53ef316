#define _GNU_SOURCE
#include "test_util.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int test_failures;
const char *test_fixtures;
const char *test_data;
char test_tmpdir[4096];

void test_fail(const char *file, int line, const char *what)
{
    test_failures++;
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

void test_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("    ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void test_check_err(const char *file, int line, int rc, const char *err, const char *name,
                    const char *want)
{
    size_t nl = strlen(name);
    if (rc == 0) {
        test_fail(file, line, "expected an error");
        test_note("wanted \"%s\"", want);
        return;
    }
    if (strncmp(err, name, nl) != 0 || strncmp(err + nl, ": ", 2) != 0 || !strstr(err, want) ||
        strchr(err, '\n')) {
        test_fail(file, line, "error message");
        test_note("got    \"%s\"", err);
        test_note("wanted \"%s: ...%s...\"", name, want);
    }
}

uint8_t *test_load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        exit(2);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

uint8_t *test_copy(const uint8_t *buf, size_t len)
{
    uint8_t *c = malloc(len ? len : 1);
    if (!c) exit(2);
    if (len) memcpy(c, buf, len);
    return c;
}

const char *test_fixture(const char *curve, const char *circuit, const char *file)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s/%s", test_fixtures, curve, circuit, file);
    return path;
}

const char *test_tmp(const char *name)
{
    static char path[4096 + 256];
    snprintf(path, sizeof path, "%s/%s", test_tmpdir, name);
    return path;
}

void test_write(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

uint64_t test_rand(void)
{
    static uint64_t s = 0x9e3779b97f4a7c15ull;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545f4914f6cdd1dull;
}
