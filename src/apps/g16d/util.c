/* Small helpers of g16d: time, errors, paths, base64, ids. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "d.h"

double d_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void d_abs_time(struct timespec *ts, double t)
{
    ts->tv_sec = (time_t)t;
    ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
    if (ts->tv_nsec < 0) ts->tv_nsec = 0;
}

void d_errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || !errlen) return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* A path is allowed when its real path (symlinks resolved) lies under one
 * of the --allow-dir directories (also resolved), so "..", symlinks and
 * prefixes like /data-evil for /data cannot escape. */
d_status d_path_allowed(const d_config *c, const char *path, char *real, size_t reallen)
{
    char rp[PATH_MAX], rd[PATH_MAX];
    if (!realpath(path, rp)) return D_ERR_NOT_FOUND;
    for (int i = 0; i < c->n_allow; i++) {
        if (!realpath(c->allow_dir[i], rd)) continue;
        size_t n = strlen(rd);
        if (strncmp(rp, rd, n) == 0 && (rp[n] == '/' || rp[n] == 0 || (n == 1 && rd[0] == '/'))) {
            snprintf(real, reallen, "%s", rp);
            return D_OK;
        }
    }
    return D_ERR_FORBIDDEN;
}

static int b64_value(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62;
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

/* Standard or URL-safe base64, padding optional, whitespace ignored. */
int d_base64_decode(const char *in, size_t inlen, uint8_t **out, size_t *outlen)
{
    uint8_t *buf = malloc(inlen / 4 * 3 + 3);
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0, pad = 0;
    if (!buf) return -1;
    for (size_t i = 0; i < inlen; i++) {
        unsigned char ch = (unsigned char)in[i];
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
        if (ch == '=') {
            pad++;
            continue;
        }
        int v = b64_value(ch);
        if (v < 0 || pad) {
            free(buf);
            return -1;
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf[n++] = (uint8_t)(acc >> bits);
        }
    }
    if (bits >= 6 || pad > 2) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outlen = n;
    return 0;
}

void d_random_id(char out[33])
{
    uint8_t r[16];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t k = getrandom(r + got, sizeof r - got, 0);
        if (k > 0)
            got += (size_t)k;
        else if (errno != EINTR) { /* never expected: fall back to time + pid */
            uint64_t t = (uint64_t)(d_now() * 1e9) ^ ((uint64_t)getpid() << 32);
            memcpy(r, &t, sizeof t);
            break;
        }
    }
    for (int i = 0; i < 16; i++) sprintf(out + 2 * i, "%02x", r[i]);
}

int d_mkdirs(const char *path, int mode)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST ? -1 : 0;
}

const char *d_state_name(part_state s)
{
    static const char *const names[] = {"queued", "synthesis",        "waiting-msm",
                                        "msm",    "waiting-finalize", "finalize",
                                        "done",   "failed",           "cancelled"};
    return names[s];
}

/* Whether this process holds CAP_IPC_LOCK (mlock beyond RLIMIT_MEMLOCK),
 * from the effective set in /proc/self/status. */
int d_cap_ipc_lock(void)
{
    unsigned long long eff = 0;
    d_proc_value("/proc/self/status", "CapEff: %llx", &eff);
    return (int)(eff >> CAP_IPC_LOCK & 1);
}

int d_proc_value(const char *path, const char *fmt, unsigned long long *out)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) found = sscanf(line, fmt, out) == 1;
    if (f) fclose(f);
    return found ? 0 : -1;
}

/* Key names end up in URLs, metrics labels and log lines: keep them tame. */
int d_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= D_NAME_MAX) return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '-' || ch == '_' || ch == '.'))
            return 0;
    }
    return 1;
}

/* No default: a kind added to g16_status fails the build here until it
 * is given its daemon kind. */
d_status d_status_of(g16_status s)
{
    switch (s) {
    case G16_OK: return D_OK;
    case G16_ERR_ARG: return D_ERR_ARG;
    case G16_ERR_IO: return D_ERR_IO;
    case G16_ERR_NOT_FOUND: return D_ERR_NOT_FOUND;
    case G16_ERR_FORMAT: return D_ERR_FORMAT;
    case G16_ERR_MISMATCH: return D_ERR_MISMATCH;
    case G16_ERR_UNSUPPORTED: return D_ERR_UNSUPPORTED;
    case G16_ERR_TOO_LARGE: return D_ERR_TOO_LARGE;
    case G16_ERR_NOMEM: return D_ERR_NOMEM;
    case G16_ERR_DEVICE: return D_ERR_DEVICE;
    case G16_ERR_INTERNAL: return D_ERR_INTERNAL;
    case G16_ERR_TIMEOUT: return D_ERR_TIMEOUT;
    }
    return D_ERR_INTERNAL; /* a value outside the enum: a bug */
}
