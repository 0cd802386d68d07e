/* wordsint: the parts of a claim's verdict in words (words.h), private to
 * runner/check/words*.c: the quantities and their figures (wordnum.c),
 * the names of what they measure (wordname.c); words.c says the shapes. */
#ifndef MR_WORDSINT_H
#define MR_WORDSINT_H

#include "check/claims.h"
#include "check/expr.h"
#include "core/util.h"

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

/* --- wordnum.c: quantities and figures ----------------------------------- */

const char *mr_wd_metric_name(const struct mr_ref *r);

/* e as a quantity into q: 0, or -1 when it is none. */
int mr_wd_qty_of(const struct wctx *w, const struct mr_expr *e, struct qty *q);

/* The tier of a size in KiB: 0 KiB, 1 MiB, 2 GiB; of a time in ms: 0 ms,
 * 1 s. */
int mr_wd_tier(double v, enum mr_unit u);

/* v in unit u at tier t, extra more decimals than usual; with its sign
 * (a difference) when sign. */
void mr_wd_put_val(struct strbuf *b, double v, enum mr_unit u, int t, int sign, int extra);

/* "10.00 s" as "10 s", "1.0 MiB" as "1 MiB": a bound is a number as
 * written, not a measured figure. */
void mr_wd_trim_zeros(struct strbuf *b);

/* A value and the bound it is held to, in a unit each, the same one when
 * they are close (1 023.6 KiB against 1 024 KiB, not 1 024 KiB against
 * 1.0 MiB), with as many decimals as tell them apart. */
void mr_wd_put_pair(struct strbuf *bv, struct strbuf *bk, double v, double k,
	 enum mr_unit u, int sign);

enum mr_op mr_wd_flip(enum mr_op op);

const char *mr_wd_op_word(enum mr_op op);

/* A ratio as the claim's factor reads: "0.05", written with as many
 * decimals as make the figure say what the comparison says (0.949
 * against "above 0.95" is "0.949", not "0.95"). */
void mr_wd_put_ratio(struct strbuf *b, double r, enum mr_op op, double k);

/* A number that names no metric, as written when it is one. */
void mr_wd_put_konst(struct strbuf *b, const struct mr_expr *e);

/* --- wordname.c: what is measured, where ----------------------------------- */

/* The pairs of config x that config y does not have the same, the
 * allocator first; where x has none of them (it leaves the keys unset),
 * "K unset". */
void mr_wd_put_cfg_diff(struct strbuf *b, const struct mr_config *x, const struct mr_config *y);

/* The pairs reference r names, with the values of config c (a bound has
 * no other side to tell it from). */
void mr_wd_put_ref_pairs(struct strbuf *b, const struct mr_ref *r, const struct mr_config *c);

/* What q measures: "RSS", "CPU time (user+sys)". */
void mr_wd_put_metric(struct strbuf *b, const struct qty *q);

/* When q is measured: "at cleared", "from start to forked"; nothing for a
 * run metric (a figure of the whole run). */
void mr_wd_put_when(struct strbuf *b, const struct qty *q);

/* The configs of a Q_CFGDIFF: "madvise=free minus madvise=dontneed". */
void mr_wd_put_cfgdiff(struct strbuf *b, const struct wctx *w, const struct qty *q);

/* s appended to b after a space when both have text. */
void mr_wd_put_word(struct strbuf *b, const char *s);

#endif
