/* stats: the few statistics memrepro needs over repeats and histories.
 *
 * Medians (what every comparison is made of), a two-sided Mann-Whitney U
 * test (compare: is a change beyond the noise of the repeats?) and a
 * change-point search on a sequence of medians (trend: where did a figure
 * step?).  Pure functions of their arguments; no I/O.
 */
#ifndef MR_STATS_H
#define MR_STATS_H

/* Median of v[0..n-1] (the mean of the two middle values for an even n);
 * n > 0.  Sorts v ascending in place. */
double mr_st_median(double *v, int n);

/* Sort v[0..n-1] ascending. */
void mr_st_sort(double *v, int n);

/* Two-sided p-value of the Mann-Whitney U test that a[0..na-1] and
 * b[0..nb-1] come from the same distribution (na, nb > 0).  Ties get mid
 * ranks.  Exact (counting every arrangement) when no value of a equals
 * one of b (ties within a sample do not change U) and na + nb <= 24,
 * else the normal approximation with the tie correction and a continuity
 * correction.  Does not modify a or b. */
double mr_st_mwu_p(const double *a, int na, const double *b, int nb);

/* The smallest two-sided p-value the exact test can reach with na and nb
 * values (2 / C(na + nb, na)): below 0.05 only from 4 against 4 on. */
double mr_st_mwu_min_p(int na, int nb);

/* The level compare and trend call a change at. */
#define MR_ST_ALPHA 0.05

/* Are na against nb repeats enough for any change to be called at level
 * alpha: can the most extreme arrangement (every value of one side above
 * every value of the other) be rarer than alpha when nothing changed?
 * Its chance is mr_st_mwu_min_p(na, nb), whatever the test that looks at
 * it (the rank test, or a band that the two sides' ranges do not
 * overlap): 1 against 1 is 1, 3 against 3 is 0.1; 4 against 4 (0.029),
 * 3 against 5 (0.036) and 2 against 8 (0.044) are the fewest at 0.05. */
int mr_st_enough(int na, int nb, double alpha);

/* The smallest change of a median that compare and trend report, for a
 * metric (by the suffix of its name) at level: memory (*_kb) 3 % of the
 * level and at least 1024 kB (PSS alone moves by 800 kB when other processes map the same libraries), time (*_ms) 10 % and 30 ms, counts 10 % and
 * 100.  Below it a change is never news, however steady the repeats:
 * a page, a tick, a sampled peak. */
double mr_st_min_change(const char *metric, double level);

/* One step found in a sequence. */
struct mr_st_step {
	int at;        /* index of the first value after the step */
	double before; /* median of the segment before it */
	double after;  /* median of the segment after it */
};

/* Change points of m[0..n-1] by binary segmentation: in a segment
 * [lo, hi), of the splits at that enough(lo, at, hi, ctx) allows (NULL:
 * all), the one that maximises |median(right) - median(left)| (the first
 * of equals) is a step when that shift exceeds threshold(median(left),
 * ctx); the search then recurses into both sides.  Stores at most max
 * steps in steps[], ordered by index, and returns how many it found. */
int mr_st_steps(const double *m, int n,
		double (*threshold)(double level, void *ctx),
		int (*enough)(int lo, int at, int hi, void *ctx), void *ctx,
		struct mr_st_step *steps, int max);

#endif
