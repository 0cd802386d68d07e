/* lookup: a case, a config and a run of a results directory read back,
 * found by their keys hashed, so that reading N rows costs N lookups of
 * constant time, not N^2 compares — see read.h. */
#include "results/read.h"

#include <stdlib.h>
#include <string.h>

#include "core/tsv.h"
#include "core/util.h"

struct case_key {
	const struct mr_rd *R;
	const char *name;
};

static int
case_eq(const void *ctx, int i)
{
	const struct case_key *c = ctx;

	return !strcmp(c->R->k[i].name, c->name);
}

struct mr_rd_case *
mr_rd_case(const struct mr_rd *R, const char *name)
{
	struct case_key c = { R, name };
	int i = mr_hash_find(&R->kh, mr_hash_str(MR_HASH0, name), case_eq, &c);

	return i < 0 ? NULL : &R->k[i];
}

struct cfg_key {
	const struct mr_rd_case *k;
	const char *str;
};

static int
cfg_eq(const void *ctx, int i)
{
	const struct cfg_key *c = ctx;

	return !strcmp(c->k->conf[i].str, c->str);
}

int
mr_rd_cfg(const struct mr_rd_case *k, const char *str)
{
	struct cfg_key c = { k, str };

	return mr_hash_find(&k->cfgh, mr_hash_str(MR_HASH0, str), cfg_eq, &c);
}

struct run_key {
	const struct mr_rd_case *k;
	int cfg;
	long repeat;
};

static int
run_eq(const void *ctx, int i)
{
	const struct run_key *r = ctx;

	return r->k->run[i].cfg == r->cfg && r->k->run[i].repeat == r->repeat;
}

static uint64_t
run_hash(int cfg, long repeat)
{
	return mr_hash_num(mr_hash_num(MR_HASH0, (uint64_t)cfg), (uint64_t)repeat);
}

int
mr_rd_run_of(const struct mr_rd_case *k, int cfg, long repeat)
{
	struct run_key r = { k, cfg, repeat };

	return mr_hash_find(&k->runh, run_hash(cfg, repeat), run_eq, &r);
}

void
mr_rd_index_case(struct mr_rd *R, int i)
{
	mr_hash_add(&R->kh, mr_hash_str(MR_HASH0, R->k[i].name), i);
}

void
mr_rd_index_cfg(struct mr_rd_case *k, int i)
{
	mr_hash_add(&k->cfgh, mr_hash_str(MR_HASH0, k->conf[i].str), i);
}

void
mr_rd_index_run(struct mr_rd_case *k, int i)
{
	mr_hash_add(&k->runh, run_hash(k->run[i].cfg, k->run[i].repeat), i);
}

int
mr_rd_select(const struct mr_rd *R, const char *const *names, int **sel)
{
	int n = 0, i, j;

	*sel = ecalloc(R->nk + 1, sizeof **sel);
	if (!names || !names[0]) {
		for (i = 0; i < R->nk; i++)
			(*sel)[n++] = i;
		return n;
	}
	for (i = 0; names[i]; i++) {
		struct mr_rd_case *k = mr_rd_case(R, names[i]);
		int idx;

		if (!k) {
			char *path = mr_rd_path(R->dir, MR_FILE_RUNS);

			mr_errat(path, 0, 0, "no runs of case %s", names[i]);
			free(path);
			free(*sel);
			*sel = NULL;
			return -1;
		}
		idx = (int)(k - R->k);
		for (j = 0; j < n; j++)
			if ((*sel)[j] == idx)
				break;
		if (j == n)
			(*sel)[n++] = idx;
	}
	return n;
}

const char *
mr_rd_env(const struct mr_rd *R, const char *key)
{
	int i;

	for (i = 0; i < R->nenv; i++)
		if (!strcmp(R->envk[i], key))
			return R->envv[i];
	return NULL;
}
