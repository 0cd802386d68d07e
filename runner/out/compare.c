#include "out/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "check/values.h"
#include "results/config.h"
#include "out/outfile.h"
#include "out/plot.h"
#include "out/runenv.h"
#include "results/read.h"
#include "check/stats.h"
#include "core/util.h"
#include "out/chutil.h"
#include "out/cmpchart.h"

/* Mann-Whitney U at this level, where the repeats of both sides can
 * reach it (stats.h, mr_st_enough: 4 against 4, 3 against 5...); with
 * fewer the figure is not compared. */
#define ALPHA MR_ST_ALPHA

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
	r->floor = fabs(r->nm - r->om) <= mr_st_min_change(metric, r->om);
	if (mr_st_enough(r->on, r->nn, ALPHA)) {
		r->test = "U";
		r->p = mr_st_mwu_p(a, r->on, b, r->nn);
		beyond = r->p < ALPHA;
		if (beyond && !r->floor)
			r->change = r->nm > r->om ? WORSE : BETTER;
	} else {
		r->test = "-";
		r->p = NAN;
		r->change = NOTCMP;
	}
	/* lower is better for every figure memrepro measures */
	r->fails = fail_on >= 0 && r->change == WORSE &&
		   (isnan(r->pct) || r->pct > fail_on);
	free(a);
	free(b);
	return 0;
}

static void
print_row(FILE *f, const struct mr_compare_opts *o, const struct row *r,
	  const char *label, int lw, int ww)
{
	static const char *const col[] = { "", "1;31", "1;32", "" };
	char a[48], b[48], pct[32], p[32] = "";

	mr_cmp_pct(pct, sizeof pct, r->pct);
	if (r->p == r->p)
		snprintf(p, sizeof p, " p=%.3g", r->p);
	fprintf(f, "  %-*s  %-*s  %12s -> %-12s %9s  ", lw, label, ww, r->what,
		mr_fmt_num(a, r->om), mr_fmt_num(b, r->nm), pct);
	if (r->change == NOTCMP) {
		fprintf(f, "%d vs %d repeats: not compared\n", r->on, r->nn);
		return;
	}
	if (o->color && BEYOND(r))
		fprintf(f, "\033[%sm%s\033[0m", col[r->change], mr_cmp_change_words[r->change]);
	else
		fputs(r->change == SAME ? "within noise" : mr_cmp_change_words[r->change], f);
	fprintf(f, " (%s%s%s)%s\n", r->test, p, r->floor ? ", below the floor" : "",
		r->fails ? "  FAILS --fail-on" : "");
}


/* The rows of figures the cases and configs of N that O has too can be
 * compared by, into *rows (nrows of them: the return); the cases only in
 * N and the configs only in N counted into *onlynew and *cfgonly. */
static int
pair_rows(const struct mr_compare_opts *o, const struct mr_rd *O, const struct mr_rd *N,
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

/* compare.tsv, whole or not at all. */
static int
write_tsv(const char *path, const struct mr_rd *N, const struct row *rows, int nrows,
	  const char *olddir, const struct clay *L)
{
	char *tmp;
	FILE *f = mr_of_create(path, &tmp);

	if (!f)
		return -1;
	mr_cmp_write_rows(f, N, rows, nrows, olddir, L, -1);
	return mr_of_commit(f, tmp, path);
}

/* The figures not compared, by their repeats (1 vs 1, 3 vs 3...). */
#define NFEW 16
struct few {
	int on, nn;          /* the repeats of each side */
	int count;           /* figures */
};

static void
count_few(struct few *fw, const struct row *r)
{
	int i;

	for (i = 0; i < NFEW - 1 && fw[i].count && (fw[i].on != r->on || fw[i].nn != r->nn); i++)
		;
	fw[i].on = r->on;
	fw[i].nn = r->nn;
	fw[i].count++;
}

/* The table: per case of N, the changes beyond noise (every row when
 * verbose), then its counts, on f; the figures worse, better and not
 * compared added to *worse, *better and fw[].  Returns the rows over
 * --fail-on. */
static int
print_cases(FILE *f, const struct mr_compare_opts *o, const struct mr_rd *N,
	    const struct row *rows, int nrows, int *worse, int *better, struct few *fw)
{
	int fails = 0, i, j;

	for (i = 0; i < N->nk; i++) {
		const struct mr_rd_case *k = &N->k[i];
		int lw = 0, ww = 0, n = 0, w = 0, b = 0, x = 0, shown = 0;

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
			if (r->change == NOTCMP) {
				x++;
				count_few(fw, r);
			}
			if (o->verbose || BEYOND(r)) {
				if (!shown++)
					fprintf(f, "%s\n", k->name);
				print_row(f, o, r, k->cfg[r->cn].label, lw, ww);
			}
		}
		if (n)
			fprintf(f, "%s: %d figures: %d worse, %d better beyond the noise, %d within it, "
				"%d not compared\n", k->name, n, w, b, n - w - b - x, x);
		*worse += w;
		*better += b;
	}
	return fails;
}

/* The totals, and the figures not compared by their repeats. */
static void
print_total(FILE *f, int nrows, int worse, int better, const struct few *fw)
{
	int i, x = 0;

	for (i = 0; i < NFEW; i++)
		x += fw[i].count;
	fprintf(f, "total: %d figures in both: %d worse, %d better beyond the noise "
		   "(Mann-Whitney U, p < %g), %d within it; %d not compared\n",
		nrows, worse, better, ALPHA, nrows - worse - better - x, x);
	if (x)
		fprintf(f, "too few repeats to call a change at p < %g (the chance that every "
			   "repeat of one side lies beyond the other's, 2 / C(n1 + n2, n1), must "
			   "be below it: 4 vs 4 at least, or 3 vs 5):\n", ALPHA);
	for (i = 0; i < NFEW && fw[i].count; i++)
		fprintf(f, "  %d vs %d repeats: not compared (%d figure%s)\n", fw[i].on, fw[i].nn,
			fw[i].count, fw[i].count == 1 ? "" : "s");
}

int
mr_compare(const struct mr_compare_opts *o)
{
	struct mr_rd O, N;
	struct row *rows = NULL;
	struct clay *L = NULL;
	struct few fw[NFEW] = {0};
	char *outdir = NULL, *tsv = NULL;
	int nrows = 0, rc = MR_USAGE, worse = 0, better = 0, fails, i;
	int onlyold = 0, onlynew = 0, cfgonly = 0;
	FILE *f = o->out;

	memset(&N, 0, sizeof N);
	if (mr_rd_load(&O, o->old_dir) < 0 || mr_rd_load(&N, o->new_dir) < 0)
		goto out;
	fprintf(f, "compare %s -> %s\n", o->old_dir, o->new_dir);
	{
		struct mr_rd *both[2] = { &O, &N };

		mr_runenv_print(f, both, 2);
	}
	nrows = pair_rows(o, &O, &N, &rows, &onlynew, &cfgonly);
	for (i = 0; i < O.nk; i++)
		onlyold += !mr_rd_case(&N, O.k[i].name);
	fails = print_cases(f, o, &N, rows, nrows, &worse, &better, fw);
	print_total(f, nrows, worse, better, fw);
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
		mr_cmp_lay_case(rows, nrows, &N.k[i], i, &L[i]);
	if (write_tsv(tsv, &N, rows, nrows, o->old_dir, L) < 0)
		rc = MR_FAILED;
	else if (o->plots_dir && mr_cmp_draw(&(struct mr_cmp_chart){ o->old_dir, o->new_dir,
			o->plots_dir, o->verbose, o->fail_on, &O }, &N, rows, nrows, outdir, L) < 0)
		rc = MR_FAILED;
	fprintf(f, "table%s: %s\n", o->plots_dir ? " and charts" : "", outdir);
out:
	for (i = 0; L && i < N.nk; i++)
		mr_cmp_clay_free(&L[i], N.k[i].ncfg);
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
