/* The memwatch command: subcommands and what they share. */
#ifndef G16_MEMWATCH_CLI_H
#define G16_MEMWATCH_CLI_H

#include "g16_memwatch.h"

#include <stdio.h>

/* Exit status for usage and runtime errors (the command's own status is
 * passed through unchanged, so keep this distinct from 0/1). */
#define MW_EXIT_ERR 2

int mw_cmd_record(int argc, char **argv);
int mw_cmd_summarize(int argc, char **argv);
int mw_cmd_plot(int argc, char **argv);

/* "100ms", "1s", "1.5s", "250us", "2m"; -1 with a message if malformed. */
int mw_parse_duration(const char *opt, const char *s, double *sec);
/* Prints "memwatch: MSG" on stderr; returns MW_EXIT_ERR. */
int mw_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "1.23 GiB", "456.7 MiB", "12 KiB". */
void mw_fmt_kb(char *buf, size_t n, int64_t kb);

/* ---- markers ---- */
typedef struct mark_src mark_src;
/* regex NULL: each line is a phase name (file created if absent).
 * regex set: lines matching it are markers (group 1 or the whole match). */
mark_src *mark_open(const char *path, const char *regex, char *err, size_t errlen);
int mark_poll_fd(const mark_src *m); /* -1: nothing to poll, call read */
int mark_read(mark_src *m, char (*names)[MW_PHASE_MAX], int max);
const char *mark_path(const mark_src *m);
void mark_close(mark_src *m);

/* ---- phases of a trace ---- */
typedef enum { PH_MARKERS, PH_THRESHOLDS, PH_AUTO } ph_source;

typedef struct {
    char name[MW_PHASE_MAX];
    double bound_kb; /* upper bound; <0: none (the last class) */
} ph_threshold;

typedef struct {
    char name[MW_PHASE_MAX];
    size_t first, last; /* indexes of total rows in the trace */
    int samples;
    double t0, seconds;
    int64_t min, max, peak;
    double mean;
    mw_peak_kind peak_kind;
    double peak_t; /* when the peak was seen (end of its interval) */
} ph_run;

typedef struct {
    ph_source source;
    ph_run *runs;
    int nruns;
    int64_t peak, max_sample, cg_peak, gpu_peak, gpu_dev_peak;
    mw_peak_kind peak_kind;
    double peak_t, t_start, t_end;
    int samples, max_nproc;
} ph_result;

/* "auto", "markers" or a threshold list; -1 with a message if malformed. */
int ph_parse_thresholds(const char *s, ph_threshold **out, int *n);
int ph_analyze(const mw_trace *tr, ph_source src, const ph_threshold *th, int nth, ph_result *res);
void ph_free(ph_result *res);

/* Options shared by summarize and plot. */
typedef struct {
    ph_source source;
    int chosen; /* 0: markers if the trace has any, else auto */
    ph_threshold *th;
    int nth;
} ph_opts;
/* 1: consumed a and v; 0: not a phase option; -1: bad value (printed). */
int ph_option(ph_opts *o, const char *a, const char *v);
/* Loads the trace and finds its phases; exit status on failure. */
int ph_load(const char *path, ph_opts *o, mw_trace *tr, ph_result *res);

#endif
