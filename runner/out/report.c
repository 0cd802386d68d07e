#include "out/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proc/caseload.h"
#include "proto/cases.h"
#include "out/charts.h"
#include "check/casetab.h"
#include "check/check.h"
#include "out/doc.h"
#include "out/format.h"
#include "out/plot.h"
#include "out/repcase.h"
#include "out/repstatus.h"
#include "results/read.h"
#include "core/safeio.h"
#include "core/util.h"
#include "check/verdict.h"
#include "proto/schema.h"

/* --- the content --------------------------------------------------------- */

/* What --describe says of a case, when its binary is found. */
struct about {
	char *title;
	char *source;
};

static void
describe_cases(const struct mr_report_opts *o, struct mr_casetab *tab,
	       const struct mr_vds *vs, struct about *ab)
{
	int i;

	for (i = 0; i < vs->nk && o->cases_dir; i++) {
		const struct strbuf *err;
		const struct mr_cases_desc *c = mr_casetab_desc(tab, vs->k[i].name, NULL, &err);

		if (c) {
			ab[i].title = estrdup(c->title);
			ab[i].source = estrdup(c->source);
		} else if (o->verbose) {
			weprintf("%s: no title and source: %s", vs->k[i].name,
				 err && err->s ? err->s : "not a case name");
		}
	}
}

/* One row of the environment table. */
static void
env_row(struct mr_doc *d, const char *key, const char *value)
{
	if (!value)
		return;
	mr_doc_row(d);
	mr_doc_cell(d);
	mr_doc_text(d, key);
	mr_doc_cell(d);
	mr_doc_text(d, value);
	mr_doc_row_end(d);
}

static void
write_env(struct mr_doc *d, const struct mr_rd *R)
{
	static const char *const head[] = { "what", "here", NULL };
	const char *v;
	char buf[512];
	size_t i;

	mr_doc_heading(d, 2, "environment", "Environment");
	mr_doc_table(d, head);
	env_row(d, "platform (baseline key)", R->platform);
	env_row(d, "kernel", mr_rd_env(R, MR_ENVK_KERNEL));
	env_row(d, "libc", mr_rd_env(R, MR_ENVK_LIBC));
	if ((v = mr_rd_env(R, MR_ENVK_CPUS))) {
		snprintf(buf, sizeof buf, "%s x %s (%s)", v,
			 mr_rd_env(R, MR_ENVK_CPU_MODEL) ? mr_rd_env(R, MR_ENVK_CPU_MODEL) : "?",
			 mr_rd_env(R, MR_ENVK_ARCH) ? mr_rd_env(R, MR_ENVK_ARCH) : "?");
		env_row(d, "CPUs", buf);
	}
	if ((v = mr_rd_env(R, MR_ENVK_MEM_TOTAL_KB))) {
		snprintf(buf, sizeof buf, "%.1f GiB", strtod(v, NULL) / 1048576);
		env_row(d, "memory", buf);
	}
	if ((v = mr_rd_env(R, MR_ENVK_THP))) {
		snprintf(buf, sizeof buf, "%s (defrag %s), overcommit %s", v,
			 mr_rd_env(R, MR_ENVK_THP_DEFRAG) ? mr_rd_env(R, MR_ENVK_THP_DEFRAG) : "?",
			 mr_rd_env(R, "overcommit") ? mr_rd_env(R, "overcommit") : "?");
		env_row(d, "transparent huge pages", buf);
	}
	/* every allocator the run recorded: its soname key comes first */
	for (i = 0; i < (size_t)R->nenv; i++) {
		const char *k = R->envk[i], *dot = strrchr(k, '.');
		char key[256], *k2, *name;
		const char *ver, *so, *miss;

		if (strncmp(k, "allocator.", 10) != 0 || !dot || dot < k + 10 ||
		    strcmp(dot, ".soname") != 0)
			continue;
		name = estrndup(k + 10, (size_t)(dot - k - 10));
		so = R->envv[i];
		snprintf(key, sizeof key, MR_ENVK_ALLOC_VERSION, name);
		ver = mr_rd_env(R, key);
		snprintf(key, sizeof key, MR_ENVK_ALLOC_MISSING, name);
		miss = mr_rd_env(R, key);
		if (miss)
			snprintf(buf, sizeof buf, "missing: %s", miss);
		else
			snprintf(buf, sizeof buf, "%s (%s)", ver ? ver : "?", so ? so : "?");
		k2 = esprintf("allocator %s", name);
		env_row(d, k2, buf);
		free(k2);
		free(name);
	}
	snprintf(buf, sizeof buf, "profile %s, %s repeats, sampled every %s ms, timeout %s s",
		 mr_rd_env(R, MR_ENVK_PROFILE) ? mr_rd_env(R, MR_ENVK_PROFILE) : "?",
		 mr_rd_env(R, MR_ENVK_REPEAT) ? mr_rd_env(R, MR_ENVK_REPEAT) : "?",
		 mr_rd_env(R, MR_ENVK_INTERVAL_MS) ? mr_rd_env(R, MR_ENVK_INTERVAL_MS) : "?",
		 mr_rd_env(R, MR_ENVK_TIMEOUT_S) ? mr_rd_env(R, MR_ENVK_TIMEOUT_S) : "?");
	env_row(d, "runs", buf);
	env_row(d, "started", mr_rd_env(R, MR_ENVK_STARTED));
	env_row(d, "memrepro", mr_rd_env(R, MR_ENVK_MEMREPRO_VERSION));
	mr_doc_table_end(d);
	mr_doc_para(d);
	mr_doc_text(d, "Every key: ");
	mr_doc_file(d, MR_FILE_ENV);
	mr_doc_text(d, ".");
	mr_doc_para_end(d);
}

static void
write_verdicts(struct mr_doc *d, const struct mr_vds *vs)
{
	static const char *const head[] = { "case", "claims", "baseline", "runs", NULL };
	int i;

	mr_doc_heading(d, 2, "verdicts", "Verdicts");
	mr_doc_table(d, head);
	for (i = 0; i < vs->nk; i++) {
		char *anchor = esprintf("#case-%s", vs->k[i].name);

		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_link(d, vs->k[i].name, anchor);
		mr_doc_cell(d);
		mr_repcase_counts(d, &vs->k[i].t, 0);
		mr_doc_cell(d);
		mr_repcase_counts(d, &vs->k[i].t, 1);
		mr_doc_cell(d);
		mr_repcase_counts(d, &vs->k[i].t, 2);
		mr_doc_row_end(d);
		free(anchor);
	}
	if (vs->nk > 1) {
		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_bold(d, "total");
		mr_doc_cell(d);
		mr_repcase_counts(d, &vs->all, 0);
		mr_doc_cell(d);
		mr_repcase_counts(d, &vs->all, 1);
		mr_doc_cell(d);
		mr_repcase_counts(d, &vs->all, 2);
		mr_doc_row_end(d);
	}
	mr_doc_table_end(d);
}
static void
write_doc(struct mr_doc *d, const struct mr_report_opts *o, const struct mr_rd *R,
	  const struct mr_vds *vs, const struct about *ab, const char *charts_note)
{
	const char *started = mr_rd_env(R, MR_ENVK_STARTED);
	char now[64];
	time_t t = time(NULL);
	struct tm tm;
	char *title;
	int i;

	gmtime_r(&t, &tm);
	strftime(now, sizeof now, "%Y-%m-%d %H:%M UTC", &tm);
	title = esprintf("memrepro report: %s", R->platform);
	mr_doc_begin(d, title);
	free(title);

	mr_repstatus_write(d, vs);
	mr_doc_para(d);
	mr_doc_text(d, "Results ");
	mr_doc_code(d, o->results_dir);
	mr_doc_textf(d, " (profile %s, %s repeats, started %s), compared with ",
	      mr_rd_env(R, MR_ENVK_PROFILE) ? mr_rd_env(R, MR_ENVK_PROFILE) : "?",
	      mr_rd_env(R, MR_ENVK_REPEAT) ? mr_rd_env(R, MR_ENVK_REPEAT) : "?",
	      started ? started : "?");
	mr_doc_code(d, vs->expected);
	mr_doc_textf(d, ". Written by memrepro %s on %s.",
	      mr_rd_env(R, MR_ENVK_MEMREPRO_VERSION) ? mr_rd_env(R, MR_ENVK_MEMREPRO_VERSION) : "",
	      now);
	mr_doc_para_end(d);
	if (charts_note) {
		mr_doc_para(d);
		mr_doc_bold(d, "Charts:");
		mr_doc_textf(d, " %s", charts_note);
		mr_doc_para_end(d);
	}
	write_verdicts(d, vs);
	write_env(d, R);
	mr_doc_heading(d, 2, "allocators", "Allocators");
	mr_doc_para(d);
	mr_doc_text(d, "Each cell: the case's key figure (declared in ");
	mr_doc_code(d, "expected/<case>.figures");
	mr_doc_text(d, "; named under the case) under that allocator, as a ratio to the same "
		"config under glibc (the geometric mean over the configs that differ only "
		"in their allocator). Blue: better than glibc (for a memory figure: less); "
		"red: worse.");
	mr_doc_para_end(d);
	mr_repcase_image(d, "allocator matrix", "plots/allocators");
	for (i = 0; i < vs->nk; i++)
		mr_repcase_write(d, vs, R, &vs->k[i], ab[i].title, ab[i].source);
	mr_doc_end(d);
}

/* --- the report ---------------------------------------------------------- */

static int
draw_charts(const struct mr_report_opts *o, const struct mr_rd *R,
	    const struct mr_vds *vs, const struct about *ab, const char *outdir,
	    char **note)
{
	struct mr_plot p;
	struct mr_chart_scan scan;
	int *sel = ecalloc(vs->nk + 1, sizeof *sel), i, rc = 0;
	const struct mr_figs **figs = ecalloc(vs->nk + 1, sizeof *figs);

	*note = NULL;
	if (mr_plot_init(&p, o->plots_dir, o->verbose) < 0) {
		*note = esprintf("not drawn (no gnuplot, or no scripts in %s)", o->plots_dir);
		free(sel);
		free(figs);
		return -1;
	}
	if (mr_chart_scan(R, &scan) < 0) {
		mr_plot_free(&p);
		free(sel);
		free(figs);
		return -2;
	}
	for (i = 0; i < vs->nk; i++) {
		int ki = (int)(mr_rd_case(R, vs->k[i].name) - R->k);

		sel[i] = ki;
		figs[i] = &vs->k[i].figs;
		mr_chart_series(&p, R, &scan, ki, figs[i], ab[i].title, outdir);
		mr_chart_diff(&p, R, ki, &vs->k[i], outdir);
		mr_chart_figures(&p, R, ki, &vs->k[i].figs, outdir);
	}
	mr_chart_allocators(&p, R, sel, figs, vs->nk, outdir);
	if (p.failed) {
		*note = esprintf("%d could not be drawn (see the messages of memrepro report)",
				 p.failed);
		rc = -1;
	}
	mr_chart_scan_free(&scan);
	mr_plot_free(&p);
	free(sel);
	free(figs);
	return rc;
}

static FILE *
open_out(const char *path)
{
	FILE *f = mr_create_out(path);

	if (!f)
		weprintf("create %s:", path);
	return f;
}

static int
close_out(FILE *f, const char *path)
{
	if (ferror(f) | (fclose(f) != 0)) {
		weprintf("write %s:", path);
		return -1;
	}
	return 0;
}

int
mr_report(const struct mr_report_opts *o)
{
	struct mr_check_opts co = {0};
	struct mr_casetab owntab = { 0 }, *tab = o->tab ? o->tab : &owntab;
	struct mr_vds vs;
	struct mr_rd own = { 0 };
	const struct mr_rd *R = o->rd ? o->rd : &own;
	struct about *ab = NULL;
	struct mr_doc d = {0};
	char *outdir = NULL, *md = NULL, *html = NULL, *note = NULL;
	int rc = MR_USAGE, crc, i;

	co.results_dir = o->results_dir;
	co.expected_dir = o->expected_dir;
	co.cases_dir = o->cases_dir;
	co.cases = o->cases;
	co.rd = R;
	co.tab = tab;
	if (!o->tab)
		mr_casetab_init(&owntab, o->cases_dir,
				o->expected_dir ? o->expected_dir : "expected");
	/* read once: check judges the results the charts draw */
	if ((!o->rd && mr_rd_load(&own, o->results_dir) < 0) || mr_check_eval(&co, &vs) != MR_OK) {
		mr_rd_free(&own);
		if (!o->tab)
			mr_casetab_free(&owntab);
		return MR_USAGE;
	}
	ab = ecalloc(vs.nk + 1, sizeof *ab);
	describe_cases(o, tab, &vs, ab);
	outdir = mr_rd_path(o->results_dir, "plots");
	if ((i = mr_mkdir_out(outdir)) < 0) {
		errno = -i;
		weprintf("create %s:", outdir);
		rc = MR_FAILED;
		goto out;
	}
	crc = draw_charts(o, R, &vs, ab, outdir, &note);
	if (crc == -2)
		goto out; /* a corrupt series.tsv is bad input */
	md = mr_rd_path(o->results_dir, "report.md");
	html = mr_rd_path(o->results_dir, "report.html");
	rc = MR_FAILED;
	d.dir = o->results_dir;
	if (!(d.md = open_out(md)) || !(d.html = open_out(html)))
		goto out;
	write_doc(&d, o, R, &vs, ab, note);
	i = close_out(d.md, md);
	d.md = NULL;
	if (close_out(d.html, html) < 0 || i < 0) {
		d.html = NULL;
		goto out;
	}
	d.html = NULL;
	mr_fmt_summary(o->out, &vs);
	fprintf(o->out, "report: %s\nreport: %s\n", md, html);
	/* as check exits: a report of a regression is written, and fails */
	rc = crc < 0 || vs.status != MR_OK ? MR_FAILED : MR_OK;
out:
	if (d.md)
		fclose(d.md);
	if (d.html)
		fclose(d.html);
	for (i = 0; ab && i < vs.nk; i++) {
		free(ab[i].title);
		free(ab[i].source);
	}
	free(ab);
	free(note);
	free(md);
	free(html);
	free(outdir);
	mr_rd_free(&own);
	mr_vds_free(&vs);
	if (!o->tab)
		mr_casetab_free(&owntab);
	return rc;
}
