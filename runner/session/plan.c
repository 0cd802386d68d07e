/* plan: the timed plan (-j) and the shard plan (--shard) — see plan.h. */
#include "session/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/baseline.h"
#include "check/casetab.h"
#include "check/claims.h"
#include "session/schedule.h"
#include "matrix/shard.h"
#include "core/util.h"
#include "proto/schema.h"

/* The baseline of case name on platform (expected_dir/platform/name.tsv
 * of tab's expected_dir), read now and freed by the caller
 * (mr_baseline_free) when 0: each plan reads a case's baseline once and
 * lets it go.  Not kept for the session: every case's run is forked from
 * the runner, and a process's peak RSS (ru_maxrss) keeps the high-water
 * mark of the memory it had before its exec, the runner's; the corpus's
 * baselines held at once made the smallest cases' peaks 8 MiB larger.
 * Returns mr_baseline_read's return; -ENOENT without a platform. */
static int
case_baseline(const struct mr_casetab *tab, const char *name, const char *platform,
	      struct mr_baseline *b)
{
	char *path;
	int rc;

	if (!tab->expected_dir || !platform)
		return -ENOENT;
	path = esprintf("%s/%s/%s.tsv", tab->expected_dir, platform, name);
	rc = mr_baseline_read(path, b);
	free(path);
	return rc;
}

int
mr_plan_timed(const struct mr_cases_desc *cases, int ncases,
	      const struct mr_matrix *mats, struct mr_casetab *tab,
	      const char *platform, unsigned char ***timed)
{
	unsigned char **t = ecalloc((size_t)ncases + 1, sizeof *t);
	int i, k, rc = MR_OK;

	*timed = t;
	/* every row, even after an error: the session may go on without
	 * -j (session.c) */
	for (i = 0; i < ncases; i++)
		t[i] = ecalloc((size_t)mats[i].n + 1, 1);
	for (i = 0; i < ncases && rc == MR_OK; i++) {
		const struct mr_claims *cs;
		struct mr_baseline b;
		int crc = mr_casetab_claims(tab, cases[i].name, &cs), brc = -ENOENT;

		if ((crc < 0 && crc != -ENOENT) ||
		    (brc = case_baseline(tab, cases[i].name, platform, &b)) == -1)
			rc = MR_USAGE;
		for (k = 0; k < mats[i].n && rc == MR_OK; k++)
			t[i][k] = mr_sched_timed(cs, brc == 0 ? &b : NULL, mats[i].cfg[k].canon) != 0;
		if (brc == 0)
			mr_baseline_free(&b);
	}
	return rc;
}

/* The expected cost of each config of case c, into cost[]: the median
 * wall_ms its baseline records for the config, in its cost row (bless
 * writes them, baseline.h) or else in a hand-written wall_ms row; 0 where
 * it has neither (unknown).  Returns 0, or -1 on a bad baseline (printed). */
static int
shard_costs(struct mr_casetab *tab, const char *platform,
	    const struct mr_cases_desc *c, const struct mr_matrix *m, double *cost)
{
	struct mr_baseline bl;
	const struct mr_baseline *b = &bl;
	int rc = case_baseline(tab, c->name, platform, &bl), i, k;

	memset(cost, 0, (size_t)m->n * sizeof *cost);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return -1;
	for (i = 0; i < b->nrow; i++) {
		if (b->row[i].checkpoint || strcmp(mr_bl_metric(&b->row[i]), "wall_ms") != 0)
			continue;
		for (k = 0; k < m->n; k++)
			if (strcmp(m->cfg[k].canon, b->row[i].config) == 0 && b->row[i].median > 0)
				cost[k] = b->row[i].median;
	}
	for (k = 0; k < m->n; k++) {
		const struct mr_bl_cost *bc = mr_baseline_cost(b, m->cfg[k].canon);

		if (bc && bc->median > 0)
			cost[k] = bc->median;
	}
	mr_baseline_free(&bl);
	return 0;
}

/* The cost of every pair (n in all), in case order, into cost[]: the
 * baselines' where known, else the mean of the known ones, else 1.
 * Returns how many were known, or -1 on a bad baseline (printed). */
static int
pair_costs(const struct mr_cases_desc *cases, int ncases,
	   const struct mr_matrix *mats, struct mr_casetab *tab,
	   const char *platform, double *cost, int n)
{
	double known = 0;
	int i, p, nknown = 0;

	for (i = 0, p = 0; i < ncases; p += mats[i].n, i++)
		if (platform && shard_costs(tab, platform, &cases[i], &mats[i], cost + p) < 0)
			return -1;
	for (p = 0; p < n; p++)
		if (cost[p] > 0) {
			known += cost[p];
			nknown++;
		}
	for (p = 0; p < n; p++)
		if (cost[p] <= 0)
			cost[p] = nknown ? known / nknown : 1;
	return nknown;
}

int
mr_plan_shard(const struct mr_cases_desc *cases, int ncases,
	      const struct mr_matrix *mats, struct mr_casetab *tab,
	      int shard_k, int shard_n, struct mr_envfp *fp, unsigned char ***skip)
{
	const char *platform = mr_envfp_get(fp, MR_ENVK_PLATFORM);
	unsigned char **s;
	double *cost;
	int *bin, i, k, n = 0, p, nknown, mine = 0;
	uint64_t h = MR_SHARD_HASH0;
	char buf[64];

	*skip = NULL;
	for (i = 0; i < ncases; i++)
		n += mats[i].n;
	cost = ecalloc((size_t)n + 1, sizeof *cost);
	bin = ecalloc((size_t)n + 1, sizeof *bin);
	nknown = pair_costs(cases, ncases, mats, tab, platform, cost, n);
	if (nknown < 0) {
		free(cost);
		free(bin);
		return MR_USAGE;
	}
	mr_shard_plan(cost, n, shard_n, bin);
	s = ecalloc((size_t)ncases + 1, sizeof *s);
	for (i = 0, p = 0; i < ncases; i++) {
		s[i] = ecalloc((size_t)mats[i].n + 1, 1);
		for (k = 0; k < mats[i].n; k++, p++) {
			s[i][k] = bin[p] != shard_k;
			mine += !s[i][k];
			h = mr_shard_hash(h, cases[i].name, mats[i].cfg[k].canon, bin[p]);
		}
	}
	*skip = s;
	snprintf(buf, sizeof buf, "%d/%d", shard_k, shard_n);
	mr_envfp_add(fp, MR_ENVK_SHARD, buf);
	snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
	mr_envfp_add(fp, MR_ENVK_SHARD_PLAN, buf);
	snprintf(buf, sizeof buf, "%d/%d", mine, n);
	mr_envfp_add(fp, MR_ENVK_SHARD_PAIRS, buf);
	snprintf(buf, sizeof buf, "%s", !nknown ? "count" : nknown == n ? "baseline wall_ms" :
		 "baseline wall_ms, else their mean");
	mr_envfp_add(fp, MR_ENVK_SHARD_COST, buf);
	free(cost);
	free(bin);
	return MR_OK;
}

/* Whether baseline row r is of a peak of the run's memory. */
static int
peak_row(const struct mr_bl_row *r)
{
	const char *m = mr_bl_metric(r);

	return !r->checkpoint && (strcmp(m, "maxrss_kb") == 0 ||
				  strcmp(m, "peak_tree_rss_kb") == 0 ||
				  strcmp(m, "cgroup_peak_kb") == 0);
}

/* The expected peaks of case c's configs from its baseline, into pk[]. */
static int
case_peaks(struct mr_casetab *tab, const char *name, const char *platform,
	   const struct mr_matrix *m, uint64_t *pk)
{
	struct mr_baseline bl;
	const struct mr_baseline *b = &bl;
	int rc = case_baseline(tab, name, platform, &bl), i, k;

	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return -1;
	for (i = 0; i < b->nrow; i++)
		for (k = 0; k < m->n && peak_row(&b->row[i]); k++)
			if (strcmp(m->cfg[k].canon, b->row[i].config) == 0 &&
			    b->row[i].max > (double)pk[k])
				pk[k] = (uint64_t)b->row[i].max;
	mr_baseline_free(&bl);
	return 0;
}

int
mr_plan_peaks(const struct mr_cases_desc *cases, int ncases,
	      const struct mr_matrix *mats, struct mr_casetab *tab,
	      const char *platform, uint64_t ***peak)
{
	uint64_t **p = ecalloc((size_t)ncases + 1, sizeof *p);
	int i, rc = MR_OK;

	*peak = p;
	for (i = 0; i < ncases; i++) {
		p[i] = ecalloc((size_t)mats[i].n + 1, sizeof **p);
		if (platform && rc == MR_OK &&
		    case_peaks(tab, cases[i].name, platform, &mats[i], p[i]) < 0)
			rc = MR_USAGE;
	}
	return rc;
}

void
mr_plan_peaks_free(uint64_t **peak, int ncases)
{
	int i;

	for (i = 0; peak && i < ncases; i++)
		free(peak[i]);
	free(peak);
}

void
mr_plan_free(unsigned char **t, int ncases)
{
	int i;

	for (i = 0; t && i < ncases; i++)
		free(t[i]);
	free(t);
}
