/* challoc: the allocator matrix across the cases (charts.h). */
#include "out/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/stats.h"
#include "check/values.h"
#include "core/version.h"
#include "core/util.h"
#include "out/chutil.h"
#include "proc/marks.h"
#include "proto/schema.h"

/* --- allocators ---------------------------------------------------------- */

/* Whether k is a command's (run -- CMD): its last checkpoint is the
 * runner's exit mark. */
static int
is_command(const struct mr_rd_case *k)
{
	const char **names;
	int n = mr_rd_ck_names(k, -1, &names), is = n > 0 && !strcmp(names[n - 1], MR_MARK_EXIT);

	free(names);
	return is;
}

int
mr_chart_key_ref(const struct mr_rd_case *k, const struct mr_figs *fs, struct mr_ref *ref)
{
	const char **names;
	int n = mr_rd_ck_names(k, -1, &names), lower = 1;

	memset(ref, 0, sizeof *ref);
	if (fs && fs->has_key) {
		ref->ckpt = fs->key_ckpt;
		ref->metric = fs->key_metric;
		ref->checkpoint = fs->key_checkpoint ? fs->key_checkpoint
			: fs->key_ckpt && n > 0 ? (char *)names[n - 1] : NULL;
		lower = fs->key_lower;
	} else if (n > 0 && !strcmp(names[n - 1], MR_MARK_EXIT)) {
		/* a command's (run -- CMD): its memory at exit is what is left
		 * when it has freed all, its peak is what it cost */
		ref->metric = mr_run_metric("peak_rss_kb");
	} else if (n > 0) {
		ref->ckpt = 1;
		ref->metric = mr_ckpt_metric("rss_kb");
		ref->checkpoint = (char *)names[n - 1];
	} else {
		ref->metric = mr_run_metric("peak_rss_kb");
	}
	free(names);
	/* "rss_kb@" with no checkpoint recorded: nothing to show */
	if (ref->ckpt && !ref->checkpoint)
		ref->checkpoint = (char *)"-";
	return lower;
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

/* The version an allocator value stands for: after '@', else the host's
 * (env.tsv), else NULL. */
static const char *
spec_version(const struct mr_rd *R, const char *spec, char *buf, size_t n)
{
	const char *at = strchr(spec, '@');
	char key[160];
	const char *v;

	if (at)
		return at + 1;
	snprintf(key, sizeof key, MR_ENVK_ALLOC_VERSION, spec);
	v = mr_rd_env(R, key);
	return v ? mr_version_lead(v, buf, n) : NULL;
}

/* How long the allocator's name is in spec ("jemalloc@5.2.1": 8). */
static size_t
name_len(const char *spec)
{
	const char *at = strchr(spec, '@');

	return at ? (size_t)(at - spec) : strlen(spec);
}

/* Whether column a goes after b: glibc first, then the allocators by
 * name (the order of runs.tsv depends on the schedule), each one's
 * versions old to new. */
static int
col_after(const struct mr_rd *R, const char *a, const char *b)
{
	char ba[64], bb[64];
	const char *va, *vb;
	size_t na = name_len(a), nb = name_len(b);
	int ga = !strcmp(a, MR_ALLOC_GLIBC), gb = !strcmp(b, MR_ALLOC_GLIBC), c;

	if (ga != gb)
		return gb;
	if ((c = strncmp(a, b, na < nb ? na : nb)) || na != nb)
		return c ? c > 0 : na > nb;
	va = spec_version(R, a, ba, sizeof ba);
	vb = spec_version(R, b, bb, sizeof bb);
	if (va && vb && mr_version_cmp(va, vb))
		return mr_version_cmp(va, vb) > 0;
	return strcmp(a, b) > 0;
}

/* The allocator columns of the cases sel[0..nsel) of R, into *names
 * (free it): glibc first when some config has it (*have_glibc), then the
 * allocators by name, the versions of one side by side from old to new.
 * Returns their number. */
static int
allocator_columns(const struct mr_rd *R, const int *sel, int nsel, const char ***names,
		  int *have_glibc)
{
	const char **al = NULL;
	int nal = 0, i, a, b, c;

	*have_glibc = 0;
	for (i = 0; i < nsel; i++) {
		const struct mr_rd_case *k = &R->k[sel[i]];

		for (c = 0; c < k->ncfg; c++) {
			const char *v = mr_config_get(&k->conf[c], "allocator");

			if (!v)
				continue;
			*have_glibc |= !strcmp(v, MR_ALLOC_GLIBC);
			for (a = 0; a < nal && strcmp(al[a], v); a++)
				;
			if (a == nal) {
				al = erealloc(al, (size_t)(nal + 1) * sizeof *al);
				al[nal++] = v;
			}
		}
	}
	/* insertion sort: a few dozen columns at most */
	for (a = 1; a < nal; a++) {
		const char *v = al[a];

		for (b = a; b > 0 && col_after(R, al[b - 1], v); b--)
			al[b] = al[b - 1];
		al[b] = v;
	}
	*names = al;
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

			if (!gl || strcmp(gl, MR_ALLOC_GLIBC))
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

/* *s with its blanks as no-break spaces (U+00A0): one gnuplot word
 * that reads as words.  Returns the fresh *s (the old one freed). */
static char *
nbsp(char **s)
{
	struct strbuf b = {0};
	const char *p;

	sb_add(&b, "");
	for (p = *s; *p; p++)
		sb_add(&b, *p == ' ' ? "\xc2\xa0" : (char[2]){ *p, 0 });
	free(*s);
	*s = b.s;
	return b.s;
}

/* The row of allocators.tsv for case k (figure ref, named fig, chart row
 * row) under allocator al (column col, 1-based) on f.  Returns 1 for a
 * cell with a ratio other than glibc's own, else 0. */
static int
allocator_cell(FILE *f, const struct mr_rd_case *k, const struct mr_ref *ref, const char *fig,
	       int lower, int row, const char *al, int col)
{
	int ref_col = strcmp(al, MR_ALLOC_GLIBC) == 0;
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

		l = l < -8 ? -8 : l > 8 ? 8 : l;
		/* tone: the colour, -8 (256x better than glibc) .. 8 (worse);
		 * the label says the ratio beyond */
		fprintf(f, "%.4f\t%.4f\t%.4f", exp(logsum / pairs), l, lower ? l : -l);
	} else {
		fputs("-\t-\t-", f);
	}
	fprintf(f, "\t%s\t%s\t%d\t%s\n", state, label, pairs, lower ? "lower" : "higher");
	return pairs && !ref_col;
}

int
mr_chart_allocators(struct mr_plot *p, const struct mr_rd *R, const int *sel,
		    const struct mr_figs *const *figs, int nsel, const char *outdir)
{
	char *tsv = esprintf("%s/allocators.tsv", outdir);
	char *base = esprintf("%s/allocators", outdir);
	struct strbuf cases = {0}, allocs = {0}, note = {0};
	const char **al_names; /* the columns */
	int nal, cells = 0, i, a, rc = -1, have_glibc, commands = 0;
	FILE *f;

	nal = allocator_columns(R, sel, nsel, &al_names, &have_glibc);
	for (a = 0; a < nal; a++)
		mr_ch_word(&allocs, al_names[a]);
	if (!(f = mr_ch_create(tsv)))
		goto out;
	fprintf(f, "# memrepro report: each case's key figure per allocator, relative to glibc\n");
	fprintf(f, "case\trow\tallocator\tcol\tfigure\tratio\tlog2\ttone\tstate\tlabel\tpairs\tbetter\n");
	for (i = 0; i < nsel; i++) {
		const struct mr_rd_case *k = &R->k[sel[i]];
		struct mr_ref ref;
		char *fig;
		int row = nsel - i; /* the first case on top */

		int lower = mr_chart_key_ref(k, figs ? figs[i] : NULL, &ref);

		commands += is_command(k);

		fig = mr_rd_ref_name(&ref);
		{
			/* the figure's noun for a reader: "RSS at pre-trim" */
			char noun[64], *at = strchr(fig, '@'), *w;

			if (at)
				*at = 0;
			mr_ch_noun(noun, sizeof noun, fig);
			w = esprintf("%s=%s%s%s%s", k->name, noun, at ? " at " : "", at ? at + 1 : "",
				     lower ? "" : " (higher is better)");
			if (at)
				*at = '@'; /* the TSV has the figure's name */
			mr_ch_word(&cases, nbsp(&w));
			
			free(w);
		}
		for (a = 0; a < nal; a++)
			cells += allocator_cell(f, k, &ref, fig, lower, row, al_names[a], a + 1);
		free(fig);
	}
	if (mr_ch_close(f, tsv) < 0)
		goto out;
	if (!nsel || nal < 2 || !have_glibc)
		sb_add(&note, "no data: the results have no configs that differ only in their allocator");
	else if (!cells)
		sb_add(&note, "no data: no allocator config ran alongside its glibc config");
	sb_add(&cases, "");
	sb_add(&allocs, "");
	sb_add(&note, "");
	{
		static const char corpus[] =
			"memrepro: each case's key figure under each allocator, relative to glibc\n"
			"The corpus gathers reports of allocators misbehaving: a case shows "
			"where one fails, not which is best overall";
		static const char command[] =
			"memrepro: each command's peak RSS under each allocator, relative to glibc\n"
			"The sampled peak of its process, the geometric mean over its configs of "
			"the medians' ratios";
		const char *args[] = { nsel && commands == nsel ? command : corpus, cases.s,
				       allocs.s, note.s, NULL };

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
