/* proof: which of the runner's children are the run's, and so may be
 * signalled.  The runner is a subreaper: what a case leaves behind comes
 * to it as its parents die, and so do the orphans of jobs it inherited
 * from its shell.  A child is the run's when it started at the case's
 * start or later, is not one of those inherited, and is proved:
 *  - by descent: the runner had no other child as it forked the case,
 *    so every child it has until it forks again descends from the case;
 *  - by the run's cgroup: a member of it;
 *  - by the runner's token in its environment (proc/env.h);
 *  - by having been proved so earlier: a process loses its environment
 *    as it starts to exit, long before it is a zombie to reap, and is
 *    still known for the run's by its pid and start time (a pid stays
 *    its until it is reaped).
 * Reading a process's figures takes no proof; signalling one does
 * (proc/tree.c). */
#ifndef MR_PROC_PROOF_H
#define MR_PROC_PROOF_H

#include <sys/types.h>

#include "proc/cgroup.h"

/* pid's parent and start time (clock ticks after boot), from
 * /proc/PID/stat.  0 or -1. */
int mr_proof_stat(pid_t pid, long *ppid, unsigned long long *start);

/* How many inherited children are known (past these, an inherited child
 * is told from the run's by its start time alone). */
#define MR_PROOF_INHERITED_MAX 64

/* Once, before the runner starts anything: its n children kids (a
 * shell's `sleep &` before it exec'd the runner) are never a run's. */
void mr_proof_note_inherited(const pid_t *kids, int n);

/* Was (pid, start) among the children the runner inherited? */
int mr_proof_inherited(pid_t pid, unsigned long long start);

/* Around the fork of a case: mr_proof_forking just before it, and
 * mr_proof_forked(pid) in the parent just after.  When the runner had no
 * child at all as it forked (a -j worker always; the runner alone unless
 * it inherited jobs or kept unproved orphans of an earlier run), every
 * child it has from then on descends from the case: the run's by
 * descent, killed at its end whatever its environment or cgroup.  Forking
 * forgets what earlier runs proved. */
void mr_proof_forking(void);
void mr_proof_forked(pid_t pid);

/* Have we any child at all (asked without reaping)? */
int mr_proof_have_children(void);

/* Is pid a child of ours (alive, or a zombie not reaped) of the run of
 * case cs (0: none known) that started at since or later, not inherited,
 * and proved as above (cg: the run's cgroup, NULL: none)?  A child proved
 * now is remembered. */
int mr_proof_child(pid_t pid, pid_t self, unsigned long long since,
		   const struct mr_cgroup *cg, pid_t cs);

/* Remember (pid, start) as the run's: a descendant of the case that
 * carries the token, proved while it still can be, which comes to us
 * when its parent dies. */
void mr_proof_remember(pid_t pid, unsigned long long start);

/* pid was reaped: no longer remembered (its pid may be anyone's now). */
void mr_proof_forget(pid_t pid);

/* The run of case cs has ended: its proof by descent with it, and what
 * was proved during it is forgotten. */
void mr_proof_ended(pid_t cs);

#endif
