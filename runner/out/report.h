/* report: report.md and report.html of a results directory.
 *
 * From the results alone (nothing is rerun): the verdicts of the claims
 * and baselines (compare.h), every chart (charts.h) into DIR/plots/, and
 * one document written twice from the same walk: DIR/report.md (GitHub
 * markdown, images linked relative to it) and DIR/report.html (self-
 * contained: styles inline, images embedded as base64 data: URIs, so the
 * one file can be mailed or attached and opened from the file system).
 * The document: the environment, the verdict table, the allocator matrix,
 * then per case its title and source, each claim with the report's own
 * figure (its citation) beside the figure measured here, failed runs,
 * baseline rows that moved, and its charts.
 */
#ifndef MR_REPORT_H
#define MR_REPORT_H

#include <stdio.h>

struct mr_casetab;
struct mr_rd;

struct mr_report_opts {
	const char *results_dir;  /* a results directory written by run */
	const char *expected_dir; /* claims and baselines */
	const char *cases_dir;    /* case binaries, for their titles and
	                             sources (--describe); a case not found
	                             there is reported without them */
	const char *plots_dir;    /* the gnuplot scripts */
	const char *const *cases; /* NULL-terminated; NULL or empty: all */
	const struct mr_rd *rd;   /* results_dir already read, or NULL: the
	                             report reads it */
	struct mr_casetab *tab;   /* the command's descriptions and claims
	                             (check/casetab.h) over cases_dir and
	                             expected_dir, or NULL: the report's own */
	int verbose;              /* gnuplot command lines */
	FILE *out;                /* "wrote ..." lines */
};

/* Write the charts and both documents, then the summary line ("total:
 * ...", as check's) and the documents' paths to o->out.  Returns MR_OK
 * when everything was written and the status is passed; MR_FAILED when
 * the status is failed (as check: a claim or baseline row regressed, a
 * run failed; the documents are written all the same) or something was
 * not written (a chart gnuplot could not draw, no gnuplot: the documents
 * say so); MR_USAGE on bad input (printed as file:line:column). */
int mr_report(const struct mr_report_opts *o);

#endif
