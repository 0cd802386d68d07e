/* tally: a claim's combinations counted into its verdict, and the
 * words of the detail (what held, what failed, what was skipped and why) —
 * see evalint.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/expr.h"
#include "check/evalint.h"
#include "core/version.h"
#include "core/hash.h"
#include "core/numfmt.h"
#include "core/util.h"

/* Whether list (entries joined by " and ") has the entry e. */
int
ev_has_entry(const struct strbuf *list, const char *e)
{
	size_t n = strlen(e);
	const char *p;

	for (p = list->s; p && (p = strstr(p, e)); p++)
		if ((p == list->s || !strncmp(p - 5, " and ", 5)) &&
		    (!p[n] || !strncmp(p + n, " and ", 5)))
			return 1;
	return 0;
}

/* The entries of one cause's what, hashed: a skip is looked up in one
 * step, not by scanning the entries so far (that cost combinations^2). */
struct skipset {
	struct mr_hash h;
	size_t *off;     /* where each entry starts in what */
	size_t *len;
	int n;
};

struct entry_probe {
	const struct skipset *set;
	const char *s;   /* what's text */
	const char *e;   /* the entry looked for */
};

static int
same_entry(const void *ctx, int i)
{
	const struct entry_probe *p = ctx;

	return p->set->len[i] == strlen(p->e) &&
	       !memcmp(p->s + p->set->off[i], p->e, p->set->len[i]);
}

/* Record what (a label) under cause; takes both. */
void
ev_skips_add(struct skips *sk, char *cause, char *what)
{
	struct skipset *set;
	struct entry_probe p;
	uint64_t hv;
	int i;

	for (i = 0; i < sk->n; i++)
		if (!strcmp(sk->cause[i], cause))
			break;
	if (i == sk->n) {
		sk->cause = erealloc(sk->cause, sizeof *sk->cause * (sk->n + 1));
		sk->what = erealloc(sk->what, sizeof *sk->what * (sk->n + 1));
		sk->set = erealloc(sk->set, sizeof *sk->set * (sk->n + 1));
		sk->cause[i] = cause;
		memset(&sk->what[i], 0, sizeof sk->what[i]);
		memset(&sk->set[i], 0, sizeof sk->set[i]);
		sk->n++;
	} else {
		free(cause);
	}
	set = &sk->set[i];
	p = (struct entry_probe){ set, sk->what[i].s, what };
	hv = mr_hash_str(MR_HASH0, what);
	if (mr_hash_find(&set->h, hv, same_entry, &p) < 0) {
		sb_printf(&sk->what[i], "%s", sk->what[i].len ? " and " : "");
		/* an entry's offset at 1, 2, 4, ... entries: grown by doubling */
		if ((set->n & (set->n - 1)) == 0) {
			size_t cap = set->n ? 2 * (size_t)set->n : 1;

			set->off = erealloc(set->off, sizeof *set->off * cap);
			set->len = erealloc(set->len, sizeof *set->len * cap);
		}
		set->off[set->n] = sk->what[i].len;
		set->len[set->n] = strlen(what);
		sb_add(&sk->what[i], what);
		mr_hash_add(&set->h, hv, set->n++);
	}
	free(what);
}

/* cause with its WHAT replaced by what. */
void
ev_put_cause(struct strbuf *b, const char *cause, const char *what)
{
	const char *m = strstr(cause, WHAT);

	sb_addn(b, cause, (size_t)(m - cause));
	sb_add(b, what);
	sb_add(b, m + 1);
}

/* Up to max causes, each with its configs. */
void
ev_skips_join(struct strbuf *b, const struct skips *sk, int max)
{
	int i;

	for (i = 0; i < sk->n && i < max; i++) {
		sb_add(b, i ? "; " : "");
		ev_put_cause(b, sk->cause[i], sk->what[i].s);
	}
	if (sk->n > max)
		sb_printf(b, "; and %d more", sk->n - max);
}

void
ev_skips_free(struct skips *sk)
{
	int i;

	for (i = 0; i < sk->n; i++) {
		free(sk->cause[i]);
		sb_free(&sk->what[i]);
		mr_hash_free(&sk->set[i].h);
		free(sk->set[i].off);
		free(sk->set[i].len);
	}
	free(sk->set);
	free(sk->cause);
	free(sk->what);
}

/* Judge c at the values val of the combination labelled label: count it
 * in r, say it in line, keep what the detail needs in t. */
void
ev_comb_judge(const struct mr_claim *c, const double *val, const char *label,
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
void
ev_summarize(struct mr_claim_result *r, const struct tally *t)
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
		ev_skips_join(&b, &t->sk, 3);
	}
	if (r->outcome != MR_CLAIM_NODATA && r->nskipped) {
		sb_printf(&b, "; %d skipped: ", r->nskipped);
		ev_skips_join(&b, &t->sk, 2);
	}
	r->detail = b.s;
}
