/* memwatch: the memory timeline of a process tree, with peaks sampling
 * cannot miss.
 *
 * Contract of the g16_memwatch library (used by the `memwatch` command and
 * linked by the daemon to report its own memory):
 *
 *  - A target is one or more root PIDs plus all their descendants, found
 *    again at every sample (processes come and go).  mw_open() checks that
 *    every root exists; it never resets peaks by itself.
 *  - mw_take() reads /proc/PID/status of every process in the tree (never
 *    smaps_rollup unless asked: it stalls huge processes), the cgroup of the
 *    first root (v2 memory.current/memory.peak, else v1 usage/max_usage) and,
 *    when libnvidia-ml.so.1 can be dlopen'ed (and MEMWATCH_NO_NVML is not
 *    set), the GPU memory used by the tree.  Values that cannot be read are -1 ("empty"), never an error.
 *    It returns false when no process of the tree is left: the caller then has
 *    nothing to write, so a trace never holds a half-read sample.
 *  - Exact peaks: hwm_kb is the sum of the kernel's VmHWM over the tree.
 *    mw_reset_peaks() writes "5" to /proc/PID/clear_refs of every process so
 *    that hwm_kb afterwards is the peak since the reset.  peak_kind says what
 *    hwm_kb is worth: EXACT (one process, reset worked), SUMMED (several
 *    processes: a sum of exact per-process peaks, an upper bound of the
 *    tree's peak) or SAMPLED (a reset was denied or never done: use the
 *    largest sample instead).
 *  - The CSV writer emits whole rows with one write(2) each, so the file is
 *    valid at every moment.  Callers may append their own integer counters
 *    as extra columns; the reader and the tools ignore columns they do not
 *    know.
 *  - Errors: functions that can fail return a g16_status (g16_status.h;
 *    G16_OK on success) and, where they take (char *err, size_t errlen),
 *    leave one line there naming the file and the problem.
 *  - The library is libg16_memwatch (pkg-config g16_memwatch), apart from
 *    libg16: it needs nothing of the prover, only g16_status.h's codes.
 *  Not thread-safe: one target per thread.
 */
#ifndef G16_MEMWATCH_H
#define G16_MEMWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "g16_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares
 * is its exported interface. */
#pragma GCC visibility push(default)

#define MW_ERRLEN    256
#define MW_PHASE_MAX 64

typedef enum { MW_PEAK_EXACT, MW_PEAK_SUMMED, MW_PEAK_SAMPLED } mw_peak_kind;

/* Fields of /proc/PID/status, KiB (threads: a count). */
typedef struct {
    int64_t rss, anon, file, shmem, hwm, swap, lck, pin, threads;
} mw_mem;

typedef struct {
    pid_t pid;
    char comm[17];
    mw_mem m;
    int64_t gpu_kb; /* -1: unknown */
    int64_t pss_kb; /* -1: not read */
    double pss_ms;
} mw_proc;

typedef struct {
    double unix_s, mono_s;
    pid_t root;
    char root_comm[17];
    int nproc;
    mw_mem total;
    mw_peak_kind peak_kind;
    int64_t cg_current_kb, cg_peak_kb; /* -1: unreadable */
    int64_t gpu_kb, gpu_dev_kb;        /* -1: no NVML */
    int64_t pss_kb;                    /* -1: not read this sample */
    double pss_ms;
    const mw_proc *procs; /* valid until the next mw_take */
} mw_sample;

enum { MW_OPEN_NO_GPU = 1 };

typedef struct mw_target mw_target;

/* *out: the target (mw_close frees it); G16_ERR_NOT_FOUND when a root is
 * no process, G16_ERR_NOMEM. */
g16_status mw_open(const pid_t *roots, int nroots, unsigned flags, mw_target **out, char *err,
                   size_t errlen) G16_MUST_USE G16_NONNULL(4);
/* true: sample taken; false: the whole tree is gone. want_pss: read
 * smaps_rollup. */
bool mw_take(mw_target *t, mw_sample *s, int want_pss) G16_MUST_USE G16_NONNULL(1, 2);
/* G16_OK: every process reset; G16_ERR_IO: some reset was denied (err
 * says which). */
g16_status mw_reset_peaks(mw_target *t, char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1);
/* Peaks from now on are sampled (no reset will be attempted). */
void mw_disable_reset(mw_target *t);
int mw_gpu_available(const mw_target *t);
/* GPU index's free memory in bytes, from NVML now (loaded for the call,
 * as mw_take loads it; MEMWATCH_NO_NVML set in the environment keeps it
 * from loading): G16_OK, or with why in err G16_ERR_UNSUPPORTED (no NVML
 * or no GPU), G16_ERR_ARG (no GPU index) or G16_ERR_DEVICE. */
g16_status mw_gpu_free_memory(unsigned int index, size_t *free_bytes, char *err,
                              size_t errlen) G16_MUST_USE G16_NONNULL(2);
void mw_close(mw_target *t);

/* Reads one /proc/PID/status; G16_ERR_NOT_FOUND if gone or not a
 * process. */
g16_status mw_read_status(pid_t pid, mw_mem *m, char comm[17]) G16_MUST_USE G16_NONNULL(2);
/* Replace characters that would break a CSV field or a terminal line. */
void mw_clean_name(char *dst, size_t dstlen, const char *src, size_t srclen);
double mw_now_mono(void);
double mw_now_unix(void);
const char *mw_peak_kind_name(mw_peak_kind k);

/* ---- CSV writer ---- */
typedef struct mw_writer mw_writer;

/* path "-" is stdout.  extra: names of caller counters appended as
 * columns.  *out: the writer; G16_ERR_IO when path cannot be written. */
g16_status mw_writer_open(const char *path, int per_process, const char *const *extra, int nextra,
                          mw_writer **out, char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1, 5);
/* A "total" row, then one "proc" row per process when per_process.
 * G16_ERR_IO (mw_writer_error says why). */
g16_status mw_writer_sample(mw_writer *w, const mw_sample *s, const char *phase,
                            const int64_t *extra) G16_MUST_USE G16_NONNULL(1, 2, 3);
/* An "exit" row: the peak the kernel reported when the target was reaped. */
g16_status mw_writer_exit(mw_writer *w, double unix_s, double mono_s, pid_t pid, const char *phase,
                          int64_t hwm_kb, mw_peak_kind kind) G16_MUST_USE G16_NONNULL(1, 5);
const char *mw_writer_error(const mw_writer *w);
/* Closes and frees w (NULL: nothing); G16_ERR_IO when the close failed. */
g16_status mw_writer_close(mw_writer *w) G16_MUST_USE;

/* ---- CSV reader ---- */
typedef enum { MW_ROW_TOTAL, MW_ROW_PROC, MW_ROW_EXIT } mw_row_kind;

typedef struct {
    double unix_s, mono_s;
    mw_row_kind kind;
    char phase[MW_PHASE_MAX];
    int pid, nproc;
    /* KiB; -1 where the field is empty */
    int64_t rss, anon, file, shmem, hwm, cg_current, cg_peak, gpu, gpu_dev;
    mw_peak_kind peak_kind;
} mw_row;

typedef struct {
    mw_row *rows;
    size_t n;
} mw_trace;

/* G16_OK, or with "FILE:LINE: problem" in err G16_ERR_FORMAT (not a
 * trace), G16_ERR_NOT_FOUND or G16_ERR_IO. */
g16_status mw_trace_load(const char *path, mw_trace *tr, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 2);
void mw_trace_free(mw_trace *tr);

/* ---- small utilities the memwatch tools share ---- */
void mw_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Grow *buf (an array pointer passed by address) to hold at least want
 * elements of size sz, doubling; G16_OK, or G16_ERR_NOMEM. */
g16_status mw_grow(void *buf, int *cap, int want, size_t sz) G16_MUST_USE G16_NONNULL(1, 2);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
