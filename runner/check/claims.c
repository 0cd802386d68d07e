#include "check/claims.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tsv.h"
#include "core/util.h"

/* --- metrics ----------------------------------------------------------- */

const char *const mr_run_metrics[MR_NRUN_METRICS] = {
	"wall_ms", "pause_ms", "user_ms", "sys_ms", "maxrss_kb", "minflt",
	"majflt", "peak_rss_kb", "peak_tree_rss_kb", "cgroup_peak_kb",
};

const char *const mr_ckpt_metrics[MR_NCKPT_METRICS] = {
	"t_ms", "rss_kb", "vsz_kb", "pss_kb", "private_clean_kb",
	"private_dirty_kb", "shared_dirty_kb", "anon_kb", "lazyfree_kb",
	"swap_kb", "hwm_kb", "user_ms", "sys_ms", "minflt", "majflt",
	"tree_rss_kb", "tree_pss_kb", "tree_private_dirty_kb", "tree_nproc",
	"cgroup_kb",
};

static int
lookup(const char *const *v, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return i;
	return -1;
}

int
mr_run_metric(const char *name)
{
	return lookup(mr_run_metrics, MR_NRUN_METRICS, name);
}

int
mr_ckpt_metric(const char *name)
{
	return lookup(mr_ckpt_metrics, MR_NCKPT_METRICS, name);
}

int
mr_metric_is_time(int ckpt, int metric)
{
	const char *m = ckpt ? mr_ckpt_metrics[metric] : mr_run_metrics[metric];
	size_t n = strlen(m);

	return n > 3 && strcmp(m + n - 3, "_ms") == 0;
}

/* Copy the digits of s into out with a space between groups of three;
 * the sign and anything after the integer part are copied as they are. */
static void
group(const char *s, char *out)
{
	size_t nd;
	const char *p;

	if (*s == '-')
		*out++ = *s++;
	nd = strspn(s, "0123456789");
	for (p = s; p < s + nd; p++) {
		*out++ = *p;
		if (p + 1 < s + nd && (s + nd - p - 1) % 3 == 0)
			*out++ = ' ';
	}
	strcpy(out, s + nd);
}

char *
mr_fmt_num(char *buf, double v)
{
	char tmp[48];
	double r = round(v);

	if (isnan(v))
		return strcpy(buf, "nan");
	if (isinf(v))
		return strcpy(buf, v < 0 ? "-inf" : "inf");
	if (fabs(v) < 1e15 && fabs(v - r) <= 1e-9 * fmax(1, fabs(v))) {
		snprintf(tmp, sizeof tmp, "%.0f", r == 0 ? 0.0 : r);
		group(tmp, buf);
	} else if (fabs(v) >= 1000 && fabs(v) < 1e15) {
		snprintf(tmp, sizeof tmp, "%.1f", v);
		group(tmp, buf);
	} else {
		snprintf(buf, 48, "%.4g", v);
	}
	return buf;
}

/* --- configs ----------------------------------------------------------- */

int
mr_config_parse(const char *s, struct mr_config *c, const char **why)
{
	int n = 1, i;
	char *p;

	memset(c, 0, sizeof *c);
	if (!*s) {
		*why = "empty config";
		return -1;
	}
	for (p = (char *)s; *p; p++)
		if (*p == ',')
			n++;
	c->buf = estrdup(s);
	c->key = ecalloc(n, sizeof *c->key);
	c->val = ecalloc(n, sizeof *c->val);
	c->n = split(c->buf, ',', c->key, n);
	for (i = 0; i < c->n; i++) {
		char *eq = strchr(c->key[i], '=');

		if (!eq || eq == c->key[i]) {
			*why = "expected key=value pairs joined by commas";
			goto fail;
		}
		*eq = '\0';
		c->val[i] = eq + 1;
		if (!*c->val[i] || strchr(c->val[i], '=')) {
			*why = "expected key=value pairs joined by commas";
			goto fail;
		}
		if (i > 0 && strcmp(c->key[i - 1], c->key[i]) >= 0) {
			*why = "keys not sorted or repeated (not the canonical form)";
			goto fail;
		}
	}
	c->str = estrdup(s);
	return 0;
fail:
	mr_config_free(c);
	return -1;
}

const char *
mr_config_get(const struct mr_config *c, const char *key)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->key[i], key))
			return c->val[i];
	return NULL;
}

void
mr_config_free(struct mr_config *c)
{
	free(c->str);
	free(c->key);
	free(c->val);
	free(c->buf);
	memset(c, 0, sizeof *c);
}

/* An axis: a key whose value differs between the configs of a case.  A
 * config without the key (a glibc tunable left at its default) has the
 * value NULL. */
struct axis {
	const char *key;   /* into a config */
	const char **val;  /* distinct values in order of appearance */
	int nval;
};

static int
same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int
mr_ref_selects(const struct mr_ref *ref, const struct mr_config *c)
{
	int k;

	for (k = 0; k < ref->npairs; k++)
		if (!same(mr_config_get(c, ref->key[k]), ref->val[k]))
			return 0;
	return 1;
}

/* The axes of cfg[0..n-1] into *out (free each val, then *out). */
static int
axes_of(const struct mr_config *cfg, int n, struct axis **out)
{
	const char **keys = NULL;
	int nkeys = 0, naxes = 0, i, j, k, v;
	struct axis *ax;

	for (i = 0; i < n; i++) {
		for (j = 0; j < cfg[i].n; j++) {
			for (k = 0; k < nkeys; k++)
				if (!strcmp(keys[k], cfg[i].key[j]))
					break;
			if (k == nkeys) {
				keys = erealloc(keys, sizeof *keys * (nkeys + 1));
				keys[nkeys++] = cfg[i].key[j];
			}
		}
	}
	ax = ecalloc(nkeys, sizeof *ax);
	for (k = 0; k < nkeys; k++) {
		struct axis *a = &ax[naxes];

		/* The slot may hold a key found not to be an axis. */
		memset(a, 0, sizeof *a);
		a->key = keys[k];
		a->val = ecalloc(n, sizeof *a->val);
		for (i = 0; i < n; i++) {
			const char *val = mr_config_get(&cfg[i], keys[k]);

			for (v = 0; v < a->nval; v++)
				if (same(a->val[v], val))
					break;
			if (v == a->nval)
				a->val[a->nval++] = val;
		}
		if (a->nval > 1)
			naxes++;
		else
			free(a->val);
	}
	free(keys);
	*out = ax;
	return naxes;
}

static void
axes_free(struct axis *ax, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(ax[i].val);
	free(ax);
}

char *
mr_config_label(const struct mr_config *cfg, int ncfg, int i)
{
	struct axis *ax;
	int naxes = axes_of(cfg, ncfg, &ax), j, k;
	struct strbuf b = {0};

	for (j = 0; j < cfg[i].n; j++) {
		for (k = 0; k < naxes; k++)
			if (!strcmp(ax[k].key, cfg[i].key[j]))
				break;
		if (k < naxes)
			sb_printf(&b, "%s%s=%s", b.len ? "," : "", cfg[i].key[j],
				  cfg[i].val[j]);
	}
	axes_free(ax, naxes);
	if (!b.len)
		sb_add(&b, cfg[i].str);
	return b.s;
}

/* --- claims: memory ---------------------------------------------------- */

/* Every allocation behind a claims file is tracked in cs->mem, so a parse
 * error (a longjmp out of the middle of an expression) leaks nothing.
 * Each block starts with its index in cs->mem, so growing one is O(1)
 * however many there are (a file of thousands of claims grows cs->v once
 * per claim). */
union mem_hdr {
	size_t idx;         /* of the block in cs->mem */
	max_align_t align;  /* keeps what follows aligned for any type */
};

static void *
cgrow(struct mr_claims *cs, void *old, size_t n)
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

static char *
cstrndup(struct mr_claims *cs, const char *s, size_t n)
{
	char *p = cgrow(cs, NULL, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
mr_claims_free(struct mr_claims *cs)
{
	size_t i;

	for (i = 0; i < cs->nmem; i++)
		free(cs->mem[i]);
	free(cs->mem);
	free(cs->path);
	memset(cs, 0, sizeof *cs);
}

/* --- claims: lexer ----------------------------------------------------- */

/* The lexer is driven by the parser, which says what it expects next: the
 * same characters are a claim id at the start of a line, a metric in an
 * expression, a checkpoint name after '@', a key or a value in brackets. */
enum mode {
	M_HEAD, /* id, status: [A-Za-z0-9_.-]+ */
	M_EXPR, /* metric names, "and", numbers, operators */
	M_CKPT, /* checkpoint names: [A-Za-z0-9_-]+ */
	M_KEY,  /* parameter names: [A-Za-z0-9_.-]+ */
	M_VAL,  /* parameter values: anything but , ] = [ " # \ and blanks */
};

enum tk { T_EOF, T_EOL, T_WORD, T_NUM, T_STR, T_OP, T_PUNCT,
	  T_OTHER /* a character no token starts with, for "got ..." */ };

struct tok {
	enum tk k;
	size_t off, end;   /* bytes of the token in the buffer */
	int line, col;     /* where it starts */
	int spaced;        /* blanks, a comment or a continuation came first */
	long comment;      /* offset of a comment skipped just before, or -1 */
	int nline;         /* line and start of line after the token */
	size_t nbol;
};

struct parser {
	struct mr_claims *cs;
	const char *path;
	const char *buf;
	size_t len;
	size_t pos;        /* next byte to read */
	int line;          /* its line (1-based) */
	size_t bol;        /* offset of the start of its line */
	jmp_buf fail;      /* where an error goes */
	int depth;         /* nesting of parentheses and unary minus */
	int nterms;        /* numbers and references of the claim so far */
	struct mr_claim c; /* the claim being parsed */
};

static _Noreturn void __attribute__((format(printf, 4, 5)))
perr(struct parser *p, int line, int col, const char *fmt, ...)
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
wordchar(enum mode m, int c, int first)
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

static char
at(const struct parser *p, size_t pos)
{
	return pos < p->len ? p->buf[pos] : '\0';
}

/* How many decimal digits start at pos (the text need not end in a NUL:
 * found by fuzzing, fuzz/regressions/claims/number-at-end). */
static size_t
digits(const struct parser *p, size_t pos)
{
	size_t n = 0;

	while (at(p, pos + n) >= '0' && at(p, pos + n) <= '9')
		n++;
	return n;
}

/* Describe a token for "expected X, got Y". */
static const char *
tokdesc(const struct parser *p, const struct tok *t, char *buf, size_t n)
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
skipws(struct parser *p, size_t *pos, int *line, size_t *bol, long *comment)
{
	for (;;) {
		char c = at(p, *pos);

		if (c == ' ' || c == '\t' || (c == '\r' && at(p, *pos + 1) == '\n')) {
			(*pos)++;
		} else if (c == '\\') {
			size_t q = *pos + 1;

			if (at(p, q) == '\r')
				q++;
			if (q >= p->len) {
				*pos = q;
			} else if (at(p, q) == '\n') {
				*pos = q + 1;
				(*line)++;
				*bol = *pos;
			} else {
				perr(p, *line, (int)(*pos - *bol) + 1,
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
lex_string(struct parser *p, struct tok *t)
{
	size_t q = t->off + 1;

	for (;;) {
		char c = at(p, q);

		if (q >= p->len || c == '\n' || (c == '\r' && at(p, q + 1) == '\n'))
			perr(p, t->line, t->col,
			     "unterminated citation: the closing \" is missing on this line");
		if (c == '"')
			break;
		if (c == '\\') {
			char d = at(p, q + 1);

			if (d == '"' || d == '\\') {
				q += 2;
				continue;
			}
			if (d == '\r' && at(p, q + 2) == '\n')
				q++, d = '\n';
			if (d == '\n') {
				q += 2;
				t->nline++;
				t->nbol = q;
				continue;
			}
			perr(p, t->nline, (int)(q - t->nbol) + 1,
			     "unknown escape in a citation: only \\\" and \\\\ (and \\ at the end of a line)");
		}
		q++;
	}
	t->end = q + 1;
}

/* The decoded text of a citation token. */
static char *
string_text(struct parser *p, const struct tok *t)
{
	char *s = cgrow(p->cs, NULL, t->end - t->off), *o = s;
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

static struct tok
lex(struct parser *p, enum mode m)
{
	struct tok t = {0};
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
	c = at(p, pos);
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
				   (c == '.' && at(p, pos + 1) >= '0' && at(p, pos + 1) <= '9'))) {
		q = pos + digits(p, pos);
		if (at(p, q) == '.')
			q += 1 + digits(p, q + 1);
		if ((at(p, q) == 'e' || at(p, q) == 'E')) {
			size_t e = q + 1;

			if (at(p, e) == '+' || at(p, e) == '-')
				e++;
			if (at(p, e) >= '0' && at(p, e) <= '9')
				q = e + digits(p, e);
		}
		t.k = T_NUM;
		t.end = q;
		if (isalnum_(at(p, q)) || at(p, q) == '.') {
			while (isalnum_(at(p, q)) || at(p, q) == '.')
				q++;
			perr(p, t.line, t.col, "malformed number \"%.*s\"",
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
		perr(p, t.line, t.col, "unexpected control character 0x%02x",
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

static void
commit(struct parser *p, const struct tok *t)
{
	p->pos = t->end;
	p->line = t->nline;
	p->bol = t->nbol;
}

static struct tok
next(struct parser *p, enum mode m)
{
	struct tok t = lex(p, m);

	commit(p, &t);
	return t;
}

static int
is(const struct parser *p, const struct tok *t, enum tk k, const char *s)
{
	size_t n = strlen(s);

	return t->k == k && t->end - t->off == n && !memcmp(p->buf + t->off, s, n);
}

static _Noreturn void
unexpected(struct parser *p, const struct tok *t, const char *what)
{
	char buf[64];
	const char *hint = "";

	/* "rss_kb@created #2": the blank made "#2" a comment. */
	if (t->comment >= 0 && at(p, (size_t)t->comment + 1) >= '0' &&
	    at(p, (size_t)t->comment + 1) <= '9')
		hint = " (a \"#\" after a blank starts a comment: write name#N with no blank)";
	perr(p, t->line, t->col, "expected %s, got %s%s", what,
	     tokdesc(p, t, buf, sizeof buf), hint);
}

static int
charset(const char *s, size_t n, const char *extra)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr(extra, c)))
			return 0;
	}
	return n > 0;
}

/* --- claims: parser ---------------------------------------------------- */

static struct mr_expr *p_sum(struct parser *p);

static struct mr_expr *
node(struct parser *p, enum mr_expr_kind k, struct mr_expr *a, struct mr_expr *b)
{
	struct mr_expr *e = cgrow(p->cs, NULL, sizeof *e);

	e->kind = k;
	e->a = a;
	e->b = b;
	return e;
}

static double
apply(enum mr_expr_kind k, double a, double b)
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

/* Give e (a unary or binary operator, its operands parsed) its place and,
 * when it names no metric, its value.  A division by a constant 0 and a
 * constant beyond the doubles are errors of the file: they could never
 * be measured into sense. */
static struct mr_expr *
op(struct parser *p, struct mr_expr *e, int line, int col)
{
	e->line = line;
	e->col = col;
	if (e->kind == MR_E_DIV && e->b->konst && e->b->num == 0)
		perr(p, e->b->line, e->b->col,
		     "division by zero: the divisor is a constant 0");
	if (!e->a->konst || (e->b && !e->b->konst))
		return e;
	e->konst = 1;
	e->num = apply(e->kind, e->a->num, e->b ? e->b->num : 0);
	if (!isfinite(e->num))
		perr(p, line, col, "constant out of range: it is %s",
		     e->num < 0 ? "-inf" : "inf");
	return e;
}

/* Edit distance of a and b, capped at 9 (names are short). */
static int
distance(const char *a, const char *b)
{
	int d[32][32], la = (int)strlen(a), lb = (int)strlen(b), i, j;

	if (la > 30 || lb > 30)
		return 9;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;

			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	}
	return d[la][lb] > 9 ? 9 : d[la][lb];
}

static _Noreturn void
metric_error(struct parser *p, const struct tok *t, const char *name, int ckpt)
{
	const char *const *v = ckpt ? mr_ckpt_metrics : mr_run_metrics;
	int n = ckpt ? MR_NCKPT_METRICS : MR_NRUN_METRICS, best = -1, bd = 3, i;
	struct strbuf b = {0};
	char *list;

	for (i = 0; i < n; i++) {
		int dd = distance(name, v[i]);

		if (dd < bd) {
			bd = dd;
			best = i;
		}
	}
	if (best >= 0)
		perr(p, t->line, t->col, "unknown %s metric \"%s\" (did you mean %s?)",
		     ckpt ? "checkpoint" : "run", name, v[best]);
	for (i = 0; i < n; i++)
		sb_printf(&b, "%s%s", i ? " " : "", v[i]);
	/* perr does not return: keep the list where the arena frees it. */
	list = cstrndup(p->cs, b.s, b.len);
	sb_free(&b);
	perr(p, t->line, t->col, "unknown %s metric \"%s\" (known: %s)",
	     ckpt ? "checkpoint" : "run", name, list);
}

/* metric[@checkpoint[#seq]][[key=value,...]], the metric token read. */
static struct mr_expr *
p_ref(struct parser *p, const struct tok *t)
{
	struct mr_ref r = {0};
	char *name = cstrndup(p->cs, p->buf + t->off, t->end - t->off);
	struct tok u;
	struct mr_expr *e;

	r.line = t->line;
	r.col = t->col;
	if (at(p, p->pos) == '@') {
		p->pos++;
		u = next(p, M_CKPT);
		if (u.k != T_WORD || u.spaced)
			unexpected(p, &u, "a checkpoint name right after \"@\"");
		if (!charset(p->buf + u.off, u.end - u.off, "_-"))
			perr(p, u.line, u.col,
			     "a checkpoint name is made of a-z, 0-9, _ and -, got \"%.*s\"",
			     (int)(u.end - u.off), p->buf + u.off);
		r.checkpoint = cstrndup(p->cs, p->buf + u.off, u.end - u.off);
		r.cline = u.line;
		r.ccol = u.col;
		if (at(p, p->pos) == '@' && strchr(r.checkpoint, '-'))
			perr(p, u.line, u.col,
			     "checkpoint name \"%s\" runs into \"@\": write spaces around \"-\"",
			     r.checkpoint);
		if (at(p, p->pos) == '#') {
			long long seq;

			p->pos++;
			u = next(p, M_EXPR);
			if (u.k != T_NUM || u.spaced ||
			    !charset(p->buf + u.off, u.end - u.off, "") ||
			    parse_ll(cstrndup(p->cs, p->buf + u.off, u.end - u.off), &seq) < 0 ||
			    seq < 1 || seq > 1000000000)
				unexpected(p, &u, "an occurrence number (1, 2, ...) right after \"#\"");
			r.seq = (long)seq;
		}
		r.ckpt = 1;
		r.metric = mr_ckpt_metric(name);
		if (r.metric < 0) {
			if (mr_run_metric(name) >= 0)
				perr(p, t->line, t->col,
				     "%s is a run metric: it takes no @checkpoint", name);
			metric_error(p, t, name, 1);
		}
	} else {
		r.metric = mr_run_metric(name);
		if (r.metric < 0) {
			if (mr_ckpt_metric(name) >= 0)
				perr(p, t->line, t->col,
				     "%s is a checkpoint metric: name the checkpoint, as in %s@<checkpoint>",
				     name, name);
			metric_error(p, t, name, 0);
		}
	}
	if (at(p, p->pos) == '[') {
		p->pos++;
		for (;;) {
			struct tok k = next(p, M_KEY), v;
			char *key;
			int i;

			if (k.k != T_WORD)
				unexpected(p, &k, "a parameter name");
			if (r.npairs == MR_REF_MAX_PAIRS)
				perr(p, k.line, k.col,
				     "too many parameters in one reference (limit: %d)",
				     MR_REF_MAX_PAIRS);
			key = cstrndup(p->cs, p->buf + k.off, k.end - k.off);
			for (i = 0; i < r.npairs; i++)
				if (!strcmp(r.key[i], key))
					perr(p, k.line, k.col,
					     "parameter %s named twice in one reference", key);
			u = next(p, M_KEY);
			if (!is(p, &u, T_PUNCT, "="))
				unexpected(p, &u, "\"=\" after the parameter name");
			v = next(p, M_VAL);
			if (v.k != T_WORD)
				unexpected(p, &v, "a parameter value after \"=\"");
			r.key = cgrow(p->cs, r.key, sizeof *r.key * (r.npairs + 1));
			r.val = cgrow(p->cs, r.val, sizeof *r.val * (r.npairs + 1));
			r.kline = cgrow(p->cs, r.kline, sizeof *r.kline * (r.npairs + 1));
			r.kcol = cgrow(p->cs, r.kcol, sizeof *r.kcol * (r.npairs + 1));
			r.key[r.npairs] = key;
			r.val[r.npairs] = cstrndup(p->cs, p->buf + v.off, v.end - v.off);
			r.kline[r.npairs] = k.line;
			r.kcol[r.npairs] = k.col;
			r.npairs++;
			u = next(p, M_KEY);
			if (is(p, &u, T_PUNCT, "]"))
				break;
			if (!is(p, &u, T_PUNCT, ","))
				unexpected(p, &u, "\",\" or \"]\"");
		}
	}
	p->c.ref = cgrow(p->cs, p->c.ref, sizeof *p->c.ref * (p->c.nref + 1));
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
term(struct parser *p, const struct tok *t)
{
	if (++p->nterms > MR_CLAIM_MAX_TERMS)
		perr(p, t->line, t->col,
		     "claim %s has too many terms (limit: %d numbers and metrics in a claim)",
		     p->c.id, MR_CLAIM_MAX_TERMS);
}

static struct mr_expr *
p_primary(struct parser *p)
{
	struct tok t = next(p, M_EXPR);
	struct mr_expr *e;

	if ((t.k == T_NUM || t.k == T_WORD) && !is(p, &t, T_WORD, "and"))
		term(p, &t);
	if (t.k == T_NUM) {
		e = node(p, MR_E_NUM, NULL, NULL);
		e->text = cstrndup(p->cs, p->buf + t.off, t.end - t.off);
		if (parse_double(e->text, &e->num) < 0)
			perr(p, t.line, t.col, "number out of range: %s", e->text);
		e->konst = 1;
		e->line = t.line;
		e->col = t.col;
		return e;
	}
	if (is(p, &t, T_PUNCT, "(")) {
		struct tok u;

		e = p_sum(p);
		u = next(p, M_EXPR);
		if (!is(p, &u, T_PUNCT, ")"))
			unexpected(p, &u, "\")\"");
		e->paren = 1;
		e->line = t.line;
		e->col = t.col;
		return e;
	}
	if (t.k == T_WORD && !is(p, &t, T_WORD, "and"))
		return p_ref(p, &t);
	unexpected(p, &t, "a number, a metric or \"(\"");
}

static struct mr_expr *
p_unary(struct parser *p)
{
	struct tok t = lex(p, M_EXPR);
	struct mr_expr *e;

	/* Bounded, so a pathological file cannot overflow the stack. */
	if (++p->depth > MR_CLAIM_MAX_DEPTH)
		perr(p, t.line, t.col, "expression nested too deeply (limit: %d levels of parentheses and unary minus)",
		     MR_CLAIM_MAX_DEPTH);
	if (is(p, &t, T_PUNCT, "-")) {
		commit(p, &t);
		e = op(p, node(p, MR_E_NEG, p_unary(p), NULL), t.line, t.col);
	} else {
		e = p_primary(p);
	}
	p->depth--;
	return e;
}

static struct mr_expr *
p_prod(struct parser *p)
{
	struct mr_expr *e = p_unary(p);

	for (;;) {
		struct tok t = lex(p, M_EXPR);
		enum mr_expr_kind k;

		if (is(p, &t, T_PUNCT, "*"))
			k = MR_E_MUL;
		else if (is(p, &t, T_PUNCT, "/"))
			k = MR_E_DIV;
		else
			return e;
		commit(p, &t);
		e = op(p, node(p, k, e, p_unary(p)), e->line, e->col);
	}
}

static struct mr_expr *
p_sum(struct parser *p)
{
	struct mr_expr *e = p_prod(p);

	for (;;) {
		struct tok t = lex(p, M_EXPR);
		enum mr_expr_kind k;

		if (is(p, &t, T_PUNCT, "+"))
			k = MR_E_ADD;
		else if (is(p, &t, T_PUNCT, "-"))
			k = MR_E_SUB;
		else
			return e;
		commit(p, &t);
		e = op(p, node(p, k, e, p_prod(p)), e->line, e->col);
	}
}

static void
p_cmp(struct parser *p)
{
	static const char *const ops[] = { "<", "<=", ">", ">=" };
	struct mr_cmp c = {0};
	struct tok t;
	int i;

	c.l = p_sum(p);
	t = next(p, M_EXPR);
	for (i = 0; i < 4; i++)
		if (is(p, &t, T_OP, ops[i]))
			break;
	if (i == 4)
		unexpected(p, &t, "a comparison operator");
	c.op = (enum mr_op)i;
	c.r = p_sum(p);
	p->c.cmp = cgrow(p->cs, p->c.cmp, sizeof *p->c.cmp * (p->c.ncmp + 1));
	p->c.cmp[p->c.ncmp++] = c;
}

/* The values of env.tsv's thp: the kernel's modes, and "none" (no THP). */
static const char *const thp_modes[] = { "always", "madvise", "never", "none", NULL };

/* "when thp=MODE[,MODE...]", after the status ("when" already read). */
static void
p_when(struct parser *p)
{
	struct tok t = next(p, M_KEY);
	int i;

	if (t.k == T_WORD && !is(p, &t, T_WORD, "thp"))
		perr(p, t.line, t.col,
		     "a claim is made for some THP modes only (when thp=MODE,...): \"%.*s\" is not thp",
		     (int)(t.end - t.off), p->buf + t.off);
	if (t.k != T_WORD)
		unexpected(p, &t, "thp after \"when\"");
	t = next(p, M_KEY);
	if (!is(p, &t, T_PUNCT, "="))
		unexpected(p, &t, "\"=\" after \"when thp\"");
	for (;;) {
		t = next(p, M_VAL);
		if (t.k != T_WORD)
			unexpected(p, &t, "a THP mode (always, madvise, never or none)");
		for (i = 0; thp_modes[i]; i++)
			if (is(p, &t, T_WORD, thp_modes[i]))
				break;
		if (!thp_modes[i])
			perr(p, t.line, t.col,
			     "unknown THP mode \"%.*s\": always, madvise, never or none (a kernel without THP)",
			     (int)(t.end - t.off), p->buf + t.off);
		for (i = 0; i < p->c.nwhen_thp; i++)
			if (is(p, &t, T_WORD, p->c.when_thp[i]))
				perr(p, t.line, t.col, "THP mode \"%s\" named twice",
				     p->c.when_thp[i]);
		p->c.when_thp = cgrow(p->cs, p->c.when_thp,
				      sizeof *p->c.when_thp * (p->c.nwhen_thp + 1));
		p->c.when_thp[p->c.nwhen_thp++] = cstrndup(p->cs, p->buf + t.off, t.end - t.off);
		t = lex(p, M_EXPR);
		if (!is(p, &t, T_PUNCT, ","))
			break;
		commit(p, &t);
	}
}

static void
p_claim(struct parser *p)
{
	struct tok t = next(p, M_HEAD);
	struct mr_claims *cs = p->cs;
	char *s;
	int i;

	memset(&p->c, 0, sizeof p->c);
	p->nterms = 0;
	if (t.k != T_WORD)
		unexpected(p, &t, "a claim id");
	if (cs->n == MR_CLAIMS_MAX)
		perr(p, t.line, t.col, "too many claims in one file (limit: %d)",
		     MR_CLAIMS_MAX);
	if (!charset(p->buf + t.off, t.end - t.off, "-"))
		perr(p, t.line, t.col,
		     "a claim id is made of a-z, 0-9 and -, got \"%.*s\"",
		     (int)(t.end - t.off), p->buf + t.off);
	p->c.id = cstrndup(cs, p->buf + t.off, t.end - t.off);
	p->c.line = t.line;
	p->c.col = t.col;
	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->v[i].id, p->c.id))
			perr(p, t.line, t.col,
			     "claim id \"%s\" used twice (first on line %d)",
			     p->c.id, cs->v[i].line);

	t = next(p, M_HEAD);
	if (is(p, &t, T_WORD, "holds"))
		p->c.status = MR_HOLDS;
	else if (is(p, &t, T_WORD, "reported"))
		p->c.status = MR_REPORTED;
	else
		unexpected(p, &t, "\"holds\" or \"reported\" after the claim id");
	t = lex(p, M_HEAD);
	if (is(p, &t, T_WORD, "when")) {
		commit(p, &t);
		p_when(p);
	}

	for (;;) {
		p_cmp(p);
		t = lex(p, M_EXPR);
		if (is(p, &t, T_WORD, "and")) {
			commit(p, &t);
			continue;
		}
		if (t.k == T_STR)
			break;
		unexpected(p, &t,
			   "\"and\" or the citation in double quotes (a claim cites its report)");
	}
	t = next(p, M_EXPR);
	p->c.cite = s = string_text(p, &t);
	if (!s[strspn(s, " \t")])
		perr(p, t.line, t.col,
		     "empty citation: say which report and which of its figures this claim stands for");
	t = lex(p, M_HEAD);
	if (t.k != T_EOL && t.k != T_EOF)
		unexpected(p, &t, "the end of the line after the citation");
	commit(p, &t);
	if (p->c.nref == 0)
		perr(p, p->c.line, p->c.col,
		     "claim %s names no metric: a claim relates measured figures",
		     p->c.id);
	cs->v = cgrow(cs, cs->v, sizeof *cs->v * (cs->n + 1));
	cs->v[cs->n++] = p->c;
}

int
mr_claims_parse(const char *path, const char *text, size_t len,
		struct mr_claims *cs)
{
	struct parser p;

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
		struct tok t = lex(&p, M_HEAD);

		if (t.k == T_EOF)
			break;
		if (t.k == T_EOL) {
			commit(&p, &t);
			continue;
		}
		p_claim(&p);
	}
	return 0;
}

int
mr_claims_read(const char *path, struct mr_claims *cs)
{
	struct strbuf b = {0};
	char chunk[8192];
	struct stat st;
	ssize_t n;
	int fd, rc;

	memset(cs, 0, sizeof *cs);
	/* O_NONBLOCK: a FIFO in its place must not hang the open. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		mr_errat(path, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		mr_errat(path, 0, 0, "not a regular file");
		close(fd);
		return -1;
	}
	sb_add(&b, "");
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			mr_errat(path, 0, 0, "read: %s", strerror(errno));
			close(fd);
			sb_free(&b);
			return -1;
		}
		sb_addn(&b, chunk, (size_t)n);
		if (b.len > MR_CLAIMS_MAX_BYTES) {
			mr_errat(path, 0, 0, "larger than %d KiB (the limit of a claims file)",
				 MR_CLAIMS_MAX_BYTES >> 10);
			close(fd);
			sb_free(&b);
			return -1;
		}
	}
	close(fd);
	if (strlen(b.s) != b.len) {
		size_t off = strlen(b.s), bol = 0, i;
		long line = 1;

		for (i = 0; i < off; i++)
			if (b.s[i] == '\n')
				line++, bol = i + 1;
		mr_errat(path, line, (long)(off - bol) + 1, "NUL byte in a text file");
		sb_free(&b);
		return -1;
	}
	rc = mr_claims_parse(path, b.s, b.len, cs);
	sb_free(&b);
	return rc;
}

/* Every key of cfg[0..n-1], once each, comma-separated, into b. */
static void
known_keys(struct strbuf *b, const struct mr_config *cfg, int n)
{
	const char **seen = ecalloc(1, sizeof *seen);
	int nseen = 0, i, j, k;

	sb_add(b, "");
	for (i = 0; i < n; i++) {
		for (j = 0; j < cfg[i].n; j++) {
			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k], cfg[i].key[j]))
					break;
			if (k < nseen)
				continue;
			seen = erealloc(seen, sizeof *seen * (nseen + 1));
			seen[nseen++] = cfg[i].key[j];
			sb_printf(b, "%s%s", b->len ? ", " : "", cfg[i].key[j]);
		}
	}
	free(seen);
}

int
mr_claims_check_keys(const struct mr_claims *cs, const struct mr_config *cfg,
		     int n)
{
	struct strbuf b = {0};
	int i, j, k, l;

	if (n == 0)
		return 0;
	for (i = 0; i < cs->n; i++) {
		for (j = 0; j < cs->v[i].nref; j++) {
			const struct mr_ref *r = &cs->v[i].ref[j];

			for (k = 0; k < r->npairs; k++) {
				for (l = 0; l < n; l++)
					if (mr_config_get(&cfg[l], r->key[k]))
						break;
				/* pressure is the runner's axis, off unless
				 * asked for: without it the claim is skipped
				 * ("no run has pressure=..."), not an error */
				if (l < n || strcmp(r->key[k], "pressure") == 0)
					continue;
				known_keys(&b, cfg, n);
				mr_errat(cs->path, r->kline[k], r->kcol[k],
					 "unknown parameter \"%s\" (the runs of this case have %s)",
					 r->key[k], b.s);
				sb_free(&b);
				return -1;
			}
		}
	}
	return 0;
}

int
mr_claims_check_ckpts(const struct mr_claims *cs, const char *casename,
		      const char *const *names, int n)
{
	struct strbuf b = {0};
	int i, j, k, best, bd;

	for (i = 0; i < cs->n; i++) {
		for (j = 0; j < cs->v[i].nref; j++) {
			const struct mr_ref *r = &cs->v[i].ref[j];

			if (!r->checkpoint)
				continue;
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], r->checkpoint))
					break;
			if (k < n)
				continue;
			best = -1;
			bd = 3;
			sb_add(&b, "");
			for (k = 0; k < n; k++) {
				int d = distance(r->checkpoint, names[k]);

				if (d < bd) {
					bd = d;
					best = k;
				}
				sb_printf(&b, "%s%s", k ? ", " : "", names[k]);
			}
			if (best >= 0)
				mr_errat(cs->path, r->cline, r->ccol,
					 "unknown checkpoint \"%s\" of case %s (did you mean %s?); checkpoints: %s",
					 r->checkpoint, casename, names[best], b.s);
			else
				mr_errat(cs->path, r->cline, r->ccol,
					 "unknown checkpoint \"%s\" of case %s; checkpoints: %s",
					 r->checkpoint, casename, n ? b.s : "none");
			sb_free(&b);
			return -1;
		}
	}
	return 0;
}

/* --- evaluation -------------------------------------------------------- */

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
		v = apply(e->kind, a, b);
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
				  apply(bad->kind, calc(bad->a, val, &none),
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

static void
eval_combinations(const struct mr_claim *c, const struct mr_eval_data *d,
		  struct mr_claim_result *r)
{
	struct axis *ax;
	int naxes = axes_of(d->cfg, d->ncfg, &ax);
	int *it = ecalloc(naxes, sizeof *it); /* axes some reference leaves unnamed */
	int *idx = ecalloc(naxes, sizeof *idx); /* the current combination */
	double *val = ecalloc(c->nref, sizeof *val);
	struct skips sk = {0};
	struct strbuf first_true = {0}, first_false = {0}, falselabels = {0};
	struct strbuf first_undef = {0}, undeflabels = {0};
	int nit = 0, i, j, k;

	memset(r, 0, sizeof *r);
	for (i = 0; i < naxes; i++) {
		for (j = 0; j < c->nref; j++) {
			if (!names(&c->ref[j], ax[i].key)) {
				it[nit++] = i;
				break;
			}
		}
	}
	for (;;) {
		struct strbuf label = {0}, line = {0};
		char *cause = NULL, *what = NULL;

		sb_add(&label, "");
		for (k = 0; k < nit; k++)
			pair(&label, ax[it[k]].key, ax[it[k]].val[idx[k]]);
		for (j = 0; j < c->nref && !cause; j++) {
			const struct mr_ref *ref = &c->ref[j];
			int match = -1, nmatch = 0;
			char *why;

			for (i = 0; i < d->ncfg; i++) {
				const struct mr_config *cf = &d->cfg[i];

				if (!mr_ref_selects(ref, cf))
					continue;
				for (k = 0; k < nit; k++) {
					const struct axis *a = &ax[it[k]];

					if (!names(ref, a->key) &&
					    !same(mr_config_get(cf, a->key), a->val[idx[k]]))
						break;
				}
				if (k < nit)
					continue;
				if (nmatch++ == 0)
					match = i;
			}
			for (k = 0; nmatch == 0 && k < ref->npairs; k++) {
				for (i = 0; i < d->ncfg; i++)
					if (same(mr_config_get(&d->cfg[i], ref->key[k]),
						 ref->val[k]))
						break;
				if (i == d->ncfg)
					break;
			}
			if (nmatch == 0 && k < ref->npairs) {
				/* A value of another profile, or a typo. */
				what = esprintf("%s=%s", ref->key[k], ref->val[k]);
				cause = estrdup("no run has " WHAT);
			} else if (nmatch != 1) {
				/* Only a matrix that is not a full product gets
				 * here. */
				struct strbuf sel = {0};

				sb_add(&sel, "");
				for (k = 0; k < ref->npairs; k++)
					pair(&sel, ref->key[k], ref->val[k]);
				for (k = 0; k < nit; k++)
					if (!names(ref, ax[it[k]].key))
						pair(&sel, ax[it[k]].key, ax[it[k]].val[idx[k]]);
				what = sel.s;
				cause = estrdup(nmatch ? "several configs match " WHAT
						       : "no config with " WHAT " in the results");
			} else if (d->value(d->ctx, match, ref, &val[j], &why) < 0) {
				what = mr_config_label(d->cfg, d->ncfg, match);
				cause = esprintf("no data for " WHAT " (%s)", why);
				free(why);
			}
		}
		r->ncomb++;
		if (label.len)
			sb_printf(&line, "%s: ", label.s);
		else
			sb_add(&line, "");
		if (cause) {
			r->nskipped++;
			sb_add(&line, "skipped (");
			put_cause(&line, cause, what);
			sb_add(&line, ")");
			skips_add(&sk, cause, what);
		} else {
			const struct mr_expr *bad = NULL;
			int undef = -1;

			/* A false comparison makes the conjunction false even
			 * beside an undefined one. */
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
				render(&line, c->cmp[undef].l, val);
				sb_printf(&line, " %s ", opname[c->cmp[undef].op]);
				render(&line, c->cmp[undef].r, val);
				sb_add(&line, " is undefined: ");
				undefined_why(&line, bad, c, val);
				if (r->nundefined == 1)
					sb_add(&first_undef, line.s);
				else
					sb_printf(&undeflabels, "%s%s",
						  undeflabels.len ? " and " : "", label.s);
			} else if (j == c->ncmp) {
				r->ntrue++;
				for (j = 0; j < c->ncmp; j++) {
					if (j)
						sb_add(&line, " and ");
					render_cmp(&line, &c->cmp[j], val);
				}
				if (r->ntrue == 1)
					sb_add(&first_true, line.s);
			} else {
				r->nfalse++;
				render_cmp(&line, &c->cmp[j], val);
				sb_add(&line, " is false");
				if (r->nfalse == 1)
					sb_add(&first_false, line.s);
				else
					sb_printf(&falselabels, "%s%s",
						  falselabels.len ? " and " : "", label.s);
			}
		}
		r->lines = erealloc(r->lines, sizeof *r->lines * (r->nlines + 1));
		r->lines[r->nlines++] = line.s;
		sb_free(&label);

		/* The next combination, odometer-wise. */
		for (k = nit - 1; k >= 0; k--) {
			if (++idx[k] < ax[it[k]].nval)
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}

	{
		struct strbuf b = {0};

		sb_add(&b, "");
		if (r->nfalse) {
			r->outcome = MR_CLAIM_FALSE;
			sb_add(&b, first_false.s);
			if (falselabels.len)
				sb_printf(&b, "; also false for %s", falselabels.s);
		} else if (r->nundefined) {
			r->outcome = MR_CLAIM_UNDEFINED;
			sb_add(&b, first_undef.s);
			if (undeflabels.len)
				sb_printf(&b, "; also undefined for %s", undeflabels.s);
			if (r->ntrue)
				sb_printf(&b, "; %d of %d combinations held", r->ntrue,
					  r->ncomb);
		} else if (r->ntrue) {
			r->outcome = MR_CLAIM_TRUE;
			sb_add(&b, first_true.s);
			if (r->ncomb > 1)
				sb_printf(&b, "; %d of %d combinations held", r->ntrue,
					  r->ncomb);
		} else {
			r->outcome = MR_CLAIM_NODATA;
			skips_join(&b, &sk, 3);
		}
		if (r->outcome != MR_CLAIM_NODATA && r->nskipped) {
			sb_printf(&b, "; %d skipped: ", r->nskipped);
			skips_join(&b, &sk, 2);
		}
		r->detail = b.s;
	}
	sb_free(&first_true);
	sb_free(&first_false);
	sb_free(&falselabels);
	sb_free(&first_undef);
	sb_free(&undeflabels);
	skips_free(&sk);
	free(val);
	free(idx);
	free(it);
	axes_free(ax, naxes);
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
