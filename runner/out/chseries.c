/* chseries: the memory over time of a case as small multiples (charts.h).
 *
 * The runs and their samples are read and written here, the layout is
 * decided in chlay.c, the drawing done by plots/series.gp: one panel per
 * value of the panel axis (the figures file's "panels", allocator when
 * not declared), the other axes as colours, at most MR_LAY_MAX_LINES
 * colours in a panel.
 */
#include "out/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/figures.h"
#include "core/safeio.h"
#include "core/tsv.h"
#include "core/util.h"
#include "out/chlay.h"
#include "out/chutil.h"
#include "out/chseries.h"

/* --- the data ------------------------------------------------------------ */

/* The x of checkpoint ck of case k on fs's axis, or NAN: "x PREFIX
 * UNIT", the number in its name; "rounds UNIT", its occurrence N, the
 * case's n checkpoint names (in the order first met) at N, N + 1/n, ... */
static double
ck_x(const struct mr_figs *fs, const struct mr_rd_case *k, const struct mr_rd_ck *ck)
{
	int i;

	if (!fs)
		return NAN;
	if (!fs->xround)
		return mr_figs_x(fs, ck->name);
	for (i = 0; i < k->nckname; i++)
		if (k->ckname[i] == ck->name || !strcmp(k->ckname[i], ck->name))
			return (double)ck->seq + (double)i / k->nckname;
	return NAN;
}

/* The samples of case k's runs in run[] (idx: by k->run index, -1 for
 * a run not drawn), from the scan of series.tsv; vsz: VSZ on y, else
 * RSS.  When *tree, the tree's line is the run's memory cgroup where
 * every sample drawn has it (*tree stays 1), else the RSS summed over
 * the tree (*tree becomes 2). */
static void
take_samples(const struct mr_chart_scan *s, int ki, const struct mr_rd_case *k,
	     struct srun *run, const int *idx, int vsz, int *tree)
{
	int ri, j, all_cg = 1;

	for (ri = 0; ri < k->nrun; ri++) {
		const struct mr_chart_pt *q = s->pt[ki][ri];
		struct srun *sr;

		if (idx[ri] < 0)
			continue;
		sr = &run[idx[ri]];
		sr->p = ecalloc((size_t)s->nsamples[ki][ri] + 1, sizeof *sr->p);
		for (j = 0; j < s->nsamples[ki][ri]; j++) {
			double y = vsz ? q[j].vsz : q[j].rss;

			if (isnan(y))
				continue;
			sr->p[sr->np++] = (struct pt){ q[j].t, y, q[j].trss, q[j].cg };
			all_cg &= !isnan(q[j].cg);
		}
	}
	if (*tree && !all_cg)
		*tree = 2;
}

/* --- the chart ----------------------------------------------------------- */

/* The runs of config ci that are drawn, into *out: its ok runs with
 * data, else its failed ones (a crash is worth seeing); never a skipped
 * one.  has[ri]: run ri has data.  Returns how many. */
static int
config_runs(const struct mr_rd_case *k, int ci, const int *has, int *out)
{
	int j, n = 0, ok;

	for (ok = 1; ok >= 0 && !n; ok--)
		for (j = 0; j < k->cfg[ci].nrun; j++) {
			int ri = k->cfg[ci].run[j];

			if (has[ri] && k->run[ri].outcome != MR_RD_SKIPPED &&
			    (k->run[ri].outcome == MR_RD_OK) == ok)
				out[n++] = ri;
		}
	return n;
}

static void
put_num(FILE *f, double v, const char *fmt)
{
	if (isnan(v))
		fputs("\t-", f);
	else {
		fputc('\t', f);
		fprintf(f, fmt, v);
	}
}

/* The configs with data and their runs drawn; what their checkpoints
 * recorded (names, LazyFree, a tree). */
static void
sc_runs(struct sc *c, const struct mr_chart_scan *s, int ki)
{
	const struct mr_rd_case *k = c->k;
	int *has = ecalloc(k->nrun + 1, sizeof *has), *tmp = ecalloc(k->nrun + 1, sizeof *tmp);
	int lf = mr_ckpt_metric("lazyfree_kb"), tn = mr_ckpt_metric("tree_nproc");
	int cg = mr_ckpt_metric("cgroup_kb"), nocg = 0, i, j, l;

	for (i = 0; i < k->nrun; i++) {
		const struct mr_rd_run *r = &k->run[i];

		c->idx[i] = -1;
		if (c->xmode)
			for (j = 0; j < r->nck && !has[i]; j++)
				has[i] = !isnan(ck_x(c->fs, k, &k->ck[r->ck[j]])) &&
					 !isnan(k->ck[r->ck[j]].m[c->ymet]);
		else
			has[i] = s->nsamples[ki][i] > 0;
	}
	for (i = 0; i < k->ncfg; i++) {
		int n = config_runs(k, i, has, tmp);

		if (!n) {
			if (c->none.len < MAX_NONE)
				sb_printf(&c->none, "%s%s", c->nnone ? ", " : "", k->cfg[i].label);
			c->nnone++;
			continue;
		}
		c->cfgof[c->ncf] = i;
		c->cf[c->ncf] = k->conf[i];
		for (j = 0; j < n; j++) {
			c->run[c->nrun].ri = tmp[j];
			c->run[c->nrun].cfg = c->ncf;
			c->run[c->nrun].peak = NAN;
			c->idx[tmp[j]] = c->nrun++;
		}
		if (n > c->maxrep)
			c->maxrep = n;
		c->ncf++;
	}
	for (i = 0; i < c->nrun; i++) {
		const struct mr_rd_run *r = &k->run[c->run[i].ri];

		c->tree |= s->tree[ki][c->run[i].ri] > 1;
		for (j = 0; j < r->nck; j++) {
			const struct mr_rd_ck *ck = &k->ck[r->ck[j]];

			c->tree |= ck->m[tn] > 1;
			c->lazy |= ck->m[lf] > 0;
			nocg |= isnan(ck->m[cg]);
			for (l = 0; l < c->nnames; l++)
				if (!strcmp(c->names[l], ck->name))
					break;
			if (l == c->nnames && (!c->xmode || !isnan(ck_x(c->fs, k, ck)))) {
				c->names = erealloc(c->names, sizeof *c->names * (c->nnames + 1));
				c->names[c->nnames++] = ck->name;
			}
		}
	}
	/* on the report's axis the tree's line is from the checkpoints: the
	 * cgroup where every one has it (over time: read_samples decides) */
	if (c->tree && c->xmode && nocg)
		c->tree = 2;
	/* LazyFree and the tree's lines are RSS: not on a VSZ scale */
	if (c->ymet != mr_ckpt_metric("rss_kb"))
		c->lazy = c->tree = 0;
	free(has);
	free(tmp);
}

/* Each run's peak, and the run of each config drawn thick: the one with
 * the median peak (the lower of the two middle ones). */
static void
sc_median(struct sc *c)
{
	int i, j;

	for (i = 0; i < c->nrun; i++) {
		struct srun *sr = &c->run[i];
		const struct mr_rd_run *r = &c->k->run[sr->ri];

		if (c->xmode)
			for (j = 0; j < r->nck; j++) {
				const struct mr_rd_ck *ck = &c->k->ck[r->ck[j]];

				if (!isnan(ck_x(c->fs, c->k, ck)) && !(ck->m[c->ymet] <= sr->peak))
					sr->peak = ck->m[c->ymet];
			}
		else
			for (j = 0; j < sr->np; j++)
				if (!(sr->p[j].y <= sr->peak))
					sr->peak = sr->p[j].y;
	}
	for (i = 0; i < c->nrun;) {
		int e = i, a, b;

		while (e < c->nrun && c->run[e].cfg == c->run[i].cfg)
			e++;
		for (a = i + 1; a < e; a++) /* the config's runs by peak */
			for (b = a; b > i && c->run[b - 1].peak > c->run[b].peak; b--) {
				struct srun x = c->run[b];

				c->run[b] = c->run[b - 1];
				c->run[b - 1] = x;
			}
		c->run[i + (e - i - 1) / 2].drawn = 1;
		i = e;
	}
	for (i = 0; i < c->nrun; i++)
		c->idx[c->run[i].ri] = i;
}

/* A panel whose runs have fewer than two samples each draws no line:
 * its title says why (runs shorter than the sampling interval). */
static void
sc_short_panels(struct sc *c)
{
	int *most = ecalloc(c->L.npanel + 1, sizeof *most), i;

	for (i = 0; i < c->nrun; i++)
		if (c->run[i].np > most[c->L.panel[c->run[i].cfg]])
			most[c->L.panel[c->run[i].cfg]] = c->run[i].np;
	for (i = 0; i < c->L.npanel; i++)
		if (most[i] < 2) {
			/* short: a narrow panel's title holds ~30 characters a line */
			char *t = esprintf("%s, runs too short to sample", c->L.ptitle[i]);

			free(c->L.ptitle[i]);
			c->L.ptitle[i] = t;
		}
	free(most);
}

/* One row of the derived table. */
static void
sc_row(struct sc *c, FILE *f, const struct srun *sr, int mark, double x, double y,
       double lz, double tv, double ps)
{
	const struct mr_rd_run *r = &c->k->run[sr->ri];

	fprintf(f, "%d\t%d\t%d\t%d", c->L.panel[sr->cfg] + 1, c->L.col[sr->cfg] + 1,
		sr->drawn, mark);
	put_num(f, x, c->xmode ? "%g" : "%.3f");
	put_num(f, y, "%.3f");
	put_num(f, lz, "%.3f");
	put_num(f, tv, "%.3f");
	put_num(f, ps, "%.3f");
	fprintf(f, "\t%s\t%ld\n", c->k->conf[c->cfgof[sr->cfg]].str, r->repeat);
	c->xmax = fmax(c->xmax, x);
	c->pxmax[c->L.panel[sr->cfg]] = fmax(c->pxmax[c->L.panel[sr->cfg]], x);
	c->ymax = fmax(c->ymax, fmax(y, fmax(isnan(tv) ? 0 : tv, isnan(ps) ? 0 : ps)));
}

/* A run's blocks: its samples, then its checkpoints (in x order on the
 * report's axis: a checkpoint line; else as recorded). */
static void
sc_write_run(struct sc *c, FILE *f, const struct srun *sr)
{
	const struct mr_rd_case *k = c->k;
	const struct mr_rd_run *r = &k->run[sr->ri];
	int *cki = ecalloc(r->nck + 1, sizeof *cki), nck = 0, j, l;
	double *ckx = ecalloc(r->nck + 1, sizeof *ckx);
	int lf = mr_ckpt_metric("lazyfree_kb"), tr = mr_ckpt_metric("tree_rss_kb");
	int cgm = mr_ckpt_metric("cgroup_kb"), tp = mr_ckpt_metric("tree_pss_kb");
	int tm = mr_ckpt_metric("t_ms");

	for (j = 0; j < sr->np; j++)
		sc_row(c, f, sr, 0, sr->p[j].x, sr->p[j].y / 1024, NAN,
		       !c->tree ? NAN : (c->tree == 1 ? sr->p[j].cg : sr->p[j].trss) / 1024, NAN);
	if (sr->np)
		fputc('\n', f);
	for (j = 0; j < r->nck; j++) {
		const struct mr_rd_ck *ck = &k->ck[r->ck[j]];
		double x = c->xmode ? ck_x(c->fs, k, ck) : ck->m[tm] / 1000;

		if (isnan(x) || isnan(ck->m[c->ymet]))
			continue;
		for (l = nck++; c->xmode && l > 0 && ckx[l - 1] > x; l--) {
			ckx[l] = ckx[l - 1];
			cki[l] = cki[l - 1];
		}
		ckx[l] = x;
		cki[l] = r->ck[j];
	}
	for (j = 0; j < nck; j++) {
		const struct mr_rd_ck *ck = &k->ck[cki[j]];

		for (l = 0; l < c->nnames; l++)
			if (!strcmp(c->names[l], ck->name))
				break;
		sc_row(c, f, sr, c->xmode || c->nnames > MAX_NAMED ? 1 : l + 1, ckx[j],
		       ck->m[c->ymet] / 1024, c->lazy ? ck->m[lf] / 1024 : NAN,
		       !c->tree ? NAN : (c->tree == 1 ? ck->m[cgm] : ck->m[tr]) / 1024,
		       c->tree ? ck->m[tp] / 1024 : NAN);
	}
	fputc('\n', f);
	free(cki);
	free(ckx);
}

/* The derived table gnuplot reads.  Returns 0 or -1 (printed). */
static int
sc_write(struct sc *c, const char *tsv)
{
	FILE *f = mr_ch_create(tsv);
	int i;

	if (!f)
		return -1;
	fprintf(f, "# memrepro report: %s over %s of every run drawn, by panel and colour\n",
		c->yname, c->xmode ? "its checkpoints" : "time");
	fprintf(f, "panel\tcolour\tdrawn\tmark\tx\ty_mib\tlazyfree_mib\ttree_mib\t"
		   "tree_pss_mib\tconfig\trepeat\n");
	for (i = 0; i < c->nrun; i++)
		sc_write_run(c, f, &c->run[i]);
	return mr_ch_close(f, tsv);
}

/* Draw: the script's arguments (plots/series.gp's header). */
static int
sc_draw(const struct sc *c, struct mr_plot *p, const char *title, const char *tsv,
	const char *base)
{
	struct strbuf t = {0}, pan = {0}, col = {0}, marks = {0}, labels = {0},
		      flags = {0}, note = {0};
	int i, rc;

	for (i = 0; i < c->L.npanel; i++)
		sb_printf(&pan, "%s%s", i ? "|" : "", c->L.ptitle[i]);
	for (i = 0; i < c->L.ncol; i++)
		sb_printf(&col, "%s%s", i ? "|" : "", c->L.clabel[i]);
	for (i = 0; !c->xmode && i < c->nnames && c->nnames <= MAX_NAMED; i++)
		sb_printf(&marks, "%scheckpoint %s", i ? "|" : "", c->names[i]);
	if (!c->xmode && c->nnames > MAX_NAMED)
		sb_add(&marks, "a checkpoint");
	if (c->xmode && c->fs->xround) {
		sb_printf(&labels, "%s N (", c->fs->xunit);
		for (i = 0; i < c->k->nckname; i++)
			sb_printf(&labels, "%s%s", i ? ", " : "", c->k->ckname[i]);
		sb_printf(&labels, "%s)|", c->k->nckname == 2 ? " at N and N+1/2" : " in turn from N");
	} else if (c->xmode)
		sb_printf(&labels, "%s (%s%scheckpoints %sN)|", c->fs->xunit ? c->fs->xunit : "x",
			  c->fs->xclock ? c->fs->xclock : "", c->fs->xclock ? "; " : "",
			  c->fs->xprefix);
	else
		sb_add(&labels, "time since start (s)|");
	sb_printf(&labels, "%s (MiB)", c->yname);
	sb_printf(&flags, "%d %d %d %g %g %d %d %d %d %d %d", c->L.npanel, c->L.ncol,
		  !c->nnames ? 0 : c->xmode || c->nnames > MAX_NAMED ? 1 : c->nnames,
		  c->xmax, c->ymax, c->xmode, c->lazy, c->tree, c->maxrep, c->L.ncols,
		  c->ncf ? mr_sc_shared_x(c) : 1);
	mr_sc_title(c, title, &t);
	mr_sc_note(c, &note);
	{
		const char *args[] = { t.s, pan.s ? pan.s : "", col.s ? col.s : "",
				       marks.s ? marks.s : "", labels.s, flags.s, note.s, NULL };

		rc = mr_plot_draw(p, "series", tsv, base, args);
	}
	sb_free(&t);
	sb_free(&pan);
	sb_free(&col);
	sb_free(&marks);
	sb_free(&labels);
	sb_free(&flags);
	sb_free(&note);
	return rc;
}

int
mr_chart_series(struct mr_plot *p, const struct mr_rd *R,
		const struct mr_chart_scan *s, int ki, const struct mr_figs *fs,
		const char *title, const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	char *tsv = esprintf("%s/%s.series.tsv", outdir, k->name);
	char *base = esprintf("%s/%s.series", outdir, k->name);
	struct sc c;
	int i, rc = -1;

	memset(&c, 0, sizeof c);
	c.k = k;
	c.fs = fs;
	c.ymet = mr_ckpt_metric("rss_kb");
	c.yname = "RSS";
	/* the report's figure is the address space: VSZ over time */
	if (fs && fs->has_key && fs->key_ckpt && fs->key_metric == mr_ckpt_metric("vsz_kb")) {
		c.ymet = fs->key_metric;
		c.yname = "VSZ";
	}
	/* the report's unit on x: the checkpoints PREFIX<number> */
	for (i = 0; fs && (fs->xprefix || fs->xround) && i < k->nck && !c.xmode; i++)
		c.xmode = !isnan(ck_x(fs, k, &k->ck[i]));
	c.run = ecalloc(k->nrun + 1, sizeof *c.run);
	c.idx = ecalloc(k->nrun + 1, sizeof *c.idx);
	c.cf = ecalloc(k->ncfg + 1, sizeof *c.cf);
	c.cfgof = ecalloc(k->ncfg + 1, sizeof *c.cfgof);
	sc_runs(&c, s, ki);
	if (!c.xmode && c.nrun)
		take_samples(s, ki, k, c.run, c.idx, c.ymet != mr_ckpt_metric("rss_kb"), &c.tree);
	sc_median(&c);
	if (c.ncf)
		mr_lay_make(&c.L, c.cf, c.ncf, fs && fs->panels ? fs->panels : "allocator");
	c.pxmax = ecalloc(c.ncf ? c.L.npanel + 1 : 1, sizeof *c.pxmax);
	if (c.ncf && !c.xmode)
		sc_short_panels(&c);
	if (sc_write(&c, tsv) == 0)
		rc = sc_draw(&c, p, title, tsv, base);
	if (c.ncf)
		mr_lay_free(&c.L);
	for (i = 0; i < c.nrun; i++)
		free(c.run[i].p);
	free(c.run);
	free(c.idx);
	free(c.cf);
	free(c.cfgof);
	free(c.pxmax);
	free(c.names);
	sb_free(&c.none);
	free(tsv);
	free(base);
	return rc;
}
