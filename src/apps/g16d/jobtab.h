/* jobtab: the job table and the keys' pending counts.  The only writer
 * of d->jobs (the list, in submission order), d->nstate (partitions in
 * each state), d->next_seq, each job's nterminal and nfailed, each key's
 * pending and holds, and every listed partition's state.  Every function
 * runs with d->mu held.
 *
 * Invariants (jobtab_check recounts them after every change when the
 * daemon is built with G16D_JOBTAB_CHECK, as the sanitizer build is):
 * - d->nstate[s] is the number of listed partitions in state s;
 * - a job's nterminal and nfailed count its partitions in P_DONE..
 *   P_CANCELLED and in P_FAILED;
 * - a key's pending is its holds plus the unfinished partitions of the
 *   listed jobs whose k it is (so a key with pending > 0 is never evicted);
 * - seq increases along the list and stays below d->next_seq.
 *
 * A partition's states and the one function that moves it along each
 * edge (jobtab_set_state performs every move and, with the checks built
 * in, aborts on any other; jobtab_add lists a partition in whatever state
 * it has: submission, a fleet's lease, restore):
 *
 *   P_QUEUED --worker--> P_SYNTH --after_stage--> P_SYNTHED
 *   P_SYNTHED --worker, batch_pick--> P_MSM --after_stage--> P_MSMED
 *   P_MSMED --worker, batch_pick--> P_FINAL --after_stage--> P_DONE
 *   P_SYNTH --after_stage (a whole-proof call, policy_whole_proof)--> P_DONE
 *
 *   P_QUEUED --pick_synth (its key or circuit is gone)--> P_FAILED
 *   P_SYNTH, P_MSM, P_FINAL --after_stage (the call failed)--> P_FAILED
 *   P_SYNTH, P_MSM --after_stage (the job was cancelled meanwhile)--> P_CANCELLED
 *   P_QUEUED, P_SYNTHED, P_MSMED --d_job_cancel--> P_CANCELLED
 *
 * (worker, batch_pick and after_stage are sched.c's; d_job_cancel is
 * jobs.c's.)  P_DONE, P_FAILED and P_CANCELLED are terminal: nothing
 * leaves them, and d_part_finish (sched.c) publishes the move into one.
 *
 * A job's state follows from its partitions' (d_job_state_of): queued
 * until one leaves P_QUEUED, then running until every one is terminal,
 * then cancelled (if it was), failed (if one failed) or done.  It leaves
 * the table through jobtab_purge (expired) or jobtab_clear (shutdown). */
#ifndef G16D_JOBTAB_H
#define G16D_JOBTAB_H

#include "d.h"

/* Lists j (its partitions in the states they have; j->seq kept when
 * restored, else the next one), finds its key by name (j->k, NULL when
 * not loaded: the pipeline then fails its partitions, saying why) and
 * counts its unfinished partitions as the key's pending.  The one way a
 * job enters the table. */
void jobtab_add(g16d *d, job *j);
/* Moves p to s, along an edge of the diagram above. */
void jobtab_set_state(g16d *d, part *p, part_state s);
/* A hold on k (n > 0) or its release (n < 0): pending without a listed
 * partition, while a submission is checked or the key is hashed. */
void jobtab_key_hold(g16d *d, dkey *k, int n);
/* Unlists the finished jobs past --result-ttl (or --fetched-ttl once
 * fetched) whose memory the reaper has given back, deleting their files
 * and telling the backend (job_deleted). */
void jobtab_purge(g16d *d, double now);
/* Unlists and frees every job (shutdown). */
void jobtab_clear(g16d *d);

job *jobtab_find(g16d *d, const char *id);
/* Frees a job that is not listed (its files stay). */
void jobtab_free(job *j);
/* A job that was never listed, or no longer is: its uploads and inputs
 * (ours, in the state directory) deleted, then freed. */
void jobtab_discard(job *j);

/* Aborts, naming the first invariant that does not hold.  A no-op unless
 * built with G16D_JOBTAB_CHECK. */
void jobtab_check(const g16d *d);

#endif
