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
#ifndef MR_SCHEDULE_H
#define MR_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "check/baseline.h"
#include "check/claims.h"
#include "proc/spawn.h"
#include "core/util.h"

/* Non-zero when the figures of a run of config cfg (canonical string) are
 * compared on time by a claim of cs or by a row of the baseline b (NULL:
 * none).  A reference selects a config when each key=value it names is
 * the config's. */
int mr_sched_timed(const struct mr_claims *cs, const struct mr_baseline *b, const char *cfg);

/* --- memory (-j) ---------------------------------------------------------
 *
 * Runs beside each other also share the machine's memory: two that each
 * fit may not fit together, and a machine-wide OOM kills whatever the
 * kernel picks.  So a run starts beside others only when the expected
 * peaks of those running plus its own fit in the memory available at the
 * start of the session (MemAvailable less a margin); a run under a cap
 * (--mem-cap, the pressure axis) is expected to take at most its cap.  A run alone always starts, too big for the machine or
 * not: that is what -j 1 would do.  A run whose peak is unknown (no
 * baseline row of its config or of any config of its case, no repeat of
 * it ended yet) is not held back: holding every such run alone would
 * serialise every first repeat of a platform with no baseline, and the
 * first repeat of any config of the case then gives the rest a figure. */

/* Environment variable replacing /proc/meminfo's MemAvailable (in kB) for
 * the tests; the margin is taken off it as off MemAvailable. */
#define MR_SCHED_MEM_ENV "MEMREPRO_MEM_AVAILABLE_KB"

/* The memory runs may take together, in kB: MemAvailable (or
 * MR_SCHED_MEM_ENV) less a tenth.  0 when unknown (no gate).  A bad
 * MR_SCHED_MEM_ENV is printed and -1 returned. */
long long mr_sched_mem_available(void);

/* The expected peak in kB of a run whose own figure is own_kb and whose
 * case's largest known figure (any config) is case_kb (0: unknown), under
 * a memory cap of cap_kb (--mem-cap or the pressure axis; 0: none): its
 * own, else its case's, never over the cap, the cap when both are
 * unknown. */
uint64_t mr_sched_mem_expect(uint64_t own_kb, uint64_t case_kb, uint64_t cap_kb);

/* Whether a run of expected peak want_kb (0: unknown) may start beside
 * nrunning runs of expected peaks running_kb in all, avail_kb available
 * (0: no gate).  1 when it may; 0 when not, with why written into
 * why[0..n-1] ("memory: expected 11.1 GiB beside 10.6 GiB running, 23.1
 * GiB available"). */
int mr_sched_mem_fits(uint64_t avail_kb, uint64_t running_kb, int nrunning,
		      uint64_t want_kb, char *why, size_t n);

/* A worker running one case. */
struct mr_sched_worker {
	pid_t pid;          /* 0: none */
	int fd;             /* read end of its pipe, or -1 once at EOF */
	struct strbuf buf;  /* what it wrote so far */
	int slot;           /* its slot on the session's board (proc/board.h) */
};

/* Fork a worker that runs rq (rq->tick is ignored: a worker draws no
 * progress), saying its CPU in slot of the session's board (no other
 * running worker's).  Returns 0, or -errno with a message printed. */
int mr_sched_start(struct mr_sched_worker *w, const struct mr_spawn_req *rq,
		   int slot);

/* Read what is waiting on w->fd.  Returns 1 at EOF (w->fd is then closed
 * and -1), 0 when more is to come, -errno on a read error. */
int mr_sched_read(struct mr_sched_worker *w);

/* After EOF: reap the worker and decode what it wrote into *res (owned by
 * the caller: mr_spawn_res_free) and mr_spawn_run's return value into
 * *rc.  Returns 0, or -EIO when the worker died without saying all (a
 * message naming it is printed). */
int mr_sched_finish(struct mr_sched_worker *w, int *rc, struct mr_spawn_res *res);

#endif
