/* Sampling a process tree from /proc. */
#define _GNU_SOURCE
#include "memwatch/internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    pid_t pid;
    int fd;
    int seen;
} status_fd;

typedef struct {
    pid_t pid, ppid;
} pid_pair;

struct mw_target {
    pid_t *roots;
    int nroots;
    int children_api;
    status_fd *fds;
    int nfds, capfds;
    mw_proc *procs;
    int nprocs, capprocs;
    pid_t *tree;
    int ntree, captree;
    pid_pair *all;
    int nall, capall;
    int cg_cur_fd, cg_peak_fd;
    int reset_disabled, reset_failed;
    mw_nvml *nvml;
};

void mw_errf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

g16_status mw_grow(void *buf, int *cap, int want, size_t sz)
{
    void **p = buf;
    if (want <= *cap) return G16_OK;
    int ncap = *cap ? *cap * 2 : 16;
    while (ncap < want) ncap *= 2;
    void *q = realloc(*p, (size_t)ncap * sz);
    if (!q) return G16_ERR_NOMEM;
    *p = q;
    *cap = ncap;
    return G16_OK;
}

static double clock_s(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
double mw_now_mono(void) { return clock_s(CLOCK_MONOTONIC); }
double mw_now_unix(void) { return clock_s(CLOCK_REALTIME); }

const char *mw_peak_kind_name(mw_peak_kind k)
{
    static const char *names[] = {"exact", "summed", "sampled"};
    return names[k];
}

void mw_clean_name(char *dst, size_t dstlen, const char *src, size_t srclen)
{
    size_t j = 0;
    while (srclen && isspace((unsigned char)src[srclen - 1])) srclen--;
    while (srclen && isspace((unsigned char)*src)) src++, srclen--;
    for (size_t i = 0; i < srclen && j + 1 < dstlen; i++) {
        unsigned char c = (unsigned char)src[i];
        dst[j++] = (c < 0x20 || c >= 0x7f || c == ',' || c == '"') ? '_' : (char)c;
    }
    dst[j] = 0;
}

/* ---- /proc/PID/status ---- */

static int64_t field_kb(const char *buf, const char *key)
{
    const char *p = strstr(buf, key);
    if (!p || (p != buf && p[-1] != '\n')) return -1;
    return strtoll(p + strlen(key), NULL, 10);
}

static int parse_status(const char *buf, mw_mem *m, char comm[17])
{
    m->rss = field_kb(buf, "VmRSS:");
    if (m->rss < 0) return -1; /* zombie or kernel thread: no memory */
    m->anon = field_kb(buf, "RssAnon:");
    m->file = field_kb(buf, "RssFile:");
    m->shmem = field_kb(buf, "RssShmem:");
    m->hwm = field_kb(buf, "VmHWM:");
    m->swap = field_kb(buf, "VmSwap:");
    m->lck = field_kb(buf, "VmLck:");
    m->pin = field_kb(buf, "VmPin:");
    m->threads = field_kb(buf, "Threads:");
    if (comm) {
        const char *p = strncmp(buf, "Name:", 5) == 0 ? buf + 5 : "";
        while (*p == '\t' || *p == ' ') p++;
        mw_clean_name(comm, 17, p, strcspn(p, "\n"));
    }
    return 0;
}

static int read_fd_at0(int fd, char *buf, size_t len)
{
    ssize_t n = pread(fd, buf, len - 1, 0);
    if (n <= 0) return -1;
    buf[n] = 0;
    return 0;
}

g16_status mw_read_status(pid_t pid, mw_mem *m, char comm[17])
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return G16_ERR_NOT_FOUND;
    int rc = read_fd_at0(fd, buf, sizeof buf);
    close(fd);
    return rc == 0 && parse_status(buf, m, comm) == 0 ? G16_OK : G16_ERR_NOT_FOUND;
}

/* Keeping status files open saves an open(2) per process per sample; an fd
 * stays bound to its process, so a reused PID reads as an error, not as a
 * stranger's memory. */
static int cached_status(mw_target *t, pid_t pid, mw_mem *m, char comm[17])
{
    char buf[4096];
    for (int i = 0; i < t->nfds; i++) {
        if (t->fds[i].pid != pid) continue;
        t->fds[i].seen = 1;
        if (read_fd_at0(t->fds[i].fd, buf, sizeof buf) == 0) return parse_status(buf, m, comm);
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (mw_grow(&t->fds, &t->capfds, t->nfds + 1, sizeof *t->fds) != 0) {
        close(fd);
        return -1;
    }
    t->fds[t->nfds++] = (status_fd){pid, fd, 1};
    if (read_fd_at0(fd, buf, sizeof buf) != 0) return -1;
    return parse_status(buf, m, comm);
}

static void drop_unseen_fds(mw_target *t)
{
    int j = 0;
    for (int i = 0; i < t->nfds; i++) {
        if (t->fds[i].seen) {
            t->fds[i].seen = 0;
            t->fds[j++] = t->fds[i];
        } else {
            close(t->fds[i].fd);
        }
    }
    t->nfds = j;
}

/* ---- the tree ---- */

static int tree_has(const mw_target *t, pid_t pid)
{
    for (int i = 0; i < t->ntree; i++)
        if (t->tree[i] == pid) return 1;
    return 0;
}

static void tree_add(mw_target *t, pid_t pid)
{
    if (tree_has(t, pid)) return;
    if (mw_grow(&t->tree, &t->captree, t->ntree + 1, sizeof *t->tree) == 0)
        t->tree[t->ntree++] = pid;
}

/* /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold ") ". */
static pid_t read_ppid(const char *pid_dir)
{
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid_dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = read_fd_at0(fd, buf, sizeof buf);
    close(fd);
    char *p = rc == 0 ? strrchr(buf, ')') : NULL;
    if (!p) return -1;
    char state;
    int ppid;
    return sscanf(p + 1, " %c %d", &state, &ppid) == 2 ? ppid : -1;
}

static void scan_all(mw_target *t)
{
    t->nall = 0;
    DIR *d = opendir("/proc");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        pid_t pp = read_ppid(e->d_name);
        if (pp < 0) continue;
        if (mw_grow(&t->all, &t->capall, t->nall + 1, sizeof *t->all) != 0) break;
        t->all[t->nall++] = (pid_pair){(pid_t)atoi(e->d_name), pp};
    }
    closedir(d);
}

/* CONFIG_PROC_CHILDREN lists children per thread; cheaper than a scan. */
static void add_children_api(mw_target *t, pid_t pid)
{
    char path[96], buf[16384];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        snprintf(path, sizeof path, "/proc/%d/task/%.16s/children", (int)pid, e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        int rc = read_fd_at0(fd, buf, sizeof buf);
        close(fd);
        for (char *p = buf, *end; rc == 0 && *p; p = end) {
            long c = strtol(p, &end, 10);
            if (end == p) break;
            tree_add(t, (pid_t)c);
        }
    }
    closedir(d);
}

static void collect_tree(mw_target *t)
{
    t->ntree = 0;
    for (int i = 0; i < t->nroots; i++) tree_add(t, t->roots[i]);
    if (!t->children_api) scan_all(t);
    /* t->tree grows while we walk it: a breadth-first walk. */
    for (int i = 0; i < t->ntree; i++) {
        if (t->children_api) {
            add_children_api(t, t->tree[i]);
            continue;
        }
        for (int j = 0; j < t->nall; j++)
            if (t->all[j].ppid == t->tree[i]) tree_add(t, t->all[j].pid);
    }
}

/* ---- cgroup ---- */

static int open_cg_file(const char *dir, const char *path, const char *name)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s/%s", dir, path, name);
    return open(full, O_RDONLY | O_CLOEXEC);
}

/* v2 line "0::/path"; v1 line "N:...memory...:/path". */
static void open_cgroup(mw_target *t, pid_t pid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f) return;
    while (fgets(line, sizeof line, f) && t->cg_cur_fd < 0) {
        line[strcspn(line, "\n")] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c2 = 0;
        const char *ctrl = c1 + 1, *cg = c2 + 1;
        if (*ctrl == 0) {
            t->cg_cur_fd = open_cg_file("/sys/fs/cgroup", cg, "memory.current");
            t->cg_peak_fd = open_cg_file("/sys/fs/cgroup", cg, "memory.peak");
        } else if (strstr(ctrl, "memory")) {
            const char *d = "/sys/fs/cgroup/memory";
            t->cg_cur_fd = open_cg_file(d, cg, "memory.usage_in_bytes");
            t->cg_peak_fd = open_cg_file(d, cg, "memory.max_usage_in_bytes");
        }
    }
    fclose(f);
}

static int64_t read_bytes_kb(int fd)
{
    char buf[64];
    if (fd < 0 || read_fd_at0(fd, buf, sizeof buf) != 0) return -1;
    return strtoll(buf, NULL, 10) / 1024;
}

/* ---- PSS, GPU ---- */

static void read_pss(mw_proc *p)
{
    char path[64], buf[2048];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)p->pid);
    double t0 = mw_now_mono();
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int rc = fd < 0 ? -1 : read_fd_at0(fd, buf, sizeof buf);
    if (fd >= 0) close(fd);
    p->pss_ms = (mw_now_mono() - t0) * 1e3;
    const char *q = rc == 0 ? strstr(buf, "\nPss:") : NULL;
    p->pss_kb = q ? strtoll(q + 5, NULL, 10) : -1;
}

static void add_gpu(mw_target *t, mw_sample *s)
{
    const mw_gpu_use *use;
    int nuse;
    if (!t->nvml || mw_nvml_query(t->nvml, &use, &nuse, &s->gpu_dev_kb) != 0) {
        s->gpu_kb = s->gpu_dev_kb = -1;
        return;
    }
    s->gpu_kb = 0;
    for (int i = 0; i < t->nprocs; i++)
        for (int j = 0; j < nuse; j++)
            if (use[j].pid == t->procs[i].pid) {
                t->procs[i].gpu_kb += use[j].kb;
                s->gpu_kb += use[j].kb;
            }
}

/* ---- sampling ---- */

static void sum_mem(mw_mem *a, const mw_mem *b)
{
    int64_t *x = &a->rss;
    const int64_t *y = &b->rss;
    for (size_t i = 0; i < sizeof *a / sizeof(int64_t); i++)
        if (y[i] > 0) x[i] += y[i];
}

static void read_tree(mw_target *t)
{
    t->nprocs = 0;
    for (int i = 0; i < t->ntree; i++) {
        if (mw_grow(&t->procs, &t->capprocs, t->nprocs + 1, sizeof *t->procs)) break;
        mw_proc *p = &t->procs[t->nprocs];
        memset(p, 0, sizeof *p);
        p->pid = t->tree[i];
        if (cached_status(t, p->pid, &p->m, p->comm) != 0) continue;
        p->pss_kb = -1;
        t->nprocs++;
    }
    drop_unseen_fds(t);
}

bool mw_take(mw_target *t, mw_sample *s, int want_pss)
{
    memset(s, 0, sizeof *s);
    s->unix_s = mw_now_unix();
    s->mono_s = mw_now_mono();
    collect_tree(t);
    read_tree(t);
    if (t->nprocs == 0) return false;
    s->root = t->procs[0].pid;
    memcpy(s->root_comm, t->procs[0].comm, sizeof s->root_comm);
    s->nproc = t->nprocs;
    s->pss_kb = -1;
    for (int i = 0; i < t->nprocs; i++) {
        sum_mem(&s->total, &t->procs[i].m);
        if (!want_pss) continue;
        read_pss(&t->procs[i]);
        s->pss_ms += t->procs[i].pss_ms;
        if (t->procs[i].pss_kb >= 0)
            s->pss_kb = (s->pss_kb < 0 ? 0 : s->pss_kb) + t->procs[i].pss_kb;
    }
    s->cg_current_kb = read_bytes_kb(t->cg_cur_fd);
    s->cg_peak_kb = read_bytes_kb(t->cg_peak_fd);
    add_gpu(t, s);
    s->peak_kind = (t->reset_disabled || t->reset_failed) ? MW_PEAK_SAMPLED
                   : t->nprocs == 1                       ? MW_PEAK_EXACT
                                                          : MW_PEAK_SUMMED;
    s->procs = t->procs;
    return true;
}

/* ---- peaks ---- */

static int reset_one(pid_t pid, char *err, size_t errlen)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/clear_refs", (int)pid);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) return 0; /* exited meanwhile */
    /* "5" resets VmHWM to the current RSS (Linux >= 4.0). */
    if (fd < 0 || write(fd, "5", 1) != 1) {
        int e = errno;
        if (fd >= 0) close(fd);
        if (e == ESRCH) return 0;
        mw_errf(err, errlen, "%s: cannot reset the peak: %s", path, strerror(e));
        return -1;
    }
    close(fd);
    return 0;
}

g16_status mw_reset_peaks(mw_target *t, char *err, size_t errlen)
{
    if (t->reset_disabled) return G16_OK;
    collect_tree(t);
    int rc = 0;
    for (int i = 0; i < t->ntree; i++)
        if (reset_one(t->tree[i], err, errlen) != 0) rc = -1;
    t->reset_failed = rc != 0;
    return rc ? G16_ERR_IO : G16_OK;
}

void mw_disable_reset(mw_target *t) { t->reset_disabled = 1; }

int mw_gpu_available(const mw_target *t) { return t->nvml != NULL; }

/* ---- open/close ---- */

static int has_children_api(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
    return access(path, R_OK) == 0;
}

g16_status mw_open(const pid_t *roots, int nroots, unsigned flags, mw_target **out, char *err,
                   size_t errlen)
{
    char path[64];
    *out = NULL;
    for (int i = 0; i < nroots; i++) {
        snprintf(path, sizeof path, "/proc/%d", (int)roots[i]);
        if (roots[i] <= 0 || access(path, F_OK) != 0) {
            mw_errf(err, errlen, "%s: no process with PID %d", path, (int)roots[i]);
            return G16_ERR_NOT_FOUND;
        }
    }
    mw_target *t = calloc(1, sizeof *t);
    if (!t || !(t->roots = malloc((size_t)nroots * sizeof *roots))) {
        free(t);
        mw_errf(err, errlen, "memwatch: out of memory");
        return G16_ERR_NOMEM;
    }
    memcpy(t->roots, roots, (size_t)nroots * sizeof *roots);
    t->nroots = nroots;
    t->children_api = has_children_api();
    t->cg_cur_fd = t->cg_peak_fd = -1;
    if (nroots > 0) open_cgroup(t, roots[0]);
    if (!(flags & MW_OPEN_NO_GPU)) {
        char why[MW_ERRLEN];
        t->nvml = mw_nvml_open(why, sizeof why); /* without: GPU columns empty */
    }
    *out = t;
    return G16_OK;
}

void mw_close(mw_target *t)
{
    if (!t) return;
    for (int i = 0; i < t->nfds; i++) close(t->fds[i].fd);
    if (t->cg_cur_fd >= 0) close(t->cg_cur_fd);
    if (t->cg_peak_fd >= 0) close(t->cg_peak_fd);
    mw_nvml_close(t->nvml);
    free(t->fds);
    free(t->procs);
    free(t->tree);
    free(t->all);
    free(t->roots);
    free(t);
}
