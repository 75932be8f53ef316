/* Reading a fixture file whole, for the groth16 tests (a missing file
 * ends the test: the fixtures are its input, not its subject). */
#ifndef G16_TEST_GROTH16_FILES_H
#define G16_TEST_GROTH16_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* dir/name, malloc'd with a NUL after its *len bytes (JSON texts). */
static uint8_t *read_file(const char *dir, const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) exit(2);
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

#endif
