/* The one renderer of a job's JSON and of the job listing. */
#include "jobview.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

const char *d_job_state_of(int n, int nfinal, int nfailed, int nstarted, int cancelled)
{
    return nfinal < n  ? (nstarted ? "running" : "queued")
           : cancelled ? "cancelled"
           : nfailed   ? "failed"
                       : "done";
}

static int is_final(const char *state)
{
    return !strcmp(state, "done") || !strcmp(state, "failed") || !strcmp(state, "cancelled");
}

static json_t *part_json(const d_part_view *p, int with_results)
{
    json_t *o = json_pack("{s:i,s:s}", "index", p->idx, "state", p->state);
    if (p->error) json_object_set_new(o, "error", json_string(p->error));
    if (p->timings) json_object_set_new(o, "timings", json_loads(p->timings, 0, NULL));
    if (with_results && p->proof) json_object_set_new(o, "proof", json_loads(p->proof, 0, NULL));
    if (with_results && p->pub) json_object_set_new(o, "public", json_loads(p->pub, 0, NULL));
    return o;
}

char *d_job_view_json(const d_job_view *v, int with_results)
{
    int done = 0, failed = 0, nfinal = 0, started = 0;
    for (int i = 0; i < v->nparts; i++) {
        const char *st = v->parts[i].state;
        done += !strcmp(st, "done");
        failed += !strcmp(st, "failed");
        nfinal += is_final(st);
        started += strcmp(st, "queued") != 0;
    }
    int final = nfinal == v->nparts;
    json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:f,s:i,s:i,s:i}", "id", v->id, "key", v->key,
                          "priority", v->priority, "state",
                          d_job_state_of(v->nparts, nfinal, failed, started, v->cancelled),
                          "created", v->created, "partitions_total", v->nparts, "partitions_done",
                          done, "partitions_failed", failed);
    if (final && v->finished > 0) json_object_set_new(o, "finished", json_real(v->finished));
    json_t *arr = json_array();
    for (int i = 0; i < v->nparts; i++)
        json_array_append_new(arr, part_json(&v->parts[i], with_results && final));
    json_object_set_new(o, "partitions", arr);
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(o);
    return s;
}

char *d_job_list_json(const d_job_list *l)
{
    json_t *a = json_array();
    for (int i = 0; i < l->n; i++) {
        const d_job_row *r = &l->rows[i];
        json_t *o = json_pack(
            "{s:s,s:s,s:i,s:s,s:i,s:i}", "id", r->id, "key", r->key, "priority", r->priority,
            "state", d_job_state_of(r->nparts, r->nfinal, r->nfailed, r->nstarted, r->cancelled),
            "partitions", r->nparts, "partitions_done", r->ndone);
        if (r->submitted_by[0])
            json_object_set_new(o, "submitted_by", json_string(r->submitted_by));
        json_array_append_new(a, o);
    }
    json_t *o = json_pack("{s:o}", "jobs", a);
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(o);
    return s;
}

int d_job_view_alloc(d_job_view *v, int n)
{
    v->parts = calloc(n > 0 ? (size_t)n : 1, sizeof *v->parts);
    v->nparts = v->parts ? n : 0;
    return v->parts ? 0 : -1;
}

void d_job_view_free(d_job_view *v)
{
    for (int i = 0; i < v->nparts; i++) {
        free(v->parts[i].error);
        free(v->parts[i].timings);
        free(v->parts[i].proof);
        free(v->parts[i].pub);
    }
    free(v->parts);
    v->parts = NULL;
    v->nparts = 0;
}

void d_job_list_free(d_job_list *l)
{
    free(l->rows);
    l->rows = NULL;
    l->n = 0;
}
