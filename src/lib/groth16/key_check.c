/* g16_key_check_points (include/g16.h): every point of a key on its
 * curve.  The prover trusts the key's points (an MSM of points off the
 * curve gives a proof no verifier accepts, and nothing says why), so a
 * program checks them once when it opens a key for proving. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "groth16/groth16.h"
#include "util/parallel.h"

/* One run of points of one group. */
typedef struct {
    const char *name; /* as the message names it: "A", "H", "IC", ... */
    const uint8_t *points;
    size_t n;
    int g2;
} point_run;

typedef struct {
    const point_run *run;
    size_t stride;
    int (*on_curve)(const uint8_t *p);
    size_t *first_bad; /* one per worker: the smallest bad index seen */
} scan_ctx;

static void scan_worker(void *arg, size_t begin, size_t end, int worker)
{
    scan_ctx *c = arg;
    for (size_t i = begin; i < end; i++)
        if (!c->on_curve(c->run->points + i * c->stride)) {
            if (i < c->first_bad[worker]) c->first_bad[worker] = i;
            return;
        }
}

/* *bad: the index of the run's first point off the curve, run->n if
 * none.  -1 when out of memory. */
static int scan_run(const groth16_curve *curve, const point_run *run, int threads, size_t *bad)
{
    threads = parallel_threads_for(threads, run->n);
    scan_ctx c = {run, run->g2 ? curve->g2_bytes : curve->g1_bytes,
                  run->g2 ? curve->g2_on_curve : curve->g1_on_curve,
                  malloc(sizeof(size_t) * (size_t)threads)};
    if (!c.first_bad) return -1;
    for (int w = 0; w < threads; w++) c.first_bad[w] = run->n;
    parallel_for(run->n, threads, scan_worker, &c);
    *bad = run->n;
    for (int w = 0; w < threads; w++)
        if (c.first_bad[w] < *bad) *bad = c.first_bad[w];
    free(c.first_bad);
    return 0;
}

g16_status g16_key_check_points(const g16_key *key, int threads, char *err, size_t errlen)
{
    const char *name;
    const zkey *z = groth16_key_zkey(key, &name);
    const groth16_curve *curve = groth16_curve_for(z->curve);
    const point_run runs[] = {
        {"alpha1", z->alpha1, 1, 0},
        {"beta1", z->beta1, 1, 0},
        {"beta2", z->beta2, 1, 1},
        {"gamma2", z->gamma2, 1, 1},
        {"delta1", z->delta1, 1, 0},
        {"delta2", z->delta2, 1, 1},
        {"IC", z->ic, (size_t)z->n_public + 1, 0},
        {"A", z->a_points, z->n_vars, 0},
        {"B1", z->b1_points, z->n_vars, 0},
        {"B2", z->b2_points, z->n_vars, 1},
        {"C", z->c_points, (size_t)z->n_vars - z->n_public - 1, 0},
        {"H", z->h_points, z->domain_size, 0},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        size_t bad;
        if (scan_run(curve, &runs[r], threads, &bad)) {
            snprintf(err, errlen, "%s: out of memory", name);
            return G16_ERR_NOMEM;
        }
        if (bad < runs[r].n) {
            snprintf(err, errlen, "%s: %s point %zu is not on the curve", name, runs[r].name, bad);
            return G16_ERR_FORMAT;
        }
    }
    return G16_OK;
}
