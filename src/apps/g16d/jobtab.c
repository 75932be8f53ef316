/* The job table: see jobtab.h for what it owns, its invariants and the
 * partition's state diagram. */
#define _GNU_SOURCE
#include "jobtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIT(s) (1u << (s))

#ifdef G16D_JOBTAB_CHECK
/* The edges of jobtab.h's diagram: legal[from] has a bit for each state
 * a partition in from may move to. */
static const unsigned k_legal[P_CANCELLED + 1] = {
    [P_QUEUED] = BIT(P_SYNTH) | BIT(P_FAILED) | BIT(P_CANCELLED),
    [P_SYNTH] = BIT(P_SYNTHED) | BIT(P_DONE) | BIT(P_FAILED) | BIT(P_CANCELLED),
    [P_SYNTHED] = BIT(P_MSM) | BIT(P_CANCELLED),
    [P_MSM] = BIT(P_MSMED) | BIT(P_FAILED) | BIT(P_CANCELLED),
    [P_MSMED] = BIT(P_FINAL) | BIT(P_CANCELLED),
    [P_FINAL] = BIT(P_DONE) | BIT(P_FAILED),
};

#endif

static int terminal(part_state s) { return s >= P_DONE; }

#ifdef G16D_JOBTAB_CHECK
static void broken(const char *what, const char *id)
{
    d_log(D_LOG_ERR, "jobtab_invariant_broken", "what=%s job=%s", what, id ? id : "");
    abort();
}

static int key_recount(const g16d *d, const dkey *k)
{
    int n = 0;
    for (const job *j = d->jobs; j; j = j->next)
        if (j->k == k)
            for (int i = 0; i < j->nparts; i++) n += !terminal(j->parts[i].state);
    return n;
}

void jobtab_check(const g16d *d)
{
    int nstate[P_CANCELLED + 1] = {0};
    int64_t last = 0;
    for (const job *j = d->jobs; j; j = j->next) {
        int nterm = 0, nfail = 0;
        if (j->seq <= last || j->seq >= d->next_seq) broken("seq out of order", j->id);
        last = j->seq;
        for (int i = 0; i < j->nparts; i++) {
            const part *p = &j->parts[i];
            if ((unsigned)p->state > P_CANCELLED || p->job != j) broken("partition", j->id);
            nstate[p->state]++;
            nterm += terminal(p->state);
            nfail += p->state == P_FAILED;
        }
        if (nterm != j->nterminal || nfail != j->nfailed) broken("nterminal/nfailed", j->id);
    }
    for (int s = 0; s <= P_CANCELLED; s++)
        if (nstate[s] != d->nstate[s]) broken("nstate", d_state_name((part_state)s));
    for (const dkey *k = d->keys; k; k = k->next)
        if (k->holds < 0 || k->pending != k->holds + key_recount(d, k)) broken("pending", k->name);
}
#else
void jobtab_check(const g16d *d) { (void)d; }
#endif

job *jobtab_find(g16d *d, const char *id)
{
    for (job *j = d->jobs; j; j = j->next)
        if (!strcmp(j->id, id)) return j;
    return NULL;
}

void jobtab_add(g16d *d, job *j)
{
    if (j->seq <= 0) j->seq = d->next_seq;
    if (j->seq >= d->next_seq) d->next_seq = j->seq + 1;
    j->k = d_key_find(d, j->key);
    j->nterminal = j->nfailed = 0;
    for (int i = 0; i < j->nparts; i++) {
        part_state s = j->parts[i].state;
        d->nstate[s]++;
        j->nterminal += terminal(s);
        j->nfailed += s == P_FAILED;
        if (j->k && !terminal(s)) j->k->pending++;
    }
    job **pp = &d->jobs;
    while (*pp) pp = &(*pp)->next;
    *pp = j;
    jobtab_check(d);
}

void jobtab_set_state(g16d *d, part *p, part_state s)
{
#ifdef G16D_JOBTAB_CHECK
    if (!(k_legal[p->state] & BIT(s))) {
        char what[96];
        snprintf(what, sizeof what, "partition %d: %s -> %s", p->idx, d_state_name(p->state),
                 d_state_name(s));
        broken(what, p->job->id);
    }
#endif
    job *j = p->job;
    d->nstate[p->state]--;
    d->nstate[s]++;
    p->state = s;
    if (terminal(s)) {
        j->nterminal++;
        j->nfailed += s == P_FAILED;
        if (j->k) {
            j->k->pending--;
            j->k->last_used = d_now();
        }
    }
    jobtab_check(d);
}

void jobtab_key_hold(g16d *d, dkey *k, int n)
{
    k->holds += n;
    k->pending += n;
    if (n > 0) k->last_used = d_now();
    jobtab_check(d);
}

void jobtab_free(job *j)
{
    if (!j) return;
    for (int i = 0; i < j->nparts; i++) {
        part *p = &j->parts[i];
        free(p->wtns_path);
        free(p->input_path);
        free(p->proof);
        free(p->pub);
        free(p->error);
        free(p->timings);
        free(p->payload);
        d_wtns_free(&p->wtns); /* a witness read at submission, never proved */
    }
    free(j->parts);
    free(j);
}

void jobtab_discard(job *j)
{
    if (!j) return;
    for (int i = 0; i < j->nparts; i++) {
        if (j->parts[i].uploaded && j->parts[i].wtns_path) unlink(j->parts[i].wtns_path);
        if (j->parts[i].input_path) unlink(j->parts[i].input_path);
    }
    jobtab_free(j);
}

/* Unlists *pp (its partitions leave the counts). */
static job *unlist(g16d *d, job **pp)
{
    job *j = *pp;
    *pp = j->next;
    for (int i = 0; i < j->nparts; i++) {
        d->nstate[j->parts[i].state]--;
        if (j->k && !terminal(j->parts[i].state)) j->k->pending--;
    }
    return j;
}

/* A finished job whose results are past --result-ttl (or --fetched-ttl
 * once fetched), once the reaper has given its memory back. */
static int expired(const g16d *d, const job *j, double now)
{
    if (j->nterminal < j->nparts) return 0;
    for (int i = 0; i < j->nparts; i++)
        if (j->parts[i].reserved || j->parts[i].gj) return 0; /* the reaper still owes memory */
    if (j->fetched > 0 && now - j->fetched > d->cfg.fetched_ttl) return 1;
    return now - j->finished > d->cfg.result_ttl;
}

void jobtab_purge(g16d *d, double now)
{
    for (job **pp = &d->jobs; *pp;) {
        if (!expired(d, *pp, now)) {
            pp = &(*pp)->next;
            continue;
        }
        job *j = unlist(d, pp);
        d->be->job_deleted(d, j);
        jobtab_discard(j);
        jobtab_check(d);
    }
}

void jobtab_clear(g16d *d)
{
    while (d->jobs) jobtab_free(unlist(d, &d->jobs));
}
