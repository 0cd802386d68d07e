/* marks: the checkpoints the runner takes itself, for a command that does
 * not speak the protocol (matrix/cmdcase.h, docs/command.md).
 *
 * "every": each so many ms of the command's time (--mark-every);
 * "match": when a line of its output matches a regular expression
 * (--mark-on; the line is logged as any other); "exit": always, once.  A
 * mark is read while the command runs (it is not stopped: the runner adds
 * measurement, not behaviour), with the figures a record of the name and
 * seq alone gets (measure.h).  The exit mark is measured live when the
 * command is still there at the end of the loop (killed at its deadline or
 * over its cap, or interrupted); when it exited by itself its memory is
 * gone, and the mark is its last sample's (t_ms, rss, vsz, the tree's RSS,
 * the cgroup's charge) with wait4's times, faults and high-water mark;
 * the figures a sample does not have are "-".  A note at the end of the
 * run's log says which.  Hooks of spawn.c and loop.c, called only when the
 * request has marks (not a public interface).
 */
#ifndef MR_MARKS_H
#define MR_MARKS_H

#include <regex.h>
#include <stdint.h>

#include "proc/loop.h"

/* The checkpoint names of the marks. */
#define MR_MARK_EVERY "every"
#define MR_MARK_MATCH "match"
#define MR_MARK_EXIT "exit"

/* What a run is asked to mark (borrowed by the request). */
struct mr_marks {
	uint64_t every_ms;   /* a mark "every" this often; 0: none */
	const regex_t *on;   /* a mark "match" at each matching output line;
	                        NULL: none */
};

/* After the fork: the marks' state in r->mk, the output tap and the
 * loop's tick (r->mark_tick: the "every" marks due) set. */
void mr_marks_begin(struct mr_run *r);

/* The loop has ended, the tree not yet killed nor reaped: the exit mark
 * when the command is still there to measure. */
void mr_marks_exit_live(struct mr_run *r);

/* Reaped (r->ru set): the exit mark from the last sample, unless taken
 * live. */
void mr_marks_exit_reaped(struct mr_run *r);

/* After the log is finished: the note of the exit mark, and the state
 * freed. */
void mr_marks_end(struct mr_run *r);

#endif
