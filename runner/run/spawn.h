/* spawn: running a case once and measuring it from outside.
 *
 * As kselftest does: fork, the child puts itself in its own process group,
 * gets its environment and execs the case (_exit(127) when exec fails, the
 * errno travelling back on a close-on-exec pipe).  The parent polls a pidfd
 * and the checkpoint pipe with the sampling interval as timeout; each tick
 * samples /proc/PID/statm of the case and its descendants and enforces the
 * deadline by SIGKILLing the whole group (and any descendant that left it).
 * The case is reaped with wait4 for its rusage, then every leftover of its
 * group or its tree is killed and reaped: nothing a case starts outlives
 * its run.  The runner is a child subreaper (mr_spawn_init) and the case is
 * its only child during a run, so "the case's tree" is every descendant of
 * the runner: orphans of the case come back to it and are found (measured,
 * killed) even when they left the case's process group or session.
 *
 * The parts: run/self.h (the runner's own process: init, signals, ASLR),
 * run/env.h (the case's environment), run/child.h (between fork and exec),
 * run/loop.h (the poll and sample loop), run/tree.h (the process tree:
 * what may be signalled), run/log.h (the case's output), proto/record.h
 * (the checkpoint records).  A helper that is not measured (--describe, a
 * probe) runs through run/capture.h.
 *
 * Not thread-safe; one run at a time.
 */
#ifndef MR_SPAWN_H
#define MR_SPAWN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proto/cases.h"
#include "proto/schema.h"
#include "core/util.h"
#include "run/env.h"
#include "run/self.h"

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

/* The checkpoint metrics a record may carry, in checkpoints.tsv column
 * order: the schema's mr_ckpt_metrics[0..MR_SPAWN_NCKPT-1], their record
 * keys mr_ckpt_keys[] (the record carries t_us; the table has t_ms). */
enum { MR_SPAWN_NCKPT = MR_NCKPT_KEYS };
#define mr_spawn_ckpt_field mr_ckpt_keys /* record keys, by checkpoint metric */

/* A figure that was not measured (no memory cgroup): "-" in the TSV. */
#define MR_SPAWN_NONE UINT64_MAX

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
	                         MR_SPAWN_NONE */
};

/* One checkpoint record with the runner's tree measurement. */
struct mr_spawn_ckpt {
	char name[64];
	unsigned long seq;
	uint64_t t_us;                 /* the record's t_us */
	uint64_t v[MR_SPAWN_NCKPT];   /* v[0] unused (t_us above) */
	uint64_t tree_rss_kb;
	uint64_t tree_pss_kb;
	uint64_t tree_private_dirty_kb;
	uint64_t tree_nproc;
	uint64_t cgroup_kb;  /* charge of the run's memory cgroup (what `free`
	                        sees the tree use, page cache and kernel memory
	                        included), or MR_SPAWN_NONE */
};

/* The fields of mr_spawn_ckpt_field a record must carry (bit i: field
 * i): what only the case knows cheaply.  The others the runner reads of
 * the case itself, and a record's are skipped. */
extern const unsigned long mr_spawn_ckpt_from_case;

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
	struct mr_spawn_ckpt *ckpts;
	size_t nckpts, capckpts;
	int bad_records;        /* records rejected */
	char bad_detail[160];   /* why the first one was */
	uint64_t cgroup_peak_kb; /* largest charge of the run's memory cgroup,
	                            or MR_SPAWN_NONE */
	int cgroup_v;            /* 1 or 2: the hierarchy used; 0: none */
	char cgroup_why[256];    /* why there was none ("" when there was) */
	int memcap_sampled;      /* MR_SPAWN_MEMCAP found by the sampler */
	int memcap_pressure;     /* ... the limit was pressure_kb's */
	int leftovers;           /* processes alive after the case ended (killed) */
	uint64_t log_dropped;    /* output bytes past MR_SPAWN_LOG_MAX, or
	                            lost to a failed write */
	int log_errno;           /* why writing the log failed, or 0 */
	uint64_t stopped_ms;     /* the runner stood still during the run
	                            (SIGSTOP, a suspended machine): its times
	                            are not the case's; 0: it did not */
};

/* Run the case once.  Returns 0 (whatever the case did: see res->out),
 * -EINTR when interrupted by SIGINT/SIGTERM (the case was killed and
 * reaped; res is incomplete), or -errno when the runner could not spawn
 * (pipe, fork, open the log) with a message printed.  A pressure_kb run
 * without a memory cgroup returns -ENOTSUP with the reason in
 * res->cgroup_why (nothing was run: the config is skipped). */
int mr_spawn_run(const struct mr_spawn_req *rq, struct mr_spawn_res *res);

void mr_spawn_res_free(struct mr_spawn_res *res);

/* The outcome word of runs.tsv (ok, failed, crashed, timeout, exec-failed,
 * skipped, bad-output, memory-cap) and its detail ("exit 1", "SIGSEGV",
 * "exceeded memory cap (64 MiB)", the skip reason read from the log's last
 * non-empty line, ...; "-" if none; "; killed 2 leftover processes"
 * appended when the case left some) into detail, with no tab or newline. */
const char *mr_spawn_describe(const struct mr_spawn_res *res, long timeout_ms,
			     const char *log_path, char *detail, size_t size);

#endif
