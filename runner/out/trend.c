#include "out/trend.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "check/config.h"
#include "check/figures.h"
#include "out/charts.h"
#include "out/compare.h"
#include "out/plot.h"
#include "results/read.h"
#include "check/stats.h"
#include "core/util.h"

/* Steps kept per series (a nightly history rarely has more). */
#define MAX_STEPS 16
/* The figures of a case's chart, and its rows of panels: more figures
 * with a change are counted under the chart, not drawn. */
#define MAX_FIGS 6
#define MAX_ROWS 6
/* Lines of one panel: a group of more is split in parts. */
#define MAX_LINES 4
/* Columns of panels when each figure has one panel. */
#define MAX_COLS 3
/* The characters of a legend entry, of a panel's title line, of a tick. */
#define LEGEND_MAX 40
#define PTITLE_MAX 40
#define TICK_MAX 14
/* ... and by this many times the repeats' typical range. */
#define NOISE_K 3.0

/* One (case, config, figure) over the directories. */
struct series {
	char *kase;      /* case name */
	char *config;    /* canonical config */
	char *label;     /* short form (in the newest directory that has it) */
	int cfg;         /* config index in that directory's case, from 1 */
	struct mr_ref ref; /* checkpoint owned */
	char *what;      /* "rss_kb@cleared" */
	double *med, *min, *max; /* per directory, NAN when absent */
	int *n;
	int *step;       /* per directory: 1 at the first point after a step */
	int nsteps;
	struct mr_st_step steps[MAX_STEPS];
	int changed;     /* last vs first median beyond the noise */
	double score;    /* the largest relative change (a step's or the
	                    last vs the first), for the panels' order */
	int panel;       /* its panel in its case's chart, 0: not drawn */
	int colour;      /* its colour there, from 1 */
};

/* A case's chart, laid out. */
struct tlay {
	const char *kase;   /* into a series */
	char *key;          /* the key figure's name, NULL: none */
	char *panels;       /* the panel axis */
	int nfig;
	const char *fig[MAX_FIGS]; /* into series */
	int npg;            /* panels per figure: groups, parts of them */
	char **pgtitle;     /* [npg] */
	char *empty;        /* [nfig * npg + 1]: '1' for a panel without a
	                       point (its group did not measure its figure) */
	int ncol;           /* colours */
	char **clabel;      /* [ncol] */
	int nmore;          /* figures with a change not drawn */
	int nchanged;       /* figures with a change or a step */
	int nsteps;
};

struct ctx {
	const char *metric;
	double noise;
};

static double
threshold(double level, void *p)
{
	const struct ctx *c = p;

	return fmax(NOISE_K * c->noise, mr_st_min_change(c->metric, level));
}

static const char *
metric_of(const struct mr_ref *r)
{
	return r->ckpt ? mr_ckpt_metrics[r->metric] : mr_run_metrics[r->metric];
}

/* Index of the series of (case, config, what), or -1. */
static int
find_series(const struct series *s, int n, const char *kase, const char *config,
	    const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].kase, kase) && !strcmp(s[i].config, config) &&
		    !strcmp(s[i].what, what))
			return i;
	return -1;
}

static int
by_started(const void *a, const void *b)
{
	const struct mr_rd *x = *(const struct mr_rd *const *)a;
	const struct mr_rd *y = *(const struct mr_rd *const *)b;
	const char *sx = mr_rd_env(x, "started"), *sy = mr_rd_env(y, "started");
	int c = strcmp(sx ? sx : "", sy ? sy : "");

	/* equal times keep the order given (the pointers are in it) */
	return c ? c : (x > y) - (x < y);
}

/* The last path component of dir, for tick labels. */
static const char *
base_name(const char *dir)
{
	size_t n = strlen(dir);
	const char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (p = dir + n; p > dir && p[-1] != '/'; p--)
		;
	return p;
}

/* s onto b, '|' (the chart's separator) and newlines as '/' and ' ', at
 * most max characters (UTF-8): a longer s cut, its last an ellipsis. */
static void
add_cut(struct strbuf *b, const char *s, size_t max)
{
	size_t n = 0, nc = 0;
	const char *p;

	for (p = s; *p; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;
	for (; *s; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80 && n > max && ++nc > max - 1) {
			sb_add(b, "\xe2\x80\xa6");
			return;
		}
		sb_addn(b, *s == '|' ? "/" : *s == '\n' || *s == '\t' ? " " : s, 1);
	}
}

/* s as the next item of a '|'-separated list in b. */
static void
add_item(struct strbuf *b, const char *s, size_t max)
{
	if (b->len)
		sb_add(b, "|");
	add_cut(b, s, max);
}

static int
write_tsv(const char *path, struct mr_rd *const *R, int nr, const struct series *s,
	  int ns)
{
	FILE *f = mr_create_out(path);
	int i, t;

	if (!f) {
		weprintf("create %s:", path);
		return -1;
	}
	fprintf(f, "# memrepro trend: medians per results directory, steps marked\n");
	fprintf(f, "case\tconfig\tlabel\tcfg\tcheckpoint\tmetric\twhat\tindex\tdir\tstarted\t"
		   "median\tmin\tmax\tn\tstep\tplot\tplot_min\tplot_max\tchanged\tpanel\tcolour\n");
	for (i = 0; i < ns; i++) {
		for (t = 0; t < nr; t++) {
			const char *st = mr_rd_env(R[t], "started");
			const char *metric = metric_of(&s[i].ref);
			size_t ml = strlen(metric);
			double scale = ml > 3 && !strcmp(metric + ml - 3, "_kb") ? 1024 : 1;

			if (isnan(s[i].med[t]))
				continue;
			fprintf(f, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%.17g\t%.17g\t%.17g\t%d\t%d\t%.17g\t",
				s[i].kase, s[i].config, s[i].label, s[i].cfg,
				s[i].ref.ckpt ? s[i].ref.checkpoint : "-", metric, s[i].what,
				t + 1, R[t]->dir, st ? st : "-", s[i].med[t], s[i].min[t],
				s[i].max[t], s[i].n[t], s[i].step[t], s[i].med[t] / scale);
			fprintf(f, "%.17g\t%.17g\t%d\t%d\t%d\n", s[i].min[t] / scale,
				s[i].max[t] / scale, s[i].changed, s[i].panel, s[i].colour);
		}
	}
	if (ferror(f) | (fclose(f) != 0)) {
		weprintf("write %s:", path);
		return -1;
	}
	return 0;
}

/* Has the series a median in any directory?  (A case whose runs were all
 * skipped has figures but no values: a panel of it would be empty.) */
static int
measured(const struct series *x, int nr)
{
	int t;

	for (t = 0; t < nr; t++)
		if (!isnan(x->med[t]))
			return 1;
	return 0;
}

/* Index of str in v[0..n-1], or -1. */
static int
index_of(char *const *v, int n, const char *str)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], str))
			return i;
	return -1;
}

/* The figures of case T->kase to draw: its key figure, then those with a
 * step, then those whose last median moved beyond the noise, each by its
 * largest relative change; as many as MAX_FIGS and maxfig allow, the
 * others counted in T->nmore. */
static void
choose_figures(struct tlay *T, const struct series *s, int ns, int nr, int maxfig)
{
	const char **cand = ecalloc(ns + 1, sizeof *cand);
	double *score = ecalloc(ns + 1, sizeof *score);
	int *stepped = ecalloc(ns + 1, sizeof *stepped), nc = 0, i, j, haskey = 0;

	for (i = 0; i < ns; i++) {
		const struct series *x = &s[i];

		if (strcmp(x->kase, T->kase) || !measured(x, nr))
			continue;
		T->nsteps += x->nsteps;
		if (T->key && !strcmp(x->what, T->key))
			haskey = 1;
		if (!x->nsteps && !x->changed)
			continue;
		for (j = 0; j < nc && strcmp(cand[j], x->what); j++)
			;
		if (j == nc) {
			cand[nc++] = x->what;
			score[j] = 0;
		}
		stepped[j] |= x->nsteps > 0;
		score[j] = fmax(score[j], x->score);
	}
	T->nchanged = nc;
	/* by steps, then score: insertion sort (a case has few) */
	for (i = 1; i < nc; i++)
		for (j = i; j > 0 && (stepped[j] > stepped[j - 1] ||
				      (stepped[j] == stepped[j - 1] && score[j] > score[j - 1])); j--) {
			const char *c = cand[j];
			double sc = score[j];
			int st = stepped[j];

			cand[j] = cand[j - 1];
			score[j] = score[j - 1];
			stepped[j] = stepped[j - 1];
			cand[j - 1] = c;
			score[j - 1] = sc;
			stepped[j - 1] = st;
		}
	if (maxfig > MAX_FIGS)
		maxfig = MAX_FIGS;
	if (maxfig < 1)
		maxfig = 1;
	T->nfig = 0;
	if (haskey)
		T->fig[T->nfig++] = T->key;
	for (i = 0; i < nc; i++) {
		if (haskey && !strcmp(cand[i], T->key))
			continue;
		if (T->nfig < maxfig)
			T->fig[T->nfig++] = cand[i];
		else
			T->nmore++;
	}
	free(cand);
	free(score);
	free(stepped);
}

/* Does panel group a come before b?  glibc first (the allocators are
 * measured against it), then by name, numbers by value; the values are
 * distinct. */
static int
group_before(const char *a, const char *b)
{
	const char *ea = strchr(a, '='), *eb = strchr(b, '=');

	if (strcmp(a, b) && (!strcmp(a, "glibc") || !strcmp(b, "glibc")))
		return !strcmp(a, "glibc");
	/* key=number: by the number (mb=2 before mb=10) */
	if (ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a))) {
		char *xa, *xb;
		double x = strtod(ea + 1, &xa), y = strtod(eb + 1, &xb);

		if (xa != ea + 1 && !*xa && xb != eb + 1 && !*xb && x != y)
			return x < y;
	}
	return strcmp(a, b) < 0;
}

/* Order the groups gval[0..ng-1] (group_before), renumbering the
 * configs' cgrp[0..nc-1]. */
static void
sort_groups(char **gval, int ng, int *cgrp, int nc)
{
	int *rank = ecalloc(ng + 1, sizeof *rank), a, b, i;
	char **sorted = ecalloc(ng + 1, sizeof *sorted);

	for (a = 0; a < ng; a++)
		for (b = 0; b < ng; b++)
			rank[a] += b != a && group_before(gval[b], gval[a]);
	for (i = 0; i < nc; i++)
		cgrp[i] = rank[cgrp[i]];
	for (a = 0; a < ng; a++)
		sorted[rank[a]] = gval[a];
	memcpy(gval, sorted, sizeof *gval * ng);
	free(sorted);
	free(rank);
}

/* T's panels per figure: each group's colours (ccol[], from 1) in parts
 * of at most MAX_LINES, the part of config i into cpg[i]. */
static void
split_groups(struct tlay *T, const char *const *gval, int ng, const int *cgrp,
	     const int *ccol, int *cpg, int nc)
{
	int g, i;

	/* each group's colours in parts of at most MAX_LINES */
	T->pgtitle = ecalloc(nc + 1, sizeof *T->pgtitle);
	for (g = 0; g < ng; g++) {
		int m = 0, parts, per, c, part, first = T->npg;

		for (c = 1; c <= T->ncol; c++)
			for (i = 0; i < nc; i++)
				if (cgrp[i] == g && ccol[i] == c) {
					m++;
					break;
				}
		parts = (m + MAX_LINES - 1) / MAX_LINES;
		per = parts ? (m + parts - 1) / parts : 1;
		for (part = 0; part < parts; part++)
			T->pgtitle[T->npg++] = parts > 1 ?
				esprintf("%s%s(%d of %d)", gval[g], *gval[g] ? " " : "", part + 1, parts) :
				estrdup(gval[g]);
		for (m = 0, c = 1; c <= T->ncol; c++) {
			int in = 0;

			for (i = 0; i < nc; i++)
				if (cgrp[i] == g && ccol[i] == c) {
					cpg[i] = first + m / per;
					in = 1;
				}
			m += in;
		}
	}
}

/* Lay out case T->kase's chart: panels per figure by the panel axis
 * (allocator unless the figures file says otherwise), the other axes as
 * colours (the same in every panel), a group of more than MAX_LINES
 * colours split in parts; then the figures, and each series' panel and
 * colour. */
static void
lay_case(struct tlay *T, struct series *s, int ns, int nr, const char *panel_axis)
{
	char **cstr = ecalloc(ns + 1, sizeof *cstr), **gval = ecalloc(ns + 1, sizeof *gval);
	struct mr_config *cf = ecalloc(ns + 1, sizeof *cf);
	int *ccol = ecalloc(ns + 1, sizeof *ccol), *cgrp = ecalloc(ns + 1, sizeof *cgrp);
	int *cpg = ecalloc(ns + 1, sizeof *cpg), nc = 0, ng = 0, nax, pax = -1, i, j, g;
	const char *skip = NULL;
	struct mr_axis *ax;
	const char *why;

	/* the case's configs, newest first */
	for (i = 0; i < ns; i++)
		if (!strcmp(s[i].kase, T->kase) && measured(&s[i], nr) &&
		    index_of(cstr, nc, s[i].config) < 0) {
			cstr[nc] = s[i].config;
			if (mr_config_parse(cstr[nc], &cf[nc], &why) < 0)
				memset(&cf[nc], 0, sizeof cf[nc]);
			nc++;
		}
	nax = mr_config_axes(cf, nc, &ax);
	for (i = 0; i < nax; i++)
		if (!strcmp(ax[i].key, panel_axis))
			pax = i;
	/* panels of one line each, and few of them: one panel reads better */
	if (pax >= 0 && nax == 1 && ax[pax].nval <= MAX_LINES)
		pax = -1;
	if (pax >= 0)
		skip = ax[pax].key;
	T->clabel = ecalloc(nc + 1, sizeof *T->clabel);
	for (i = 0; i < nc; i++) {
		char *l = mr_cmp_short(cf, nc, i, skip);

		if ((j = index_of(T->clabel, T->ncol, l)) < 0) {
			T->clabel[T->ncol] = l;
			j = T->ncol++;
		} else {
			free(l);
		}
		ccol[i] = j + 1;
		/* the group: the panel axis' value */
		{
			const char *v = pax >= 0 ? mr_config_get(&cf[i], ax[pax].key) : NULL;
			const char *key = pax >= 0 ? ax[pax].key : "", *dot = strrchr(key, '.');
			/* the allocator bare, another axis as key=value */
			char *gv = pax < 0 ? estrdup("") :
				   !strcmp(key, "allocator") && v ? estrdup(v) :
				   v ? esprintf("%s=%s", dot ? dot + 1 : key, v)
				     : esprintf("%s unset", dot ? dot + 1 : key);

			if ((g = index_of(gval, ng, gv)) < 0) {
				gval[ng] = gv;
				g = ng++;
			} else {
				free(gv);
			}
			cgrp[i] = g;
		}
	}
	sort_groups(gval, ng, cgrp, nc);
	split_groups(T, (const char *const *)gval, ng, cgrp, ccol, cpg, nc);
	{
		int rows_per_fig = T->npg > 1 ? (T->npg + 3) / 4 : 1;

		choose_figures(T, s, ns, nr, T->npg > 1 ? MAX_ROWS / rows_per_fig : MAX_FIGS);
	}
	T->empty = emalloc(T->nfig * T->npg + 1);
	memset(T->empty, '1', T->nfig * T->npg);
	T->empty[T->nfig * T->npg] = '\0';
	for (i = 0; i < ns; i++) {
		int f, ci;

		if (strcmp(s[i].kase, T->kase) || (ci = index_of(cstr, nc, s[i].config)) < 0)
			continue;
		for (f = 0; f < T->nfig && strcmp(T->fig[f], s[i].what); f++)
			;
		s[i].colour = ccol[ci];
		s[i].panel = f < T->nfig ? f * T->npg + cpg[ci] + 1 : 0;
		if (s[i].panel && measured(&s[i], nr))
			T->empty[s[i].panel - 1] = '0';
	}
	for (i = 0; i < nc; i++)
		mr_config_free(&cf[i]);
	for (g = 0; g < ng; g++)
		free(gval[g]);
	mr_config_axes_free(ax, nax);
	free(cf);
	free(cstr);
	free(gval);
	free(ccol);
	free(cgrp);
	free(cpg);
}

static void
tlay_free(struct tlay *T)
{
	int i;

	free(T->key);
	free(T->panels);
	free(T->empty);
	for (i = 0; i < T->npg; i++)
		free(T->pgtitle[i]);
	free(T->pgtitle);
	for (i = 0; i < T->ncol; i++)
		free(T->clabel[i]);
	free(T->clabel);
}

/* The ticks of the directories: their start times ("12-01 13:33"; the
 * date alone when every one is at the same time of day, the time alone
 * when all are of one day; with the seconds where two share a minute),
 * else their names. */
static void
ticks_of(struct strbuf *b, struct mr_rd *const *R, int nr)
{
	int t, u, secs = 0, dates = 1, oneday = 1, onetime = 1;

	for (t = 0; t < nr; t++) {
		const char *st = mr_rd_env(R[t], "started");

		/* 2026-12-01T13:33:17Z */
		if (!st || strlen(st) < 19 || st[4] != '-' || st[10] != 'T')
			dates = 0;
	}
	for (t = 0; dates && t < nr; t++)
		for (u = 0; u < t; u++) {
			const char *a = mr_rd_env(R[t], "started"), *c = mr_rd_env(R[u], "started");

			secs |= !strncmp(a, c, 16);
			oneday &= !strncmp(a, c, 10);
			onetime &= !strncmp(a + 11, c + 11, 8);
		}
	for (t = 0; t < nr; t++) {
		if (dates) {
			const char *st = mr_rd_env(R[t], "started");
			char buf[32];

			if (onetime && !oneday)
				snprintf(buf, sizeof buf, "%.5s", st + 5);
			else if (oneday && !secs)
				snprintf(buf, sizeof buf, "%.5s", st + 11);
			else if (oneday)
				snprintf(buf, sizeof buf, "%.8s", st + 11);
			else
				snprintf(buf, sizeof buf, "%.5s %.*s", st + 5, secs ? 8 : 5, st + 11);
			add_item(b, buf, TICK_MAX + 4);
		} else {
			add_item(b, base_name(R[t]->dir), TICK_MAX);
		}
	}
}

/* Is the chart's first figure the key figure? */
static int
has_key(const struct tlay *L)
{
	return L->key && L->nfig && !strcmp(L->fig[0], L->key);
}

static int
draw(const struct mr_trend_opts *o, struct mr_rd *const *R, int nr,
     const struct tlay *T, int nt, const char *tsv, const char *outdir)
{
	struct mr_plot p;
	struct strbuf ticks = {0};
	int rc = 0, i, f, g;

	if (mr_plot_init(&p, o->plots_dir, o->verbose) < 0)
		return -1;
	ticks_of(&ticks, R, nr);
	for (i = 0; i < nt; i++) {
		const struct tlay *L = &T[i];
		struct strbuf title = {0}, pt = {0}, leg = {0}, foot = {0};
		char *layout, *base;
		int cols;

		sb_printf(&title, "%s: medians over %d results directories\n", L->kase, nr);
		if (L->nfig == 0)
			sb_add(&title, "no run of this case measured anything (skipped or failed)");
		else if (!L->nchanged)
			sb_printf(&title, "no step change, no figure moved beyond the noise: %s",
				  has_key(L) ? "the key figure alone" : "its first figure");
		else
			sb_printf(&title, "%d step %s; %d figure%s stepped or moved beyond the noise%s",
				  L->nsteps, L->nsteps == 1 ? "change" : "changes", L->nchanged,
				  L->nchanged == 1 ? "" : "s",
				  has_key(L) ? " (the key figure first)" : "");
		for (f = 0; f < L->nfig; f++)
			for (g = 0; g < L->npg; g++) {
				if (f || g)
					sb_add(&pt, "|");
				add_cut(&pt, L->fig[f], PTITLE_MAX);
				if (*L->pgtitle[g]) {
					sb_add(&pt, "\n");
					add_cut(&pt, L->pgtitle[g], PTITLE_MAX);
				}
			}
		for (g = 0; g < L->ncol; g++)
			add_item(&leg, L->clabel[g], LEGEND_MAX);
		if (L->nmore)
			sb_printf(&foot, "+%d more figure%s with a step or a change beyond the noise in trend.tsv",
				  L->nmore, L->nmore == 1 ? "" : "s");
		else
			sb_add(&foot, "");
		if (L->npg > 1)
			cols = (L->npg + (L->npg + 3) / 4 - 1) / ((L->npg + 3) / 4);
		else
			cols = L->nfig < MAX_COLS ? L->nfig : MAX_COLS;
		layout = esprintf("%d %d %d %d %d %s", L->nfig * L->npg, L->npg, L->nfig,
				  cols > 0 ? cols : 1, L->ncol, L->nfig ? L->empty : "-");
		sb_add(&pt, "");
		sb_add(&leg, "");
		base = esprintf("%s/%s.trend", outdir, L->kase);
		{
			const char *args[] = { L->kase, title.s, layout, pt.s, leg.s, ticks.s,
					       foot.s, NULL };

			if (mr_plot_draw(&p, "trend", tsv, base, args) < 0)
				rc = -1;
		}
		free(base);
		free(layout);
		sb_free(&title);
		sb_free(&pt);
		sb_free(&leg);
		sb_free(&foot);
	}
	sb_free(&ticks);
	mr_plot_free(&p);
	return rc;
}

/* A new series of case k's config c and figure ref (what: its name,
 * moved in), with nr directories' medians to come, at the end of *s. */
static struct series *
new_series(struct series **s, int *ns, const struct mr_rd_case *k, int c,
	   const struct mr_ref *ref, char *what, int nr)
{
	struct series *x;
	int j;

	*s = erealloc(*s, sizeof **s * (*ns + 1));
	x = &(*s)[(*ns)++];
	memset(x, 0, sizeof *x);
	x->kase = estrdup(k->name);
	x->config = estrdup(k->conf[c].str);
	x->label = estrdup(k->cfg[c].label);
	x->cfg = c + 1;
	x->ref = *ref;
	if (x->ref.checkpoint)
		x->ref.checkpoint = estrdup(x->ref.checkpoint);
	x->what = what;
	x->med = emalloc(sizeof *x->med * nr);
	x->min = emalloc(sizeof *x->min * nr);
	x->max = emalloc(sizeof *x->max * nr);
	x->n = ecalloc(nr, sizeof *x->n);
	x->step = ecalloc(nr, sizeof *x->step);
	for (j = 0; j < nr; j++)
		x->med[j] = x->min[j] = x->max[j] = NAN;
	return x;
}

/* Directory t's median, min and max of ref for case k's config c into
 * its series (a new one when there is none). */
static void
add_point(struct series **s, int *ns, const struct mr_rd_case *k, int c,
	  const struct mr_ref *ref, int t, int nr)
{
	char *what = mr_rd_ref_name(ref);
	int n, idx = find_series(*s, *ns, k->name, k->conf[c].str, what);
	struct series *x;
	double *v;

	if (idx < 0) {
		x = new_series(s, ns, k, c, ref, what, nr);
	} else {
		x = &(*s)[idx];
		free(what);
	}
	n = mr_rd_values(k, c, ref, &v);
	if (n > 0) {
		x->min[t] = v[0];
		x->max[t] = v[n - 1];
		x->med[t] = mr_st_median(v, n);
		x->n[t] = n;
	}
	free(v);
}

/* Every series of the nr directories R (by start time) into *s, in order
 * of appearance from the newest directory back (its configs' numbering
 * colours the chart), with each directory's median, min and max.
 * Returns their number. */
static int
collect_series(struct mr_rd *const *R, int nr, struct series **s)
{
	int ns = 0, i, c, m, t;

	for (t = nr - 1; t >= 0; t--) {
		for (i = 0; i < R[t]->nk; i++) {
			const struct mr_rd_case *k = &R[t]->k[i];

			for (c = 0; c < k->ncfg; c++) {
				struct mr_ref *refs;
				int nref = mr_rd_figures(k, c, &refs);

				for (m = 0; m < nref; m++)
					add_point(s, &ns, k, c, &refs[m], t, nr);
				free(refs);
			}
		}
	}
	return ns;
}

/* The cases of the series into a fresh *out, each with its key
 * figure (the figures file's in expected_dir, else rss_kb at the newest
 * directory's last checkpoint: out/charts.h) and its panel axis; a key
 * figure trend does not follow by itself (peak_rss_kb) is added to *s.
 * Returns how many. */
static int
lay_cases(const struct mr_trend_opts *o, struct mr_rd *const *R, int nr,
	  struct series **s, int *ns, struct tlay **out)
{
	int n = 0, i, j, t, c;

	*out = NULL;
	for (i = 0; i < *ns; i++) {
		for (j = 0; j < n && strcmp((*out)[j].kase, (*s)[i].kase); j++)
			;
		if (j < n)
			continue;
		*out = erealloc(*out, sizeof **out * (n + 1));
		memset(&(*out)[n], 0, sizeof **out);
		(*out)[n++].kase = (*s)[i].kase;
	}
	for (j = 0; j < n; j++) {
		struct tlay *T = &(*out)[j];
		struct mr_figs fs;
		int loaded = o->expected_dir ? mr_figs_load(o->expected_dir, T->kase, &fs) : 1;
		struct mr_ref ref = {0};

		if (!o->expected_dir)
			memset(&fs, 0, sizeof fs);
		for (t = nr - 1; t >= 0; t--) {
			const struct mr_rd_case *k = mr_rd_case(R[t], T->kase);

			if (!k)
				continue;
			if (!T->key) {
				mr_chart_key_ref(k, loaded == 0 ? &fs : NULL, &ref);
				T->key = mr_rd_ref_name(&ref);
			}
			/* the key figure in every directory, under its own name */
			for (c = 0; c < k->ncfg; c++) {
				struct mr_ref r2 = ref;

				if (ref.ckpt && !strcmp(ref.checkpoint, "-"))
					break;
				add_point(s, ns, k, c, &r2, t, nr);
			}
		}
		T->panels = estrdup(loaded == 0 && fs.panels ? fs.panels : "allocator");
		mr_figs_free(&fs);
	}
	return n;
}

/* |b - a| relative to |a|; from 0: large. */
static double
rel_change(double a, double b)
{
	return a != 0 ? fabs(b - a) / fabs(a) : b != 0 ? 1e9 : 0;
}

/* The steps of each series, over the directories that measured it.
 * Returns their total. */
static int
find_steps(struct series *s, int ns, int nr)
{
	int total = 0, i, j, t;

	for (i = 0; i < ns; i++) {
		struct series *x = &s[i];
		double *m2 = emalloc(sizeof *m2 * nr), *rg = emalloc(sizeof *rg * nr);
		int *at = emalloc(sizeof *at * nr), np = 0;
		struct ctx cx = { metric_of(&x->ref), 0 };

		for (t = 0; t < nr; t++) {
			if (isnan(x->med[t]))
				continue;
			rg[np] = x->max[t] - x->min[t];
			at[np] = t;
			m2[np++] = x->med[t];
		}
		if (np >= 2) {
			cx.noise = mr_st_median(rg, np);
			x->nsteps = mr_st_steps(m2, np, threshold, &cx, x->steps, MAX_STEPS);
			for (j = 0; j < x->nsteps; j++) {
				const struct mr_st_step *st = &x->steps[j];

				x->steps[j].at = at[x->steps[j].at];
				x->step[x->steps[j].at] = 1;
				x->score = fmax(x->score, rel_change(st->before, st->after));
			}
			/* a drift no single step explains: the last against the first */
			x->changed = fabs(m2[np - 1] - m2[0]) > threshold(m2[0], &cx);
			if (x->changed)
				x->score = fmax(x->score, rel_change(m2[0], m2[np - 1]));
		}
		total += x->nsteps;
		free(m2);
		free(rg);
		free(at);
	}
	return total;
}

/* The directories, each step (and with verbose each series without
 * one, its medians) and the count, on f. */
static void
print_steps(FILE *f, int verbose, struct mr_rd *const *R, int nr, const struct series *s,
	    int ns, int total)
{
	int i, j, t;

	fprintf(f, "trend over %d results directories (by start time):\n", nr);
	for (t = 0; t < nr; t++) {
		const char *st = mr_rd_env(R[t], "started");

		fprintf(f, "  %d  %s  %s\n", t + 1, st ? st : "-", R[t]->dir);
	}
	for (i = 0; i < ns; i++) {
		const struct series *x = &s[i];

		for (j = 0; j < x->nsteps; j++) {
			const struct mr_st_step *st = &x->steps[j];
			char a[48], b[48];

			fprintf(f, "%s  %s  %s: step at %d (%s): %s -> %s", x->kase, x->label,
				x->what, st->at + 1, R[st->at]->dir, mr_fmt_num(a, st->before),
				mr_fmt_num(b, st->after));
			if (st->before != 0)
				fprintf(f, " (%+.1f %%)", 100 * (st->after - st->before) /
							       fabs(st->before));
			fputc('\n', f);
		}
		if (verbose && !x->nsteps) {
			fprintf(f, "%s  %s  %s: no step:", x->kase, x->label, x->what);
			for (t = 0; t < nr; t++) {
				char a[48];

				fprintf(f, " %s", isnan(x->med[t]) ? "-" : mr_fmt_num(a, x->med[t]));
			}
			fputc('\n', f);
		}
	}
	fprintf(f, "%d series, %d step %s (binary segmentation of the medians: a shift over "
		   "max(3 x the repeats' range, the metric's smallest change))\n",
		ns, total, total == 1 ? "change" : "changes");
}

static void
free_series(struct series *s, int ns)
{
	int i;

	for (i = 0; i < ns; i++) {
		free(s[i].kase);
		free(s[i].config);
		free(s[i].label);
		free(s[i].ref.checkpoint);
		free(s[i].what);
		free(s[i].med);
		free(s[i].min);
		free(s[i].max);
		free(s[i].n);
		free(s[i].step);
	}
	free(s);
}

int
mr_trend(const struct mr_trend_opts *o)
{
	struct mr_rd *all = ecalloc(o->ndirs + 1, sizeof *all), **R;
	struct series *s = NULL;
	struct tlay *T = NULL;
	char *outdir = NULL, *tsv = NULL;
	int ns = 0, nr = o->ndirs, rc = MR_USAGE, nt = 0, i, t, total;
	FILE *f = o->out;

	R = ecalloc(nr + 1, sizeof *R);
	for (t = 0; t < nr; t++) {
		R[t] = &all[t];
		if (mr_rd_load(&all[t], o->dirs[t]) < 0) {
			goto out;
		}
	}
	qsort(R, nr, sizeof *R, by_started);
	ns = collect_series(R, nr, &s);
	nt = lay_cases(o, R, nr, &s, &ns, &T);
	total = find_steps(s, ns, nr);
	for (i = 0; i < nt; i++)
		lay_case(&T[i], s, ns, nr, T[i].panels);
	print_steps(f, o->verbose, R, nr, s, ns, total);
	outdir = o->out_dir ? estrdup(o->out_dir) : mr_rd_path(R[nr - 1]->dir, "trend");
	if ((i = mr_mkdir_out(outdir)) < 0) {
		errno = -i;
		weprintf("create %s:", outdir);
		rc = MR_FAILED;
		goto out;
	}
	tsv = mr_rd_path(outdir, "trend.tsv");
	rc = MR_OK;
	if (write_tsv(tsv, R, nr, s, ns) < 0)
		rc = MR_FAILED;
	else if (o->plots_dir && draw(o, R, nr, T, nt, tsv, outdir) < 0)
		rc = MR_FAILED;
	fprintf(f, "table and charts: %s\n", outdir);
out:
	for (i = 0; i < nt; i++)
		tlay_free(&T[i]);
	free(T);
	free_series(s, ns);
	free(tsv);
	free(outdir);
	for (t = 0; t < o->ndirs; t++)
		mr_rd_free(&all[t]);
	free(all);
	free(R);
	return rc;
}
