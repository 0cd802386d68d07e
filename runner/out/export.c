#include "out/export.h"

#include <stdlib.h>
#include <string.h>

#include "check/baseline.h"
#include "check/claims.h"
#include "check/values.h"
#include "results/config.h"
#include "check/stats.h"
#include "core/util.h"
#include "out/escape.h"
#include "results/read.h"

/* One figure of one config, as written. */
struct fig {
	const char *kase;   /* case name */
	const char *config; /* canonical config */
	char *measure;      /* "rss_kb@cleared" (owned) */
	const char *unit;
	double med, min, max;
	int n;              /* repeats the median is over */
};

/* Where the figures go, and how many of each are written. */
struct sink {
	FILE *f;
	enum mr_export_fmt format;
	const char *platform;
	int nbench;         /* bmf: benchmarks opened */
	int nmeas;          /* measures in the open benchmark / array items */
};

int
mr_export_parse(const char *name)
{
	if (!strcmp(name, "bmf"))
		return MR_EXPORT_BMF;
	if (!strcmp(name, "benchmark-action"))
		return MR_EXPORT_ACTION;
	return -1;
}

/* The unit of a metric, by its name's suffix. */
static const char *
unit_of(const char *metric)
{
	size_t n = strlen(metric);

	if (n > 3 && !strcmp(metric + n - 3, "_kb"))
		return "KiB";
	if (n > 3 && !strcmp(metric + n - 3, "_ms"))
		return "ms";
	if (n > 3 && !strcmp(metric + n - 3, "flt"))
		return "faults";
	return "count";
}

/* A number as JSON has it (every figure here is finite). */
static void
num(FILE *f, double v)
{
	fprintf(f, "%.15g", v);
}

/* The benchmark's name, escaped, as both formats begin it: "case config". */
static void
bench_name(FILE *f, const struct fig *g)
{
	mr_esc_json(f, g->kase);
	fputc(' ', f);
	mr_esc_json(f, g->config);
}

static void
emit_bmf(struct sink *s, const struct fig *g)
{
	FILE *f = s->f;

	if (s->nmeas == 0) {
		fprintf(f, "%s\n  \"", s->nbench++ ? "," : "");
		bench_name(f, g);
		fputs("\": {", f);
	}
	fprintf(f, "%s\n    \"", s->nmeas++ ? "," : "");
	mr_esc_json(f, g->measure);
	fputs("\": {\"value\": ", f);
	num(f, g->med);
	fputs(", \"lower_value\": ", f);
	num(f, g->min);
	fputs(", \"upper_value\": ", f);
	num(f, g->max);
	fputc('}', f);
}

static void
emit_action(struct sink *s, const struct fig *g)
{
	FILE *f = s->f;

	fprintf(f, "%s\n  {\"name\": \"", s->nmeas++ ? "," : "");
	bench_name(f, g);
	fputc(' ', f);
	mr_esc_json(f, g->measure);
	fprintf(f, "\", \"unit\": \"%s\", \"value\": ", g->unit);
	num(f, g->med);
	fputs(", \"range\": \"", f);
	num(f, g->min);
	fputs("..", f);
	num(f, g->max);
	fprintf(f, "\", \"extra\": \"%d %s; platform ", g->n,
		g->n == 1 ? "repeat" : "repeats");
	mr_esc_json(f, s->platform);
	fputs("\"}", f);
}

/* Write ref of config ci of k when some ok run measured it. */
static void
one(struct sink *s, const struct mr_rd_case *k, int ci, const struct mr_ref *ref)
{
	struct fig g = { .kase = k->name, .config = k->conf[ci].str };
	double *v;
	int n = mr_rd_values(k, ci, ref, &v);

	if (n > 0) {
		g.measure = mr_rd_ref_name(ref);
		g.unit = unit_of(ref->ckpt ? mr_ckpt_metrics[ref->metric]
					   : mr_run_metrics[ref->metric]);
		g.med = mr_st_median(v, n);
		g.min = v[0];
		g.max = v[n - 1];
		g.n = n;
		if (s->format == MR_EXPORT_BMF)
			emit_bmf(s, &g);
		else
			emit_action(s, &g);
		free(g.measure);
	}
	free(v);
}

/* Whether ref is a figure export writes for config c: of read.h's
 * figures (mr_rd_figures, those compare follows), wall_ms, the run
 * metrics bless records for c, and (without a runtime) every checkpoint
 * figure, which are bless's already. */
static int
exported(const struct mr_config *c, const struct mr_ref *ref)
{
	const char *name = ref->ckpt ? mr_ckpt_metrics[ref->metric]
				     : mr_run_metrics[ref->metric];
	int runtime = mr_config_get(c, MR_KEY_RUNTIME) != NULL, m;

	if (!ref->ckpt && !strcmp(name, "wall_ms"))
		return 1;
	if (runtime)
		return 0;
	if (ref->ckpt)
		return 1;
	for (m = 0; mr_bless_run_metrics[m]; m++)
		if (!strcmp(name, mr_bless_run_metrics[m]))
			return !mr_bl_timed(c, name);
	return 0;
}

/* Every figure of config ci, in read.h's order. */
static void
config_figures(struct sink *s, const struct mr_rd_case *k, int ci)
{
	struct mr_ref *refs;
	int n = mr_rd_figures(k, ci, &refs), i;

	for (i = 0; i < n; i++)
		if (exported(&k->conf[ci], &refs[i]))
			one(s, k, ci, &refs[i]);
	free(refs);
}

int
mr_export(const struct mr_export_opts *o)
{
	struct sink s = { .f = o->out ? o->out : stdout, .format = o->format };
	struct mr_rd R;
	int i, ci;

	if (mr_rd_load(&R, o->dir) < 0) {
		mr_rd_free(&R);
		return MR_USAGE;
	}
	s.platform = R.platform ? R.platform : "-";
	fputc(o->format == MR_EXPORT_BMF ? '{' : '[', s.f);
	for (i = 0; i < R.nk; i++) {
		for (ci = 0; ci < R.k[i].ncfg; ci++) {
			if (o->format == MR_EXPORT_BMF)
				s.nmeas = 0;
			config_figures(&s, &R.k[i], ci);
			if (o->format == MR_EXPORT_BMF && s.nmeas)
				fputs("\n  }", s.f);
		}
	}
	fputs(o->format == MR_EXPORT_BMF ? "\n}\n" : "\n]\n", s.f);
	fflush(s.f);
	mr_rd_free(&R);
	return MR_OK;
}
