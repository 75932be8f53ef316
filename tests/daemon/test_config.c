/* g16d's configuration (config.c), without a daemon: the sizes and times
 * its options take (args.h: plain decimals with a unit; never NaN,
 * infinity, a sign, an exponent or hexadecimal, which would slip past the
 * range checks), and the --config file's refusals, each naming the file, the
 * line and the problem: an unknown option, a bad value, a line without
 * "=", one longer than the reader's bound, one holding a NUL byte. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "d.h"
#include "../common/test.h"

static void size_ok(const char *s, size_t want)
{
    size_t got = 0;
    CHECKF(args_size(s, &got) == 0 && got == want, "'%s': %zu, want %zu", s, got, want);
}

static void size_bad(const char *s)
{
    size_t got = 12345;
    CHECKF(args_size(s, &got) != 0 && got == 12345, "'%s' accepted as %zu", s, got);
}

/* d_config_load on a file of len bytes of text: its return, and what it
 * wrote on stderr (into msg). */
static int load(const char *text, size_t len, char *msg, size_t msglen)
{
    char path[] = "/tmp/g16d-conf-XXXXXX";
    int fd = mkstemp(path), saved = dup(2), exit_code = 0;
    FILE *err = tmpfile();
    if (fd < 0 || saved < 0 || !err || write(fd, text, len) != (ssize_t)len) {
        fprintf(stderr, "test_config: cannot set up a file\n");
        exit(1);
    }
    close(fd);
    fflush(stderr);
    dup2(fileno(err), 2);
    char *argv[] = {"g16d", "--config", path, NULL};
    d_config cfg;
    int rc = d_config_load(&cfg, 3, argv, &exit_code);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(err);
    size_t n = fread(msg, 1, msglen - 1, err);
    msg[n] = 0;
    fclose(err);
    unlink(path);
    CHECK(rc == 0 || exit_code == 2);
    return rc;
}

/* The file is refused with a message holding want (and the path's line). */
static void refused(const char *text, size_t len, const char *want)
{
    char msg[512];
    int rc = load(text, len, msg, sizeof msg);
    int one_line = msg[0] && strchr(msg, '\n') == msg + strlen(msg) - 1;
    CHECKF(rc != 0 && one_line && strstr(msg, want) && strstr(msg, "/tmp/g16d-conf-"),
           "'%.40s': rc %d, message '%s', want '%s'", text, rc, msg, want);
}

int main(void)
{
    size_ok("8G", (size_t)8 << 30);
    size_ok("1.5GiB", (size_t)3 << 29);
    size_ok("512m", (size_t)512 << 20);
    size_ok("1000000", 1000000);
    size_ok("64KB", 64 << 10);
    size_ok(".5K", 512);
    size_ok("2T", (size_t)2 << 40);
    const char *bad[] = {"nan", "nanKi", "NaN", "inf",   "infinity", "-1",
                         "-0",  "+8G",   "1e3", "0x10",  "0x1p4G",   "",
                         ".",   "1.2.3", "8Q",  "8GiBx", " 8G",      "2000000T"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) size_bad(bad[i]);

    char msg[512];
    const char good[] = "# a comment\n[daemon]\nmemory-budget = \"8G\"\nresult-ttl = 3600.5\n"
                        "synth-workers = 3 # trailing comment\nself-verify = true\n";
    CHECKF(load(good, sizeof good - 1, msg, sizeof msg) == 0, "good file refused: %s", msg);

    refused("memory-budget = nanKi\n", 22, ":1: bad value for 'memory-budget'");
    refused("\nresult-ttl = nan\n", 17, ":2: bad value for 'result-ttl'");
    refused("witness-timeout = inf\n", 22, ":1: bad value for 'witness-timeout'");
    refused("lease = 1e1\n", 12, ":1: bad value for 'lease'");
    refused("memory-budget 8G\n", 17, ":1: expected name = value");
    refused("no-such-option = 1\n", 19, ":1: unknown option 'no-such-option'");
    refused("threads = 2\0threads = x\n", 24, ":1: NUL byte in a line");
    static char longline[5000];
    memset(longline, ' ', sizeof longline);
    memcpy(longline, "socket = ", 9);
    longline[sizeof longline - 1] = '\n';
    refused(longline, sizeof longline, ":1: line longer than 4096 bytes");
    return test_finish("test_config");
}
