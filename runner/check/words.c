/* words: a claim's verdict said in words — see words.h. */
#include "check/words.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/expr.h"
#include "core/numfmt.h"
#include "core/util.h"

/* --- quantities ----------------------------------------------------------- */

/* A side of a comparison that names metrics: one reference, a sum of two
 * metrics of one config and checkpoint (user_ms + sys_ms), or a
 * difference of one metric: a growth (one config, two checkpoints) or
 * two configs at one checkpoint. */
enum qkind { Q_REF, Q_SUM, Q_GROWTH, Q_CFGDIFF };

struct qty {
	enum qkind kind;
	const struct mr_ref *a, *b; /* b: NULL for Q_REF */
	int cfg;           /* the config of a (and of b, but for Q_CFGDIFF) */
	int cfg2;          /* Q_CFGDIFF: b's config */
	enum mr_unit unit;
	double v;          /* its value at the combination */
};

/* What the words are made of: the claim, its configs, one combination. */
struct wctx {
	const struct mr_claim *c;
	const struct mr_config *cfg;
	const struct mr_claim_comb *cb;
};

static const char *
metric_name(const struct mr_ref *r)
{
	return r->ckpt ? mr_ckpt_metrics[r->metric] : mr_run_metrics[r->metric];
}

const char *
mr_words_noun(const char *m)
{
	static const char *const tab[][2] = {
		{ "rss_kb", "RSS" }, { "vsz_kb", "VSZ" }, { "pss_kb", "PSS" },
		{ "private_clean_kb", "private clean" },
		{ "private_dirty_kb", "private dirty" },
		{ "shared_dirty_kb", "shared dirty" }, { "anon_kb", "anonymous RSS" },
		{ "lazyfree_kb", "LazyFree" }, { "swap_kb", "swap" },
		{ "hwm_kb", "RSS high-water mark" }, { "tree_rss_kb", "tree RSS" },
		{ "tree_pss_kb", "tree PSS" },
		{ "tree_private_dirty_kb", "tree private dirty" },
		{ "cgroup_kb", "cgroup memory" }, { "t_ms", "time" },
		{ "user_ms", "user CPU" }, { "sys_ms", "system CPU" },
		{ "wall_ms", "wall time" }, { "pause_ms", "pause" },
		{ "maxrss_kb", "peak RSS" }, { "minflt", "minor faults" },
		{ "majflt", "major faults" }, { "peak_rss_kb", "sampled peak RSS" },
		{ "peak_tree_rss_kb", "peak tree RSS" },
		{ "cgroup_peak_kb", "cgroup peak" },
	};
	size_t i;

	for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcmp(tab[i][0], m))
			return tab[i][1];
	return m;
}

static int
same_ckpt(const struct mr_ref *a, const struct mr_ref *b)
{
	return a->ckpt == b->ckpt && a->seq == b->seq &&
	       (a->checkpoint ? b->checkpoint && !strcmp(a->checkpoint, b->checkpoint)
			      : !b->checkpoint);
}

/* e as a quantity into q: 0, or -1 when it is none. */
static int
qty_of(const struct wctx *w, const struct mr_expr *e, struct qty *q)
{
	const double *val = w->cb->val;
	const struct mr_ref *a, *b;
	int ia, ib;

	memset(q, 0, sizeof *q);
	q->cfg2 = -1;
	if (e->konst)
		return -1;
	if (e->kind == MR_E_REF) {
		q->kind = Q_REF;
		q->a = &w->c->ref[e->ref];
		q->cfg = w->cb->cfg[e->ref];
		q->unit = mr_metric_unit(metric_name(q->a));
		q->v = val[e->ref];
		return q->cfg < 0 ? -1 : 0;
	}
	if ((e->kind != MR_E_ADD && e->kind != MR_E_SUB) ||
	    e->a->kind != MR_E_REF || e->b->kind != MR_E_REF)
		return -1;
	ia = e->a->ref;
	ib = e->b->ref;
	a = &w->c->ref[ia];
	b = &w->c->ref[ib];
	q->a = a;
	q->b = b;
	q->cfg = w->cb->cfg[ia];
	q->unit = mr_metric_unit(metric_name(a));
	if (q->cfg < 0 || w->cb->cfg[ib] < 0 ||
	    q->unit != mr_metric_unit(metric_name(b)))
		return -1;
	if (e->kind == MR_E_ADD) {
		/* user_ms + sys_ms: one config, one moment */
		if (w->cb->cfg[ib] != q->cfg || !same_ckpt(a, b) ||
		    !strcmp(metric_name(a), metric_name(b)))
			return -1;
		q->kind = Q_SUM;
		q->v = val[ia] + val[ib];
		return 0;
	}
	if (strcmp(metric_name(a), metric_name(b)))
		return -1;
	q->v = val[ia] - val[ib];
	if (w->cb->cfg[ib] == q->cfg && !same_ckpt(a, b) && a->ckpt) {
		q->kind = Q_GROWTH;
		return 0;
	}
	if (w->cb->cfg[ib] != q->cfg && same_ckpt(a, b)) {
		q->kind = Q_CFGDIFF;
		q->cfg2 = w->cb->cfg[ib];
		return 0;
	}
	return -1;
}

/* --- figures --------------------------------------------------------------- */

/* The tier of a size in KiB: 0 KiB, 1 MiB, 2 GiB; of a time in ms: 0 ms,
 * 1 s. */
static int
tier(double v, enum mr_unit u)
{
	double a = fabs(v);

	if (u == MR_UNIT_KB)
		return a < 1024 ? 0 : a < 1024.0 * 1024 ? 1 : 2;
	if (u == MR_UNIT_MS)
		return a < 1000 ? 0 : 1;
	return 0;
}

/* v in unit u at tier t, extra more decimals than usual; with its sign
 * (a difference) when sign. */
static void
put_val(struct strbuf *b, double v, enum mr_unit u, int t, int sign, int extra)
{
	static const char *const kb[] = { "KiB", "MiB", "GiB" };
	const char *fmt = sign ? "%+.*f %s" : "%.*f %s";
	char num[48];

	switch (u) {
	case MR_UNIT_KB:
		sb_printf(b, fmt, t + extra, v / pow(1024, t), kb[t]);
		break;
	case MR_UNIT_MS:
		if (t)
			sb_printf(b, fmt, 2 + extra, v / 1000, "s");
		else
			sb_printf(b, fmt, (fabs(v) < 10) + extra, v, "ms");
		break;
	default:
		if (extra)
			sb_printf(b, sign ? "%+.*f" : "%.*f", extra, v);
		else
			sb_printf(b, "%s%s", sign && v > 0 ? "+" : "", mr_fmt_num(num, v));
		break;
	}
}

/* "10.00 s" as "10 s", "1.0 MiB" as "1 MiB": a bound is a number as
 * written, not a measured figure. */
static void
trim_zeros(struct strbuf *b)
{
	char *dot = strchr(b->s, '.'), *sp = strchr(b->s, ' '), *z;

	if (!dot || (sp && sp < dot))
		return;
	for (z = sp ? sp : b->s + b->len; z > dot + 1 && z[-1] == '0'; z--)
		;
	if (z > dot + 1)
		return;
	memmove(dot, sp ? sp : b->s + b->len, strlen(sp ? sp : b->s + b->len) + 1);
	b->len = strlen(b->s);
}

/* A value and the bound it is held to, in a unit each, the same one when
 * they are close (1 023.6 KiB against 1 024 KiB, not 1 024 KiB against
 * 1.0 MiB), with as many decimals as tell them apart. */
static void
put_pair(struct strbuf *bv, struct strbuf *bk, double v, double k,
	 enum mr_unit u, int sign)
{
	int tv = tier(v, u), tk = tier(k, u), extra;
	double lo = fmin(fabs(v), fabs(k)), hi = fmax(fabs(v), fabs(k));

	if (tv != tk && lo > 0.5 * hi)
		tv = tk = tv > tk ? tv : tk;
	for (extra = 0; extra <= 6; extra++) {
		bv->len = 0;
		bk->len = 0;
		sb_add(bv, "");
		sb_add(bk, "");
		put_val(bv, v, u, tv, sign, extra);
		put_val(bk, k, u, tk, 0, extra);
		if (v == k || strcmp(bv->s + (sign && v > 0), bk->s))
			break;
	}
	trim_zeros(bk);
}

static int
op_holds(enum mr_op op, double a, double b)
{
	switch (op) {
	case MR_LT:
		return a < b;
	case MR_LE:
		return a <= b;
	case MR_GT:
		return a > b;
	case MR_GE:
		return a >= b;
	}
	return 0;
}

static enum mr_op
flip(enum mr_op op)
{
	static const enum mr_op f[] = { MR_GT, MR_GE, MR_LT, MR_LE };

	return f[op];
}

static const char *
op_word(enum mr_op op)
{
	static const char *const w[] = { "below", "at most", "above", "at least" };

	return w[op];
}

/* A ratio as the claim's factor reads: "0.05", written with as many
 * decimals as make the figure say what the comparison says (0.949
 * against "above 0.95" is "0.949", not "0.95"). */
static void
put_ratio(struct strbuf *b, double r, enum mr_op op, double k)
{
	double a = fabs(r);
	/* below 0.01, one significant digit: 0.0001x, not 0.000x */
	int d = a >= 100 ? 0 : a >= 10 ? 1 : a >= 0.01 || a == 0 ? 2
		: (int)fmin(6, -floor(log10(a))), extra;
	char s[64];

	for (extra = 0; extra <= 6; extra++) {
		snprintf(s, sizeof s, "%.*f", d + extra, r);
		if (op_holds(op, strtod(s, NULL), k) == op_holds(op, r, k))
			break;
	}
	sb_printf(b, "%sx", s);
}

/* A number that names no metric, as written when it is one. */
static void
put_konst(struct strbuf *b, const struct mr_expr *e)
{
	char num[48];

	if (e->kind == MR_E_NUM && !e->paren)
		sb_add(b, e->text);
	else
		sb_add(b, mr_fmt_num(num, e->num));
}

/* --- names ----------------------------------------------------------------- */

/* The allocator's name of config c, without its version, into n. */
static void
alloc_name(char *n, size_t len, const struct mr_config *c)
{
	const char *a = mr_config_get(c, MR_KEY_ALLOCATOR);

	snprintf(n, len, "%s", a ? a : "");
	if (strchr(n, '@'))
		*strchr(n, '@') = 0;
}

/* key as a reader names it in config c: an option of c's allocator
 * without its prefix (jemalloc.dirty_decay_ms -> dirty_decay_ms). */
static const char *
opt_key(const struct mr_config *c, const char *key)
{
	char an[128];
	size_t n;

	alloc_name(an, sizeof an, c);
	n = strlen(an);
	return n && !strncmp(key, an, n) && key[n] == '.' ? key + n + 1 : key;
}

/* The pair key=val of config c as a reader names it: the allocator by its
 * value, an option of c's allocator without its prefix
 * (jemalloc.dirty_decay_ms=-1 -> dirty_decay_ms=-1). */
static void
put_pair_name(struct strbuf *b, const struct mr_config *c, const char *key,
	      const char *val)
{
	sb_add(b, b->len ? " " : "");
	if (!strcmp(key, MR_KEY_ALLOCATOR))
		sb_add(b, val);
	else
		sb_printf(b, "%s=%s", opt_key(c, key), val);
}

/* Whether key is one of c's. */
static int
has_key(const struct mr_config *c, const char *key)
{
	return mr_config_get(c, key) != NULL;
}

/* A key a config has not: "K unset"; the model's runtime as "runtime=c". */
static void
put_unset(struct strbuf *b, const char *key)
{
	if (!strcmp(key, MR_KEY_RUNTIME))
		sb_printf(b, "%s%s=%s", b->len ? " " : "", key, MR_RUNTIME_MODEL);
	else
		sb_printf(b, "%s%s unset", b->len ? " " : "", key);
}

/* The pairs of config x that config y does not have the same, the
 * allocator first; where x has none of them (it leaves the keys unset),
 * "K unset". */
static void
put_cfg_diff(struct strbuf *b, const struct mr_config *x, const struct mr_config *y)
{
	size_t start = b->len;
	int i, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < x->n; i++) {
			if ((pass == 0) != !strcmp(x->key[i], MR_KEY_ALLOCATOR))
				continue;
			if (!mr_config_same(x->val[i], mr_config_get(y, x->key[i])))
				put_pair_name(b, x, x->key[i], x->val[i]);
		}
	if (b->len > start)
		return;
	for (i = 0; i < y->n; i++)
		if (!has_key(x, y->key[i]))
			put_unset(b, opt_key(x, y->key[i]));
}

/* The pairs reference r names, with the values of config c (a bound has
 * no other side to tell it from). */
static void
put_ref_pairs(struct strbuf *b, const struct mr_ref *r, const struct mr_config *c)
{
	int k, pass;

	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < r->npairs; k++) {
			const char *v = mr_config_get(c, r->key[k]);

			if ((pass == 0) != !strcmp(r->key[k], MR_KEY_ALLOCATOR))
				continue;
			if (v)
				put_pair_name(b, c, r->key[k], v);
			else
				put_unset(b, r->key[k]);
		}
}

/* What q measures: "RSS", "CPU time (user+sys)". */
static void
put_metric(struct strbuf *b, const struct qty *q)
{
	const char *ma = metric_name(q->a);

	if (q->kind != Q_SUM) {
		sb_add(b, mr_words_noun(ma));
	} else if ((!strcmp(ma, "user_ms") && !strcmp(metric_name(q->b), "sys_ms")) ||
		   (!strcmp(ma, "sys_ms") && !strcmp(metric_name(q->b), "user_ms"))) {
		sb_add(b, "CPU time (user+sys)");
	} else {
		sb_printf(b, "%s + %s", mr_words_noun(ma), mr_words_noun(metric_name(q->b)));
	}
}

static void
put_ckname(struct strbuf *b, const struct mr_ref *r)
{
	sb_add(b, r->checkpoint);
	if (r->seq)
		sb_printf(b, "#%ld", r->seq);
}

/* When q is measured: "at cleared", "from start to forked"; nothing for a
 * run metric (a figure of the whole run). */
static void
put_when(struct strbuf *b, const struct qty *q)
{
	if (q->kind == Q_GROWTH) {
		sb_add(b, "from ");
		put_ckname(b, q->b);
		sb_add(b, " to ");
		put_ckname(b, q->a);
	} else if (q->a->ckpt) {
		sb_add(b, "at ");
		put_ckname(b, q->a);
	}
}

/* The configs of a Q_CFGDIFF: "madvise=free minus madvise=dontneed". */
static void
put_cfgdiff(struct strbuf *b, const struct wctx *w, const struct qty *q)
{
	struct strbuf x = {0}, y = {0};

	sb_add(&x, "");
	sb_add(&y, "");
	put_cfg_diff(&x, &w->cfg[q->cfg], &w->cfg[q->cfg2]);
	put_cfg_diff(&y, &w->cfg[q->cfg2], &w->cfg[q->cfg]);
	sb_printf(b, "%s%s minus %s", b->len ? " " : "", x.s, y.s);
	sb_free(&x);
	sb_free(&y);
}

/* s appended to b after a space when both have text. */
static void
put_word(struct strbuf *b, const char *s)
{
	if (s && *s)
		sb_printf(b, "%s%s", b->len && b->s[b->len - 1] != ' ' ? " " : "", s);
}

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
	put_metric(&m, q);
	if (q->kind == Q_CFGDIFF)
		put_cfgdiff(&cfg, w, q);
	else
		put_ref_pairs(&cfg, q->a, &w->cfg[q->cfg]);
	put_when(&when, q);
	put_pair(&bv, &bk, q->v, k->num, q->unit, q->kind == Q_GROWTH || q->kind == Q_CFGDIFF);
	sb_add(b, m.s);
	put_word(b, cfg.s);
	put_word(b, bv.s);
	put_word(b, when.s);
	sb_printf(b, " (claim: %s %s%s)", op_word(op), bk.s, mark);
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
		put_word(b, m);
	if (q->cfg != other->cfg) {
		struct strbuf d = {0};

		sb_add(&d, "");
		put_cfg_diff(&d, &w->cfg[q->cfg], &w->cfg[other->cfg]);
		put_word(b, d.s);
		sb_free(&d);
	}
	if (q->kind == Q_CFGDIFF) {
		struct strbuf d = {0};

		sb_add(&d, "");
		put_cfgdiff(&d, w, q);
		put_word(b, d.s);
		sb_free(&d);
	}
	sb_add(&v, "");
	put_val(&v, q->v, q->unit, tier(q->v, q->unit),
		q->kind == Q_GROWTH || q->kind == Q_CFGDIFF, 0);
	put_word(b, v.s);
	if (strcmp(when, wo))
		put_word(b, when);
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
	put_metric(&m1, q1);
	put_metric(&m2, q2);
	put_when(&w1, q1);
	put_when(&w2, q2);
	if (!strcmp(m1.s, m2.s))
		sb_add(b, m1.s);
	put_side(b, w, q1, q2, m1.s, m2.s, w1.s, w2.s);
	sb_add(b, " vs");
	put_side(b, w, q2, q1, m2.s, m1.s, w2.s, w1.s);
	if (!strcmp(w1.s, w2.s))
		put_word(b, w1.s);
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
	put_ratio(b, q1->v / q2->v, op, k ? k->num : 1);
	sb_printf(b, " (claim: %s ", op_word(op));
	if (k)
		put_konst(b, k);
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
	sb_printf(b, " (claim: %s ", op_word(op));
	if (k)
		put_konst(b, k);
	else
		sb_add(b, "1");
	sb_add(&bk, "");
	put_val(&bk, K->num, q1->unit, tier(K->num, q1->unit), 0, 0);
	trim_zeros(&bk);
	sb_printf(b, "x %s %s = ", minus ? "-" : "+", bk.s);
	put_val(b, v, q1->unit, tier(v, q1->unit), 0, 0);
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
	if (e->a->konst && !qty_of(w, e->b, q)) {
		*k = e->a;
		return 0;
	}
	if (e->b->konst && !qty_of(w, e->a, q)) {
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
		op = flip(op);
	}
	if (r->konst) {
		if (!qty_of(w, l, &q1)) {
			say_bound(b, w, &q1, op, r, mark);
			return 0;
		}
		if (l->kind == MR_E_DIV && !qty_of(w, l->a, &q1) && !qty_of(w, l->b, &q2))
			return say_ratio(b, w, &q1, op, r, &q2, mark);
		return -1;
	}
	if (!qty_of(w, l, &q1)) {
		if (!qty_of(w, r, &q2))
			return say_ratio(b, w, &q1, op, NULL, &q2, mark);
		if (!scaled(w, r, &k, &q2))
			return say_ratio(b, w, &q1, op, k, &q2, mark);
		/* k * Q2 + K, k * Q2 - K, Q2 + K, K + k * Q2 */
		if ((r->kind == MR_E_ADD || r->kind == MR_E_SUB) && r->b->konst) {
			if (!scaled(w, r->a, &k, &q2))
				return say_affine(b, w, &q1, op, k, &q2, r->kind == MR_E_SUB, r->b, mark);
			if (!qty_of(w, r->a, &q2))
				return say_affine(b, w, &q1, op, NULL, &q2, r->kind == MR_E_SUB, r->b, mark);
		}
		if (r->kind == MR_E_ADD && r->a->konst) {
			if (!scaled(w, r->b, &k, &q2))
				return say_affine(b, w, &q1, op, k, &q2, 0, r->a, mark);
			if (!qty_of(w, r->b, &q2))
				return say_affine(b, w, &q1, op, NULL, &q2, 0, r->a, mark);
		}
		return -1;
	}
	/* k * Q1 op Q2 is Q2 op' k * Q1: the factor stays as written */
	if (!scaled(w, l, &k, &q1) && !qty_of(w, r, &q2))
		return say_ratio(b, w, &q2, flip(op), k, &q1, mark);
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
