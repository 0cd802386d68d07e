/* charts: what the charts share: the scan of series.tsv and the
 * helpers of chutil.h.  The charts are in chseries.c, chdiff.c and
 * challoc.c. */
#include "out/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/safeio.h"
#include "core/tsv.h"
#include "core/util.h"
#include "out/chutil.h"

/* --- series.tsv ---------------------------------------------------------- */

int
mr_chart_scan(const struct mr_rd *R, struct mr_chart_scan *s)
{
	enum { C_CASE, C_CONFIG, C_REPEAT, C_T, C_RSS, NREQ };
	static const char *const req[NREQ] = {
		"case", "config", "repeat", "t_ms", "rss_kb",
	};
	struct mr_tsv t;
	int col[NREQ], ctree, cvsz, ctr, ccg, rc, i;
	int **cap;

	memset(s, 0, sizeof *s);
	s->nk = R->nk;
	s->nsamples = ecalloc(R->nk + 1, sizeof *s->nsamples);
	s->tree = ecalloc(R->nk + 1, sizeof *s->tree);
	s->tmax = ecalloc(R->nk + 1, sizeof *s->tmax);
	s->pt = ecalloc(R->nk + 1, sizeof *s->pt);
	s->nrun = ecalloc(R->nk + 1, sizeof *s->nrun);
	cap = ecalloc(R->nk + 1, sizeof *cap);
	for (i = 0; i < R->nk; i++) {
		s->nsamples[i] = ecalloc(R->k[i].nrun + 1, sizeof **s->nsamples);
		s->pt[i] = ecalloc(R->k[i].nrun + 1, sizeof **s->pt);
		s->nrun[i] = R->k[i].nrun;
		cap[i] = ecalloc(R->k[i].nrun + 1, sizeof **cap);
		s->tree[i] = ecalloc(R->k[i].nrun + 1, sizeof **s->tree);
		s->tmax[i] = ecalloc(R->k[i].nrun + 1, sizeof **s->tmax);
	}
	rc = mr_tsv_open_in(&t, R->dir, MR_FILE_SERIES, MR_SIO_SERIES_MAX);
	if (rc == -ENOENT) {
		char *path = mr_rd_path(R->dir, MR_FILE_SERIES);

		mr_errat(path, 0, 0, "no such file (is %s a results directory?)", R->dir);
		free(path);
	}
	if (rc < 0)
		goto fail_closed;
	for (i = 0; i < NREQ; i++)
		if ((col[i] = mr_tsv_need(&t, req[i])) < 0)
			goto fail;
	ctree = mr_tsv_col(&t, "tree_nproc");
	cvsz = mr_tsv_col(&t, "vsz_kb");
	ctr = mr_tsv_col(&t, "tree_rss_kb");
	ccg = mr_tsv_col(&t, "cgroup_kb");
	while ((rc = mr_tsv_next(&t)) > 0) {
		const struct mr_rd_case *k = mr_rd_case(R, mr_tsv_get(&t, col[C_CASE]));
		long long repeat;
		double x, t_ms, tree = 0, vsz = NAN, tr = NAN, cg = NAN;
		struct mr_chart_pt **pp;
		int ci, ri, *n, *c;

		if (mr_tsv_int(&t, col[C_REPEAT], 1, 1000000, &repeat) < 0 ||
		    mr_rd_metric_num(&t, col[C_T], 0, &t_ms) < 0 ||
		    mr_rd_metric_num(&t, col[C_RSS], 1, &x) < 0 ||
		    (ctree >= 0 && mr_rd_metric_num(&t, ctree, 1, &tree) < 0) ||
		    (cvsz >= 0 && mr_rd_metric_num(&t, cvsz, 1, &vsz) < 0) ||
		    (ctr >= 0 && mr_rd_metric_num(&t, ctr, 1, &tr) < 0) ||
		    (ccg >= 0 && mr_rd_metric_num(&t, ccg, 1, &cg) < 0))
			goto fail;
		/* Samples of a run with no row in runs.tsv (interrupted) are
		 * not drawn. */
		if (!k || (ci = mr_rd_cfg(k, mr_tsv_get(&t, col[C_CONFIG]))) < 0 ||
		    (ri = mr_rd_run_of(k, ci, (long)repeat)) < 0)
			continue;
		n = &s->nsamples[k - R->k][ri];
		c = &cap[k - R->k][ri];
		pp = &s->pt[k - R->k][ri];
		if (*n == *c) {
			*c = *c ? 2 * *c : 64;
			*pp = erealloc(*pp, sizeof **pp * (size_t)*c);
		}
		(*pp)[*n] = (struct mr_chart_pt){ t_ms / 1000, x, vsz, tr, cg };
		(*n)++;
		if (!isnan(tree) && tree > s->tree[k - R->k][ri])
			s->tree[k - R->k][ri] = (int)tree;
		if (t_ms > s->tmax[k - R->k][ri])
			s->tmax[k - R->k][ri] = t_ms;
	}
	if (rc < 0)
		goto fail;
	mr_tsv_close(&t);
	for (i = 0; i < R->nk; i++)
		free(cap[i]);
	free(cap);
	return 0;
fail:
	mr_tsv_close(&t);
fail_closed:
	for (i = 0; i < R->nk; i++)
		free(cap[i]);
	free(cap);
	mr_chart_scan_free(s); /* the caller frees nothing on failure */
	return -1;
}

void
mr_chart_scan_free(struct mr_chart_scan *s)
{
	int i, j;

	for (i = 0; i < s->nk; i++) {
		for (j = 0; j < s->nrun[i]; j++)
			free(s->pt[i][j]);
		free(s->pt[i]);
		free(s->nsamples[i]);
		free(s->tree[i]);
		free(s->tmax[i]);
	}
	free(s->nsamples);
	free(s->pt);
	free(s->nrun);
	free(s->tree);
	free(s->tmax);
	memset(s, 0, sizeof *s);
}

/* --- helpers ------------------------------------------------------------- */

/* s as one gnuplot word: blanks become '_'. */
void
mr_ch_word(struct strbuf *b, const char *s)
{
	if (b->len)
		sb_add(b, " ");
	for (; *s; s++)
		sb_addn(b, *s == ' ' || *s == '\t' || *s == '\n' ? "_" : s, 1);
}

/* A figure with its unit for a label: MiB for *_kb, s or ms for *_ms. */
void
mr_ch_figure(char *buf, size_t size, const char *metric, double v)
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

/* The nouns of the charts' labels, metric by metric. */
static const char *const nouns[][2] = {
	{ "rss_kb", "RSS" }, { "vsz_kb", "VSZ" }, { "pss_kb", "PSS" },
	{ "private_dirty_kb", "private dirty" }, { "lazyfree_kb", "LazyFree" },
	{ "anon_kb", "anonymous" }, { "anon_huge_kb", "huge pages" }, { "swap_kb", "swap" },
	{ "maps", "mappings" },
	{ "tree_rss_kb", "tree RSS" }, { "tree_pss_kb", "tree PSS" },
	{ "tree_private_dirty_kb", "tree private dirty" },
	{ "cgroup_kb", "cgroup memory" }, { "maxrss_kb", "peak RSS" },
	{ "peak_rss_kb", "sampled peak RSS" }, { "peak_tree_rss_kb", "tree peak RSS" },
	{ "cgroup_peak_kb", "cgroup peak" },
	{ "wall_ms", "wall time" }, { "user_ms", "user time" },
	{ "sys_ms", "system time" }, { "t_ms", "time since start" },
	{ "minflt", "minor faults" }, { "majflt", "major faults" },
	{ "tree_nproc", "processes" },
};

const char *
mr_ch_noun(char *buf, size_t size, const char *metric)
{
	size_t i, n = strlen(metric);

	for (i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
		if (!strcmp(metric, nouns[i][0])) {
			snprintf(buf, size, "%s", nouns[i][1]);
			return buf;
		}
	if (n > 3 && (!strcmp(metric + n - 3, "_kb") || !strcmp(metric + n - 3, "_ms")))
		n -= 3;
	snprintf(buf, size, "%.*s", (int)n, metric);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '_')
			buf[i] = ' ';
	return buf;
}

FILE *
mr_ch_create(const char *path)
{
	FILE *f = mr_create_out(path);

	if (!f)
		weprintf("create %s:", path);
	return f;
}

int
mr_ch_close(FILE *f, const char *path)
{
	if (ferror(f) | (fclose(f) != 0)) {
		weprintf("write %s:", path);
		return -1;
	}
	return 0;
}


/* --- the report's configs among ours ------------------------------------- */

int
mr_ch_matches(const struct mr_config *r, const struct mr_config *c)
{
	int i;

	for (i = 0; i < r->n; i++) {
		const char *v = mr_config_get(c, r->key[i]);
		size_t n;

		if (!v)
			return 0;
		if (!strcmp(v, r->val[i]))
			continue;
		n = strlen(r->val[i]);
		if (strcmp(r->key[i], "allocator") || strncmp(v, r->val[i], n) || v[n] != '@')
			return 0;
	}
	return 1;
}

int
mr_ch_ours(const struct mr_rd_case *k, const struct mr_config *r)
{
	return mr_ch_ours_in(k, r, NULL);
}

int
mr_ch_ours_in(const struct mr_rd_case *k, const struct mr_config *r, const char *spec)
{
	int best = -1, i;

	for (i = 0; i < k->ncfg; i++) {
		const char *rt = mr_config_get(&k->conf[i], MR_KEY_RUNTIME);

		if (!mr_ch_matches(r, &k->conf[i]) || !mr_config_same(rt, spec))
			continue;
		if (best < 0 || ((k->cfg[i].nok > 0) != (k->cfg[best].nok > 0)
				 ? k->cfg[i].nok > 0 : k->conf[i].n < k->conf[best].n))
			best = i;
	}
	return best;
}

/* --- text widths --------------------------------------------------------- */

double
mr_ch_em(const char *s, int max)
{
	double w = 0;
	int nc = 0;

	for (; *s && (!max || nc < max); s++) {
		unsigned char c = (unsigned char)*s;

		if ((c & 0xc0) == 0x80)
			continue;
		nc++;
		if (c >= '0' && c <= '9')
			w += 0.636;
		else if (strchr("iljI.,:;'`|!", c))
			w += 0.30;
		else if (strchr("frt()[]{}-/\\ \"", c))
			w += 0.39;
		else if (strchr("mwMW%@", c))
			w += 0.93;
		else if (strchr("=+<>~#&", c) || c >= 0x80)
			w += 0.84;
		else if (c >= 'A' && c <= 'Z')
			w += 0.70;
		else
			w += 0.60;
	}
	return w;
}
