/* mergechk: the shards' rows held to their plans — see mergechk.h. */
#include "results/mergechk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hash.h"
#include "core/tsv.h"
#include "core/util.h"
#include "proto/schema.h"

/* A run of a shard: the pair (case, config) or the log it is looked up
 * by. */
struct at {
	int shard, k, run;
};

struct seen {
	const struct mr_rd *R;
	struct at *at;
	int n;
	/* the key looked up */
	const char *name, *cfg, *log;
};

static const struct mr_rd_run *
run_at(const struct seen *s, int i)
{
	return &s->R[s->at[i].shard].k[s->at[i].k].run[s->at[i].run];
}

static int
pair_eq(const void *ctx, int i)
{
	const struct seen *s = ctx;
	const struct mr_rd_case *k = &s->R[s->at[i].shard].k[s->at[i].k];

	return !strcmp(k->name, s->name) && !strcmp(k->conf[run_at(s, i)->cfg].str, s->cfg);
}

static int
log_eq(const void *ctx, int i)
{
	const struct seen *s = ctx;

	return !strcmp(run_at(s, i)->log, s->log);
}

static void
remember(struct seen *s, struct mr_hash *h, uint64_t hv, int shard, int k, int run)
{
	if ((s->n & (s->n - 1)) == 0)
		s->at = erealloc(s->at, sizeof *s->at * (size_t)(s->n ? 2 * s->n : 1));
	s->at[s->n] = (struct at){ shard, k, run };
	mr_hash_add(h, hv, s->n++);
}

/* "DIR/runs.tsv:LINE: MSG" (msg is freed). */
static int
row_err(const struct mr_rd *R, const struct mr_rd_run *r, char *msg)
{
	char *path = mr_rd_path(R->dir, MR_FILE_RUNS);

	mr_errat(path, r->line, 0, "%s", msg);
	free(path);
	free(msg);
	return -1;
}

/* The pairs of shard i: none in another shard, at most its share. */
static int
check_pairs(struct seen *s, struct mr_hash *h, int i)
{
	const struct mr_rd *R = &s->R[i];
	const char *pairs = mr_rd_env(R, MR_ENVK_SHARD_PAIRS);
	long mine = -1, npairs = 0;
	int ki, c;

	if (pairs) {
		char *end;

		errno = 0;
		mine = strtol(pairs, &end, 10);
		if (end == pairs || *end != '/' || errno)
			mine = -1;
	}
	for (ki = 0; ki < R->nk; ki++) {
		const struct mr_rd_case *k = &R->k[ki];

		for (c = 0; c < k->ncfg; c++) {
			const struct mr_rd_run *r = &k->run[k->cfg[c].run[0]];
			uint64_t hv = mr_hash_str(mr_hash_str(MR_HASH0, k->name), k->conf[c].str);
			int prev;

			s->name = k->name;
			s->cfg = k->conf[c].str;
			if ((prev = mr_hash_find(h, hv, pair_eq, s)) >= 0) {
				char *other = esprintf("%s/" MR_FILE_RUNS ":%ld", s->R[s->at[prev].shard].dir,
						       run_at(s, prev)->line);

				row_err(R, r, esprintf("case %s config %s is in another shard too (%s): "
						       "the plan gives a pair one shard: refusing rows "
						       "outside a shard's plan", k->name,
						       k->conf[c].str, other));
				free(other);
				return -1;
			}
			remember(s, h, hv, i, ki, k->cfg[c].run[0]);
			if (++npairs > mine && mine >= 0)
				return row_err(R, r, esprintf("case %s config %s is beyond the shard's "
							      "share of the plan (" MR_FILE_ENV "'s "
							      MR_ENVK_SHARD_PAIRS ": %ld pairs): refusing rows "
							      "outside a shard's plan",
							      k->name, k->conf[c].str, mine));
		}
	}
	return 0;
}

int
mr_merge_check_rows(const struct mr_rd *R, int n)
{
	struct seen pairs = { R, NULL, 0, NULL, NULL, NULL };
	struct seen logs = { R, NULL, 0, NULL, NULL, NULL };
	struct mr_hash ph = { 0 }, lh = { 0 };
	int i, ki, ri, rc = 0;

	for (i = 0; i < n && rc == 0; i++)
		rc = check_pairs(&pairs, &ph, i);
	for (i = 0; i < n && rc == 0; i++)
		for (ki = 0; ki < R[i].nk && rc == 0; ki++)
			for (ri = 0; ri < R[i].k[ki].nrun && rc == 0; ri++) {
				const struct mr_rd_run *r = &R[i].k[ki].run[ri];
				uint64_t hv;
				int prev;

				if (!r->log)
					continue;
				hv = mr_hash_str(MR_HASH0, r->log);
				logs.log = r->log;
				if ((prev = mr_hash_find(&lh, hv, log_eq, &logs)) < 0) {
					remember(&logs, &lh, hv, i, ki, ri);
					continue;
				}
				{
					char *other = esprintf("%s/" MR_FILE_RUNS ":%ld",
							       R[logs.at[prev].shard].dir,
							       run_at(&logs, prev)->line);

					rc = row_err(&R[i], r, esprintf("log %s is the log of %s too: "
									"refusing to merge two runs' "
									"logs into one", r->log, other));
					free(other);
				}
			}
	mr_hash_free(&ph);
	mr_hash_free(&lh);
	free(pairs.at);
	free(logs.at);
	return rc;
}

char *
mr_merge_tmp_beside(const char *out)
{
	char *copy = estrdup(out), *slash, *t;
	const char *base = copy, *parent = ".";
	int e;

	while ((slash = strrchr(copy, '/')) && slash > copy && !slash[1])
		*slash = '\0'; /* trailing slashes */
	if ((slash = strrchr(copy, '/')) != NULL) {
		*slash = '\0';
		base = slash + 1;
		parent = slash == copy ? "/" : copy;
	}
	if ((e = mkdir_p(parent)) < 0) {
		errno = -e;
		weprintf("merge: create %s:", parent);
		free(copy);
		return NULL;
	}
	t = esprintf("%s/.%s.merging-XXXXXX", parent, base);
	free(copy);
	if (!mkdtemp(t)) {
		weprintf("merge: create %s:", t);
		free(t);
		return NULL;
	}
	return t;
}

