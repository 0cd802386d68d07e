/* repcase: the report's section of one case (report.h): its title and
 * source, each claim with the report's own figure beside the one measured
 * here, the upgrade notes, failed runs, baseline rows that moved, and its
 * charts; and the verdict badge and chart image the whole report uses.
 */
#ifndef MR_REPCASE_H
#define MR_REPCASE_H

#include "check/verdict.h"
#include "out/doc.h"

/* A verdict word: loud when it fails or asks for attention. */
void mr_repcase_verdict(struct mr_doc *d, enum mr_vd_word w);

/* The counts of t in words ("3 held, 1 regressed"), bold when something
 * failed: what 0 the claims, 1 the baseline, 2 the runs. */
void mr_repcase_counts(struct mr_doc *d, const struct mr_vd_totals *t, int what);

/* A chart of the results (rel: its path without extension, relative to
 * the report), or a note that it was not drawn. */
void mr_repcase_image(struct mr_doc *d, const char *alt, const char *rel);

/* Case k of vs (results R): its heading, then (title, source from
 * --describe, NULL when unknown) the table of the report's figures, its
 * program's and the model's (out/figtab.h), its claims, upgrade notes, runs, baseline and charts. */
struct mr_rd;
void mr_repcase_write(struct mr_doc *d, const struct mr_vds *vs, const struct mr_rd *R,
		      const struct mr_vd_case *k, const char *title, const char *source);

#endif
