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
    int rc = read_all(fd, buf, (size_t)st.st_size + 1, &got);
    int e = errno;
    close(fd);
    if (rc || got > (size_t)st.st_size) {
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
