/* cgfs: the cgroup file system as the runner reads and writes it.
 *
 * Where this process's cgroups are (from /proc/self/mountinfo and
 * /proc/self/cgroup, never assumed), a cgroup's files read and written
 * whole, the pids of its cgroup.procs, and whether a pid is in a cgroup
 * by its /proc/PID/cgroup.  proc/cgroup.c makes and removes the cgroups of
 * a run with these; proc/cgsweep.c clears those of runners that are gone.
 */
#ifndef MR_CGFS_H
#define MR_CGFS_H

#include <stddef.h>
#include <sys/types.h>

/* Is word in the list s of words separated by any of seps? */
int mr_cgfs_has_word(const char *s, const char *word, const char *seps);

/* The directory of our cgroup in hierarchy v (2: the unified one; 1:
 * the v1 one of the memory controller): its mount point and our path
 * below the mount's root, into out.  0 or -errno (-ENOENT: none). */
int mr_cgfs_own_dir(int v, char *out, size_t size);

/* Write val to dir/name in one write.  0 or -errno (-EIO: short). */
int mr_cgfs_write(const char *dir, const char *name, const char *val);

/* Read dir/name whole into buf (NUL-terminated): its length, or -errno
 * (-EFBIG: it does not fit). */
long mr_cgfs_read(const char *dir, const char *name, char *buf, size_t size);

/* The pids of dir/cgroup.procs, sorted, each once (v1 may list one
 * twice), pids 0 and 1 left out.  At most max; returns how many, or
 * -errno (-EFBIG: more than max: the caller walks the tree instead).
 * Reads into a buffer kept from one call to the next (it runs at every
 * sample): not thread-safe. */
int mr_cgfs_procs(const char *dir, pid_t *out, int max);

/* Does /proc/PID/cgroup put pid in a cgroup whose last component is
 * name, on some hierarchy?  1 or 0. */
int mr_cgfs_member(pid_t pid, const char *name);

/* Who made a cgroup: the runner's pid, pid namespace and time namespace
 * (the inodes of /proc/self/ns/pid and time; 0: none) and its start time
 * (clock ticks after boot, as /proc/PID/stat says it in that time
 * namespace).  A cgroup is named memrepro- and this, then what it is:
 * proof that its runner is gone holds in any namespace (see cgsweep.c). */
struct mr_cgfs_owner {
	long pid;
	unsigned long long pidns, timens, start;
};
#define MR_CGFS_OWNER_FMT "memrepro-%ld-p%llu-t%llu-s%llu-"

/* Our own, for the process calling (a -j worker is a runner of its own).
 * 0, or -1 when the namespace or start time cannot be read (then no
 * cgroup is named for it). */
int mr_cgfs_owner_self(struct mr_cgfs_owner *o);

/* The owner of a cgroup named name, and in *rest what follows it.  0, or
 * -1: not a name of that form. */
int mr_cgfs_owner_parse(const char *name, struct mr_cgfs_owner *o, const char **rest);

/* Is name (memrepro-..., as above) one of a runner proved gone?  1 (its
 * pid in *pid) or 0: ours, alive, another namespace's, or in doubt (said
 * on stderr where a pid alone would have taken it for gone).  In
 * cgsweep.c. */
int mr_cgfs_owner_gone(const char *name, long *pid);

/* The start time of pid from /proc/PID/stat (clock ticks after boot).
 * 0 or -1. */
int mr_cgfs_start_time(long pid, unsigned long long *start);

/* The inode of /proc/self/ns/<which>, 0 when there is none. */
unsigned long long mr_cgfs_ns(const char *which);

/* Is /proc of our pid namespace (/proc/self is getpid())?  1 or 0. */
int mr_cgfs_proc_ours(void);

#endif
