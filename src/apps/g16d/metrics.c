/* GET /metrics: Prometheus text exposition (version 0.0.4). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "d.h"

static const char *const k_stage[ST_COUNT + 1] = {"synthesis", "msm", "finalize", "budget_wait"};

static void histogram(FILE *m, const histo *h, const char *stage)
{
    uint64_t cum = 0;
    for (int i = 0; i < 12; i++) {
        cum += h->count[i];
        fprintf(m, "g16d_stage_duration_seconds_bucket{stage=\"%s\",le=\"%g\"} %llu\n", stage,
                h->le[i], (unsigned long long)cum);
    }
    fprintf(m, "g16d_stage_duration_seconds_bucket{stage=\"%s\",le=\"+Inf\"} %llu\n", stage,
            (unsigned long long)h->n);
    fprintf(m, "g16d_stage_duration_seconds_sum{stage=\"%s\"} %.6f\n", stage, h->sum);
    fprintf(m, "g16d_stage_duration_seconds_count{stage=\"%s\"} %llu\n", stage,
            (unsigned long long)h->n);
}

static void head(FILE *m, const char *name, const char *type, const char *help)
{
    fprintf(m, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void pipeline(FILE *m, g16d *d)
{
    int nkeys = 0;
    for (dkey *k = d->keys; k; k = k->next) nkeys++;
    head(m, "g16d_proofs_total", "counter", "Partitions finished, by outcome.");
    fprintf(m, "g16d_proofs_total{outcome=\"done\"} %llu\n", (unsigned long long)d->proofs_done);
    fprintf(m, "g16d_proofs_total{outcome=\"failed\"} %llu\n",
            (unsigned long long)d->proofs_failed);
    head(m, "g16d_jobs_submitted_total", "counter", "Jobs accepted since start.");
    fprintf(m, "g16d_jobs_submitted_total %llu\n", (unsigned long long)d->jobs_submitted);
    head(m, "g16d_stage_duration_seconds", "histogram",
         "Time partitions spent in each stage (and waiting for budget).");
    for (int s = 0; s <= ST_COUNT; s++) histogram(m, &d->hist[s], k_stage[s]);
    const int queued[ST_COUNT] = {d->nstate[P_QUEUED], d->nstate[P_SYNTHED], d->nstate[P_MSMED]};
    head(m, "g16d_queue_depth", "gauge", "Partitions waiting for each stage.");
    for (int s = 0; s < ST_COUNT; s++)
        fprintf(m, "g16d_queue_depth{stage=\"%s\"} %d\n", k_stage[s], queued[s]);
    head(m, "g16d_busy_workers", "gauge", "Workers running a partition, by stage.");
    for (int s = 0; s < ST_COUNT; s++)
        fprintf(m, "g16d_busy_workers{stage=\"%s\"} %d\n", k_stage[s], d->busy[s]);
    head(m, "g16d_workers", "gauge", "Configured workers, by stage.");
    for (int s = 0; s < ST_COUNT; s++)
        fprintf(m, "g16d_workers{stage=\"%s\"} %d\n", k_stage[s], d->cfg.workers[s]);
    head(m, "g16d_cpu_threads", "gauge",
         "CPU threads the stage calls share (--threads), and those held by running calls.");
    fprintf(m, "g16d_cpu_threads{kind=\"total\"} %d\ng16d_cpu_threads{kind=\"busy\"} %d\n",
            d->cfg.threads, d->cpu_busy);
    head(m, "g16d_budget_bytes", "gauge",
         "Memory budget: total, reserved by partitions, held by keys, available.");
    fprintf(m,
            "g16d_budget_bytes{kind=\"total\"} %zu\ng16d_budget_bytes{kind=\"reserved\"} %zu\n"
            "g16d_budget_bytes{kind=\"keys\"} %zu\ng16d_budget_bytes{kind=\"available\"} %zu\n",
            d->cfg.budget, d->reserved, d->key_bytes, d_budget_free(d));
    head(m, "g16d_partitions_holding_budget", "gauge", "Partitions holding a budget reservation.");
    fprintf(m, "g16d_partitions_holding_budget %d\n", d->held_parts);
    head(m, "g16d_long_polls_waiting", "gauge",
         "Long-polls (GET /v1/proofs/ID?wait=S) waiting for their job.");
    fprintf(m, "g16d_long_polls_waiting %d\n", d->long_polls);
    head(m, "g16d_keys_resident", "gauge", "Proving keys loaded.");
    fprintf(m, "g16d_keys_resident %d\n", nkeys);
    head(m, "g16d_proving_device", "gauge", "1 for the device proofs run on (gpu or cpu).");
    fprintf(m, "g16d_proving_device{device=\"gpu\"} %d\ng16d_proving_device{device=\"cpu\"} %d\n",
            d->use_gpu, !d->use_gpu);
    head(m, "g16d_device_budget_bytes", "gauge",
         "Device memory budget: total (0: none) and used by the GPU keys' copies and workspaces.");
    fprintf(m,
            "g16d_device_budget_bytes{kind=\"total\"} %zu\ng16d_device_budget_bytes{kind=\"used\"} "
            "%zu\n",
            d->dev_budget, d->dev_used);
    head(m, "g16d_key_device_bytes", "gauge",
         "GPU memory held by each resident key (0: on the CPU).");
    for (dkey *k = d->keys; k; k = k->next) /* names are [A-Za-z0-9._-]: safe as label values */
        fprintf(m, "g16d_key_device_bytes{key=\"%s\"} %zu\n", k->name, k->device_bytes);
    head(m, "g16d_key_pinned", "gauge", "1 when the key's bytes are locked in RAM (--pin-keys).");
    for (dkey *k = d->keys; k; k = k->next)
        fprintf(m, "g16d_key_pinned{key=\"%s\"} %d\n", k->name, k->pinned);
}

static void memory(FILE *m, g16d *d)
{
    d_sample s;
    d_memory_now(d, &s);
    pthread_mutex_lock(&d->tmu);
    int64_t peak = d->peak_since_scrape_kb > s.rss_kb ? d->peak_since_scrape_kb : s.rss_kb;
    d->peak_since_scrape_kb = 0;
    pthread_mutex_unlock(&d->tmu);
    head(m, "g16d_memory_bytes", "gauge",
         "Memory of g16d by kind: resident and locked (/proc/self/status) and, with NVML, on the "
         "GPU.");
    fprintf(m,
            "g16d_memory_bytes{kind=\"rss\"} %lld\ng16d_memory_bytes{kind=\"anon\"} %lld\n"
            "g16d_memory_bytes{kind=\"file\"} %lld\ng16d_memory_bytes{kind=\"shmem\"} %lld\n"
            "g16d_memory_bytes{kind=\"locked\"} %lld\n",
            (long long)s.rss_kb << 10, (long long)s.anon_kb << 10, (long long)s.file_kb << 10,
            (long long)s.shmem_kb << 10, (long long)s.locked_kb << 10);
    if (s.gpu_kb >= 0)
        fprintf(m, "g16d_memory_bytes{kind=\"gpu\"} %lld\n", (long long)s.gpu_kb << 10);
    head(m, "g16d_memory_peak_bytes", "gauge", "Peak resident memory since start (VmHWM).");
    fprintf(m, "g16d_memory_peak_bytes %lld\n", (long long)s.hwm_kb << 10);
    head(m, "g16d_memory_peak_since_scrape_bytes", "gauge",
         "Largest sampled RSS since the previous scrape.");
    fprintf(m, "g16d_memory_peak_since_scrape_bytes %lld\n", (long long)peak << 10);
}

char *d_metrics_text(g16d *d)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (!m) return NULL;
    pthread_mutex_lock(&d->mu);
    pipeline(m, d);
    pthread_mutex_unlock(&d->mu);
    memory(m, d);
    fclose(m);
    return out;
}
