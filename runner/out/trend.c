#include "out/trend.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "out/plot.h"
#include "results/read.h"
#include "check/stats.h"
#include "core/util.h"

/* Steps kept per series (a nightly history rarely has more). */
#define MAX_STEPS 16
/* Panels of a case's chart. */
#define MAX_PANELS 6
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

static void
add_word(struct strbuf *b, const char *s, size_t n)
{
	size_t i;

	if (b->len)
		sb_add(b, " ");
	for (i = 0; i < n && s[i]; i++)
		sb_addn(b, s[i] == ' ' || s[i] == '\t' ? "_" : &s[i], 1);
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
		   "median\tmin\tmax\tn\tstep\tplot\n");
	for (i = 0; i < ns; i++) {
		for (t = 0; t < nr; t++) {
			const char *st = mr_rd_env(R[t], "started");
			const char *metric = metric_of(&s[i].ref);
			size_t ml = strlen(metric);
			double scale = ml > 3 && !strcmp(metric + ml - 3, "_kb") ? 1024 : 1;

			if (isnan(s[i].med[t]))
				continue;
			fprintf(f, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%.17g\t%.17g\t%.17g\t%d\t%d\t%.17g\n",
				s[i].kase, s[i].config, s[i].label, s[i].cfg,
				s[i].ref.ckpt ? s[i].ref.checkpoint : "-", metric, s[i].what,
				t + 1, R[t]->dir, st ? st : "-", s[i].med[t], s[i].min[t],
				s[i].max[t], s[i].n[t], s[i].step[t], s[i].med[t] / scale);
		}
	}
	if (ferror(f) | (fclose(f) != 0)) {
		weprintf("write %s:", path);
		return -1;
	}
	return 0;
}

/* A case's panels: its figures with a step first, then rss_kb at each
 * checkpoint, maxrss_kb and wall_ms, at most MAX_PANELS. */
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

static int
panels(const struct series *s, int ns, int nr, const char *kase, const char **out)
{
	int n = 0, pass, i, j;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ns && n < MAX_PANELS; i++) {
			const char *m = metric_of(&s[i].ref);
			int want;

			if (strcmp(s[i].kase, kase) || !measured(&s[i], nr))
				continue;
			want = pass == 0 ? s[i].nsteps > 0
					 : !strcmp(m, "rss_kb") || !strcmp(m, "maxrss_kb") ||
					   !strcmp(m, "wall_ms");
			if (!want)
				continue;
			for (j = 0; j < n; j++)
				if (!strcmp(out[j], s[i].what))
					break;
			if (j == n)
				out[n++] = s[i].what;
		}
	}
	return n;
}

static int
draw(const struct mr_trend_opts *o, struct mr_rd *const *R, int nr,
     const struct series *s, int ns, const char *tsv, const char *outdir)
{
	struct mr_plot p;
	const char *done[4096];
	int ndone = 0, rc = 0, i, j;

	if (mr_plot_init(&p, o->plots_dir, o->verbose) < 0)
		return -1;
	for (i = 0; i < ns && ndone < 4096; i++) {
		const char *pan[MAX_PANELS];
		struct strbuf figs = {0}, labels = {0}, ticks = {0}, title = {0}, note = {0};
		int npan, nsteps = 0, maxcfg = 0, t;
		char **lab;
		char *base;

		for (j = 0; j < ndone; j++)
			if (!strcmp(done[j], s[i].kase))
				break;
		if (j < ndone)
			continue;
		done[ndone++] = s[i].kase;
		npan = panels(s, ns, nr, s[i].kase, pan);
		for (j = 0; j < npan; j++)
			add_word(&figs, pan[j], strlen(pan[j]));
		for (j = 0; j < ns; j++) {
			if (strcmp(s[j].kase, s[i].kase))
				continue;
			nsteps += s[j].nsteps;
			if (s[j].cfg > maxcfg)
				maxcfg = s[j].cfg;
		}
		/* labels by config index (the newest directory's numbering) */
		lab = ecalloc(maxcfg + 1, sizeof *lab);
		for (j = 0; j < ns; j++)
			if (!strcmp(s[j].kase, s[i].kase) && !lab[s[j].cfg - 1])
				lab[s[j].cfg - 1] = s[j].label;
		for (j = 0; j < maxcfg; j++)
			add_word(&labels, lab[j] ? lab[j] : "-", 1000);
		free(lab);
		for (t = 0; t < nr; t++)
			add_word(&ticks, base_name(R[t]->dir), 24);
		sb_printf(&title, "%s: medians over %d results directories", s[i].kase, nr);
		if (npan == 0)
			sb_add(&note, "no run of this case measured anything (skipped or failed)");
		else
			sb_printf(&note, "%d step %s (binary segmentation of the medians)", nsteps,
				  nsteps == 1 ? "change" : "changes");
		sb_add(&figs, "");
		base = esprintf("%s/%s.trend", outdir, s[i].kase);
		{
			const char *args[] = { s[i].kase, title.s, figs.s, labels.s, ticks.s,
					       note.s, NULL };

			if (mr_plot_draw(&p, "trend", tsv, base, args) < 0)
				rc = -1;
		}
		free(base);
		sb_free(&figs);
		sb_free(&labels);
		sb_free(&ticks);
		sb_free(&title);
		sb_free(&note);
	}
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

				for (m = 0; m < nref; m++) {
					char *what = mr_rd_ref_name(&refs[m]);
					struct series *x;
					double *v;
					int n, idx = find_series(*s, ns, k->name, k->conf[c].str, what);

					if (idx < 0) {
						x = new_series(s, &ns, k, c, &refs[m], what, nr);
					} else {
						x = &(*s)[idx];
						free(what);
					}
					n = mr_rd_values(k, c, &refs[m], &v);
					if (n > 0) {
						x->min[t] = v[0];
						x->max[t] = v[n - 1];
						x->med[t] = mr_st_median(v, n);
						x->n[t] = n;
					}
					free(v);
				}
				free(refs);
			}
		}
	}
	return ns;
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
				x->steps[j].at = at[x->steps[j].at];
				x->step[x->steps[j].at] = 1;
			}
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
	char *outdir = NULL, *tsv = NULL;
	int ns = 0, nr = o->ndirs, rc = MR_USAGE, i, t;
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
	print_steps(f, o->verbose, R, nr, s, ns, find_steps(s, ns, nr));
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
	else if (o->plots_dir && draw(o, R, nr, s, ns, tsv, outdir) < 0)
		rc = MR_FAILED;
	fprintf(f, "table and charts: %s\n", outdir);
out:
	free_series(s, ns);
	free(tsv);
	free(outdir);
	for (t = 0; t < o->ndirs; t++)
		mr_rd_free(&all[t]);
	free(all);
	free(R);
	return rc;
}
