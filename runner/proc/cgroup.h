/* cgroup: a memory cgroup of its own for each run.
 *
 * Where the memory controller is on the unified hierarchy (cgroup v2) a
 * run's cgroup is a child of the runner's own cgroup there, limited with
 * memory.max; where only a v1 hierarchy has it (the "hybrid" layout: v1
 * controllers plus a cgroup2 mount without memory), a child of the runner's
 * v1 memory cgroup, limited with memory.limit_in_bytes (and
 * memory.memsw.limit_in_bytes for a cap, when swap is accounted).  Both are
 * looked up from /proc/self/cgroup and /proc/self/mountinfo, never assumed.
 *
 * The cgroup is named memrepro-<runner pid>-p<pidns>-t<timens>-s<start>-<n>
 * (cgfs.h: its runner, so that the sweep can prove it gone from any pid
 * namespace; an existing name is skipped), the case joins it itself
 * between fork and exec by writing "0" to the cgroup.procs fd it inherits,
 * so it and all its descendants are charged from their first page on.
 * After the run, once every task is reaped, it is removed (rmdir).
 *
 * MEMREPRO_CGROUP=0 in the runner's environment turns them off (as if none
 * could be made).
 *
 * Where none can be made (no memory controller, no write access) every
 * function says so and the runner falls back: figures "-", a --mem-cap
 * enforced by the sampler, pressure configs skipped with the reason.
 *
 * cgroup.c makes, reads and removes a run's cgroups, cgsweep.c clears
 * those of runners that are gone (mr_cgroup_sweep), both through cgfs.h
 * (where our cgroups are, a cgroup's files).
 */
#ifndef MR_CGROUP_H
#define MR_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct mr_cgroup {
	int v;             /* 1 or 2: the memory hierarchy; 0: none made */
	char *dir;         /* the run's memory cgroup directory (owned) */
	int procs_fd;      /* <dir>/cgroup.procs open for writing, or -1 */
	uint64_t limit_kb; /* the limit written, 0: none */
	char *kill_dir;    /* the run's cgroup v2 with cgroup.kill (owned;
	                      equal to dir when memory is on v2), or NULL */
	int kill_fd;       /* <kill_dir>/cgroup.procs for writing, or -1
	                      (-1 too when it is procs_fd's cgroup) */
};

/* A run's cgroup set up with none made: call before anything else. */
void mr_cgroup_init(struct mr_cgroup *cg);

/* Where run cgroups go, probed once: returns 1 or 2 (the hierarchy whose
 * memory controller will be used) and the parent directory in *parent, or
 * 0 with why there is none in *why (static strings, valid for the life of
 * the process). */
int mr_cgroup_probe(const char **parent, const char **why);

/* Make a run's cgroup, limited to limit_kb (0: no limit).  cap: the limit
 * is a cap (v1: memsw too, so swap cannot stretch it; v2: memory.swap.max
 * 0 and memory.oom.group 1); else it is pressure (swap, when there is some,
 * is left to the kernel).  Returns 0; or -errno with the reason in why
 * (cg->v is then 0 and nothing needs removing). */
int mr_cgroup_create(struct mr_cgroup *cg, uint64_t limit_kb, int cap,
		     char *why, size_t size);

/* Give the run a cgroup v2 of its own to be killed through (kernel
 * 5.14+: cgroup.kill, which needs no controller): the memory cgroup
 * itself where memory is on v2, else one of the same name on the unified
 * hierarchy (the hybrid layout).  The case joins it as it joins the memory
 * cgroup.  0, or -errno with nothing made (no writable v2 hierarchy, no
 * cgroup.kill, MEMREPRO_CGROUP=0): the runner then kills top down (see
 * proc/tree.c). */
int mr_cgroup_create_kill(struct mr_cgroup *cg);

/* Where kill cgroups go (probed once): a directory on the unified
 * hierarchy, or NULL where none can be made. */
const char *mr_cgroup_kill_parent(void);

/* SIGKILL every process in the run's kill cgroup, by the kernel (no pid
 * is read).  0, or -errno (-ENOTSUP: the run has none). */
int mr_cgroup_kill(const struct mr_cgroup *cg);

/* The processes of the run (the kill cgroup's members, else the memory
 * cgroup's), at most max of them into out, each once.  Returns how many
 * it stored, or -errno (-ENOTSUP: the run has no cgroup).  For reading
 * figures only: a pid read here is never signalled. */
int mr_cgroup_procs(const struct mr_cgroup *cg, pid_t *out, int max);

/* Is pid in the run's kill cgroup (else its memory cgroup), by
 * /proc/PID/cgroup?  1 yes, 0 no, -ENOTSUP: the run has no cgroup. */
int mr_cgroup_has(const struct mr_cgroup *cg, pid_t pid);

/* Current charge of the cgroup (v2 memory.current, v1
 * memory.usage_in_bytes), in KiB.  0 or -errno. */
int mr_cgroup_usage(const struct mr_cgroup *cg, uint64_t *kb);

/* Largest charge so far (v2 memory.peak, kernel 5.19+; v1
 * memory.max_usage_in_bytes), in KiB.  0, or -errno (-ENOENT: the kernel
 * does not keep it). */
int mr_cgroup_peak(const struct mr_cgroup *cg, uint64_t *kb);

/* Processes the kernel's OOM killer killed in the cgroup (v2
 * memory.events oom_kill, v1 memory.oom_control oom_kill).  0 or -errno. */
int mr_cgroup_oom_kills(const struct mr_cgroup *cg, uint64_t *n);

/* Clean up after runners killed outright (SIGKILL, a crash): for each
 * memrepro-... cgroup under the parents whose runner is proved gone (of
 * our pid and time namespaces, and no process has its pid, or not since
 * its start time; others are left, said so), kill what is still in it (descendants of a case that escaped the case's
 * death), then remove it.  Killed through cgroup.kill where the kill
 * cgroup exists; else each listed process through a pidfd, and only after
 * its /proc/PID/cgroup shows it in that cgroup; without pidfds, nothing
 * is signalled and the cgroup is left (said so).  Says what it killed on
 * stderr.  Returns how many cgroups were removed. */
int mr_cgroup_sweep(void);

/* Close the procs fds and remove the cgroups; every task in them must be
 * gone (reaped).  Retries briefly while the kernel lets the last ones go.
 * Returns 0 or -errno (printed).  cg is zeroed either way. */
int mr_cgroup_remove(struct mr_cgroup *cg);

#endif
