/* `memwatch summarize`: the phase table of a trace, for people or (--json)
 * for machines. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char k_help[] =
    "usage: memwatch summarize TRACE.csv [--phases markers|auto | --thresholds NAME:GiB,...] "
    "[--json]\n"
    "\n"
    "Prints one line per run of consecutive samples in the same phase, in\n"
    "order, then totals per phase: samples, seconds, min/mean/max of the\n"
    "sampled RSS and the peak, with its kind:\n"
    "  exact    the kernel's high-water mark (VmHWM), reset at each marker:\n"
    "           spikes between samples are included\n"
    "  summed   several processes: the sum of their exact peaks, an upper\n"
    "           bound of the tree's peak\n"
    "  sampled  the largest sample (clear_refs denied, or the high-water mark\n"
    "           cannot be pinned to this run): a lower bound\n"
    "\n"
    "Phases:\n"
    "  --phases markers   from the markers recorded (default when the trace has\n"
    "                     any)\n"
    "  --phases auto      plateaus (RSS within 5% of the trace's range, at least\n"
    "                     3 samples or 1% of them) and the ramps between them\n"
    "                     (default when the trace has no markers)\n"
    "  --thresholds idle:10,synthesis:180,peak\n"
    "                     by sampled RSS: below 10 GiB 'idle', below 180 GiB\n"
    "                     'synthesis', above 'peak' (a last NAME without a bound\n"
    "                     takes the rest; else they are 'above-NAME')\n"
    "  --json             the same as one JSON object (sizes in KiB)\n"
    "Exit status 2 with a one-line error (naming the line) for a bad trace.\n";

typedef struct {
    double div;
    const char *unit, *fmt;
} units;

static units pick_units(const ph_result *r)
{
    int64_t big = r->peak > r->max_sample ? r->peak : r->max_sample;
    if (big >= 10LL * 1048576) return (units){1048576.0, "GiB", "%10.2f"};
    return (units){1024.0, "MiB", "%10.1f"};
}

static void size_cell(const units *u, int64_t kb)
{
    if (kb < 0)
        printf("%10s", "-");
    else
        printf(u->fmt, (double)kb / u->div);
}

static void row_out(const units *u, const char *lead, const ph_run *r)
{
    printf("%s%-20s %7d %9.2f", lead, r->name, r->samples, r->seconds);
    size_cell(u, r->min), size_cell(u, (int64_t)r->mean), size_cell(u, r->max);
    size_cell(u, r->peak);
    printf("  %s\n", mw_peak_kind_name(r->peak_kind));
}

/* Totals: one entry per phase name, in order of first appearance. */
static int totals(const ph_result *res, ph_run **out, int **nruns)
{
    *out = calloc((size_t)res->nruns, sizeof **out);
    *nruns = calloc((size_t)res->nruns, sizeof **nruns);
    if (!*out || !*nruns) return -1;
    int n = 0;
    for (int i = 0; i < res->nruns; i++) {
        const ph_run *r = &res->runs[i];
        int k = 0;
        while (k < n && strcmp((*out)[k].name, r->name) != 0) k++;
        ph_run *t = &(*out)[k];
        if (k == n++)
            *t = *r, t->mean *= r->samples;
        else {
            n--;
            t->samples += r->samples, t->seconds += r->seconds;
            t->mean += r->mean * r->samples;
            if (r->min >= 0 && (t->min < 0 || r->min < t->min)) t->min = r->min;
            if (r->max > t->max) t->max = r->max;
            if (r->peak > t->peak || (r->peak == t->peak && r->peak_kind > t->peak_kind))
                t->peak = r->peak, t->peak_kind = r->peak_kind, t->peak_t = r->peak_t;
        }
        (*nruns)[k]++;
    }
    for (int k = 0; k < n; k++)
        (*out)[k].mean = (*out)[k].samples ? (*out)[k].mean / (*out)[k].samples : 0;
    return n;
}

static const char *source_name(ph_source s)
{
    return s == PH_MARKERS ? "markers" : s == PH_AUTO ? "auto" : "thresholds";
}

static void header(const units *u, const char *lead)
{
    printf("%s%-20s %7s %9s %10s %10s %10s %10s  %s\n", lead, "phase", "samples", "seconds", "min",
           "mean", "max", "peak", "kind");
    (void)u;
}

static void footer(const units *u, const ph_result *r)
{
    char a[32], b[32];
    mw_fmt_kb(a, sizeof a, r->peak);
    mw_fmt_kb(b, sizeof b, r->max_sample);
    printf("\npeak: %s (%s); largest sample: %s\n", a, mw_peak_kind_name(r->peak_kind), b);
    if (r->cg_peak >= 0)
        mw_fmt_kb(a, sizeof a, r->cg_peak), printf("cgroup peak (whole cgroup): %s\n", a);
    if (r->gpu_peak >= 0) {
        mw_fmt_kb(a, sizeof a, r->gpu_peak);
        mw_fmt_kb(b, sizeof b, r->gpu_dev_peak);
        printf("GPU memory, sampled: target %s, all devices %s\n", a, b);
    }
    printf("sizes in %s. exact: kernel high-water mark since the phase began, "
           "spikes between samples included; summed: sum of per-process exact "
           "peaks (upper bound); sampled: largest sample (lower bound).\n",
           u->unit);
}

static int print_table(const char *path, const ph_result *r)
{
    units u = pick_units(r);
    printf("%s: %d samples over %.2f s, up to %d process%s, phases from %s\n\n", path, r->samples,
           r->t_end - r->t_start, r->max_nproc, r->max_nproc == 1 ? "" : "es",
           source_name(r->source));
    header(&u, "run  ");
    for (int i = 0; i < r->nruns; i++) {
        char lead[16];
        snprintf(lead, sizeof lead, "%-4d ", i + 1);
        row_out(&u, lead, &r->runs[i]);
    }
    ph_run *t;
    int *nr;
    int n = totals(r, &t, &nr);
    if (n < 0) return free(t), free(nr), mw_fail("out of memory");
    printf("\ntotals per phase\n");
    header(&u, "runs ");
    for (int k = 0; k < n; k++) {
        char lead[16];
        snprintf(lead, sizeof lead, "%-4d ", nr[k]);
        row_out(&u, lead, &t[k]);
    }
    footer(&u, r);
    free(t), free(nr);
    return 0;
}

/* Phase names are cleaned of quotes and control characters already. */
static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '\\') putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

static void json_kb(const char *key, int64_t kb)
{
    if (kb < 0)
        printf(", \"%s\": null", key);
    else
        printf(", \"%s\": %lld", key, (long long)kb);
}

static void json_run(const ph_run *r, int nruns)
{
    printf("{\"phase\": ");
    json_str(r->name);
    if (nruns > 0) printf(", \"runs\": %d", nruns);
    printf(", \"samples\": %d, \"seconds\": %.3f", r->samples, r->seconds);
    json_kb("min_kib", r->min), json_kb("mean_kib", (int64_t)r->mean);
    json_kb("max_kib", r->max), json_kb("peak_kib", r->peak);
    printf(", \"peak_kind\": \"%s\"}", mw_peak_kind_name(r->peak_kind));
}

static int print_json(const char *path, const ph_result *r)
{
    ph_run *t;
    int *nr;
    int n = totals(r, &t, &nr);
    if (n < 0) return free(t), free(nr), mw_fail("out of memory");
    printf("{\"trace\": ");
    json_str(path);
    printf(", \"phase_source\": \"%s\", \"samples\": %d, \"seconds\": %.3f, "
           "\"max_processes\": %d",
           source_name(r->source), r->samples, r->t_end - r->t_start, r->max_nproc);
    json_kb("peak_kib", r->peak);
    printf(", \"peak_kind\": \"%s\"", mw_peak_kind_name(r->peak_kind));
    json_kb("max_sample_kib", r->max_sample), json_kb("cgroup_peak_kib", r->cg_peak);
    json_kb("gpu_peak_kib", r->gpu_peak), json_kb("gpu_dev_peak_kib", r->gpu_dev_peak);
    printf(",\n \"runs\": [");
    for (int i = 0; i < r->nruns; i++) printf("%s\n  ", i ? "," : ""), json_run(&r->runs[i], 0);
    printf("],\n \"phases\": [");
    for (int k = 0; k < n; k++) printf("%s\n  ", k ? "," : ""), json_run(&t[k], nr[k]);
    printf("]}\n");
    free(t), free(nr);
    return 0;
}

int mw_cmd_summarize(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    ph_opts po = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return fputs(k_help, stdout), 0;
        int rc = ph_option(&po, a, v);
        if (rc < 0) return free(po.th), MW_EXIT_ERR;
        if (rc > 0)
            i++;
        else if (strcmp(a, "--json") == 0)
            json = 1;
        else if (a[0] == '-' && a[1])
            return free(po.th),
                   mw_fail("summarize: unknown option '%s' (see memwatch summarize --help)", a);
        else if (path)
            return free(po.th), mw_fail("summarize: one trace at a time ('%s' and '%s')", path, a);
        else
            path = a;
    }
    if (!path)
        return free(po.th), mw_fail("summarize: which trace? (see memwatch summarize --help)");
    mw_trace tr;
    ph_result res;
    int rc = ph_load(path, &po, &tr, &res);
    if (rc == 0) {
        rc = json ? print_json(path, &res) : print_table(path, &res);
        ph_free(&res);
        mw_trace_free(&tr);
    }
    free(po.th);
    return rc;
}
