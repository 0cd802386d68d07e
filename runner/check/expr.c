/* expr: a claim's expression computed and written out — see expr.h. */
#include "check/expr.h"

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
	for (k = 0; k < r->npairs; k++) {
		sb_add(b, k ? "," : "[");
		mr_ref_pair_src(b, r, k);
	}
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
void
mr_expr_undefined_why(struct strbuf *b, const struct mr_expr *bad,
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
int
mr_expr_holds(const struct mr_cmp *c, const double *val, const struct mr_expr **bad)
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

const char *const mr_expr_opname[] = { "<", "<=", ">", ">=" };

/* The expression as written, with each reference replaced by its value. */
void
mr_expr_render(struct strbuf *b, const struct mr_expr *e, const double *val)
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
		mr_expr_render(b, e->a, val);
		break;
	default:
		mr_expr_render(b, e->a, val);
		sb_add(b, bin[e->kind]);
		mr_expr_render(b, e->b, val);
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

	mr_expr_render(b, e, val);
	if (!simple(e))
		sb_printf(b, " (%s)", mr_fmt_num(num, calc(e, val, &bad)));
}

void
mr_expr_render_cmp(struct strbuf *b, const struct mr_cmp *c, const double *val)
{
	render_side(b, c->l, val);
	sb_printf(b, " %s ", mr_expr_opname[c->op]);
	render_side(b, c->r, val);
}
