/* loop: one run while its case runs, for spawn.c (not a public interface).
 *
 * The poll loop: it samples the case's tree every interval into the
 * series, enforces the deadline and the memory cap, moves the case's
 * output to its log and its checkpoint records to the record reader (whose
 * callbacks spawn.c sets), until the case ends.
 */
#ifndef MR_LOOP_H
#define MR_LOOP_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "proto/record.h"
#include "proc/cgroup.h"
#include "proc/log.h"
#include "proc/spawntypes.h"

struct mr_machine_watch;

struct mr_marks_run;

/* State of one run while it is going on. */
struct mr_run {
	const struct mr_spawn_req *rq;
	struct mr_spawn_res *res;
	pid_t pid;
	uint64_t t0;        /* fork time, ns */
	struct mr_record_reader rd; /* the checkpoint channel's lines */
	unsigned long nrec; /* records seen, good or bad */
	pid_t *tree;        /* MR_TREE_MAX scratch pids */
	unsigned long long since; /* the case's start, clock ticks after boot */
	uint64_t pause_ns;  /* the case stood still at its checkpoints: from
	                       our read of each record to its ack */
	uint64_t got_ns;    /* when the read of records under way began
	                       (0: none is: the case waits for no ack) */
	int status_fd;      /* the case's /proc/PID/status, open from its
	                       first checkpoint (proc/measure.c), or -1 */
	unsigned long *seen; /* records kept per checkpoint the case declares
	                        (rq->c's order): the next seq of each */
	struct mr_cgroup cg; /* the run's memory cgroup (cg.v 0: none) */
	uint64_t limit_kb;  /* its limit: the lower of cap and pressure, or 0 */
	int memcap;         /* went over its limit: killed */
	int timed_out;      /* killed at the deadline */
	struct mr_log log;  /* the case's output */
	int devnull, outp[2], ckpt[2], ackp[2], errp[2], pidfd; /* -1: closed */
	int ckpt_open, out_open; /* the pipe has not reached EOF */
	uint64_t gap;       /* the longest the loop stood still, ns */
	int st;             /* the case's wait status */
	struct rusage ru;   /* and its rusage */
	struct mr_marks_run *mk; /* a command's marks (proc/marks.h), or NULL */
	void (*mark_tick)(struct mr_run *r, uint64_t now); /* their tick
	                                   (set by proc/marks.c), or NULL */
	struct mr_machine_watch *mw; /* the machine under the run, or NULL */
	char *scratch;      /* its TMPDIR (proc/scratch.h), or NULL */
	char *tmpvar;       /* "TMPDIR=" and it, in the case's environment */
};

/* Run the loop of r (forked, its exec done).  Returns 0 when the case
 * ended, timed out (r->timed_out) or went over its memory cap
 * (r->memcap); -EINTR when the runner was interrupted.  Whatever ended
 * it, the case is not reaped yet: mr_tree_end kills the tree after this. */
int mr_run_loop(struct mr_run *r);

/* Non-zero when the kernel has OOM-killed in the run's limited cgroup. */
int mr_run_oom_struck(const struct mr_run *r);

/* Append row to the run's checkpoints (spawn.c; a command's marks too). */
void mr_run_keep(struct mr_run *r, const struct mr_record *row);

#endif
