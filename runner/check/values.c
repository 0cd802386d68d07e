/* values: the figures of a results directory read back — see values.h
 * (mr_rd_values and what goes with it: the ok runs' values of a
 * reference, why a config has none, the figures compare and trend
 * follow). */
#include "check/values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/baseline.h"
#include "check/stats.h"
#include "core/util.h"
#include "proc/machine.h"

const struct mr_rd_ck *
mr_rd_ck_row(const struct mr_rd_case *k, const struct mr_rd_run *r,
	     const char *name, long seq)
{
	const struct mr_rd_ck *best = NULL;
	int i;

	for (i = 0; i < r->nck; i++) {
		const struct mr_rd_ck *c = &k->ck[r->ck[i]];

		if (strcmp(c->name, name))
			continue;
		if (seq ? c->seq == seq : (!best || c->seq > best->seq))
			best = c;
	}
	return best;
}

/* Non-zero when the run alone shows the rest of the machine busy. */
static int
run_busy(const struct mr_rd_run *r, double *life)
{
	*life = r->m[MR_RM_WALL_MS] + (isnan(r->m[MR_RM_PAUSE_MS]) ? 0 : r->m[MR_RM_PAUSE_MS]);
	if (r->other_cpu_ms < 0 || isnan(*life))
		return 0;
	/* a short run whose load matters was watched longer (proc/machine.h);
	 * one whose load does not is judged as leniently */
	if (*life < MR_MACHINE_WINDOW_MS)
		*life = MR_MACHINE_WINDOW_MS;
	return (double)r->other_cpu_ms > *life / 4 + MR_RD_BUSY_SLACK_MS;
}

int
mr_rd_busy(const struct mr_rd_run *r)
{
	double life;

	return (!isnan(r->session_share) && r->session_share > MR_RD_BUSY_SHARE) ||
	       run_busy(r, &life);
}

char *
mr_rd_busy_why(const struct mr_rd_run *r)
{
	double life;

	if (run_busy(r, &life))
		return esprintf("other programs used %ld ms of CPU in the %.0f ms the run was watched",
				r->other_cpu_ms, life);
	return esprintf("other programs used %.0f %% of a CPU over the results' runs",
			100 * r->session_share);
}

/* Whether ref at config ci follows an allocator's clock (blclock.c):
 * then a busy machine's runs, which last longer, do not measure it.  A
 * claim's: the figures known to count the clock as much as the work
 * (jemalloc's and mimalloc's minflt).  A baseline row's: every figure
 * of such an allocator, which its clock moves by more than the row's
 * tolerance when a run is stretched (exited-arena, threads=1, jemalloc,
 * beside a busy CPU: rss_kb at "again" 17,340 KiB against 19,908 idle
 * and under jemalloc.dirty_decay_ms=-1; bench/flaky.sh, 2026-12-06). */
static int
clock_counts(const struct mr_rd_case *k, int ci, const struct mr_ref *ref)
{
	if (ref->pinned)
		return mr_bl_clocks_conf(&k->conf[ci]);
	return !ref->ckpt && mr_bl_clocked(&k->conf[ci], mr_run_metrics[ref->metric]);
}

/* The value of ref in one ok run, NAN when there is none. */
static double
run_value(const struct mr_rd_case *k, const struct mr_rd_run *r,
	  const struct mr_ref *ref)
{
	const struct mr_rd_ck *c;

	if (r->machine)
		return NAN;
	if ((r->overlap > 0 || r->stopped_ms > 0 || mr_rd_busy(r)) &&
	    mr_metric_is_time(ref->ckpt, ref->metric))
		return NAN;
	/* a figure that counts an allocator's clock is a time in disguise */
	if (mr_rd_busy(r) && clock_counts(k, r->cfg, ref))
		return NAN;
	/* a guest under emulation (guest/guest.h): its times are not figures */
	if (r->accel == MR_RD_TCG && mr_metric_is_time(ref->ckpt, ref->metric))
		return NAN;
	if (!ref->ckpt)
		return r->m[ref->metric];
	c = mr_rd_ck_row(k, r, ref->checkpoint, ref->seq);
	return c ? c->m[ref->metric] : NAN;
}

int
mr_rd_values(const struct mr_rd_case *k, int ci, const struct mr_ref *ref,
	     double **out)
{
	const struct mr_rd_cfg *c = &k->cfg[ci];
	int n = 0, i;

	*out = ecalloc(c->nrun + 1, sizeof **out);
	for (i = 0; i < c->nrun; i++) {
		const struct mr_rd_run *r = &k->run[c->run[i]];
		double v;

		if (r->outcome != MR_RD_OK)
			continue;
		v = run_value(k, r, ref);
		if (!isnan(v))
			(*out)[n++] = v;
	}
	mr_st_sort(*out, n);
	return n;
}

char *
mr_rd_nodata(const struct mr_rd_case *k, int ci, const struct mr_ref *ref)
{
	const struct mr_rd_cfg *c = &k->cfg[ci];
	const char *metric = ref->ckpt ? mr_ckpt_metrics[ref->metric]
				       : mr_run_metrics[ref->metric];
	int i;

	if (c->nok == 0) {
		for (i = 0; i < c->nrun; i++) {
			const struct mr_rd_run *r = &k->run[c->run[i]];

			if (r->outcome == MR_RD_SKIPPED)
				return esprintf("skipped: %s", r->detail);
		}
		for (i = 0; i < c->nrun; i++) {
			const struct mr_rd_run *r = &k->run[c->run[i]];

			if (strcmp(r->detail, "-"))
				return esprintf("%s: %s", mr_rd_outcomes[r->outcome],
						r->detail);
			return esprintf("%s", mr_rd_outcomes[r->outcome]);
		}
		return estrdup("no runs");
	}
	{
		const char *changed = NULL;
		int judged = 0;

		for (i = 0; i < c->nrun; i++) {
			const struct mr_rd_run *r = &k->run[c->run[i]];

			if (r->outcome != MR_RD_OK)
				continue;
			if (r->machine)
				changed = changed ? changed : r->machine;
			else
				judged++;
		}
		if (changed && !judged)
			return esprintf("not judged: the machine changed: %s", changed);
	}
	if (clock_counts(k, ci, ref)) {
		for (i = 0; i < c->nrun; i++) {
			const struct mr_rd_run *r = &k->run[c->run[i]];

			if (r->outcome == MR_RD_OK && !r->machine && !mr_rd_busy(r))
				break;
		}
		if (i == c->nrun && ref->pinned)
			return esprintf("%s follows the allocator's clock (its purge after a delay), measured on a busy machine: not pinned",
					metric);
		if (i == c->nrun)
			return esprintf("%s counts the allocator's clock as much as its work, measured on a busy machine: not judged",
					metric);
	}
	if (mr_metric_is_time(ref->ckpt, ref->metric)) {
		int alone = 0, beside = 0, stopped = 0, busy = 0, tcg = 0;
		const struct mr_rd_run *busy_run = NULL;

		for (i = 0; i < c->nrun; i++) {
			const struct mr_rd_run *r = &k->run[c->run[i]];

			if (r->outcome != MR_RD_OK || r->machine)
				continue;
			if (r->accel == MR_RD_TCG)
				tcg++;
			else if (r->stopped_ms > 0)
				stopped++;
			else if (r->overlap > 0)
				beside++;
			else if (mr_rd_busy(r)) {
				busy++;
				busy_run = r;
			} else
				alone++;
		}
		if (tcg && !alone && !beside && !busy && !stopped)
			return estrdup("emulated (TCG): times not judged");
		if (stopped && !alone && !beside && !busy)
			return esprintf("%s measured while the runner stood still (stopped or suspended): not a time of the case",
					metric);
		if (beside && !alone)
			return esprintf("%s measured beside other runs (-j): not a time of the case alone",
					metric);
		if (busy && !alone) {
			char *why = mr_rd_busy_why(busy_run);
			char *s = esprintf("%s measured on a busy machine (%s): not a time of the case alone",
					   metric, why);

			free(why);
			return s;
		}
	}
	if (ref->ckpt) {
		for (i = 0; i < c->nrun; i++) {
			const struct mr_rd_run *r = &k->run[c->run[i]];

			if (r->outcome == MR_RD_OK &&
			    mr_rd_ck_row(k, r, ref->checkpoint, ref->seq))
				return esprintf("%s not measured at checkpoint %s",
						metric, ref->checkpoint);
		}
		if (ref->seq)
			return esprintf("no checkpoint %s#%ld recorded", ref->checkpoint,
					ref->seq);
		return esprintf("no checkpoint %s recorded", ref->checkpoint);
	}
	return esprintf("%s not measured", metric);
}

int
mr_rd_ck_names(const struct mr_rd_case *k, int ci, const char ***names)
{
	int n = 0, i, j, l;

	*names = NULL;
	for (i = 0; i < k->nrun; i++) {
		const struct mr_rd_run *r = &k->run[i];

		if (r->outcome != MR_RD_OK || (ci >= 0 && r->cfg != ci))
			continue;
		for (j = 0; j < r->nck; j++) {
			const char *name = k->ck[r->ck[j]].name;

			for (l = 0; l < n; l++)
				if (!strcmp((*names)[l], name))
					break;
			if (l == n) {
				*names = erealloc(*names, sizeof **names * (size_t)(n + 1));
				(*names)[n++] = name;
			}
		}
	}
	return n;
}

char *
mr_rd_ref_name(const struct mr_ref *ref)
{
	if (!ref->ckpt)
		return estrdup(mr_run_metrics[ref->metric]);
	if (ref->seq)
		return esprintf("%s@%s#%ld", mr_ckpt_metrics[ref->metric],
				ref->checkpoint, ref->seq);
	return esprintf("%s@%s", mr_ckpt_metrics[ref->metric], ref->checkpoint);
}

int
mr_rd_figures(const struct mr_rd_case *k, int ci, struct mr_ref **refs)
{
	static const enum mr_run_metric run[] = {
		MR_RM_WALL_MS, MR_RM_USER_MS, MR_RM_SYS_MS, MR_RM_MAXRSS_KB, MR_RM_MINFLT,
	};
	const char **names;
	int nnames = mr_rd_ck_names(k, ci, &names), n = 0, i, m, nm = 0;
	size_t nrun = sizeof run / sizeof run[0];

	while (mr_bless_ckpt_metrics[nm])
		nm++;
	*refs = ecalloc(nrun + (size_t)nnames * nm + 1, sizeof **refs);
	for (i = 0; i < (int)nrun; i++)
		(*refs)[n++].metric = run[i];
	for (i = 0; i < nnames; i++) {
		for (m = 0; m < nm; m++) {
			struct mr_ref *r = &(*refs)[n++];

			r->ckpt = 1;
			r->metric = mr_ckpt_metric(mr_bless_ckpt_metrics[m]);
			r->checkpoint = (char *)names[i];
		}
	}
	free(names);
	return n;
}
