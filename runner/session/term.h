/* term: what the runner shows while it runs, and whether to colour.
 *
 * On a terminal, one progress line rewritten in place ("\r", then erase to
 * the end of the line): the case, config and repeat running now, how many
 * runs are done, the time elapsed and an estimate of the time left (the
 * mean time of the runs done so far, times the runs left).  A run that did
 * not end ok is printed as a line of its own above it.  Not on a terminal
 * (a log, a pipe, CI): one plain line per run, nothing rewritten.  Quiet:
 * only the runs that did not end ok.
 *
 * Colours (ANSI) only on a terminal, never when NO_COLOR is set to
 * anything non-empty (https://no-color.org) or TERM is "dumb".
 */
#ifndef MR_TERM_H
#define MR_TERM_H

#include <stdint.h>
#include <stdio.h>

#include "results/write.h"

struct mr_term {
	FILE *f;           /* where progress goes */
	int live;          /* f is a terminal and not quiet: rewrite one line */
	int quiet;         /* only runs that did not end ok */
	int total;         /* runs to do */
	int done;          /* runs done */
	int nfailed;       /* ... that failed (mr_term_failing) */
	int nskipped;      /* ... whose outcome is "skipped" */
	uint64_t t0;       /* when the first run started (ns, monotonic) */
	uint64_t tdone;    /* time spent in the runs done (ns) */
	uint64_t trun;     /* when the current run started (ns) */
	uint64_t tdraw;    /* when the line was last drawn (ns) */
	int shown;         /* a progress line is on the screen */
	int par;           /* runs side by side: time left from the elapsed */
	char now[320];     /* "fiber-stacks madvise=free #1/3" */
};

/* Non-zero when output to f may be coloured. */
int mr_term_color(FILE *f);

/* Start showing the progress of total runs on f. */
void mr_term_init(struct mr_term *t, FILE *f, int total, int quiet);

/* A run starts. */
void mr_term_start(struct mr_term *t, const char *casename, const char *shortc,
		   int repeat, int nrepeat);

/* Redraw the live line (at most 4 times a second); for spawn's tick. */
void mr_term_tick(void *t);

/* Non-zero when a run of outcome o failed: it neither ended ok nor was
 * skipped. */
int mr_term_failing(enum mr_outcome o);

/* A run ended: its line (see the top), counted in the totals by its
 * outcome, the one runs.tsv records (mr_term_failing). */
void mr_term_end(struct mr_term *t, const struct mr_results_run *run,
		 const char *shortc, int nrepeat);

/* Runs go side by side (on) or one at a time (off): the time left is
 * then estimated from the time elapsed per run done, not from the time
 * of each run. */
void mr_term_parallel(struct mr_term *t, int on);

/* Take the live line off the screen before other output (no-op when not
 * live); the next start or tick draws it again. */
void mr_term_clear(struct mr_term *t);

/* Clear the live line and print "36 runs in 41.2 s: 36 ok, 0 failed". */
void mr_term_finish(struct mr_term *t);

#endif
