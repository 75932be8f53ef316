/* The job table (jobtab.c) with its checks compiled in: the counts it
 * keeps as jobs are added, restored, moved along the state diagram and
 * purged; a key's holds; and that an illegal move, or a count written
 * behind its back, aborts the process (each in a child) instead of
 * going on with a table that lies. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jobtab.h"
#include "../common/test.h"

static int g_deleted;
static void job_deleted(g16d *d, const job *j) { (void)d, (void)j, g_deleted++; }
static const d_backend k_backend = {.name = "test", .job_deleted = job_deleted};

static job *make_job(const char *id, int n, const part_state *states, int64_t seq)
{
    job *j = calloc(1, sizeof *j);
    j->parts = calloc((size_t)n, sizeof *j->parts);
    snprintf(j->id, sizeof j->id, "%s", id);
    snprintf(j->key, sizeof j->key, "k");
    j->nparts = n;
    j->seq = seq;
    for (int i = 0; i < n; i++) {
        j->parts[i].job = j;
        j->parts[i].idx = i;
        j->parts[i].state = states ? states[i] : P_QUEUED;
    }
    return j;
}

/* Runs fn(d) in a child: whether it died of SIGABRT. */
static int aborts(g16d *d, void (*fn)(g16d *d))
{
    pid_t pid = fork();
    if (pid == 0) {
        (void)!freopen("/dev/null", "w", stderr); /* the abort's message is expected */
        fn(d);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

/* Runs fn(d) in a child: whether it exited with status 0. */
static int runs_clean(g16d *d, void (*fn)(g16d *d))
{
    pid_t pid = fork();
    if (pid == 0) {
        fn(d);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void illegal_move(g16d *d) { jobtab_set_state(d, &d->jobs->next->parts[1], P_DONE); }

/* A lone partition's whole-proof call: synthesis straight to done. */
static void whole_proof_move(g16d *d)
{
    jobtab_set_state(d, &d->jobs->next->parts[1], P_SYNTH);
    jobtab_set_state(d, &d->jobs->next->parts[1], P_DONE);
    if (d->nstate[P_DONE] != 3 || d->jobs->next->nterminal != 2) _exit(1); /* a's and b's two */
}

static void count_behind_its_back(g16d *d)
{
    d->nstate[P_QUEUED]++;
    jobtab_key_hold(d, d->keys, 1);
}

static void pending_behind_its_back(g16d *d)
{
    d->keys->pending++;
    jobtab_key_hold(d, d->keys, 1);
}

static void walk(g16d *d, part *p)
{
    static const part_state path[] = {P_SYNTH, P_SYNTHED, P_MSM, P_MSMED, P_FINAL, P_DONE};
    for (size_t i = 0; i < sizeof path / sizeof path[0]; i++) jobtab_set_state(d, p, path[i]);
}

int main(void)
{
    static g16d d;
    static dkey k = {.name = "k"};
    d.next_seq = 1;
    d.keys = &k;
    d.be = &k_backend;
    d.cfg.result_ttl = 60;
    d.cfg.fetched_ttl = 60;

    job *a = make_job("a", 3, NULL, 0);
    jobtab_add(&d, a);
    CHECK(a->seq == 1 && d.next_seq == 2 && a->k == &k);
    CHECK(d.nstate[P_QUEUED] == 3 && k.pending == 3 && a->nterminal == 0);
    jobtab_key_hold(&d, &k, 2);
    CHECK(k.pending == 5 && k.holds == 2);
    jobtab_key_hold(&d, &k, -2);
    CHECK(k.pending == 3 && k.holds == 0);

    walk(&d, &a->parts[0]);
    jobtab_set_state(&d, &a->parts[1], P_CANCELLED);
    jobtab_set_state(&d, &a->parts[2], P_SYNTH);
    jobtab_set_state(&d, &a->parts[2], P_FAILED);
    CHECK(d.nstate[P_DONE] == 1 && d.nstate[P_CANCELLED] == 1 && d.nstate[P_FAILED] == 1);
    CHECK(d.nstate[P_QUEUED] == 0 && d.nstate[P_SYNTH] == 0);
    CHECKF(a->nterminal == 3 && a->nfailed == 1 && k.pending == 0, "%d %d %d", a->nterminal,
           a->nfailed, k.pending);

    /* restored: its seq kept, its finished partitions counted as such */
    job *b = make_job("b", 2, (const part_state[]){P_DONE, P_QUEUED}, 10);
    jobtab_add(&d, b);
    CHECK(b->seq == 10 && d.next_seq == 11 && b->nterminal == 1 && k.pending == 1);
    job *c = make_job("c", 1, NULL, 0);
    jobtab_add(&d, c);
    CHECK(c->seq == 11 && d.next_seq == 12 && k.pending == 2 && jobtab_find(&d, "c") == c);

    CHECK(aborts(&d, illegal_move));
    CHECK(runs_clean(&d, whole_proof_move));
    CHECK(aborts(&d, count_behind_its_back));
    CHECK(aborts(&d, pending_behind_its_back));

    /* a finished job past --result-ttl goes; unfinished ones stay */
    a->finished = d_now() - 61;
    jobtab_purge(&d, d_now());
    CHECK(g_deleted == 1 && !jobtab_find(&d, "a") && d.jobs == b && b->next == c);
    CHECK(d.nstate[P_DONE] == 1 && d.nstate[P_QUEUED] == 2 && d.nstate[P_FAILED] == 0);
    jobtab_clear(&d);
    CHECK(!d.jobs && k.pending == 0 && d.nstate[P_QUEUED] == 0 && d.nstate[P_DONE] == 0);
    return test_finish("test_jobtab");
}
