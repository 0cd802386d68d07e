/* evalidx: the configs a reference of a claim selects, grouped by their
 * values on the axes it leaves unnamed, so that each combination finds
 * its configs in one lookup.  Walking every config for every combination
 * made a claim over a matrix of n configs cost n^2 (20,000 runs took
 * 7.5 s to check, 200,000 would take minutes). */
#include "check/evalint.h"

#include <stdlib.h>
#include <string.h>

#include "results/config.h"
#include "core/hash.h"

/* The configs of one reference, grouped. */
struct ev_refidx {
	struct mr_hash h; /* a group's key -> its index */
	int *rep;         /* a config of each group */
	int **mem;        /* each group's configs, ascending */
	int *nmem;
	int ngroup;
};

/* What a lookup compares: config cfg's values, or (cfg < 0) the
 * combination's, on the axes reference j leaves unnamed. */
struct probe {
	const struct ev *e;
	int j;
	int cfg;
	const struct ev_refidx *ri;
};

static const char *
value(const struct ev *e, int cfg, int k)
{
	const struct mr_axis *a = &e->ax[e->it[k]];

	return cfg >= 0 ? mr_config_get(&e->acfg[cfg], a->key) : a->val[e->idx[k]];
}

static uint64_t
key_hash(const struct ev *e, int j, int cfg)
{
	uint64_t h = MR_HASH0;
	int k;

	for (k = 0; k < e->nit; k++) {
		const char *v;

		if (ev_names(&e->c->ref[j], e->ax[e->it[k]].key))
			continue;
		v = value(e, cfg, k);
		h = mr_hash_num(h, v != NULL);
		if (v)
			h = mr_hash_str(h, v);
	}
	return h;
}

static int
same_group(const void *ctx, int g)
{
	const struct probe *p = ctx;
	int k;

	for (k = 0; k < p->e->nit; k++)
		if (!ev_names(&p->e->c->ref[p->j], p->e->ax[p->e->it[k]].key) &&
		    !mr_config_same(value(p->e, p->ri->rep[g], k), value(p->e, p->cfg, k)))
			return 0;
	return 1;
}

struct ev_refidx *
ev_index_build(const struct ev *e)
{
	struct ev_refidx *ri = ecalloc((size_t)e->c->nref + 1, sizeof *ri);
	int j, i;

	for (j = 0; j < e->c->nref; j++) {
		struct ev_refidx *x = &ri[j];

		for (i = 0; i < e->d->ncfg; i++) {
			struct probe p = { e, j, i, x };
			uint64_t hv;
			int g;

			if (!ev_ref_sel(e, j, i))
				continue;
			hv = key_hash(e, j, i);
			g = mr_hash_find(&x->h, hv, same_group, &p);
			if (g < 0) {
				g = x->ngroup++;
				x->rep = erealloc(x->rep, sizeof *x->rep * (size_t)x->ngroup);
				x->mem = erealloc(x->mem, sizeof *x->mem * (size_t)x->ngroup);
				x->nmem = erealloc(x->nmem, sizeof *x->nmem * (size_t)x->ngroup);
				x->rep[g] = i;
				x->mem[g] = NULL;
				x->nmem[g] = 0;
				mr_hash_add(&x->h, hv, g);
			}
			/* a group grows by doubling: at 1, 2, 4, ... members */
			if ((x->nmem[g] & (x->nmem[g] - 1)) == 0)
				x->mem[g] = erealloc(x->mem[g], sizeof **x->mem *
							 (size_t)(x->nmem[g] ? 2 * x->nmem[g] : 1));
			x->mem[g][x->nmem[g]++] = i;
		}
	}
	return ri;
}

const int *
ev_index_members(const struct ev *e, int j, int *n)
{
	const struct ev_refidx *x = &e->ri[j];
	struct probe p = { e, j, -1, x };
	int g = mr_hash_find(&x->h, key_hash(e, j, -1), same_group, &p);

	*n = g < 0 ? 0 : x->nmem[g];
	return g < 0 ? NULL : x->mem[g];
}

void
ev_index_free(struct ev_refidx *ri, int nref)
{
	int j, g;

	for (j = 0; ri && j < nref; j++) {
		for (g = 0; g < ri[j].ngroup; g++)
			free(ri[j].mem[g]);
		free(ri[j].mem);
		free(ri[j].nmem);
		free(ri[j].rep);
		mr_hash_free(&ri[j].h);
	}
	free(ri);
}
