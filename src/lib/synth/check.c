/* r1cs/witness checker: (A·w)(B·w) = C·w for every constraint.
 *
 * Constraints are variable-length records, so a first sequential pass
 * records where every CHECK_CHUNK-th constraint starts; the chunks are then
 * evaluated in parallel and the smallest failing index wins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/fr_ops.h"
#include "synth/synth.h"
#include "util/parallel.h"

#define CHECK_CHUNK 4096u

typedef struct {
    const fr_ops *f;
    const r1cs *r;
    const wtns *wt;
    fr_t *w;           /* witness in Montgomery form */
    r1cs_iter *starts; /* iterator state at each chunk's start */
    size_t n_chunks;
    uint32_t *first_bad; /* per worker; UINT32_MAX when none */
    int *bad_value;      /* per worker: a witness value >= r */
} check_ctx;

static void convert_witness(void *arg, size_t begin, size_t end, int worker)
{
    check_ctx *c = arg;
    for (size_t i = begin; i < end; i++)
        if (!c->f->from_bytes(&c->w[i], c->wt->values + 32 * i)) c->bad_value[worker] = 1;
}

static void eval_lc(const check_ctx *c, const r1cs_lc *l, fr_t *out)
{
    static const uint8_t plain_one[32] = {1};
    fr_t coef, t;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < l->n_terms; i++) {
        const fr_t *wv = &c->w[r1cs_term_wire(c->r, l, i)];
        const uint8_t *cb = r1cs_term_value(c->r, l, i);
        if (!memcmp(cb, plain_one, 32)) { /* most coefficients are 1 */
            c->f->add(out, out, wv);
            continue;
        }
        c->f->from_bytes(&coef, cb); /* canonical: r1cs_parse checked it */
        c->f->mul(&t, &coef, wv);
        c->f->add(out, out, &t);
    }
}

static void check_chunks(void *arg, size_t begin, size_t end, int worker)
{
    check_ctx *c = arg;
    r1cs_lc lc[3];
    fr_t a, b, cc, ab;
    for (size_t k = begin; k < end; k++) {
        r1cs_iter it = c->starts[k];
        for (uint32_t i = 0; i < CHECK_CHUNK && r1cs_iter_next(&it, lc) == 1; i++) {
            eval_lc(c, &lc[0], &a);
            eval_lc(c, &lc[1], &b);
            eval_lc(c, &lc[2], &cc);
            c->f->mul(&ab, &a, &b);
            if (!fr_eq(&ab, &cc)) {
                c->first_bad[worker] = it.index - 1;
                return; /* chunks run in order: later ones cannot be smaller */
            }
        }
    }
}

static int index_chunks(check_ctx *c, char *err, size_t errlen, const char *path)
{
    size_t n = ((size_t)c->r->n_constraints + CHECK_CHUNK - 1) / CHECK_CHUNK;
    c->starts = malloc((n ? n : 1) * sizeof *c->starts);
    if (!c->starts) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    r1cs_iter it;
    r1cs_lc lc[3];
    r1cs_iter_init(&it, c->r);
    for (size_t k = 0; k < n; k++) {
        c->starts[k] = it;
        for (uint32_t i = 0; i < CHECK_CHUNK && it.index < c->r->n_constraints; i++)
            if (r1cs_iter_next(&it, lc) != 1) {
                snprintf(err, errlen, "%s: malformed constraint %u", path, it.index);
                return -1;
            }
    }
    c->n_chunks = n;
    return 0;
}

static int files_match(const r1cs *r, const wtns *w, const char *r1cs_path, const char *wtns_path,
                       char *err, size_t errlen)
{
    if (!fr_ops_for(r->curve) || r->n8 != 32) {
        snprintf(err, errlen, "%s: field is not the scalar field of bn128 or bls12381", r1cs_path);
        return -1;
    }
    if (w->n8 != r->n8 || memcmp(w->prime, r->prime, r->n8)) {
        snprintf(err, errlen, "%s: witness is over a different field than %s", wtns_path,
                 r1cs_path);
        return -1;
    }
    if (w->n_witness != r->n_wires) {
        snprintf(err, errlen, "%s: witness has %u values but %s has %u wires", wtns_path,
                 w->n_witness, r1cs_path, r->n_wires);
        return -1;
    }
    return 0;
}

static int run_check(check_ctx *c, int threads, check_result *res, const char *wtns_path, char *err,
                     size_t errlen)
{
    size_t n = c->r->n_wires;
    int t = parallel_threads_for(threads, n > c->n_chunks ? n : c->n_chunks);
    c->w = malloc(n * sizeof *c->w);
    c->first_bad = malloc((size_t)t * sizeof *c->first_bad);
    c->bad_value = calloc((size_t)t, sizeof *c->bad_value);
    if (!c->w || !c->first_bad || !c->bad_value) {
        snprintf(err, errlen, "%s: out of memory for %zu witness values", wtns_path, n);
        return -1;
    }
    parallel_for(n, t, convert_witness, c);
    for (int i = 0; i < t; i++) {
        c->first_bad[i] = UINT32_MAX;
        if (c->bad_value[i]) {
            snprintf(err, errlen, "%s: a witness value is not below the field modulus", wtns_path);
            return -1;
        }
    }
    parallel_for(c->n_chunks, t, check_chunks, c);
    res->n_constraints = c->r->n_constraints;
    res->first_failure = UINT32_MAX;
    for (int i = 0; i < t; i++)
        if (c->first_bad[i] < res->first_failure) res->first_failure = c->first_bad[i];
    res->bad_one = n == 0 || !fr_eq(&c->w[0], &c->f->one);
    res->satisfied = res->first_failure == UINT32_MAX && !res->bad_one;
    return 0;
}

int check_files(const char *r1cs_path, const char *wtns_path, int threads, check_result *res,
                char *err, size_t errlen)
{
    r1cs r;
    wtns w;
    memset(&r, 0, sizeof r);
    memset(&w, 0, sizeof w);
    memset(res, 0, sizeof *res);
    check_ctx c = {0};
    int rc = r1cs_open(r1cs_path, &r, err, errlen);
    if (!rc) rc = wtns_open(wtns_path, &w, err, errlen);
    if (!rc && files_match(&r, &w, r1cs_path, wtns_path, err, errlen)) rc = G16_ERR_MISMATCH;
    if (rc) goto out;
    c.f = fr_ops_for(r.curve);
    c.r = &r;
    c.wt = &w;
    if (index_chunks(&c, err, errlen, r1cs_path)) rc = G16_ERR_FORMAT;
    if (!rc && run_check(&c, threads, res, wtns_path, err, errlen)) rc = G16_ERR_FORMAT;
out:
    free(c.starts);
    free(c.w);
    free(c.first_bad);
    free(c.bad_value);
    wtns_close(&w);
    r1cs_close(&r);
    return rc;
}

g16_status g16_check_files(const char *r1cs_path, const char *wtns_path, int threads,
                           g16_check_result *res, char *err, size_t errlen)
{
    return check_files(r1cs_path, wtns_path, threads, res, err, errlen);
}
