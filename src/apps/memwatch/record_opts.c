/* `memwatch record`: options, and finding or launching the target. */
#define _GNU_SOURCE
#include "record.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char k_help[] =
    "usage: memwatch record [options] (--pid N | --pgrep PATTERN | -- COMMAND ARGS...)\n"
    "\n"
    "Samples the memory of a process and all its descendants into a CSV trace\n"
    "(one 'total' row per sample; 'proc' rows with --per-process).  Reads\n"
    "/proc/PID/status (VmRSS, RssAnon, RssFile, RssShmem, VmHWM, VmSwap, VmLck,\n"
    "VmPin, Threads), the cgroup's memory.current/memory.peak (cgroup v1:\n"
    "memory.usage_in_bytes/max_usage_in_bytes) and, when libnvidia-ml.so.1\n"
    "loads, GPU memory per process (else the GPU columns are empty).\n"
    "Peaks are exact: VmHWM is reset through /proc/PID/clear_refs at the start\n"
    "(--pid/--pgrep) and at every phase marker, so spikes between samples count.\n"
    "\n"
    "  --interval DUR      time between samples (default 100ms; units us ms s m)\n"
    "  --out FILE          trace file (default trace.csv; '-' for stdout);\n"
    "                      every row is written whole and at once\n"
    "  --per-process       also write one 'proc' row per process per sample\n"
    "  --pss DUR           also read smaps_rollup (PSS) every DUR and record how\n"
    "                      long the read took (pss_ms); off by default because it\n"
    "                      stalls huge processes\n"
    "  --mark-file PATH    phase markers: each line appended to PATH (regular\n"
    "                      file, created if absent; or a FIFO) starts a phase of\n"
    "                      that name; a launched COMMAND gets PATH in\n"
    "                      MEMWATCH_MARK_FILE\n"
    "  --mark-regex RE --mark-log FILE\n"
    "                      phase markers from a log: lines of FILE (followed from\n"
    "                      its current end; from its start if it appears later)\n"
    "                      matching the POSIX extended RE; the phase is group 1,\n"
    "                      or the whole match\n"
    "  --no-reset          never write clear_refs (needed when it is denied);\n"
    "                      per-phase peaks are then sampled, not exact\n"
    "  --no-gpu            do not load NVML (as does MEMWATCH_NO_NVML set in the\n"
    "                      environment, for every program using libg16)\n"
    "  --live              a one-line status on stderr, refreshed every sample\n"
    "                      (one line per sample when stderr is not a terminal)\n"
    "  --pid N             record process N and its descendants\n"
    "  --pgrep PATTERN     record the processes whose command line matches the\n"
    "                      POSIX extended PATTERN (not memwatch nor its parents)\n"
    "  -- COMMAND ARGS     launch COMMAND and record it\n"
    "\n"
    "Ends when the target ends, or on SIGINT/SIGTERM (forwarded to a launched\n"
    "COMMAND when another process sent it).  Exit status: the COMMAND's (128+N\n"
    "if killed by signal N); 0 for --pid/--pgrep; 2 on errors (one line on\n"
    "stderr); 127 if COMMAND cannot be run.\n";

static int want_arg(int argc, char **argv, int i)
{
    if (i + 1 < argc) return 0;
    return mw_fail("record: %s needs a value (see memwatch record --help)", argv[i]);
}

static int parse_pid(const char *s, pid_t *pid)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v <= 0 || v > INT_MAX)
        return mw_fail("record: --pid '%s': not a process id", s);
    *pid = (pid_t)v;
    return 0;
}

static int parse_one(rec_opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    static const char *const flags[] = {"--per-process", "--live", "--no-reset", "--no-gpu"};
    int *fl[] = {&o->per_process, &o->live, &o->no_reset, &o->no_gpu};
    for (int k = 0; k < 4; k++)
        if (strcmp(a, flags[k]) == 0) return *fl[k] = 1, 0;
    if (want_arg(argc, argv, *i)) return MW_EXIT_ERR;
    const char *v = argv[++*i];
    if (strcmp(a, "--interval") == 0)
        return mw_parse_duration(a, v, &o->interval) ? MW_EXIT_ERR : 0;
    if (strcmp(a, "--pss") == 0) return mw_parse_duration(a, v, &o->pss_every) ? MW_EXIT_ERR : 0;
    if (strcmp(a, "--pid") == 0) return parse_pid(v, &o->pid);
    const char **s[] = {&o->out, &o->mark_file, &o->mark_regex, &o->mark_log, &o->pgrep};
    static const char *const names[] = {"--out", "--mark-file", "--mark-regex", "--mark-log",
                                        "--pgrep"};
    for (int k = 0; k < 5; k++)
        if (strcmp(a, names[k]) == 0) return *s[k] = v, 0;
    return mw_fail("record: unknown option '%s' (see memwatch record --help)", a);
}

static int check_opts(const rec_opts *o)
{
    int ntargets = (o->pid > 0) + (o->pgrep != NULL) + (o->cmd != NULL);
    if (ntargets != 1) return mw_fail("record: give exactly one of --pid, --pgrep, -- COMMAND");
    if (!o->mark_regex != !o->mark_log)
        return mw_fail("record: --mark-regex and --mark-log go together");
    return 0;
}

int rec_parse(rec_opts *o, int argc, char **argv)
{
    *o = (rec_opts){.interval = 0.1, .out = "trace.csv"};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(k_help, stdout);
            return -1;
        }
        if (strcmp(argv[i], "--") == 0) {
            if (i + 1 == argc) return mw_fail("record: '--' without a COMMAND");
            o->cmd = argv + i + 1;
            break;
        }
        int rc = parse_one(o, argc, argv, &i);
        if (rc) return rc;
    }
    return check_opts(o);
}

/* ---- --pgrep ---- */

static int read_cmdline(pid_t pid, char *buf, size_t n)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t len = read(fd, buf, n - 1);
    close(fd);
    if (len <= 0) return -1; /* kernel threads have no command line */
    for (ssize_t i = 0; i < len; i++)
        if (buf[i] == 0) buf[i] = ' ';
    buf[len] = 0;
    return 0;
}

static pid_t ppid_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    int pp;
    char st;
    return p && sscanf(p + 1, " %c %d", &st, &pp) == 2 ? pp : -1;
}

/* memwatch's own command line (and its shell's) contain the pattern. */
static int is_self_or_ancestor(pid_t pid)
{
    for (pid_t p = getpid(); p > 0; p = ppid_of(p))
        if (p == pid) return 1;
    return 0;
}

static int has_matched_ancestor(pid_t pid, const pid_t *m, int n)
{
    for (pid_t p = ppid_of(pid); p > 1; p = ppid_of(p))
        for (int i = 0; i < n; i++)
            if (m[i] == p) return 1;
    return 0;
}

static int scan_matches(regex_t *re, pid_t **out, int *n)
{
    DIR *d = opendir("/proc");
    if (!d) return mw_fail("/proc: cannot list: %s", strerror(errno));
    int cap = 0;
    struct dirent *e;
    char cmd[8192];
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        pid_t pid = (pid_t)atoi(e->d_name);
        if (read_cmdline(pid, cmd, sizeof cmd) != 0 || is_self_or_ancestor(pid)) continue;
        if (regexec(re, cmd, 0, NULL, 0) != 0) continue;
        if (mw_grow(out, &cap, *n + 1, sizeof **out) == 0) (*out)[(*n)++] = pid;
    }
    closedir(d);
    return 0;
}

int rec_pgrep(const char *pattern, pid_t **roots, int *nroots)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return mw_fail("record: --pgrep '%s': not a valid regular expression", pattern);
    pid_t *m = NULL;
    int n = 0;
    int rc = scan_matches(&re, &m, &n);
    regfree(&re);
    /* Descendants are sampled through their ancestor: count them once. */
    *nroots = 0;
    *roots = malloc((size_t)(n ? n : 1) * sizeof **roots);
    for (int i = 0; rc == 0 && *roots && i < n; i++)
        if (!has_matched_ancestor(m[i], m, n)) (*roots)[(*nroots)++] = m[i];
    free(m);
    if (rc == 0 && *nroots == 0) rc = mw_fail("record: --pgrep '%s': no process matches", pattern);
    return rc;
}

/* ---- launching ---- */

static void child_exec(const rec_opts *o, const char *mark_abs, int errfd)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    if (mark_abs) setenv("MEMWATCH_MARK_FILE", mark_abs, 1);
    execvp(o->cmd[0], o->cmd);
    int e = errno;
    if (write(errfd, &e, sizeof e) != (ssize_t)sizeof e) _exit(127);
    _exit(127);
}

/* The pipe closes on exec; an errno arriving through it means exec failed. */
int rec_launch(const rec_opts *o, const char *mark_abs, pid_t *child)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return mw_fail("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) return mw_fail("fork: %s", strerror(errno));
    if (pid == 0) child_exec(o, mark_abs, p[1]);
    close(p[1]);
    int e = 0;
    ssize_t n;
    while ((n = read(p[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(p[0]);
    if (n == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        mw_fail("record: cannot run '%s': %s", o->cmd[0], strerror(e));
        return 127;
    }
    *child = pid;
    return 0;
}
