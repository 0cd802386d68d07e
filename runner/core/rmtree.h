/* rmtree: a directory tree removed, without following a link or entering
 * another file system, bounded in depth and entries. */
#ifndef MR_RMTREE_H
#define MR_RMTREE_H

/* Deepest directory and most entries mr_rmtree walks into. */
#define MR_RMTREE_DEPTH 256
#define MR_RMTREE_ENTRIES 1000000

/* Remove path: a file or link is unlinked (never followed), a directory
 * emptied and removed.  Every directory is opened from its parent's
 * descriptor (O_NOFOLLOW), so a link swapped in while it runs is removed,
 * not walked; a directory of another file system (a mount of one inside;
 * a bind mount of the same one is not told apart) is left with what leads
 * to it.  A directory without write or search permission
 * for us gets it first (dpkg-deb's read-only ones).  0 (also when path
 * does not exist), or -errno of the first thing that could not be
 * removed (-ELOOP past MR_RMTREE_DEPTH, -E2BIG past MR_RMTREE_ENTRIES,
 * -EXDEV at a mount); what could be removed is. */
int mr_rmtree(const char *path);

#endif
