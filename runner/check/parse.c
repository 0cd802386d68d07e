/* parse: the parser of the claims language (docs/formats.md, "Claims"):
 * recursive descent over the tokens of lex.c, into a struct mr_claims. */
#include "check/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "core/suggest.h"
#include "core/tsv.h"
#include "core/util.h"

static struct mr_expr *p_sum(struct mr_parser *p);

static struct mr_expr *
node(struct mr_parser *p, enum mr_expr_kind k, struct mr_expr *a, struct mr_expr *b)
{
	struct mr_expr *e = mr_claims_grow(p->cs, NULL, sizeof *e);

	e->kind = k;
	e->a = a;
	e->b = b;
	return e;
}

/* Give e (a unary or binary operator, its operands parsed) its place and,
 * when it names no metric, its value.  A division by a constant 0 and a
 * constant beyond the doubles are errors of the file: they could never
 * be measured into sense. */
static struct mr_expr *
op(struct mr_parser *p, struct mr_expr *e, int line, int col)
{
	e->line = line;
	e->col = col;
	if (e->kind == MR_E_DIV && e->b->konst && e->b->num == 0)
		mr_lex_err(p, e->b->line, e->b->col,
		     "division by zero: the divisor is a constant 0");
	if (!e->a->konst || (e->b && !e->b->konst))
		return e;
	e->konst = 1;
	e->num = mr_expr_apply(e->kind, e->a->num, e->b ? e->b->num : 0);
	if (!isfinite(e->num))
		mr_lex_err(p, line, col, "constant out of range: it is %s",
		     e->num < 0 ? "-inf" : "inf");
	return e;
}

static _Noreturn void
metric_error(struct mr_parser *p, const struct mr_tok *t, const char *name, int ckpt)
{
	const char *const *v = ckpt ? mr_ckpt_metrics : mr_run_metrics;
	int n = ckpt ? MR_NCKPT_METRICS : MR_NRUN_METRICS, best = -1, bd = 3, i;
	struct strbuf b = {0};
	char *list;

	for (i = 0; i < n; i++) {
		int dd = mr_edit_distance(name, v[i]);

		if (dd < bd) {
			bd = dd;
			best = i;
		}
	}
	if (best >= 0)
		mr_lex_err(p, t->line, t->col, "unknown %s metric \"%s\" (did you mean %s?)",
		     ckpt ? "checkpoint" : "run", name, v[best]);
	for (i = 0; i < n; i++)
		sb_printf(&b, "%s%s", i ? " " : "", v[i]);
	/* perr does not return: keep the list where the arena frees it. */
	list = mr_claims_strndup(p->cs, b.s, b.len);
	sb_free(&b);
	mr_lex_err(p, t->line, t->col, "unknown %s metric \"%s\" (known: %s)",
	     ckpt ? "checkpoint" : "run", name, list);
}

/* The comparison t spells ("<", "<=", ">", ">="), or MR_V_ANY. */
static enum mr_vop
relop(const struct mr_parser *p, const struct mr_tok *t)
{
	static const struct { const char *s; enum mr_vop op; } ops[] = {
		{ "<", MR_V_LT }, { "<=", MR_V_LE }, { ">", MR_V_GT }, { ">=", MR_V_GE },
	};
	size_t i;

	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (mr_lex_is(p, t, T_OTHER, ops[i].s) || mr_lex_is(p, t, T_OP, ops[i].s))
			return ops[i].op;
	return MR_V_ANY;
}

/* metric[@checkpoint[#seq]][[key=value,...]], the metric token read. */
static struct mr_expr *
p_ref(struct mr_parser *p, const struct mr_tok *t)
{
	struct mr_ref r = {0};
	char *name = mr_claims_strndup(p->cs, p->buf + t->off, t->end - t->off);
	struct mr_tok u;
	struct mr_expr *e;

	r.line = t->line;
	r.col = t->col;
	if (mr_lex_at(p, p->pos) == '@') {
		p->pos++;
		u = mr_lex_next(p, M_CKPT);
		if (u.k != T_WORD || u.spaced)
			mr_lex_unexpected(p, &u, "a checkpoint name right after \"@\"");
		if (!mr_lex_charset(p->buf + u.off, u.end - u.off, "_-"))
			mr_lex_err(p, u.line, u.col,
			     "a checkpoint name is made of a-z, 0-9, _ and -, got \"%.*s\"",
			     (int)(u.end - u.off), p->buf + u.off);
		r.checkpoint = mr_claims_strndup(p->cs, p->buf + u.off, u.end - u.off);
		r.cline = u.line;
		r.ccol = u.col;
		if (mr_lex_at(p, p->pos) == '@' && strchr(r.checkpoint, '-'))
			mr_lex_err(p, u.line, u.col,
			     "checkpoint name \"%s\" runs into \"@\": write spaces around \"-\"",
			     r.checkpoint);
		if (mr_lex_at(p, p->pos) == '#') {
			long long seq;

			p->pos++;
			u = mr_lex_next(p, M_EXPR);
			if (u.k != T_NUM || u.spaced ||
			    !mr_lex_charset(p->buf + u.off, u.end - u.off, "") ||
			    parse_ll(mr_claims_strndup(p->cs, p->buf + u.off, u.end - u.off), &seq) < 0 ||
			    seq < 1 || seq > 1000000000)
				mr_lex_unexpected(p, &u, "an occurrence number (1, 2, ...) right after \"#\"");
			r.seq = (long)seq;
		}
		r.ckpt = 1;
		r.metric = mr_ckpt_metric(name);
		if (r.metric < 0) {
			if (mr_run_metric(name) >= 0)
				mr_lex_err(p, t->line, t->col,
				     "%s is a run metric: it takes no @checkpoint", name);
			metric_error(p, t, name, 1);
		}
	} else {
		r.metric = mr_run_metric(name);
		if (r.metric < 0) {
			if (mr_ckpt_metric(name) >= 0)
				mr_lex_err(p, t->line, t->col,
				     "%s is a checkpoint metric: name the checkpoint, as in %s@<checkpoint>",
				     name, name);
			metric_error(p, t, name, 0);
		}
	}
	if (mr_lex_at(p, p->pos) == '[') {
		p->pos++;
		for (;;) {
			struct mr_tok k = mr_lex_next(p, M_KEY), v;
			struct mr_vpair vp = {0};
			char *key, *val;
			int i;

			if (k.k != T_WORD)
				mr_lex_unexpected(p, &k, "a parameter name");
			if (r.npairs == MR_REF_MAX_PAIRS)
				mr_lex_err(p, k.line, k.col,
				     "too many parameters in one reference (limit: %d)",
				     MR_REF_MAX_PAIRS);
			key = mr_claims_strndup(p->cs, p->buf + k.off, k.end - k.off);
			u = mr_lex_next(p, M_KEY);
			vp.op = relop(p, &u);
			if (vp.op != MR_V_ANY && strcmp(key, MR_KEY_LIBC))
				mr_lex_err(p, u.line, u.col,
				     "only libc compares versions with <, <=, > and >= (an allocator's version follows \"@\": allocator=jemalloc@>=5.2)");
			if (vp.op == MR_V_ANY && !mr_lex_is(p, &u, T_PUNCT, "="))
				mr_lex_unexpected(p, &u, "\"=\" after the parameter name");
			v = mr_lex_next(p, M_VAL);
			if (v.k != T_WORD)
				mr_lex_unexpected(p, &v, "a parameter value after \"=\"");
			val = mr_claims_strndup(p->cs, p->buf + v.off, v.end - v.off);
			if (!strcmp(key, MR_KEY_ALLOCATOR))
				val = mr_parse_alloc_spec(p, &v, val, &vp);
			else if (!strcmp(key, MR_KEY_LIBC))
				mr_parse_libc_version(p, &v, val, &vp);
			/* A key twice is a range: allowed where both pairs
			 * put a version bound on the same thing. */
			for (i = 0; i < r.npairs; i++)
				if (!strcmp(r.pair[i].key, key) &&
				    (!mr_vp_bound(&vp) || !mr_vp_bound(&r.pair[i].vp) ||
				     !mr_config_same(vp.name, r.pair[i].vp.name)))
					mr_lex_err(p, k.line, k.col,
					     "parameter %s named twice in one reference", key);
			r.pair = mr_claims_grow(p->cs, r.pair, sizeof *r.pair * (r.npairs + 1));
			r.pair[r.npairs++] = (struct mr_refpair){ .key = key, .val = val, .vp = vp,
								 .line = k.line, .col = k.col };
			u = mr_lex_next(p, M_KEY);
			if (mr_lex_is(p, &u, T_PUNCT, "]"))
				break;
			if (!mr_lex_is(p, &u, T_PUNCT, ","))
				mr_lex_unexpected(p, &u, "\",\" or \"]\"");
		}
	}
	p->c.ref = mr_claims_grow(p->cs, p->c.ref, sizeof *p->c.ref * (p->c.nref + 1));
	p->c.ref[p->c.nref] = r;
	e = node(p, MR_E_REF, NULL, NULL);
	e->ref = p->c.nref++;
	e->line = r.line;
	e->col = r.col;
	return e;
}

/* Count one more number or reference: the evaluator recurses over the
 * operators between them, so their number bounds its depth. */
static void
term(struct mr_parser *p, const struct mr_tok *t)
{
	if (++p->nterms > MR_CLAIM_MAX_TERMS)
		mr_lex_err(p, t->line, t->col,
		     "claim %s has too many terms (limit: %d numbers and metrics in a claim)",
		     p->c.id, MR_CLAIM_MAX_TERMS);
}

static struct mr_expr *
p_primary(struct mr_parser *p)
{
	struct mr_tok t = mr_lex_next(p, M_EXPR);
	struct mr_expr *e;

	if ((t.k == T_NUM || t.k == T_WORD) && !mr_lex_is(p, &t, T_WORD, "and"))
		term(p, &t);
	if (t.k == T_NUM) {
		e = node(p, MR_E_NUM, NULL, NULL);
		e->text = mr_claims_strndup(p->cs, p->buf + t.off, t.end - t.off);
		if (parse_double(e->text, &e->num) < 0)
			mr_lex_err(p, t.line, t.col, "number out of range: %s", e->text);
		e->konst = 1;
		e->line = t.line;
		e->col = t.col;
		return e;
	}
	if (mr_lex_is(p, &t, T_PUNCT, "(")) {
		struct mr_tok u;

		e = p_sum(p);
		u = mr_lex_next(p, M_EXPR);
		if (!mr_lex_is(p, &u, T_PUNCT, ")"))
			mr_lex_unexpected(p, &u, "\")\"");
		e->paren = 1;
		e->line = t.line;
		e->col = t.col;
		return e;
	}
	if (t.k == T_WORD && !mr_lex_is(p, &t, T_WORD, "and"))
		return p_ref(p, &t);
	mr_lex_unexpected(p, &t, "a number, a metric or \"(\"");
}

static struct mr_expr *
p_unary(struct mr_parser *p)
{
	struct mr_tok t = mr_lex(p, M_EXPR);
	struct mr_expr *e;

	/* Bounded, so a pathological file cannot overflow the stack. */
	if (++p->depth > MR_CLAIM_MAX_DEPTH)
		mr_lex_err(p, t.line, t.col, "expression nested too deeply (limit: %d levels of parentheses and unary minus)",
		     MR_CLAIM_MAX_DEPTH);
	if (mr_lex_is(p, &t, T_PUNCT, "-")) {
		mr_lex_commit(p, &t);
		e = op(p, node(p, MR_E_NEG, p_unary(p), NULL), t.line, t.col);
	} else {
		e = p_primary(p);
	}
	p->depth--;
	return e;
}

static struct mr_expr *
p_prod(struct mr_parser *p)
{
	struct mr_expr *e = p_unary(p);

	for (;;) {
		struct mr_tok t = mr_lex(p, M_EXPR);
		enum mr_expr_kind k;

		if (mr_lex_is(p, &t, T_PUNCT, "*"))
			k = MR_E_MUL;
		else if (mr_lex_is(p, &t, T_PUNCT, "/"))
			k = MR_E_DIV;
		else
			return e;
		mr_lex_commit(p, &t);
		e = op(p, node(p, k, e, p_unary(p)), e->line, e->col);
	}
}

static struct mr_expr *
p_sum(struct mr_parser *p)
{
	struct mr_expr *e = p_prod(p);

	for (;;) {
		struct mr_tok t = mr_lex(p, M_EXPR);
		enum mr_expr_kind k;

		if (mr_lex_is(p, &t, T_PUNCT, "+"))
			k = MR_E_ADD;
		else if (mr_lex_is(p, &t, T_PUNCT, "-"))
			k = MR_E_SUB;
		else
			return e;
		mr_lex_commit(p, &t);
		e = op(p, node(p, k, e, p_prod(p)), e->line, e->col);
	}
}

static void
p_cmp(struct mr_parser *p)
{
	static const char *const ops[] = { "<", "<=", ">", ">=" };
	struct mr_cmp c = {0};
	struct mr_tok t;
	int i;

	c.l = p_sum(p);
	t = mr_lex_next(p, M_EXPR);
	for (i = 0; i < 4; i++)
		if (mr_lex_is(p, &t, T_OP, ops[i]))
			break;
	if (i == 4)
		mr_lex_unexpected(p, &t, "a comparison operator");
	c.op = (enum mr_op)i;
	c.r = p_sum(p);
	p->c.cmp = mr_claims_grow(p->cs, p->c.cmp, sizeof *p->c.cmp * (p->c.ncmp + 1));
	p->c.cmp[p->c.ncmp++] = c;
}

/* The values of env.tsv's thp: the kernel's modes, and "none" (no THP). */
static const char *const thp_modes[] = { "always", "madvise", "never", "none", NULL };

/* "thp=MODE[,MODE...]" after "when" (its "thp" token t read). */
static void
p_when_thp(struct mr_parser *p, struct mr_tok t)
{
	int i;

	if (p->c.nwhen_thp)
		mr_lex_err(p, t.line, t.col, "\"when thp=\" given twice: name its modes once (thp=always,madvise)");
	t = mr_lex_next(p, M_KEY);
	if (!mr_lex_is(p, &t, T_PUNCT, "="))
		mr_lex_unexpected(p, &t, "\"=\" after \"when thp\"");
	for (;;) {
		t = mr_lex_next(p, M_VAL);
		if (t.k != T_WORD)
			mr_lex_unexpected(p, &t, "a THP mode (always, madvise, never or none)");
		for (i = 0; thp_modes[i]; i++)
			if (mr_lex_is(p, &t, T_WORD, thp_modes[i]))
				break;
		if (!thp_modes[i])
			mr_lex_err(p, t.line, t.col,
			     "unknown THP mode \"%.*s\": always, madvise, never or none (a kernel without THP)",
			     (int)(t.end - t.off), p->buf + t.off);
		for (i = 0; i < p->c.nwhen_thp; i++)
			if (mr_lex_is(p, &t, T_WORD, p->c.when_thp[i]))
				mr_lex_err(p, t.line, t.col, "THP mode \"%s\" named twice",
				     p->c.when_thp[i]);
		p->c.when_thp = mr_claims_grow(p->cs, p->c.when_thp,
				      sizeof *p->c.when_thp * (p->c.nwhen_thp + 1));
		p->c.when_thp[p->c.nwhen_thp++] = mr_claims_strndup(p->cs, p->buf + t.off, t.end - t.off);
		t = mr_lex(p, M_EXPR);
		if (!mr_lex_is(p, &t, T_PUNCT, ","))
			break;
		mr_lex_commit(p, &t);
	}
}

/* "kernel OP VERSION" after "when" (its "kernel" token t read): at most
 * two bounds, a range (kernel>=6.1 and kernel<6.7). */
static void
p_when_kernel(struct mr_parser *p, const struct mr_tok *t)
{
	size_t pos = t->end, n;
	int op = MR_V_ANY, ge, col;

	while (mr_lex_at(p, pos) == ' ' || mr_lex_at(p, pos) == '\t')
		pos++;
	col = t->col + (int)(pos - t->off);
	if (mr_lex_at(p, pos) == '<' || mr_lex_at(p, pos) == '>') {
		ge = mr_lex_at(p, pos + 1) == '=';
		op = mr_lex_at(p, pos) == '<' ? (ge ? MR_V_LE : MR_V_LT) : (ge ? MR_V_GE : MR_V_GT);
		pos += 1 + (size_t)ge;
	}
	if (op == MR_V_ANY)
		mr_lex_err(p, t->line, col,
		     "expected <, <=, > or >= after \"when kernel\" (when kernel>=6.7)");
	if (p->c.nwhen_kernel == 2)
		mr_lex_err(p, t->line, t->col, "a kernel range has two bounds at most");
	while (mr_lex_at(p, pos) == ' ' || mr_lex_at(p, pos) == '\t')
		pos++;
	col = t->col + (int)(pos - t->off);
	n = mr_lex_version_len(p, pos);
	p->c.when_kop[p->c.nwhen_kernel] = op;
	p->c.when_kver[p->c.nwhen_kernel++] = mr_parse_version(p, pos, n, t->line, col,
							  mr_vop_names[op]);
	p->pos = pos + n;
}

/* "when CLAUSE [and CLAUSE]...", after the status ("when" already read):
 * a clause is thp=MODE[,MODE...] or kernel OP VERSION. */
static void
p_when(struct mr_parser *p)
{
	for (;;) {
		struct mr_tok t = mr_lex_next(p, M_KEY);
		size_t save, bol;
		int line;

		if (mr_lex_is(p, &t, T_WORD, "thp"))
			p_when_thp(p, t);
		else if (mr_lex_is(p, &t, T_WORD, "kernel"))
			p_when_kernel(p, &t);
		else if (t.k == T_WORD)
			mr_lex_err(p, t.line, t.col,
			     "a claim is made for some THP modes or kernels only (when thp=MODE,..., when kernel>=V): \"%.*s\" is neither",
			     (int)(t.end - t.off), p->buf + t.off);
		else
			mr_lex_unexpected(p, &t, "thp or kernel after \"when\"");
		/* "and" then thp or kernel: another clause; else the "and"
		 * is the comparisons' (none can start with either word) */
		save = p->pos;
		bol = p->bol;
		line = p->line;
		t = mr_lex(p, M_HEAD);
		if (!mr_lex_is(p, &t, T_WORD, "and"))
			return;
		mr_lex_commit(p, &t);
		t = mr_lex(p, M_KEY);
		if (!mr_lex_is(p, &t, T_WORD, "thp") && !mr_lex_is(p, &t, T_WORD, "kernel")) {
			p->pos = save;
			p->bol = bol;
			p->line = line;
			return;
		}
	}
}

static void
p_claim(struct mr_parser *p)
{
	struct mr_tok t = mr_lex_next(p, M_HEAD);
	struct mr_claims *cs = p->cs;
	char *s;
	int i;

	memset(&p->c, 0, sizeof p->c);
	p->nterms = 0;
	if (t.k != T_WORD)
		mr_lex_unexpected(p, &t, "a claim id");
	if (cs->n == MR_CLAIMS_MAX)
		mr_lex_err(p, t.line, t.col, "too many claims in one file (limit: %d)",
		     MR_CLAIMS_MAX);
	if (!mr_lex_charset(p->buf + t.off, t.end - t.off, "-"))
		mr_lex_err(p, t.line, t.col,
		     "a claim id is made of a-z, 0-9 and -, got \"%.*s\"",
		     (int)(t.end - t.off), p->buf + t.off);
	p->c.id = mr_claims_strndup(cs, p->buf + t.off, t.end - t.off);
	p->c.line = t.line;
	p->c.col = t.col;
	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->v[i].id, p->c.id))
			mr_lex_err(p, t.line, t.col,
			     "claim id \"%s\" used twice (first on line %d)",
			     p->c.id, cs->v[i].line);

	t = mr_lex_next(p, M_HEAD);
	if (mr_lex_is(p, &t, T_WORD, "holds"))
		p->c.status = MR_HOLDS;
	else if (mr_lex_is(p, &t, T_WORD, "reported"))
		p->c.status = MR_REPORTED;
	else
		mr_lex_unexpected(p, &t, "\"holds\" or \"reported\" after the claim id");
	t = mr_lex(p, M_HEAD);
	if (mr_lex_is(p, &t, T_WORD, "since")) {
		if (p->c.status != MR_REPORTED)
			mr_lex_err(p, t.line, t.col,
			     "only a reported claim says since which version it no longer reproduces");
		mr_lex_commit(p, &t);
		mr_parse_since(p);
		t = mr_lex(p, M_HEAD);
	}
	if (mr_lex_is(p, &t, T_WORD, "unless")) {
		mr_lex_commit(p, &t);
		mr_parse_unless(p);
		t = mr_lex(p, M_HEAD);
	}
	if (mr_lex_is(p, &t, T_WORD, "when")) {
		mr_lex_commit(p, &t);
		p_when(p);
	}

	for (;;) {
		p_cmp(p);
		t = mr_lex(p, M_EXPR);
		if (mr_lex_is(p, &t, T_WORD, "and")) {
			mr_lex_commit(p, &t);
			continue;
		}
		if (t.k == T_STR)
			break;
		mr_lex_unexpected(p, &t,
			   "\"and\" or the citation in double quotes (a claim cites its report)");
	}
	t = mr_lex_next(p, M_EXPR);
	p->c.cite = s = mr_lex_string(p, &t);
	if (!s[strspn(s, " \t")])
		mr_lex_err(p, t.line, t.col,
		     "empty citation: say which report and which of its figures this claim stands for");
	t = mr_lex(p, M_HEAD);
	if (t.k != T_EOL && t.k != T_EOF)
		mr_lex_unexpected(p, &t, "the end of the line after the citation");
	mr_lex_commit(p, &t);
	if (p->c.nref == 0)
		mr_lex_err(p, p->c.line, p->c.col,
		     "claim %s names no metric: a claim relates measured figures",
		     p->c.id);
	cs->v = mr_claims_grow(cs, cs->v, sizeof *cs->v * (cs->n + 1));
	cs->v[cs->n++] = p->c;
}

int
mr_claims_parse(const char *path, const char *text, size_t len,
		struct mr_claims *cs)
{
	struct mr_parser p;

	memset(cs, 0, sizeof *cs);
	memset(&p, 0, sizeof p);
	cs->path = estrdup(path);
	p.cs = cs;
	p.path = cs->path;
	p.buf = text;
	p.len = len;
	p.line = 1;
	if (len > MR_CLAIMS_MAX_BYTES) {
		mr_errat(path, 0, 0, "larger than %d KiB (the limit of a claims file)",
			 MR_CLAIMS_MAX_BYTES >> 10);
		return -1;
	}
	if (setjmp(p.fail)) {
		char *keep = cs->path;

		cs->path = NULL;
		mr_claims_free(cs);
		cs->path = keep;
		return -1;
	}
	for (;;) {
		struct mr_tok t = mr_lex(&p, M_HEAD);

		if (t.k == T_EOF)
			break;
		if (t.k == T_EOL) {
			mr_lex_commit(&p, &t);
			continue;
		}
		if (mr_lex_is(&p, &t, T_WORD, "axis")) {
			/* a directive, unless a claim is called axis */
			size_t pos = p.pos, bol = p.bol;
			int line = p.line;
			struct mr_tok u;

			mr_lex_commit(&p, &t);
			u = mr_lex(&p, M_HEAD);
			if (!mr_lex_is(&p, &u, T_WORD, "holds") &&
			    !mr_lex_is(&p, &u, T_WORD, "reported")) {
				mr_parse_axis(&p);
				continue;
			}
			p.pos = pos;
			p.bol = bol;
			p.line = line;
		}
		p_claim(&p);
	}
	mr_claims_mark_unset(cs);
	return 0;
}

