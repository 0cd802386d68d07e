/* chfig: "the report and here", the report's own figures beside ours
 * (charts.h, mr_chart_figures; plots/figures.gp).
 *
 * One row of panels per metric the report printed at its checkpoints
 * (rss_kb, vsz_kb, ...), and one per unit for its whole-run figures
 * (wall_ms, user_ms and sys_ms side by side); the left panel is the
 * report's figures in the unit it printed, the right one ours (medians
 * over the ok runs, the repeats' min..max as error bars) in MiB or s.
 * Where the results ran the report's own program (a runtime pair), a
 * panel between them has its figures as ours are drawn: on the report's
 * runtime (filled marks) and on the newest other runtime version run
 * (hollow), the two the report's table shows (mr_ft_orig_cols).
 * A row's x axis is the report's: the number of its checkpoints under
 * the figures file's "x" directive, else its checkpoints (or the
 * whole-run metrics) as categories in order of writing.  A checkpoint
 * the figures of one config name again (foo, foo, gc, foo) is its next
 * occurrence (foo#1, foo#2, gc, foo#3); one named once is its last.
 *
 * Each config the report names has one colour on both sides.  Ours for
 * it is the config of ours whose pairs include all of the report
 * config's ("jemalloc" also matches "jemalloc@5.3.0"): of several, one
 * with ok runs, then the one with the fewest pairs (the keys of the
 * claims' axis directives, a tunable, left unset: the case's defaults),
 * then the first in order of appearance; the others with ok runs are
 * named under the chart ("also measured, not drawn").  Ours are drawn at
 * every category of a row for each report config with figures in it.
 * A program's config is found the same way among the runs of its
 * runtime (mr_ch_ours_in).  With "compare growth" a checkpoint row is
 * each config's series minus its first point, on every side (ours: the
 * median's, the repeats' range shifted by the same); whole-run figures
 * stay totals.
 */
#include "out/charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "out/chfig.h"
#include "out/chutil.h"
#include "out/figtab.h"

/* A config's string, "-" for none. */
const char *
mr_cf_cstr(const struct mr_config *c)
{
	return c->n && c->str ? c->str : "-";
}

int
mr_cf_same_cfg(const struct mr_config *a, const struct mr_config *b)
{
	return !strcmp(mr_cf_cstr(a), mr_cf_cstr(b));
}

/* How config c differs from config d, "k=v,k=v" (a key of d that c
 * lacks: "k unset"). */
static void
diff_pairs(struct strbuf *b, const struct mr_config *c, const struct mr_config *d)
{
	size_t len0 = b->len;
	int i;

	for (i = 0; i < c->n; i++)
		if (!mr_config_same(mr_config_get(d, c->key[i]), c->val[i]))
			sb_printf(b, "%s%s=%s", b->len > len0 ? "," : "", c->key[i], c->val[i]);
	for (i = 0; i < d->n; i++)
		if (!mr_config_get(c, d->key[i]))
			sb_printf(b, "%s%s unset", b->len > len0 ? "," : "", d->key[i]);
}

/* Ours for report config fc: the model's config and, for each runtime of
 * the program drawn (spec[s], NULL: none), the program's; the other
 * configs that match, named by how they differ from the model's (else
 * the program's drawn). */
static void
match(const struct mr_rd_case *k, struct fcfg *fc, const char *const spec[2])
{
	int i, s, base;

	fc->ours = mr_ch_ours(k, fc->cfg);
	for (s = 0; s < 2; s++)
		fc->prog[s] = spec[s] ? mr_ch_ours_in(k, fc->cfg, spec[s]) : -1;
	base = fc->ours >= 0 ? fc->ours : fc->prog[0] >= 0 ? fc->prog[0] : fc->prog[1];
	sb_add(&fc->also, "");
	for (i = 0; i < k->ncfg; i++) {
		if (i == fc->ours || i == fc->prog[0] || i == fc->prog[1] || !k->cfg[i].nok ||
		    !mr_ch_matches(fc->cfg, &k->conf[i]))
			continue;
		if (fc->also.len)
			sb_add(&fc->also, "; ");
		if (base >= 0)
			diff_pairs(&fc->also, &k->conf[i], &k->conf[base]);
		else
			sb_add(&fc->also, mr_cf_cstr(&k->conf[i]));
	}
}

int
mr_cf_add_cat(struct frow *w, const char *cat, double pos)
{
	int i;

	for (i = 0; i < w->ncat; i++)
		if (!strcmp(w->cat[i], cat))
			return i;
	w->cat = erealloc(w->cat, sizeof *w->cat * (w->ncat + 1));
	w->pos = erealloc(w->pos, sizeof *w->pos * (w->ncat + 1));
	w->cat[w->ncat] = cat;
	w->pos[w->ncat] = pos;
	return w->ncat++;
}

/* The row of figure f, created when new. */
static int
row_of(struct frow **rows, int *nrow, const struct mr_figs *fs, const struct mr_fig *f)
{
	const char *name = f->ckpt ? mr_ckpt_metrics[f->metric] : mr_run_metrics[f->metric];
	enum mr_unit u = mr_metric_unit(name);
	struct frow *w;
	int i;

	for (i = 0; i < *nrow; i++)
		if ((*rows)[i].ckpt == f->ckpt &&
		    (f->ckpt ? (*rows)[i].metric == f->metric : (*rows)[i].unit == u))
			return i;
	*rows = erealloc(*rows, sizeof **rows * (*nrow + 1));
	w = &(*rows)[*nrow];
	memset(w, 0, sizeof *w);
	w->ckpt = f->ckpt;
	w->metric = f->ckpt ? f->metric : -1;
	w->unit = u;
	w->numx = f->ckpt && fs->xprefix && !isnan(f->x);
	/* the report's figures in our unit (MiB, s): one scale per quantity
	 * across the row's panels */
	w->runit = u == MR_UNIT_KB && !isnan(f->scale) ? "MiB"
		 : u == MR_UNIT_MS && !isnan(f->scale) ? "s" : f->unit;
	w->rscale = u == MR_UNIT_KB && !isnan(f->scale) ? 1024
		  : u == MR_UNIT_MS && !isnan(f->scale) ? 1000 : f->scale;
	w->lo[0] = w->lo[1] = w->lo[2] = w->hi[0] = w->hi[1] = w->hi[2] = NAN;
	return (*nrow)++;
}

/* Remove what an earlier report drew of the case: a chart that is not
 * drawn now must not be shown. */
static void
unlink_old(const char *base)
{
	static const char *const ext[] = { "png", "svg", "tsv" };
	size_t i;

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		char *p = esprintf("%s.%s", base, ext[i]);

		unlink(p);
		free(p);
	}
}

int
mr_chart_figures(struct mr_plot *p, const struct mr_rd *R, int ki,
		 const struct mr_figs *fs, const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	char *base = esprintf("%s/%s.figures", outdir, k->name);
	char *tsv = esprintf("%s.tsv", base);
	struct strbuf title = {0}, rowspec = {0}, sides = {0}, legend = {0}, notes = {0};
	struct strbuf missing = {0};
	struct strbuf program = {0};
	struct frow *rows = NULL;
	struct fcfg *fc = NULL;
	struct mr_ft_col orig[2];
	const char *profile = mr_rd_env(R, MR_ENVK_PROFILE);
	const char *spec[2];
	char *has = NULL, **fcat = NULL;
	int *frow = NULL, nrow = 0, nc = 0, r, i, c, rc = -1, prog;
	FILE *f = NULL;

	if (!fs->n) {
		unlink_old(base);
		free(base);
		free(tsv);
		return 1;
	}
	/* The program's panel: the runtimes the report's table shows,
	 * where they ran. */
	mr_ft_orig_cols(&R, 1, k->name, fs, orig);
	for (i = 0; i < 2; i++)
		spec[i] = orig[i].k ? orig[i].spec : NULL;
	prog = spec[0] || spec[1];
	/* The report's configs (colours), the rows and their categories, in
	 * order of writing; a checkpoint's occurrence is the parser's (foo,
	 * foo, gc, foo: foo#1, foo#2, gc, foo#3). */
	fcat = ecalloc((size_t)fs->n + 1, sizeof *fcat);
	frow = ecalloc((size_t)fs->n + 1, sizeof *frow);
	for (i = 0; i < fs->n; i++) {
		const struct mr_fig *g = &fs->f[i];
		struct frow *w;

		fcat[i] = !g->at ? estrdup(mr_run_metrics[g->metric])
			: g->seq ? esprintf("%s#%ld", g->at, g->seq) : estrdup(g->at);

		for (c = 0; c < nc; c++)
			if (mr_cf_same_cfg(fc[c].cfg, &g->cfg))
				break;
		if (c == nc) {
			fc = erealloc(fc, sizeof *fc * (nc + 1));
			memset(&fc[nc], 0, sizeof *fc);
			fc[nc].cfg = &g->cfg;
			match(k, &fc[nc], spec);
			nc++;
		}
		if (!fc[c].note && g->note)
			fc[c].note = g->note;
		r = frow[i] = row_of(&rows, &nrow, fs, g);
		w = &rows[r];
		mr_cf_add_cat(w, fcat[i], w->numx && !isnan(g->x) ? g->x : w->ncat + 1);
	}
	has = ecalloc((size_t)nrow * nc + 1, 1);
	sb_add(&missing, "");
	if (!(f = mr_ch_create(tsv)))
		goto out;
	fprintf(f, "# memrepro report: the report's figures (expected/%s.figures) beside ours\n",
		k->name);
	fprintf(f, "row\tside\tcfg\tconfig\tat\tmetric\tx\ty\tlo\thi\tvalue\tunit\tn\tdrawn\ttag\tnote\truntime\tly\n");
	mr_cf_points(f, k, fs, fcat, frow, rows, nrow, fc, nc, spec, has, &missing);
	if (mr_ch_close(f, tsv) < 0)
		goto out;

	/* What gnuplot is told besides the TSV. */
	mr_cf_title(&title, k, fs, prog);
	for (r = 0; r < nrow; r++)
		mr_cf_row_spec(&rowspec, &rows[r], fs, has + r * nc, nc, prog);
	sb_add(&program, "");
	if (prog) {
		mr_cf_headings3(&sides, k, fs, orig, profile);
		for (i = 0; i < 2; i++)
			mr_cf_quoted(&program, spec[i] ? spec[i] : "-");
	} else {
		mr_cf_headings2(&sides, fs, profile);
	}
	for (c = 0; c < nc; c++) {
		char *l = mr_cf_cfg_label(fc, nc, c);

		mr_cf_quoted(&legend, l);
		free(l);
	}
	mr_cf_notes(&notes, fs, fc, nc, spec);
	if (missing.len)
		sb_printf(&notes, "%s%s", notes.len ? "\n" : "", missing.s);
	sb_add(&rowspec, "");
	{
		const char *args[] = { title.s, rowspec.s, sides.s, legend.s, notes.s, program.s,
				       NULL };

		rc = mr_plot_draw(p, "figures", tsv, base, args);
	}
out:
	for (r = 0; r < nrow; r++) {
		free(rows[r].cat);
		free(rows[r].pos);
	}
	free(rows);
	for (c = 0; c < nc; c++)
		sb_free(&fc[c].also);
	free(fc);
	free(has);
	for (i = 0; fcat && i < fs->n; i++)
		free(fcat[i]);
	free(fcat);
	free(frow);
	sb_free(&title);
	sb_free(&rowspec);
	sb_free(&sides);
	sb_free(&legend);
	sb_free(&notes);
	sb_free(&missing);
	sb_free(&program);
	free(base);
	free(tsv);
	return rc;
}
