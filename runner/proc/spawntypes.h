/* spawntypes: what one run of a case is asked to do and what it gave.
 *
 * Shared by proc/spawn.h (which runs it and says its outcome) and
 * proc/loop.h (which samples it while it runs), and by those that keep a
 * run's result (session/session.c, session/schedule.c, results/write.c), through
 * proc/spawn.h.
 */
#ifndef MR_SPAWNTYPES_H
#define MR_SPAWNTYPES_H

#include <stddef.h>
#include <stdint.h>

#include "proto/cases.h"
#include "proto/record.h"
#include "proto/schema.h"
#include "proc/machine.h"

/* How a run ended: a tagged value, never a signal folded into a code. */
enum mr_spawn_kind {
	MR_SPAWN_EXITED,      /* code: exit status */
	MR_SPAWN_SIGNALLED,   /* code: signal number */
	MR_SPAWN_TIMEOUT,     /* killed at the deadline */
	MR_SPAWN_EXEC_FAILED, /* code: execve's errno */
	MR_SPAWN_BAD_OUTPUT,  /* exited 0 but wrote a bad checkpoint record */
	MR_SPAWN_MEMCAP,      /* went over its memory limit: the kernel's OOM
	                         killer struck in its cgroup, or (no cgroup)
	                         the sampler saw its tree's RSS past --mem-cap
	                         and killed it; code: the limit in MiB */
};

struct mr_spawn_outcome {
	enum mr_spawn_kind kind;
	int code;           /* see the kinds */
};

/* The largest log a run keeps: past it the runner goes on draining the
 * case's output (so the case never blocks on a full pipe) but drops it,
 * and ends the log with a note saying how much was dropped. */
#define MR_SPAWN_LOG_MAX (16u << 20)

/* One sample of the series. */
struct mr_spawn_sample {
	uint64_t t_ms;        /* since the fork */
	uint64_t rss_kb;      /* of the case process */
	uint64_t vsz_kb;
	uint64_t tree_rss_kb; /* sum over the case and its descendants */
	uint64_t tree_nproc;  /* processes counted in the sum */
	uint64_t cgroup_kb;   /* charge of the run's memory cgroup, or
	                         MR_NOT_MEASURED */
};

struct mr_marks;

/* What to run. */
struct mr_spawn_req {
	const struct mr_cases_desc *c; /* declares the checkpoint names */
	char *const *argv;           /* argv[0] is the case's path */
	char *const *envp;           /* from mr_spawn_env */
	const char *log_path;        /* stdout+stderr of the case go here */
	long timeout_ms;             /* > 0 */
	int interval_ms;             /* sampling interval, > 0 */
	void (*tick)(void *ctx);     /* called after each sample, or NULL:
	                                the progress line (not measured) */
	void *tick_ctx;
	uint64_t cap_kb;      /* --mem-cap: over it the run is MR_SPAWN_MEMCAP
	                         (cgroup limit; without a cgroup, the sampler
	                         kills past it); 0: none */
	uint64_t pressure_kb; /* the pressure axis: the cgroup's limit (the
	                         kernel reclaims before it OOM-kills); needs a
	                         cgroup; 0: none */
	int no_cgroup;        /* do not make a memory cgroup (no cgroup_kb) */
	const struct mr_machine *machine; /* the machine as env.tsv says it
	                                     (proc/machine.h), or NULL */
	const struct mr_marks *marks; /* a command's marks (proc/marks.h),
	                                 or NULL */
	int window;           /* its load matters: watch the machine at least
	                         MR_MACHINE_WINDOW_MS (proc/machine.h) */
};

/* What a run gave.  Arrays are owned; mr_spawn_res_free releases them. */
struct mr_spawn_res {
	struct mr_spawn_outcome out;
	uint64_t wall_ms, user_ms, sys_ms;   /* wall_ms excludes pause_ms */
	uint64_t pause_ms;   /* stood still at checkpoints while we measured it */
	uint64_t maxrss_kb, minflt, majflt;  /* wait4's rusage */
	uint64_t peak_rss_kb, peak_tree_rss_kb;
	struct mr_spawn_sample *samples;
	size_t nsamples, capsamples;
	struct mr_record *ckpts;
	size_t nckpts, capckpts;
	int bad_records;        /* records rejected */
	char bad_detail[160];   /* why the first one was */
	uint64_t cgroup_peak_kb; /* largest charge of the run's memory cgroup,
	                            or MR_NOT_MEASURED */
	int cgroup_v;            /* 1 or 2: the hierarchy used; 0: none */
	char cgroup_why[256];    /* why there was none ("" when there was) */
	int memcap_sampled;      /* MR_SPAWN_MEMCAP found by the sampler */
	int memcap_pressure;     /* ... the limit was pressure_kb's */
	int leftovers;           /* processes alive after the case ended (killed) */
	char unproved[256];      /* what came to the runner during the run and
	                            could not be proved the run's, left running
	                            ("pid N (comm), ..."; see mr_tree_unproved),
	                            or "" */
	uint64_t log_dropped;    /* output bytes past MR_SPAWN_LOG_MAX, or
	                            lost to a failed write */
	int log_errno;           /* why writing the log failed, or 0 */
	uint64_t stopped_ms;     /* the runner stood still during the run
	                            (SIGSTOP, a suspended machine): its times
	                            are not the case's; 0: it did not */
	char machine[256];       /* what changed in the machine's settings
	                            (proc/machine.h), "" when nothing */
	uint64_t other_cpu_ms;   /* CPU the rest of the machine used during
	                            the run, or MR_NOT_MEASURED */
};

#endif
