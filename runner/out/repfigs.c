/* repfigs: the figures of a case in the report — see repfigs.h. */
#include "out/repfigs.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "out/figtab.h"
#include "out/escape.h"
#include "proto/schema.h"

/* The case's key figure, the report's figures and the notes on them
 * (expected/<case>.figures). */
static void
write_figures(struct mr_doc *d, const struct mr_vd_case *k)
{
	const struct mr_figs *fs = &k->figs;
	int i;

	mr_doc_para(d);
	mr_doc_bold(d, "Key figure:");
	mr_doc_text(d, " ");
	if (fs->has_key) {
		const char *m = fs->key_ckpt ? mr_ckpt_metrics[fs->key_metric]
					     : mr_run_metrics[fs->key_metric];
		char *ref = fs->key_ckpt ? esprintf("%s@%s", m, fs->key_checkpoint ?
						    fs->key_checkpoint : "(the last checkpoint)")
					 : estrdup(m);

		mr_doc_code(d, ref);
		mr_doc_textf(d, ", %s is better (", fs->key_lower ? "lower" : "higher");
		free(ref);
	} else {
		mr_doc_text(d, "none declared: the allocator matrix takes RSS at the last "
			    "checkpoint (");
	}
	mr_doc_code(d, fs->path ? fs->path : "expected/<case>.figures");
	mr_doc_text(d, ").");
	if (fs->n) {
		mr_doc_textf(d, " %d figure%s the report printed, from ", fs->n, fs->n == 1 ? "" : "s");
		for (i = 0; i < fs->nsrc; i++) {
			if (i)
				mr_doc_text(d, i + 1 < fs->nsrc ? ", " : " and ");
			mr_doc_code(d, fs->src[i]);
			mr_doc_textf(d, " (%s)", fs->src_label[i]);
		}
		mr_doc_text(d, ", stand beside ours in the tables and the first chart below.");
	}
	mr_doc_para_end(d);
	for (i = 0; i < fs->nnote; i++) {
		mr_doc_para(d);
		mr_doc_bold(d, "Note:");
		mr_doc_textf(d, " %s", fs->note[i]);
		mr_doc_para_end(d);
	}
}

/* A column head naming a runtime of the report's program. */
static char *
orig_head(const char *what, const struct mr_ft_col *c)
{
	char *s = esprintf("%s%s%s", c->spec, c->version ? " " : "",
			   c->version ? c->version : ""), *safe, *h;

	safe = mr_esc_head(s); /* from the results: no markup */
	h = esprintf("%s (%s)", what, safe);
	free(s);
	free(safe);
	return h;
}

/* The table of the row of figure i: a row per config of the report,
 * the columns cols[0..nc-1] (the report's first). */
static void
figure_table(struct mr_doc *d, const struct mr_figs *fs, int i, const char *const *head,
	     const struct mr_ft_col *const *cols, int nc)
{
	const struct mr_fig *f = &fs->f[i];
	const struct mr_fig *base = mr_ft_growth_base(fs, f);
	struct strbuf b = {0};
	int j, c;

	mr_ft_row_name(&b, f, base);
	mr_doc_heading(d, 4, NULL, b.s);
	sb_free(&b);
	mr_doc_table(d, head);
	for (j = i; j < fs->n; j++) {
		const struct mr_fig *g = &fs->f[j];

		if (!mr_ft_same_row(f, g))
			continue;
		mr_doc_row(d);
		mr_doc_cell(d);
		mr_ft_cfg_label(&b, &g->cfg);
		mr_doc_text(d, b.s && *b.s ? b.s : "every config");
		sb_free(&b);
		for (c = 0; c < nc; c++) {
			mr_doc_cell(d);
			mr_ft_one(&b, fs, j, cols[c]);
			mr_doc_text(d, b.s ? b.s : "");
			sb_free(&b);
		}
		mr_doc_row_end(d);
	}
	mr_doc_table_end(d);
}

/* A table per figure the report printed: its configs down, the report's
 * value beside ours across. */
static void
write_figtab(struct mr_doc *d, const struct mr_rd *R, const struct mr_vd_case *k)
{
	const struct mr_figs *fs = &k->figs;
	struct mr_ft_col orig[2], report = { .report = 1 }, model = { .k = mr_rd_case(R, k->name) };
	const struct mr_ft_col *cols[4];
	const char *head[6];
	char *own[2] = { NULL, NULL };
	char *done;
	int i, nc = 0;

	if (!fs->n)
		return;
	mr_ft_orig_cols(&R, 1, k->name, fs, orig);
	head[0] = "config";
	head[1] = "the report";
	cols[nc++] = &report;
	head[nc + 1] = "the model, here";
	cols[nc++] = &model;
	if (orig[0].spec) {
		own[0] = orig_head("its program, on the report's runtime", &orig[0]);
		head[nc + 1] = own[0];
		cols[nc++] = &orig[0];
	}
	if (orig[1].spec) {
		own[1] = orig_head("its program, today", &orig[1]);
		head[nc + 1] = own[1];
		cols[nc++] = &orig[1];
	}
	head[nc + 1] = NULL;
	mr_doc_heading(d, 3, NULL, "The report's figures and ours");
	done = ecalloc((size_t)fs->n + 1, 1);
	for (i = 0; i < fs->n; i++)
		if (mr_ft_row_first(fs, i, done))
			figure_table(d, fs, i, head, cols, nc);
	free(done);
	free(own[0]);
	free(own[1]);
}

void
mr_repfigs_write(struct mr_doc *d, const struct mr_rd *R, const struct mr_vd_case *k)
{
	write_figures(d, k);
	write_figtab(d, R, k);
}
