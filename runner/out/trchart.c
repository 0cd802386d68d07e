/* trchart: a case's trend chart (trend.h): which figures, the panels by
 * the panel axis, the colours, and the chart drawn from the case's own
 * rows. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/config.h"
#include "core/util.h"
#include "out/cmpchart.h"
#include "out/outfile.h"
#include "out/plot.h"
#include "out/trchart.h"
#include "proto/schema.h"

/* The figures of a case's chart, and its rows of panels: more figures
 * with a change are counted under the chart, not drawn. */
#define MAX_ROWS 6
/* Lines of one panel: a group of more is split in parts. */
#define MAX_LINES 4
/* Columns of panels when each figure has one panel. */
#define MAX_COLS 3
/* The characters of a legend entry, of a panel's title line, of a tick. */
#define LEGEND_MAX 40
#define PTITLE_MAX 40
#define TICK_MAX 14

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

int
mr_tr_measured(const struct series *x, int nr)
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
 * largest relative change; as many as MR_TR_MAX_FIGS and maxfig allow, the
 * others counted in T->nmore. */
static void
choose_figures(struct tlay *T, const struct series *s, int ns, int nr, int maxfig)
{
	const char **cand = ecalloc(ns + 1, sizeof *cand);
	double *score = ecalloc(ns + 1, sizeof *score);
	int *stepped = ecalloc(ns + 1, sizeof *stepped), nc = 0, i, j, haskey = 0;

	for (i = 0; i < ns; i++) {
		const struct series *x = &s[i];

		if (strcmp(x->kase, T->kase) || !mr_tr_measured(x, nr))
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
	if (maxfig > MR_TR_MAX_FIGS)
		maxfig = MR_TR_MAX_FIGS;
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

	if (strcmp(a, b) && (!strcmp(a, MR_ALLOC_GLIBC) || !strcmp(b, MR_ALLOC_GLIBC)))
		return !strcmp(a, MR_ALLOC_GLIBC);
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
void
mr_tr_lay_case(struct tlay *T, struct series *s, int ns, int nr, const char *panel_axis)
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
		if (!strcmp(s[i].kase, T->kase) && mr_tr_measured(&s[i], nr) &&
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

		choose_figures(T, s, ns, nr, T->npg > 1 ? MAX_ROWS / rows_per_fig : MR_TR_MAX_FIGS);
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
		if (s[i].panel && mr_tr_measured(&s[i], nr))
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

void
mr_tr_tlay_free(struct tlay *T)
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
		const char *st = mr_rd_env(R[t], MR_ENVK_STARTED);

		/* 2026-12-01T13:33:17Z */
		if (!st || strlen(st) < 19 || st[4] != '-' || st[10] != 'T')
			dates = 0;
	}
	for (t = 0; dates && t < nr; t++)
		for (u = 0; u < t; u++) {
			const char *a = mr_rd_env(R[t], MR_ENVK_STARTED), *c = mr_rd_env(R[u], MR_ENVK_STARTED);

			secs |= !strncmp(a, c, 16);
			oneday &= !strncmp(a, c, 10);
			onetime &= !strncmp(a + 11, c + 11, 8);
		}
	for (t = 0; t < nr; t++) {
		if (dates) {
			const char *st = mr_rd_env(R[t], MR_ENVK_STARTED);
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

/* Case kase's chart from its own drawn rows (gnuplot reads its input
 * once per panel and line: the whole trend.tsv made minutes of it),
 * written beside the images under a temporary name and removed after. */
static int
draw_case(struct mr_plot *p, struct mr_rd *const *R, int nr, const struct series *s,
	  int ns, const char *kase, const char *base, const char *const *args)
{
	char *in = esprintf("%s.tsv", base), *tmp = mr_of_tmpname(in);
	FILE *f = mr_create_out(tmp);
	int rc = -1, wrc;

	if (!f) {
		weprintf("create %s:", tmp);
	} else {
		/* the file is closed whether the rows were written or not */
		wrc = mr_tr_write_rows(f, R, nr, s, ns, kase);
		if (fclose(f) != 0 || wrc < 0)
			weprintf("write %s:", tmp);
		else
			rc = mr_plot_draw(p, "trend", tmp, base, args);
	}
	unlink(tmp);
	free(tmp);
	free(in);
	return rc;
}

int
mr_tr_draw(const char *plots_dir, int verbose, struct mr_rd *const *R, int nr,
	   const struct tlay *T, int nt, const struct series *s, int ns,
	   const char *outdir)
{
	struct mr_plot p;
	struct strbuf ticks = {0};
	int rc = 0, i, f, g;

	if (mr_plot_init(&p, plots_dir, verbose) < 0)
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

			if (draw_case(&p, R, nr, s, ns, L->kase, base, args) < 0)
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

static const char *
metric_of(const struct mr_ref *r)
{
	return r->ckpt ? mr_ckpt_metrics[r->metric] : mr_run_metrics[r->metric];
}

int
mr_tr_write_rows(FILE *f, struct mr_rd *const *R, int nr, const struct series *s,
		 int ns, const char *kase)
{
	int i, t;

	fprintf(f, "# memrepro trend: medians per results directory, steps marked\n");
	fprintf(f, "case\tconfig\tlabel\tcfg\tcheckpoint\tmetric\twhat\tindex\tdir\tstarted\t"
		   "median\tmin\tmax\tn\tstep\tplot\tplot_min\tplot_max\tchanged\tpanel\tcolour\n");
	for (i = 0; i < ns; i++) {
		if (kase && (!s[i].panel || strcmp(s[i].kase, kase)))
			continue;
		for (t = 0; t < nr; t++) {
			const char *st = mr_rd_env(R[t], MR_ENVK_STARTED);
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
	return ferror(f) ? -1 : 0;
}
