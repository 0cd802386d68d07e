/* wordnum: the quantities of a claim's comparison and their figures in
 * words (wordsint.h): a side as a quantity, a value in its unit at a
 * tier of precision, a pair, a ratio, an operator. */
#include "check/wordsint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "core/util.h"

const char *
mr_wd_metric_name(const struct mr_ref *r)
{
	return r->ckpt ? mr_ckpt_metrics[r->metric] : mr_run_metrics[r->metric];
}

static int
same_ckpt(const struct mr_ref *a, const struct mr_ref *b)
{
	return a->ckpt == b->ckpt && a->seq == b->seq &&
	       (a->checkpoint ? b->checkpoint && !strcmp(a->checkpoint, b->checkpoint)
			      : !b->checkpoint);
}

/* e as a quantity into q: 0, or -1 when it is none. */
int
mr_wd_qty_of(const struct wctx *w, const struct mr_expr *e, struct qty *q)
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
		q->unit = mr_metric_unit(mr_wd_metric_name(q->a));
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
	q->unit = mr_metric_unit(mr_wd_metric_name(a));
	if (q->cfg < 0 || w->cb->cfg[ib] < 0 ||
	    q->unit != mr_metric_unit(mr_wd_metric_name(b)))
		return -1;
	if (e->kind == MR_E_ADD) {
		/* user_ms + sys_ms: one config, one moment */
		if (w->cb->cfg[ib] != q->cfg || !same_ckpt(a, b) ||
		    !strcmp(mr_wd_metric_name(a), mr_wd_metric_name(b)))
			return -1;
		q->kind = Q_SUM;
		q->v = val[ia] + val[ib];
		return 0;
	}
	if (strcmp(mr_wd_metric_name(a), mr_wd_metric_name(b)))
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
int
mr_wd_tier(double v, enum mr_unit u)
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
void
mr_wd_put_val(struct strbuf *b, double v, enum mr_unit u, int t, int sign, int extra)
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
void
mr_wd_trim_zeros(struct strbuf *b)
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
void
mr_wd_put_pair(struct strbuf *bv, struct strbuf *bk, double v, double k,
	 enum mr_unit u, int sign)
{
	int tv = mr_wd_tier(v, u), tk = mr_wd_tier(k, u), extra;
	double lo = fmin(fabs(v), fabs(k)), hi = fmax(fabs(v), fabs(k));

	if (tv != tk && lo > 0.5 * hi)
		tv = tk = tv > tk ? tv : tk;
	for (extra = 0; extra <= 6; extra++) {
		bv->len = 0;
		bk->len = 0;
		sb_add(bv, "");
		sb_add(bk, "");
		mr_wd_put_val(bv, v, u, tv, sign, extra);
		mr_wd_put_val(bk, k, u, tk, 0, extra);
		if (v == k || strcmp(bv->s + (sign && v > 0), bk->s))
			break;
	}
	mr_wd_trim_zeros(bk);
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

enum mr_op
mr_wd_flip(enum mr_op op)
{
	static const enum mr_op f[] = { MR_GT, MR_GE, MR_LT, MR_LE };

	return f[op];
}

const char *
mr_wd_op_word(enum mr_op op)
{
	static const char *const w[] = { "below", "at most", "above", "at least" };

	return w[op];
}

/* A ratio as the claim's factor reads: "0.05", written with as many
 * decimals as make the figure say what the comparison says (0.949
 * against "above 0.95" is "0.949", not "0.95"). */
void
mr_wd_put_ratio(struct strbuf *b, double r, enum mr_op op, double k)
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
void
mr_wd_put_konst(struct strbuf *b, const struct mr_expr *e)
{
	char num[48];

	if (e->kind == MR_E_NUM && !e->paren)
		sb_add(b, e->text);
	else
		sb_add(b, mr_fmt_num(num, e->num));
}
