#include "out/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "check/config.h"
#include "out/plot.h"
#include "results/read.h"
#include "check/stats.h"
#include "core/util.h"
#include "out/chutil.h"

/* Mann-Whitney U is used from this many repeats on each side: with
 * fewer, no arrangement reaches p < ALPHA (3 against 3: p >= 0.1). */
#define MWU_MIN 4
#define ALPHA 0.05
/* The chart shows changes within this many percent; beyond, at the edge. */
#define CLAMP_PCT 100.0
/* The figures beyond the noise a chart names on lines of their own,
 * besides its configs' lines: this many, or as many as it has configs
 * (compare.gp's height grows with the lines). */
#define NAMED_MIN 12
/* The widest label, in characters, left and right of the plot. */
#define LEFT_MAX 60
#define RIGHT_MAX 64

enum change { SAME, WORSE, BETTER };

/* How a row is drawn: on its config's line (worst: the line's point),
 * on a line of its own (named), or as a dot on its config's line (none;
 * more: beyond the noise, but the chart had no room to name it). */
enum kind { K_NONE, K_WORST, K_NAMED, K_MORE };
static const char *const kind_words[] = { "-", "worst", "named", "more" };

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
	int line;            /* the chart line it is drawn on, 1 = top */
	enum kind kind;
	double slo, shi;     /* a worst row: its config's smallest and largest x */
};

/* A case's chart, laid out. */
struct clay {
	int ncfg;            /* configs drawn */
	int nlines;
	int nmore;           /* beyond the noise, not named */
	double wl, wr;       /* the widest labels left and right, in points */
	double xmin, xmax;
	char **shortl;       /* [k->ncfg]: the configs' short names */
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

char *
mr_cmp_short(const struct mr_config *cfg, int n, int i, const char *skip)
{
	struct mr_axis *ax;
	int nax = mr_config_axes(cfg, n, &ax), a, b, pass, none;
	struct strbuf s = {0};

	/* the allocator first, bare; then the other axes by key */
	for (pass = 0; pass < 2; pass++)
		for (a = 0; a < nax; a++) {
			const char *key = ax[a].key, *v = mr_config_get(&cfg[i], key);
			const char *dot = strrchr(key, '.');
			int alloc = !strcmp(key, "allocator");

			if (!v || alloc != (pass == 0) || (skip && !strcmp(key, skip)))
				continue;
			if (alloc) {
				sb_printf(&s, "%s%s", s.len ? ", " : "", v);
				continue;
			}
			/* the key after its last '.', unless another axis ends the same */
			for (b = 0; dot && b < nax; b++) {
				const char *o = strrchr(ax[b].key, '.');

				if (b != a && !strcmp(o ? o + 1 : ax[b].key, dot + 1))
					dot = NULL;
			}
			sb_printf(&s, "%s%s=%s", s.len ? ", " : "", dot ? dot + 1 : key, v);
		}
	/* only the panel axis' value set: the others said unset */
	none = !s.len;
	for (b = 0, a = 0; none && skip && a < nax; a++) {
		const char *dot = strrchr(ax[a].key, '.');

		if (strcmp(ax[a].key, skip))
			sb_printf(&s, "%s%s unset", b++ ? ", " : "", dot ? dot + 1 : ax[a].key);
	}
	mr_config_axes_free(ax, nax);
	if (!s.len && skip && mr_config_get(&cfg[i], skip))
		sb_add(&s, mr_config_get(&cfg[i], skip));
	if (!s.len)
		sb_add(&s, cfg[i].str);
	return s.s;
}

/* b cut to max characters (UTF-8), the last one an ellipsis. */
static void
cut(struct strbuf *b, size_t max)
{
	size_t i, nc = 0;

	for (i = 0; i < b->len; i++)
		if ((b->s[i] & 0xc0) != 0x80 && ++nc > max - 1) {
			b->len = i;
			b->s[i] = '\0';
			sb_add(b, "\xe2\x80\xa6");
			return;
		}
}

static const char *
metric_name(const struct row *r)
{
	return r->ref.ckpt ? mr_ckpt_metrics[r->ref.metric] : mr_run_metrics[r->ref.metric];
}

/* The label right of a drawn row: its figure (on its config's line), the
 * change and both medians. */
static void
right_label(struct strbuf *b, const struct row *r)
{
	char pct[32], x[48], y[48];

	sb_add(b, "");
	if (r->kind == K_WORST)
		sb_printf(b, "%s  ", r->what);
	if (!isnan(r->pct) && fabs(r->pct) < 0.05)
		snprintf(pct, sizeof pct, "0.0 %%");
	else
		pct_str(pct, sizeof pct, r->pct);
	mr_ch_figure(x, sizeof x, metric_name(r), r->om);
	mr_ch_figure(y, sizeof y, metric_name(r), r->nm);
	sb_printf(b, "%s  (%s -> %s)", pct, x, y);
	if (r->change != SAME)
		sb_printf(b, " %s", change_words[r->change]);
	cut(b, RIGHT_MAX);
}

/* Larger first: |x| (a change from 0 counts as the clamp), rows beyond
 * the noise before those within it; ties in row order. */
static int
bigger(const struct row *a, const struct row *b)
{
	double x = fabs(clampp(a->pct)), y = fabs(clampp(b->pct));

	if ((a->change != SAME) != (b->change != SAME))
		return a->change != SAME;
	return x > y;
}

static int
by_size(const void *pa, const void *pb)
{
	const struct row *const *a = pa, *const *b = pb;

	if (bigger(*a, *b))
		return -1;
	if (bigger(*b, *a))
		return 1;
	return *a < *b ? -1 : *a > *b;
}

/* Lay out case ki's chart: per config its worst row (the largest change
 * beyond the noise, else the largest change) and the spread of its rows,
 * then the rows beyond the noise that are not a config's worst, largest
 * first, as many named as the chart holds; each row's line and kind. */
static void
lay_case(struct row *rows, int nrows, const struct mr_rd_case *k, int ki, struct clay *L)
{
	int *worst = ecalloc(k->ncfg + 1, sizeof *worst), ncand = 0, nnamed, i, j;
	struct row **cand = ecalloc(nrows + 1, sizeof *cand);
	double *smin = ecalloc(k->ncfg + 1, sizeof *smin);
	double *smax = ecalloc(k->ncfg + 1, sizeof *smax);

	memset(L, 0, sizeof *L);
	L->xmin = -5;
	L->xmax = 5;
	L->shortl = ecalloc(k->ncfg + 1, sizeof *L->shortl);
	for (j = 0; j < k->ncfg; j++) {
		worst[j] = -1;
		L->shortl[j] = mr_cmp_short(k->conf, k->ncfg, j, NULL);
	}
	for (i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		double x = clampp(r->pct);

		if (r->kn != ki)
			continue;
		j = r->cn;
		if (worst[j] < 0) {
			worst[j] = i;
			smin[j] = smax[j] = x;
		} else if (bigger(r, &rows[worst[j]])) {
			worst[j] = i;
		}
		smin[j] = fmin(smin[j], x);
		smax[j] = fmax(smax[j], x);
	}
	for (j = 0; j < k->ncfg; j++)
		if (worst[j] >= 0) {
			rows[worst[j]].kind = K_WORST;
			rows[worst[j]].slo = smin[j];
			rows[worst[j]].shi = smax[j];
			L->ncfg++;
			L->xmin = fmin(L->xmin, smin[j]);
			L->xmax = fmax(L->xmax, smax[j]);
		}
	for (i = 0; i < nrows; i++)
		if (rows[i].kn == ki && rows[i].kind != K_WORST && rows[i].change != SAME)
			cand[ncand++] = &rows[i];
	qsort(cand, ncand, sizeof *cand, by_size);
	nnamed = ncand < NAMED_MIN ? ncand : NAMED_MIN;
	if (nnamed < L->ncfg && ncand > nnamed)
		nnamed = ncand < L->ncfg ? ncand : L->ncfg;
	for (i = 0; i < ncand; i++)
		cand[i]->kind = i < nnamed ? K_NAMED : K_MORE;
	L->nmore = ncand - nnamed;
	/* lines: each config, then its named rows, largest first */
	for (j = 0; j < k->ncfg; j++) {
		if (worst[j] < 0)
			continue;
		rows[worst[j]].line = ++L->nlines;
		for (i = 0; i < ncand; i++)
			if (cand[i]->kind == K_NAMED && cand[i]->cn == j)
				cand[i]->line = ++L->nlines;
		for (i = 0; i < nrows; i++)
			if (rows[i].kn == ki && rows[i].cn == j && !rows[i].line)
				rows[i].line = rows[worst[j]].line;
	}
	/* the x range and the labels' widths (10 pt left of a config, 9 pt
	 * for the rest) */
	for (i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		struct strbuf b = {0};

		if (r->kn != ki || (r->kind != K_WORST && r->kind != K_NAMED))
			continue;
		L->xmin = fmin(L->xmin, fmin(rel(r->nmin, r->om), rel(r->omin, r->om)));
		L->xmax = fmax(L->xmax, fmax(rel(r->nmax, r->om), rel(r->omax, r->om)));
		right_label(&b, r);
		L->wr = fmax(L->wr, 9 * mr_ch_em(b.s, 0));
		sb_free(&b);
		if (r->kind == K_WORST) {
			sb_add(&b, L->shortl[r->cn]);
			cut(&b, LEFT_MAX);
			L->wl = fmax(L->wl, 10 * mr_ch_em(b.s, 0));
		} else {
			L->wl = fmax(L->wl, 9 * mr_ch_em(r->what, 0));
		}
		sb_free(&b);
	}
	free(worst);
	free(cand);
	free(smin);
	free(smax);
}

static void
clay_free(struct clay *L, int ncfg)
{
	int j;

	for (j = 0; L->shortl && j < ncfg; j++)
		free(L->shortl[j]);
	free(L->shortl);
}

/* What one field says in the TSV: tabs and newlines become blanks. */
static void
field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

/* Write every row to compare.tsv, each case laid out in L[]. */
static int
write_tsv(const char *path, const struct mr_rd *N, const struct row *rows,
	  int nrows, const char *olddir, const struct clay *L)
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
		   "change_pct\ttest\tp\tverdict\tfails\tx\tlo\thi\tolo\tohi\tnote\t"
		   "kind\tspread_lo\tspread_hi\tshort\n");
	for (i = 0; i < nrows; i++) {
		const struct mr_rd_case *k = &N->k[rows[i].kn];
		const struct row *r = &rows[i];
		char pct[32], a[48], b[48];

		pct_str(pct, sizeof pct, r->pct);
		fprintf(f, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t", k->name, k->conf[r->cn].str,
			k->cfg[r->cn].label, r->cn + 1,
			r->ref.ckpt ? r->ref.checkpoint : "-", metric_name(r), r->what, r->line);
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
		/* note: the label of a drawn row, the change of another one */
		if (r->kind == K_WORST || r->kind == K_NAMED) {
			struct strbuf lb = {0};

			right_label(&lb, r);
			field(f, lb.s);
			sb_free(&lb);
		} else if (r->change != SAME) {
			fprintf(f, "%s %s (%s -> %s)", k->cfg[r->cn].label, pct,
				mr_fmt_num(a, r->om), mr_fmt_num(b, r->nm));
		} else {
			fputc('-', f);
		}
		fprintf(f, "\t%s\t", kind_words[r->kind]);
		if (r->kind == K_WORST)
			fprintf(f, "%g\t%g\t", r->slo, r->shi);
		else
			fputs("-\t-\t", f);
		{
			struct strbuf sl = {0};

			sb_add(&sl, L[r->kn].shortl[r->cn]);
			cut(&sl, LEFT_MAX);
			field(f, sl.s);
			sb_free(&sl);
		}
		fputc('\n', f);
	}
	if (ferror(f) | (fclose(f) != 0)) {
		weprintf("write %s:", path);
		return -1;
	}
	return 0;
}

/* The last path component of dir, or the last two when both directories
 * end the same, at most 32 characters: a chart's title. */
static void
short_dir(struct strbuf *b, const char *dir, const char *other)
{
	size_t n = strlen(dir), m = strlen(other), i;
	const char *p, *q;
	struct strbuf s = {0};

	while (n > 1 && dir[n - 1] == '/')
		n--;
	while (m > 1 && other[m - 1] == '/')
		m--;
	for (p = dir + n; p > dir && p[-1] != '/'; p--)
		;
	for (q = other + m; q > other && q[-1] != '/'; q--)
		;
	/* the same last component: one more of dir's */
	if ((size_t)(dir + n - p) == (size_t)(other + m - q) && !strncmp(p, q, (size_t)(dir + n - p)) &&
	    p > dir + 1)
		for (p--; p > dir && p[-1] != '/'; p--)
			;
	for (i = 0; p + i < dir + n; i++)
		sb_addn(&s, p + i, 1);
	if (!s.len)
		sb_add(&s, dir);
	cut(&s, 32);
	sb_add(b, s.s);
	sb_free(&s);
}

static int
draw(const struct mr_diff_opts *o, const struct mr_rd *N, const struct row *rows,
     int nrows, const char *tsv, const char *outdir, const struct clay *L)
{
	struct mr_plot p;
	int rc = 0, i, j;

	if (mr_plot_init(&p, o->plots_dir, o->verbose) < 0)
		return -1;
	for (i = 0; i < N->nk; i++) {
		const struct mr_rd_case *k = &N->k[i];
		const struct clay *c = &L[i];
		struct strbuf title = {0}, note = {0}, foot = {0};
		int n = 0, worse = 0, better = 0, ranges = 0;
		double xmin = c->xmin, xmax = c->xmax;
		char *base, layout[128], fail[32] = "";

		for (j = 0; j < nrows; j++) {
			const struct row *r = &rows[j];

			if (r->kn != i)
				continue;
			n++;
			worse += r->change == WORSE;
			better += r->change == BETTER;
			ranges += !strcmp(r->test, "ranges");
		}
		sb_printf(&title, "%s: change of the medians, ", k->name);
		short_dir(&title, o->old_dir, o->new_dir);
		sb_add(&title, " -> ");
		short_dir(&title, o->new_dir, o->old_dir);
		if (!n)
			sb_add(&note, "no config of this case measured a figure in both directories");
		else
			sb_printf(&note, "%d config%s, %d figures: %d worse, %d better beyond the noise (%s)",
				  c->ncfg, c->ncfg == 1 ? "" : "s", n, worse, better,
				  ranges == n ? "the repeats' ranges apart" :
				  ranges ? "Mann-Whitney U or the ranges" : "Mann-Whitney U, p < 0.05");
		if (c->nmore)
			sb_printf(&foot, "+%d more figure%s beyond the noise in compare.tsv", c->nmore,
				  c->nmore == 1 ? "" : "s");
		else
			sb_add(&foot, "");
		if (o->fail_on >= 0) {
			snprintf(fail, sizeof fail, "%g", o->fail_on);
			xmax = fmax(xmax, fmin(o->fail_on + 2, CLAMP_PCT));
		}
		snprintf(layout, sizeof layout, "%d %.0f %.0f %g %g", n ? c->nlines : 0, c->wl,
			 c->wr, floor(xmin) - 2, ceil(xmax) + 2);
		base = esprintf("%s/%s.compare", outdir, k->name);
		{
			const char *args[] = { k->name, title.s, note.s, layout, fail, foot.s,
					       NULL };

			if (mr_plot_draw(&p, "compare", tsv, base, args) < 0)
				rc = -1;
		}
		free(base);
		sb_free(&title);
		sb_free(&note);
		sb_free(&foot);
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
	struct clay *L = NULL;
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
	L = ecalloc(N.nk + 1, sizeof *L);
	for (i = 0; i < N.nk; i++)
		lay_case(rows, nrows, &N.k[i], i, &L[i]);
	if (write_tsv(tsv, &N, rows, nrows, o->old_dir, L) < 0)
		rc = MR_FAILED;
	else if (o->plots_dir && draw(o, &N, rows, nrows, tsv, outdir, L) < 0)
		rc = MR_FAILED;
	fprintf(f, "table and charts: %s\n", outdir);
out:
	for (i = 0; L && i < N.nk; i++)
		clay_free(&L[i], N.k[i].ncfg);
	free(L);
	for (i = 0; i < nrows; i++)
		free(rows[i].what);
	free(rows);
	free(tsv);
	free(outdir);
	mr_rd_free(&O);
	mr_rd_free(&N);
	return rc;
}
