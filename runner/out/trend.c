#include "out/trend.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "check/values.h"
#include "results/config.h"
#include "check/figures.h"
#include "out/charts.h"
#include "out/outfile.h"
#include "out/runenv.h"
#include "out/trchart.h"
#include "results/read.h"
#include "check/stats.h"
#include "core/util.h"

/* A step is a shift of the median by more than this many times the
 * repeats' typical range ... */
#define NOISE_K 3.0
/* Kinds of "too few repeats" told apart ("1 vs 1", "3 vs 3"...). */
#define NKINDS 16

struct ctx {
	const char *metric;
	double noise;
	const int *n;    /* the repeats of each point */
};

/* A split at `at` of [lo, hi) may be called a step only when the repeats
 * on its two sides can tell one (stats.h, mr_st_enough): the band says
 * "these repeats sit apart", which 1 against 1, or 3 against 3, do by
 * chance at least as often as alpha. */
static int
enough(int lo, int at, int hi, void *p)
{
	const struct ctx *c = p;
	int a = 0, b = 0, i;

	for (i = lo; i < at; i++)
		a += c->n[i];
	for (i = at; i < hi; i++)
		b += c->n[i];
	return mr_st_enough(a, b, MR_ST_ALPHA);
}

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

/* The series by (case, config, what): a hash table of their indices, so
 * that adding a directory's points is linear in them (a scan per point
 * made 60 nights of the corpus quadratic). */
struct sidx {
	int *slot;     /* index + 1, 0: empty */
	size_t cap;    /* a power of 2, at least twice the series */
	int alloc;     /* series allocated in *s */
};

static size_t
hash3(const char *a, const char *b, const char *c)
{
	uint64_t h = 14695981039346656037u;
	const char *p[3] = { a, b, c };
	int i;

	for (i = 0; i < 3; i++) {
		const unsigned char *q;

		for (q = (const unsigned char *)p[i]; *q; q++)
			h = (h ^ *q) * 1099511628211u;
		h = (h ^ 0xff) * 1099511628211u;
	}
	return (size_t)h;
}

/* The slot of (kase, config, what) in ix: its series' or the empty one
 * where it goes. */
static int *
find_slot(const struct sidx *ix, const struct series *s, const char *kase,
	  const char *config, const char *what)
{
	size_t at = hash3(kase, config, what) & (ix->cap - 1);

	for (;; at = (at + 1) & (ix->cap - 1)) {
		const struct series *x;

		if (!ix->slot[at] || !s)
			return &ix->slot[at];
		x = &s[ix->slot[at] - 1];
		if (!strcmp(x->what, what) && !strcmp(x->config, config) && !strcmp(x->kase, kase))
			return &ix->slot[at];
	}
}

/* Room in ix for n series of s[]. */
static void
sidx_grow(struct sidx *ix, const struct series *s, int n)
{
	int i;

	if ((size_t)n * 2 <= ix->cap)
		return;
	free(ix->slot);
	ix->cap = ix->cap ? ix->cap * 2 : 1024;
	while ((size_t)n * 2 > ix->cap)
		ix->cap *= 2;
	ix->slot = ecalloc(ix->cap, sizeof *ix->slot);
	for (i = 0; i < n - 1; i++)
		*find_slot(ix, s, s[i].kase, s[i].config, s[i].what) = i + 1;
}

static int
by_started(const void *a, const void *b)
{
	const struct mr_rd *x = *(const struct mr_rd *const *)a;
	const struct mr_rd *y = *(const struct mr_rd *const *)b;
	const char *sx = mr_rd_env(x, MR_ENVK_STARTED), *sy = mr_rd_env(y, MR_ENVK_STARTED);
	int c = strcmp(sx ? sx : "", sy ? sy : "");

	/* equal times keep the order given (the pointers are in it) */
	return c ? c : (x > y) - (x < y);
}



static int
write_tsv(const char *path, struct mr_rd *const *R, int nr, const struct series *s,
	  int ns)
{
	char *tmp;
	FILE *f = mr_of_create(path, &tmp);

	if (!f)
		return -1;
	mr_tr_write_rows(f, R, nr, s, ns, NULL);
	return mr_of_commit(f, tmp, path);
}

/* A new series of case k's config c and figure ref (what: its name,
 * moved in), with nr directories' medians to come, at the end of *s. */
static struct series *
new_series(struct series **s, int *ns, struct sidx *ix, const struct mr_rd_case *k,
	   int c, const struct mr_ref *ref, char *what, int nr)
{
	struct series *x;
	int j;

	if (*ns == ix->alloc) {
		ix->alloc = ix->alloc ? 2 * ix->alloc : 256;
		*s = erealloc(*s, sizeof **s * ix->alloc);
	}
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
add_point(struct series **s, int *ns, struct sidx *ix, const struct mr_rd_case *k, int c,
	  const struct mr_ref *ref, int t, int nr)
{
	char *what = mr_rd_ref_name(ref);
	int n, *slot;
	struct series *x;
	double *v;

	sidx_grow(ix, *s, *ns + 1);
	slot = find_slot(ix, *s, k->name, k->conf[c].str, what);
	if (!*slot) {
		x = new_series(s, ns, ix, k, c, ref, what, nr);
		*slot = *ns;
	} else {
		x = &(*s)[*slot - 1];
		free(what);
	}
	n = mr_rd_values(k, c, ref, &v);
	if (n > 0 && x) {
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
collect_series(struct mr_rd *const *R, int nr, struct series **s, struct sidx *ix)
{
	int ns = 0, i, c, m, t;

	for (t = nr - 1; t >= 0; t--) {
		for (i = 0; i < R[t]->nk; i++) {
			const struct mr_rd_case *k = &R[t]->k[i];

			for (c = 0; c < k->ncfg; c++) {
				struct mr_ref *refs;
				int nref = mr_rd_figures(k, c, &refs);

				for (m = 0; m < nref; m++)
					add_point(s, &ns, ix, k, c, &refs[m], t, nr);
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
	  struct series **s, int *ns, struct sidx *ix, struct tlay **out)
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
				add_point(s, ns, ix, k, c, &r2, t, nr);
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

static int
sum(const int *v, int n)
{
	int s = 0;

	while (n-- > 0)
		s += v[n];
	return s;
}

/* Count word w (moved in) in tw[]/tc[], a kind beyond ntw in the last. */
static void
tally(char *w, char **tw, int *tc, int ntw)
{
	int i;

	for (i = 0; i < ntw && tw[i] && strcmp(tw[i], w); i++)
		;
	if (i == ntw) {
		i = ntw - 1;
		free(tw[i]);
		tw[i] = estrdup("other counts of repeats");
	}
	if (!tw[i])
		tw[i] = w;
	else
		free(w);
	tc[i]++;
}

/* The steps of each series, over the directories that measured it; a
 * series whose repeats cannot tell any step (mr_st_enough) is not
 * searched and counted in *notcmp, the words of its repeats ("1 vs 1",
 * "5 over 3 directories") tallied into tw[]/tc[] (at most ntw kinds).
 * Returns the steps' total. */
static int
find_steps(struct series *s, int ns, int nr, int *notcmp, char **tw, int *tc, int ntw)
{
	int total = 0, i, j, t;

	for (i = 0; i < ns; i++) {
		struct series *x = &s[i];
		double *m2 = emalloc(sizeof *m2 * nr), *rg = emalloc(sizeof *rg * nr);
		int *at = emalloc(sizeof *at * nr), *n = emalloc(sizeof *n * nr), np = 0, nrg = 0;
		struct ctx cx = { metric_of(&x->ref), 0, n };

		for (t = 0; t < nr; t++) {
			if (isnan(x->med[t]))
				continue;
			/* one repeat has no range: it says nothing of the noise */
			if (x->n[t] >= 2)
				rg[nrg++] = x->max[t] - x->min[t];
			at[np] = t;
			n[np] = x->n[t];
			m2[np++] = x->med[t];
		}
		for (j = 1; np >= 2 && j < np && !(nrg && enough(0, j, np, &cx)); j++)
			;
		if (np >= 2 && j == np) {
			char *w = np == 2 ? esprintf("%d vs %d repeats", n[0], n[1]) :
				  !nrg ? esprintf("1 repeat in each of %d directories", np) :
				  esprintf("%d directories, %d repeats in all", np, sum(n, np));

			(*notcmp)++;
			tally(w, tw, tc, ntw);
		} else if (np >= 2) {
			cx.noise = mr_st_median(rg, nrg);
			x->nsteps = mr_st_steps(m2, np, threshold, enough, &cx, x->steps,
						MR_TR_MAX_STEPS);
			for (j = 0; j < x->nsteps; j++) {
				const struct mr_st_step *st = &x->steps[j];

				x->steps[j].at = at[x->steps[j].at];
				x->step[x->steps[j].at] = 1;
				x->score = fmax(x->score, rel_change(st->before, st->after));
			}
			/* a drift no single step explains: the last against the first */
			x->changed = mr_st_enough(n[0], n[np - 1], MR_ST_ALPHA) &&
				     fabs(m2[np - 1] - m2[0]) > threshold(m2[0], &cx);
			if (x->changed)
				x->score = fmax(x->score, rel_change(m2[0], m2[np - 1]));
		}
		total += x->nsteps;
		free(m2);
		free(rg);
		free(at);
		free(n);
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
		const char *st = mr_rd_env(R[t], MR_ENVK_STARTED);

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

/* The series not compared for too few repeats, by kind, on f. */
static void
print_notcmp(FILE *f, int notcmp, char **tw, const int *tc, int ntw)
{
	int i;

	if (!notcmp)
		return;
	fprintf(f, "%d series not compared: too few repeats for any step at p < %g "
		   "(the chance that every repeat of one side lies beyond the other's, "
		   "2 / C(n1 + n2, n1), must be below it: 4 vs 4 at least)\n",
		notcmp, MR_ST_ALPHA);
	for (i = 0; i < ntw && tw[i]; i++)
		fprintf(f, "  %s: not compared (%d series)\n", tw[i], tc[i]);
}

/* The output directory: --out, else ./trend; never one of the inputs. */
static char *
out_dir(const struct mr_trend_opts *o)
{
	const char *d = o->out_dir ? o->out_dir : "trend";

	if (mr_of_check_out(d, o->dirs, o->ndirs) < 0)
		return NULL;
	return estrdup(d);
}

int
mr_trend(const struct mr_trend_opts *o)
{
	struct mr_rd *all = ecalloc(o->ndirs + 1, sizeof *all), **R;
	struct series *s = NULL;
	struct tlay *T = NULL;
	char *outdir = NULL, *tsv = NULL, *tw[NKINDS] = {0};
	int ns = 0, nr = o->ndirs, rc = MR_USAGE, nt = 0, i, t, total, notcmp = 0;
	int tc[NKINDS] = {0};
	struct sidx ix = {0};
	FILE *f = o->out;

	R = ecalloc(nr + 1, sizeof *R);
	for (t = 0; t < nr; t++) {
		R[t] = &all[t];
		if (mr_rd_load(&all[t], o->dirs[t]) < 0)
			goto out;
	}
	if (!(outdir = out_dir(o)))
		goto out;
	qsort(R, nr, sizeof *R, by_started);
	mr_runenv_print(f, R, nr);
	ns = collect_series(R, nr, &s, &ix);
	nt = lay_cases(o, R, nr, &s, &ns, &ix, &T);
	total = find_steps(s, ns, nr, &notcmp, tw, tc, NKINDS);
	for (i = 0; i < nt; i++)
		mr_tr_lay_case(&T[i], s, ns, nr, T[i].panels);
	print_steps(f, o->verbose, R, nr, s, ns, total);
	print_notcmp(f, notcmp, tw, tc, NKINDS);
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
	else if (o->plots_dir && mr_tr_draw(o->plots_dir, o->verbose, R, nr, T, nt, s, ns, outdir) < 0)
		rc = MR_FAILED;
	fprintf(f, "table%s: %s\n", o->plots_dir ? " and charts" : "", outdir);
out:
	for (i = 0; i < nt; i++)
		mr_tr_tlay_free(&T[i]);
	for (i = 0; i < NKINDS; i++)
		free(tw[i]);
	free(T);
	free(ix.slot);
	free_series(s, ns);
	free(tsv);
	free(outdir);
	for (t = 0; t < o->ndirs; t++)
		mr_rd_free(&all[t]);
	free(all);
	free(R);
	return rc;
}
