/* chdiff: a case's observed medians against its baseline (charts.h). */
#include "out/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "out/chutil.h"

/* The diff chart shows deviations up to this many tolerances; a point
 * beyond is drawn at the edge, its label giving the real figure. */
#define DIFF_CLAMP 10.0

/* --- diff ---------------------------------------------------------------- */

static double
clamp(double x)
{
	return x < -DIFF_CLAMP ? -DIFF_CLAMP : x > DIFF_CLAMP ? DIFF_CLAMP : x;
}

int
mr_chart_diff(struct mr_plot *p, const struct mr_rd *R, int ki,
	      const struct mr_vd_case *vk, const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	char *tsv = esprintf("%s/%s.diff.tsv", outdir, k->name);
	char *base = esprintf("%s/%s.diff", outdir, k->name);
	struct strbuf rows = {0}, labels = {0}, title = {0}, note = {0};
	const char **what = NULL;
	int nwhat = 0, npts = 0, nreg = 0, nimp = 0, i, j, rc = -1;
	double xmin = -2, xmax = 2;
	FILE *f;

	if (!(f = mr_ch_create(tsv)))
		goto out;
	fprintf(f, "# memrepro report: observed medians vs the baseline, in tolerances\n");
	fprintf(f, "what\trow\tcfg\tconfig\tdev\tlo\thi\tverdict\tnote\tobserved\texpected\ttolerance\n");
	for (i = 0; i < vk->n; i++) {
		const struct mr_vd *v = &vk->v[i];
		double tol, dev, lo, hi, y;
		char obs[48], exp[48];
		int ci, r;

		if (v->kind != MR_VD_ROW || v->word == MR_VD_NOTMEASURED)
			continue;
		for (r = 0; r < nwhat; r++)
			if (!strcmp(what[r], v->what))
				break;
		if (r == nwhat) {
			what = erealloc(what, sizeof *what * (nwhat + 1));
			what[nwhat++] = v->what;
		}
		ci = mr_rd_cfg(k, v->config);
		tol = v->tol > 0 ? v->tol : 1e-9;
		dev = (v->obs - v->exp) / tol;
		lo = (v->omin - v->exp) / tol;
		hi = (v->omax - v->exp) / tol;
		/* configs side by side within the metric's row */
		y = r + 1 + (k->ncfg > 1 ? (ci - (k->ncfg - 1) / 2.0) * 0.7 / k->ncfg : 0);
		mr_ch_figure(obs, sizeof obs, v->metric, v->obs);
		mr_ch_figure(exp, sizeof exp, v->metric, v->exp);
		fprintf(f, "%s\t%g\t%d\t%s\t%g\t%g\t%g\t%s\t", v->what, y, ci + 1,
			v->label, clamp(dev), clamp(lo), clamp(hi),
			v->word == MR_VD_REGRESSED ? "regressed" :
			v->word == MR_VD_IMPROVED ? "improved" : "held");
		if ((v->word == MR_VD_REGRESSED || v->word == MR_VD_IMPROVED) && v->exp)
			fprintf(f, "%s %s vs %s (%+.0f %%)", v->label, obs, exp,
				100 * (v->obs - v->exp) / fabs(v->exp));
		else if (v->word == MR_VD_REGRESSED || v->word == MR_VD_IMPROVED)
			fprintf(f, "%s %s vs %s", v->label, obs, exp);
		else
			fputc('-', f);
		fprintf(f, "\t%g\t%g\t%g\n", v->obs, v->exp, v->tol);
		nreg += v->word == MR_VD_REGRESSED;
		nimp += v->word == MR_VD_IMPROVED;
		if (clamp(lo) < xmin)
			xmin = clamp(lo);
		if (clamp(hi) > xmax)
			xmax = clamp(hi);
		npts++;
	}
	if (mr_ch_close(f, tsv) < 0)
		goto out;
	for (i = 0; i < nwhat; i++)
		mr_ch_word(&rows, what[i]);
	for (j = 0; j < k->ncfg; j++)
		mr_ch_word(&labels, k->cfg[j].label);
	sb_printf(&title, "%s: observed medians vs the baseline", k->name);
	if (!vk->has_bl)
		sb_printf(&note, "no baseline for platform %s (memrepro bless writes one)",
			  R->platform);
	else if (!npts)
		sb_add(&note, "no baseline row was measured in these results");
	else
		sb_printf(&note, "%d rows: %d regressed, %d improved, %d held", npts,
			  nreg, nimp, npts - nreg - nimp);
	sb_add(&rows, "");
	{
		char range[64];
		const char *args[] = { title.s, rows.s, labels.s, note.s, range, NULL };

		snprintf(range, sizeof range, "%g %g", floor(xmin) - 0.5, ceil(xmax) + 0.5);
		rc = mr_plot_draw(p, "diff", tsv, base, args);
	}
out:
	free(what);
	sb_free(&rows);
	sb_free(&labels);
	sb_free(&title);
	sb_free(&note);
	free(tsv);
	free(base);
	return rc;
}

