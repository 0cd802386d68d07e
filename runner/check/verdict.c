#include "check/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

const char *const mr_vd_words[MR_VD_NWORDS] = {
	"held", "regressed", "improved", "reproduces", "does not reproduce",
	"skipped", "failed", "not measured", "not in baseline", "undefined",
};

int
mr_vd_fails(enum mr_vd_word w)
{
	return w == MR_VD_REGRESSED || w == MR_VD_FAILED;
}

int
mr_vd_col_in(const struct mr_vd_col *c, int kern)
{
	return !strcmp(c->what, "kernel") == !!kern;
}

int
mr_vd_table_row(const struct mr_vd *v, const struct mr_vd_case *k, int kern)
{
	int j;

	if (v->kind != MR_VD_CLAIM || !v->cells)
		return 0;
	for (j = 0; j < k->ncol; j++)
		if (mr_vd_col_in(&k->col[j], kern) && v->cells[j] != MR_VD_NWORDS)
			return 1;
	return 0;
}

int
mr_vd_table_cols(const struct mr_vd_case *k, int kern)
{
	int j, n = 0;

	for (j = 0; j < k->ncol; j++)
		n += mr_vd_col_in(&k->col[j], kern);
	return n;
}

struct mr_vd *
mr_vd_add(struct mr_vd_case *k, enum mr_vd_kind kind, enum mr_vd_word w)
{
	struct mr_vd *v;

	if ((k->n & (k->n - 1)) == 0)
		k->v = erealloc(k->v, sizeof *k->v * (k->n ? 2 * k->n : 1));
	v = &k->v[k->n++];
	memset(v, 0, sizeof *v);
	v->kind = kind;
	v->word = w;
	return v;
}

void
mr_vd_totals_add(struct mr_vd_totals *a, const struct mr_vd_totals *b)
{
	a->nclaims += b->nclaims;
	a->held += b->held;
	a->reproduces += b->reproduces;
	a->regressed += b->regressed;
	a->notrepro += b->notrepro;
	a->cskipped += b->cskipped;
	a->cundefined += b->cundefined;
	a->has_claims |= b->has_claims;
	a->has_bl |= b->has_bl;
	a->bheld += b->bheld;
	a->bregressed += b->bregressed;
	a->bimproved += b->bimproved;
	a->bmissing += b->bmissing;
	a->rok += b->rok;
	a->rfailed += b->rfailed;
	a->rskipped += b->rskipped;
}

void
mr_vd_cols_free(struct mr_vd_col *col, int n)
{
	int i;

	for (i = 0; col && i < n; i++) {
		free(col[i].what);
		free(col[i].spec);
		free(col[i].version);
		free(col[i].label);
	}
	free(col);
}

void
mr_vds_free(struct mr_vds *vs)
{	int i, j, l;

	for (i = 0; i < vs->nchanged; i++)
		free(vs->changed[i]);
	free(vs->changed);
	free(vs->busy);

	for (i = 0; i < vs->nk; i++) {
		struct mr_vd_case *k = &vs->k[i];

		for (j = 0; j < k->n; j++) {
			struct mr_vd *v = &k->v[j];

			free(v->config);
			free(v->label);
			free(v->id);
			free(v->detail);
			free(v->words);
			free(v->cite);
			for (l = 0; l < v->nlines; l++)
				free(v->lines[l]);
			free(v->lines);
			free(v->cells);
			free(v->since);
			free(v->since_detail);
			free(v->log);
			free(v->what);
			free(v->metric);
			free(v->checkpoint);
		}
		for (j = 0; j < k->ncfg; j++) {
			free(k->cfg[j].config);
			free(k->cfg[j].label);
		}
		free(k->cfg);
		mr_vd_cols_free(k->col, k->ncol);
		free(k->v);
		free(k->name);
		free(k->claims_path);
		mr_figs_free(&k->figs);
		free(k->bl_path);
	}
	free(vs->k);
	free(vs->results);
	free(vs->platform);
	free(vs->expected);
	memset(vs, 0, sizeof *vs);
}
