/* The trace format: plain CSV, one header line, no quoting (names are
 * cleaned by mw_clean_name), empty fields for unknown values. */
#define _GNU_SOURCE
#include "memwatch/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const k_cols[] = {
    "unix_s",  "mono_s",        "kind",       "phase",  "pid",        "comm",    "nproc",  "rss_kb",
    "anon_kb", "file_kb",       "shmem_kb",   "hwm_kb", "peak_kind",  "swap_kb", "lck_kb", "pin_kb",
    "threads", "cg_current_kb", "cg_peak_kb", "gpu_kb", "gpu_dev_kb", "pss_kb",  "pss_ms"};
enum { NCOLS = sizeof k_cols / sizeof k_cols[0] };

struct mw_writer {
    int fd;
    int per_process;
    int nextra;
    const char *path;
    char err[MW_ERRLEN];
};

/* One write(2) per row: a reader never sees half a row. */
static int write_all(mw_writer *w, const char *buf, size_t len)
{
    while (len) {
        ssize_t n = write(w->fd, buf, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            mw_errf(w->err, sizeof w->err, "%s: write failed: %s", w->path, strerror(errno));
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

g16_status mw_writer_open(const char *path, int per_process, const char *const *extra, int nextra,
                          mw_writer **out, char *err, size_t errlen)
{
    *out = NULL;
    mw_writer *w = calloc(1, sizeof *w);
    if (!w) {
        mw_errf(err, errlen, "%s: out of memory", path);
        return G16_ERR_NOMEM;
    }
    w->path = strcmp(path, "-") == 0 ? "<stdout>" : path;
    w->fd = strcmp(path, "-") == 0 ? dup(1)
                                   : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->fd < 0) {
        mw_errf(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno));
        free(w);
        return G16_ERR_IO;
    }
    w->per_process = per_process;
    w->nextra = nextra;
    char hdr[4096];
    size_t n = 0;
    for (int i = 0; i < NCOLS + nextra && n < sizeof hdr; i++)
        n += (size_t)snprintf(hdr + n, sizeof hdr - n, "%s%s", i ? "," : "",
                              i < NCOLS ? k_cols[i] : extra[i - NCOLS]);
    if (n + 2 > sizeof hdr || write_all(w, hdr, n) || write_all(w, "\n", 1)) {
        mw_errf(err, errlen, "%s: cannot write the header", path);
        close(w->fd);
        free(w);
        return G16_ERR_IO;
    }
    *out = w;
    return G16_OK;
}

typedef struct {
    char buf[2048];
    size_t n;
} rowbuf;

static void put(rowbuf *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(rowbuf *r, const char *fmt, ...)
{
    if (r->n >= sizeof r->buf) return;
    va_list ap;
    va_start(ap, fmt);
    r->n += (size_t)vsnprintf(r->buf + r->n, sizeof r->buf - r->n, fmt, ap);
    va_end(ap);
}

static void put_i(rowbuf *r, int64_t v)
{
    if (v >= 0)
        put(r, ",%lld", (long long)v);
    else
        put(r, ",");
}

static void put_mem(rowbuf *r, const mw_mem *m, const char *kind)
{
    put_i(r, m->rss), put_i(r, m->anon), put_i(r, m->file), put_i(r, m->shmem);
    put_i(r, m->hwm);
    put(r, ",%s", kind);
    put_i(r, m->swap), put_i(r, m->lck), put_i(r, m->pin), put_i(r, m->threads);
}

static int finish(mw_writer *w, rowbuf *r, const int64_t *extra)
{
    for (int i = 0; i < w->nextra; i++) put_i(r, extra ? extra[i] : -1);
    put(r, "\n");
    if (r->n >= sizeof r->buf) {
        mw_errf(w->err, sizeof w->err, "%s: row too long", w->path);
        return -1;
    }
    return write_all(w, r->buf, r->n);
}

static void put_pss(rowbuf *r, int64_t kb, double ms)
{
    put_i(r, kb);
    if (kb >= 0)
        put(r, ",%.3f", ms);
    else
        put(r, ",");
}

g16_status mw_writer_sample(mw_writer *w, const mw_sample *s, const char *phase,
                            const int64_t *extra)
{
    rowbuf r = {.n = 0};
    const char *kind = mw_peak_kind_name(s->peak_kind);
    put(&r, "%.6f,%.6f,total,%s,%d,%s,%d", s->unix_s, s->mono_s, phase, (int)s->root, s->root_comm,
        s->nproc);
    put_mem(&r, &s->total, kind);
    put_i(&r, s->cg_current_kb), put_i(&r, s->cg_peak_kb);
    put_i(&r, s->gpu_kb), put_i(&r, s->gpu_dev_kb);
    put_pss(&r, s->pss_kb, s->pss_ms);
    if (finish(w, &r, extra) != 0) return G16_ERR_IO;
    for (int i = 0; w->per_process && i < s->nproc; i++) {
        const mw_proc *p = &s->procs[i];
        r.n = 0;
        put(&r, "%.6f,%.6f,proc,%s,%d,%s,1", s->unix_s, s->mono_s, phase, (int)p->pid, p->comm);
        put_mem(&r, &p->m, s->peak_kind == MW_PEAK_SAMPLED ? "sampled" : "exact");
        put(&r, ",,");
        put_i(&r, s->gpu_kb >= 0 ? p->gpu_kb : -1), put(&r, ",");
        put_pss(&r, p->pss_kb, p->pss_ms);
        if (finish(w, &r, NULL) != 0) return G16_ERR_IO;
    }
    return G16_OK;
}

g16_status mw_writer_exit(mw_writer *w, double unix_s, double mono_s, pid_t pid, const char *phase,
                          int64_t hwm_kb, mw_peak_kind kind)
{
    rowbuf r = {.n = 0};
    put(&r, "%.6f,%.6f,exit,%s,%d,,0,,,,", unix_s, mono_s, phase, (int)pid);
    put_i(&r, hwm_kb);
    put(&r, ",%s,,,,,,,,,,", mw_peak_kind_name(kind));
    return finish(w, &r, NULL) ? G16_ERR_IO : G16_OK;
}

const char *mw_writer_error(const mw_writer *w) { return w->err; }

g16_status mw_writer_close(mw_writer *w)
{
    if (!w) return G16_OK;
    int rc = close(w->fd);
    if (rc != 0) mw_errf(w->err, sizeof w->err, "%s: close failed: %s", w->path, strerror(errno));
    free(w);
    return rc ? G16_ERR_IO : G16_OK;
}
