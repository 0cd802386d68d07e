/* trend: many results directories in time order (memrepro trend DIR...).
 *
 * The directories are ordered by the "started" time their env.tsv
 * records (the order given for equal or missing times).  Per case, config,
 * checkpoint and metric (the figures bless records) the median of each
 * directory makes a series; its step changes are found by binary
 * segmentation on the medians (stats.h: the split with the largest shift
 * of the median, kept when the shift exceeds the noise threshold
 * max(3 x the median range of the repeats, mr_st_min_change of the level
 * before), then both sides searched again; only splits whose repeats on
 * each side pass mr_st_enough, a series with none "not compared").
 * Prints first what the directories ran under (runenv.h).  Writes
 * OUT/trend.tsv
 * (every point, steps marked) and per case OUT/<case>.trend.{png,svg}
 * (plots/trend.gp: the key figures, one line per config, steps ringed),
 * and prints every step.
 */
#ifndef MR_TREND_H
#define MR_TREND_H

#include <stdio.h>

struct mr_trend_opts {
	const char *const *dirs; /* results directories, at least 2 */
	int ndirs;
	const char *out_dir;     /* NULL: ./trend; never one of dirs or
	                            inside one (MR_USAGE) */
	const char *expected_dir; /* the cases' figures files (their key
	                            figure and panel axis); NULL: none */
	const char *plots_dir;   /* the gnuplot scripts; NULL: no charts */
	int verbose;             /* print every series, not only steps */
	FILE *out;
};

/* Returns MR_OK, MR_FAILED (a chart could not be drawn), or MR_USAGE on
 * bad input (printed as file:line:column). */
int mr_trend(const struct mr_trend_opts *o);

#endif
