/* lex: the inside of the claims module (claims.h), shared by its files:
 * the arena every allocation of a claims file lives in, the lexer the
 * parser drives, and the arithmetic of an expression node.  Not a public
 * header: only check/lex.c, parse.c and eval.c include it.
 */
#ifndef MR_LEX_H
#define MR_LEX_H

#include <setjmp.h>
#include <stddef.h>

#include "check/claims.h"

/* The lexer is driven by the parser, which says what it expects next: the
 * same characters are a claim id at the start of a line, a metric in an
 * expression, a checkpoint name after '@', a key or a value in brackets. */
enum mr_lex_mode {
	M_HEAD, /* id, status: [A-Za-z0-9_.-]+ */
	M_EXPR, /* metric names, "and", numbers, operators */
	M_CKPT, /* checkpoint names: [A-Za-z0-9_-]+ */
	M_KEY,  /* parameter names: [A-Za-z0-9_.-]+ */
	M_VAL,  /* parameter values: anything but , ] = [ " # \ and blanks */
};

enum mr_tk { T_EOF, T_EOL, T_WORD, T_NUM, T_STR, T_OP, T_PUNCT,
	  T_OTHER /* a character no token starts with, for "got ..." */ };

struct mr_tok {
	enum mr_tk k;
	size_t off, end;   /* bytes of the token in the buffer */
	int line, col;     /* where it starts */
	int spaced;        /* blanks, a comment or a continuation came first */
	long comment;      /* offset of a comment skipped just before, or -1 */
	int nline;         /* line and start of line after the token */
	size_t nbol;
};

struct mr_parser {
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


/* --- the arena ----------------------------------------------------------- */

/* Grow old (NULL: a new zeroed block) to n bytes, tracked in cs->mem so
 * that mr_claims_free releases it; dies on exhaustion. */
void *mr_claims_grow(struct mr_claims *cs, void *old, size_t n);

/* The n bytes at s as a string in the arena. */
char *mr_claims_strndup(struct mr_claims *cs, const char *s, size_t n);

/* --- the lexer ----------------------------------------------------------- */

/* Print "path:line:col: message" and longjmp to p->fail. */
_Noreturn void __attribute__((format(printf, 4, 5)))
mr_lex_err(struct mr_parser *p, int line, int col, const char *fmt, ...);

/* The byte at pos, or '\0' past the end (the text need not end in one). */
char mr_lex_at(const struct mr_parser *p, size_t pos);

/* The next token in mode m, without consuming it (mr_lex_commit does). */
struct mr_tok mr_lex(struct mr_parser *p, enum mr_lex_mode m);
void mr_lex_commit(struct mr_parser *p, const struct mr_tok *t);

/* mr_lex, then mr_lex_commit. */
struct mr_tok mr_lex_next(struct mr_parser *p, enum mr_lex_mode m);

/* Whether t is of kind k and spelt s. */
int mr_lex_is(const struct mr_parser *p, const struct mr_tok *t, enum mr_tk k,
	      const char *s);

/* "expected WHAT, got T" at t, and the longjmp. */
_Noreturn void mr_lex_unexpected(struct mr_parser *p, const struct mr_tok *t,
				 const char *what);

/* The decoded text of a citation token, in the arena. */
char *mr_lex_string(struct mr_parser *p, const struct mr_tok *t);

/* Whether the n bytes at s (n > 0) are all of a-z, 0-9 and extra. */
int mr_lex_charset(const char *s, size_t n, const char *extra);

/* --- expressions ------------------------------------------------------- */

/* The value of operator k (a unary or binary kind) on a (and b). */
double mr_expr_apply(enum mr_expr_kind k, double a, double b);

#endif
