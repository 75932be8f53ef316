/* Read-only mappings: a proving key can be tens of GiB, so it is mapped,
 * never read into a heap copy (pages come from the page cache and can be
 * dropped under memory pressure). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "formats_internal.h"

int formats_open_regular(const char *path, struct stat *st, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer,
     * forever if none comes; this way it opens at once and fstat refuses
     * it.  Reads of a regular file ignore the flag. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    int e = errno;
    if (fd >= 0 && fstat(fd, st) != 0)
        e = errno;
    else if (fd >= 0 && S_ISREG(st->st_mode))
        return fd;
    else if (fd >= 0)
        e = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
    if (fd >= 0) close(fd);
    formats_fail(err, errlen, path, "%s", e == EINVAL ? "not a regular file" : strerror(e));
    errno = e;
    return -1;
}

int formats_map_file(const char *path, formats_mapping *m, char *err, size_t errlen)
{
    m->addr = NULL;
    m->len = 0;
    struct stat st;
    int fd = formats_open_regular(path, &st, err, errlen);
    if (fd < 0) return -1;
    if ((uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        errno = EFBIG;
        return formats_fail(err, errlen, path, "file too large to map");
    }
    if (st.st_size == 0) { /* mmap rejects length 0; parsers say "empty" */
        close(fd);
        return 0;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd); /* the mapping keeps the file referenced */
    if (p == MAP_FAILED) {
        formats_fail(err, errlen, path, "mmap: %s", strerror(e));
        errno = e;
        return -1;
    }
    m->addr = p;
    m->len = (size_t)st.st_size;
    return 0;
}

void formats_unmap_file(formats_mapping *m)
{
    if (m->addr) munmap(m->addr, m->len);
    m->addr = NULL;
    m->len = 0;
}
