/* cmpchart: compare's table (compare.tsv) and a case's chart: per
 * config its worst figure, the figures beyond the noise named as far as
 * the chart holds them (compare.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/config.h"
#include "core/util.h"
#include "out/chutil.h"
#include "out/cmpchart.h"
#include "out/outfile.h"
#include "out/plot.h"

/* The chart shows changes within this many percent; beyond, at the edge. */
#define CLAMP_PCT 100.0
/* The figures beyond the noise a chart names on lines of their own,
 * besides its configs' lines: this many, or as many as it has configs
 * (compare.gp's height grows with the lines). */
#define NAMED_MIN 12
/* The widest label, in characters, left and right of the plot. */
#define LEFT_MAX 60
#define RIGHT_MAX 64

static const char *const kind_words[] = { "-", "worst", "named", "more" };
const char *const mr_cmp_change_words[] = { "same", "worse", "better", "not-compared" };
#define change_words mr_cmp_change_words

void
mr_cmp_pct(char *buf, size_t size, double pct)
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
		mr_cmp_pct(pct, sizeof pct, r->pct);
	mr_ch_figure(x, sizeof x, metric_name(r), r->om);
	mr_ch_figure(y, sizeof y, metric_name(r), r->nm);
	sb_printf(b, "%s  (%s -> %s)", pct, x, y);
	if (BEYOND(r))
		sb_printf(b, " %s", change_words[r->change]);
	cut(b, RIGHT_MAX);
}

/* Larger first: |x| (a change from 0 counts as the clamp), rows beyond
 * the noise before those within it; ties in row order. */
static int
bigger(const struct row *a, const struct row *b)
{
	double x = fabs(clampp(a->pct)), y = fabs(clampp(b->pct));

	if (BEYOND(a) != BEYOND(b))
		return BEYOND(a);
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
void
mr_cmp_lay_case(struct row *rows, int nrows, const struct mr_rd_case *k, int ki, struct clay *L)
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
		if (rows[i].kn == ki && rows[i].kind != K_WORST && BEYOND(&rows[i]))
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

void
mr_cmp_clay_free(struct clay *L, int ncfg)
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

int
mr_cmp_write_rows(FILE *f, const struct mr_rd *N, const struct row *rows, int nrows,
		  const char *olddir, const struct clay *L, int ki)
{
	int i;

	fprintf(f, "# memrepro compare: %s -> %s\n", olddir, N->dir);
	fprintf(f, "case\tconfig\tlabel\tcfg\tcheckpoint\tmetric\twhat\trow\t"
		   "old_median\told_min\told_max\told_n\tnew_median\tnew_min\tnew_max\tnew_n\t"
		   "change_pct\ttest\tp\tverdict\tfails\tx\tlo\thi\tolo\tohi\tnote\t"
		   "kind\tspread_lo\tspread_hi\tshort\n");
	for (i = 0; i < nrows; i++) {
		const struct mr_rd_case *k = &N->k[rows[i].kn];
		const struct row *r = &rows[i];
		char pct[32], a[48], b[48];

		if (ki >= 0 && r->kn != ki)
			continue;

		mr_cmp_pct(pct, sizeof pct, r->pct);
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
		} else if (BEYOND(r)) {
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
	return ferror(f) ? -1 : 0;
}

/* Case ki's chart from its own rows (gnuplot reads its input once per
 * line drawn), written beside the images under a temporary name and
 * removed after. */
static int
draw_case(struct mr_plot *p, const struct mr_cmp_chart *o, const struct mr_rd *N,
	  const struct row *rows, int nrows, const struct clay *L, int ki,
	  const char *base, const char *const *args)
{
	char *in = esprintf("%s.tsv", base), *tmp = mr_of_tmpname(in);
	FILE *f = mr_create_out(tmp);
	int rc = -1, wrc;

	if (!f) {
		weprintf("create %s:", tmp);
	} else {
		/* the file is closed whether the rows were written or not */
		wrc = mr_cmp_write_rows(f, N, rows, nrows, o->old_dir, L, ki);
		if (fclose(f) != 0 || wrc < 0)
			weprintf("write %s:", tmp);
		else
			rc = mr_plot_draw(p, "compare", tmp, base, args);
	}
	unlink(tmp);
	free(tmp);
	free(in);
	return rc;
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

int
mr_cmp_draw(const struct mr_cmp_chart *o, const struct mr_rd *N, const struct row *rows,
	    int nrows, const char *outdir, const struct clay *L)
{
	struct mr_plot p;
	int rc = 0, i, j;

	if (mr_plot_init(&p, o->plots_dir, o->verbose) < 0)
		return -1;
	for (i = 0; i < N->nk; i++) {
		const struct mr_rd_case *k = &N->k[i];
		const struct clay *c = &L[i];
		struct strbuf title = {0}, note = {0}, foot = {0};
		int n = 0, worse = 0, better = 0, notcmp = 0;
		double xmin = c->xmin, xmax = c->xmax;
		char *base, layout[128], fail[32] = "";

		/* a case only in NEW: said on the terminal, no empty chart */
		if (o->old && !mr_rd_case(o->old, k->name))
			continue;
		for (j = 0; j < nrows; j++) {
			const struct row *r = &rows[j];

			if (r->kn != i)
				continue;
			n++;
			worse += r->change == WORSE;
			better += r->change == BETTER;
			notcmp += r->change == NOTCMP;
		}
		sb_printf(&title, "%s: change of the medians, ", k->name);
		short_dir(&title, o->old_dir, o->new_dir);
		sb_add(&title, " -> ");
		short_dir(&title, o->new_dir, o->old_dir);
		if (!n)
			sb_add(&note, "no config of this case measured a figure in both directories");
		else
			/* one line within the plot's width (~110 characters): the
			 * test is named only when the line has room for it */
			sb_printf(&note, "%d config%s, %d figures: %d worse, %d better beyond the noise%s",
				  c->ncfg, c->ncfg == 1 ? "" : "s", n, worse, better,
				  notcmp == n ? "; none compared: too few repeats" :
				  notcmp ? "; some not compared: too few repeats" :
				  " (Mann-Whitney U, p < 0.05)");
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

			if (draw_case(&p, o, N, rows, nrows, L, i, base, args) < 0)
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
