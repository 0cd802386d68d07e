/* eval: the evaluation of a claim over the configs of one case — see
 * claims.h, "evaluation". */
#include "check/expr.h"
#include "check/lex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "core/util.h"


/* Whether r names key: a pair of it fixes its value.  A libc range
 * (libc>=2.41) does not: the claim ranges over the libcs in it.  The key
 * of an axis directive r leaves unnamed is fixed too: unset. */
static int
names(const struct mr_ref *r, const char *key)
{
	int i;

	for (i = 0; i < r->nunset; i++)
		if (!strcmp(r->unset[i], key))
			return 1;
	for (i = 0; i < r->npairs; i++)
		if (!strcmp(r->key[i], key) &&
		    (r->vp[i].name || r->vp[i].op < MR_V_LT))
			return 1;
	return 0;
}

/* Whether r pins the version of the allocator called name
 * (allocator=jemalloc@5.2.1): it does not range over its versions. */
static int
pinned(const struct mr_ref *r, const char *name)
{
	int i;

	for (i = 0; i < r->npairs; i++)
		if (r->vp[i].name && r->vp[i].op == MR_V_EQ &&
		    !strcmp(r->vp[i].name, name))
			return 1;
	return 0;
}

/* Where a cause takes the configs it applies to. */
#define WHAT "\001"

/* Why combinations were skipped, grouped by cause: "no data for A and B
 * (skipped: libfoo not found)" reads better than the same cause twice. */
struct skips {
	int n;
	char **cause;          /* "no data for " WHAT " (why)", ... */
	struct strbuf *what;   /* the configs or selections, joined by " and " */
};

/* Whether list (entries joined by " and ") has the entry e. */
static int
has_entry(const struct strbuf *list, const char *e)
{
	size_t n = strlen(e);
	const char *p;

	for (p = list->s; p && (p = strstr(p, e)); p++)
		if ((p == list->s || !strncmp(p - 5, " and ", 5)) &&
		    (!p[n] || !strncmp(p + n, " and ", 5)))
			return 1;
	return 0;
}

/* Record what (a label) under cause; takes both. */
static void
skips_add(struct skips *sk, char *cause, char *what)
{
	int i;

	for (i = 0; i < sk->n; i++)
		if (!strcmp(sk->cause[i], cause))
			break;
	if (i == sk->n) {
		sk->cause = erealloc(sk->cause, sizeof *sk->cause * (sk->n + 1));
		sk->what = erealloc(sk->what, sizeof *sk->what * (sk->n + 1));
		sk->cause[i] = cause;
		memset(&sk->what[i], 0, sizeof sk->what[i]);
		sk->n++;
	} else {
		free(cause);
	}
	if (!has_entry(&sk->what[i], what))
		sb_printf(&sk->what[i], "%s%s", sk->what[i].len ? " and " : "", what);
	free(what);
}

/* cause with its WHAT replaced by what. */
static void
put_cause(struct strbuf *b, const char *cause, const char *what)
{
	const char *m = strstr(cause, WHAT);

	sb_addn(b, cause, (size_t)(m - cause));
	sb_add(b, what);
	sb_add(b, m + 1);
}

/* Up to max causes, each with its configs. */
static void
skips_join(struct strbuf *b, const struct skips *sk, int max)
{
	int i;

	for (i = 0; i < sk->n && i < max; i++) {
		sb_add(b, i ? "; " : "");
		put_cause(b, sk->cause[i], sk->what[i].s);
	}
	if (sk->n > max)
		sb_printf(b, "; and %d more", sk->n - max);
}

static void
skips_free(struct skips *sk)
{
	int i;

	for (i = 0; i < sk->n; i++) {
		free(sk->cause[i]);
		sb_free(&sk->what[i]);
	}
	free(sk->cause);
	free(sk->what);
}

/* "k=v" of a combination or selection; unset keys as "k unset". */
static void
pair(struct strbuf *b, const char *key, const char *val)
{
	if (val)
		sb_printf(b, "%s%s=%s", b->len ? "," : "", key, val);
	else
		sb_printf(b, "%s%s unset", b->len ? "," : "", key);
}

/* Whether c is made for the THP mode thp; if not, r is a skip saying why. */
static int
when_applies(const struct mr_claim *c, const char *thp, struct mr_claim_result *r)
{
	struct strbuf b = {0};
	int i;

	memset(r, 0, sizeof *r);
	for (i = 0; i < c->nwhen_thp; i++)
		if (thp && !strcmp(thp, c->when_thp[i]))
			return 1;
	if (!c->nwhen_thp)
		return 1;
	sb_add(&b, "claimed only when thp=");
	for (i = 0; i < c->nwhen_thp; i++)
		sb_printf(&b, "%s%s", i ? "," : "", c->when_thp[i]);
	if (thp)
		sb_printf(&b, "; this platform has thp=%s", thp);
	else
		sb_add(&b, "; the results do not record the THP mode");
	r->outcome = MR_CLAIM_NODATA;
	r->detail = b.s;
	return 0;
}

/* The versions of one allocator in the configs, an axis of their own
 * when there are several: jemalloc, jemalloc@5.2.1, jemalloc@5.3.0. */
struct vaxis {
	const char *name;   /* the allocator's name (into d's versions) */
	const char **spec;  /* its allocator values, in order of appearance */
	const char **ver;   /* their versions (NULL: not known) */
	int n;
};

/* One evaluation of a claim: the axes, the current combination, and what
 * is worked out once per claim. */
struct ev {
	const struct mr_claim *c;
	const struct mr_eval_data *d;
	const struct mr_config_ver *ver; /* d->ncfg */
	const struct mr_config *acfg; /* the configs the axes are of: d->cfg,
	                                 or copies whose allocator values are
	                                 the names (the versions are vax) */
	const struct mr_axis *ax;
	const int *it;       /* axes some reference leaves unnamed */
	const int *idx;      /* ... the value each takes */
	int nit;
	const struct vaxis *vax; /* allocators with several versions */
	const int *vidx;     /* ... the version each takes */
	int nvax;
	char *exact;         /* [nref * MR_REF_MAX_PAIRS]: an exact version
	                        pair whose value is spelt so by some config
	                        (it takes that config, not the host's of the
	                        same version) */
};

static int
pair_ok(const struct ev *e, int j, int k, int i)
{
	const struct mr_ref *ref = &e->c->ref[j];
	const struct mr_vpair *vp = &ref->vp[k];
	const char *v = mr_config_get(&e->d->cfg[i], ref->key[k]);

	if (vp->name) {
		if (!e->ver[i].alloc || strcmp(e->ver[i].alloc, vp->name))
			return 0;
		if (vp->op == MR_V_ANY)
			return 1;
		if (vp->op == MR_V_EQ && e->exact[j * MR_REF_MAX_PAIRS + k])
			return mr_config_same(v, ref->val[k]);
		return mr_version_satisfies(e->ver[i].alloc_ver, vp->op, vp->version);
	}
	if (vp->op != MR_V_ANY) {
		if (vp->op == MR_V_EQ && e->exact[j * MR_REF_MAX_PAIRS + k])
			return mr_config_same(v, ref->val[k]);
		return mr_version_satisfies(e->ver[i].libc_ver, vp->op, vp->version);
	}
	return mr_config_same(v, ref->val[k]);
}

/* Whether reference j selects config i by the pairs it names. */
static int
ref_sel(const struct ev *e, int j, int i)
{
	int k;

	for (k = 0; k < e->c->ref[j].nunset; k++)
		if (mr_config_get(&e->d->cfg[i], e->c->ref[j].unset[k]))
			return 0;
	for (k = 0; k < e->c->ref[j].npairs; k++)
		if (!pair_ok(e, j, k, i))
			return 0;
	return 1;
}

/* Whether config i has the combination's values of the axes reference j
 * leaves unnamed. */
static int
in_comb(const struct ev *e, int j, int i)
{
	const struct mr_ref *ref = &e->c->ref[j];
	int k;

	for (k = 0; k < e->nit; k++) {
		const struct mr_axis *a = &e->ax[e->it[k]];

		if (!names(ref, a->key) &&
		    !mr_config_same(mr_config_get(&e->acfg[i], a->key), a->val[e->idx[k]]))
			return 0;
	}
	for (k = 0; k < e->nvax; k++) {
		const struct vaxis *a = &e->vax[k];

		if (e->ver[i].alloc && !strcmp(e->ver[i].alloc, a->name) &&
		    !pinned(ref, a->name) &&
		    !mr_config_same(mr_config_get(&e->d->cfg[i], MR_KEY_ALLOCATOR),
				    a->spec[e->vidx[k]]))
			return 0;
	}
	return 1;
}

/* Whether the versions of allocator a matter to the combination: some
 * reference not pinning one takes a config of that allocator. */
static int
concerns(const struct ev *e, const struct vaxis *a)
{
	int i, j;

	for (j = 0; j < e->c->nref; j++) {
		if (pinned(&e->c->ref[j], a->name))
			continue;
		for (i = 0; i < e->d->ncfg; i++)
			if (e->ver[i].alloc && !strcmp(e->ver[i].alloc, a->name) &&
			    ref_sel(e, j, i) && in_comb(e, j, i))
				return 1;
	}
	return 0;
}

/* The version of the libc the combination's value val of the libc axis
 * stands for (NULL: not known). */
static const char *
libc_version(const struct ev *e, const char *val)
{
	int i;

	for (i = 0; i < e->d->ncfg; i++)
		if (mr_config_same(mr_config_get(&e->d->cfg[i], MR_KEY_LIBC), val))
			return e->ver[i].libc_ver;
	return NULL;
}

/* Whether the combination is outside a range a reference names
 * (allocator=jemalloc@>=5.2 at jemalloc@5.1.0, libc>=2.41 at libc=2.36):
 * not a combination of the claim. */
static int
outside(const struct ev *e)
{
	int j, k, l;

	for (j = 0; j < e->c->nref; j++) {
		const struct mr_ref *ref = &e->c->ref[j];

		for (k = 0; k < ref->npairs; k++) {
			const struct mr_vpair *vp = &ref->vp[k];

			if (vp->op < MR_V_LT)
				continue;
			if (vp->name) {
				for (l = 0; l < e->nvax; l++)
					if (!strcmp(e->vax[l].name, vp->name) &&
					    !mr_version_satisfies(e->vax[l].ver[e->vidx[l]],
								  vp->op, vp->version))
						return 1;
				continue;
			}
			if (names(ref, ref->key[k]))
				continue;
			for (l = 0; l < e->nit; l++)
				if (!strcmp(e->ax[e->it[l]].key, ref->key[k]) &&
				    !mr_version_satisfies(libc_version(e, e->ax[e->it[l]].val[e->idx[l]]),
							  vp->op, vp->version))
					return 1;
		}
	}
	return 0;
}

/* What the combinations came to so far, for the detail of the result. */
struct tally {
	struct strbuf first_true, first_false, falselabels;
	struct strbuf first_undef, undeflabels;
	struct skips sk;
};

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

		for (i = 0; i < d->ncfg; i++) {
			if (!ref_sel(e, j, i) || !in_comb(e, j, i))
				continue;
			if (nmatch++ == 0)
				match = i;
		}
		for (k = 0; nmatch == 0 && k < ref->npairs; k++) {
			for (i = 0; i < d->ncfg; i++)
				if (pair_ok(e, j, k, i))
					break;
			if (i == d->ncfg)
				break;
		}
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
				if (!names(ref, e->ax[e->it[k]].key))
					pair(&sel, e->ax[e->it[k]].key,
					     e->ax[e->it[k]].val[e->idx[k]]);
			*what = sel.s;
			*cause = estrdup(nmatch ? "several configs match " WHAT
					        : "no config with " WHAT " in the results");
			return nmatch ? -1 : -2;
		}
		took[j] = match;
		if (d->value(d->ctx, match, ref, &val[j], &why) < 0) {
			*what = mr_config_label(d->cfg, d->ncfg, match);
			*cause = esprintf("no data for " WHAT " (%s)", why);
			free(why);
			return -1;
		}
	}
	return 0;
}

/* Judge c at the values val of the combination labelled label: count it
 * in r, say it in line, keep what the detail needs in t. */
static void
comb_judge(const struct mr_claim *c, const double *val, const char *label,
	   struct strbuf *line, struct mr_claim_result *r, struct tally *t)
{
	const struct mr_expr *bad = NULL;
	int undef = -1, j;

	/* A false comparison makes the conjunction false even beside an
	 * undefined one. */
	for (j = 0; j < c->ncmp; j++) {
		const struct mr_expr *b1 = NULL;
		int h = mr_expr_holds(&c->cmp[j], val, &b1);

		if (b1 && undef < 0) {
			undef = j;
			bad = b1;
		} else if (!b1 && !h) {
			break;
		}
	}
	if (j == c->ncmp && undef >= 0) {
		r->nundefined++;
		mr_expr_render(line, c->cmp[undef].l, val);
		sb_printf(line, " %s ", mr_expr_opname[c->cmp[undef].op]);
		mr_expr_render(line, c->cmp[undef].r, val);
		sb_add(line, " is undefined: ");
		mr_expr_undefined_why(line, bad, c, val);
		if (r->nundefined == 1)
			sb_add(&t->first_undef, line->s);
		else
			sb_printf(&t->undeflabels, "%s%s",
				  t->undeflabels.len ? " and " : "", label);
	} else if (j == c->ncmp) {
		r->ntrue++;
		for (j = 0; j < c->ncmp; j++) {
			if (j)
				sb_add(line, " and ");
			mr_expr_render_cmp(line, &c->cmp[j], val);
		}
		if (r->ntrue == 1)
			sb_add(&t->first_true, line->s);
	} else {
		r->nfalse++;
		mr_expr_render_cmp(line, &c->cmp[j], val);
		sb_add(line, " is false");
		if (r->nfalse == 1)
			sb_add(&t->first_false, line->s);
		else
			sb_printf(&t->falselabels, "%s%s",
				  t->falselabels.len ? " and " : "", label);
	}
}

/* The outcome and the one-line detail of r, from what t kept. */
static void
summarize(struct mr_claim_result *r, const struct tally *t)
{
	struct strbuf b = {0};

	sb_add(&b, "");
	if (r->nfalse) {
		r->outcome = MR_CLAIM_FALSE;
		sb_add(&b, t->first_false.s);
		if (t->falselabels.len)
			sb_printf(&b, "; also false for %s", t->falselabels.s);
	} else if (r->nundefined) {
		r->outcome = MR_CLAIM_UNDEFINED;
		sb_add(&b, t->first_undef.s);
		if (t->undeflabels.len)
			sb_printf(&b, "; also undefined for %s", t->undeflabels.s);
		if (r->ntrue)
			sb_printf(&b, "; %d of %d combinations held", r->ntrue,
				  r->ncomb);
	} else if (r->ntrue) {
		r->outcome = MR_CLAIM_TRUE;
		sb_add(&b, t->first_true.s);
		if (r->ncomb > 1)
			sb_printf(&b, "; %d of %d combinations held", r->ntrue,
				  r->ncomb);
	} else {
		r->outcome = MR_CLAIM_NODATA;
		skips_join(&b, &t->sk, 3);
	}
	if (r->outcome != MR_CLAIM_NODATA && r->nskipped) {
		sb_printf(&b, "; %d skipped: ", r->nskipped);
		skips_join(&b, &t->sk, 2);
	}
	r->detail = b.s;
}

/* The allocators with several versions in the configs, into *out. */
static int
version_axes(const struct mr_eval_data *d, const struct mr_config_ver *ver,
	     struct vaxis **out)
{
	struct vaxis *v = ecalloc(d->ncfg + 1, sizeof *v);
	int n = 0, i, j, k;

	for (i = 0; i < d->ncfg; i++) {
		const char *spec = mr_config_get(&d->cfg[i], MR_KEY_ALLOCATOR);

		if (!ver[i].alloc)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(v[j].name, ver[i].alloc))
				break;
		if (j == n) {
			v[n].name = ver[i].alloc;
			v[n].spec = ecalloc(d->ncfg, sizeof *v[n].spec);
			v[n].ver = ecalloc(d->ncfg, sizeof *v[n].ver);
			n++;
		}
		for (k = 0; k < v[j].n; k++)
			if (!strcmp(v[j].spec[k], spec))
				break;
		if (k == v[j].n) {
			v[j].spec[k] = spec;
			v[j].ver[k] = ver[i].alloc_ver;
			v[j].n++;
		}
	}
	for (i = j = 0; i < n; i++) {
		if (v[i].n > 1) {
			v[j++] = v[i];
		} else {
			free(v[i].spec);
			free(v[i].ver);
		}
	}
	*out = v;
	return j;
}

/* The configs with the allocator values of vax[0..nvax-1] (allocators of
 * several versions) replaced by their names, into a fresh array; NULL
 * when there are none (the configs are their own).  An allocator with
 * one version keeps its value, and its labels their version. */
static struct mr_config *
name_configs(const struct mr_eval_data *d, const struct mr_config_ver *ver,
	     const struct vaxis *vax, int nvax)
{
	struct mr_config *a;
	int i, k, l;

	if (!nvax)
		return NULL;
	a = ecalloc(d->ncfg + 1, sizeof *a);
	for (i = 0; i < d->ncfg; i++) {
		struct strbuf b = {0};
		const char *why;

		for (l = 0; l < nvax && !(ver[i].alloc && !strcmp(ver[i].alloc, vax[l].name)); l++)
			;
		sb_add(&b, "");
		for (k = 0; k < d->cfg[i].n; k++)
			sb_printf(&b, "%s%s=%s", k ? "," : "", d->cfg[i].key[k],
				  strcmp(d->cfg[i].key[k], MR_KEY_ALLOCATOR) || l == nvax
				  ? d->cfg[i].val[k] : ver[i].alloc);
		/* only values change: still canonical */
		if (mr_config_parse(b.s, &a[i], &why) < 0)
			eprintf("config %s: %s", b.s, why);
		sb_free(&b);
	}
	return a;
}

/* The label of the combination: the values of the unnamed axes, an
 * allocator's name with the version it takes where its versions matter. */
static void
comb_label(struct strbuf *b, const struct ev *e, const int *vcon)
{
	int k, l, *done = ecalloc(e->nvax + 1, sizeof *done);

	sb_add(b, "");
	for (k = 0; k < e->nit; k++) {
		const struct mr_axis *a = &e->ax[e->it[k]];
		const char *val = a->val[e->idx[k]];

		for (l = 0; val && !strcmp(a->key, MR_KEY_ALLOCATOR) && l < e->nvax; l++)
			if (vcon[l] && !strcmp(e->vax[l].name, val)) {
				val = e->vax[l].spec[e->vidx[l]];
				done[l] = 1;
			}
		pair(b, a->key, val);
	}
	/* "allocator=jemalloc@5.2.1", or where the combination's allocator
	 * is another one's, the version alone */
	for (k = 0; k < e->nit && strcmp(e->ax[e->it[k]].key, MR_KEY_ALLOCATOR); k++)
		;
	for (l = 0; l < e->nvax; l++)
		if (vcon[l] && !done[l])
			sb_printf(b, "%s%s%s", b->len ? "," : "",
				  k < e->nit ? "" : MR_KEY_ALLOCATOR "=",
				  e->vax[l].spec[e->vidx[l]]);
	free(done);
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
		vcon[k] = concerns(e, &e->vax[k]);
		dup |= !vcon[k] && e->vidx[k] > 0;
	}
	if (dup || outside(e)) {
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
	comb_label(&label, e, vcon);
	r->ncomb++;
	if (label.len)
		sb_printf(&line, "%s: ", label.s);
	else
		sb_add(&line, "");
	r->comb = erealloc(r->comb, sizeof *r->comb * r->ncomb);
	cb = &r->comb[r->ncomb - 1];
	if (got < 0) {
		r->nskipped++;
		sb_add(&line, "skipped (");
		put_cause(&line, cause, what);
		sb_add(&line, ")");
		skips_add(&t->sk, cause, what);
		cb->outcome = MR_CLAIM_NODATA;
	} else {
		comb_judge(c, val, label.s, &line, r, t);
		cb->outcome = r->ntrue > n0 ? MR_CLAIM_TRUE : r->nfalse > n1
			      ? MR_CLAIM_FALSE : MR_CLAIM_UNDEFINED;
	}
	cb->cfg = ecalloc(c->nref + 1, sizeof *cb->cfg);
	memcpy(cb->cfg, took, sizeof *took * c->nref);
	r->lines = erealloc(r->lines, sizeof *r->lines * (r->nlines + 1));
	r->lines[r->nlines++] = line.s;
	sb_free(&label);
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

/* Why no combination was evaluated: every one was outside the ranges
 * the claim names ("no run has allocator=jemalloc@>=5.4"). */
static char *
outside_why(const struct mr_claim *c)
{
	struct strbuf list = {0}, one = {0};
	char *why;
	int j, k;

	sb_add(&list, "");
	for (j = 0; j < c->nref; j++) {
		for (k = 0; k < c->ref[j].npairs; k++) {
			if (c->ref[j].vp[k].op < MR_V_LT)
				continue;
			sb_free(&one);
			sb_add(&one, "");
			mr_ref_pair_src(&one, &c->ref[j], k);
			if (!has_entry(&list, one.s))
				sb_printf(&list, "%s%s", list.len ? " and " : "", one.s);
		}
	}
	why = esprintf("no run has %s", list.s);
	sb_free(&one);
	sb_free(&list);
	return why;
}

static void
eval_combinations(const struct mr_claim *c, const struct mr_eval_data *d,
		  struct mr_claim_result *r)
{
	struct mr_config_ver *ownver = d->ver ? NULL : mr_config_vers(d->cfg, d->ncfg, NULL, NULL);
	const struct mr_config_ver *ver = d->ver ? d->ver : ownver;
	struct vaxis *vax;
	int nvax = version_axes(d, ver, &vax);
	struct mr_config *ncfg = name_configs(d, ver, vax, nvax);
	const struct mr_config *acfg = ncfg ? ncfg : d->cfg;
	struct mr_axis *ax;
	int naxes = mr_config_axes(acfg, d->ncfg, &ax);
	int *it = ecalloc(naxes + 1, sizeof *it); /* axes some reference leaves unnamed */
	int *idx = ecalloc(naxes + 1, sizeof *idx); /* the current combination */
	int *vidx = ecalloc(nvax + 1, sizeof *vidx), *vcon = ecalloc(nvax + 1, sizeof *vcon);
	double *val = ecalloc(c->nref, sizeof *val);
	int *took = ecalloc(c->nref, sizeof *took);
	struct ev e = { c, d, ver, acfg, ax, it, idx, 0, vax, vidx, nvax, NULL };
	struct tally t = {0};
	int i, j, k, nout = 0, nabsent = 0, replay = 0;

	memset(r, 0, sizeof *r);
	e.exact = ecalloc((size_t)c->nref * MR_REF_MAX_PAIRS + 1, 1);
	for (j = 0; j < c->nref; j++)
		for (k = 0; k < c->ref[j].npairs; k++)
			for (i = 0; c->ref[j].vp[k].op == MR_V_EQ && i < d->ncfg; i++)
				if (mr_config_same(mr_config_get(&d->cfg[i], c->ref[j].key[k]),
						   c->ref[j].val[k]))
					e.exact[j * MR_REF_MAX_PAIRS + k] = 1;
	for (i = 0; i < naxes; i++) {
		for (j = 0; j < c->nref; j++) {
			if (!names(&c->ref[j], ax[i].key)) {
				it[e.nit++] = i;
				break;
			}
		}
	}
	/* A second pass when every combination was one the matrix does not
	 * have: they are then skipped, saying so (the odometer is back at
	 * zero after a pass). */
again:
	do
		comb_one(&e, vcon, val, took, replay, r, &t, &nout, &nabsent);
	while (odometer_next(&e, idx, vidx));
	if (r->ncomb == 0 && nabsent && !replay) {
		replay = 1;
		goto again;
	}
	if (r->ncomb == 0 && nout) {
		r->outcome = MR_CLAIM_NODATA;
		r->detail = outside_why(c);
	} else {
		summarize(r, &t);
	}
	sb_free(&t.first_true);
	sb_free(&t.first_false);
	sb_free(&t.falselabels);
	sb_free(&t.first_undef);
	sb_free(&t.undeflabels);
	skips_free(&t.sk);
	free(e.exact);
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
mr_claim_eval(const struct mr_claim *c, const struct mr_eval_data *d,
	      struct mr_claim_result *r)
{
	if (when_applies(c, d->thp, r))
		eval_combinations(c, d, r);
}

void
mr_claim_result_free(struct mr_claim_result *r)
{
	int i;

	for (i = 0; i < r->nlines; i++)
		free(r->lines[i]);
	free(r->lines);
	for (i = 0; r->comb && i < r->ncomb; i++)
		free(r->comb[i].cfg);
	free(r->comb);
	free(r->detail);
	memset(r, 0, sizeof *r);
}
