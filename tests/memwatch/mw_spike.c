/* Test target for exact peaks.  Usage:
 *   mw_spike [--truth FILE] [--slot MS] [--warmup MiB] [--tail MS] STEP...
 * STEP is NAME:MiB:HOLD_MS.  Time is cut in slots of SLOT ms from the
 * program's start (memwatch samples at the start of each slot when its
 * interval is SLOT).  Each step takes the next free slot: 100 ms in, it
 * marks phase NAME (through $MEMWATCH_MARK_FILE, when set and NAME is not
 * empty), gives memwatch 100 ms to act on it, maps and populates MiB,
 * records its true RSS, holds it HOLD_MS and unmaps it.  --warmup first
 * maps and frees MiB once in a phase "warmup": the first huge-page
 * allocation of a process can take seconds on a busy VM, later ones
 * ~0.1 s.  After the last step it lives TAIL ms into a new slot.
 * True peaks go to FILE as "NAME KiB" lines, and "overrun NAME" when a
 * spike did not end 100 ms before its slot did (a busy machine): a sample
 * may have seen that one, so the run proves nothing and is repeated. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double t_start;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_until(double t)
{
    double d;
    while ((d = t - now()) > 0) {
        struct timespec ts = {(time_t)d, (long)((d - (time_t)d) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

/* statm, not VmHWM: the truth must not come from the mechanism under test. */
static long rss_kb(void)
{
    long size, res;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &size, &res) != 2) exit(3);
    fclose(f);
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static void mark(const char *name)
{
    const char *path = getenv("MEMWATCH_MARK_FILE");
    if (!path || !*name) return;
    FILE *f = fopen(path, "a");
    if (!f) exit(4);
    fprintf(f, "%s\n", name);
    fclose(f);
    sleep_until(now() + 0.1);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Huge pages and in-kernel population keep a 300 MiB spike short; the
 * mapping is aligned so that huge pages fit. */
static void spike(long mib, long hold_ms, const char *name, FILE *truth, double slot_end)
{
    size_t len = (size_t)mib << 20, align = 2u << 20;
    char *raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) exit(5);
    char *p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    madvise(p, len, MADV_HUGEPAGE);
    if (madvise(p, len, MADV_POPULATE_WRITE) != 0)
        for (size_t i = 0; i < len; i += 4096) p[i] = 1;
    if (truth) fprintf(truth, "%s %ld\n", *name ? name : "-", rss_kb());
    sleep_until(now() + hold_ms / 1e3);
    munmap(raw, len + align);
    if (truth && now() > slot_end - 0.1) fprintf(truth, "overrun %s\n", name);
}

static double next_slot(double slot) { return t_start + ceil((now() - t_start) / slot) * slot; }

int main(int argc, char **argv)
{
    FILE *truth = NULL;
    double slot = 1.0, tail = 0;
    long warm = 0;
    int i = 1;
    t_start = now();
    for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
        if (strcmp(argv[i], "--truth") == 0 && !(truth = fopen(argv[i + 1], "w"))) return 6;
        if (strcmp(argv[i], "--slot") == 0) slot = atol(argv[i + 1]) / 1e3;
        if (strcmp(argv[i], "--tail") == 0) tail = atol(argv[i + 1]) / 1e3;
        if (strcmp(argv[i], "--warmup") == 0) warm = atol(argv[i + 1]);
    }
    if (warm > 0) {
        mark("warmup");
        spike(warm, 0, "warmup", NULL, 0);
    }
    for (; i < argc; i++) {
        char name[64] = "";
        long mib, hold;
        if (sscanf(argv[i], "%63[^:]:%ld:%ld", name, &mib, &hold) != 3 &&
            sscanf(argv[i], ":%ld:%ld", &mib, &hold) != 2) {
            fprintf(stderr, "mw_spike: bad step '%s'\n", argv[i]);
            return 2;
        }
        double start = next_slot(slot);
        sleep_until(start + 0.1);
        mark(name);
        if (mib > 0) spike(mib, hold, name, truth, start + slot);
        if (truth) fflush(truth);
    }
    sleep_until(next_slot(slot) + tail);
    if (truth) fclose(truth);
    return 0;
}
