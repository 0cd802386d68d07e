/* eval: the evaluation of a claim over the configs of one case — see
 * claims.h, "evaluation". */
#include "check/evalint.h"
#include "check/expr.h"
#include "check/lex.h"
#include "check/words.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "core/util.h"
#include "proc/self.h"


/* Whether r names key: a pair of it fixes its value.  A libc range
 * (libc>=2.41) does not: the claim ranges over the libcs in it.  The key
 * of an axis directive r leaves unnamed is fixed too: unset. */
int
ev_names(const struct mr_ref *r, const char *key)
{
	int i;

	for (i = 0; i < r->nunset; i++)
		if (!strcmp(r->unset[i], key))
			return 1;
	for (i = 0; i < r->npairs; i++)
		if (!strcmp(r->pair[i].key, key) &&
		    (r->pair[i].vp.name || r->pair[i].vp.op < MR_V_LT) &&
		    (strcmp(key, MR_KEY_RUNTIME) || strcmp(r->pair[i].val, MR_RUNTIME_ANY)))
			return 1;
	return 0;
}

/* "k=v" of a combination or selection; unset keys as "k unset". */
void
ev_pair(struct strbuf *b, const char *key, const char *val)
{
	if (val)
		sb_printf(b, "%s%s=%s", b->len ? "," : "", key, val);
	else if (!strcmp(key, MR_KEY_RUNTIME))
		sb_printf(b, "%s%s=%s", b->len ? "," : "", key, MR_RUNTIME_MODEL);
	else
		sb_printf(b, "%s%s unset", b->len ? "," : "", key);
}

int
ev_pair_ok(const struct ev *e, int j, int k, int i)
{
	const struct mr_ref *ref = &e->c->ref[j];
	const struct mr_vpair *vp = &ref->pair[k].vp;
	const char *v = mr_config_get(&e->d->cfg[i], ref->pair[k].key);

	if (vp->name) {
		if (!e->ver[i].alloc || strcmp(e->ver[i].alloc, vp->name))
			return 0;
		if (vp->op == MR_V_ANY)
			return 1;
		if (vp->op == MR_V_EQ && e->exact[j * MR_REF_MAX_PAIRS + k])
			return mr_config_same(v, ref->pair[k].val);
		return mr_version_satisfies(e->ver[i].alloc_ver, vp->op, vp->version);
	}
	if (vp->op != MR_V_ANY) {
		if (vp->op == MR_V_EQ && e->exact[j * MR_REF_MAX_PAIRS + k])
			return mr_config_same(v, ref->pair[k].val);
		return mr_version_satisfies(e->ver[i].libc_ver, vp->op, vp->version);
	}
	if (!strcmp(ref->pair[k].key, MR_KEY_RUNTIME) && !strcmp(ref->pair[k].val, MR_RUNTIME_MODEL))
		return !v;
	if (!strcmp(ref->pair[k].key, MR_KEY_RUNTIME) && !strcmp(ref->pair[k].val, MR_RUNTIME_ANY))
		return v != NULL;
	return mr_config_same(v, ref->pair[k].val);
}

/* Whether reference j selects config i by the pairs it names. */
int
ev_ref_sel(const struct ev *e, int j, int i)
{
	int k;

	for (k = 0; k < e->c->ref[j].nunset; k++)
		if (mr_config_get(&e->d->cfg[i], e->c->ref[j].unset[k]))
			return 0;
	/* unless: an allocator version the claim is not made for */
	if (e->c->unless_name && e->ver[i].alloc && !strcmp(e->ver[i].alloc, e->c->unless_name) &&
	    e->ver[i].alloc_ver &&
	    mr_version_satisfies(e->ver[i].alloc_ver, (enum mr_vop)e->c->unless_op,
				 e->c->unless_version))
		return 0;
	for (k = 0; k < e->c->ref[j].npairs; k++)
		if (!ev_pair_ok(e, j, k, i))
			return 0;
	return 1;
}

/* Whether config i has the combination's values of the axes reference j
 * leaves unnamed. */
int
ev_in_comb(const struct ev *e, int j, int i)
{
	const struct mr_ref *ref = &e->c->ref[j];
	int k;

	for (k = 0; k < e->nit; k++) {
		const struct mr_axis *a = &e->ax[e->it[k]];

		if (!ev_names(ref, a->key) &&
		    !mr_config_same(mr_config_get(&e->acfg[i], a->key), a->val[e->idx[k]]))
			return 0;
	}
	for (k = 0; k < e->nvax; k++) {
		const struct vaxis *a = &e->vax[k];

		if (e->ver[i].alloc && !strcmp(e->ver[i].alloc, a->name) &&
		    !ev_pinned(ref, a->name) &&
		    !mr_config_same(mr_config_get(&e->d->cfg[i], MR_KEY_ALLOCATOR),
				    a->spec[e->vidx[k]]))
			return 0;
	}
	return 1;
}

/* The values of c's references at the combination into val[], the config
 * each takes into took[] (-1: none): 0, or -1 with *cause (a fresh string
 * with a WHAT in it) and *what (fresh: the configs or the selection it
 * applies to) saying why one has none; -2 (cause and what as for -1) when
 * the combination is not in the matrix at all: every value a reference
 * names has configs, only not together (a matrix that is no full product:
 * the versions profile runs each allocator under one glibc). */
static int
comb_values(const struct ev *e, double *val, int *took, char **cause, char **what)
{
	const struct mr_claim *c = e->c;
	const struct mr_eval_data *d = e->d;
	int i, j, k;

	for (j = 0; j < c->nref; j++)
		took[j] = -1;
	for (j = 0; j < c->nref; j++) {
		const struct mr_ref *ref = &c->ref[j];
		int match = -1, nmatch = 0;
		char *why;

		{
			int nm;
			const int *m = ev_index_members(e, j, &nm);

			for (i = 0; i < nm; i++) {
				if (!ev_in_comb(e, j, m[i]))
					continue;
				if (nmatch++ == 0)
					match = m[i];
			}
		}
		for (k = 0; nmatch == 0 && k < ref->npairs; k++)
			if (!e->anyrun[j * MR_REF_MAX_PAIRS + k])
				break;
		if (nmatch == 0 && k < ref->npairs) {
			/* A value of another profile, or a typo. */
			struct strbuf w = {0};

			mr_ref_pair_src(&w, ref, k);
			*what = w.s;
			*cause = estrdup("no run has " WHAT);
			return -1;
		} else if (nmatch != 1) {
			/* Only a matrix that is not a full product gets
			 * here. */
			struct strbuf sel = {0};

			sb_add(&sel, "");
			for (k = 0; k < ref->npairs; k++) {
				if (sel.len)
					sb_add(&sel, ",");
				mr_ref_pair_src(&sel, ref, k);
			}
			for (k = 0; k < e->nit; k++)
				if (!ev_names(ref, e->ax[e->it[k]].key))
					ev_pair(&sel, e->ax[e->it[k]].key,
					     e->ax[e->it[k]].val[e->idx[k]]);
			*what = sel.s;
			*cause = estrdup(nmatch ? "several configs match " WHAT
					        : "no config with " WHAT " in the results");
			return nmatch ? -1 : -2;
		}
		took[j] = match;
		if (d->value(d->ctx, match, ref, &val[j], &why) < 0) {
			/* mr_config_label's, from the axes made once */
			*what = mr_config_label_of(&d->cfg[match], e->lax, e->nlax);
			*cause = esprintf("no data for " WHAT " (%s)", why);
			free(why);
			return -1;
		}
	}
	return 0;
}

/* The combination e is at: judged into r (counted, its line kept), or
 * left out: a version of an allocator no reference takes (the same as its
 * first version: evaluated once), one outside the claim's ranges (*nout),
 * or, but in the replay, one the matrix does not have (*nabsent: no
 * combination, unless the claim has no other, when the replay skips it). */
static void
comb_one(struct ev *e, int *vcon, double *val, int *took, int replay,
	 struct mr_claim_result *r, struct tally *t, int *nout, int *nabsent)
{
	const struct mr_claim *c = e->c;
	struct strbuf label = {0}, line = {0};
	char *cause = NULL, *what = NULL;
	int dup = 0, n0 = r->ntrue, n1 = r->nfalse, got, k;
	struct mr_claim_comb *cb;

	for (k = 0; k < e->nvax; k++) {
		vcon[k] = ev_concerns(e, &e->vax[k]);
		dup |= !vcon[k] && e->vidx[k] > 0;
	}
	if (dup || ev_outside(e)) {
		*nout += !dup;
		return;
	}
	got = comb_values(e, val, took, &cause, &what);
	if (got == -2 && !replay) {
		(*nabsent)++;
		free(cause);
		free(what);
		return;
	}
	ev_comb_label(&label, e, vcon);
	r->ncomb++;
	if (label.len)
		sb_printf(&line, "%s: ", label.s);
	else
		sb_add(&line, "");
	/* comb and lines grow by doubling: at 1, 2, 4, ... combinations */
	if ((r->ncomb & (r->ncomb - 1)) == 0)
		r->comb = erealloc(r->comb, sizeof *r->comb * 2 * (size_t)r->ncomb);
	cb = &r->comb[r->ncomb - 1];
	if (got < 0) {
		r->nskipped++;
		sb_add(&line, "skipped (");
		ev_put_cause(&line, cause, what);
		sb_add(&line, ")");
		ev_skips_add(&t->sk, cause, what);
		cb->outcome = MR_CLAIM_NODATA;
	} else {
		ev_comb_judge(c, val, label.s, &line, r, t);
		cb->outcome = r->ntrue > n0 ? MR_CLAIM_TRUE : r->nfalse > n1
			      ? MR_CLAIM_FALSE : MR_CLAIM_UNDEFINED;
	}
	cb->cfg = ecalloc(c->nref + 1, sizeof *cb->cfg);
	memcpy(cb->cfg, took, sizeof *took * c->nref);
	cb->val = NULL;
	if (got >= 0) {
		cb->val = ecalloc(c->nref + 1, sizeof *cb->val);
		memcpy(cb->val, val, sizeof *val * c->nref);
	}
	cb->label = label.s ? label.s : estrdup("");
	if (r->nlines == 0 || (r->nlines & (r->nlines - 1)) == 0)
		r->lines = erealloc(r->lines, sizeof *r->lines *
					      (r->nlines ? 2 * (size_t)r->nlines : 1));
	r->lines[r->nlines++] = line.s;
}

/* The next combination, odometer-wise, the versions last: 1, or 0 after
 * the last (every digit back at zero). */
static int
odometer_next(const struct ev *e, int *idx, int *vidx)
{
	int k;

	for (k = e->nvax - 1; k >= 0; k--) {
		if (++vidx[k] < e->vax[k].n)
			return 1;
		vidx[k] = 0;
	}
	for (k = e->nit - 1; k >= 0; k--) {
		if (++idx[k] < e->ax[e->it[k]].nval)
			return 1;
		idx[k] = 0;
	}
	return 0;
}

void
ev_combinations(const struct mr_claim *c, const struct mr_eval_data *d,
		struct mr_claim_result *r)
{
	struct mr_config_ver *ownver = d->ver ? NULL : mr_config_vers(d->cfg, d->ncfg, NULL, NULL);
	const struct mr_config_ver *ver = d->ver ? d->ver : ownver;
	struct vaxis *vax;
	int nvax = ev_version_axes(d, ver, &vax);
	struct mr_config *ncfg = ev_name_configs(d, ver, vax, nvax);
	const struct mr_config *acfg = ncfg ? ncfg : d->cfg;
	struct mr_axis *ax;
	int naxes = mr_config_axes(acfg, d->ncfg, &ax);
	int *it = ecalloc(naxes + 1, sizeof *it); /* axes some reference leaves unnamed */
	int *idx = ecalloc(naxes + 1, sizeof *idx); /* the current combination */
	int *vidx = ecalloc(nvax + 1, sizeof *vidx), *vcon = ecalloc(nvax + 1, sizeof *vcon);
	double *val = ecalloc(c->nref, sizeof *val);
	int *took = ecalloc(c->nref, sizeof *took);
	struct ev e = { c, d, ver, acfg, ax, it, idx, 0, vax, vidx, nvax, NULL, NULL, NULL, 0, NULL };
	struct tally t = {0};
	int i, j, k, nout = 0, nabsent = 0, replay = 0;

	memset(r, 0, sizeof *r);
	e.exact = ecalloc((size_t)c->nref * MR_REF_MAX_PAIRS + 1, 1);
	for (j = 0; j < c->nref; j++)
		for (k = 0; k < c->ref[j].npairs; k++)
			for (i = 0; c->ref[j].pair[k].vp.op == MR_V_EQ && i < d->ncfg; i++)
				if (mr_config_same(mr_config_get(&d->cfg[i], c->ref[j].pair[k].key),
						   c->ref[j].pair[k].val))
					e.exact[j * MR_REF_MAX_PAIRS + k] = 1;
	e.anyrun = ecalloc((size_t)c->nref * MR_REF_MAX_PAIRS + 1, 1);
	for (j = 0; j < c->nref; j++)
		for (k = 0; k < c->ref[j].npairs; k++)
			for (i = 0; i < d->ncfg && !e.anyrun[j * MR_REF_MAX_PAIRS + k]; i++)
				e.anyrun[j * MR_REF_MAX_PAIRS + k] = (char)ev_pair_ok(&e, j, k, i);
	for (i = 0; i < naxes; i++) {
		for (j = 0; j < c->nref; j++) {
			if (!ev_names(&c->ref[j], ax[i].key)) {
				it[e.nit++] = i;
				break;
			}
		}
	}
	e.ri = ev_index_build(&e);
	e.nlax = mr_config_axes(d->cfg, d->ncfg, &e.lax);
	/* A second pass when every combination was one the matrix does not
	 * have: they are then skipped, saying so (the odometer is back at
	 * zero after a pass). */
again:
	/* SIGINT/SIGTERM: the result is cut short (check.c stops) */
	do
		comb_one(&e, vcon, val, took, replay, r, &t, &nout, &nabsent);
	while (!mr_spawn_interrupted && odometer_next(&e, idx, vidx));
	if (r->ncomb == 0 && nabsent && !replay && !mr_spawn_interrupted) {
		replay = 1;
		goto again;
	}
	if (r->ncomb == 0 && nout) {
		r->outcome = MR_CLAIM_NODATA;
		r->detail = ev_outside_why(c);
	} else {
		ev_summarize(r, &t);
		r->words = mr_words_claim(c, d->cfg, r);
	}
	sb_free(&t.first_true);
	sb_free(&t.first_false);
	sb_free(&t.falselabels);
	sb_free(&t.first_undef);
	sb_free(&t.undeflabels);
	ev_skips_free(&t.sk);
	ev_index_free(e.ri, c->nref);
	mr_config_axes_free(e.lax, e.nlax);
	free(e.exact);
	free(e.anyrun);
	free(took);
	free(val);
	free(vcon);
	free(vidx);
	free(idx);
	free(it);
	for (k = 0; k < nvax; k++) {
		free(vax[k].spec);
		free(vax[k].ver);
	}
	free(vax);
	mr_config_axes_free(ax, naxes);
	for (i = 0; ncfg && i < d->ncfg; i++)
		mr_config_free(&ncfg[i]);
	free(ncfg);
	mr_config_vers_free(ownver, d->ncfg);
}

void
mr_claim_result_free(struct mr_claim_result *r)
{
	int i;

	for (i = 0; i < r->nlines; i++)
		free(r->lines[i]);
	free(r->lines);
	for (i = 0; r->comb && i < r->ncomb; i++) {
		free(r->comb[i].cfg);
		free(r->comb[i].val);
		free(r->comb[i].label);
	}
	free(r->comb);
	free(r->detail);
	free(r->words);
	memset(r, 0, sizeof *r);
}
