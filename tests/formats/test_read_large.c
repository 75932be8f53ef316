/* g16_file_read of a file at and past the size read by several threads
 * (files.c's read_parallel, from 64 MiB in 8 MiB blocks): every byte
 * where it was, marks across block boundaries and in the last partial
 * block included, the length exact, and max_len still refused before
 * anything is read.  Sparse files: nothing large is written. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16.h"
#include "../common/test.h"

/* Writes an 8-byte mark at off. */
static void mark(int fd, size_t off)
{
    uint64_t v = 0x9e3779b97f4a7c15ull ^ off;
    CHECK(pwrite(fd, &v, sizeof v, (off_t)off) == (ssize_t)sizeof v);
}

static int has_mark(const uint8_t *buf, size_t off)
{
    uint64_t v = 0x9e3779b97f4a7c15ull ^ off, got;
    memcpy(&got, buf + off, sizeof got);
    return got == v;
}

static void check_size(size_t len)
{
    char path[] = "/tmp/g16-read-large.XXXXXX", err[256] = "";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    CHECK(ftruncate(fd, (off_t)len) == 0);
    const size_t block = (size_t)8 << 20;
    size_t offs[] = {0, block - 3, 2 * block - 8, 5 * block + 17, len / 2, len - 8};
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) mark(fd, offs[i]);
    close(fd);
    uint8_t *buf = NULL;
    size_t got = 0;
    CHECKF(g16_file_read(path, len, &buf, &got, err, sizeof err) == G16_OK, "%zu bytes: %s", len,
           err);
    CHECKF(got == len, "read %zu of %zu bytes", got, len);
    if (buf && got == len) {
        for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++)
            CHECKF(has_mark(buf, offs[i]), "%zu bytes: the mark at %zu", len, offs[i]);
        size_t zeros = 0; /* the holes read back as zeros, everywhere else */
        for (size_t at = 4096; at < len; at += 1 << 20) zeros += buf[at] == 0 && buf[at + 1] == 0;
        CHECK(zeros > len / (2 << 20));
    }
    if (buf) g16_file_release(buf, got);
    buf = NULL;
    CHECK(g16_file_read(path, len - 1, &buf, &got, err, sizeof err) == G16_ERR_TOO_LARGE);
    CHECK(buf == NULL);
    unlink(path);
}

int main(void)
{
    check_size(((size_t)64 << 20) - 1);     /* one thread */
    check_size((size_t)64 << 20);           /* several, whole blocks */
    check_size(((size_t)72 << 20) + 12345); /* several, a partial last block */
    return test_finish("formats_read_large");
}
