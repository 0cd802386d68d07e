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
 * The cgroup is named memrepro-<runner pid>-<n> (unique on the machine while
 * the runner lives; an existing name is skipped), the case joins it itself
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
 */
#ifndef MR_CGROUP_H
#define MR_CGROUP_H

#include <stddef.h>
#include <stdint.h>

struct mr_cgroup {
	int v;             /* 1 or 2: the hierarchy; 0: none made */
	char *dir;         /* the run's cgroup directory (owned) */
	int procs_fd;      /* <dir>/cgroup.procs open for writing, or -1 */
	uint64_t limit_kb; /* the limit written, 0: none */
};

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
 * memrepro-<pid>-<n> cgroup under the parent whose runner pid is dead,
 * SIGKILL every process still in it (descendants of a case that escaped
 * the case's death), then remove it.  Says what it killed on stderr.
 * Returns how many cgroups were removed. */
int mr_cgroup_sweep(void);

/* Close the procs fd and remove the cgroup; every task in it must be gone
 * (reaped).  Retries briefly while the kernel lets the last ones go.
 * Returns 0 or -errno (printed).  cg is zeroed either way. */
int mr_cgroup_remove(struct mr_cgroup *cg);

#endif
