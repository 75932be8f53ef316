/* Test target for exact peaks.  Usage:
 *   mw_spike [--truth FILE] [--slot MS] [--end MS] STEP...
 * STEP is NAME:MiB:HOLD_MS.  Step k runs in its own time slot, starting at
 * k*SLOT+100 ms after the program started: it marks phase NAME (through
 * $MEMWATCH_MARK_FILE, when set and NAME is not empty), gives memwatch
 * 100 ms to act on it, maps and touches MiB, records its true RSS, holds it
 * HOLD_MS and unmaps it.  With samples every SLOT ms from the start, no
 * sample falls inside a spike unless touching takes most of a slot.  The
 * program exits END ms after its start (default: after the last slot).
 * True peaks go to FILE as "NAME KiB" lines, and "overrun NAME" when a
 * spike did not end 50 ms before its slot did (a busy machine): a sample
 * may have seen that one, so the run proves nothing and is repeated. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double t_start;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_until(double t) {
  double d;
  while ((d = t - now()) > 0) {
    struct timespec ts = {(time_t)d, (long)((d - (time_t)d) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

/* statm, not VmHWM: the truth must not come from the mechanism under test. */
static long rss_kb(void) {
  long size, res;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f || fscanf(f, "%ld %ld", &size, &res) != 2) exit(3);
  fclose(f);
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static void mark(const char *name) {
  const char *path = getenv("MEMWATCH_MARK_FILE");
  if (!path || !*name) return;
  FILE *f = fopen(path, "a");
  if (!f) exit(4);
  fprintf(f, "%s\n", name);
  fclose(f);
  sleep_until(now() + 0.1);
}

/* Huge pages make touching 300 MiB take ~0.1 s instead of ~0.5 s on a busy
 * VM; the mapping is aligned so that they can be used. */
static void spike(long mib, long hold_ms, const char *name, FILE *truth,
                  double slot_end) {
  size_t len = (size_t)mib << 20, align = 2u << 20;
  char *raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) exit(5);
  char *p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
  madvise(p, len, MADV_HUGEPAGE);
  for (size_t i = 0; i < len; i += 4096) p[i] = 1;
  if (truth) fprintf(truth, "%s %ld\n", *name ? name : "-", rss_kb());
  sleep_until(now() + hold_ms / 1e3);
  munmap(raw, len + align);
  if (truth && now() > slot_end - 0.05) fprintf(truth, "overrun %s\n", name);
}

int main(int argc, char **argv) {
  FILE *truth = NULL;
  long slot = 1000, end = -1;
  int i = 1;
  t_start = now();
  for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
    if (strcmp(argv[i], "--truth") == 0 && !(truth = fopen(argv[i + 1], "w"))) return 6;
    if (strcmp(argv[i], "--slot") == 0) slot = atol(argv[i + 1]);
    if (strcmp(argv[i], "--end") == 0) end = atol(argv[i + 1]);
  }
  for (int k = 0; i < argc; i++, k++) {
    char name[64] = "";
    long mib, hold;
    if (sscanf(argv[i], "%63[^:]:%ld:%ld", name, &mib, &hold) != 3 &&
        sscanf(argv[i], ":%ld:%ld", &mib, &hold) != 2) {
      fprintf(stderr, "mw_spike: bad step '%s'\n", argv[i]);
      return 2;
    }
    sleep_until(t_start + (k * slot + 100) / 1e3);
    mark(name);
    if (mib > 0) spike(mib, hold, name, truth, t_start + (k + 1) * slot / 1e3);
    if (truth) fflush(truth);
  }
  if (end >= 0) sleep_until(t_start + end / 1e3);
  if (truth) fclose(truth);
  return 0;
}
