/* chdiff: a case's observed medians against its baseline (charts.h).
 *
 * A case may have a thousand baseline rows (retained-buffers: 16 configs
 * of 82 rows): one chart line per row cannot be read.  The chart draws
 * one line per config, at its worst row (the largest deviation in
 * tolerances), with the spread of all its rows' deviations as a thin
 * range; under it, on lines of their own, the config's rows beyond half
 * their tolerance, at most what the chart's height holds in all (the
 * largest deviations first).  The TSV keeps every row, with the line it
 * is drawn on and why. */
#include "out/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "core/util.h"
#include "out/chutil.h"

/* The diff chart shows deviations up to this many tolerances; a point
 * beyond is drawn at the edge, its label giving the real figure. */
#define DIFF_CLAMP 10.0
/* A row further than this from its baseline median, in tolerances, is
 * named on a line of its own. */
#define DIFF_NAME 0.5
/* The named lines a chart holds besides its configs' lines: this many,
 * or one for every two configs (diff.gp's height grows with the lines). */
#define DIFF_NAMED_MIN 12
/* The widest label text, in characters, on either side of the plot. */
#define DIFF_LABEL_MAX 78

enum kind { K_NONE, K_WORST, K_NAMED, K_MORE };
static const char *const kind_word[] = { "-", "worst", "named", "more" };

/* One baseline row of the chart. */
struct drow {
	const struct mr_vd *v;
	int ci;          /* its config, into k->cfg */
	double dev;      /* (observed - blessed) / tolerance, not clamped */
	double lo, hi;   /* the same for the repeats' smallest and largest */
	enum kind kind;
	int line;        /* the chart line it is drawn on, 1 = top */
};

/* One config of the chart. */
struct dcfg {
	int worst;       /* into rows, -1: the config has no row */
	double smin, smax; /* its rows' smallest and largest dev */
	int line;
};

static double
clamp(double x)
{
	return x < -DIFF_CLAMP ? -DIFF_CLAMP : x > DIFF_CLAMP ? DIFF_CLAMP : x;
}

/* Named rows first by deviation, largest first; ties in row order. */
static int
by_dev(const void *a, const void *b)
{
	const struct drow *const *x = a, *const *y = b;
	double dx = fabs((*x)->dev), dy = fabs((*y)->dev);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return *x < *y ? -1 : *x > *y;
}

/* "52.1 vs 50.3 ± 3.0 MiB": the observed and blessed medians and the
 * tolerance of v, in one unit chosen by the medians' size. */
static void
figures(struct strbuf *b, const struct mr_vd *v)
{
	size_t n = strlen(v->metric);
	double big = fmax(fabs(v->obs), fabs(v->exp)), div = 1, t;
	const char *unit = "";
	int dec = 0;

	if (n > 3 && !strcmp(v->metric + n - 3, "_kb")) {
		if (big >= 1024.0 * 1024)
			div = 1024.0 * 1024, unit = " GiB", dec = 2;
		else if (big >= 1024)
			div = 1024, unit = " MiB", dec = 1;
		else
			unit = " KiB";
	} else if (n > 3 && !strcmp(v->metric + n - 3, "_ms")) {
		if (big >= 1000)
			div = 1000, unit = " s", dec = 2;
		else
			unit = " ms";
	} else {
		char o[48], e[48], tl[48];

		sb_printf(b, "%s vs %s ± %s", mr_fmt_num(o, v->obs),
			  mr_fmt_num(e, v->exp), mr_fmt_num(tl, v->tol));
		return;
	}
	t = v->tol / div;
	/* a tolerance the medians' precision would round to 0 */
	if (t > 0 && t < 0.5 * pow(10, -dec))
		sb_printf(b, "%.*f vs %.*f ± %.2g%s", dec, v->obs / div, dec,
			  v->exp / div, t, unit);
	else
		sb_printf(b, "%.*f vs %.*f ± %.*f%s", dec, v->obs / div, dec,
			  v->exp / div, dec, t, unit);
}

/* The label of a drawn row: its figures and deviation, after its name
 * on a config's line (where the name is not on the left). */
static void
row_label(struct strbuf *b, const struct drow *r)
{
	const struct mr_vd *v = r->v;

	sb_add(b, "");
	if (r->kind == K_WORST)
		sb_printf(b, "%s  ", v->what);
	figures(b, v);
	/* no "-0.00": a figure that rounds to zero is 0 */
	if (fabs(r->dev) < 0.005)
		sb_add(b, "  (0.00 tol");
	else
		sb_printf(b, fabs(r->dev) < 9.995 ? "  (%+.2f tol" : "  (%+.0f tol", r->dev);
	if (v->exp && fabs(v->obs - v->exp) < 0.0005 * fabs(v->exp))
		sb_add(b, ", 0.0 %");
	else if (v->exp)
		sb_printf(b, ", %+.1f %%", 100 * (v->obs - v->exp) / fabs(v->exp));
	sb_add(b, ")");
	if (v->word == MR_VD_REGRESSED)
		sb_add(b, " regressed");
	else if (v->word == MR_VD_IMPROVED)
		sb_add(b, " improved");
}

/* s cut to the chart's widest label, counted in characters (UTF-8). */
static void
cut(struct strbuf *b)
{
	size_t i, nc = 0;

	for (i = 0; i < b->len; i++)
		if ((b->s[i] & 0xc0) != 0x80 && ++nc > DIFF_LABEL_MAX - 1) {
			b->len = i;
			b->s[i] = '\0';
			sb_add(b, "…");
			return;
		}
}

/* What one row says in a TSV field: tabs and newlines become blanks. */
static void
field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

/* The chart of one case: its rows, configs and lines. */
struct dchart {
	const struct mr_rd_case *k;
	struct drow *row;
	int nrow;
	struct dcfg *cfg;  /* parallel to k->cfg */
	int ncfgrows;      /* configs with rows */
	int nocfg;         /* configs without */
	int nnamed, nmore, nbeyond, nlines, nreg, nimp;
	double wleft, wright; /* the widest labels, in points */
	double xmin, xmax;    /* the deviation axis */
};

/* The baseline rows of vk measured here, each config's worst row and
 * the spread of its rows. */
static void
collect(struct dchart *c, const struct mr_vd_case *vk)
{
	const struct mr_rd_case *k = c->k;
	int i, j;

	for (j = 0; j < k->ncfg; j++)
		c->cfg[j].worst = -1;
	for (i = 0; i < vk->n; i++) {
		const struct mr_vd *v = &vk->v[i];
		double tol = v->tol > 0 ? v->tol : 1e-9;
		struct dcfg *g;
		struct drow *r;
		int ci;

		if (v->kind != MR_VD_ROW || v->word == MR_VD_NOTMEASURED ||
		    (ci = mr_rd_cfg(k, v->config)) < 0)
			continue;
		c->row = erealloc(c->row, sizeof *c->row * (c->nrow + 1));
		r = &c->row[c->nrow];
		memset(r, 0, sizeof *r);
		r->v = v;
		r->ci = ci;
		r->dev = (v->obs - v->exp) / tol;
		r->lo = (v->omin - v->exp) / tol;
		r->hi = (v->omax - v->exp) / tol;
		g = &c->cfg[ci];
		if (g->worst < 0) {
			g->worst = c->nrow;
			g->smin = g->smax = r->dev;
		} else if (fabs(r->dev) > fabs(c->row[g->worst].dev)) {
			g->worst = c->nrow;
		}
		g->smin = fmin(g->smin, r->dev);
		g->smax = fmax(g->smax, r->dev);
		c->nreg += v->word == MR_VD_REGRESSED;
		c->nimp += v->word == MR_VD_IMPROVED;
		c->nrow++;
	}
	for (j = 0; j < k->ncfg; j++) {
		if (c->cfg[j].worst < 0) {
			c->nocfg++;
			continue;
		}
		c->row[c->cfg[j].worst].kind = K_WORST;
		c->ncfgrows++;
		c->xmin = fmin(c->xmin, clamp(c->cfg[j].smin));
		c->xmax = fmax(c->xmax, clamp(c->cfg[j].smax));
	}
}

/* Name the rows beyond half their tolerance, largest first, as many as
 * the chart holds (the others are counted), and give every row its
 * line: each config's, then its named rows'. */
static void
assign_lines(struct dchart *c)
{
	struct drow **cand = ecalloc(c->nrow + 1, sizeof *cand);
	int ncand = 0, cap, i, j;

	for (i = 0; i < c->nrow; i++)
		if (c->row[i].kind != K_WORST && fabs(c->row[i].dev) > DIFF_NAME)
			cand[ncand++] = &c->row[i];
	qsort(cand, ncand, sizeof *cand, by_dev);
	cap = c->ncfgrows / 2 > DIFF_NAMED_MIN ? c->ncfgrows / 2 : DIFF_NAMED_MIN;
	c->nnamed = ncand < cap ? ncand : cap;
	for (i = 0; i < ncand; i++)
		cand[i]->kind = i < c->nnamed ? K_NAMED : K_MORE;
	c->nmore = ncand - c->nnamed;
	c->nbeyond = ncand;
	for (j = 0; j < c->k->ncfg; j++) {
		struct dcfg *g = &c->cfg[j];

		if (g->worst < 0)
			continue;
		c->nbeyond += fabs(c->row[g->worst].dev) > DIFF_NAME;
		g->line = c->row[g->worst].line = ++c->nlines;
		for (i = 0; i < ncand; i++)
			if (cand[i]->kind == K_NAMED && cand[i]->ci == j)
				cand[i]->line = ++c->nlines;
		for (i = 0; i < c->nrow; i++)
			if (c->row[i].ci == j && !c->row[i].line)
				c->row[i].line = g->line;
	}
	free(cand);
}

/* One row of <case>.diff.tsv; a drawn row's label widens the margins
 * and its repeats the axis. */
static void
write_row(FILE *f, struct dchart *c, const struct drow *r, struct strbuf *lab)
{
	const struct mr_vd *v = r->v;
	int drawn = r->kind == K_WORST || r->kind == K_NAMED;

	fprintf(f, "%s\t%d\t%d\t", v->what, r->line, r->ci + 1);
	field(f, v->label);
	fprintf(f, "\t%g\t%g\t%g\t%s\t", clamp(r->dev), clamp(r->lo),
		clamp(r->hi),
		v->word == MR_VD_REGRESSED ? "regressed" :
		v->word == MR_VD_IMPROVED ? "improved" : "held");
	if (drawn) {
		row_label(lab, r);
		cut(lab);
		field(f, lab->s);
		c->wright = fmax(c->wright, 9 * mr_ch_em(lab->s, DIFF_LABEL_MAX));
		lab->len = 0;
		lab->s[0] = '\0';
		c->xmin = fmin(c->xmin, clamp(fmin(r->lo, r->dev)));
		c->xmax = fmax(c->xmax, clamp(fmax(r->hi, r->dev)));
	} else {
		fputc('-', f);
	}
	fprintf(f, "\t%g\t%g\t%g\t%s\t", v->obs, v->exp, v->tol,
		kind_word[r->kind]);
	if (r->kind == K_WORST)
		fprintf(f, "%g\t%g\n", clamp(c->cfg[r->ci].smin),
			clamp(c->cfg[r->ci].smax));
	else
		fputs("-\t-\n", f);
	/* the left labels: a config's (10 pt), a named row's metric (9) */
	if (r->kind == K_WORST)
		c->wleft = fmax(c->wleft, 10 * mr_ch_em(v->label, DIFF_LABEL_MAX));
	else if (r->kind == K_NAMED)
		c->wleft = fmax(c->wleft, 9 * mr_ch_em(v->what, DIFF_LABEL_MAX));
}

static int
write_tsv(struct dchart *c, const char *path)
{
	struct strbuf lab = {0};
	FILE *f;
	int i;

	if (!(f = mr_ch_create(path)))
		return -1;
	fprintf(f, "# memrepro report: observed medians vs the baseline, in tolerances\n");
	fprintf(f, "what\trow\tcfg\tconfig\tdev\tlo\thi\tverdict\tnote\tobserved"
		"\texpected\ttolerance\tkind\tspread_lo\tspread_hi\n");
	for (i = 0; i < c->nrow; i++)
		write_row(f, c, &c->row[i], &lab);
	sb_free(&lab);
	return mr_ch_close(f, path);
}

int
mr_chart_diff(struct mr_plot *p, const struct mr_rd *R, int ki,
	      const struct mr_vd_case *vk, const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	char *tsv = esprintf("%s/%s.diff.tsv", outdir, k->name);
	char *base = esprintf("%s/%s.diff", outdir, k->name);
	struct strbuf title = {0}, note = {0}, foot = {0};
	struct dchart c = { .k = k, .xmin = -2, .xmax = 2 };
	int rc = -1;

	c.cfg = ecalloc(k->ncfg + 1, sizeof *c.cfg);
	collect(&c, vk);
	assign_lines(&c);
	if (write_tsv(&c, tsv) < 0)
		goto out;
	sb_printf(&title, "%s: observed medians vs the baseline%s", k->name,
		  c.nrow ? ", the worst row of each config" : "");
	if (!vk->has_bl)
		sb_printf(&note, "no baseline for platform %s (memrepro bless writes one)",
			  R->platform);
	else if (!c.nrow)
		sb_add(&note, "no baseline row was measured in these results");
	else {
		sb_printf(&note, "%d config%s, %d rows: %d regressed, %d improved, %d held;"
			  " %d beyond half their tolerance", c.ncfgrows,
			  c.ncfgrows == 1 ? "" : "s", c.nrow, c.nreg, c.nimp,
			  c.nrow - c.nreg - c.nimp, c.nbeyond);
	}
	/* the foot, not the title's second line: with both, that line ran
	 * past the chart's edges (many configs, three-digit counts) */
	if (c.nmore)
		sb_printf(&foot, "+%d more row%s beyond half their tolerance in %s.diff.tsv",
			  c.nmore, c.nmore == 1 ? "" : "s", k->name);
	if (vk->has_bl && c.nrow && c.nocfg)
		sb_printf(&foot, "%s%d config%s without baseline rows", c.nmore ? "; " : "",
			  c.nocfg, c.nocfg == 1 ? "" : "s");
	sb_add(&foot, "");
	{
		char layout[128];
		const char *args[] = { title.s, note.s, layout, foot.s, NULL };

		snprintf(layout, sizeof layout, "%d %.0f %.0f %g %g", c.nlines,
			 c.wleft, c.wright, floor(c.xmin) - 0.5, ceil(c.xmax) + 0.5);
		rc = mr_plot_draw(p, "diff", tsv, base, args);
	}
out:
	free(c.row);
	free(c.cfg);
	sb_free(&title);
	sb_free(&note);
	sb_free(&foot);
	free(tsv);
	free(base);
	return rc;
}
