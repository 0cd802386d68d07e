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
 * The parts: proc/self.h (the runner's own process: init, signals, ASLR),
 * proc/env.h (the case's environment), proc/child.h (between fork and exec),
 * proc/loop.h (the poll and sample loop), proc/tree.h (the process tree:
 * what may be signalled), proc/log.h (the case's output), proto/record.h
 * (the checkpoint records); proc/spawntypes.h has what a run is asked and
 * what it gives, which the loop shares.  A helper that is not measured (--describe, a
 * probe) runs through proc/capture.h.
 *
 * Not thread-safe; one run at a time.
 */
#ifndef MR_SPAWN_H
#define MR_SPAWN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/util.h"
#include "proto/schema.h"
#include "proc/env.h"
#include "proc/self.h"
#include "proc/spawntypes.h"

/* Run the case once.  Returns 0 (whatever the case did: see res->out),
 * -EINTR when interrupted by SIGINT/SIGTERM (the case was killed and
 * reaped; res is incomplete), or -errno when the runner could not spawn
 * (pipe, fork, open the log) with a message printed.  A pressure_kb run
 * without a memory cgroup returns -ENOTSUP with the reason in
 * res->cgroup_why (nothing was run: the config is skipped). */
int mr_spawn_run(const struct mr_spawn_req *rq, struct mr_spawn_res *res);

void mr_spawn_res_free(struct mr_spawn_res *res);

/* The outcome of runs.tsv (ok, failed, crashed, timeout, exec-failed,
 * skipped, bad-output, memory-cap; its word is mr_outcomes[]) and its detail ("exit 1", "SIGSEGV",
 * "exceeded memory cap (64 MiB)", the skip reason read from the log's last
 * non-empty line, ...; "-" if none; "; killed 2 leftover processes"
 * appended when the case left some) into detail, with no tab or newline. */
enum mr_outcome mr_spawn_describe(const struct mr_spawn_res *res, long timeout_ms,
				  const char *log_path, char *detail, size_t size);

#endif
