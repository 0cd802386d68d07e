/* charts: the charts of a results directory (docs/formats.md, "Plots").
 *
 * Per case: the memory over time of every config as small multiples
 * (plots/series.gp, over <case>.series.tsv: the runs of the
 * directory's series.tsv and checkpoints.tsv, laid out) and the observed
 * medians against the baseline (plots/diff.gp); across the cases: the
 * allocator matrix (plots/allocators.gp).  Where gnuplot needs a figure
 * the runner computes (a median, a deviation, a ratio), the chart's
 * derived TSV is written next to its images, in the plots directory of
 * the results, with a header row and a "# producer" comment.  Images are
 * <case>.series.{png,svg}, <case>.diff.{png,svg} and
 * allocators.{png,svg}.
 *
 * Colours follow the config in the diff chart (config i of a case, in
 * order of appearance in runs.tsv, has colour i); in the series chart
 * they follow the values of the axes that are not panels, the same in
 * every panel.
 */
#ifndef MR_CHARTS_H
#define MR_CHARTS_H

#include "out/plot.h"
#include "check/values.h"
#include "check/verdict.h"

/* A sample of series.tsv: time (s); RSS, VSZ, the tree's RSS and the
 * memory cgroup's charge (KiB; NAN: not measured). */
struct mr_chart_pt {
	double t, rss, vsz, trss, cg;
};

/* What series.tsv holds of each run: parallel to each case's run[]. */
struct mr_chart_scan {
	int nk;          /* cases, as in the results */
	int *nrun;       /* [case] its runs */
	int **nsamples;  /* [case][run] samples */
	struct mr_chart_pt ***pt; /* [case][run] the samples, in file order */
	int **tree;      /* [case][run] largest tree_nproc sampled */
	double **tmax;   /* [case][run] time of the last sample, ms */
};

/* Read R's series.tsv strictly (tsv.h), once for every chart.  Returns 0, or -1 after printing
 * the problem as path:line:column.  Free s with mr_chart_scan_free. */
int mr_chart_scan(const struct mr_rd *R, struct mr_chart_scan *s);
void mr_chart_scan_free(struct mr_chart_scan *s);

/* The memory over time of case ki as small multiples (chseries.c): a
 * panel per value of fs->panels (allocator when NULL or fs is NULL),
 * the other axes as colours (the same in every panel), at most 4 in a
 * panel; every ok run with data, the one with the median peak of each
 * config drawn thick; checkpoints marked; LazyFree shaded under RSS and
 * the process tree's memory where the drawn runs have any.  x is
 * fs->xunit where the case's checkpoints are fs->xprefix<number> (a
 * checkpoint line), else time.  VSZ instead of RSS where fs's key figure
 * is vsz_kb.  fs: the case's figures file (NULL: none).  title: the
 * case's title, or NULL.  Writes <case>.series.tsv.  Returns 0 or -1
 * (printed). */
struct mr_figs;
int mr_chart_series(struct mr_plot *p, const struct mr_rd *R,
		    const struct mr_chart_scan *s, int ki, const struct mr_figs *fs,
		    const char *title, const char *outdir);

/* Observed vs baseline of case ki, from the baseline rows of its
 * verdicts vk: each row's deviation from the blessed median in units of
 * its tolerance, the repeats' spread, regressions ringed and labelled.
 * Writes <case>.diff.tsv.  Returns 0 or -1 (printed). */
int mr_chart_diff(struct mr_plot *p, const struct mr_rd *R, int ki,
		  const struct mr_vd_case *vk, const char *outdir);

/* The key figure of each case under each allocator relative to glibc:
 * the figure its figures file declares (figs[i] of case sel[i], NULL or
 * no key: rss_kb at the case's last checkpoint, peak_rss_kb for a case
 * without checkpoints), per config the ratio of medians to the config
 * that differs only in allocator=glibc, per cell the geometric mean of
 * those ratios, coloured by better (blue) or worse (red) than glibc.
 * Columns: glibc, then each allocator's versions old to new.  sel: the
 * cases (indices into R->k); figs may be NULL.  Writes allocators.tsv.
 * Returns 0 or -1 (printed). */
int mr_chart_allocators(struct mr_plot *p, const struct mr_rd *R,
			const int *sel, const struct mr_figs *const *figs, int nsel,
			const char *outdir);

/* The key figure of case k (fs: its figures file, or NULL) into *ref
 * (its checkpoint points into k or fs; "-" when the key names the last
 * checkpoint and none was recorded).  Returns 1 when lower is better,
 * 0 when higher is. */
int mr_chart_key_ref(const struct mr_rd_case *k, const struct mr_figs *fs, struct mr_ref *ref);

struct mr_figs;

/* "The report and here" of case ki: the figures of its report (fs, from
 * expected/<case>.figures) beside ours, per metric the report's panel
 * (in its unit) and ours (medians, the repeats' min..max, in MiB or s),
 * one colour per report config on both sides, on the report's axis
 * (plots/figures.gp; runner/out/chfig.c says which of our configs is
 * drawn for a report config).  Writes <case>.figures.tsv and the images.
 * Returns 0; 1 when fs has no figures (nothing drawn, and an earlier
 * report's <case>.figures.* removed); -1 (printed). */
int mr_chart_figures(struct mr_plot *p, const struct mr_rd *R, int ki,
		     const struct mr_figs *fs, const char *outdir);

#endif
