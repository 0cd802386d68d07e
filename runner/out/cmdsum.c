/* cmdsum: the terminal's summary of a command's runs — see cmdsum.h. */
#include "out/cmdsum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/config.h"
#include "check/stats.h"
#include "core/util.h"
#include "check/values.h"
#include "results/read.h"

/* The columns: a run metric, a checkpoint metric at the exit mark, or
 * the CPU time (user + sys, computed per run). */
enum { COL_PEAK, COL_TREE, COL_END, COL_WALL, COL_CPU, NCOL };

static const struct col {
	const char *head;   /* the table's */
	const char *metric; /* its unit, by suffix, for mr_st_min_change */
} cols[NCOL] = {
	{ "peak RSS", "maxrss_kb" },
	{ "tree peak", "peak_tree_rss_kb" },
	{ "RSS at end", "rss_kb" },
	{ "wall", "wall_ms" },
	{ "CPU", "cpu_ms" },
};

/* The values of column c in config ci's ok runs (a time only where
 * times are figures: wall_ms's own rule), sorted, into a fresh *out.
 * Returns how many. */
static int
values(const struct mr_rd_case *k, int ci, int c, double **out)
{
	struct mr_ref ref;
	double *wall;
	int n, i, m = 0;

	memset(&ref, 0, sizeof ref);
	ref.ckpt = c == COL_END;
	ref.metric = c == COL_PEAK ? MR_RM_MAXRSS_KB : c == COL_TREE ? MR_RM_PEAK_TREE_RSS_KB :
		     c == COL_END ? MR_CK_RSS_KB : MR_RM_WALL_MS;
	ref.checkpoint = c == COL_END ? "exit" : NULL;
	n = mr_rd_values(k, ci, &ref, out);
	if (c != COL_CPU)
		return n;
	/* CPU: from the runs whose wall time counts */
	wall = *out;
	*out = ecalloc((size_t)k->cfg[ci].nrun + 1, sizeof **out);
	for (i = 0; n && i < k->cfg[ci].nrun; i++) {
		const struct mr_rd_run *r = &k->run[k->cfg[ci].run[i]];

		if (r->outcome == MR_RD_OK && !r->machine && r->overlap == 0 &&
		    r->stopped_ms == 0 && !mr_rd_busy(r) && !isnan(r->m[MR_RM_USER_MS]) &&
		    !isnan(r->m[MR_RM_SYS_MS]))
			(*out)[m++] = r->m[MR_RM_USER_MS] + r->m[MR_RM_SYS_MS];
	}
	free(wall);
	mr_st_sort(*out, m);
	return m;
}

/* v in the column's unit: MiB for sizes, ms or s for times. */
static void
fmt(char *buf, size_t size, int c, double v)
{
	if (c <= COL_END)
		snprintf(buf, size, "%.1f MiB", v / 1024);
	else if (v >= 10000)
		snprintf(buf, size, "%.2f s", v / 1000);
	else
		snprintf(buf, size, "%.0f ms", v);
}

/* One cell: the median, and the spread when there are two values. */
static void
cell(char *buf, size_t size, int c, double *v, int n)
{
	char a[24], b[24];

	if (!n) {
		snprintf(buf, size, "-");
		return;
	}
	fmt(a, sizeof a, c, mr_st_median(v, n));
	if (n < 2) {
		snprintf(buf, size, "%s", a);
		return;
	}
	fmt(b, sizeof b, c, (v[n - 1] - v[0]) / 2);
	snprintf(buf, size, "%s ±%s", a, b);
}

/* Config ci's name in the table: the keys that vary, else all. */
static const char *
label_of(const struct mr_rd_case *k, int ci)
{
	return k->cfg[ci].label[0] ? k->cfg[ci].label : k->conf[ci].str;
}

/* After a config's row whose runs were not all ok: how many were, and
 * the first other's outcome ("failed: exit 3"). */
static void
not_ok(FILE *f, const struct mr_rd_case *k, int ci)
{
	const struct mr_rd_cfg *c = &k->cfg[ci];
	int i;

	fprintf(f, "  %d of %d runs ok", c->nok, c->nrun);
	for (i = 0; i < c->nrun; i++) {
		const struct mr_rd_run *r = &k->run[c->run[i]];

		if (r->outcome == MR_RD_OK)
			continue;
		fprintf(f, "; %s", mr_rd_outcomes[r->outcome]);
		if (strcmp(r->detail, "-"))
			fprintf(f, ": %s", r->detail);
		break;
	}
}

/* The reference's libc: config 0's libc value (the first of the axis),
 * or NULL when the configs have no libc key. */
static const char *
ref_libc(const struct mr_rd_case *k)
{
	return k->ncfg ? mr_config_get(&k->conf[0], "libc") : NULL;
}

/* The reference of config ci, which differs from it in one axis: for
 * another allocator, the config like it with allocator=glibc; for glibc
 * under another libc, the one under the first libc (libc).  -1 when ci
 * is a reference itself, or its reference did not run. */
static int
glibc_of(const struct mr_rd_case *k, int ci, const char *libc)
{
	const struct mr_config *cf = &k->conf[ci];
	struct strbuf s = { 0 };
	const char *al = mr_config_get(cf, "allocator");
	int i, g, swap_alloc = al && strcmp(al, "glibc");

	for (i = 0; i < cf->n; i++)
		sb_printf(&s, "%s%s=%s", i ? "," : "", cf->key[i],
			  swap_alloc && !strcmp(cf->key[i], "allocator") ? "glibc" :
			  !swap_alloc && libc && !strcmp(cf->key[i], "libc") ? libc : cf->val[i]);
	g = s.s ? mr_rd_cfg(k, s.s) : -1;
	sb_free(&s);
	return g == ci ? -1 : g;
}

/* The differences of config ci from its glibc config g beyond noise.
 * Returns how many were printed; *few is set when the repeats were too
 * few to call one. */
static int
differences(FILE *f, const struct mr_rd_case *k, int ci, int g, int *few)
{
	int c, said = 0;

	for (c = 0; c < NCOL; c++) {
		double *a, *b, ma, mb, p;
		int na = values(k, ci, c, &a), nb = values(k, g, c, &b);
		char x[32], y[32];

		if (na && nb && !mr_st_enough(na, nb, MR_ST_ALPHA))
			*few = 1;
		if (na && nb && mr_st_enough(na, nb, MR_ST_ALPHA)) {
			p = mr_st_mwu_p(a, na, b, nb);
			ma = mr_st_median(a, na);
			mb = mr_st_median(b, nb);
			if (p < MR_ST_ALPHA && fabs(ma - mb) >= mr_st_min_change(cols[c].metric, mb)) {
				fmt(x, sizeof x, c, fabs(ma - mb));
				fmt(y, sizeof y, c, mb);
				fprintf(f, "  %s: %s %s%s (%+.0f%%) against %s, p=%.3f\n",
					label_of(k, ci),
					cols[c].head, ma > mb ? "+" : "-", x,
					mb > 0 ? 100 * (ma - mb) / mb : 0, y, p);
				said++;
			}
		}
		free(a);
		free(b);
	}
	return said;
}

int
mr_cmdsum_print(FILE *f, const struct mr_rd *R, const char *name)
{
	const struct mr_rd_case *k;
	int ci, c, said = 0, few = 0, any = 0, dash = 0, w = 6;
	const char *libc;

	if (!(k = mr_rd_case(R, name)))
		return -1;
	for (ci = 0; ci < k->ncfg; ci++)
		if ((int)strlen(label_of(k, ci)) > w)
			w = (int)strlen(label_of(k, ci));
	fprintf(f, "\n%-*s", w, "config");
	for (c = 0; c < NCOL; c++)
		fprintf(f, " %-19s", cols[c].head);
	fputc('\n', f);
	for (ci = 0; ci < k->ncfg; ci++) {
		const char *label = label_of(k, ci);
		char cells[NCOL][80];

		for (c = 0; c < NCOL; c++) {
			double *v;
			int n = values(k, ci, c, &v);

			cell(cells[c], sizeof cells[c], c, v, n);
			dash |= !n && k->cfg[ci].nok;
			free(v);
		}
		fprintf(f, "%-*s", w, label);
		for (c = 0; c < NCOL; c++)
			fprintf(f, " %-*s", 19 + (strstr(cells[c], "±") ? 1 : 0), cells[c]);
		if (k->cfg[ci].nok < k->cfg[ci].nrun)
			not_ok(f, k, ci);
		fputc('\n', f);
	}
	if (dash)
		fprintf(f, "-: no figure from the ok runs: times of runs side by side (-j), of a busy machine or a stopped runner are not figures, nor an allocator's clocked peak then (docs/command.md)\n");
	libc = ref_libc(k);
	fprintf(f, "\nagainst glibc%s%s, beyond noise (rank test p < %.2f and a change past the smallest one reported):\n",
		libc ? ", and glibc against libc=" : "", libc ? libc : "", MR_ST_ALPHA);
	for (ci = 0; ci < k->ncfg; ci++) {
		int g = glibc_of(k, ci, libc);

		if (g < 0)
			continue;
		any = 1;
		said += differences(f, k, ci, g, &few);
	}
	if (!any)
		fprintf(f, "  nothing to compare: no config of another allocator or libc beside a glibc one\n");
	else if (!said && few)
		fprintf(f, "  none can be called: too few ok runs per config (4 against 4 at least: --repeat 4)\n");
	else if (!said)
		fprintf(f, "  none\n");
	return 0;
}
