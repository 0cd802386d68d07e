/* pversion: versions in the claims language (docs/formats.md, "Versions
 * in claims"): allocator=NAME@[OP]VERSION, libc OP VERSION and "since
 * NAME@VERSION", read for parse.c — see parse.h. */
#include "check/parse.h"

#include <string.h>

#include "core/version.h"
#include "core/util.h"

/* Whether vp bounds a version from one side (a range's half). */
int
mr_vp_bound(const struct mr_vpair *vp)
{
	return vp->op >= MR_V_LT;
}

/* How many bytes of version characters start at pos. */
size_t
mr_lex_version_len(const struct mr_parser *p, size_t pos)
{
	size_t n = 0;
	char c;

	while ((c = mr_lex_at(p, pos + n)) && ((c >= '0' && c <= '9') ||
	       (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || strchr(".+~-", c)))
		n++;
	return n;
}

/* The version at pos (line and column of pos: line, col), checked; what
 * names the thing versioned, for the message. */
char *
mr_parse_version(struct mr_parser *p, size_t pos, size_t n, int line, int col,
	  const char *what)
{
	if (!mr_version_valid(p->buf + pos, n)) {
		if (n == 0)
			mr_lex_err(p, line, col, "expected a version after %s (as in 5.2.1)", what);
		mr_lex_err(p, line, col,
		     "\"%.*s\" is not a version: a version starts with a digit and is made of digits, letters and . + ~ - (a release name moves: name its version)",
		     (int)n, p->buf + pos);
	}
	return mr_claims_strndup(p->cs, p->buf + pos, n);
}

/* allocator=NAME[@[OP]VERSION]: the value token v read (as val); the
 * version part is read here, whatever the value's lexing stopped at
 * (">=" has an "=" no value may hold).  Returns the value as written. */
char *
mr_parse_alloc_spec(struct mr_parser *p, const struct mr_tok *v, char *val,
	     struct mr_vpair *vp)
{
	char *at = strchr(val, '@');
	size_t pos, n, start = v->off;
	int col;

	vp->name = val;
	if (!at)
		return val;
	if (at == val)
		mr_lex_err(p, v->line, v->col, "expected an allocator name before \"@\"");
	*at = '\0';
	pos = v->off + (size_t)(at - val) + 1;
	vp->op = MR_V_EQ;
	if (mr_lex_at(p, pos) == '<' || mr_lex_at(p, pos) == '>') {
		int ge = mr_lex_at(p, pos + 1) == '=';

		vp->op = mr_lex_at(p, pos) == '<' ? (ge ? MR_V_LE : MR_V_LT)
						  : (ge ? MR_V_GE : MR_V_GT);
		pos += 1 + (size_t)ge;
	}
	col = v->col + (int)(pos - v->off);
	n = mr_lex_version_len(p, pos);
	vp->version = mr_parse_version(p, pos, n, v->line, col,
				vp->op == MR_V_EQ ? "\"@\"" : mr_vop_names[vp->op]);
	p->pos = pos + n;
	return mr_claims_strndup(p->cs, p->buf + start, p->pos - start);
}

/* libc=VERSION or libc OP VERSION: the value token v read (as val). */
void
mr_parse_libc_version(struct mr_parser *p, const struct mr_tok *v, const char *val,
	       struct mr_vpair *vp)
{
	if (vp->op == MR_V_ANY)
		vp->op = MR_V_EQ;
	if (vp->op == MR_V_EQ && (val[0] == '<' || val[0] == '>'))
		mr_lex_err(p, v->line, v->col,
		     "a libc range is written libc%c%s2.41, without \"=\" before it",
		     val[0], val[1] == '\0' ? "=" : "");
	vp->version = mr_parse_version(p, v->off, strlen(val), v->line, v->col,
				vp->op == MR_V_EQ ? "libc=" : mr_vop_names[vp->op]);
}

/* "since NAME@VERSION", after a reported status ("since" already read). */
void
mr_parse_since(struct mr_parser *p)
{
	struct mr_tok t = mr_lex_next(p, M_HEAD);
	size_t n;

	if (t.k != T_WORD || !mr_lex_charset(p->buf + t.off, t.end - t.off, "_.-"))
		mr_lex_unexpected(p, &t, "NAME@VERSION after \"since\" (jemalloc@5.3.0, libc@2.41, kernel 6.7)");
	if (t.end - t.off == 6 && !strncmp(p->buf + t.off, "kernel", 6) &&
	    (mr_lex_at(p, t.end) == ' ' || mr_lex_at(p, t.end) == '\t')) {
		/* "since kernel 6.7" */
		size_t pos = t.end;

		while (mr_lex_at(p, pos) == ' ' || mr_lex_at(p, pos) == '\t')
			pos++;
		p->c.since_name = mr_claims_strndup(p->cs, p->buf + t.off, 6);
		n = mr_lex_version_len(p, pos);
		p->c.since_version = mr_parse_version(p, pos, n, t.line,
					       t.col + (int)(pos - t.off), "\"since kernel\"");
		p->pos = pos + n;
		return;
	}
	if (mr_lex_at(p, t.end) != '@')
		mr_lex_err(p, t.line, t.col + (int)(t.end - t.off),
		     "expected \"@VERSION\" right after \"%.*s\" (since jemalloc@5.3.0)",
		     (int)(t.end - t.off), p->buf + t.off);
	p->c.since_name = mr_claims_strndup(p->cs, p->buf + t.off, t.end - t.off);
	n = mr_lex_version_len(p, t.end + 1);
	p->c.since_version = mr_parse_version(p, t.end + 1, n, t.line,
				       t.col + (int)(t.end - t.off) + 1, "\"@\"");
	p->pos = t.end + 1 + n;
}

void
mr_parse_unless(struct mr_parser *p)
{
	struct mr_tok t = mr_lex_next(p, M_HEAD);
	size_t pos, n;
	int col, ge;

	if (t.k != T_WORD || !mr_lex_charset(p->buf + t.off, t.end - t.off, "_.-"))
		mr_lex_unexpected(p, &t, "NAME@VERSION after \"unless\" (mimalloc@>=3.6)");
	if (mr_lex_at(p, t.end) != '@')
		mr_lex_err(p, t.line, t.col + (int)(t.end - t.off),
		     "expected \"@VERSION\" right after \"%.*s\" (unless mimalloc@>=3.6)",
		     (int)(t.end - t.off), p->buf + t.off);
	if (t.end - t.off == 4 && strncmp(p->buf + t.off, "libc", 4) == 0)
		mr_lex_err(p, t.line, t.col,
		     "unless names an allocator; a claim over some libcs names a libc range in a reference (libc>=2.41)");
	p->c.unless_name = mr_claims_strndup(p->cs, p->buf + t.off, t.end - t.off);
	pos = t.end + 1;
	p->c.unless_op = MR_V_EQ;
	if (mr_lex_at(p, pos) == '<' || mr_lex_at(p, pos) == '>') {
		ge = mr_lex_at(p, pos + 1) == '=';
		p->c.unless_op = mr_lex_at(p, pos) == '<' ? (ge ? MR_V_LE : MR_V_LT)
							    : (ge ? MR_V_GE : MR_V_GT);
		pos += 1 + (size_t)ge;
	}
	col = t.col + (int)(pos - t.off);
	n = mr_lex_version_len(p, pos);
	p->c.unless_version = mr_parse_version(p, pos, n, t.line, col,
					       p->c.unless_op == MR_V_EQ ? "\"@\"" :
					       mr_vop_names[p->c.unless_op]);
	p->pos = pos + n;
}
