/* upgrade: a claim across the versions in the results — see upgrade.h. */
#include "check/upgrade.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Whether config c is of the version col stands for. */
static int
of_col(const struct mr_config *c, const struct mr_vd_col *col)
{
	const char *v;

	if (!strcmp(col->what, MR_KEY_KERNEL)) {
		v = mr_config_get(c, MR_KEY_KERNEL);
		return mr_config_same(v && strcmp(v, "host") ? v : NULL, col->spec);
	}
	if (!strcmp(col->what, MR_KEY_LIBC))
		return mr_config_same(mr_config_get(c, MR_KEY_LIBC), col->spec);
	v = mr_config_get(c, MR_KEY_ALLOCATOR);
	return v && col->spec && !strcmp(v, col->spec);
}

/* Columns first..n-1 freed: the new count (first). */
static int
drop_cols(struct mr_vd_col *col, int first, int n)
{
	int k;

	for (k = first; k < n; k++) {
		free(col[k].what);
		free(col[k].spec);
		free(col[k].version);
		free(col[k].label);
	}
	return first;
}

/* Insert a column (fresh strings) unless one of the same what and spec
 * is there; keeps what's columns old to new. */
static void
add_col(struct mr_vd_col **col, int *n, const char *what, const char *spec,
	const char *version)
{
	struct mr_vd_col c;
	int i, at;

	for (i = 0; i < *n; i++)
		if (!strcmp((*col)[i].what, what) && mr_config_same((*col)[i].spec, spec))
			return;
	c.what = estrdup(what);
	c.spec = spec ? estrdup(spec) : NULL;
	c.version = version ? estrdup(version) : NULL;
	if (!strcmp(what, MR_KEY_KERNEL))
		c.label = spec ? estrdup(version ? version : spec)
			       : version ? esprintf("host %s", version) : estrdup("host");
	else if (!strcmp(what, MR_KEY_LIBC))
		c.label = spec ? esprintf("libc@%s", spec)
			       : version ? esprintf("libc (host %s)", version)
					 : estrdup("libc (host)");
	else
		c.label = !spec ? estrdup(what) /* not reached: an allocator
		                                     column has its value */
			  : strchr(spec, '@') ? estrdup(spec)
			  : version ? esprintf("%s (host %s)", spec, version)
				    : esprintf("%s (host)", spec);
	/* after the last column of what that is not newer */
	for (at = *n; at > 0; at--) {
		const struct mr_vd_col *p = &(*col)[at - 1];

		if (strcmp(p->what, what))
			break;
		if (version && (!p->version || mr_version_cmp(p->version, version) > 0))
			continue;
		break;
	}
	*col = erealloc(*col, sizeof **col * (*n + 1));
	memmove(*col + at + 1, *col + at, sizeof **col * (*n - at));
	(*col)[at] = c;
	(*n)++;
}

int
mr_upgrade_cols(const struct mr_config *cfg, const struct mr_config_ver *ver,
		int n, int all, struct mr_vd_col **out)
{
	struct mr_vd_col *col = NULL;
	const char **seen = ecalloc((size_t)n + 1, sizeof *seen);
	int ncol = 0, nseen = 0, i, j, first, k;

	/* allocators, each name's columns together, names in order of
	 * appearance; each name once (its columns may have been dropped:
	 * looking for them would walk the configs again, for every config) */
	for (i = 0; i < n; i++) {
		if (!ver[i].alloc)
			continue;
		for (j = 0; j < nseen; j++)
			if (!strcmp(seen[j], ver[i].alloc))
				break;
		if (j < nseen)
			continue;
		seen[nseen++] = ver[i].alloc;
		first = ncol;
		for (k = i; k < n; k++)
			if (ver[k].alloc && !strcmp(ver[k].alloc, ver[i].alloc))
				add_col(&col, &ncol, ver[i].alloc,
					mr_config_get(&cfg[k], MR_KEY_ALLOCATOR),
					ver[k].alloc_ver);
		if (!all && ncol - first < 2)
			ncol = drop_cols(col, first, ncol);
	}
	first = ncol;
	for (i = 0; i < n; i++)
		add_col(&col, &ncol, MR_KEY_LIBC, mr_config_get(&cfg[i], MR_KEY_LIBC),
			ver[i].libc_ver);
	if (!all && ncol - first < 2)
		ncol = drop_cols(col, first, ncol);
	first = ncol;
	for (i = 0; i < n; i++)
		add_col(&col, &ncol, MR_KEY_KERNEL, ver[i].kernel, ver[i].kernel_ver);
	if (!all && ncol - first < 2)
		ncol = drop_cols(col, first, ncol);
	free(seen);
	if (!ncol) {
		free(col);
		col = NULL;
	}
	*out = col;
	return ncol;
}

enum mr_vd_word
mr_upgrade_cell(const struct mr_claim_result *r, int nref, int holds,
		const struct mr_config *cfg, const struct mr_vd_col *col)
{
	int nt = 0, nf = 0, nu = 0, ns = 0, i, j;

	for (i = 0; i < r->ncomb; i++) {
		for (j = 0; j < nref; j++)
			if (r->comb[i].cfg[j] >= 0 && of_col(&cfg[r->comb[i].cfg[j]], col))
				break;
		if (j == nref)
			continue;
		switch (r->comb[i].outcome) {
		case MR_CLAIM_TRUE:
			nt++;
			break;
		case MR_CLAIM_FALSE:
			nf++;
			break;
		case MR_CLAIM_UNDEFINED:
			nu++;
			break;
		case MR_CLAIM_NODATA:
			ns++;
			break;
		}
	}
	if (nf)
		return holds ? MR_VD_REGRESSED : MR_VD_NOTREPRO;
	if (nu)
		return MR_VD_UNDEFINED;
	if (nt)
		return holds ? MR_VD_HELD : MR_VD_REPRODUCES;
	return ns ? MR_VD_SKIPPED : MR_VD_NWORDS;
}

int
mr_upgrade_since(const struct mr_claim *c, const struct mr_claim_result *r,
		 const struct mr_config *cfg, const struct mr_config_ver *ver,
		 int n, char **detail)
{
	struct mr_vd_col *col;
	int ncol = mr_upgrade_cols(cfg, ver, n, 1, &col), news = 0, i;
	const char *v = c->since_version;
	struct strbuf b = {0};
	char *lab = NULL;

	sb_add(&b, "");
	for (i = 0; i < ncol; i++) {
		const struct mr_vd_col *k = &col[i];
		enum mr_vd_word w;
		int before;

		if (strcmp(k->what, c->since_name))
			continue;
		w = mr_upgrade_cell(r, c->nref, 0, cfg, k);
		if (w == MR_VD_NWORDS)
			continue;
		free(lab);
		lab = strcmp(k->what, MR_KEY_KERNEL) ? estrdup(k->label) : esprintf("kernel %s", k->label);
		sb_add(&b, b.len ? "; " : "");
		if (w != MR_VD_REPRODUCES && w != MR_VD_NOTREPRO) {
			sb_printf(&b, "%s on %s", mr_vd_words[w], lab);
			continue;
		}
		if (!k->version) {
			sb_printf(&b, "%s on %s (its version is not recorded)",
				  mr_vd_words[w], lab);
			continue;
		}
		before = mr_version_cmp(k->version, v) < 0;
		if (before && w == MR_VD_REPRODUCES)
			sb_printf(&b, "reproduces on %s (before %s), as reported", lab, v);
		else if (before)
			sb_printf(&b, "does not reproduce on %s (before %s), though reported until %s",
				  lab, v, v);
		else if (w == MR_VD_NOTREPRO)
			sb_printf(&b, "does not reproduce on %s, as reported since %s", lab, v);
		else {
			sb_printf(&b, "reproduces on %s: news, reported gone since %s", lab, v);
			news++;
		}
	}
	if (!b.len)
		sb_printf(&b, "no run of %s evaluated the claim", c->since_name);
	mr_vd_cols_free(col, ncol);
	free(lab);
	*detail = b.s;
	return news;
}
