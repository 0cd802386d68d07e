/* check: results directory vs expected/ — claims and baselines.
 *
 * Reads a results directory (results/read.h), the claims in
 * <expected>/<case>.claims and the baseline <expected>/<platform>/<case>.tsv,
 * and evaluates one verdict per claim, failed run, skipped config and
 * baseline row (verdict.h).  Nothing here prints: out/format.h's mr_fmt_check
 * prints the verdicts, out/bless.h's mr_bless what a blessing changes
 * (worked out by bless.h).  check/ uses nothing of out/: the options say
 * the format as out/format.h's enum mr_fmt, in an int.
 */
#ifndef MR_CHECK_H
#define MR_CHECK_H

#include <stdio.h>

#include "check/verdict.h"

struct mr_rd;
struct mr_casetab;

struct mr_check_opts {
	const char *results_dir;  /* a results directory written by run */
	const struct mr_rd *rd;   /* results_dir as the command read it
	                             (results/read.h), or NULL: read here */
	struct mr_casetab *tab;   /* the command's descriptions and claims
	                             (casetab.h) over cases_dir and
	                             expected_dir, or NULL: a table of the
	                             check's own */
	const char *expected_dir; /* usually "expected" */
	const char *cases_dir;    /* where the case binaries are, whose
	                             --describe lists the checkpoints a claim
	                             may name; NULL: not checked */
	const char *const *cases; /* NULL-terminated; NULL or empty: every case in runs.tsv */
	int verbose;              /* print every baseline row, not just changes */
	FILE *out;                /* where the verdict table goes */
	int format;               /* check: how the verdicts are printed
	                             (out/format.h's enum mr_fmt) */
	int color;                /* check, human format: colour the verdicts */
	int yes;                  /* bless: write without asking */
	int interactive;          /* bless: ask on stdin before writing */
};

/* Evaluate the claims and baselines of the results into vs (free it with
 * mr_vds_free).  Returns MR_OK (the verdicts are in vs, vs->status says
 * whether the check fails), or MR_USAGE on bad input (a message naming
 * file:line:column has been printed on stderr; vs is empty). */
int mr_check_eval(const struct mr_check_opts *o, struct mr_vds *vs);

/* The verdicts of baseline b (has_bl: it exists) over the configs of k
 * on one platform (evalbl.c): the host's (frag NULL) or the guest's of
 * pairs frag, whose rows are keyed without them (results/read.h,
 * mr_rd_plat_config).  Appended to vk. */
struct mr_rd_case;
struct mr_baseline;
void mr_check_baseline(struct mr_vd_case *vk, const struct mr_rd_case *k,
		       const struct mr_baseline *b, int has_bl, const char *frag);

#endif
