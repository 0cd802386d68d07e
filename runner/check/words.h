/* words: a claim's verdict said in words, from its expression tree and
 * the figures of one combination:
 *
 *   max RSS (rusage) jemalloc 3.9 MiB vs glibc 67.4 MiB: 0.06x (claim: below
 *   0.5x) held for both sizes
 *
 * instead of the detail's "size=1000000: 3 960 < 0.5 * 69 016 (34 508);
 * 2 of 2 combinations held".  The shapes said in words (docs/formats.md,
 * "Verdicts in words"): a ratio (Q < k * Q, k * Q < Q, Q < Q, Q / Q < k),
 * a bound (Q < K, K < Q), a factor and a bound (Q < k * Q + K, where
 * the words give the bound it comes to), where each Q is a reference, a difference of
 * one metric (a growth between two checkpoints of one config, or two
 * configs at one checkpoint) or a sum of metrics of one config and
 * checkpoint, and K, k name no metric; "and" as "; ".  A comparison of
 * another shape is given as the expression with its figures.
 */
#ifndef MR_WORDS_H
#define MR_WORDS_H

#include "check/claims.h"

/* The words of r, the result of evaluating c over the configs cfg (the
 * ones r's combinations index): the comparisons at the combination the
 * detail shows (the first false one, else the first that held), then how
 * many combinations held.  A fresh string, or NULL when r's outcome is
 * neither true nor false (nothing measured to say: the detail says why). */
/* A metric as a reader names it ("RSS", "RSS high-water mark", "max RSS
 * (rusage)" for maxrss_kb, "sampled peak RSS" for peak_rss_kb); an
 * unknown one by its name.  One table for both functions (wordname.c). */
const char *mr_words_noun(const char *metric);

/* The same as a table's row names it: the whole of what it measures
 * ("RSS of the process tree" for tree_rss_kb), else as mr_words_noun. */
const char *mr_words_row_noun(const char *metric);

char *mr_words_claim(const struct mr_claim *c, const struct mr_config *cfg,
		     const struct mr_claim_result *r);

#endif
