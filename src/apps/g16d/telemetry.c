/* The daemon's own memory, measured rather than guessed: a memwatch sample
 * of this process every --sample-interval (100 ms, cron.c's "sample")
 * with the pipeline's stage counts attached, appends it to a
 * memwatch-format CSV in the state directory (so `memwatch plot` and
 * `memwatch summarize` read it as is) and keeps the last hour in memory
 * for /v1/memory and /metrics. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "d.h"
#include "g16_memwatch.h"

#define RING_CAP       36000
#define ROTATE_SAMPLES 200000

static const char *const k_extra[] = {"budget_kb", "reserved_kb", "keys_kb", "held_parts",
                                      "q_synth",   "busy_synth",  "q_msm",   "busy_msm",
                                      "q_final",   "busy_final"};
enum { NEXTRA = sizeof k_extra / sizeof k_extra[0] };

static mw_target *g_target;

static const double k_le[12] = {0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300};

void d_histo_init(histo *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->le, k_le, sizeof k_le);
}

void d_histo_add(histo *h, double v)
{
    int i = 0;
    while (i < 12 && v > h->le[i]) i++;
    h->count[i]++;
    h->sum += v;
    h->n++;
}

/* The phase column names what the pipeline is doing, so memwatch's phase
 * bands show waiting and overlap without hand-tuned thresholds. */
static const char *phase_of(const d_sample *s)
{
    static const char *const names[8] = {"idle",  "synth",       "msm",       "synth+msm",
                                         "final", "synth+final", "msm+final", "all"};
    int m = (s->busy[ST_SYNTH] > 0) | (s->busy[ST_MSM] > 0) << 1 | (s->busy[ST_FINAL] > 0) << 2;
    if (!m && s->queued[ST_SYNTH]) return "waiting";
    return names[m];
}

static void snapshot(g16d *d, d_sample *s, int64_t *keys_kb)
{
    pthread_mutex_lock(&d->mu);
    s->queued[ST_SYNTH] = d->nstate[P_QUEUED];
    s->queued[ST_MSM] = d->nstate[P_SYNTHED];
    s->queued[ST_FINAL] = d->nstate[P_MSMED];
    for (int i = 0; i < ST_COUNT; i++) s->busy[i] = d->busy[i];
    s->reserved_kb = (int64_t)(d->reserved >> 10);
    s->held_parts = d->held_parts;
    *keys_kb = (int64_t)(d->key_bytes >> 10);
    pthread_mutex_unlock(&d->mu);
}

static void record(g16d *d, const mw_sample *ms, d_sample *s, int64_t keys_kb)
{
    s->unix_s = ms->unix_s;
    s->rss_kb = ms->total.rss;
    s->anon_kb = ms->total.anon;
    s->file_kb = ms->total.file;
    s->shmem_kb = ms->total.shmem;
    s->hwm_kb = ms->total.hwm;
    s->locked_kb = ms->total.lck;
    s->gpu_kb = ms->gpu_kb;
    int64_t extra[NEXTRA] = {(int64_t)(d->cfg.budget >> 10),
                             s->reserved_kb,
                             keys_kb,
                             s->held_parts,
                             s->queued[0],
                             s->busy[0],
                             s->queued[1],
                             s->busy[1],
                             s->queued[2],
                             s->busy[2]};
    pthread_mutex_lock(&d->tmu);
    if (d->mw && mw_writer_sample(d->mw, ms, phase_of(s), extra)) {
        d_log(D_LOG_ERR, "memory_trace_failed", "file=%s error=%s", d->trace_path,
              mw_writer_error(d->mw));
        if (mw_writer_close(d->mw))
            d_log(D_LOG_ERR, "memory_trace_close_failed", "file=%s", d->trace_path);
        d->mw = NULL; /* the in-memory timeline goes on */
    }
    d->ring[d->ring_pos] = *s;
    d->ring_pos = (d->ring_pos + 1) % d->ring_cap;
    if (d->ring_n < d->ring_cap) d->ring_n++;
    if (s->rss_kb > d->peak_since_scrape_kb) d->peak_since_scrape_kb = s->rss_kb;
    pthread_mutex_unlock(&d->tmu);
}

static void open_trace(g16d *d)
{
    char err[MW_ERRLEN];
    mw_writer *w = NULL;
    if (mw_writer_open(d->trace_path, 0, k_extra, NEXTRA, &w, err, sizeof err))
        d_log(D_LOG_WARNING, "memory_trace_disabled", "why=%s", err);
    d->mw = w;
}

/* One sample, with the pipeline's counts; every ROTATE_SAMPLES the trace
 * starts a fresh file, so it stays bounded.  On cron.c's thread. */
void d_telemetry_sample(g16d *d)
{
    static unsigned long n;
    mw_sample ms;
    d_sample s;
    int64_t keys_kb;
    snapshot(d, &s, &keys_kb);
    if (mw_take(g_target, &ms, 0)) record(d, &ms, &s, keys_kb);
    if (++n % ROTATE_SAMPLES == 0) {
        pthread_mutex_lock(&d->tmu);
        if (mw_writer_close(d->mw))
            d_log(D_LOG_ERR, "memory_trace_close_failed", "file=%s", d->trace_path);
        open_trace(d);
        pthread_mutex_unlock(&d->tmu);
    }
}

int d_telemetry_start(g16d *d, char *err, size_t errlen)
{
    pid_t me = getpid();
    char e2[MW_ERRLEN];
    if (mw_open(&me, 1, 0, &g_target, e2, sizeof e2)) {
        d_errf(err, errlen, "memwatch: %s", e2);
        return -1;
    }
    mw_disable_reset(g_target); /* VmHWM must stay the lifetime peak the budget promises */
    d->ring_cap = RING_CAP;
    d->ring = calloc(d->ring_cap, sizeof *d->ring);
    if (!d->ring) {
        d_errf(err, errlen, "out of memory for the memory timeline");
        return -1;
    }
    snprintf(d->trace_path, sizeof d->trace_path, "%s/memory.csv", d->cfg.state_dir);
    open_trace(d);
    return 0;
}

void d_telemetry_stop(g16d *d)
{
    if (mw_writer_close(d->mw))
        d_log(D_LOG_ERR, "memory_trace_close_failed", "file=%s", d->trace_path);
    d->mw = NULL;
    mw_close(g_target);
    free(d->ring);
    d->ring = NULL;
}

void d_memory_now(g16d *d, d_sample *s)
{
    mw_mem m;
    char comm[17];
    int64_t keys_kb;
    memset(s, 0, sizeof *s);
    snapshot(d, s, &keys_kb);
    s->unix_s = d_now();
    if (mw_read_status(getpid(), &m, comm) == 0) {
        s->rss_kb = m.rss;
        s->anon_kb = m.anon;
        s->file_kb = m.file;
        s->shmem_kb = m.shmem;
        s->hwm_kb = m.hwm;
        s->locked_kb = m.lck;
    }
    /* NVML is too slow to ask per request: the sampler's latest answer */
    pthread_mutex_lock(&d->tmu);
    s->gpu_kb = d->ring_n ? d->ring[(d->ring_pos + d->ring_cap - 1) % d->ring_cap].gpu_kb : -1;
    pthread_mutex_unlock(&d->tmu);
}

/* The CSV file, rows from `since` on (the header always). */
char *d_memory_csv(g16d *d, double since)
{
    char *out = NULL, *line = NULL;
    size_t outlen = 0, cap = 0;
    FILE *mem = open_memstream(&out, &outlen), *f = fopen(d->trace_path, "r");
    if (!mem) {
        if (f) fclose(f);
        return NULL;
    }
    for (int first = 1; f && getline(&line, &cap, f) > 0; first = 0)
        if (first || strtod(line, NULL) >= since) fputs(line, mem);
    free(line);
    if (f) fclose(f);
    fclose(mem);
    return out;
}

static void sample_json(FILE *m, const d_sample *s)
{
    fprintf(m,
            "{\"t\":%.3f,\"rss_kb\":%lld,\"anon_kb\":%lld,\"file_kb\":%lld,\"shmem_kb\":%lld,"
            "\"hwm_kb\":%lld,\"reserved_kb\":%lld,\"held_parts\":%lld,"
            "\"queued\":{\"synthesis\":%d,\"msm\":%d,\"finalize\":%d},"
            "\"busy\":{\"synthesis\":%d,\"msm\":%d,\"finalize\":%d},\"phase\":\"%s\"}",
            s->unix_s, (long long)s->rss_kb, (long long)s->anon_kb, (long long)s->file_kb,
            (long long)s->shmem_kb, (long long)s->hwm_kb, (long long)s->reserved_kb,
            (long long)s->held_parts, s->queued[0], s->queued[1], s->queued[2], s->busy[0],
            s->busy[1], s->busy[2], phase_of(s));
}

char *d_memory_json(g16d *d, double since)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (!m) return NULL;
    fprintf(m, "{\"interval_ms\":%d,\"budget_bytes\":%zu,\"samples\":[", d->cfg.sample_ms,
            d->cfg.budget);
    pthread_mutex_lock(&d->tmu);
    size_t start = (d->ring_pos + d->ring_cap - d->ring_n) % d->ring_cap;
    int first = 1;
    for (size_t i = 0; i < d->ring_n; i++) {
        const d_sample *s = &d->ring[(start + i) % d->ring_cap];
        if (s->unix_s < since) continue;
        if (!first) fputc(',', m);
        sample_json(m, s);
        first = 0;
    }
    pthread_mutex_unlock(&d->tmu);
    fputs("]}\n", m);
    fclose(m);
    return out;
}
