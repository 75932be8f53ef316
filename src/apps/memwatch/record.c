/* `memwatch record`: the sampling loop.  One poll() waits for the next tick,
 * for signals (signalfd: SIGCHLD, SIGINT, SIGTERM) and for phase markers, so
 * a marker is acted on at once, not at the next tick. */
#define _GNU_SOURCE
#include "record.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    rec_opts o;
    mw_target *t;
    mw_writer *w;
    mark_src *mf, *ml;
    int sfd;
    pid_t child;
    int child_done, child_status;
    struct rusage ru;
    int64_t fork_rss_kb;
    char phase[MW_PHASE_MAX];
    double t0, next_pss;
    int last_nproc, warned_reset, tty;
    int stop_sig, forward_sig, ended;
    mw_peak_kind last_kind;
} rec;

static int setup_signals(rec *r)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed --out pipe is a write error */
    r->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    return r->sfd < 0 ? mw_fail("signalfd: %s", strerror(errno)) : 0;
}

static void live_line(rec *r, const mw_sample *s)
{
    char rss[32], anon[32], file[32], shm[32], hwm[32], gpu[48] = "";
    mw_fmt_kb(rss, sizeof rss, s->total.rss);
    mw_fmt_kb(anon, sizeof anon, s->total.anon);
    mw_fmt_kb(file, sizeof file, s->total.file);
    mw_fmt_kb(shm, sizeof shm, s->total.shmem);
    mw_fmt_kb(hwm, sizeof hwm, s->total.hwm);
    if (s->gpu_kb >= 0) {
        char g[32];
        mw_fmt_kb(g, sizeof g, s->gpu_kb);
        snprintf(gpu, sizeof gpu, "  gpu %s", g);
    }
    fprintf(stderr,
            "%s%7.1fs  %-12s rss %s (anon %s, file %s, shmem %s)  peak %s %s  %d proc%s%s%s",
            r->tty ? "\r\033[K" : "", s->mono_s - r->t0, r->phase, rss, anon, file, shm, hwm,
            mw_peak_kind_name(s->peak_kind), s->nproc, s->nproc == 1 ? "" : "s", gpu,
            r->tty ? "" : "\n");
    fflush(stderr);
}

/* 1: written; 0: the target is gone; -1: write error. */
static int sample(rec *r)
{
    mw_sample s;
    double now = mw_now_mono();
    int pss = r->o.pss_every > 0 && now >= r->next_pss;
    if (pss) r->next_pss = now + r->o.pss_every;
    if (!mw_take(r->t, &s, pss)) return 0;
    r->last_nproc = s.nproc;
    r->last_kind = s.peak_kind;
    if (mw_writer_sample(r->w, &s, r->phase, NULL) != 0) {
        mw_fail("%s", mw_writer_error(r->w));
        return -1;
    }
    if (r->o.live) live_line(r, &s);
    return 1;
}

/* The sample before the reset closes the old phase with its exact peak. */
static int new_phase(rec *r, const char *name)
{
    int rc = sample(r);
    if (rc <= 0) return rc;
    char err[MW_ERRLEN];
    if (mw_reset_peaks(r->t, err, sizeof err) != 0 && !r->warned_reset) {
        r->warned_reset = 1;
        mw_fail("warning: %s; peaks from here on are sampled, not exact", err);
    }
    snprintf(r->phase, sizeof r->phase, "%.63s", name);
    /* Every phase gets a row even if the target ends before the next tick. */
    return sample(r);
}

static int read_marks(rec *r, mark_src *m)
{
    char names[64][MW_PHASE_MAX];
    int n = m ? mark_read(m, names, 64) : 0;
    for (int i = 0; i < n; i++) {
        int rc = new_phase(r, names[i]);
        if (rc <= 0) return rc;
    }
    return 1;
}

static void reap(rec *r, int block)
{
    if (r->child <= 0 || r->child_done) return;
    int st;
    pid_t p = wait4(r->child, &st, block ? 0 : WNOHANG, &r->ru);
    if (p == r->child) {
        r->child_done = 1;
        r->child_status = st;
    }
}

static void on_signal(rec *r)
{
    struct signalfd_siginfo si;
    while (read(r->sfd, &si, sizeof si) == (ssize_t)sizeof si) {
        if (si.ssi_signo == SIGCHLD) {
            reap(r, 0);
            continue;
        }
        r->stop_sig = (int)si.ssi_signo;
        /* A terminal's ^C already reached the COMMAND's process group. */
        r->forward_sig = si.ssi_code == SI_USER || si.ssi_code == SI_QUEUE;
    }
}

static int wait_events(rec *r, double timeout_s)
{
    struct pollfd pf[3];
    int n = 0;
    pf[n++] = (struct pollfd){.fd = r->sfd, .events = POLLIN};
    int fds[2] = {r->mf ? mark_poll_fd(r->mf) : -1, r->ml ? mark_poll_fd(r->ml) : -1};
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0) pf[n++] = (struct pollfd){.fd = fds[i], .events = POLLIN};
    int ms = (int)ceil(timeout_s * 1e3);
    if (poll(pf, (nfds_t)n, ms < 0 ? 0 : ms) < 0 && errno != EINTR)
        return mw_fail("poll: %s", strerror(errno)), -1;
    if (pf[0].revents) on_signal(r);
    return 0;
}

/* The final peak of a launched single process: at exit the kernel folds its
 * VmHWM (since the last reset) into ru_maxrss, which wait4 hands us.
 * ru_maxrss also covers memwatch's own image before exec, hence the check. */
static int write_exit_row(rec *r)
{
    if (!r->child_done || r->last_nproc > 1) return 0;
    int64_t kb = r->ru.ru_maxrss;
    if (kb <= r->fork_rss_kb) return 0;
    if (mw_writer_exit(r->w, mw_now_unix(), mw_now_mono(), r->child, r->phase, kb, r->last_kind) !=
        0)
        return mw_fail("%s", mw_writer_error(r->w)), -1;
    return 0;
}

static int loop(rec *r)
{
    double next = mw_now_mono();
    for (;;) {
        if (r->stop_sig || r->child_done) return 0;
        double now = mw_now_mono();
        if (now >= next) {
            int rc = sample(r);
            if (rc <= 0) return rc;
            next += r->o.interval;
            if (next < now) next = now + r->o.interval; /* we fell behind */
        }
        if (wait_events(r, next - mw_now_mono()) != 0) return -1;
        if (r->stop_sig || r->child_done) return 0;
        int rc = read_marks(r, r->mf);
        if (rc > 0) rc = read_marks(r, r->ml);
        if (rc <= 0) return rc;
    }
}

/* After a stop signal: pass it on, give the COMMAND 2 s to end. */
static void wait_child_after_signal(rec *r)
{
    if (r->child <= 0 || r->child_done) return;
    if (r->forward_sig) kill(r->child, r->stop_sig);
    double until = mw_now_mono() + 2.0;
    int stop = r->stop_sig;
    while (!r->child_done && mw_now_mono() < until) {
        wait_events(r, until - mw_now_mono());
        reap(r, 0);
    }
    r->stop_sig = stop;
}

static int exit_status(const rec *r, int rc)
{
    if (rc != 0) return MW_EXIT_ERR;
    if (r->child > 0 && r->child_done) {
        if (WIFEXITED(r->child_status)) return WEXITSTATUS(r->child_status);
        if (WIFSIGNALED(r->child_status)) return 128 + WTERMSIG(r->child_status);
    }
    if (r->child > 0 && r->stop_sig) return 128 + r->stop_sig;
    return 0;
}

static int open_marks(rec *r, char *mark_abs, size_t n)
{
    char err[MW_ERRLEN];
    if (r->o.mark_file) {
        r->mf = mark_open(r->o.mark_file, NULL, err, sizeof err);
        if (!r->mf) return mw_fail("%s", err);
        if (!realpath(r->o.mark_file, mark_abs))
            return mw_fail("%s: %s", r->o.mark_file, strerror(errno));
    } else {
        mark_abs[0] = 0;
    }
    (void)n;
    if (r->o.mark_log) {
        r->ml = mark_open(r->o.mark_log, r->o.mark_regex, err, sizeof err);
        if (!r->ml) return mw_fail("%s", err);
    }
    return 0;
}

static int find_roots(rec *r, const char *mark_abs, pid_t **roots, int *n)
{
    if (r->o.pgrep) return rec_pgrep(r->o.pgrep, roots, n);
    *roots = malloc(sizeof **roots);
    if (!*roots) return mw_fail("out of memory");
    *n = 1;
    if (!r->o.cmd) {
        (*roots)[0] = r->o.pid;
        return 0;
    }
    mw_mem self;
    if (mw_read_status(getpid(), &self, NULL) == 0) r->fork_rss_kb = self.hwm;
    int rc = rec_launch(&r->o, mark_abs[0] ? mark_abs : NULL, &(*roots)[0]);
    if (rc == 0) r->child = (*roots)[0];
    return rc;
}

/* A target we did not launch may predate the recording: its VmHWM must be
 * reset, or the first phase would report a peak from before we looked. */
static int open_target(rec *r, const pid_t *roots, int n)
{
    char err[MW_ERRLEN];
    if (mw_open(roots, n, r->o.no_gpu ? MW_OPEN_NO_GPU : 0, &r->t, err, sizeof err))
        return mw_fail("record: %s", err);
    if (r->o.no_reset)
        mw_disable_reset(r->t);
    else if (!r->o.cmd && mw_reset_peaks(r->t, err, sizeof err) != 0)
        return mw_fail("record: %s (use --no-reset to record sampled peaks)", err);
    return 0;
}

static int setup(rec *r)
{
    char mark_abs[PATH_MAX], err[MW_ERRLEN];
    pid_t *roots = NULL;
    int n = 0, rc = setup_signals(r);
    if (!rc) rc = open_marks(r, mark_abs, sizeof mark_abs);
    if (!rc) rc = find_roots(r, mark_abs, &roots, &n);
    if (!rc) rc = open_target(r, roots, n);
    free(roots);
    if (rc) return rc;
    if (mw_writer_open(r->o.out, r->o.per_process, NULL, 0, &r->w, err, sizeof err))
        return mw_fail("record: %s", err);
    snprintf(r->phase, sizeof r->phase, "start");
    r->t0 = r->next_pss = mw_now_mono();
    r->tty = isatty(2);
    return 0;
}

static void teardown(rec *r)
{
    if (r->o.live && r->tty) fputc('\n', stderr);
    if (r->w && mw_writer_close(r->w) != 0) mw_fail("%s: close failed", r->o.out);
    mw_close(r->t);
    mark_close(r->mf);
    mark_close(r->ml);
    if (r->sfd >= 0) close(r->sfd);
}

int mw_cmd_record(int argc, char **argv)
{
    rec r;
    memset(&r, 0, sizeof r);
    r.sfd = -1;
    int rc = rec_parse(&r.o, argc, argv);
    if (rc) return rc < 0 ? 0 : rc;
    rc = setup(&r);
    if (rc == 0) {
        rc = loop(&r);
        if (r.stop_sig)
            wait_child_after_signal(&r);
        else if (rc == 0)
            reap(&r, 1);
        if (rc == 0) rc = write_exit_row(&r);
        rc = exit_status(&r, rc);
    } else if (r.child > 0) {
        kill(r.child, SIGTERM); /* we cannot record it: do not leave it behind */
        reap(&r, 1);
    }
    teardown(&r);
    return rc;
}
