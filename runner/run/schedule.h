/* schedule: which runs may share the machine (-j N), and the worker that
 * runs a case in a child process of the runner so that several run at
 * once.
 *
 * A run's memory figures are its own whatever else runs: RSS, LazyFree,
 * faults and its memory cgroup's charge count its pages only, on a machine
 * with memory to spare (PSS moves by the few hundred kB of library pages it
 * shares with the others, inside the baselines' floors).  Its times are
 * not: two runs on two cores contend for caches, memory bandwidth and the
 * kernel's locks, and past the number of cores for the CPU itself.  So a
 * run is "timed" when its figures of time are compared (a claim of its
 * case names a time metric in a reference that selects its config, or its
 * baseline checks a time of its config): timed runs run alone, the others
 * up to N at once.  runs.tsv's overlap column says how many other runs
 * shared each run's lifetime, and the results reader drops the times of a
 * run that had company, so no time comparison ever sees one.
 *
 * A worker is a fork of the runner (no exec) that becomes a child subreaper
 * itself, so that the case and its orphans are its only descendants, runs
 * mr_spawn_run, and writes the whole mr_spawn_res back on a pipe: the
 * runner alone writes the results directory.
 */
#ifndef MR_SCHED_H
#define MR_SCHED_H

#include <sys/types.h>

#include "check/claims.h"
#include "run/spawn.h"
#include "core/util.h"

/* Non-zero when the figures of a run of config cfg (canonical string) are
 * compared on time by a claim of cs or by a row of the baseline at
 * baseline_path (absent: none; unreadable or bad: the error is printed and
 * -1 returned).  A reference selects a config when each key=value it names
 * is the config's. */
int mr_sched_timed(const struct mr_claims *cs, const char *baseline_path,
		   const char *cfg);

/* A worker running one case. */
struct mr_sched_worker {
	pid_t pid;          /* 0: none */
	int fd;             /* read end of its pipe, or -1 once at EOF */
	struct strbuf buf;  /* what it wrote so far */
};

/* Fork a worker that runs rq (rq->tick is ignored: a worker draws no
 * progress).  Returns 0, or -errno with a message printed. */
int mr_sched_start(struct mr_sched_worker *w, const struct mr_spawn_req *rq);

/* Read what is waiting on w->fd.  Returns 1 at EOF (w->fd is then closed
 * and -1), 0 when more is to come, -errno on a read error. */
int mr_sched_read(struct mr_sched_worker *w);

/* After EOF: reap the worker and decode what it wrote into *res (owned by
 * the caller: mr_spawn_res_free) and mr_spawn_run's return value into
 * *rc.  Returns 0, or -EIO when the worker died without saying all (a
 * message naming it is printed). */
int mr_sched_finish(struct mr_sched_worker *w, int *rc, struct mr_spawn_res *res);

#endif
