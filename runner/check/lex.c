/* lex: the arena and the lexer of the claims language — see lex.h. */
#include "check/lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tsv.h"
#include "core/util.h"

/* --- the arena ----------------------------------------------------------- */

/* Every allocation behind a claims file is tracked in cs->mem, so a parse
 * error (a longjmp out of the middle of an expression) leaks nothing.
 * Each block starts with its index in cs->mem, so growing one is O(1)
 * however many there are (a file of thousands of claims grows cs->v once
 * per claim). */
union mem_hdr {
	size_t idx;         /* of the block in cs->mem */
	max_align_t align;  /* keeps what follows aligned for any type */
};

void *
mr_claims_grow(struct mr_claims *cs, void *old, size_t n)
{
	union mem_hdr *h;

	if (old) {
		h = (union mem_hdr *)old - 1;
		h = erealloc(h, sizeof *h + n);
		cs->mem[h->idx] = h;
		return h + 1;
	}
	if (cs->nmem == cs->capmem) {
		cs->capmem = cs->capmem ? cs->capmem * 2 : 64;
		cs->mem = erealloc(cs->mem, sizeof *cs->mem * cs->capmem);
	}
	h = ecalloc(1, sizeof *h + n);
	h->idx = cs->nmem;
	cs->mem[cs->nmem++] = h;
	return h + 1;
}

char *
mr_claims_strndup(struct mr_claims *cs, const char *s, size_t n)
{
	char *p = mr_claims_grow(cs, NULL, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* --- the lexer ----------------------------------------------------------- */

_Noreturn void __attribute__((format(printf, 4, 5)))
mr_lex_err(struct mr_parser *p, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mr_verrat(p->path, line, col, fmt, ap);
	va_end(ap);
	longjmp(p->fail, 1);
}

static int
isalnum_(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int
wordchar(enum mr_lex_mode m, int c, int first)
{
	switch (m) {
	case M_HEAD:
	case M_KEY:
		return isalnum_(c) || c == '.' || c == '-';
	case M_EXPR:
		return isalnum_(c) && !(first && c >= '0' && c <= '9');
	case M_CKPT:
		return isalnum_(c) || c == '-';
	case M_VAL:
		return (unsigned char)c > ' ' && c != 0x7f && !strchr(",]=[\"#\\", c);
	}
	return 0;
}

char
mr_lex_at(const struct mr_parser *p, size_t pos)
{
	return pos < p->len ? p->buf[pos] : '\0';
}

/* How many decimal digits start at pos (the text need not end in a NUL:
 * found by fuzzing, fuzz/regressions/claims/number-at-end). */
static size_t
digits(const struct mr_parser *p, size_t pos)
{
	size_t n = 0;

	while (mr_lex_at(p, pos + n) >= '0' && mr_lex_at(p, pos + n) <= '9')
		n++;
	return n;
}

/* Describe a token for "expected X, got Y". */
static const char *
tokdesc(const struct mr_parser *p, const struct mr_tok *t, char *buf, size_t n)
{
	size_t len = t->end - t->off;

	switch (t->k) {
	case T_EOF:
		return "the end of the file";
	case T_EOL:
		return "the end of the line";
	case T_STR:
		return "a quoted citation";
	default:
		if (len > 30)
			snprintf(buf, n, "\"%.30s...\"", p->buf + t->off);
		else
			snprintf(buf, n, "\"%.*s\"", (int)len, p->buf + t->off);
		return buf;
	}
}

/* Skip blanks, comments and line continuations from *pos. */
static void
skipws(struct mr_parser *p, size_t *pos, int *line, size_t *bol, long *comment)
{
	for (;;) {
		char c = mr_lex_at(p, *pos);

		if (c == ' ' || c == '\t' || (c == '\r' && mr_lex_at(p, *pos + 1) == '\n')) {
			(*pos)++;
		} else if (c == '\\') {
			size_t q = *pos + 1;

			if (mr_lex_at(p, q) == '\r')
				q++;
			if (q >= p->len) {
				*pos = q;
			} else if (mr_lex_at(p, q) == '\n') {
				*pos = q + 1;
				(*line)++;
				*bol = *pos;
			} else {
				mr_lex_err(p, *line, (int)(*pos - *bol) + 1,
				     "stray \"\\\": a backslash continues a claim only at the very end of a line");
			}
		} else if (c == '#' && (*pos == 0 || strchr(" \t\r\n", p->buf[*pos - 1]))) {
			/* A comment: '#' at the start of a line or after a blank
			 * ("rss_kb@created#2" is an occurrence, not a comment). */
			*comment = (long)*pos;
			while (*pos < p->len && p->buf[*pos] != '\n')
				(*pos)++;
		} else {
			return;
		}
	}
}

/* Scan a citation starting at the quote at t->off; sets t->end and the
 * line after it.  Continuations inside are allowed. */
static void
lex_string(struct mr_parser *p, struct mr_tok *t)
{
	size_t q = t->off + 1;

	for (;;) {
		char c = mr_lex_at(p, q);

		if (q >= p->len || c == '\n' || (c == '\r' && mr_lex_at(p, q + 1) == '\n'))
			mr_lex_err(p, t->line, t->col,
			     "unterminated citation: the closing \" is missing on this line");
		if (c == '"')
			break;
		if (c == '\\') {
			char d = mr_lex_at(p, q + 1);

			if (d == '"' || d == '\\') {
				q += 2;
				continue;
			}
			if (d == '\r' && mr_lex_at(p, q + 2) == '\n')
				q++, d = '\n';
			if (d == '\n') {
				q += 2;
				t->nline++;
				t->nbol = q;
				continue;
			}
			mr_lex_err(p, t->nline, (int)(q - t->nbol) + 1,
			     "unknown escape in a citation: only \\\" and \\\\ (and \\ at the end of a line)");
		}
		q++;
	}
	t->end = q + 1;
}

/* The decoded text of a citation token. */
char *
mr_lex_string(struct mr_parser *p, const struct mr_tok *t)
{
	char *s = mr_claims_grow(p->cs, NULL, t->end - t->off), *o = s;
	size_t q;

	for (q = t->off + 1; q < t->end - 1; q++) {
		char c = p->buf[q];

		if (c == '\\') {
			c = p->buf[++q];
			if (c == '\r')
				c = p->buf[++q];
			if (c == '\n')
				continue;
		}
		*o++ = c;
	}
	*o = '\0';
	return s;
}

struct mr_tok
mr_lex(struct mr_parser *p, enum mr_lex_mode m)
{
	struct mr_tok t = {0};
	size_t pos = p->pos, bol = p->bol, q;
	int line = p->line;
	char c;

	t.comment = -1;
	skipws(p, &pos, &line, &bol, &t.comment);
	t.spaced = pos != p->pos;
	t.off = pos;
	t.line = line;
	t.col = (int)(pos - bol) + 1;
	t.nline = line;
	t.nbol = bol;
	c = mr_lex_at(p, pos);
	if (pos >= p->len) {
		t.k = T_EOF;
		t.end = pos;
	} else if (c == '\n') {
		t.k = T_EOL;
		t.end = pos + 1;
		t.nline = line + 1;
		t.nbol = pos + 1;
	} else if (c == '"') {
		t.k = T_STR;
		lex_string(p, &t);
	} else if (wordchar(m, c, 1)) {
		for (q = pos; q < p->len && wordchar(m, p->buf[q], q == pos); q++)
			;
		t.k = T_WORD;
		t.end = q;
	} else if (m == M_EXPR && ((c >= '0' && c <= '9') ||
				   (c == '.' && mr_lex_at(p, pos + 1) >= '0' && mr_lex_at(p, pos + 1) <= '9'))) {
		q = pos + digits(p, pos);
		if (mr_lex_at(p, q) == '.')
			q += 1 + digits(p, q + 1);
		if ((mr_lex_at(p, q) == 'e' || mr_lex_at(p, q) == 'E')) {
			size_t e = q + 1;

			if (mr_lex_at(p, e) == '+' || mr_lex_at(p, e) == '-')
				e++;
			if (mr_lex_at(p, e) >= '0' && mr_lex_at(p, e) <= '9')
				q = e + digits(p, e);
		}
		t.k = T_NUM;
		t.end = q;
		if (isalnum_(mr_lex_at(p, q)) || mr_lex_at(p, q) == '.') {
			while (isalnum_(mr_lex_at(p, q)) || mr_lex_at(p, q) == '.')
				q++;
			mr_lex_err(p, t.line, t.col, "malformed number \"%.*s\"",
			     (int)(q - pos), p->buf + pos);
		}
	} else if (m == M_EXPR && strchr("<>=!", c)) {
		for (q = pos; q < p->len && strchr("<>=!", p->buf[q]); q++)
			;
		t.k = T_OP;
		t.end = q;
	} else if (strchr("()[]@#,+-*/=", c)) {
		t.k = T_PUNCT;
		t.end = pos + 1;
	} else if ((unsigned char)c < ' ' || c == 0x7f) {
		mr_lex_err(p, t.line, t.col, "unexpected control character 0x%02x",
		     (unsigned char)c);
	} else if (strchr("<>=!", c)) {
		for (q = pos; q < p->len && strchr("<>=!", p->buf[q]); q++)
			;
		t.k = T_OTHER;
		t.end = q;
	} else {
		/* A whole UTF-8 sequence, not its first byte: the parser
		 * says what it expected instead. */
		for (q = pos + 1; q < p->len && ((unsigned char)p->buf[q] & 0xc0) == 0x80; q++)
			;
		t.k = T_OTHER;
		t.end = q;
	}
	return t;
}

void
mr_lex_commit(struct mr_parser *p, const struct mr_tok *t)
{
	p->pos = t->end;
	p->line = t->nline;
	p->bol = t->nbol;
}

struct mr_tok
mr_lex_next(struct mr_parser *p, enum mr_lex_mode m)
{
	struct mr_tok t = mr_lex(p, m);

	mr_lex_commit(p, &t);
	return t;
}

int
mr_lex_is(const struct mr_parser *p, const struct mr_tok *t, enum mr_tk k, const char *s)
{
	size_t n = strlen(s);

	return t->k == k && t->end - t->off == n && !memcmp(p->buf + t->off, s, n);
}

_Noreturn void
mr_lex_unexpected(struct mr_parser *p, const struct mr_tok *t, const char *what)
{
	char buf[64];
	const char *hint = "";

	/* "rss_kb@created #2": the blank made "#2" a comment. */
	if (t->comment >= 0 && mr_lex_at(p, (size_t)t->comment + 1) >= '0' &&
	    mr_lex_at(p, (size_t)t->comment + 1) <= '9')
		hint = " (a \"#\" after a blank starts a comment: write name#N with no blank)";
	mr_lex_err(p, t->line, t->col, "expected %s, got %s%s", what,
	     tokdesc(p, t, buf, sizeof buf), hint);
}

int
mr_lex_charset(const char *s, size_t n, const char *extra)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr(extra, c)))
			return 0;
	}
	return n > 0;
}
