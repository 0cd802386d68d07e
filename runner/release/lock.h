/* lock: a lock of our own on a private apt tree of the release cache,
 * so that two memrepro processes never run apt in one tree at once (apt's
 * own lock makes the second fail).  Internal to release/. */
#ifndef MR_REL_LOCK_H
#define MR_REL_LOCK_H

#include "core/util.h"

/* flock(LOCK_EX) on the file path (created), waiting at most wait_ms.
 * Returns the descriptor that holds it (release with mr_rel_unlock), or
 * -1 with why: "PATH: held by another memrepro fetch for over N s:
 * waited; try again when it is done", or the error that prevented it.
 *
 * The descriptor is not close-on-exec, on purpose: the helpers run while
 * it is held (apt-get, dpkg-deb) inherit it, so that one that outlives a
 * runner killed midway keeps the tree locked until it exits, and the
 * next fetch waits for it instead of meeting apt's lock.  The runner
 * forks nothing else while it is held. */
int mr_rel_lock(const char *path, long wait_ms, struct strbuf *why);

/* Release the lock of mr_rel_lock (fd < 0: nothing). */
void mr_rel_unlock(int fd);

#endif
