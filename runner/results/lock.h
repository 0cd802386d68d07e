/* lock: the lock of a results directory (docs/formats.md, "The lock").
 *
 * One runner writes a results directory at a time: it holds an exclusive
 * flock on DIR/memrepro.lock, a regular file of one link that holds its
 * pid (for the message another runner prints).  Readers (check, report,
 * merge...) take a shared lock to tell a directory still being written.
 */
#ifndef MR_LOCK_H
#define MR_LOCK_H

/* The lock file of a results directory. */
#define MR_RESULTS_LOCK "memrepro.lock"

/* Take the lock of results directory dir, which must exist: an exclusive
 * flock on dir/MR_RESULTS_LOCK (created if need be, without following a
 * link; a regular file of one link), which then holds the runner's pid.
 * Held by whoever holds the fd: it is close-on-exec, so no case inherits
 * it, while the runner's workers (forks, -j) do, and it is released when
 * the last of them exits.  Returns the fd, or -1 with a message printed:
 * "results directory DIR is being written by another memrepro (pid N):
 * <advice>" when another holds it. */
int mr_results_lock(const char *dir, const char *advice);

/* Whether a runner holds dir's lock: 1 (with the pid it wrote in *pid, or
 * 0 when unknown), or 0: not, or no lock file (a directory an older
 * memrepro wrote), or one that is not a regular file (no runner made it).
 * Takes and drops a shared lock: never blocks, prints nothing. */
int mr_results_busy(const char *dir, long *pid);

/* Print "results directory DIR is being written by another memrepro
 * (pid N): ADVICE" (without "(pid N)" when pid is 0).  The pid is the one
 * that took the lock; workers it forked (-j) hold the lock too, and may
 * outlive it. */
void mr_results_say_busy(const char *dir, long pid, const char *advice);

#endif
