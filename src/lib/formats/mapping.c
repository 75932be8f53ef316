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

int formats_map_file(const char *path, formats_mapping *m, char *err,
                     size_t errlen)
{
    m->addr = NULL;
    m->len = 0;
    /* O_NONBLOCK: opening a FIFO would otherwise wait for a writer
     * forever; it is refused as not a regular file below. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return formats_fail(err, errlen, path, "%s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return formats_fail(err, errlen, path, "%s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return formats_fail(err, errlen, path, "%s",
                            S_ISDIR(st.st_mode) ? strerror(EISDIR)
                                                : "not a regular file");
    }
    if ((uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return formats_fail(err, errlen, path, "file too large to map");
    }
    if (st.st_size == 0) { /* mmap rejects length 0; parsers say "empty" */
        close(fd);
        return 0;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd); /* the mapping keeps the file referenced */
    if (p == MAP_FAILED)
        return formats_fail(err, errlen, path, "mmap: %s", strerror(e));
    m->addr = p;
    m->len = (size_t)st.st_size;
    return 0;
}

void formats_unmap_file(formats_mapping *m)
{
    if (m->addr)
        munmap(m->addr, m->len);
    m->addr = NULL;
    m->len = 0;
}
