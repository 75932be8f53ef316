/* Reading a trace back.  Columns are found by name so that traces with
 * caller counters (extra columns) load too; every error names the line. */
#define _GNU_SOURCE
#include "memwatch/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    C_UNIX,
    C_MONO,
    C_KIND,
    C_PHASE,
    C_PID,
    C_NPROC,
    C_RSS,
    C_ANON,
    C_FILE,
    C_SHMEM,
    C_HWM,
    C_PEAKKIND,
    C_CGCUR,
    C_CGPEAK,
    C_GPU,
    C_GPUDEV,
    C_N
};
static const char *const k_need[C_N] = {"unix_s",        "mono_s",     "kind",   "phase",
                                        "pid",           "nproc",      "rss_kb", "anon_kb",
                                        "file_kb",       "shmem_kb",   "hwm_kb", "peak_kind",
                                        "cg_current_kb", "cg_peak_kb", "gpu_kb", "gpu_dev_kb"};

typedef struct {
    const char *path;
    size_t line;
    int col[C_N];
    int nfields;
    char *f[256];
    char *err;
    size_t errlen;
} parser;

static int split(parser *p, char *line)
{
    int n = 0;
    for (char *s = line;; s++) {
        if (n == 256) return -1;
        p->f[n++] = s;
        s += strcspn(s, ",");
        if (!*s) break;
        *s = 0;
    }
    return n;
}

static int parse_header(parser *p, char *line)
{
    p->nfields = split(p, line);
    if (p->nfields < 0) {
        mw_errf(p->err, p->errlen, "%s:1: more than 256 columns", p->path);
        return -1;
    }
    for (int c = 0; c < C_N; c++) {
        p->col[c] = -1;
        for (int i = 0; i < p->nfields; i++)
            if (strcmp(p->f[i], k_need[c]) == 0) p->col[c] = i;
        if (p->col[c] < 0) {
            mw_errf(p->err, p->errlen, "%s:1: not a memwatch trace: no column '%s'", p->path,
                    k_need[c]);
            return -1;
        }
    }
    return 0;
}

static int num(parser *p, int c, int64_t *out)
{
    const char *s = p->f[p->col[c]];
    char *end;
    if (!*s) {
        *out = -1;
        return 0;
    }
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v < 0) {
        mw_errf(p->err, p->errlen, "%s:%zu: %s is not a count: '%.40s'", p->path, p->line,
                k_need[c], s);
        return -1;
    }
    *out = v;
    return 0;
}

static int real(parser *p, int c, double *out)
{
    const char *s = p->f[p->col[c]];
    char *end;
    *out = strtod(s, &end);
    /* NaN or infinity would reach the plot's pixel arithmetic */
    if (!*s || *end || !isfinite(*out)) {
        mw_errf(p->err, p->errlen, "%s:%zu: %s is not a number: '%.40s'", p->path, p->line,
                k_need[c], s);
        return -1;
    }
    return 0;
}

static int word(parser *p, int c, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(p->f[p->col[c]], names[i]) == 0) return i;
    mw_errf(p->err, p->errlen, "%s:%zu: unknown %s '%.40s'", p->path, p->line, k_need[c],
            p->f[p->col[c]]);
    return -1;
}

static int parse_row(parser *p, char *line, mw_row *r)
{
    static const char *const kinds[] = {"total", "proc", "exit"};
    static const char *const peaks[] = {"exact", "summed", "sampled"};
    int n = split(p, line);
    if (n != p->nfields) {
        mw_errf(p->err, p->errlen, "%s:%zu: expected %d fields, found %d", p->path, p->line,
                p->nfields, n);
        return -1;
    }
    int64_t pid, nproc;
    int k, pk;
    if (real(p, C_UNIX, &r->unix_s) || real(p, C_MONO, &r->mono_s) ||
        (k = word(p, C_KIND, kinds, 3)) < 0 || (pk = word(p, C_PEAKKIND, peaks, 3)) < 0 ||
        num(p, C_PID, &pid) || num(p, C_NPROC, &nproc) || num(p, C_RSS, &r->rss) ||
        num(p, C_ANON, &r->anon) || num(p, C_FILE, &r->file) || num(p, C_SHMEM, &r->shmem) ||
        num(p, C_HWM, &r->hwm) || num(p, C_CGCUR, &r->cg_current) ||
        num(p, C_CGPEAK, &r->cg_peak) || num(p, C_GPU, &r->gpu) || num(p, C_GPUDEV, &r->gpu_dev))
        return -1;
    r->kind = (mw_row_kind)k;
    r->peak_kind = (mw_peak_kind)pk;
    r->pid = (int)pid;
    r->nproc = (int)nproc;
    snprintf(r->phase, sizeof r->phase, "%s", p->f[p->col[C_PHASE]]);
    if (r->kind == MW_ROW_TOTAL && r->rss < 0) {
        mw_errf(p->err, p->errlen, "%s:%zu: total row without rss_kb", p->path, p->line);
        return -1;
    }
    return 0;
}

static int load_lines(parser *p, FILE *f, mw_trace *tr)
{
    char *line = NULL;
    size_t cap = 0, ncap = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        p->line++;
        if (line[len - 1] != '\n') {
            mw_errf(p->err, p->errlen, "%s:%zu: last row is incomplete", p->path, p->line);
            rc = -1;
            break;
        }
        line[len - 1] = 0;
        if (p->line == 1) {
            rc = parse_header(p, line);
            continue;
        }
        if (tr->n == ncap) {
            ncap = ncap ? 2 * ncap : 1024;
            mw_row *nr = realloc(tr->rows, ncap * sizeof *nr);
            if (!nr) {
                mw_errf(p->err, p->errlen, "%s: out of memory", p->path);
                rc = -1;
                break;
            }
            tr->rows = nr;
        }
        rc = parse_row(p, line, &tr->rows[tr->n]);
        if (rc == 0) tr->n++;
    }
    free(line);
    return rc;
}

g16_status mw_trace_load(const char *path, mw_trace *tr, char *err, size_t errlen)
{
    memset(tr, 0, sizeof *tr);
    FILE *f = fopen(path, "re");
    if (!f) {
        int e = errno;
        mw_errf(err, errlen, "%s: cannot open: %s", path, strerror(e));
        return e == ENOENT ? G16_ERR_NOT_FOUND : G16_ERR_IO;
    }
    parser p = {.path = path, .err = err, .errlen = errlen};
    int rc = load_lines(&p, f, tr);
    fclose(f);
    if (rc == 0 && p.line == 0) {
        mw_errf(err, errlen, "%s: empty file, not a memwatch trace", path);
        rc = -1;
    }
    if (rc != 0) mw_trace_free(tr);
    return rc ? G16_ERR_FORMAT : G16_OK;
}

void mw_trace_free(mw_trace *tr)
{
    free(tr->rows);
    tr->rows = NULL;
    tr->n = 0;
}
