/* expr: a claim's expression, computed and written out.
 *
 * The arithmetic is in doubles, but a value no figure can have (a
 * division by zero, a result beyond the doubles) is undefined rather than
 * an inf or a NaN that a comparison would take (formats.md, "Evaluation,
 * precisely").  The writers give the expression with the references'
 * values: "4 040 < 0.5 * 79 764 (39 882)".
 */
#ifndef MR_EXPR_H
#define MR_EXPR_H

#include "check/lex.h"
#include "core/util.h"

/* The comparison operators as written, by enum mr_cmp_op. */
extern const char *const mr_expr_opname[];

/* Whether comparison c holds at the references' values val: 1 or 0 (0
 * too when a side is undefined: then *bad is the first node that made it
 * so). */
int mr_expr_holds(const struct mr_cmp *c, const double *val, const struct mr_expr **bad);

/* e with the values of its references written in ("79 764"). */
void mr_expr_render(struct strbuf *b, const struct mr_expr *e, const double *val);

/* A comparison so, with what its sides come to in parentheses. */
void mr_expr_render_cmp(struct strbuf *b, const struct mr_cmp *c, const double *val);

/* Why bad (a node of c's expression) is undefined at val: "a division by
 * a measured zero: ...". */
void mr_expr_undefined_why(struct strbuf *b, const struct mr_expr *bad,
			   const struct mr_claim *c, const double *val);

#endif
