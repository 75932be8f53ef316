/* `memwatch record`, split over record_opts.c (options, targets) and
 * record.c (the sampling loop). */
#ifndef G16_MEMWATCH_RECORD_H
#define G16_MEMWATCH_RECORD_H

#include "cli.h"

typedef struct {
    double interval, pss_every;
    const char *out, *mark_file, *mark_regex, *mark_log, *pgrep;
    pid_t pid;
    int per_process, live, no_reset, no_gpu;
    char **cmd;
} rec_opts;

/* 0: ok; -1: --help was printed; else an exit status (message printed). */
int rec_parse(rec_opts *o, int argc, char **argv);
int rec_pgrep(const char *pattern, pid_t **roots, int *nroots);
/* 0 and *child set, or an exit status (127: cannot run). */
int rec_launch(const rec_opts *o, const char *mark_abs, pid_t *child);

#endif
