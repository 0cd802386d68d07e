/* scratch: a run's own temporary directory, its TMPDIR.
 *
 * A case or a program under it that writes a temporary file and is then
 * killed (a timeout, a memory cap, an interrupted session: SIGKILL runs
 * no cleanup) would leave it in the user's /tmp: redis-frag.redis's
 * server socket did, once per killed run.  So each run gets TMPDIR set
 * to a directory of its own, made in the runner's TMPDIR (else /tmp)
 * before the fork and removed whole after the run's tree is reaped.
 *
 * It is named memrepro-<runner pid>-p<pidns>-t<timens>-s<start>-tmp.XXXXXX
 * (cgfs.h: its runner), so that a session started later removes those of
 * runners proved gone (killed outright) and no other: mr_scratch_sweep.
 */
#ifndef MR_SCRATCH_H
#define MR_SCRATCH_H


/* Where scratch directories are made: the runner's TMPDIR when it is an
 * absolute path, else /tmp. */
const char *mr_scratch_base(void);

/* A new scratch directory (mode 0700), owned, or NULL (no owner name,
 * mkdtemp's error: said on stderr the first time): the run then keeps
 * the TMPDIR it inherits. */
char *mr_scratch_make(void);

/* Remove dir and everything in it (core/rmtree.h), and free it.  NULL is
 * nothing.  A part that cannot be removed is said on stderr. */
void mr_scratch_remove(char *dir);

/* Remove the scratch directories in mr_scratch_base() of runners proved
 * gone (cgfs.h), those of our own user only; at most 100,000 entries of
 * the base are read.  How many were removed. */
int mr_scratch_sweep(void);

#endif
