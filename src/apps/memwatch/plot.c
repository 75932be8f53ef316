/* `memwatch plot`: a self-contained SVG (no scripts, fonts or links) of a
 * trace: stacked anon/file/shmem, GPU memory on its own axis, phase bands
 * and the peak. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char k_help[] =
    "usage: memwatch plot TRACE.csv -o OUT.svg [--phases markers|auto | --thresholds "
    "NAME:GiB,...]\n"
    "\n"
    "Writes a self-contained SVG: time on x; RSS stacked as anon, file and\n"
    "shmem (CUDA pinned host memory shows up as shmem); GPU memory of the\n"
    "target (or of all devices when no process matched) on a right-hand\n"
    "axis when the trace has it; one band per phase run (phases as in\n"
    "memwatch summarize); the peak as a dashed line and a dot, labelled exact\n"
    "or sampled.  Exit status 2 with a one-line error for a bad trace or an\n"
    "unwritable OUT.\n";

enum { W = 1200, H = 700, X0 = 90, X1 = W - 90, Y0 = 60, Y1 = H - 90 };
static const char *const k_band[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1",
                                     "#edc948", "#76b7b2", "#ff9da7", "#9c755f"};

typedef struct {
    FILE *f;
    const mw_trace *tr;
    const ph_result *res;
    const mw_row **pts;
    size_t npts;
    double t0, t1, ymax, gmax, div;
    const char *unit;
    int gpu_dev; /* plot gpu_dev_kb: no process of the target matched */
} plot;

static double px(const plot *p, double t) { return X0 + (t - p->t0) / (p->t1 - p->t0) * (X1 - X0); }
static double py(const plot *p, double kb) { return Y1 - kb / p->ymax * (Y1 - Y0); }

static double nice_step(double range)
{
    double raw = range / 6, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return mag * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10);
}

/* Keep at most ~1600 points, each the largest of its bucket, so spikes
 * survive the thinning. */
static int pick_points(plot *p)
{
    size_t m = 0;
    for (size_t i = 0; i < p->tr->n; i++) m += p->tr->rows[i].kind == MW_ROW_TOTAL;
    size_t bucket = m > 1600 ? (m + 1599) / 1600 : 1, k = 0;
    p->pts = malloc((m / bucket + 2) * sizeof *p->pts);
    if (!p->pts) return -1;
    for (size_t i = 0; i < p->tr->n; i++) {
        const mw_row *r = &p->tr->rows[i];
        if (r->kind != MW_ROW_TOTAL) continue;
        if (k % bucket == 0)
            p->pts[p->npts++] = r;
        else if (r->rss > p->pts[p->npts - 1]->rss)
            p->pts[p->npts - 1] = r;
        k++;
    }
    return 0;
}

static void scales(plot *p)
{
    const ph_result *r = p->res;
    p->t0 = r->t_start;
    p->t1 = r->t_end > r->t_start ? r->t_end : r->t_start + 1;
    double top = (double)(r->peak > r->max_sample ? r->peak : r->max_sample);
    p->ymax = (top > 0 ? top : 1024) * 1.12;
    p->gpu_dev = r->gpu_peak <= 0 && r->gpu_dev_peak > 0;
    p->gmax = (double)(p->gpu_dev ? r->gpu_dev_peak : r->gpu_peak) * 1.12;
    int gib = p->ymax >= 4.0 * 1048576 || p->gmax >= 4.0 * 1048576;
    p->div = gib ? 1048576.0 : 1024.0;
    p->unit = gib ? "GiB" : "MiB";
}

static void bands(plot *p)
{
    const ph_result *r = p->res;
    char seen[64][MW_PHASE_MAX];
    int nseen = 0;
    for (int i = 0; i < r->nruns; i++) {
        int c = 0;
        while (c < nseen && strcmp(seen[c], r->runs[i].name) != 0) c++;
        if (c == nseen && nseen < 64) snprintf(seen[nseen++], MW_PHASE_MAX, "%s", r->runs[i].name);
        double a = px(p, r->runs[i].t0), b = px(p, r->runs[i].t0 + r->runs[i].seconds);
        if (b - a < 1) b = a + 1;
        fprintf(p->f,
                "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s' fill-opacity='0.13'/>\n",
                a, Y0, b - a, Y1 - Y0, k_band[c % 8]);
        int chars = (int)((b - a - 6) / 6.5);
        if (chars >= 3)
            fprintf(p->f, "<text x='%.1f' y='%d' font-size='11' fill='%s'>%.*s</text>\n", a + 3,
                    Y0 + 13, k_band[c % 8], chars, r->runs[i].name);
    }
}

static void axes(plot *p)
{
    FILE *f = p->f;
    double ys = nice_step(p->ymax / p->div) * p->div;
    for (double v = 0; v <= p->ymax; v += ys)
        fprintf(f,
                "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/>"
                "<text x='%d' y='%.1f' font-size='11' text-anchor='end'>%g</text>\n",
                X0, X1, py(p, v), py(p, v), X0 - 6, py(p, v) + 4, v / p->div);
    double xs = nice_step(p->t1 - p->t0);
    for (double t = 0; t <= p->t1 - p->t0 + 1e-9; t += xs)
        fprintf(f,
                "<line x1='%.1f' x2='%.1f' y1='%d' y2='%d' stroke='#999'/>"
                "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%g</text>\n",
                px(p, p->t0 + t), px(p, p->t0 + t), Y1, Y1 + 5, px(p, p->t0 + t), Y1 + 18, t);
    fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#333'/>\n", X0, Y0,
            X1 - X0, Y1 - Y0);
    fprintf(f, "<text x='%d' y='%d' font-size='12' text-anchor='middle'>time (s)</text>\n",
            (X0 + X1) / 2, Y1 + 36);
    fprintf(f,
            "<text transform='translate(%d %d) rotate(-90)' font-size='12' "
            "text-anchor='middle'>memory (%s)</text>\n",
            X0 - 55, (Y0 + Y1) / 2, p->unit);
}

static int64_t layer_top(const mw_row *r, int layer)
{
    int64_t v[3] = {r->anon, r->file, r->shmem}, s = 0;
    for (int i = 0; i <= layer; i++) s += v[i] > 0 ? v[i] : 0;
    return s;
}

/* One closed polygon per layer: its top edge forward, the layer below
 * backward. */
static void areas(plot *p)
{
    static const char *const fill[] = {"#4e79a7", "#f28e2b", "#e15759"};
    for (int layer = 0; layer < 3; layer++) {
        fprintf(p->f, "<polygon fill='%s' fill-opacity='0.85' points='", fill[layer]);
        for (size_t i = 0; i < p->npts; i++)
            fprintf(p->f, "%.1f,%.1f ", px(p, p->pts[i]->mono_s),
                    py(p, (double)layer_top(p->pts[i], layer)));
        for (size_t i = p->npts; i-- > 0;)
            fprintf(p->f, "%.1f,%.1f ", px(p, p->pts[i]->mono_s),
                    py(p, layer ? (double)layer_top(p->pts[i], layer - 1) : 0));
        fprintf(p->f, "'/>\n");
    }
}

static void gpu_line(plot *p)
{
    if (!(p->gmax > 0)) return;
    FILE *f = p->f;
    fprintf(f, "<polyline fill='none' stroke='#76b041' stroke-width='2' points='");
    for (size_t i = 0; i < p->npts; i++) {
        int64_t g = p->gpu_dev ? p->pts[i]->gpu_dev : p->pts[i]->gpu;
        if (g >= 0)
            fprintf(f, "%.1f,%.1f ", px(p, p->pts[i]->mono_s), Y1 - g / p->gmax * (Y1 - Y0));
    }
    fprintf(f, "'/>\n");
    double gs = nice_step(p->gmax / p->div) * p->div;
    for (double v = 0; v <= p->gmax; v += gs)
        fprintf(f, "<text x='%d' y='%.1f' font-size='11' fill='#4c7a22'>%g</text>\n", X1 + 6,
                Y1 - v / p->gmax * (Y1 - Y0) + 4, v / p->div);
    fprintf(f,
            "<text transform='translate(%d %d) rotate(90)' font-size='12' fill='#4c7a22' "
            "text-anchor='middle'>GPU memory, %s (%s)</text>\n",
            X1 + 55, (Y0 + Y1) / 2, p->gpu_dev ? "all devices" : "target", p->unit);
}

static void peak_mark(plot *p)
{
    const ph_result *r = p->res;
    if (r->peak < 0) return;
    double y = py(p, (double)r->peak), x = px(p, r->peak_t);
    char v[32];
    mw_fmt_kb(v, sizeof v, r->peak);
    fprintf(p->f,
            "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#c00' "
            "stroke-dasharray='6 4' stroke-width='1.5'/>\n",
            X0, X1, y, y);
    fprintf(p->f, "<circle cx='%.1f' cy='%.1f' r='5' fill='#c00'/>\n", x, y);
    fprintf(
        p->f,
        "<text x='%.1f' y='%.1f' font-size='12' fill='#c00' text-anchor='%s'>%s peak %s</text>\n",
        x, y - 8, x > (X0 + X1) / 2 ? "end" : "start", mw_peak_kind_name(r->peak_kind), v);
}

static void legend(plot *p)
{
    static const char *const names[] = {"anon", "file", "shmem", "GPU", "peak"};
    static const char *const col[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b041", "#c00"};
    int n = p->gmax > 0 ? 5 : 4;
    for (int i = 0, k = 0; i < 5; i++) {
        if (i == 3 && n == 4) continue;
        int x = X0 + 110 * k++;
        fprintf(p->f,
                "<rect x='%d' y='%d' width='14' height='14' fill='%s'/>"
                "<text x='%d' y='%d' font-size='12'>%s</text>\n",
                x, H - 30, col[i], x + 20, H - 19, names[i]);
    }
}

static void escape_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else
            fputc(*s, f);
    }
}

static void draw(plot *p, const char *trace)
{
    fprintf(p->f,
            "<?xml version='1.0' encoding='UTF-8'?>\n"
            "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
            "viewBox='0 0 %d %d' font-family='sans-serif'>\n"
            "<rect width='%d' height='%d' fill='white'/>\n",
            W, H, W, H, W, H);
    fprintf(p->f, "<text x='%d' y='30' font-size='16'>memwatch: ", X0);
    escape_text(p->f, trace);
    fprintf(p->f, "</text>\n");
    bands(p);
    axes(p);
    areas(p);
    gpu_line(p);
    peak_mark(p);
    legend(p);
    fprintf(p->f, "</svg>\n");
}

int mw_cmd_plot(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    ph_opts po = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return fputs(k_help, stdout), 0;
        int rc = ph_option(&po, a, v);
        if (rc < 0) return free(po.th), MW_EXIT_ERR;
        if (rc > 0)
            i++;
        else if (strcmp(a, "-o") == 0 && v)
            out = v, i++;
        else if (a[0] == '-' && a[1])
            return free(po.th), mw_fail("plot: unknown option '%s' (see memwatch plot --help)", a);
        else if (in)
            return free(po.th), mw_fail("plot: one trace at a time");
        else
            in = a;
    }
    if (!in || !out)
        return free(po.th),
               mw_fail("plot: needs TRACE.csv and -o OUT.svg (see memwatch plot --help)");
    mw_trace tr;
    ph_result res;
    int rc = ph_load(in, &po, &tr, &res);
    free(po.th);
    if (rc) return rc;
    plot p = {.tr = &tr, .res = &res};
    if (pick_points(&p) != 0)
        rc = mw_fail("out of memory");
    else if (!(p.f = fopen(out, "w")))
        rc = mw_fail("%s: cannot write: %s", out, strerror(errno));
    if (rc == 0) {
        scales(&p);
        draw(&p, in);
        if (fclose(p.f) != 0) rc = mw_fail("%s: write failed: %s", out, strerror(errno));
    }
    free(p.pts);
    ph_free(&res);
    mw_trace_free(&tr);
    return rc;
}
