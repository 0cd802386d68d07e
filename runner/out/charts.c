#include "out/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/safeio.h"
#include "check/stats.h"
#include "core/tsv.h"
#include "core/util.h"

/* The diff chart shows deviations up to this many tolerances; a point
 * beyond is drawn at the edge, its label giving the real figure. */
#define DIFF_CLAMP 10.0

/* --- series.tsv ---------------------------------------------------------- */

int
mr_chart_scan(const struct mr_rd *R, struct mr_chart_scan *s)
{
	enum { C_CASE, C_CONFIG, C_REPEAT, C_T, C_RSS, NREQ };
	static const char *const req[NREQ] = {
		"case", "config", "repeat", "t_ms", "rss_kb",
	};
	struct mr_tsv t;
	int col[NREQ], ctree, rc, i;

	memset(s, 0, sizeof *s);
	s->nk = R->nk;
	s->nsamples = ecalloc(R->nk + 1, sizeof *s->nsamples);
	s->tree = ecalloc(R->nk + 1, sizeof *s->tree);
	s->tmax = ecalloc(R->nk + 1, sizeof *s->tmax);
	for (i = 0; i < R->nk; i++) {
		s->nsamples[i] = ecalloc(R->k[i].nrun + 1, sizeof **s->nsamples);
		s->tree[i] = ecalloc(R->k[i].nrun + 1, sizeof **s->tree);
		s->tmax[i] = ecalloc(R->k[i].nrun + 1, sizeof **s->tmax);
	}
	rc = mr_tsv_open_in(&t, R->dir, "series.tsv", MR_SIO_SERIES_MAX);
	if (rc == -ENOENT) {
		char *path = mr_rd_path(R->dir, "series.tsv");

		mr_errat(path, 0, 0, "no such file (is %s a results directory?)", R->dir);
		free(path);
	}
	if (rc < 0) {
		mr_chart_scan_free(s);
		return -1;
	}
	for (i = 0; i < NREQ; i++)
		if ((col[i] = mr_tsv_need(&t, req[i])) < 0)
			goto fail;
	ctree = mr_tsv_col(&t, "tree_nproc");
	while ((rc = mr_tsv_next(&t)) > 0) {
		const struct mr_rd_case *k = mr_rd_case(R, mr_tsv_get(&t, col[C_CASE]));
		long long repeat;
		double x, t_ms, tree = 0;
		int ci, ri;

		if (mr_tsv_int(&t, col[C_REPEAT], 1, 1000000, &repeat) < 0 ||
		    mr_rd_metric_num(&t, col[C_T], 0, &t_ms) < 0 ||
		    mr_rd_metric_num(&t, col[C_RSS], 1, &x) < 0 ||
		    (ctree >= 0 && mr_rd_metric_num(&t, ctree, 1, &tree) < 0))
			goto fail;
		/* Samples of a run with no row in runs.tsv (interrupted) are
		 * not drawn. */
		if (!k || (ci = mr_rd_cfg(k, mr_tsv_get(&t, col[C_CONFIG]))) < 0 ||
		    (ri = mr_rd_run_of(k, ci, (long)repeat)) < 0)
			continue;
		s->nsamples[k - R->k][ri]++;
		if (!isnan(tree) && tree > s->tree[k - R->k][ri])
			s->tree[k - R->k][ri] = (int)tree;
		if (t_ms > s->tmax[k - R->k][ri])
			s->tmax[k - R->k][ri] = t_ms;
	}
	if (rc < 0)
		goto fail;
	mr_tsv_close(&t);
	return 0;
fail:
	mr_tsv_close(&t);
	mr_chart_scan_free(s); /* the caller frees nothing on failure */
	return -1;
}

void
mr_chart_scan_free(struct mr_chart_scan *s)
{
	int i;

	for (i = 0; i < s->nk; i++) {
		free(s->nsamples[i]);
		free(s->tree[i]);
		free(s->tmax[i]);
	}
	free(s->nsamples);
	free(s->tree);
	free(s->tmax);
	memset(s, 0, sizeof *s);
}

/* --- helpers ------------------------------------------------------------- */

/* s as one gnuplot word: blanks become '_'. */
static void
add_word(struct strbuf *b, const char *s)
{
	if (b->len)
		sb_add(b, " ");
	for (; *s; s++)
		sb_addn(b, *s == ' ' || *s == '\t' || *s == '\n' ? "_" : s, 1);
}

/* A figure with its unit for a label: MiB for *_kb, s or ms for *_ms. */
static void
figure(char *buf, size_t size, const char *metric, double v)
{
	size_t n = strlen(metric);
	char tmp[48];

	if (n > 3 && !strcmp(metric + n - 3, "_kb"))
		snprintf(buf, size, "%.1f MiB", v / 1024);
	else if (n > 3 && !strcmp(metric + n - 3, "_ms") && fabs(v) >= 1000)
		snprintf(buf, size, "%.2f s", v / 1000);
	else if (n > 3 && !strcmp(metric + n - 3, "_ms"))
		snprintf(buf, size, "%.0f ms", v);
	else
		snprintf(buf, size, "%s", mr_fmt_num(tmp, v));
}

static FILE *
create_tsv(const char *path)
{
	FILE *f = mr_create_out(path);

	if (!f)
		weprintf("create %s:", path);
	return f;
}

static int
close_tsv(FILE *f, const char *path)
{
	if (ferror(f) | (fclose(f) != 0)) {
		weprintf("write %s:", path);
		return -1;
	}
	return 0;
}

/* --- series -------------------------------------------------------------- */

/* The run drawn for config ci: its first ok run with samples, else a
 * failed one with samples (a crash is worth seeing); never a skipped one.
 * -1 when none. */
static int
drawn_run(const struct mr_rd_case *k, const struct mr_chart_scan *s, int ki, int ci)
{
	int best = -1, j;

	for (j = 0; j < k->cfg[ci].nrun; j++) {
		int ri = k->cfg[ci].run[j];

		if (!s->nsamples[ki][ri] || k->run[ri].outcome == MR_RD_SKIPPED)
			continue;
		if (best < 0 || (k->run[ri].outcome == MR_RD_OK &&
				 k->run[best].outcome != MR_RD_OK))
			best = ri;
	}
	return best;
}

int
mr_chart_series(struct mr_plot *p, const struct mr_rd *R,
		const struct mr_chart_scan *s, int ki, const char *title,
		const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	struct strbuf runs = {0}, cks = {0}, panels = {0}, t = {0}, none = {0};
	const char **names = NULL;
	char *series = mr_rd_path(R->dir, "series.tsv");
	char *ckpts = mr_rd_path(R->dir, "checkpoints.tsv");
	char *base = esprintf("%s/%s.series", outdir, k->name);
	char xmax[64];
	int nnames = 0, drawn = 0, lazy = 0, tree = 0, lf = mr_ckpt_metric("lazyfree_kb");
	int tn = mr_ckpt_metric("tree_nproc"), i, j, l, rc;
	long rep = 0;
	double tmax = 0;

	for (i = 0; i < k->ncfg; i++) {
		int ri = drawn_run(k, s, ki, i);
		const struct mr_rd_run *r;
		struct strbuf w = {0};

		if (ri < 0) {
			sb_printf(&none, "%s%s", none.len ? ", " : "", k->cfg[i].label);
			continue;
		}
		r = &k->run[ri];
		drawn++;
		tree |= s->tree[ki][ri] > 1;
		if (s->tmax[ki][ri] > tmax)
			tmax = s->tmax[ki][ri];
		rep = !rep ? r->repeat : rep != r->repeat ? -1 : rep;
		/* what its checkpoints recorded: their names, LazyFree */
		for (j = 0; j < r->nck; j++) {
			const struct mr_rd_ck *c = &k->ck[r->ck[j]];

			lazy |= c->m[lf] > 0;
			tree |= c->m[tn] > 1;
			if (c->m[mr_ckpt_metric("t_ms")] > tmax)
				tmax = c->m[mr_ckpt_metric("t_ms")];
			for (l = 0; l < nnames; l++)
				if (!strcmp(names[l], c->name))
					break;
			if (l == nnames) {
				names = erealloc(names, sizeof *names * (nnames + 1));
				names[nnames++] = c->name;
			}
		}
		/* CONFIG#REPEAT#COLOUR#LABEL: the colour is the config's
		 * index, as in the case's other charts */
		sb_printf(&w, "%s#%ld#%d#%s", k->conf[i].str, r->repeat, i + 1,
			  k->cfg[i].label);
		add_word(&runs, w.s);
		sb_free(&w);
	}
	for (i = 0; i < nnames; i++)
		add_word(&cks, names[i]);
	free(names);
	sb_add(&panels, "rss");
	if (lazy)
		sb_add(&panels, " lazyfree");
	if (tree)
		sb_add(&panels, " tree");
	sb_printf(&t, "%s: memory over time", k->name);
	if (rep > 0)
		sb_printf(&t, ", repeat %ld of each config", rep);
	else if (rep < 0)
		sb_add(&t, ", one repeat of each config");
	if (title)
		sb_printf(&t, "\n%s", title);
	if (none.len && drawn)
		sb_printf(&t, "\n(no samples: %s)", none.s);
	if (drawn)
		snprintf(xmax, sizeof xmax, "%g", tmax / 1000);
	else
		snprintf(xmax, sizeof xmax, "no run of this case has a memory sample");
	sb_add(&runs, "");
	sb_add(&cks, "");
	{
		const char *args[] = { ckpts, k->name, t.s, runs.s, xmax, cks.s,
				       panels.s, NULL };

		rc = mr_plot_draw(p, "series", series, base, args);
	}
	sb_free(&runs);
	sb_free(&cks);
	sb_free(&panels);
	sb_free(&t);
	sb_free(&none);
	free(series);
	free(ckpts);
	free(base);
	return rc;
}

/* --- diff ---------------------------------------------------------------- */

static double
clamp(double x)
{
	return x < -DIFF_CLAMP ? -DIFF_CLAMP : x > DIFF_CLAMP ? DIFF_CLAMP : x;
}

int
mr_chart_diff(struct mr_plot *p, const struct mr_rd *R, int ki,
	      const struct mr_vd_case *vk, const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	char *tsv = esprintf("%s/%s.diff.tsv", outdir, k->name);
	char *base = esprintf("%s/%s.diff", outdir, k->name);
	struct strbuf rows = {0}, labels = {0}, title = {0}, note = {0};
	const char **what = NULL;
	int nwhat = 0, npts = 0, nreg = 0, nimp = 0, i, j, rc = -1;
	double xmin = -2, xmax = 2;
	FILE *f;

	if (!(f = create_tsv(tsv)))
		goto out;
	fprintf(f, "# memrepro report: observed medians vs the baseline, in tolerances\n");
	fprintf(f, "what\trow\tcfg\tconfig\tdev\tlo\thi\tverdict\tnote\tobserved\texpected\ttolerance\n");
	for (i = 0; i < vk->n; i++) {
		const struct mr_vd *v = &vk->v[i];
		double tol, dev, lo, hi, y;
		char obs[48], exp[48];
		int ci, r;

		if (v->kind != MR_VD_ROW || v->word == MR_VD_NOTMEASURED)
			continue;
		for (r = 0; r < nwhat; r++)
			if (!strcmp(what[r], v->what))
				break;
		if (r == nwhat) {
			what = erealloc(what, sizeof *what * (nwhat + 1));
			what[nwhat++] = v->what;
		}
		ci = mr_rd_cfg(k, v->config);
		tol = v->tol > 0 ? v->tol : 1e-9;
		dev = (v->obs - v->exp) / tol;
		lo = (v->omin - v->exp) / tol;
		hi = (v->omax - v->exp) / tol;
		/* configs side by side within the metric's row */
		y = r + 1 + (k->ncfg > 1 ? (ci - (k->ncfg - 1) / 2.0) * 0.7 / k->ncfg : 0);
		figure(obs, sizeof obs, v->metric, v->obs);
		figure(exp, sizeof exp, v->metric, v->exp);
		fprintf(f, "%s\t%g\t%d\t%s\t%g\t%g\t%g\t%s\t", v->what, y, ci + 1,
			v->label, clamp(dev), clamp(lo), clamp(hi),
			v->word == MR_VD_REGRESSED ? "regressed" :
			v->word == MR_VD_IMPROVED ? "improved" : "held");
		if ((v->word == MR_VD_REGRESSED || v->word == MR_VD_IMPROVED) && v->exp)
			fprintf(f, "%s %s vs %s (%+.0f %%)", v->label, obs, exp,
				100 * (v->obs - v->exp) / fabs(v->exp));
		else if (v->word == MR_VD_REGRESSED || v->word == MR_VD_IMPROVED)
			fprintf(f, "%s %s vs %s", v->label, obs, exp);
		else
			fputc('-', f);
		fprintf(f, "\t%g\t%g\t%g\n", v->obs, v->exp, v->tol);
		nreg += v->word == MR_VD_REGRESSED;
		nimp += v->word == MR_VD_IMPROVED;
		if (clamp(lo) < xmin)
			xmin = clamp(lo);
		if (clamp(hi) > xmax)
			xmax = clamp(hi);
		npts++;
	}
	if (close_tsv(f, tsv) < 0)
		goto out;
	for (i = 0; i < nwhat; i++)
		add_word(&rows, what[i]);
	for (j = 0; j < k->ncfg; j++)
		add_word(&labels, k->cfg[j].label);
	sb_printf(&title, "%s: observed medians vs the baseline", k->name);
	if (!vk->has_bl)
		sb_printf(&note, "no baseline for platform %s (memrepro bless writes one)",
			  R->platform);
	else if (!npts)
		sb_add(&note, "no baseline row was measured in these results");
	else
		sb_printf(&note, "%d rows: %d regressed, %d improved, %d held", npts,
			  nreg, nimp, npts - nreg - nimp);
	sb_add(&rows, "");
	{
		char range[64];
		const char *args[] = { title.s, rows.s, labels.s, note.s, range, NULL };

		snprintf(range, sizeof range, "%g %g", floor(xmin) - 0.5, ceil(xmax) + 0.5);
		rc = mr_plot_draw(p, "diff", tsv, base, args);
	}
out:
	free(what);
	sb_free(&rows);
	sb_free(&labels);
	sb_free(&title);
	sb_free(&note);
	free(tsv);
	free(base);
	return rc;
}

/* --- allocators ---------------------------------------------------------- */

int
mr_chart_key_ref(const struct mr_rd_case *k, struct mr_ref *ref)
{
	const char **names;
	int n = mr_rd_ck_names(k, -1, &names);

	memset(ref, 0, sizeof *ref);
	if (n > 0) {
		ref->ckpt = 1;
		ref->metric = mr_ckpt_metric("rss_kb");
		ref->checkpoint = (char *)names[n - 1];
	} else {
		ref->metric = mr_run_metric("peak_rss_kb");
	}
	free(names);
	return 0;
}

/* Config ci of k without its allocator pair, for matching. */
static char *
without_allocator(const struct mr_config *c)
{
	struct strbuf b = {0};
	int i;

	sb_add(&b, "");
	for (i = 0; i < c->n; i++)
		if (strcmp(c->key[i], "allocator"))
			sb_printf(&b, "%s=%s,", c->key[i], c->val[i]);
	return b.s;
}

static double
cfg_median(const struct mr_rd_case *k, int ci, const struct mr_ref *ref)
{
	double *v, m = NAN;
	int n = mr_rd_values(k, ci, ref, &v);

	if (n > 0)
		m = mr_st_median(v, n);
	free(v);
	return m;
}

/* The allocator columns of the cases sel[0..nsel) of R, into *names
 * (free it): glibc first when some config has it (*have_glibc), then the
 * allocators in the order they appear.  Returns their number. */
static int
allocator_columns(const struct mr_rd *R, const int *sel, int nsel, const char ***names,
		  int *have_glibc)
{
	const char **al_names = NULL;
	int nal = 0, i, a;

	*have_glibc = 0;
	for (i = 0; i < nsel; i++) {
		const struct mr_rd_case *k = &R->k[sel[i]];
		int c;

		for (c = 0; c < k->ncfg; c++) {
			const char *al = mr_config_get(&k->conf[c], "allocator");

			if (al && strcmp(al, "glibc") == 0)
				*have_glibc = 1;
		}
	}
	if (*have_glibc) {
		al_names = erealloc(al_names, sizeof *al_names);
		al_names[nal++] = "glibc";
	}
	for (i = 0; i < nsel; i++) {
		const struct mr_rd_case *k = &R->k[sel[i]];
		int c;

		for (c = 0; c < k->ncfg; c++) {
			const char *al = mr_config_get(&k->conf[c], "allocator");

			for (a = 0; al && a < nal; a++)
				if (strcmp(al_names[a], al) == 0)
					break;
			if (al && a == nal) {
				al_names = erealloc(al_names, (size_t)(nal + 1) * sizeof *al_names);
				al_names[nal++] = al;
			}
		}
	}
	*names = al_names;
	return nal;
}

/* Case k's configs under allocator al: their number (*runs), how many
 * only skipped (*skipped), and the sum of log(al's median / glibc's) of
 * figure ref over the pairs of configs that differ only in their
 * allocator (*logsum).  Returns the number of pairs. */
static int
allocator_pairs(const struct mr_rd_case *k, const struct mr_ref *ref, const char *al_name,
		double *logsum, int *runs, int *skipped)
{
	int pairs = 0, c, g;

	*logsum = 0;
	*runs = *skipped = 0;
	for (c = 0; c < k->ncfg; c++) {
		const char *al = mr_config_get(&k->conf[c], "allocator");
		char *key;
		double x, y;

		if (!al || strcmp(al, al_name))
			continue;
		(*runs)++;
		*skipped += k->cfg[c].nok == 0 && k->cfg[c].nskip > 0;
		key = without_allocator(&k->conf[c]);
		for (g = 0; g < k->ncfg; g++) {
			const char *gl = mr_config_get(&k->conf[g], "allocator");
			char *gkey;

			if (!gl || strcmp(gl, "glibc"))
				continue;
			gkey = without_allocator(&k->conf[g]);
			if (!strcmp(key, gkey)) {
				x = cfg_median(k, c, ref);
				y = cfg_median(k, g, ref);
				if (!isnan(x) && !isnan(y) && x > 0 && y > 0) {
					*logsum += log(x / y);
					pairs++;
				}
			}
			free(gkey);
		}
		free(key);
	}
	return pairs;
}

/* The row of allocators.tsv for case k (figure ref, named fig, chart row
 * row) under allocator al (column col, 1-based) on f.  Returns 1 for a
 * cell with a ratio other than glibc's own, else 0. */
static int
allocator_cell(FILE *f, const struct mr_rd_case *k, const struct mr_ref *ref, const char *fig,
	       int row, const char *al, int col)
{
	int ref_col = strcmp(al, "glibc") == 0;
	double logsum, ratio;
	int runs, skipped, pairs = allocator_pairs(k, ref, al, &logsum, &runs, &skipped);
	const char *state;
	char label[64];

	if (!runs) {
		state = "none";
		snprintf(label, sizeof label, "not run");
	} else if (pairs) {
		ratio = exp(logsum / pairs);
		state = ref_col ? "ref" : "ok";
		snprintf(label, sizeof label, "%s%.*f×\\n%d %s",
			 ref_col ? "= " : "", ratio < 10 ? 2 : 0,
			 ratio, pairs, pairs == 1 ? "config" : "configs");
	} else if (skipped == runs) {
		state = "skipped";
		snprintf(label, sizeof label, "skipped");
	} else {
		state = "nodata";
		snprintf(label, sizeof label, "no data");
	}
	fprintf(f, "%s\t%d\t%s\t%d\t%s\t", k->name, row, al, col, fig);
	if (pairs) {
		double l = log2(exp(logsum / pairs));

		fprintf(f, "%.4f\t%.4f", exp(logsum / pairs), l < -1 ? -1 : l > 1 ? 1 : l);
	} else {
		fputs("-\t-", f);
	}
	fprintf(f, "\t%s\t%s\t%d\n", state, label, pairs);
	return pairs && !ref_col;
}

int
mr_chart_allocators(struct mr_plot *p, const struct mr_rd *R, const int *sel,
		    int nsel, const char *outdir)
{
	char *tsv = esprintf("%s/allocators.tsv", outdir);
	char *base = esprintf("%s/allocators", outdir);
	struct strbuf cases = {0}, allocs = {0}, note = {0};
	const char **al_names; /* the columns */
	int nal, cells = 0, i, a, rc = -1, have_glibc;
	FILE *f;

	nal = allocator_columns(R, sel, nsel, &al_names, &have_glibc);
	for (a = 0; a < nal; a++)
		add_word(&allocs, al_names[a]);
	if (!(f = create_tsv(tsv)))
		goto out;
	fprintf(f, "# memrepro report: each case's key figure per allocator, relative to glibc\n");
	fprintf(f, "case\trow\tallocator\tcol\tfigure\tratio\tlog2\tstate\tlabel\tpairs\n");
	for (i = 0; i < nsel; i++) {
		const struct mr_rd_case *k = &R->k[sel[i]];
		struct mr_ref ref;
		char *fig;
		int row = nsel - i; /* the first case on top */

		mr_chart_key_ref(k, &ref);
		fig = mr_rd_ref_name(&ref);
		{
			char *w = esprintf("%s=%s", k->name, fig);

			add_word(&cases, w);
			free(w);
		}
		for (a = 0; a < nal; a++)
			cells += allocator_cell(f, k, &ref, fig, row, al_names[a], a + 1);
		free(fig);
	}
	if (close_tsv(f, tsv) < 0)
		goto out;
	if (!nsel || nal < 2 || !have_glibc)
		sb_add(&note, "no data: the results have no configs that differ only in their allocator");
	else if (!cells)
		sb_add(&note, "no data: no allocator config ran alongside its glibc config");
	sb_add(&cases, "");
	sb_add(&allocs, "");
	sb_add(&note, "");
	{
		const char *args[] = { "memrepro: each case's key figure under each allocator, relative to glibc",
				       cases.s, allocs.s, note.s, NULL };

		rc = mr_plot_draw(p, "allocators", tsv, base, args);
	}
out:
	free(al_names);
	sb_free(&cases);
	sb_free(&allocs);
	sb_free(&note);
	free(tsv);
	free(base);
	return rc;
}
