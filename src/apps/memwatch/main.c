/* memwatch: record, summarize and plot the memory timeline of a process. */
#include "args.h"
#include "cli.h"
#include "g16.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char k_usage[] =
    "usage: memwatch record [options] (--pid N | --pgrep PATTERN | -- COMMAND ARGS...)\n"
    "       memwatch summarize TRACE.csv [--phases markers|auto | --thresholds NAME:GiB,...] "
    "[--json]\n"
    "       memwatch plot TRACE.csv -o TRACE.svg [--phases ... | --thresholds ...]\n"
    "\n"
    "       memwatch --version\n"
    "\n"
    "Run 'memwatch SUBCOMMAND --help' for the options of each.\n";

int mw_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("memwatch: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return MW_EXIT_ERR;
}

int mw_parse_duration(const char *opt, const char *s, double *sec)
{
    const char *end = "";
    double v = 0;
    int number = args_decimal_prefix(s, &v, &end) == 0;
    double scale = strcmp(end, "us") == 0   ? 1e-6
                   : strcmp(end, "ms") == 0 ? 1e-3
                   : strcmp(end, "s") == 0  ? 1
                   : strcmp(end, "m") == 0  ? 60
                                            : -1;
    /* an hour at most: a sample a second of a day-long run is already 86400 rows */
    if (!number || scale < 0 || !(v > 0) || v * scale > 3600) {
        mw_fail("%s '%s': expected a positive duration with a unit (us, ms, s, m), "
                "at most an hour, e.g. 100ms",
                opt, s);
        return -1;
    }
    *sec = v * scale;
    return 0;
}

void mw_fmt_kb(char *buf, size_t n, int64_t kb)
{
    if (kb < 0)
        snprintf(buf, n, "-");
    else if (kb >= 10 * 1024 * 1024)
        snprintf(buf, n, "%.2f GiB", kb / 1048576.0);
    else if (kb >= 10 * 1024)
        snprintf(buf, n, "%.1f MiB", kb / 1024.0);
    else
        snprintf(buf, n, "%lld KiB", (long long)kb);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(k_usage, stderr);
        return MW_EXIT_ERR;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "record") == 0) return mw_cmd_record(argc - 1, argv + 1);
    if (strcmp(sub, "summarize") == 0) return mw_cmd_summarize(argc - 1, argv + 1);
    if (strcmp(sub, "plot") == 0) return mw_cmd_plot(argc - 1, argv + 1);
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        fputs(k_usage, stdout);
        return 0;
    }
    if (strcmp(sub, "--version") == 0) {
        g16_build b;
        g16_build_version(&b);
        printf("%s %s (commit %s; libg16.so.%d; CUDA backend: %s)\n", "memwatch", b.version,
               b.commit, b.soname_version, b.cuda ? "yes" : "no");
        return 0;
    }
    fputs(k_usage, stderr);
    return mw_fail("unknown subcommand '%s'", sub);
}
