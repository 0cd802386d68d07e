/* plan: which runs of a session run where and how.
 *
 * Both plans are tables by case and config: t[i][k] for config k of
 * case i, as mr_matrix_build made the configs; arrays of ncases arrays
 * (mr_plan_free).
 *
 * The timed plan (-j N): which configs' times a claim or baseline
 * compares (schedule.h), so that those run alone and the others side by
 * side.  The shard plan (--shard K/N): which (case, config) pairs are
 * another shard's, split by expected cost (shard.h).  Each case's claims
 * come from the command's case table (check/casetab.h); each plan reads a
 * case's baseline once for all its configs and lets it go (plan.c says
 * why none is kept).
 */
#ifndef MR_PLAN_H
#define MR_PLAN_H

#include <stdint.h>

#include "proto/cases.h"
#include "matrix/envfp.h"
#include "matrix/matrix.h"

/* -j: *timed[i][k] non-zero when the times of config k of case i are
 * compared by its claims (read through tab) or the baseline of platform
 * (NULL: none) under tab's expected_dir.  Returns MR_OK, or MR_USAGE after printing what is
 * wrong with the expectations (*timed is set either way). */
struct mr_casetab;
int mr_plan_timed(const struct mr_cases_desc *cases, int ncases,
		  const struct mr_matrix *mats, struct mr_casetab *tab,
		  const char *platform, unsigned char ***timed);

/* --shard K/N: *skip[i][k] non-zero when config k of case i is another
 * shard's.  A pair's cost is its baseline's wall_ms where known, else the
 * mean of the known ones (1 when none is: then the split is by count,
 * round-robin over the pairs in case order).  Records shard, shard.plan,
 * shard.pairs and shard.cost in fp (whose "platform" names the
 * baselines).  Returns MR_OK (*skip set), or MR_USAGE after printing why
 * (*skip NULL). */
int mr_plan_shard(const struct mr_cases_desc *cases, int ncases,
		  const struct mr_matrix *mats, struct mr_casetab *tab,
		  int k, int n, struct mr_envfp *fp, unsigned char ***skip);

/* -j: *peak[i][k] the expected peak memory in kB of a run of config k of
 * case i: the largest of its baseline's maxrss_kb, peak_tree_rss_kb and
 * cgroup_peak_kb rows (their max, not their median: the plan is about the
 * worst a run took), 0 where the baseline of platform (NULL: none) has
 * none.  Returns MR_OK, or MR_USAGE after printing what is wrong with the
 * baseline (*peak is set either way: mr_plan_peaks_free). */
int mr_plan_peaks(const struct mr_cases_desc *cases, int ncases,
		  const struct mr_matrix *mats, struct mr_casetab *tab,
		  const char *platform, uint64_t ***peak);
void mr_plan_peaks_free(uint64_t **peak, int ncases);

/* Free a plan of ncases cases (NULL: nothing). */
void mr_plan_free(unsigned char **t, int ncases);

#endif
