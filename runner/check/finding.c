/* finding: what regressions that come together share — see finding.h. */
#include "check/finding.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* What the regressions seen so far have in common. */
struct common {
	int nclaims, nrows;
	const char *kase;    /* the one case, or NULL once two differ */
	int ncases;
	char **pair;         /* config key=value pairs every row has (owned) */
	int npair;
	int rows_seen;       /* pair[] set by a first row */
	const char *ckpt;    /* the one checkpoint of the rows, or NULL */
	const char *metric;  /* the one metric of the rows, or NULL */
	int mixed_ckpt, mixed_metric;
};

/* Keep only the pairs of c->pair that config ("k=v,k=v": the keys that
 * vary among the case's configs) has. */
static void
intersect(struct common *c, const char *config)
{
	int i, j = 0;

	if (!c->rows_seen) {
		const char *p = config;

		c->rows_seen = 1;
		c->pair = ecalloc(strlen(config) / 2 + 2, sizeof *c->pair);
		while (*p) {
			size_t n = strcspn(p, ",");

			if (n)
				c->pair[c->npair++] = estrndup(p, n);
			p += n + (p[n] == ',');
		}
		return;
	}
	for (i = 0; i < c->npair; i++) {
		size_t n = strlen(c->pair[i]);
		const char *p = config;
		int found = 0;

		while (*p && !found) {
			size_t m = strcspn(p, ",");

			found = m == n && !strncmp(p, c->pair[i], n);
			p += m + (p[m] == ',');
		}
		if (found)
			c->pair[j++] = c->pair[i];
		else
			free(c->pair[i]);
	}
	c->npair = j;
}

static void
one(const char **slot, int *mixed, const char *s)
{
	if (*mixed)
		return;
	if (!*slot)
		*slot = s;
	else if (strcmp(*slot, s))
		*mixed = 1, *slot = NULL;
}

static void
add_case(struct common *c, const struct mr_vd_case *k)
{
	int i, seen = 0;

	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->word != MR_VD_REGRESSED ||
		    (v->kind != MR_VD_CLAIM && v->kind != MR_VD_ROW))
			continue;
		if (!seen++) {
			c->ncases++;
			c->kase = c->ncases == 1 ? k->name : NULL;
		}
		if (v->kind == MR_VD_CLAIM) {
			c->nclaims++;
			continue;
		}
		c->nrows++;
		intersect(c, v->label ? v->label : v->config);
		if (v->checkpoint && strcmp(v->checkpoint, "-"))
			one(&c->ckpt, &c->mixed_ckpt, v->checkpoint);
		else
			c->mixed_ckpt = 1, c->ckpt = NULL;
		one(&c->metric, &c->mixed_metric, v->metric ? v->metric : "-");
	}
}

char *
mr_finding(const struct mr_vds *vs, int ci)
{
	struct common c = { 0 };
	struct strbuf b = { 0 };
	int i, n, shared = 0;

	for (i = ci < 0 ? 0 : ci; i < (ci < 0 ? vs->nk : ci + 1); i++)
		add_case(&c, &vs->k[i]);
	n = c.nclaims + c.nrows;
	if (n >= 2) {
		sb_printf(&b, "%d regressed (", n);
		if (c.nclaims)
			sb_printf(&b, "%d %s%s", c.nclaims, c.nclaims == 1 ? "claim" : "claims",
				  c.nrows ? ", " : "");
		if (c.nrows)
			sb_printf(&b, "%d baseline %s", c.nrows, c.nrows == 1 ? "row" : "rows");
		sb_add(&b, "), all of ");
		/* a claim has no one config: the rows' common config keys,
		 * checkpoint and metric say something only without claims */
		if (ci >= 0)
			c.kase = NULL; /* said by the case's own heading */
		if (c.kase) {
			sb_printf(&b, "case %s", c.kase);
			shared++;
		}
		if (c.nrows && !c.nclaims && c.npair) {
			sb_printf(&b, "%sconfig ", c.kase ? ", " : "");
			for (i = 0; i < c.npair; i++)
				sb_printf(&b, "%s%s", i ? "," : "", c.pair[i]);
			shared++;
		}
		if (c.nrows && !c.nclaims && c.ckpt) {
			sb_printf(&b, "%scheckpoint %s", c.kase || c.npair ? ", " : "", c.ckpt);
			shared++;
		}
		if (c.nrows && !c.nclaims && c.metric && strcmp(c.metric, "-")) {
			sb_printf(&b, "%smetric %s", c.kase || c.npair || c.ckpt ? ", " : "",
				  c.metric);
			shared++;
		}
	}
	for (i = 0; i < c.npair; i++)
		free(c.pair[i]);
	free(c.pair);
	if (!shared) {
		sb_free(&b);
		return NULL;
	}
	return b.s;
}
