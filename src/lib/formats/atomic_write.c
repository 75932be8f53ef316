/* Output files appear whole or not at all: write a temporary file in the
 * same directory (so rename is atomic), fsync it, rename it over the
 * target, fsync the directory. */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "formats_internal.h"

static atomic_uint tmp_counter;

static int fail_errno(atomic_file *f, const char *path, int e, char *err, size_t errlen)
{
    formats_fail(err, errlen, path, "%s", strerror(e));
    errno = e; /* for callers that classify the failure */
    if (f)     /* after formatting: path may be f->path */
        atomic_file_abort(f);
    return -1;
}

/* O_EXCL with a per-process counter: no races between threads or
 * processes, and the file gets 0666 & ~umask like any other output. */
static int create_temp(atomic_file *f)
{
    size_t n = strlen(f->path) + 64;
    f->tmp_path = malloc(n);
    if (!f->tmp_path) return ENOMEM;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(f->tmp_path, n, "%s.tmp.%ld.%u", f->path, (long)getpid(),
                 atomic_fetch_add(&tmp_counter, 1));
        f->fd = open(f->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (f->fd >= 0) return 0;
        if (errno != EEXIST) break;
    }
    int e = errno;
    free(f->tmp_path);
    f->tmp_path = NULL;
    return e;
}

int atomic_file_open(atomic_file *f, const char *path, char *err, size_t errlen)
{
    f->fd = -1;
    f->tmp_path = NULL;
    f->written = f->flushed = 0;
    f->path = strdup(path);
    if (!f->path) return fail_errno(NULL, path, ENOMEM, err, errlen);
    int e = create_temp(f);
    if (e) return fail_errno(f, path, e, err, errlen);
    return 0;
}

/* Bytes of output whose writeback starts at once: a large file (a 2^20
 * witness is 33 MB) then reaches the disk while the rest is computed,
 * where one fsync at the end waited for all of it (34 ms of a 0.3 s
 * witness calculation, measured).  Advice only: commit's fsync is what
 * makes the file durable, so a failure here is ignored. */
#define WRITEBACK_BYTES ((uint64_t)4 << 20)

static void start_writeback(atomic_file *f)
{
#ifdef SYNC_FILE_RANGE_WRITE
    if (f->written - f->flushed < WRITEBACK_BYTES) return;
    sync_file_range(f->fd, (off_t)f->flushed, (off_t)(f->written - f->flushed),
                    SYNC_FILE_RANGE_WRITE);
    f->flushed = f->written;
#else
    (void)f;
#endif
}

int atomic_file_write(atomic_file *f, const void *data, size_t len, char *err, size_t errlen)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(f->fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) /* 0 cannot happen for a regular file; treat as full */
            return fail_errno(f, f->path, n < 0 ? errno : ENOSPC, err, errlen);
        p += n;
        len -= (size_t)n;
        f->written += (uint64_t)n;
    }
    start_writeback(f);
    return 0;
}

/* What O_DIRECT needs of a write's address, offset and length: the
 * largest logical block size of common devices (512 divides it). */
#define DIRECT_ALIGN 4096u

int atomic_file_write_direct(atomic_file *f, const void *data, size_t len, char *err, size_t errlen)
{
    const char *p = data;
    size_t bulk = (uintptr_t)p % DIRECT_ALIGN || f->written % DIRECT_ALIGN
                      ? 0
                      : len & ~(size_t)(DIRECT_ALIGN - 1);
    int flags = bulk ? fcntl(f->fd, F_GETFL) : -1;
    if (flags >= 0 && fcntl(f->fd, F_SETFL, flags | O_DIRECT) == 0) {
        while (bulk > 0) {
            ssize_t n = write(f->fd, p, bulk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                break; /* refused (EINVAL: not this file system): the buffered write
                                  below takes the rest, and reports a real error */
            p += n;
            len -= (size_t)n;
            f->written += (uint64_t)n;
            bulk = (size_t)n % DIRECT_ALIGN ? 0 : bulk - (size_t)n;
        }
        fcntl(f->fd, F_SETFL, flags);
        f->flushed = f->written; /* already on its way to the disk */
    }
    return len ? atomic_file_write(f, p, len, err, errlen) : 0;
}

/* Makes the rename itself durable; failure here is not fatal to the
 * output (the file is complete), so it is ignored. */
static void sync_parent_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy) return;
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(copy);
}

int atomic_file_commit(atomic_file *f, char *err, size_t errlen)
{
    if (fsync(f->fd) != 0) return fail_errno(f, f->path, errno, err, errlen);
    int rc = close(f->fd);
    f->fd = -1;
    if (rc != 0) return fail_errno(f, f->path, errno, err, errlen);
    if (rename(f->tmp_path, f->path) != 0) return fail_errno(f, f->path, errno, err, errlen);
    sync_parent_dir(f->path);
    free(f->tmp_path);
    f->tmp_path = NULL;
    atomic_file_abort(f); /* nothing left to remove; frees path */
    return 0;
}

void atomic_file_abort(atomic_file *f)
{
    int e = errno; /* callers format errno after aborting */
    if (f->fd >= 0) close(f->fd);
    f->fd = -1;
    if (f->tmp_path) unlink(f->tmp_path);
    free(f->tmp_path);
    f->tmp_path = NULL;
    free(f->path);
    f->path = NULL;
    errno = e;
}

int atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    atomic_file f;
    if (atomic_file_open(&f, path, err, errlen) || atomic_file_write(&f, data, len, err, errlen) ||
        atomic_file_commit(&f, err, errlen))
        return -1;
    return 0;
}
