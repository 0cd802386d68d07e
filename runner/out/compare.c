#include "out/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "out/plot.h"
#include "results/read.h"
#include "check/stats.h"
#include "core/util.h"

/* Mann-Whitney U is used from this many repeats on each side: with
 * fewer, no arrangement reaches p < ALPHA (3 against 3: p >= 0.1). */
#define MWU_MIN 4
#define ALPHA 0.05
/* The chart shows changes within this many percent; beyond, at the edge. */
#define CLAMP_PCT 100.0

enum change { SAME, WORSE, BETTER };

static const char *const change_words[] = { "same", "worse", "better" };

/* One figure of one config in both results. */
struct row {
	int kn, cn;          /* case and config in NEW */
	struct mr_ref ref;
	char *what;          /* "rss_kb@cleared" */
	double om, omin, omax, nm, nmin, nmax;
	int on, nn;
	double pct;          /* change of the median, NAN: from 0 */
	const char *test;    /* "U" or "ranges" */
	double p;            /* the U test's p, NAN for ranges */
	enum change change;  /* beyond the noise, and which way */
	int floor;           /* within the metric's floor: never a change */
	int fails;           /* worse by more than --fail-on */
	int fig;             /* the figure's row in its case's chart, from 1 */
};

static void
stats_of(const struct mr_rd_case *k, int ci, const struct mr_ref *ref,
	 double **v, int *n, double *med, double *min, double *max)
{
	*n = mr_rd_values(k, ci, ref, v);
	if (*n == 0)
		return;
	*min = (*v)[0];
	*max = (*v)[*n - 1];
	*med = mr_st_median(*v, *n);
}

/* Compare one figure; 0 when both sides measured it. */
static int
compare_row(struct row *r, const struct mr_rd_case *ko, int co,
	    const struct mr_rd_case *kn, int cn, double fail_on)
{
	const char *metric = r->ref.ckpt ? mr_ckpt_metrics[r->ref.metric]
					 : mr_run_metrics[r->ref.metric];
	double *a = NULL, *b = NULL;
	int beyond;

	stats_of(ko, co, &r->ref, &a, &r->on, &r->om, &r->omin, &r->omax);
	stats_of(kn, cn, &r->ref, &b, &r->nn, &r->nm, &r->nmin, &r->nmax);
	if (!r->on || !r->nn) {
		free(a);
		free(b);
		return -1;
	}
	r->pct = r->om != 0 ? 100 * (r->nm - r->om) / fabs(r->om)
			    : r->nm == 0 ? 0 : NAN;
	if (r->on >= MWU_MIN && r->nn >= MWU_MIN) {
		r->test = "U";
		r->p = mr_st_mwu_p(a, r->on, b, r->nn);
		beyond = r->p < ALPHA;
	} else {
		r->test = "ranges";
		r->p = NAN;
		beyond = r->nmin > r->omax || r->nmax < r->omin;
	}
	r->floor = fabs(r->nm - r->om) <= mr_st_min_change(metric, r->om);
	if (beyond && !r->floor)
		r->change = r->nm > r->om ? WORSE : BETTER;
	/* lower is better for every figure memrepro measures */
	r->fails = fail_on >= 0 && r->change == WORSE &&
		   (isnan(r->pct) || r->pct > fail_on);
	free(a);
	free(b);
	return 0;
}

static void
pct_str(char *buf, size_t size, double pct)
{
	if (isnan(pct))
		snprintf(buf, size, "from 0");
	else
		snprintf(buf, size, "%+.1f %%", pct);
}

static double
clampp(double x)
{
	return isnan(x) ? CLAMP_PCT : x < -CLAMP_PCT ? -CLAMP_PCT :
	       x > CLAMP_PCT ? CLAMP_PCT : x;
}

/* x relative to base in percent, for the chart. */
static double
rel(double x, double base)
{
	return base != 0 ? clampp(100 * (x - base) / fabs(base)) : x == 0 ? 0 : CLAMP_PCT;
}

static void
print_row(FILE *f, const struct mr_diff_opts *o, const struct row *r,
	  const char *label, int lw, int ww)
{
	static const char *const col[] = { "", "1;31", "1;32" };
	char a[48], b[48], pct[32], p[32] = "";

	pct_str(pct, sizeof pct, r->pct);
	if (r->p == r->p)
		snprintf(p, sizeof p, " p=%.3g", r->p);
	fprintf(f, "  %-*s  %-*s  %12s -> %-12s %9s  ", lw, label, ww, r->what,
		mr_fmt_num(a, r->om), mr_fmt_num(b, r->nm), pct);
	if (o->color && r->change != SAME)
		fprintf(f, "\033[%sm%s\033[0m", col[r->change], change_words[r->change]);
	else
		fputs(r->change == SAME ? "within noise" : change_words[r->change], f);
	fprintf(f, " (%s%s%s)%s\n", r->test, p, r->floor ? ", below the floor" : "",
		r->fails ? "  FAILS --fail-on" : "");
}

/* The chart row of r's figure: that of an earlier row of the same case
 * and figure, else the next one. */
static int
figure_row(const struct row *rows, int n, const struct row *r)
{
	int i, max = 0;

	for (i = 0; i < n; i++) {
		if (rows[i].kn != r->kn)
			continue;
		if (!strcmp(rows[i].what, r->what))
			return rows[i].fig;
		if (rows[i].fig > max)
			max = rows[i].fig;
	}
	return max + 1;
}

/* Write every row to compare.tsv. */
static int
write_tsv(const char *path, const struct mr_rd *N, const struct row *rows,
	  int nrows, const char *olddir)
{
	FILE *f = mr_create_out(path);
	int i;

	if (!f) {
		weprintf("create %s:", path);
		return -1;
	}
	fprintf(f, "# memrepro compare: %s -> %s\n", olddir, N->dir);
	fprintf(f, "case\tconfig\tlabel\tcfg\tcheckpoint\tmetric\twhat\trow\t"
		   "old_median\told_min\told_max\told_n\tnew_median\tnew_min\tnew_max\tnew_n\t"
		   "change_pct\ttest\tp\tverdict\tfails\tx\tlo\thi\tolo\tohi\tnote\n");
	for (i = 0; i < nrows; i++) {
		const struct mr_rd_case *k = &N->k[rows[i].kn];
		const struct row *r = &rows[i];
		char pct[32], a[48], b[48];
		/* the row of the chart: figure by figure, configs side by side */
		double y = r->fig + (k->ncfg > 1 ? (r->cn - (k->ncfg - 1) / 2.0) * 0.7 / k->ncfg : 0);
		pct_str(pct, sizeof pct, r->pct);
		fprintf(f, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%g\t", k->name, k->conf[r->cn].str,
			k->cfg[r->cn].label, r->cn + 1,
			r->ref.ckpt ? r->ref.checkpoint : "-",
			r->ref.ckpt ? mr_ckpt_metrics[r->ref.metric] : mr_run_metrics[r->ref.metric],
			r->what, y);
		fprintf(f, "%.17g\t%.17g\t%.17g\t%d\t%.17g\t%.17g\t%.17g\t%d\t", r->om, r->omin,
			r->omax, r->on, r->nm, r->nmin, r->nmax, r->nn);
		if (isnan(r->pct))
			fputs("-\t", f);
		else
			fprintf(f, "%.4f\t", r->pct);
		fprintf(f, "%s\t", r->test);
		if (isnan(r->p))
			fputs("-\t", f);
		else
			fprintf(f, "%.4g\t", r->p);
		fprintf(f, "%s\t%d\t%g\t%g\t%g\t%g\t%g\t", change_words[r->change], r->fails,
			rel(r->nm, r->om), rel(r->nmin, r->om), rel(r->nmax, r->om),
			rel(r->omin, r->om), rel(r->omax, r->om));
		if (r->change != SAME)
			fprintf(f, "%s %s (%s -> %s)\n", k->cfg[r->cn].label, pct,
				mr_fmt_num(a, r->om), mr_fmt_num(b, r->nm));
		else
			fputs("-\n", f);
	}
	if (ferror(f) | (fclose(f) != 0)) {
		weprintf("write %s:", path);
		return -1;
	}
	return 0;
}

/* s as one gnuplot word: blanks become '_'. */
static void
add_word(struct strbuf *b, const char *s)
{
	if (b->len)
		sb_add(b, " ");
	for (; *s; s++)
		sb_addn(b, *s == ' ' || *s == '\t' ? "_" : s, 1);
}

static int
draw(const struct mr_diff_opts *o, const struct mr_rd *N, const struct row *rows,
     int nrows, const char *tsv, const char *outdir)
{
	struct mr_plot p;
	int rc = 0, i, j;

	if (mr_plot_init(&p, o->plots_dir, o->verbose) < 0)
		return -1;
	for (i = 0; i < N->nk; i++) {
		const struct mr_rd_case *k = &N->k[i];
		struct strbuf what = {0}, labels = {0}, title = {0}, note = {0};
		double xmin = -5, xmax = 5;
		int n = 0, worse = 0, better = 0;
		char *base, range[64], fail[32] = "";

		for (j = 0; j < nrows; j++) {
			const struct row *r = &rows[j];
			int l, seen = 0;

			if (r->kn != i)
				continue;
			n++;
			worse += r->change == WORSE;
			better += r->change == BETTER;
			for (l = 0; l < j; l++)
				if (rows[l].kn == i && !strcmp(rows[l].what, r->what))
					seen = 1;
			if (!seen)
				add_word(&what, r->what);
			xmin = fmin(xmin, fmin(rel(r->nmin, r->om), rel(r->omin, r->om)));
			xmax = fmax(xmax, fmax(rel(r->nmax, r->om), rel(r->omax, r->om)));
		}
		if (!n) {
			continue; /* a case only in NEW: nothing to draw */
		}
		for (j = 0; j < k->ncfg; j++)
			add_word(&labels, k->cfg[j].label);
		sb_printf(&title, "%s: change of the medians, %s -> %s", k->name, o->old_dir,
			  o->new_dir);
		sb_printf(&note, "%d figures: %d worse, %d better beyond the noise", n, worse,
			  better);
		if (o->fail_on >= 0) {
			snprintf(fail, sizeof fail, "%g", o->fail_on);
			xmax = fmax(xmax, fmin(o->fail_on + 2, CLAMP_PCT));
		}
		snprintf(range, sizeof range, "%g %g", floor(xmin) - 2, ceil(xmax) + 2);
		base = esprintf("%s/%s.compare", outdir, k->name);
		{
			const char *args[] = { k->name, title.s, what.s, labels.s, note.s,
					       range, fail, NULL };

			if (mr_plot_draw(&p, "compare", tsv, base, args) < 0)
				rc = -1;
		}
		free(base);
		sb_free(&what);
		sb_free(&labels);
		sb_free(&title);
		sb_free(&note);
	}
	mr_plot_free(&p);
	return rc;
}

/* The rows of figures the cases and configs of N that O has too can be
 * compared by, into *rows (nrows of them: the return); the cases only in
 * N and the configs only in N counted into *onlynew and *cfgonly. */
static int
pair_rows(const struct mr_diff_opts *o, const struct mr_rd *O, const struct mr_rd *N,
	  struct row **rows, int *onlynew, int *cfgonly)
{
	int nrows = 0, i, j, m;

	for (i = 0; i < N->nk; i++) {
		const struct mr_rd_case *kn = &N->k[i], *ko = mr_rd_case(O, kn->name);

		if (!ko) {
			(*onlynew)++;
			continue;
		}
		for (j = 0; j < kn->ncfg; j++) {
			int co = mr_rd_cfg(ko, kn->conf[j].str), nref;
			struct mr_ref *refs;

			if (co < 0) {
				(*cfgonly)++;
				continue;
			}
			nref = mr_rd_figures(kn, j, &refs);
			for (m = 0; m < nref; m++) {
				struct row r = {0};

				r.kn = i;
				r.cn = j;
				r.ref = refs[m];
				if (compare_row(&r, ko, co, kn, j, o->fail_on) < 0)
					continue;
				r.what = mr_rd_ref_name(&r.ref);
				r.fig = figure_row(*rows, nrows, &r);
				*rows = erealloc(*rows, sizeof **rows * (nrows + 1));
				(*rows)[nrows++] = r;
			}
			free(refs);
		}
	}
	return nrows;
}

/* The table: per case of N, the changes beyond noise (every row when
 * verbose), then its counts, on f; the figures worse and better added to
 * *worse and *better, the rows by test to tests[] (ranges, U).  Returns
 * the rows over --fail-on. */
static int
print_cases(FILE *f, const struct mr_diff_opts *o, const struct mr_rd *N,
	    const struct row *rows, int nrows, int *worse, int *better, int tests[2])
{
	int fails = 0, i, j;

	for (i = 0; i < N->nk; i++) {
		const struct mr_rd_case *k = &N->k[i];
		int lw = 0, ww = 0, n = 0, w = 0, b = 0, shown = 0;

		for (j = 0; j < nrows; j++) {
			if (rows[j].kn != i)
				continue;
			if ((int)strlen(k->cfg[rows[j].cn].label) > lw)
				lw = (int)strlen(k->cfg[rows[j].cn].label);
			if ((int)strlen(rows[j].what) > ww)
				ww = (int)strlen(rows[j].what);
		}
		for (j = 0; j < nrows; j++) {
			const struct row *r = &rows[j];

			if (r->kn != i)
				continue;
			n++;
			w += r->change == WORSE;
			b += r->change == BETTER;
			fails += r->fails;
			tests[!strcmp(r->test, "U")]++;
			if (o->verbose || r->change != SAME) {
				if (!shown++)
					fprintf(f, "%s\n", k->name);
				print_row(f, o, r, k->cfg[r->cn].label, lw, ww);
			}
		}
		if (n)
			fprintf(f, "%s: %d figures: %d worse, %d better beyond the noise, %d within it\n",
				k->name, n, w, b, n - w - b);
		*worse += w;
		*better += b;
	}
	return fails;
}

int
mr_diff(const struct mr_diff_opts *o)
{
	struct mr_rd O, N;
	struct row *rows = NULL;
	char *outdir = NULL, *tsv = NULL;
	int nrows = 0, rc = MR_USAGE, worse = 0, better = 0, fails, i;
	int onlyold = 0, onlynew = 0, cfgonly = 0, tests[2] = {0};
	FILE *f = o->out;

	memset(&N, 0, sizeof N);
	if (mr_rd_load(&O, o->old_dir) < 0 || mr_rd_load(&N, o->new_dir) < 0)
		goto out;
	if (strcmp(O.platform, N.platform))
		fprintf(f, "note: platforms differ: %s (old) and %s (new)\n", O.platform,
			N.platform);
	nrows = pair_rows(o, &O, &N, &rows, &onlynew, &cfgonly);
	for (i = 0; i < O.nk; i++)
		onlyold += !mr_rd_case(&N, O.k[i].name);
	fprintf(f, "compare %s -> %s\n", o->old_dir, o->new_dir);
	fails = print_cases(f, o, &N, rows, nrows, &worse, &better, tests);
	fprintf(f, "total: %d figures compared: %d worse, %d better beyond the noise",
		nrows, worse, better);
	if (tests[0] && tests[1])
		fprintf(f, " (Mann-Whitney U for %d, ranges for %d)", tests[1], tests[0]);
	else if (nrows)
		fprintf(f, " (%s)", tests[1] ? "Mann-Whitney U, p < 0.05"
					    : "ranges: too few repeats for a rank test");
	fputc('\n', f);
	if (onlyold || onlynew || cfgonly)
		fprintf(f, "not compared: %d cases only in OLD, %d only in NEW, %d configs only in NEW\n",
			onlyold, onlynew, cfgonly);
	if (o->fail_on >= 0)
		fprintf(f, "--fail-on %g: %d %s worse beyond the noise by more than %g %%\n",
			o->fail_on, fails, fails == 1 ? "figure" : "figures", o->fail_on);

	outdir = o->out_dir ? estrdup(o->out_dir) : mr_rd_path(o->new_dir, "compare");
	if ((i = mr_mkdir_out(outdir)) < 0) {
		errno = -i;
		weprintf("create %s:", outdir);
		rc = MR_FAILED;
		goto out;
	}
	tsv = mr_rd_path(outdir, "compare.tsv");
	rc = fails ? MR_FAILED : MR_OK;
	if (write_tsv(tsv, &N, rows, nrows, o->old_dir) < 0)
		rc = MR_FAILED;
	else if (o->plots_dir && draw(o, &N, rows, nrows, tsv, outdir) < 0)
		rc = MR_FAILED;
	fprintf(f, "table and charts: %s\n", outdir);
out:
	for (i = 0; i < nrows; i++)
		free(rows[i].what);
	free(rows);
	free(tsv);
	free(outdir);
	mr_rd_free(&O);
	mr_rd_free(&N);
	return rc;
}
