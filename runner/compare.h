/* compare: results directory vs expected/ — claims and baselines.
 *
 * Reads runs.tsv, checkpoints.tsv and env.tsv of a results directory (see
 * docs/formats.md), the claims in <expected>/<case>.claims and the baseline
 * <expected>/<platform>/<case>.tsv, and prints one verdict per claim and
 * baseline row (rows that held are summarised unless verbose).
 */
#ifndef MR_COMPARE_H
#define MR_COMPARE_H

#include <stdio.h>

struct mr_cmp_opts {
	const char *results_dir;  /* a results directory written by run */
	const char *expected_dir; /* usually "expected" */
	const char *const *cases; /* NULL-terminated; NULL or empty: every case in runs.tsv */
	int verbose;              /* print every baseline row, not just changes */
	FILE *out;                /* where the verdict table goes */
};

/* Compare and print verdicts.  Returns MR_OK when nothing regressed and no
 * run failed, MR_FAILED otherwise, MR_USAGE on bad input (a message naming
 * file:line:column has been printed on stderr). */
int mr_check(const struct mr_cmp_opts *o);

/* Write <expected>/<platform>/<case>.tsv for each case in the results from
 * the medians, spreads and tolerances of its ok runs (configs with failed or
 * skipped runs are left out and said so).  Returns MR_OK, or MR_USAGE on
 * bad input / MR_FAILED when nothing could be written. */
int mr_bless(const struct mr_cmp_opts *o);

#endif
