/* Phases of a trace (from markers, thresholds or plateau/ramp detection)
 * and their peaks.
 *
 * Peak of a run of samples: VmHWM only ever rises between two resets, so
 * when hwm_kb at sample i is above hwm_kb at sample i-1 (or a reset lies
 * between them) the peak of the interval (t[i-1], t[i]] is exactly hwm[i].
 * Where it did not rise, the interval's peak is only bounded by hwm[i-1].
 * A run's peak is exact when every such bound is below the exact peaks and
 * samples it holds; otherwise it is "sampled" (a lower bound). */
#include "args.h"
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef char label_t[MW_PHASE_MAX];

int ph_parse_thresholds(const char *s, ph_threshold **out, int *n)
{
    int cap = 0;
    *out = NULL;
    *n = 0;
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, ",");
        const char *colon = memchr(p, ':', len);
        if (mw_grow(out, &cap, *n + 1, sizeof **out) != 0) return -1;
        ph_threshold *t = &(*out)[*n];
        size_t nlen = colon ? (size_t)(colon - p) : len;
        mw_clean_name(t->name, sizeof t->name, p, nlen);
        t->bound_kb = -1;
        if (colon) {
            const char *end = "";
            double g = 0;
            if (args_decimal_prefix(colon + 1, &g, &end) || end != p + len || !(g > 0))
                return mw_fail("--thresholds: '%.*s': expected NAME:GiB", (int)len, p);
            t->bound_kb = g * 1048576.0;
        }
        if (!t->name[0]) return mw_fail("--thresholds: empty phase name");
        if (*n > 0 && ((*out)[*n - 1].bound_kb < 0 || t->bound_kb >= 0) &&
            ((*out)[*n - 1].bound_kb < 0 || t->bound_kb <= (*out)[*n - 1].bound_kb))
            return mw_fail("--thresholds: bounds must rise, and only the last "
                           "NAME may go without one");
        (*n)++;
        p += len + (p[len] == ',');
    }
    return *n ? 0 : mw_fail("--thresholds: empty list");
}

static void label_thresholds(const int64_t *x, size_t n, label_t *lab, const ph_threshold *th,
                             int nth)
{
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        while (k < nth && th[k].bound_kb >= 0 && (double)x[i] >= th[k].bound_kb) k++;
        if (k < nth)
            snprintf(lab[i], MW_PHASE_MAX, "%s", th[k].name);
        else
            snprintf(lab[i], MW_PHASE_MAX, "above-%.40s", th[nth - 1].name);
    }
}

/* ---- auto: plateaus and ramps ---- */

typedef struct {
    const int64_t *x;
    size_t n;
    double tol;
    int *plateau; /* plateau id (>= 1) or 0 for ramp samples */
    label_t *lab;
} autoseg;

static size_t plateau_end(const autoseg *a, size_t i)
{
    int64_t lo = a->x[i], hi = a->x[i];
    size_t j = i;
    while (j + 1 < a->n) {
        int64_t v = a->x[j + 1];
        int64_t nlo = v < lo ? v : lo, nhi = v > hi ? v : hi;
        if ((double)(nhi - nlo) > a->tol) break;
        lo = nlo, hi = nhi, j++;
    }
    return j;
}

static void find_plateaus(autoseg *a, int *nplat)
{
    size_t minlen = a->n / 100 > 3 ? a->n / 100 : 3;
    *nplat = 0;
    for (size_t i = 0; i < a->n;) {
        size_t j = plateau_end(a, i);
        if (j - i + 1 < minlen) {
            a->plateau[i++] = 0;
            continue;
        }
        ++*nplat;
        for (size_t k = i; k <= j; k++) a->plateau[k] = *nplat;
        i = j + 1;
    }
}

static void name_range(autoseg *a, size_t from, size_t to, const char *nm)
{
    for (size_t k = from; k <= to; k++) snprintf(a->lab[k], MW_PHASE_MAX, "%s", nm);
}

/* A ramp stretch that goes up and comes back (a wave between two plateaus)
 * is split at its extreme into a ramp-up and a ramp-down. */
static void label_ramp(autoseg *a, size_t s, size_t e)
{
    int64_t before = s > 0 ? a->x[s - 1] : a->x[s];
    int64_t after = e + 1 < a->n ? a->x[e + 1] : a->x[e];
    size_t imax = s, imin = s;
    for (size_t k = s; k <= e; k++) {
        if (a->x[k] > a->x[imax]) imax = k;
        if (a->x[k] < a->x[imin]) imin = k;
    }
    int64_t hi = before > after ? before : after, lo = before < after ? before : after;
    if ((double)(a->x[imax] - hi) > a->tol && imax < e) {
        name_range(a, s, imax, "ramp-up");
        name_range(a, imax + 1, e, "ramp-down");
    } else if ((double)(lo - a->x[imin]) > a->tol && imin < e) {
        name_range(a, s, imin, "ramp-down");
        name_range(a, imin + 1, e, "ramp-up");
    } else {
        name_range(a, s, e, after >= before ? "ramp-up" : "ramp-down");
    }
}

static int cmp_double(const void *p, const void *q)
{
    double a = *(const double *)p, b = *(const double *)q;
    return (a > b) - (a < b);
}

/* Plateaus at about the same level share a name, so that a recurring floor
 * adds up in the totals: plateau-1 is the lowest level. */
static void name_plateaus(autoseg *a, int nplat)
{
    double *mean = calloc((size_t)nplat + 1, sizeof *mean);
    double *sorted = calloc((size_t)nplat + 1, sizeof *sorted);
    size_t *cnt = calloc((size_t)nplat + 1, sizeof *cnt);
    if (!mean || !sorted || !cnt) goto out;
    for (size_t i = 0; i < a->n; i++)
        if (a->plateau[i]) mean[a->plateau[i]] += (double)a->x[i], cnt[a->plateau[i]]++;
    for (int p = 1; p <= nplat; p++) sorted[p - 1] = mean[p] /= (double)cnt[p];
    qsort(sorted, (size_t)nplat, sizeof *sorted, cmp_double);
    for (size_t i = 0; i < a->n; i++) {
        if (!a->plateau[i]) continue;
        int level = 1;
        for (int k = 1; k < nplat; k++)
            if (sorted[k] - sorted[k - 1] > a->tol && sorted[k] <= mean[a->plateau[i]]) level++;
        snprintf(a->lab[i], MW_PHASE_MAX, "plateau-%d", level);
    }
out:
    free(mean), free(sorted), free(cnt);
}

static int label_auto(const int64_t *x, size_t n, label_t *lab)
{
    int64_t lo = x[0], hi = x[0];
    for (size_t i = 1; i < n; i++) lo = x[i] < lo ? x[i] : lo, hi = x[i] > hi ? x[i] : hi;
    /* 5% of the range, but never below 1 MiB: allocator noise is no phase. */
    autoseg a = {x, n, fmax(0.05 * (double)(hi - lo), 1024.0), calloc(n, sizeof(int)), lab};
    if (!a.plateau) return -1;
    int nplat;
    find_plateaus(&a, &nplat);
    for (size_t i = 0; i < n;) {
        if (a.plateau[i]) {
            i++;
            continue;
        }
        size_t e = i;
        while (e + 1 < n && !a.plateau[e + 1]) e++;
        label_ramp(&a, i, e);
        i = e + 1;
    }
    name_plateaus(&a, nplat);
    free(a.plateau);
    return 0;
}

/* ---- runs ---- */

typedef struct {
    const mw_row **r; /* total and exit rows, in order */
    size_t n;
    label_t *lab;
} series;

static int build_series(const mw_trace *tr, series *s)
{
    s->r = malloc((tr->n + 1) * sizeof *s->r);
    s->lab = malloc((tr->n + 1) * sizeof *s->lab);
    if (!s->r || !s->lab) return -1;
    s->n = 0;
    for (size_t i = 0; i < tr->n; i++)
        if (tr->rows[i].kind != MW_ROW_PROC) s->r[s->n++] = &tr->rows[i];
    return 0;
}

static int label_series(series *s, ph_source src, const ph_threshold *th, int nth)
{
    int64_t *x = malloc((s->n + 1) * sizeof *x);
    size_t *at = malloc((s->n + 1) * sizeof *at);
    if (!x || !at) return free(x), free(at), -1;
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->r[i]->kind == MW_ROW_TOTAL) at[m] = i, x[m++] = s->r[i]->rss;
    label_t *lab = malloc((m + 1) * sizeof *lab);
    int rc = lab ? 0 : -1;
    if (rc == 0 && m > 0 && src == PH_AUTO) rc = label_auto(x, m, lab);
    if (rc == 0 && src == PH_THRESHOLDS) label_thresholds(x, m, lab, th, nth);
    for (size_t i = 0, k = 0; rc == 0 && i < s->n; i++) {
        const char *nm = src == PH_MARKERS     ? s->r[i]->phase
                         : k < m && at[k] == i ? lab[k]
                         : i > 0               ? s->lab[i - 1]
                                               : s->r[i]->phase;
        if (k < m && at[k] == i) k++;
        /* an exit row belongs to the run of the sample before it */
        if (s->r[i]->kind == MW_ROW_EXIT && i > 0) nm = s->lab[i - 1];
        snprintf(s->lab[i], MW_PHASE_MAX, "%s", nm);
    }
    free(x), free(at), free(lab);
    return rc;
}

typedef struct {
    int64_t exact_max, bound_max, sample_max;
    double exact_t, sample_t;
    int sampled, summed;
} peak_acc;

static void interval_peak(const series *s, size_t i, peak_acc *p)
{
    const mw_row *r = s->r[i], *q = i > 0 ? s->r[i - 1] : NULL;
    if (r->kind == MW_ROW_TOTAL && r->rss > p->sample_max)
        p->sample_max = r->rss, p->sample_t = r->mono_s;
    if (r->peak_kind == MW_PEAK_SAMPLED || r->hwm < 0) {
        p->sampled = 1;
        return;
    }
    p->summed |= r->peak_kind == MW_PEAK_SUMMED;
    int reset = !q || strcmp(q->phase, r->phase) != 0 || q->hwm < 0;
    if (reset || r->hwm > q->hwm) {
        if (r->hwm > p->exact_max) p->exact_max = r->hwm, p->exact_t = r->mono_s;
    } else if (q->hwm > p->bound_max) {
        p->bound_max = q->hwm;
    }
}

static void close_run(ph_run *run, const peak_acc *p, double sum)
{
    run->mean = run->samples ? sum / run->samples : 0;
    int exact = !p->sampled && p->exact_max >= p->bound_max && p->exact_max >= p->sample_max;
    run->peak = exact ? p->exact_max : p->sample_max;
    run->peak_t = exact ? p->exact_t : p->sample_t;
    run->peak_kind = !exact ? MW_PEAK_SAMPLED : p->summed ? MW_PEAK_SUMMED : MW_PEAK_EXACT;
}

static void run_stats(const series *s, size_t a, size_t b, ph_run *run)
{
    peak_acc p = {.exact_max = -1, .bound_max = -1, .sample_max = -1};
    double sum = 0;
    snprintf(run->name, sizeof run->name, "%s", s->lab[a]);
    run->first = a, run->last = b;
    /* The interval (t[i-1], t[i]] belongs to sample i: a marker's phase
   * begins at the sample taken just before its reset. */
    run->t0 = s->r[a > 0 ? a - 1 : a]->mono_s;
    run->min = INT64_MAX, run->max = -1;
    for (size_t i = a; i <= b; i++) {
        interval_peak(s, i, &p);
        const mw_row *r = s->r[i];
        if (r->kind != MW_ROW_TOTAL) continue;
        run->samples++;
        sum += (double)r->rss;
        if (r->rss < run->min) run->min = r->rss;
        if (r->rss > run->max) run->max = r->rss;
    }
    if (!run->samples) run->min = -1;
    close_run(run, &p, sum);
}

static int make_runs(const series *s, ph_result *res)
{
    int cap = 0;
    for (size_t a = 0; a < s->n;) {
        size_t b = a;
        while (b + 1 < s->n && strcmp(s->lab[b + 1], s->lab[a]) == 0) b++;
        if (mw_grow(&res->runs, &cap, res->nruns + 1, sizeof *res->runs)) return -1;
        ph_run *run = &res->runs[res->nruns++];
        memset(run, 0, sizeof *run);
        run_stats(s, a, b, run);
        a = b + 1;
    }
    for (int i = 0; i < res->nruns; i++) {
        double end = i + 1 < res->nruns ? res->runs[i + 1].t0 : s->r[res->runs[i].last]->mono_s;
        res->runs[i].seconds = end - res->runs[i].t0;
    }
    return 0;
}

static void overall(const mw_trace *tr, ph_result *res)
{
    res->peak = res->max_sample = res->cg_peak = -1;
    res->gpu_peak = res->gpu_dev_peak = -1;
    for (int i = 0; i < res->nruns; i++) {
        const ph_run *r = &res->runs[i];
        res->samples += r->samples;
        if (r->max > res->max_sample) res->max_sample = r->max;
        if (r->peak > res->peak || (r->peak == res->peak && r->peak_kind > res->peak_kind))
            res->peak = r->peak, res->peak_kind = r->peak_kind, res->peak_t = r->peak_t;
    }
    for (size_t i = 0; i < tr->n; i++) {
        const mw_row *r = &tr->rows[i];
        if (r->kind != MW_ROW_TOTAL) continue;
        if (r->cg_peak > res->cg_peak) res->cg_peak = r->cg_peak;
        if (r->gpu > res->gpu_peak) res->gpu_peak = r->gpu;
        if (r->gpu_dev > res->gpu_dev_peak) res->gpu_dev_peak = r->gpu_dev;
        if (r->nproc > res->max_nproc) res->max_nproc = r->nproc;
    }
    res->t_start = tr->n ? tr->rows[0].mono_s : 0;
    res->t_end = tr->n ? tr->rows[tr->n - 1].mono_s : 0;
}

int ph_analyze(const mw_trace *tr, ph_source src, const ph_threshold *th, int nth, ph_result *res)
{
    memset(res, 0, sizeof *res);
    res->source = src;
    series s = {0};
    int rc = build_series(tr, &s);
    if (rc == 0) rc = label_series(&s, src, th, nth);
    if (rc == 0) rc = make_runs(&s, res);
    if (rc == 0) overall(tr, res);
    free(s.r);
    free(s.lab);
    if (rc != 0) {
        ph_free(res);
        return mw_fail("out of memory");
    }
    return 0;
}

void ph_free(ph_result *res)
{
    free(res->runs);
    res->runs = NULL;
    res->nruns = 0;
}

int ph_option(ph_opts *o, const char *a, const char *v)
{
    if (strcmp(a, "--phases") == 0) {
        if (!v) return mw_fail("--phases needs a value: markers or auto"), -1;
        if (strcmp(v, "auto") == 0)
            o->source = PH_AUTO;
        else if (strcmp(v, "markers") == 0)
            o->source = PH_MARKERS;
        else
            return mw_fail("--phases '%s': expected markers or auto", v), -1;
        o->chosen = 1;
        return 1;
    }
    if (strcmp(a, "--thresholds") != 0) return 0;
    if (!v) return mw_fail("--thresholds needs a value: NAME:GiB,..."), -1;
    free(o->th);
    if (ph_parse_thresholds(v, &o->th, &o->nth) != 0) return -1;
    o->source = PH_THRESHOLDS;
    o->chosen = 1;
    return 1;
}

static int has_markers(const mw_trace *tr)
{
    for (size_t i = 1; i < tr->n; i++)
        if (strcmp(tr->rows[i].phase, tr->rows[0].phase) != 0) return 1;
    return 0;
}

int ph_load(const char *path, ph_opts *o, mw_trace *tr, ph_result *res)
{
    char err[MW_ERRLEN];
    if (mw_trace_load(path, tr, err, sizeof err) != 0) return mw_fail("%s", err);
    int total = 0;
    for (size_t i = 0; i < tr->n; i++) total += tr->rows[i].kind == MW_ROW_TOTAL;
    if (!total) {
        mw_trace_free(tr);
        return mw_fail("%s: no samples (the target ended before the first one?)", path);
    }
    if (!o->chosen) o->source = has_markers(tr) ? PH_MARKERS : PH_AUTO;
    if (ph_analyze(tr, o->source, o->th, o->nth, res) != 0) {
        mw_trace_free(tr);
        return MW_EXIT_ERR;
    }
    return 0;
}
