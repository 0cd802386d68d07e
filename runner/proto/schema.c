/* schema: the tables of schema.h as strings. */
#include "proto/schema.h"

#include <stdio.h>
#include <string.h>

#define X_NAME(id, name) name,
#define X_NAME4(id, name, key, rec) name,
#define X_KEY4(id, name, key, rec) key,

const char *const mr_run_metrics[MR_NRUN_METRICS] = {
	MR_RUN_METRIC_TABLE(X_NAME)
};

const char *const mr_ckpt_metrics[MR_NCKPT_METRICS] = {
	MR_CKPT_METRIC_TABLE(X_NAME4)
};

const char *const mr_ckpt_keys[MR_NCKPT_METRICS] = {
	MR_CKPT_METRIC_TABLE(X_KEY4)
};

const char *const mr_runs_cols[MR_RUNS_NCOLS] = {
	MR_RUNS_COL_TABLE(X_NAME)
};

const char *const mr_ckpts_cols[MR_CKPTS_NCOLS] = {
	MR_CKPTS_LEAD_TABLE(X_NAME)
	MR_CKPT_METRIC_TABLE(X_NAME4)
};

const char *const mr_series_cols[MR_SERIES_NCOLS] = {
	MR_SERIES_COL_TABLE(X_NAME)
};

const char *const mr_outcomes[MR_NOUTCOMES] = {
	MR_OUTCOME_TABLE(X_NAME)
};

const char *const mr_profiles[MR_NPROFILES] = {
	MR_PROFILE_TABLE(X_NAME)
};

/* The metrics with a record key come first (mr_ckpt_keys[0..MR_NCKPT_KEYS-1]),
 * and the bit masks of MR_CKPT_KEYS_MUST fit an unsigned long. */
#define X_FIRST(id, name, key, rec)                                          \
	_Static_assert((rec) == MR_REC_NONE || (int)MR_CK_##id < (int)MR_NCKPT_KEYS,  \
		       name ": the metrics with a record key come first");
MR_CKPT_METRIC_TABLE(X_FIRST)
_Static_assert(MR_NCKPT_METRICS <= 32, "MR_CKPT_KEYS_MUST is a bit mask");
/* MR_RUNS_METRIC_COL and MR_CKPTS_METRIC_COL: the metrics are contiguous. */
_Static_assert((int)MR_RUNS_CGROUP_PEAK_KB == (int)MR_RUNS_METRIC_COL(MR_RM_CGROUP_PEAK_KB),
	       "run metrics are contiguous in runs.tsv");
_Static_assert((int)MR_CKPTS_CGROUP_KB == (int)MR_CKPTS_METRIC_COL(MR_CK_CGROUP_KB),
	       "checkpoint metrics are contiguous in checkpoints.tsv");

static int
lookup(const char *const *v, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return i;
	return -1;
}

int
mr_run_metric(const char *name)
{
	return lookup(mr_run_metrics, MR_NRUN_METRICS, name);
}

int
mr_ckpt_metric(const char *name)
{
	return lookup(mr_ckpt_metrics, MR_NCKPT_METRICS, name);
}

enum mr_unit
mr_metric_unit(const char *name)
{
	size_t n = strlen(name);

	if (n > 3 && strcmp(name + n - 3, "_kb") == 0)
		return MR_UNIT_KB;
	if (n > 3 && strcmp(name + n - 3, "_ms") == 0)
		return MR_UNIT_MS;
	return MR_UNIT_COUNT;
}

int
mr_metric_is_time(int ckpt, int metric)
{
	return mr_metric_unit(ckpt ? mr_ckpt_metrics[metric] : mr_run_metrics[metric]) ==
	       MR_UNIT_MS;
}

int
mr_outcome(const char *word)
{
	return lookup(mr_outcomes, MR_NOUTCOMES, word);
}

const char *
mr_outcome_list(void)
{
#define X_LIST(id, word) ", " word
	static const char list[] = "" MR_OUTCOME_TABLE(X_LIST);
#undef X_LIST

	return list + 2;
}

int
mr_profile(const char *word)
{
	return lookup(mr_profiles, MR_NPROFILES, word);
}

const char *
mr_profile_list(void)
{
	static char list[128];
	size_t n = 0;
	int i;

	if (!list[0])
		for (i = 0; i < MR_NPROFILES; i++)
			n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
					      !i ? "" : i == MR_NPROFILES - 1 ? " or " : ", ",
					      mr_profiles[i]);
	return list;
}

enum mr_profile
mr_profile_of(int quick, int versions, int originals, int kernels)
{
	return versions ? MR_PROFILE_VERSIONS : originals ? MR_PROFILE_ORIGINALS :
	       kernels ? MR_PROFILE_KERNELS : quick ? MR_PROFILE_QUICK : MR_PROFILE_FULL;
}
