/* g16d configuration: defaults, an optional TOML-like file (key = value),
 * then command-line flags, which win.  One table drives both and --help. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "d.h"
#include "pgqueue.h"

/* 0; -1: the caller names the bad value; SET_REPORTED: the setter said
 * why itself. */
typedef int (*setter)(d_config *c, const char *v);
enum { SET_REPORTED = -2 };

typedef struct {
    const char *name; /* flag without "--", and the config-file key */
    const char *arg;  /* NULL: a switch */
    setter set;
    const char *help;
} option;

static int parse_int(const char *v, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = (int)x;
    return 0;
}

static int copy_str(char *dst, size_t len, const char *v)
{
    if (!*v || strlen(v) >= len) return -1;
    memcpy(dst, v, strlen(v) + 1);
    return 0;
}

static int set_socket(d_config *c, const char *v)
{
    return copy_str(c->socket_path, sizeof c->socket_path, v);
}
static int set_state(d_config *c, const char *v)
{
    return copy_str(c->state_dir, sizeof c->state_dir, v);
}
static int set_allow(d_config *c, const char *v)
{
    if (c->n_allow >= D_MAX_ALLOW) return -1;
    return copy_str(c->allow_dir[c->n_allow++], sizeof c->allow_dir[0], v);
}
static int set_port(d_config *c, const char *v) { return parse_int(v, 1, 65535, &c->tcp_port); }
/* A token others may read is no secret: refused, as ssh refuses such
 * private keys. */
static int set_token_file(d_config *c, const char *v)
{
    struct stat st;
    /* O_NONBLOCK: a FIFO named here must not hold the startup in open() */
    int fd = open(v, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0) close(fd);
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "g16d: %s: not a regular file\n", v);
        fclose(f);
        return SET_REPORTED;
    }
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        fprintf(stderr,
                "g16d: %s: the token file is accessible by group or others (mode %04o): "
                "chmod 600 it\n",
                v, (unsigned)(st.st_mode & 07777));
        fclose(f);
        return SET_REPORTED;
    }
    char *ok = fgets(c->token, sizeof c->token, f);
    fclose(f);
    if (!ok) return -1;
    c->token[strcspn(c->token, "\r\n")] = 0;
    return strlen(c->token) >= 16 ? 0 : -1; /* a short token is a mistake, not a secret */
}
static int set_budget(d_config *c, const char *v) { return args_size(v, &c->budget); }
static int set_margin(d_config *c, const char *v) { return args_size(v, &c->budget_margin); }
static int set_synth(d_config *c, const char *v)
{
    return parse_int(v, 1, 32, &c->workers[ST_SYNTH]);
}
static int set_msm(d_config *c, const char *v) { return parse_int(v, 1, 16, &c->workers[ST_MSM]); }
static int set_final(d_config *c, const char *v)
{
    return parse_int(v, 1, 8, &c->workers[ST_FINAL]);
}
static int set_msm_q(d_config *c, const char *v)
{
    return parse_int(v, 1, 1024, &c->queue_depth[ST_MSM]);
}
static int set_gpu_batch(d_config *c, const char *v) { return parse_int(v, 1, 16, &c->gpu_batch); }
static int set_final_q(d_config *c, const char *v)
{
    return parse_int(v, 1, 1024, &c->queue_depth[ST_FINAL]);
}
static int set_threads(d_config *c, const char *v) { return parse_int(v, 0, 1024, &c->threads); }
static int set_domain_per_thread(d_config *c, const char *v)
{
    return parse_int(v, 1, 1 << 30, &c->domain_per_thread);
}
static int set_body(d_config *c, const char *v) { return args_size(v, &c->max_body); }
static int set_ttl(d_config *c, const char *v) { return args_decimal(v, &c->result_ttl); }
static int set_fttl(d_config *c, const char *v) { return args_decimal(v, &c->fetched_ttl); }
static int set_sample(d_config *c, const char *v) { return parse_int(v, 10, 60000, &c->sample_ms); }
static int set_conns(d_config *c, const char *v)
{
    return parse_int(v, 4, 65536, &c->max_connections);
}
static int set_verify(d_config *c, const char *v)
{
    if (!v || !strcmp(v, "true") || !strcmp(v, "1"))
        c->self_verify = 1;
    else if (!strcmp(v, "false") || !strcmp(v, "0"))
        c->self_verify = 0;
    else
        return -1;
    return 0;
}
static int set_no_verify(d_config *c, const char *v)
{
    (void)v;
    c->self_verify = 0;
    return 0;
}
static int set_device(d_config *c, const char *v)
{
    if (!strcmp(v, "auto"))
        c->device = G16_DEVICE_AUTO;
    else if (!strcmp(v, "cpu"))
        c->device = G16_DEVICE_CPU;
    else if (!strcmp(v, "gpu"))
        c->device = G16_DEVICE_GPU;
    else
        return -1;
    return 0;
}
static int set_g2_cpu(d_config *c, const char *v)
{
    (void)v;
    c->g2_on_cpu = 1;
    return 0;
}
static int set_copies(d_config *c, const char *v) { return parse_int(v, 2, 32, &c->gpu_copies); }
static int set_dev_budget(d_config *c, const char *v)
{
    return args_size(v, &c->device_budget) || c->device_budget == 0 ? -1 : 0;
}
/* A URL with a password is refused here, before anything starts. */
static int set_queue(d_config *c, const char *v)
{
    char err[D_ERR];
    if (d_pgq_url_ok(v, err, sizeof err)) {
        fprintf(stderr, "g16d: %s\n", err);
        return SET_REPORTED;
    }
    return copy_str(c->queue, sizeof c->queue, v);
}
static int set_lease(d_config *c, const char *v)
{
    return args_decimal(v, &c->lease_s) || c->lease_s < 0.5 || c->lease_s > 3600 ? -1 : 0;
}
static int set_no_listen(d_config *c, const char *v)
{
    (void)v;
    c->queue_listen = 0;
    return 0;
}
static int set_witness_memory(d_config *c, const char *v)
{
    return args_size(v, &c->witness_memory) || c->witness_memory == 0 ? -1 : 0;
}
static int set_witness_timeout(d_config *c, const char *v)
{
    return args_decimal(v, &c->witness_timeout) || c->witness_timeout > 1e9 ? -1 : 0;
}
static int set_log_format(d_config *c, const char *v)
{
    if (strcmp(v, "text") && strcmp(v, "json")) return -1;
    c->log_json = !strcmp(v, "json");
    return 0;
}
static int set_log_level(d_config *c, const char *v)
{
    d_log_level l;
    if (d_log_parse_level(v, &l)) return -1;
    c->log_level = (int)l;
    return 0;
}
/* The help states the library's default. */
_Static_assert((int)G16_WITNESS_TIME_LIMIT == 600, "--witness-timeout's default in the help");
static int set_pin(d_config *c, const char *v)
{
    (void)v;
    c->pin_keys = 1;
    return 0;
}
static int set_no_pin(d_config *c, const char *v)
{
    (void)v;
    c->pin_keys = 0;
    return 0;
}

static const option k_opts[] = {
    {"socket", "PATH", set_socket,
     "Unix socket (mode 0600). Default $XDG_RUNTIME_DIR/g16d.sock, else /tmp/g16d-$UID/g16d.sock.\n"
     "                         Its directory and every ancestor must be this user's (or "
     "root's)\n"
     "                         and writable by no one else (a sticky one like /tmp aside); only "
     "a\n"
     "                         stale socket there (no daemon answers) is replaced"},
    {"state-dir", "DIR", set_state,
     "jobs database, uploaded witnesses and inputs, compiled circuits, memory trace. Default "
     "$XDG_STATE_HOME/g16d, else "
     "~/.local/state/g16d.\n"
     "                         The same rule as the socket's directory (created 0700)"},
    {"allow-dir", "DIR", set_allow,
     "witness and key paths are read only under DIR (repeatable; none: only uploads)"},
    {"tcp-port", "PORT", set_port, "also listen on 127.0.0.1:PORT (needs --token-file)"},
    {"token-file", "FILE", set_token_file,
     "bearer token (first line, >= 16 chars) that TCP clients must send; the file must not\n"
     "                         be accessible by group or others (chmod 600)"},
    {"memory-budget", "SIZE", set_budget,
     "bytes the keys and in-flight proofs may use (512M, 8G, ...). Default MemAvailable minus the "
     "margin"},
    {"budget-margin", "SIZE", set_margin,
     "kept free when the budget is derived (default 10%, at least 256M)"},
    {"synth-workers", "N", set_synth,
     "synthesis workers (a, b, c + NTTs). Default max(2, cores/4)"},
    {"msm-workers", "N", set_msm,
     "MSM workers: how many partitions' MSMs may run side by side. Default 2 on the GPU,\n"
     "                         else --threads (at most 16); 1 gives every partition all threads"},
    {"finalize-workers", "N", set_final,
     "finalize workers (assemble + self-verify). Default max(1, threads/4)"},
    {"msm-queue", "N", set_msm_q,
     "synthesized partitions allowed to wait for an MSM worker. Default = synthesis\n"
     "                         workers (on the GPU at least the key's batch)"},
    {"gpu-batch", "N", set_gpu_batch,
     "most partitions of one key proved in one GPU pass (1..16; 1 = one at a time).\n"
     "                         Default: the key's own (16 at 2^16, 4 at 2^18, 1 above)"},
    {"finalize-queue", "N", set_final_q, "partitions allowed to wait for finalize. Default 4"},
    {"threads", "N", set_threads,
     "CPU threads the stage calls share. Default 0 = all cores. A key's partitions get\n"
     "                         from 1 thread each (small circuits, several side by side) to all\n"
     "                         of them (large ones, or a partition with nothing else to run)"},
    {"domain-per-thread", "N", set_domain_per_thread,
     "a key's partitions get one thread per N of its domain (at least 1, at most --threads,\n"
     "                         and enough for the MSM workers to use every thread). Default 65536"},
    {"witness-memory", "SIZE", set_witness_memory,
     "linear memory a circuit's witness calculator may grow to (reserved with each input\n"
     "                         partition; a calculation that needs more fails; witness graphs\n"
     "                         (one per path of the circuit's branches) larger than it together\n"
     "                         are not used). Default 4x what the circuit starts with, at least\n"
     "                         64M"},
    {"witness-timeout", "SECONDS", set_witness_timeout,
     "a witness calculation that runs longer (a circuit loop its input never ends), by the\n"
     "                         wasm or the witness graph, fails its partition; the job's others\n"
     "                         go on. Default 600; 0: no limit"},
    {"max-body", "SIZE", set_body,
     "largest request body accepted (refused from its headers). A body and its\n"
     "                         parse are charged to the memory budget: 413 beyond it,\n"
     "                         507 beyond what is free now. Default 64M"},
    {"result-ttl", "SECONDS", set_ttl,
     "finished results kept this long if never fetched. Default 86400"},
    {"fetched-ttl", "SECONDS", set_fttl,
     "results kept this long after the first fetch. Default 600"},
    {"sample-interval", "MS", set_sample, "memory sampling period in milliseconds. Default 100"},
    {"self-verify", "BOOL", set_verify,
     "verify every proof before returning it (true|false). Default true"},
    {"no-self-verify", NULL, set_no_verify, "same as --self-verify false"},
    {"max-connections", "N", set_conns,
     "concurrent HTTP connections; each is a socket, not a thread (a long-poll waits\n"
     "                         without one), so /v1/status answers however many wait. Default "
     "1024"},
    {"device", "cpu|gpu|auto", set_device,
     "where proofs run: auto (default) = the GPU when this build has CUDA and a GPU is present,\n"
     "                         else the CPU; gpu = refuse to start without one; cpu = never the "
     "GPU.\n"
     "                         On the GPU each key is loaded onto it at POST /v1/keys"},
    {"device-memory-budget", "SIZE", set_dev_budget,
     "GPU memory the keys on the GPU and their proofs' work buffers may use; a key\n"
     "                         that does not fit evicts idle GPU keys (least recently used "
     "first),\n"
     "                         else is refused (507, --device gpu) or stays on the CPU (auto).\n"
     "                         Default: the GPU's free memory at startup (NVML) minus 10% (at\n"
     "                         least 512M); ignored when proofs run on the CPU"},
    {"g2-on-cpu", NULL, set_g2_cpu,
     "GPU proofs run the G2 MSM (B2) on the CPU while the GPU does the rest"},
    {"gpu-copies", "N", set_copies,
     "keep N shift copies (2 to 32) of each GPU key's MSM points on the device: N times\n"
     "                         their device memory (charged to the device budget) and a slower\n"
     "                         key load, for faster MSMs (BN254 2^24 proof 0.214 -> 0.185 s with "
     "12)"},
    {"pin-keys", NULL, set_pin,
     "lock each key's bytes in RAM (mlock) so they are never paged out; a key that cannot be\n"
     "                         locked works unpinned and GET /v1/keys says why. Default: on when\n"
     "                         this process may lock the whole budget (CAP_IPC_LOCK, or\n"
     "                         RLIMIT_MEMLOCK >= budget), else off with one warning at startup"},
    {"no-pin-keys", NULL, set_no_pin, "never lock keys in RAM"},
    {"queue", "URL", set_queue,
     "postgresql://... : join the fleet of every g16d with this URL: jobs, partitions, keys\n"
     "                         and results live in that PostgreSQL database instead of SQLite.\n"
     "                         A URL with a password is refused (ps shows it): libpq reads\n"
     "                         ~/.pgpass, PGPASSFILE or PGPASSWORD; sslmode= asks for TLS"},
    {"lease", "SECONDS", set_lease,
     "with --queue: a claimed partition is this host's for SECONDS without a heartbeat\n"
     "                         (renewed every third of it); then another host takes it over.\n"
     "                         Default 30"},
    {"no-listen", NULL, set_no_listen,
     "with --queue: an idle host only polls the queue (every 0.1 s), never LISTENs for\n"
     "                         submissions (for a pooler in transaction mode, which drops\n"
     "                         notices). Without LISTEN in the database (YugabyteDB) it polls "
     "anyway"},
    {"log-format", "text|json", set_log_format,
     "one line per event on stderr (journald): text (g16d: LEVEL EVENT name=value\n"
     "                         ...) or json (one object: ts, level, event and the fields).\n"
     "                         Default text"},
    {"log-level", "LEVEL", set_log_level,
     "the least level written: debug, info (default), notice, warning or error"},
};
enum { NOPTS = sizeof k_opts / sizeof k_opts[0] };

static void usage(FILE *f)
{
    fputs("usage: g16d [--config FILE] [OPTIONS]\n\n"
          "g16d keeps Groth16 proving keys resident and proves witnesses through a\n"
          "pipeline (synthesis -> MSM -> finalize) that never exceeds a memory budget.\n"
          "It serves HTTP/1.1 + JSON on a Unix socket (curl --unix-socket, `g16 client`).\n"
          "SIGTERM drains it (no new jobs or claims, 503; what it holds finishes) and\n"
          "then exits 0; a second SIGTERM, or SIGINT, stops at once, leaving queued\n"
          "partitions for the next start (jobs survive restarts: SQLite in --state-dir).\n"
          "SIGHUP reads the config file again: memory-budget, the workers and queues, the\n"
          "TTLs and the log options change in place; the rest is named in the log and kept.\n\n"
          "options (each may also be set in the config file as `name = value`;\n"
          "flags override the file; # starts a comment):\n"
          "  --config FILE          read options from FILE first\n",
          f);
    for (int i = 0; i < NOPTS; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", k_opts[i].name, k_opts[i].arg ? " " : "",
                 k_opts[i].arg ? k_opts[i].arg : "");
        if (strlen(left) > 22)
            fprintf(f, "  %s\n  %-22s %s\n", left, "", k_opts[i].help);
        else
            fprintf(f, "  %-22s %s\n", left, k_opts[i].help);
    }
    fputs(
        "  --help                 this text\n"
        "  --version              the version, the commit, the library's SONAME and\n"
        "                         whether the CUDA backend is in\n\n"
        "API: POST/GET /v1/keys, DELETE /v1/keys/NAME, POST /v1/proofs,\n"
        "GET /v1/proofs/ID[?wait=S], DELETE /v1/proofs/ID, GET /v1/status, GET /metrics,\n"
        "GET /v1/memory[?since=UNIX_S&format=csv|json], GET /v1/health (200 ready, 503\n"
        "draining or degraded), POST /v1/drain (stop taking work), DELETE /v1/drain (resume).\n\n"
        "environment:\n"
        "  XDG_RUNTIME_DIR        the default socket's directory (else /tmp/g16d-$UID, which must\n"
        "                         belong to this user and be writable by no one else)\n"
        "  XDG_STATE_HOME, HOME   the default --state-dir\n"
        "  MEMWATCH_NO_NVML       when set, NVML (libnvidia-ml) is never loaded: no GPU memory in\n"
        "                         the memory trace and no default --device-memory-budget\n",
        f);
#ifdef G16D_HAVE_SYSTEMD
    fputs(
        "  NOTIFY_SOCKET          set by systemd (Type=notify): READY=1 is sent once the keys and\n"
        "                         jobs of --state-dir are loaded and the socket answers\n"
        "  WATCHDOG_USEC          set by systemd (WatchdogSec=): WATCHDOG=1 every half of it\n"
        "  LISTEN_FDS, LISTEN_PID set by systemd's socket activation (g16d.socket): the one\n"
        "                         Unix socket passed is served instead of --socket\n",
        f);
#endif
}

static const option *find(const char *name)
{
    for (int i = 0; i < NOPTS; i++)
        if (!strcmp(k_opts[i].name, name)) return &k_opts[i];
    return NULL;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    if (e - s >= 2 && (*s == '"' || *s == '\'') && e[-1] == *s) {
        e[-1] = 0;
        s++;
    }
    return s;
}

/* One "name = value" line of the file (comments and blank lines given
 * here too): 0, or -1 having said why with the file's name and line. */
static int load_line(d_config *c, const char *path, int no, char *line)
{
    char *hash = strchr(line, '#');
    if (hash && !memchr(line, '"', (size_t)(hash - line))) *hash = 0;
    char *s = trim(line);
    if (!*s || *s == '[') return 0; /* TOML tables are just grouping here */
    char *eq = strchr(s, '=');
    if (!eq) {
        fprintf(stderr, "g16d: %s:%d: expected name = value\n", path, no);
        return -1;
    }
    *eq = 0;
    const char *name = trim(s), *val = trim(eq + 1);
    const option *o = find(name);
    int rc = !o ? -1 : o->arg ? o->set(c, val) : strcmp(val, "true") ? -1 : o->set(c, NULL);
    if (rc && rc != SET_REPORTED)
        fprintf(stderr, "g16d: %s:%d: %s '%s'\n", path, no, o ? "bad value for" : "unknown option",
                name);
    return rc ? -1 : 0;
}

/* Lines are bounded (no option's value is near it) and text: a NUL would
 * hide the rest of its line from the parser. */
#define CONFIG_LINE_MAX 4096

static int load_file(d_config *c, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "g16d: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int no = 0, rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        no++;
        if (len > CONFIG_LINE_MAX) {
            fprintf(stderr, "g16d: %s:%d: line longer than %d bytes\n", path, no, CONFIG_LINE_MAX);
            rc = -1;
        } else if (strlen(line) != (size_t)len) {
            fprintf(stderr, "g16d: %s:%d: NUL byte in a line\n", path, no);
            rc = -1;
        } else {
            rc = load_line(c, path, no, line);
        }
    }
    if (rc == 0 && ferror(f)) {
        fprintf(stderr, "g16d: %s: read failed\n", path);
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

void d_default_socket(char *buf, size_t len)
{
    const char *x = getenv("XDG_RUNTIME_DIR");
    if (x && *x && strlen(x) + 10 < len)
        snprintf(buf, len, "%s/g16d.sock", x);
    else
        snprintf(buf, len, "/tmp/g16d-%u/g16d.sock", (unsigned)getuid());
}

static void defaults(d_config *c)
{
    memset(c, 0, sizeof *c);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    c->workers[ST_SYNTH] = cores / 4 > 2 ? (int)(cores / 4) : 2;
    c->queue_depth[ST_FINAL] = 4;
    c->max_body = 64u << 20;
    c->result_ttl = 86400;
    c->fetched_ttl = 600;
    c->sample_ms = 100;
    c->self_verify = 1;
    c->max_connections = 1024;
    c->device = G16_DEVICE_AUTO;
    c->pin_keys = -1;
    c->domain_per_thread = 1 << 16;
    c->lease_s = 30;
    c->queue_listen = 1;
    c->witness_timeout = G16_WITNESS_TIME_LIMIT;
    c->log_level = D_LOG_INFO;
    const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (x && *x)
        snprintf(c->state_dir, sizeof c->state_dir, "%s/g16d", x);
    else
        snprintf(c->state_dir, sizeof c->state_dir, "%s/.local/state/g16d", home ? home : "/tmp");
}

static int parse_flags(d_config *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--config")) {
            i++;
            continue;
        }
        const option *o = strncmp(a, "--", 2) ? NULL : find(a + 2);
        if (!o) {
            fprintf(stderr, "g16d: unknown option '%s' (see g16d --help)\n", a);
            return -1;
        }
        if (o->arg && i + 1 >= argc) {
            fprintf(stderr, "g16d: %s needs %s\n", a, o->arg);
            return -1;
        }
        const char *v = o->arg ? argv[++i] : NULL;
        int rc = o->set(c, v);
        if (rc == -1) fprintf(stderr, "g16d: bad value for %s: '%s'\n", a, v ? v : "");
        if (rc) return -1;
    }
    return 0;
}

/* --threads as a count, and the finalize workers that follow it (a
 * finalize call is one thread: small proofs need about one for every four
 * threads proving).  The MSM workers wait for the device decision
 * (main.c). */
static void resolve_threads(d_config *c)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (c->threads <= 0) c->threads = cores > 0 ? (int)cores : 1;
    if (!c->workers[ST_FINAL]) c->workers[ST_FINAL] = c->threads / 4 > 8 ? 8 : c->threads / 4;
    if (!c->workers[ST_FINAL]) c->workers[ST_FINAL] = 1;
}

/* 0: run; -1: stop with *exit_code (0 after --help, 2 on a usage error). */
int d_config_load(d_config *c, int argc, char **argv, int *exit_code)
{
    defaults(c);
    c->argc = argc;
    c->argv = argv;
    *exit_code = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            *exit_code = 0;
            return -1;
        }
        if (!strcmp(argv[i], "--version")) {
            g16_build b;
            g16_build_version(&b);
            printf("%s %s (commit %s; libg16.so.%d; CUDA backend: %s)\n", "g16d", b.version,
                   b.commit, b.soname_version, b.cuda ? "yes" : "no");
            *exit_code = 0;
            return -1;
        }
        if (!strcmp(argv[i], "--config")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "g16d: --config needs FILE\n");
                return -1;
            }
            if (load_file(c, argv[++i])) return -1;
        }
    }
    if (parse_flags(c, argc, argv)) return -1;
    d_log_setup(c->log_json, (d_log_level)c->log_level);
    if (!c->socket_path[0]) d_default_socket(c->socket_path, sizeof c->socket_path);
    if (!c->queue_depth[ST_MSM]) c->queue_depth[ST_MSM] = c->workers[ST_SYNTH];
    resolve_threads(c);
    if (c->g2_on_cpu && c->device == G16_DEVICE_CPU) {
        fprintf(stderr, "g16d: --g2-on-cpu applies to GPU proofs, but --device is cpu\n");
        return -1;
    }
    if (c->gpu_copies && c->device == G16_DEVICE_CPU) {
        fprintf(stderr, "g16d: --gpu-copies applies to GPU keys, but --device is cpu\n");
        return -1;
    }
    if (c->gpu_batch && c->device == G16_DEVICE_CPU) {
        fprintf(stderr, "g16d: --gpu-batch applies to GPU keys, but --device is cpu\n");
        return -1;
    }
    if (c->tcp_port && !c->token[0]) {
        fprintf(stderr, "g16d: --tcp-port needs --token-file (TCP clients must authenticate)\n");
        return -1;
    }
    return 0;
}
