/* evalbl: the verdicts of a case's baseline rows, per platform: the
 * host's configs against expected/<platform>/, each guest's (its kernel
 * and THP, docs/kernels.md) against its own — see check.h. */
#include "check/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/baseline.h"
#include "check/stats.h"
#include "check/values.h"
#include "core/hash.h"
#include "core/util.h"
#include "proc/self.h"
#include "results/read.h"

/* The verdict of one baseline row over the ok runs of config ci. */
static void
eval_row(struct mr_vd_case *vk, const struct mr_rd_case *k, int ci,
	 const struct mr_bl_row *row)
{
	struct mr_vd_totals *t = &vk->t;
	struct mr_ref ref = {0};
	struct mr_vd *v;
	double *x;
	int n;

	ref.ckpt = row->ckpt;
	ref.metric = row->metric;
	ref.checkpoint = row->checkpoint;
	ref.seq = row->seq;
	ref.pinned = 1;
	n = mr_rd_values(k, ci, &ref, &x);
	v = mr_vd_add(vk, MR_VD_ROW, MR_VD_NOTMEASURED);
	v->config = estrdup(k->conf[ci].str);
	v->label = estrdup(k->cfg[ci].label);
	v->metric = estrdup(mr_bl_metric(row));
	v->checkpoint = mr_bl_checkpoint(row);
	v->what = row->checkpoint ? esprintf("%s@%s", v->metric, v->checkpoint)
				  : estrdup(v->metric);
	v->exp = row->median;
	v->emin = row->min;
	v->emax = row->max;
	v->en = row->n;
	v->tol = mr_bl_row_tol(row);
	v->on = n;
	v->obs = v->omin = v->omax = NAN;
	if (n == 0) {
		t->bmissing++;
		v->detail = mr_rd_nodata(k, ci, &ref);
		free(x);
		return;
	}
	v->omin = x[0];
	v->omax = x[n - 1];
	v->obs = mr_st_median(x, n);
	free(x);
	if (v->obs > row->median + v->tol) {
		v->word = MR_VD_REGRESSED;
		t->bregressed++;
	} else if (v->obs < row->median - v->tol) {
		v->word = MR_VD_IMPROVED;
		t->bimproved++;
	} else {
		v->word = MR_VD_HELD;
		t->bheld++;
	}
}

/* A config's rows looked up by their config string (bl_chain). */
struct blkey {
	const struct mr_baseline *b;
	const int *last;   /* each group's last row so far */
	const char *config;
};

static int
bl_same(const void *ctx, int g)
{
	const struct blkey *p = ctx;

	return !strcmp(p->b->row[p->last[g]].config, p->config);
}

/* The rows of b chained by config: next[i] the next row of row i's config
 * (-1: none), head[i] set on each config's first row.  One pass, hashed:
 * a scan for each config's rows cost rows x configs. */
static int *
bl_chain(const struct mr_baseline *b, char *head)
{
	int *next = ecalloc(b->nrow + 1, sizeof *next);
	int *last = ecalloc(b->nrow + 1, sizeof *last);
	struct mr_hash h = {0};
	int i, g, ng = 0;

	for (i = 0; i < b->nrow; i++) {
		struct blkey p = { b, last, b->row[i].config };
		uint64_t hv = mr_hash_str(MR_HASH0, b->row[i].config);

		next[i] = -1;
		if ((g = mr_hash_find(&h, hv, bl_same, &p)) >= 0) {
			next[last[g]] = i;
		} else {
			g = ng++;
			head[i] = 1;
			mr_hash_add(&h, hv, g);
		}
		last[g] = i;
	}
	mr_hash_free(&h);
	free(last);
	return next;
}

/* The config of k whose key on the platform (keys[], NULL: another
 * platform's) is cstr, or -1: the host's through the index, a guest's
 * (frag) by its keys. */
static int
find_cfg(const struct mr_rd_case *k, char *const *keys, const char *frag, const char *cstr)
{
	int ci;

	if (!frag) {
		ci = mr_rd_cfg(k, cstr);
		return ci >= 0 && keys[ci] ? ci : -1;
	}
	for (ci = 0; ci < k->ncfg; ci++)
		if (keys[ci] && !strcmp(keys[ci], cstr))
			return ci;
	return -1;
}

void
mr_check_baseline(struct mr_vd_case *vk, const struct mr_rd_case *k,
		  const struct mr_baseline *b, int has_bl, const char *frag)
{
	char *head = ecalloc(b->nrow + 1, 1);
	int *inbl = ecalloc(k->ncfg + 1, sizeof *inbl);
	char **keys = ecalloc(k->ncfg + 1, sizeof *keys);
	int *next = bl_chain(b, head);
	int i, j;

	for (i = 0; i < k->ncfg; i++)
		keys[i] = mr_rd_plat_config(&k->conf[i], frag);

	for (i = 0; i < k->ncfg; i++)
		if ((int)strlen(k->cfg[i].label) > vk->lw)
			vk->lw = (int)strlen(k->cfg[i].label);
	for (i = 0; i < b->nrow; i++) {
		char *ck = mr_bl_checkpoint(&b->row[i]);
		int n = (int)(strlen(mr_bl_metric(&b->row[i])) + 1 + strlen(ck));

		if (n > vk->mw)
			vk->mw = n;
		free(ck);
	}
	if (!frag)
		vk->t.has_bl = vk->has_bl;
	for (i = 0; has_bl && i < b->nrow && !mr_spawn_interrupted; i++) {
		int ci;

		if (!head[i])
			continue;
		ci = find_cfg(k, keys, frag, b->row[i].config);
		if (ci < 0 || k->cfg[ci].nok == 0) {
			/* Not run here (another profile, a skipped or failed
			 * config, reported above): nothing to compare. */
			for (j = i; j >= 0; j = next[j])
				vk->notrun_rows++;
			vk->notrun_cfgs++;
			continue;
		}
		inbl[ci] = 1;
		for (j = i; j >= 0; j = next[j])
			eval_row(vk, k, ci, &b->row[j]);
	}
	for (i = 0; has_bl && i < k->ncfg && !mr_spawn_interrupted; i++) {
		/* an original's are never blessed (its interpreter's version
		 * is not the platform's): claims judge it, not a baseline */
		if (keys[i] && !inbl[i] && k->cfg[i].nok > 0 && !mr_config_get(&k->conf[i], MR_KEY_RUNTIME)) {
			struct mr_vd *v = mr_vd_add(vk, MR_VD_CONFIG, MR_VD_NOTINBL);

			v->config = estrdup(k->conf[i].str);
			v->label = estrdup(k->cfg[i].label);
		}
	}
	for (i = 0; i < k->ncfg; i++)
		free(keys[i]);
	free(keys);
	free(next);
	free(head);
	free(inbl);
}

