/* Phase markers: lines appended to a file or written to a FIFO, or lines of
 * a log that match a regex.  A regular file is followed like `tail -f`
 * (inotify wakes the recorder); a FIFO is read as data arrives. */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

struct mark_src {
    char path[4096];
    int fd, keep_fd, ino_fd;
    int is_fifo;
    off_t off;
    int use_re;
    regex_t re;
    char part[4096];
    size_t npart;
};

/* A log that does not exist yet is watched through its directory, so that
 * its first lines wake the recorder too. */
static void watch(mark_src *m, int dir)
{
    char d[4096];
    snprintf(d, sizeof d, "%s", m->path);
    char *slash = strrchr(d, '/');
    if (dir) snprintf(slash ? slash + (slash == d) : d, sizeof d, "%s", slash ? "" : ".");
    if (m->ino_fd < 0) m->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    uint32_t ev = dir ? IN_CREATE | IN_MOVED_TO : IN_MODIFY;
    if (m->ino_fd >= 0 && inotify_add_watch(m->ino_fd, dir ? d : m->path, ev) < 0) {
        close(m->ino_fd);
        m->ino_fd = -1;
    }
}

/* A FIFO keeps a writer of our own open, or poll() would report hang-up
 * forever once the first writer closes. */
static int open_fifo(mark_src *m, char *err, size_t errlen)
{
    m->is_fifo = 1;
    m->fd = open(m->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    m->keep_fd = m->fd < 0 ? -1 : open(m->path, O_WRONLY | O_CLOEXEC);
    if (m->fd < 0 || m->keep_fd < 0) {
        mw_errf(err, errlen, "%s: cannot open the FIFO: %s", m->path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Markers written before the recording are not ours: start at the end. */
static int open_regular(mark_src *m, int create)
{
    m->fd = open(m->path, O_RDONLY | O_CLOEXEC | (create ? O_CREAT : 0), 0666);
    if (m->fd < 0) return -1;
    m->off = lseek(m->fd, 0, SEEK_END);
    watch(m, 0);
    return 0;
}

mark_src *mark_open(const char *path, const char *regex, char *err, size_t errlen)
{
    mark_src *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->fd = m->keep_fd = m->ino_fd = -1;
    snprintf(m->path, sizeof m->path, "%s", path);
    if (regex) {
        int rc = regcomp(&m->re, regex, REG_EXTENDED);
        if (rc != 0) {
            char msg[128];
            regerror(rc, &m->re, msg, sizeof msg);
            mw_errf(err, errlen, "--mark-regex '%s': %s", regex, msg);
            free(m);
            return NULL;
        }
        m->use_re = 1;
    }
    struct stat st;
    int rc = 0;
    if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
        rc = open_fifo(m, err, errlen);
    else if (open_regular(m, !regex) != 0) {
        if (regex && errno == ENOENT)
            watch(m, 1); /* opened when it appears */
        else {
            mw_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (rc != 0) {
        mark_close(m);
        return NULL;
    }
    return m;
}

int mark_poll_fd(const mark_src *m) { return m->is_fifo ? m->fd : m->ino_fd; }

/* Turns one complete line into a phase name; 0 if it is not a marker. */
static int line_to_phase(mark_src *m, char *line, char *out)
{
    if (!m->use_re) {
        mw_clean_name(out, MW_PHASE_MAX, line, strlen(line));
        return *out != 0;
    }
    regmatch_t g[2];
    if (regexec(&m->re, line, 2, g, 0) != 0) return 0;
    int k = g[1].rm_so >= 0 ? 1 : 0;
    mw_clean_name(out, MW_PHASE_MAX, line + g[k].rm_so, (size_t)(g[k].rm_eo - g[k].rm_so));
    return *out != 0;
}

static int take_lines(mark_src *m, const char *buf, size_t n, char (*names)[MW_PHASE_MAX], int max,
                      int cnt)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] != '\n') {
            if (m->npart + 1 < sizeof m->part) m->part[m->npart++] = buf[i];
            continue;
        }
        m->part[m->npart] = 0;
        m->npart = 0;
        if (cnt < max && line_to_phase(m, m->part, names[cnt])) cnt++;
    }
    return cnt;
}

static void drain_inotify(mark_src *m)
{
    char ev[4096];
    while (m->ino_fd >= 0 && read(m->ino_fd, ev, sizeof ev) > 0) {}
}

int mark_read(mark_src *m, char (*names)[MW_PHASE_MAX], int max)
{
    if (m->fd < 0 && open_regular(m, 0) == 0) m->off = 0;
    if (m->fd < 0) return 0;
    drain_inotify(m);
    struct stat st;
    if (!m->is_fifo && fstat(m->fd, &st) == 0 && st.st_size < m->off) {
        m->off = 0; /* truncated: a writer used '>' instead of '>>' */
        m->npart = 0;
    }
    char buf[4096];
    int cnt = 0;
    for (;;) {
        ssize_t n =
            m->is_fifo ? read(m->fd, buf, sizeof buf) : pread(m->fd, buf, sizeof buf, m->off);
        if (n <= 0) break;
        m->off += n;
        cnt = take_lines(m, buf, (size_t)n, names, max, cnt);
    }
    return cnt;
}

const char *mark_path(const mark_src *m) { return m->path; }

void mark_close(mark_src *m)
{
    if (!m) return;
    if (m->fd >= 0) close(m->fd);
    if (m->keep_fd >= 0) close(m->keep_fd);
    if (m->ino_fd >= 0) close(m->ino_fd);
    if (m->use_re) regfree(&m->re);
    free(m);
}
