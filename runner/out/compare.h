/* compare: two results directories compared (memrepro compare OLD NEW).
 *
 * Per case, config, checkpoint and metric that both have (the figures
 * bless records: docs/formats.md, "What bless writes"), the medians over
 * the ok repeats, the change in percent, and whether it is beyond the
 * noise of the repeats:
 * a two-sided Mann-Whitney U test at p < 0.05 (stats.h; exact without
 * ties), only where the repeats of both sides can reach it
 * (mr_st_enough: 4 against 4, 3 against 5...; 3 against 3 and 1 against
 * 1 are "not compared"), and only when the medians differ by more than the
 * metric's smallest change (stats.h: memory 3 % and 1024 kB, time 10 % and
 * 30 ms, counts 10 % and 100), so that a page or a tick is never news.
 * What the two sides ran under is printed first (runenv.h).  Everything is written to
 * OUT/compare.tsv, the changes beyond noise printed, and the per-case
 * chart OUT/<case>.compare.{png,svg} drawn (plots/compare.gp).
 */
#ifndef MR_COMPARE_H
#define MR_COMPARE_H

#include <stdio.h>

struct mr_compare_opts {
	const char *old_dir;   /* results before */
	const char *new_dir;   /* results after */
	const char *out_dir;   /* table and charts; NULL: NEW/compare */
	const char *plots_dir; /* the gnuplot scripts; NULL: no charts */
	double fail_on;        /* fail when worse beyond noise by more than
	                          this many percent; < 0: never */
	int verbose;           /* print every row, not only the changes */
	int color;             /* colour "worse" / "better" */
	FILE *out;
};

/* Compare and print.  Returns MR_OK; MR_FAILED when fail_on >= 0 and some
 * figure got worse beyond the noise by more than fail_on percent (or a
 * chart could not be drawn); MR_USAGE on bad input (printed as
 * file:line:column). */
int mr_compare(const struct mr_compare_opts *o);

#endif
