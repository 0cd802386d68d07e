/* eval: the evaluation of a claim over the configs of one case — see
 * claims.h, "evaluation". */
#include "check/lex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "core/util.h"

double
mr_expr_apply(enum mr_expr_kind k, double a, double b)
{
	switch (k) {
	case MR_E_NEG:
		return -a;
	case MR_E_ADD:
		return a + b;
	case MR_E_SUB:
		return a - b;
	case MR_E_MUL:
		return a * b;
	case MR_E_DIV:
		return a / b;
	default:
		return NAN;
	}
}


/* The value of e with the references' values val.  An undefined value (a
 * division by zero, a result beyond the doubles) is NAN, and *bad is set
 * to the first node that made one: IEEE would make x/0 an inf that holds
 * "x/0 > 1" and 0/0 a NaN that fails every comparison, neither of which
 * is a figure.  The depth of the recursion is bounded by the parser
 * (MR_CLAIM_MAX_TERMS, MR_CLAIM_MAX_DEPTH). */
static double
calc(const struct mr_expr *e, const double *val, const struct mr_expr **bad)
{
	double a, b, v;

	if (e->konst)
		return e->num;
	switch (e->kind) {
	case MR_E_NUM:
		return e->num;
	case MR_E_REF:
		v = val[e->ref];
		break;
	default:
		a = calc(e->a, val, bad);
		b = e->b ? calc(e->b, val, bad) : 0;
		if (isnan(a) || isnan(b))
			return NAN;
		if (e->kind == MR_E_DIV && b == 0) {
			if (!*bad)
				*bad = e;
			return NAN;
		}
		v = mr_expr_apply(e->kind, a, b);
		break;
	}
	if (!isfinite(v)) {
		if (!*bad)
			*bad = e;
		return NAN;
	}
	return v;
}

/* The reference as written: metric[@checkpoint[#seq]][[key=value,...]]. */
static void
ref_src(struct strbuf *b, const struct mr_ref *r)
{
	int k;

	sb_add(b, r->ckpt ? mr_ckpt_metrics[r->metric] : mr_run_metrics[r->metric]);
	if (r->checkpoint)
		sb_printf(b, "@%s", r->checkpoint);
	if (r->seq)
		sb_printf(b, "#%ld", r->seq);
	for (k = 0; k < r->npairs; k++)
		sb_printf(b, "%s%s=%s", k ? "," : "[", r->key[k], r->val[k]);
	if (r->npairs)
		sb_add(b, "]");
}

/* The expression as written (references by name). */
static void
src(struct strbuf *b, const struct mr_expr *e, const struct mr_claim *c)
{
	static const char *const bin[] = {
		[MR_E_ADD] = " + ", [MR_E_SUB] = " - ",
		[MR_E_MUL] = " * ", [MR_E_DIV] = " / ",
	};

	if (e->paren)
		sb_add(b, "(");
	switch (e->kind) {
	case MR_E_NUM:
		sb_add(b, e->text);
		break;
	case MR_E_REF:
		ref_src(b, &c->ref[e->ref]);
		break;
	case MR_E_NEG:
		sb_add(b, "-");
		src(b, e->a, c);
		break;
	default:
		src(b, e->a, c);
		sb_add(b, bin[e->kind]);
		src(b, e->b, c);
		break;
	}
	if (e->paren)
		sb_add(b, ")");
}

/* Why bad (set by calc) made the value undefined, into b. */
static void
undefined_why(struct strbuf *b, const struct mr_expr *bad,
	      const struct mr_claim *c, const double *val)
{
	const struct mr_expr *none = NULL;
	char num[48];

	if (bad->kind == MR_E_DIV && calc(bad->b, val, &none) == 0) {
		src(b, bad->b, c);
		sb_add(b, " is 0 (a division by zero)");
		return;
	}
	src(b, bad, c);
	sb_printf(b, " is %s (beyond the range of a double)",
		  mr_fmt_num(num, bad->kind == MR_E_REF ? val[bad->ref] :
				  mr_expr_apply(bad->kind, calc(bad->a, val, &none),
					bad->b ? calc(bad->b, val, &none) : 0)));
}

/* Whether c holds at val; *bad as calc sets it (the result is then 0). */
static int
holds(const struct mr_cmp *c, const double *val, const struct mr_expr **bad)
{
	double l = calc(c->l, val, bad), r = calc(c->r, val, bad);

	if (isnan(l) || isnan(r))
		return 0;
	switch (c->op) {
	case MR_LT:
		return l < r;
	case MR_LE:
		return l <= r;
	case MR_GT:
		return l > r;
	case MR_GE:
		return l >= r;
	}
	return 0;
}

static const char *const opname[] = { "<", "<=", ">", ">=" };

/* The expression as written, with each reference replaced by its value. */
static void
render(struct strbuf *b, const struct mr_expr *e, const double *val)
{
	static const char *const bin[] = {
		[MR_E_ADD] = " + ", [MR_E_SUB] = " - ",
		[MR_E_MUL] = " * ", [MR_E_DIV] = " / ",
	};
	char num[48];

	if (e->paren)
		sb_add(b, "(");
	switch (e->kind) {
	case MR_E_NUM:
		sb_add(b, e->text);
		break;
	case MR_E_REF:
		sb_add(b, mr_fmt_num(num, val[e->ref]));
		break;
	case MR_E_NEG:
		sb_add(b, "-");
		render(b, e->a, val);
		break;
	default:
		render(b, e->a, val);
		sb_add(b, bin[e->kind]);
		render(b, e->b, val);
		break;
	}
	if (e->paren)
		sb_add(b, ")");
}

static int
simple(const struct mr_expr *e)
{
	return e->kind == MR_E_NUM || e->kind == MR_E_REF ||
	       (e->kind == MR_E_NEG && simple(e->a));
}

/* One side, and its value in parentheses when it is computed. */
static void
render_side(struct strbuf *b, const struct mr_expr *e, const double *val)
{
	char num[48];

	const struct mr_expr *bad = NULL;

	render(b, e, val);
	if (!simple(e))
		sb_printf(b, " (%s)", mr_fmt_num(num, calc(e, val, &bad)));
}

static void
render_cmp(struct strbuf *b, const struct mr_cmp *c, const double *val)
{
	render_side(b, c->l, val);
	sb_printf(b, " %s ", opname[c->op]);
	render_side(b, c->r, val);
}

static int
names(const struct mr_ref *r, const char *key)
{
	int i;

	for (i = 0; i < r->npairs; i++)
		if (!strcmp(r->key[i], key))
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

/* A combination of the values of the axes some reference leaves unnamed:
 * ax[it[k]] takes its value idx[k]. */
struct comb {
	const struct mr_axis *ax;
	const int *it;
	const int *idx;
	int nit;
};

/* What the combinations came to so far, for the detail of the result. */
struct tally {
	struct strbuf first_true, first_false, falselabels;
	struct strbuf first_undef, undeflabels;
	struct skips sk;
};

/* The values of c's references at combination cb into val[]: 0, or -1
 * with *cause (a fresh string with a WHAT in it) and *what (fresh: the
 * configs or the selection it applies to) saying why one has none. */
static int
comb_values(const struct mr_claim *c, const struct mr_eval_data *d,
	    const struct comb *cb, double *val, char **cause, char **what)
{
	int i, j, k;

	for (j = 0; j < c->nref; j++) {
		const struct mr_ref *ref = &c->ref[j];
		int match = -1, nmatch = 0;
		char *why;

		for (i = 0; i < d->ncfg; i++) {
			const struct mr_config *cf = &d->cfg[i];

			if (!mr_ref_selects(ref, cf))
				continue;
			for (k = 0; k < cb->nit; k++) {
				const struct mr_axis *a = &cb->ax[cb->it[k]];

				if (!names(ref, a->key) &&
				    !mr_config_same(mr_config_get(cf, a->key), a->val[cb->idx[k]]))
					break;
			}
			if (k < cb->nit)
				continue;
			if (nmatch++ == 0)
				match = i;
		}
		for (k = 0; nmatch == 0 && k < ref->npairs; k++) {
			for (i = 0; i < d->ncfg; i++)
				if (mr_config_same(mr_config_get(&d->cfg[i], ref->key[k]),
						   ref->val[k]))
					break;
			if (i == d->ncfg)
				break;
		}
		if (nmatch == 0 && k < ref->npairs) {
			/* A value of another profile, or a typo. */
			*what = esprintf("%s=%s", ref->key[k], ref->val[k]);
			*cause = estrdup("no run has " WHAT);
			return -1;
		} else if (nmatch != 1) {
			/* Only a matrix that is not a full product gets
			 * here. */
			struct strbuf sel = {0};

			sb_add(&sel, "");
			for (k = 0; k < ref->npairs; k++)
				pair(&sel, ref->key[k], ref->val[k]);
			for (k = 0; k < cb->nit; k++)
				if (!names(ref, cb->ax[cb->it[k]].key))
					pair(&sel, cb->ax[cb->it[k]].key,
					     cb->ax[cb->it[k]].val[cb->idx[k]]);
			*what = sel.s;
			*cause = estrdup(nmatch ? "several configs match " WHAT
					        : "no config with " WHAT " in the results");
			return -1;
		} else if (d->value(d->ctx, match, ref, &val[j], &why) < 0) {
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
		int h = holds(&c->cmp[j], val, &b1);

		if (b1 && undef < 0) {
			undef = j;
			bad = b1;
		} else if (!b1 && !h) {
			break;
		}
	}
	if (j == c->ncmp && undef >= 0) {
		r->nundefined++;
		render(line, c->cmp[undef].l, val);
		sb_printf(line, " %s ", opname[c->cmp[undef].op]);
		render(line, c->cmp[undef].r, val);
		sb_add(line, " is undefined: ");
		undefined_why(line, bad, c, val);
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
			render_cmp(line, &c->cmp[j], val);
		}
		if (r->ntrue == 1)
			sb_add(&t->first_true, line->s);
	} else {
		r->nfalse++;
		render_cmp(line, &c->cmp[j], val);
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

static void
eval_combinations(const struct mr_claim *c, const struct mr_eval_data *d,
		  struct mr_claim_result *r)
{
	struct mr_axis *ax;
	int naxes = mr_config_axes(d->cfg, d->ncfg, &ax);
	int *it = ecalloc(naxes, sizeof *it); /* axes some reference leaves unnamed */
	int *idx = ecalloc(naxes, sizeof *idx); /* the current combination */
	double *val = ecalloc(c->nref, sizeof *val);
	struct comb cb = { ax, it, idx, 0 };
	struct tally t = {0};
	int i, j, k;

	memset(r, 0, sizeof *r);
	for (i = 0; i < naxes; i++) {
		for (j = 0; j < c->nref; j++) {
			if (!names(&c->ref[j], ax[i].key)) {
				it[cb.nit++] = i;
				break;
			}
		}
	}
	for (;;) {
		struct strbuf label = {0}, line = {0};
		char *cause = NULL, *what = NULL;

		sb_add(&label, "");
		for (k = 0; k < cb.nit; k++)
			pair(&label, ax[it[k]].key, ax[it[k]].val[idx[k]]);
		r->ncomb++;
		if (label.len)
			sb_printf(&line, "%s: ", label.s);
		else
			sb_add(&line, "");
		if (comb_values(c, d, &cb, val, &cause, &what) < 0) {
			r->nskipped++;
			sb_add(&line, "skipped (");
			put_cause(&line, cause, what);
			sb_add(&line, ")");
			skips_add(&t.sk, cause, what);
		} else {
			comb_judge(c, val, label.s, &line, r, &t);
		}
		r->lines = erealloc(r->lines, sizeof *r->lines * (r->nlines + 1));
		r->lines[r->nlines++] = line.s;
		sb_free(&label);

		/* The next combination, odometer-wise. */
		for (k = cb.nit - 1; k >= 0; k--) {
			if (++idx[k] < ax[it[k]].nval)
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}
	summarize(r, &t);
	sb_free(&t.first_true);
	sb_free(&t.first_false);
	sb_free(&t.falselabels);
	sb_free(&t.first_undef);
	sb_free(&t.undeflabels);
	skips_free(&t.sk);
	free(val);
	free(idx);
	free(it);
	mr_config_axes_free(ax, naxes);
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
	free(r->detail);
	memset(r, 0, sizeof *r);
}
