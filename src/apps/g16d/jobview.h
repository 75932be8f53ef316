/* A job as a reply shows it, filled by either backend (the local table
 * under d->mu, or the fleet's rows in PostgreSQL) and rendered to JSON by
 * one function, so the two can never disagree on a job's shape or on the
 * rule that names its state. */
#ifndef G16D_JOBVIEW_H
#define G16D_JOBVIEW_H

#define D_VIEW_ID  33
#define D_VIEW_KEY 128

typedef struct {
    int idx;
    char state[24];                      /* d_state_name's names */
    char *error, *timings, *proof, *pub; /* malloc'd, or NULL */
} d_part_view;

typedef struct {
    char id[D_VIEW_ID], key[D_VIEW_KEY];
    int priority, cancelled;
    double created, finished; /* finished: 0 while unknown */
    int nparts;
    d_part_view *parts; /* malloc'd, nparts of them */
} d_job_view;

/* A job as a listing shows it: counts of its partitions. */
typedef struct {
    char id[D_VIEW_ID], key[D_VIEW_KEY];
    char submitted_by[200]; /* the fleet host it came through; "" on one host */
    int priority, cancelled;
    int nparts, nfinal, nfailed, nstarted, ndone;
} d_job_row;

typedef struct {
    d_job_row *rows; /* malloc'd */
    int n;
} d_job_list;

/* A job's state from its partitions' counts: queued until one starts,
 * running until every one is final, then cancelled, failed or done. */
const char *d_job_state_of(int n, int nfinal, int nfailed, int nstarted, int cancelled);
/* GET /v1/proofs/ID's body (malloc'd; NULL: out of memory): the proofs
 * and public inputs only when with_results and every partition is final. */
char *d_job_view_json(const d_job_view *v, int with_results);
/* GET /v1/proofs's body (malloc'd; NULL: out of memory). */
char *d_job_list_json(const d_job_list *l);
/* Sizes v for n partitions: 0, or -1 when out of memory. */
int d_job_view_alloc(d_job_view *v, int n);
void d_job_view_free(d_job_view *v);
void d_job_list_free(d_job_list *l);

#endif
