/* check: results directory vs expected/ — claims and baselines.
 *
 * Reads a results directory (results/read.h), the claims in
 * <expected>/<case>.claims and the baseline <expected>/<platform>/<case>.tsv,
 * and evaluates one verdict per claim, failed run, skipped config and
 * baseline row (verdict.h); format.h prints them.
 */
#ifndef MR_COMPARE_H
#define MR_COMPARE_H

#include <stdio.h>

#include "out/format.h"
#include "check/verdict.h"

struct mr_cmp_opts {
	const char *results_dir;  /* a results directory written by run */
	const char *expected_dir; /* usually "expected" */
	const char *cases_dir;    /* where the case binaries are, whose
	                             --describe lists the checkpoints a claim
	                             may name; NULL: not checked */
	const char *const *cases; /* NULL-terminated; NULL or empty: every case in runs.tsv */
	int verbose;              /* print every baseline row, not just changes */
	FILE *out;                /* where the verdict table goes */
	enum mr_fmt format;       /* check: how the verdicts are printed */
	int color;                /* check, human format: colour the verdicts */
	int yes;                  /* bless: write without asking */
	int interactive;          /* bless: ask on stdin before writing */
};

/* Evaluate the claims and baselines of the results into vs (free it with
 * mr_vds_free).  Returns MR_OK (the verdicts are in vs, vs->status says
 * whether the check fails), or MR_USAGE on bad input (a message naming
 * file:line:column has been printed on stderr; vs is empty). */
int mr_check_eval(const struct mr_cmp_opts *o, struct mr_vds *vs);

/* Compare and print the verdicts in o->format.  Returns MR_OK when nothing
 * regressed and no run failed, MR_FAILED otherwise, MR_USAGE on bad input
 * (a message naming file:line:column has been printed on stderr). */
int mr_check(const struct mr_cmp_opts *o);

/* Write <expected>/<platform>/<case>.tsv for each case in the results from
 * the medians, spreads and tolerances of its ok runs (configs with failed or
 * skipped runs are left out and said so).  First prints what changes
 * against the baseline there (rows moved beyond the old tolerance, new and
 * gone rows); with interactive and not yes it then asks on stdin, and
 * writes only on "y".  A baseline whose rows would not change is not
 * rewritten.  Returns MR_OK, or MR_USAGE on bad input / MR_FAILED when
 * something could not be written or the question was declined. */
int mr_bless(const struct mr_cmp_opts *o);

#endif
