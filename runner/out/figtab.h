/* figtab: the table of a case's figures, for the corpus table (markdown,
 * out/corpus.c) and the report (out/repcase.c): per row (a metric at a
 * checkpoint, or its growth), the report's figures as printed, the
 * report's own program's on the report's runtime and on today's, and
 * the model's, each for every config the report gave.  Cells are plain
 * text: the caller escapes them for its format.
 */
#ifndef MR_FIGTAB_H
#define MR_FIGTAB_H

#include "check/figures.h"
#include "core/util.h"
#include "check/values.h"

/* Where a column's figures come from: the report's own (report 1), or
 * the runs of case k under runtime spec (NULL: the model). */
struct mr_ft_col {
	const struct mr_rd_case *k;
	const char *spec;
	const char *version; /* the runtime's, from env.tsv; NULL: unknown */
	int report;          /* 1: the report's figures */
};

/* A measured figure of metric (KiB, ms or a count) as a reader writes it. */
void mr_ft_measured(struct strbuf *b, const char *metric, double v);

/* What a figure's metric is called in a table ("RSS", "max RSS
 * (rusage)"). */
const char *mr_ft_metric_name(const struct mr_fig *f);

/* The first figure of f's config and metric, where the growth of f
 * starts ("compare growth"); f itself when it is that first one, or when
 * fs's figures are not growths. */
const struct mr_fig *mr_ft_growth_base(const struct mr_figs *fs, const struct mr_fig *f);

/* Whether figures a and b are of one row: the same metric at the same
 * checkpoint occurrence. */
int mr_ft_same_row(const struct mr_fig *a, const struct mr_fig *b);

/* Whether figure i of fs begins a row of the figures table (not one of an
 * earlier row, nor where a growth starts), marking its row's figures in
 * done (fs->n bytes, zeroed by the caller). */
int mr_ft_row_first(const struct mr_figs *fs, int i, char *done);

/* The figure column of a row: the metric and when ("RSS at filled",
 * "VSZ from start to created"). */
void mr_ft_row_name(struct strbuf *b, const struct mr_fig *f, const struct mr_fig *base);

/* The cell of column c in the row of figure i of fs: every config of
 * the row ("glibc 697 MiB (Normal); jemalloc 37 MiB (jemalloc)"). */
void mr_ft_cell(struct strbuf *b, const struct mr_figs *fs, int i, const struct mr_ft_col *c);

/* Figure j of fs alone in column c, without its config: the report's
 * value as printed (and its note), or ours ("not run", "not measured
 * (why)"). */
void mr_ft_one(struct strbuf *b, const struct mr_figs *fs, int j, const struct mr_ft_col *c);

/* How a config of the report is named ("jemalloc, size=1000000"); ""
 * for the config "-". */
void mr_ft_cfg_label(struct strbuf *b, const struct mr_config *c);

/* The original columns of case name over results R[0..n-1]: orig[0]
 * the report's runtime (fs->runtime) where some results ran it (spec
 * set, k NULL: "not run"), orig[1] the newest other runtime version run
 * ("today's"; spec NULL: none). */
void mr_ft_orig_cols(const struct mr_rd *const *R, int n, const char *name,
		     const struct mr_figs *fs, struct mr_ft_col orig[2]);

#endif
