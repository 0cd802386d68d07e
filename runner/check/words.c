/* words: a claim's verdict said in words — see words.h. */
#include "check/words.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/expr.h"
#include "check/wordsint.h"
#include "core/numfmt.h"
#include "core/util.h"

/* --- comparisons ----------------------------------------------------------- */

/* "Q op K": a quantity held to a bound. */
static void
say_bound(struct strbuf *b, const struct wctx *w, const struct qty *q,
	  enum mr_op op, const struct mr_expr *k, const char *mark)
{
	struct strbuf m = {0}, cfg = {0}, when = {0}, bv = {0}, bk = {0};

	sb_add(&m, "");
	sb_add(&cfg, "");
	sb_add(&when, "");
	mr_wd_put_metric(&m, q);
	if (q->kind == Q_CFGDIFF)
		mr_wd_put_cfgdiff(&cfg, w, q);
	else
		mr_wd_put_ref_pairs(&cfg, q->a, &w->cfg[q->cfg]);
	mr_wd_put_when(&when, q);
	mr_wd_put_pair(&bv, &bk, q->v, k->num, q->unit, q->kind == Q_GROWTH || q->kind == Q_CFGDIFF);
	sb_add(b, m.s);
	mr_wd_put_word(b, cfg.s);
	mr_wd_put_word(b, bv.s);
	mr_wd_put_word(b, when.s);
	sb_printf(b, " (claim: %s %s%s)", mr_wd_op_word(op), bk.s, mark);
	sb_free(&m);
	sb_free(&cfg);
	sb_free(&when);
	sb_free(&bv);
	sb_free(&bk);
}

/* One side of a ratio: what tells it from the other side, and its
 * figure. */
static void
put_side(struct strbuf *b, const struct wctx *w, const struct qty *q,
	 const struct qty *other, const char *m, const char *mo,
	 const char *when, const char *wo)
{
	struct strbuf v = {0};

	if (strcmp(m, mo))
		mr_wd_put_word(b, m);
	if (q->cfg != other->cfg) {
		struct strbuf d = {0};

		sb_add(&d, "");
		mr_wd_put_cfg_diff(&d, &w->cfg[q->cfg], &w->cfg[other->cfg]);
		mr_wd_put_word(b, d.s);
		sb_free(&d);
	}
	if (q->kind == Q_CFGDIFF) {
		struct strbuf d = {0};

		sb_add(&d, "");
		mr_wd_put_cfgdiff(&d, w, q);
		mr_wd_put_word(b, d.s);
		sb_free(&d);
	}
	sb_add(&v, "");
	mr_wd_put_val(&v, q->v, q->unit, mr_wd_tier(q->v, q->unit),
		q->kind == Q_GROWTH || q->kind == Q_CFGDIFF, 0);
	mr_wd_put_word(b, v.s);
	if (strcmp(when, wo))
		mr_wd_put_word(b, when);
	sb_free(&v);
}

/* The two sides of a comparison of q1 with q2: what they measure when
 * it is the same, what tells each from the other with its figure, when
 * they were measured when it is the same. */
static void
say_sides(struct strbuf *b, const struct wctx *w, const struct qty *q1,
	  const struct qty *q2)
{
	struct strbuf m1 = {0}, m2 = {0}, w1 = {0}, w2 = {0};

	sb_add(&m1, "");
	sb_add(&m2, "");
	sb_add(&w1, "");
	sb_add(&w2, "");
	mr_wd_put_metric(&m1, q1);
	mr_wd_put_metric(&m2, q2);
	mr_wd_put_when(&w1, q1);
	mr_wd_put_when(&w2, q2);
	if (!strcmp(m1.s, m2.s))
		sb_add(b, m1.s);
	put_side(b, w, q1, q2, m1.s, m2.s, w1.s, w2.s);
	sb_add(b, " vs");
	put_side(b, w, q2, q1, m2.s, m1.s, w2.s, w1.s);
	if (!strcmp(w1.s, w2.s))
		mr_wd_put_word(b, w1.s);
	sb_free(&m1);
	sb_free(&m2);
	sb_free(&w1);
	sb_free(&w2);
}

/* "Q1 op k * Q2": the two sides, then their ratio against k.  0, or -1
 * when there are no words for it (q2 not above 0: no ratio). */
static int
say_ratio(struct strbuf *b, const struct wctx *w, const struct qty *q1,
	  enum mr_op op, const struct mr_expr *k, const struct qty *q2,
	  const char *mark)
{
	if (!(q2->v > 0) || q1->unit != q2->unit)
		return -1;
	say_sides(b, w, q1, q2);
	sb_add(b, ": ");
	mr_wd_put_ratio(b, q1->v / q2->v, op, k ? k->num : 1);
	sb_printf(b, " (claim: %s ", mr_wd_op_word(op));
	if (k)
		mr_wd_put_konst(b, k);
	else
		sb_add(b, "1");
	sb_printf(b, "x%s)", mark);
	return 0;
}

/* "Q1 op k * Q2 + K" (or - K): the two sides, then the bound they come
 * to, K in the figures' unit: "(claim: below 1.3x + 4 MiB = 31.3 MiB)". */
static int
say_affine(struct strbuf *b, const struct wctx *w, const struct qty *q1,
	   enum mr_op op, const struct mr_expr *k, const struct qty *q2,
	   int minus, const struct mr_expr *K, const char *mark)
{
	double kk = k ? k->num : 1, v = kk * q2->v + (minus ? -K->num : K->num);
	struct strbuf bk = {0};

	if (q1->unit != q2->unit || !isfinite(v))
		return -1;
	say_sides(b, w, q1, q2);
	sb_printf(b, " (claim: %s ", mr_wd_op_word(op));
	if (k)
		mr_wd_put_konst(b, k);
	else
		sb_add(b, "1");
	sb_add(&bk, "");
	mr_wd_put_val(&bk, K->num, q1->unit, mr_wd_tier(K->num, q1->unit), 0, 0);
	mr_wd_trim_zeros(&bk);
	sb_printf(b, "x %s %s = ", minus ? "-" : "+", bk.s);
	mr_wd_put_val(b, v, q1->unit, mr_wd_tier(v, q1->unit), 0, 0);
	sb_printf(b, "%s)", mark);
	sb_free(&bk);
	return 0;
}

/* e as k * Q or Q * k: 0 with *k and q set, or -1. */
static int
scaled(const struct wctx *w, const struct mr_expr *e, const struct mr_expr **k,
       struct qty *q)
{
	if (e->kind != MR_E_MUL || e->konst)
		return -1;
	if (e->a->konst && !mr_wd_qty_of(w, e->b, q)) {
		*k = e->a;
		return 0;
	}
	if (e->b->konst && !mr_wd_qty_of(w, e->a, q)) {
		*k = e->b;
		return 0;
	}
	return -1;
}

/* Comparison cmp in words: 0, or -1 when its shape has none. */
static int
say_cmp(struct strbuf *b, const struct wctx *w, const struct mr_cmp *cmp,
	const char *mark)
{
	const struct mr_expr *l = cmp->l, *r = cmp->r, *k;
	struct qty q1, q2;
	enum mr_op op = cmp->op;

	if (l->konst && r->konst)
		return -1;
	if (l->konst) {
		/* K op Q is Q op' K */
		const struct mr_expr *t = l;

		l = r;
		r = t;
		op = mr_wd_flip(op);
	}
	if (r->konst) {
		if (!mr_wd_qty_of(w, l, &q1)) {
			say_bound(b, w, &q1, op, r, mark);
			return 0;
		}
		if (l->kind == MR_E_DIV && !mr_wd_qty_of(w, l->a, &q1) && !mr_wd_qty_of(w, l->b, &q2))
			return say_ratio(b, w, &q1, op, r, &q2, mark);
		return -1;
	}
	if (!mr_wd_qty_of(w, l, &q1)) {
		if (!mr_wd_qty_of(w, r, &q2))
			return say_ratio(b, w, &q1, op, NULL, &q2, mark);
		if (!scaled(w, r, &k, &q2))
			return say_ratio(b, w, &q1, op, k, &q2, mark);
		/* k * Q2 + K, k * Q2 - K, Q2 + K, K + k * Q2 */
		if ((r->kind == MR_E_ADD || r->kind == MR_E_SUB) && r->b->konst) {
			if (!scaled(w, r->a, &k, &q2))
				return say_affine(b, w, &q1, op, k, &q2, r->kind == MR_E_SUB, r->b, mark);
			if (!mr_wd_qty_of(w, r->a, &q2))
				return say_affine(b, w, &q1, op, NULL, &q2, r->kind == MR_E_SUB, r->b, mark);
		}
		if (r->kind == MR_E_ADD && r->a->konst) {
			if (!scaled(w, r->b, &k, &q2))
				return say_affine(b, w, &q1, op, k, &q2, 0, r->a, mark);
			if (!mr_wd_qty_of(w, r->b, &q2))
				return say_affine(b, w, &q1, op, NULL, &q2, 0, r->a, mark);
		}
		return -1;
	}
	/* k * Q1 op Q2 is Q2 op' k * Q1: the factor stays as written */
	if (!scaled(w, l, &k, &q1) && !mr_wd_qty_of(w, r, &q2))
		return say_ratio(b, w, &q2, mr_wd_flip(op), k, &q1, mark);
	return -1;
}

/* --- how many combinations held -------------------------------------------- */

/* The key of a combination label of one pair ("size=1000000", "libc
 * unset") into key; 0, or -1 when the label has several pairs or none. */
static int
label_key(const char *label, char *key, size_t len)
{
	size_t n = strcspn(label, "= ");

	if (!*label || strchr(label, ',') || !label[n] || n >= len)
		return -1;
	memcpy(key, label, n);
	key[n] = 0;
	return 0;
}

/* The key the combinations range over, into key; 0, or -1 when they
 * range over several (or the labels say no key). */
static int
comb_key(const struct mr_claim_result *r, char *key, size_t len)
{
	char k2[128];
	int i;

	if (label_key(r->comb[0].label, key, len) < 0)
		return -1;
	for (i = 1; i < r->ncomb; i++)
		if (label_key(r->comb[i].label, k2, sizeof k2) < 0 || strcmp(k2, key))
			return -1;
	return 0;
}

/* "for both sizes", "for all 4 allocators", "for 3 of 4 values of
 * madvise", "in 2 of 5 combinations": n of r's combinations. */
static void
put_count(struct strbuf *b, const struct mr_claim_result *r, int n)
{
	static const char *const plural[][2] = {
		{ "allocator", "allocators" }, { "size", "sizes" }, { "libc", "libcs" },
	};
	char key[128], what[160];
	size_t i;
	const char *pre = "in";

	snprintf(what, sizeof what, "combinations");
	if (comb_key(r, key, sizeof key) == 0) {
		pre = "for";
		snprintf(what, sizeof what, "values of %s", key);
		for (i = 0; i < sizeof plural / sizeof plural[0]; i++)
			if (!strcmp(key, plural[i][0]))
				snprintf(what, sizeof what, "%s", plural[i][1]);
	}
	if (n == r->ncomb && n == 2)
		sb_printf(b, "%s both %s", pre, what);
	else if (n == r->ncomb)
		sb_printf(b, "%s all %d %s", pre, n, what);
	else
		sb_printf(b, "%s %d of %d %s", pre, n, r->ncomb, what);
}

/* The labels of the combinations of outcome o: "a, b and c", at most
 * three and how many more. */
static void
put_labels(struct strbuf *b, const struct mr_claim_result *r, enum mr_claim_outcome o)
{
	int i, n = 0, tot = 0;

	for (i = 0; i < r->ncomb; i++)
		tot += r->comb[i].outcome == o;
	for (i = 0; i < r->ncomb; i++) {
		if (r->comb[i].outcome != o)
			continue;
		if (n == 3) {
			sb_printf(b, " and %d more", tot - n);
			return;
		}
		sb_add(b, n == 0 ? "" : n + 1 == tot ? " and " : ", ");
		sb_add(b, r->comb[i].label);
		n++;
	}
}

/* --- the claim --------------------------------------------------------------- */

char *
mr_words_claim(const struct mr_claim *c, const struct mr_config *cfg,
	       const struct mr_claim_result *r)
{
	enum mr_claim_outcome want;
	struct strbuf b = {0}, pre = {0};
	struct wctx w;
	int i, j, premark = 0;

	if (r->outcome != MR_CLAIM_TRUE && r->outcome != MR_CLAIM_FALSE)
		return NULL;
	want = r->outcome;
	for (i = 0; i < r->ncomb && r->comb[i].outcome != want; i++)
		;
	if (i == r->ncomb || !r->comb[i].val)
		return NULL;
	w.c = c;
	w.cfg = cfg;
	w.cb = &r->comb[i];
	sb_add(&b, "");
	if (r->ncomb > 1 && *w.cb->label)
		sb_printf(&b, "%s: ", w.cb->label);
	for (j = 0; j < c->ncmp; j++) {
		const struct mr_expr *bad = NULL;
		int h = mr_expr_holds(&c->cmp[j], w.cb->val, &bad);
		const char *mark = want == MR_CLAIM_FALSE && c->ncmp > 1 && !h && !bad
				   ? ", false" : "";
		struct strbuf one = {0};
		const char *cl;

		sb_add(&one, "");
		if (say_cmp(&one, &w, &c->cmp[j], mark) < 0) {
			one.len = 0;
			one.s[0] = 0;
			mr_expr_render_cmp(&one, &c->cmp[j], w.cb->val);
			if (*mark)
				sb_add(&one, " is false");
		}
		/* "a vs b: 1.07x (claim: above 1.02x and below 1.12x)": two
		 * bounds of the same figures, said once */
		cl = strstr(one.s, " (claim: ");
		if (cl && pre.s && !*mark && !premark && pre.len == (size_t)(cl - one.s) &&
		    !strncmp(pre.s, one.s, pre.len)) {
			b.s[--b.len] = 0;
			sb_printf(&b, " and %s", cl + strlen(" (claim: "));
		} else {
			sb_add(&b, j ? "; " : "");
			sb_add(&b, one.s);
			sb_free(&pre);
			if (cl)
				sb_addn(&pre, one.s, (size_t)(cl - one.s));
			premark = *mark != 0;
		}
		sb_free(&one);
	}
	sb_free(&pre);
	if (want == MR_CLAIM_TRUE) {
		sb_add(&b, " held");
		if (r->ncomb > 1) {
			sb_add(&b, " ");
			put_count(&b, r, r->ntrue);
		}
	} else if (r->ncomb == 1) {
		sb_add(&b, " failed");
	} else if (r->ntrue == 0) {
		sb_add(&b, " failed ");
		put_count(&b, r, r->nfalse);
	} else {
		sb_add(&b, " held ");
		put_count(&b, r, r->ntrue);
		sb_add(&b, ": failed for ");
		put_labels(&b, r, MR_CLAIM_FALSE);
	}
	if (r->nundefined) {
		sb_add(&b, "; undefined for ");
		put_labels(&b, r, MR_CLAIM_UNDEFINED);
	}
	if (r->nskipped) {
		sb_add(&b, "; skipped for ");
		put_labels(&b, r, MR_CLAIM_NODATA);
	}
	return b.s;
}
