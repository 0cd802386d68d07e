/* chseries: the memory-over-time chart of a case (charts.h). */
#include "out/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "out/chutil.h"

/* --- series -------------------------------------------------------------- */

/* The run drawn for config ci: its first ok run with samples, else a
 * failed one with samples (a crash is worth seeing); never a skipped one.
 * -1 when none. */
static int
drawn_run(const struct mr_rd_case *k, const struct mr_chart_scan *s, int ki, int ci)
{
	int best = -1, j;

	for (j = 0; j < k->cfg[ci].nrun; j++) {
		int ri = k->cfg[ci].run[j];

		if (!s->nsamples[ki][ri] || k->run[ri].outcome == MR_RD_SKIPPED)
			continue;
		if (best < 0 || (k->run[ri].outcome == MR_RD_OK &&
				 k->run[best].outcome != MR_RD_OK))
			best = ri;
	}
	return best;
}

int
mr_chart_series(struct mr_plot *p, const struct mr_rd *R,
		const struct mr_chart_scan *s, int ki, const char *title,
		const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	struct strbuf runs = {0}, cks = {0}, panels = {0}, t = {0}, none = {0};
	const char **names = NULL;
	char *series = mr_rd_path(R->dir, "series.tsv");
	char *ckpts = mr_rd_path(R->dir, "checkpoints.tsv");
	char *base = esprintf("%s/%s.series", outdir, k->name);
	char xmax[64];
	int nnames = 0, drawn = 0, lazy = 0, tree = 0, lf = mr_ckpt_metric("lazyfree_kb");
	int tn = mr_ckpt_metric("tree_nproc"), i, j, l, rc;
	long rep = 0;
	double tmax = 0;

	for (i = 0; i < k->ncfg; i++) {
		int ri = drawn_run(k, s, ki, i);
		const struct mr_rd_run *r;
		struct strbuf w = {0};

		if (ri < 0) {
			sb_printf(&none, "%s%s", none.len ? ", " : "", k->cfg[i].label);
			continue;
		}
		r = &k->run[ri];
		drawn++;
		tree |= s->tree[ki][ri] > 1;
		if (s->tmax[ki][ri] > tmax)
			tmax = s->tmax[ki][ri];
		rep = !rep ? r->repeat : rep != r->repeat ? -1 : rep;
		/* what its checkpoints recorded: their names, LazyFree */
		for (j = 0; j < r->nck; j++) {
			const struct mr_rd_ck *c = &k->ck[r->ck[j]];

			lazy |= c->m[lf] > 0;
			tree |= c->m[tn] > 1;
			if (c->m[mr_ckpt_metric("t_ms")] > tmax)
				tmax = c->m[mr_ckpt_metric("t_ms")];
			for (l = 0; l < nnames; l++)
				if (!strcmp(names[l], c->name))
					break;
			if (l == nnames) {
				names = erealloc(names, sizeof *names * (nnames + 1));
				names[nnames++] = c->name;
			}
		}
		/* CONFIG#REPEAT#COLOUR#LABEL: the colour is the config's
		 * index, as in the case's other charts */
		sb_printf(&w, "%s#%ld#%d#%s", k->conf[i].str, r->repeat, i + 1,
			  k->cfg[i].label);
		mr_ch_word(&runs, w.s);
		sb_free(&w);
	}
	for (i = 0; i < nnames; i++)
		mr_ch_word(&cks, names[i]);
	free(names);
	sb_add(&panels, "rss");
	if (lazy)
		sb_add(&panels, " lazyfree");
	if (tree)
		sb_add(&panels, " tree");
	sb_printf(&t, "%s: memory over time", k->name);
	if (rep > 0)
		sb_printf(&t, ", repeat %ld of each config", rep);
	else if (rep < 0)
		sb_add(&t, ", one repeat of each config");
	if (title)
		sb_printf(&t, "\n%s", title);
	if (none.len && drawn)
		sb_printf(&t, "\n(no samples: %s)", none.s);
	if (drawn)
		snprintf(xmax, sizeof xmax, "%g", tmax / 1000);
	else
		snprintf(xmax, sizeof xmax, "no run of this case has a memory sample");
	sb_add(&runs, "");
	sb_add(&cks, "");
	{
		const char *args[] = { ckpts, k->name, t.s, runs.s, xmax, cks.s,
				       panels.s, NULL };

		rc = mr_plot_draw(p, "series", series, base, args);
	}
	sb_free(&runs);
	sb_free(&cks);
	sb_free(&panels);
	sb_free(&t);
	sb_free(&none);
	free(series);
	free(ckpts);
	free(base);
	return rc;
}

