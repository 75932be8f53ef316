/* The public file helpers of include/g16.h: mapping and reading inputs,
 * and atomic outputs, on top of this module's mapping and atomic_file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats_internal.h"
#include "g16.h"
#include "util/parallel.h"

/* Buffers from this size on ask for huge pages (pages_alloc). */
#define HUGE_PAGE_MIN ((size_t)4 << 20)

g16_status g16_file_map(const char *path, const uint8_t **data, size_t *len, char *err,
                        size_t errlen)
{
    formats_mapping m;
    *data = NULL;
    *len = 0;
    if (formats_map_file(path, &m, err, errlen)) return formats_status_of_errno(errno);
    *data = m.addr;
    *len = m.len;
    return G16_OK;
}

void g16_file_unmap(const uint8_t *data, size_t len)
{
    formats_mapping m = {(void *)data, len};
    formats_unmap_file(&m);
}

/* Reads up to len bytes from fd into buf (a regular file: short only at
 * EOF). */
static int read_all(int fd, uint8_t *buf, size_t len, size_t *got)
{
    *got = 0;
    while (*got < len) {
        ssize_t n = read(fd, buf + *got, len - *got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        *got += (size_t)n;
    }
    return 0;
}

/* Files from this size on are read by several threads (read_parallel),
 * in blocks of READ_BLOCK bytes. */
#define READ_PARALLEL_MIN ((size_t)64 << 20)
#define READ_BLOCK        ((size_t)8 << 20)
#define READ_THREADS      8

typedef struct {
    int fd;
    uint8_t *buf;
    size_t len;
    int failed, errno_seen; /* an error, or a block short of its size (the file shrank) */
} read_ctx;

static void read_blocks(void *arg, size_t begin, size_t end, int worker)
{
    read_ctx *c = arg;
    (void)worker;
    size_t from = begin * READ_BLOCK, to = end * READ_BLOCK < c->len ? end * READ_BLOCK : c->len;
    while (from < to && !__atomic_load_n(&c->failed, __ATOMIC_RELAXED)) {
        ssize_t n = pread(c->fd, c->buf + from, to - from, (off_t)from);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            __atomic_store_n(&c->errno_seen, n < 0 ? errno : 0, __ATOMIC_RELAXED);
            __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
            return;
        }
        from += (size_t)n;
    }
}

/* read_all for a large file of len bytes: the copy from the page cache
 * is bound by one core's copy rate, and a 2^24 witness (512 MB) is read
 * for every lone proof g16d makes (bench/RESULTS.md, daemon: 512 MB read
 * in 0.57-1.37 s by one thread, 0.34-0.44 s by eight on the 2-core
 * machine); each thread reads its blocks with pread.  Then one byte past
 * len, as read_all does, so that a file that grew is reported; one that
 * shrank leaves a block short (*got < len). */
static int read_parallel(int fd, uint8_t *buf, size_t len, size_t *got)
{
    read_ctx c = {fd, buf, len, 0, 0};
    *got = 0;
    parallel_for((len + READ_BLOCK - 1) / READ_BLOCK, READ_THREADS, read_blocks, &c);
    if (c.failed) {
        errno = c.errno_seen;
        return c.errno_seen ? -1 : 0;
    }
    uint8_t extra;
    ssize_t n;
    while ((n = pread(fd, &extra, 1, (off_t)len)) < 0 && errno == EINTR) {}
    if (n < 0) return -1;
    *got = len + (size_t)n;
    return 0;
}

/* Anonymous pages of their own, never shared with another allocation.
 * Huge pages where the system gives them on request: a witness is read
 * once into fresh memory, and faulting it in 4 KiB at a time cost more
 * than the read itself (2^20: 8000 faults, ~0.1 s on a 2-core VM).  The
 * advice is only a hint, so its failure is not one. */
static uint8_t *pages_alloc(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (n >= HUGE_PAGE_MIN) (void)madvise(p, n, MADV_HUGEPAGE);
    return p;
}

static void release(uint8_t *buf, size_t cap, int pages)
{
    if (pages && buf)
        munmap(buf, cap);
    else if (!pages)
        free(buf);
}

/* The whole regular file at path (at most max_len bytes, checked before
 * anything is allocated) in a buffer of its size + room bytes: malloc'd,
 * or pages of its own.  One byte more than the size is read, so a file
 * that grew meanwhile is reported, not cut. */
static int read_whole(const char *path, size_t max_len, size_t room, int pages, uint8_t **out,
                      size_t *len, char *err, size_t errlen)
{
    struct stat st;
    size_t got;
    *out = NULL;
    *len = 0;
    int fd = formats_open_regular(path, &st, err, errlen);
    if (fd < 0) return formats_status_of_errno(errno);
    if ((uint64_t)st.st_size > max_len) {
        close(fd);
        formats_fail(err, errlen, path, "too large (%llu bytes, at most %zu)",
                     (unsigned long long)st.st_size, max_len);
        return G16_ERR_TOO_LARGE;
    }
    size_t cap = (size_t)st.st_size + room;
    uint8_t *buf = pages ? pages_alloc(cap) : malloc(cap);
    if (!buf) {
        close(fd);
        formats_fail(err, errlen, path, "out of memory");
        return G16_ERR_NOMEM;
    }
    int rc = (size_t)st.st_size >= READ_PARALLEL_MIN
                 ? read_parallel(fd, buf, (size_t)st.st_size, &got)
                 : read_all(fd, buf, (size_t)st.st_size + 1, &got);
    int e = errno;
    close(fd);
    if (rc || got != (size_t)st.st_size) {
        formats_fail(err, errlen, path, "%s", rc ? strerror(e) : "changed while being read");
        release(buf, cap, pages);
        return G16_ERR_IO;
    }
    *out = buf;
    *len = got;
    return G16_OK;
}

g16_status g16_file_read(const char *path, size_t max_len, uint8_t **data, size_t *len, char *err,
                         size_t errlen)
{
    return read_whole(path, max_len, 1, 1, data, len, err, errlen);
}

void g16_file_release(uint8_t *data, size_t len) { release(data, len + 1, 1); }

int formats_read_file(const char *path, size_t max_len, uint8_t **data, size_t *len, char *err,
                      size_t errlen)
{
    return read_whole(path, max_len, 1, 0, data, len, err, errlen);
}

g16_status g16_file_read_text(const char *path, size_t max_len, char **text, char *err,
                              size_t errlen)
{
    uint8_t *buf;
    size_t len;
    *text = NULL;
    int rc = read_whole(path, max_len, 2, 0, &buf, &len, err, errlen);
    if (rc) return rc;
    buf[len] = 0;
    if (strlen((char *)buf) != len) {
        formats_fail(err, errlen, path, "contains a NUL byte");
        free(buf);
        return G16_ERR_FORMAT;
    }
    *text = (char *)buf;
    return G16_OK;
}

struct g16_output {
    atomic_file f;
};

g16_status g16_output_open(const char *path, g16_output **out, char *err, size_t errlen)
{
    g16_output *o = malloc(sizeof *o);
    *out = NULL;
    if (!o) {
        formats_fail(err, errlen, path, "out of memory");
        return G16_ERR_NOMEM;
    }
    if (atomic_file_open(&o->f, path, err, errlen)) {
        int e = errno;
        free(o);
        return formats_status_of_errno(e);
    }
    *out = o;
    return G16_OK;
}

const char *g16_output_temp_path(const g16_output *f) { return f->f.tmp_path; }

g16_status g16_output_write(g16_output *f, const void *data, size_t len, char *err, size_t errlen)
{
    return atomic_file_write(&f->f, data, len, err, errlen) ? G16_ERR_IO : G16_OK;
}

g16_status g16_output_commit(g16_output *f, char *err, size_t errlen)
{
    return atomic_file_commit(&f->f, err, errlen) ? G16_ERR_IO : G16_OK;
}

void g16_output_free(g16_output *f)
{
    if (!f) return;
    atomic_file_abort(&f->f);
    free(f);
}
