/* The public file helpers of include/g16.h: mapping and reading inputs,
 * and atomic outputs, on top of this module's mapping and atomic_file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats_internal.h"
#include "g16.h"

int g16_file_map(const char *path, const uint8_t **data, size_t *len, char *err, size_t errlen)
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

/* Reads len bytes from fd into buf (a regular file: short only at EOF). */
static int read_all(int fd, char *buf, size_t len, size_t *got)
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

int g16_file_read_text(const char *path, size_t max_len, char **text, char *err, size_t errlen)
{
    struct stat st;
    size_t got;
    *text = NULL;
    int fd = formats_open_regular(path, &st, err, errlen);
    if (fd < 0) return formats_status_of_errno(errno);
    if ((uint64_t)st.st_size > max_len) {
        close(fd);
        formats_fail(err, errlen, path, "too large (%llu bytes, at most %zu)",
                     (unsigned long long)st.st_size, max_len);
        return G16_ERR_TOO_LARGE;
    }
    /* one byte more than its size: a file that grew is seen to, not cut */
    char *buf = malloc((size_t)st.st_size + 2);
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
        free(buf);
        return G16_ERR_IO;
    }
    buf[got] = 0;
    if (strlen(buf) != got) {
        formats_fail(err, errlen, path, "contains a NUL byte");
        free(buf);
        return G16_ERR_FORMAT;
    }
    *text = buf;
    return G16_OK;
}

struct g16_output {
    atomic_file f;
};

int g16_output_open(const char *path, g16_output **out, char *err, size_t errlen)
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

int g16_output_write(g16_output *f, const void *data, size_t len, char *err, size_t errlen)
{
    return atomic_file_write(&f->f, data, len, err, errlen) ? G16_ERR_IO : G16_OK;
}

int g16_output_commit(g16_output *f, char *err, size_t errlen)
{
    return atomic_file_commit(&f->f, err, errlen) ? G16_ERR_IO : G16_OK;
}

void g16_output_free(g16_output *f)
{
    if (!f) return;
    atomic_file_abort(&f->f);
    free(f);
}
