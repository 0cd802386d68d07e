/* tree: the processes of a run, found, counted and ended.
 *
 * The runner is a child subreaper (mr_spawn_init) and the case is its only
 * child during a run, so "the case's tree" is every descendant of the
 * runner: orphans of the case come back to it and are found (measured,
 * killed) even when they left the case's process group or session.
 *
 * Killing takes proof, reading does not: a pid read here may be reused by
 * the time it is read (a wrong figure at worst), but only the case's group
 * while the case is unreaped, the run's cgroup as a whole, and a child of
 * the runner's own proved the run's (proc/proof.h) are ever signalled
 * (see tree.c).
 *
 * Not thread-safe; one run at a time.
 */
#ifndef MR_TREE_H
#define MR_TREE_H

#include <sys/resource.h>
#include <sys/types.h>

#include "proc/cgroup.h"

/* More processes than any case should start; the rest go unmeasured.  The
 * size of the scratch buffers (pids) the functions below take. */
#define MR_TREE_MAX 4096

/* Once, before anything is started: remember the children the runner
 * already had (a shell's `sleep &` before it exec'd the runner), which are
 * never a run's. */
void mr_tree_note_inherited(void);

/* The start time of pid (clock ticks after boot), or 0 when it cannot be
 * read.  What a run starts starts at the case's start or later. */
unsigned long long mr_tree_since(pid_t pid);

/* The processes of the run, for reading their figures: the members of its
 * cgroup cg where it has one, else every descendant of the runner (of its
 * children only those started at since or later; the members of group
 * pgid too when the kernel cannot list children).  buf[0] is the runner
 * itself (not measured); buf holds MR_TREE_MAX.  Returns how many, at
 * least 1. */
int mr_tree_case(pid_t pgid, const struct mr_cgroup *cg,
		 unsigned long long since, pid_t *buf);

/* Non-zero when our child pid has ended (a zombie), without reaping it. */
int mr_tree_ended(pid_t pid);

/* Once the case pid has ended by itself (a zombie not yet reaped, so
 * nothing was killed yet): how many of its descendants are still alive.
 * buf holds MR_TREE_MAX. */
int mr_tree_leftovers(pid_t pid, const struct mr_cgroup *cg,
		      unsigned long long since, pid_t *buf);

/* Kill and reap every child of ours proved a run's (proc/proof.h: the
 * runner's token, or proved so before; the leftovers of a run whose
 * worker died, orphaned to us), waiting for those on their way out to
 * hand theirs on, bounded as mr_tree_end is.  Returns how many it
 * killed. */
int mr_tree_strays(pid_t *buf);

/* End the case pid (our child, not yet reaped, its own group's leader)
 * and everything it started, then reap it: its group and its cgroup cg
 * killed at once, our other children of the run (proved: proc/proof.h,
 * before anything is killed where they can be) one by one as they come
 * to us, until none is left and none of our children is on its way out
 * (its own still to come to us).
 * The case's status and rusage go to *st and *ru; buf holds MR_TREE_MAX.
 * Returns 0, and names in mr_tree_unproved what came to us during the run
 * unproved; bounded: after 5 s it says what would not die and returns
 * -ETIMEDOUT (the case unreaped, *st 0, if it was the one). */
int mr_tree_end(pid_t pid, const struct mr_cgroup *cg, pid_t *buf, int *st,
		struct rusage *ru);

/* The children of ours that the last mr_tree_end found alive, come to us
 * since the case started, and could not prove the run's (the runner had
 * other children when it forked the case, so they may descend from
 * those): "pid N (comm), pid M (comm) and K more", or "".  Left running,
 * never signalled. */
#define MR_TREE_UNPROVED_MAX 256
const char *mr_tree_unproved(void);

#endif
