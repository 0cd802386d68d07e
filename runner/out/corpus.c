/* corpus: the corpus table — see corpus.h. */
#include "out/corpus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/stats.h"
#include "check/version.h"
#include "check/verdict.h"
#include "core/util.h"
#include "out/chutil.h"
#include "proto/schema.h"
#include "results/read.h"

/* One results directory, evaluated. */
struct src {
	struct mr_vds vs;
	struct mr_rd R;
};

/* s for a markdown table cell: '|' escaped, newlines as blanks. */
static void
cell(struct strbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			sb_add(b, "\\|");
		else
			sb_addn(b, *s == '\n' || *s == '\t' ? " " : s, 1);
	}
}

/* n with thousands separated by ',' and d decimals. */
static void
num(struct strbuf *b, double v, int d)
{
	char buf[64], *dot, *p;
	int len, lead;

	snprintf(buf, sizeof buf, "%.*f", d, fabs(v));
	dot = strchr(buf, '.');
	len = dot ? (int)(dot - buf) : (int)strlen(buf);
	if (v < 0 && strspn(buf, "0.") != strlen(buf))
		sb_add(b, "-");
	lead = len % 3 ? len % 3 : 3;
	for (p = buf; *p; p++) {
		int pos = (int)(p - buf);

		if (pos < len && pos >= lead && (pos - lead) % 3 == 0)
			sb_add(b, ",");
		sb_addn(b, p, 1);
	}
}

/* A measured figure of metric (KiB, ms or a count) as a reader writes it. */
static void
measured(struct strbuf *b, const char *metric, double v)
{
	size_t n = strlen(metric);

	if (n > 3 && !strcmp(metric + n - 3, "_kb")) {
		if (fabs(v) >= 10 * 1048576.0) {
			num(b, v / 1048576, 2);
			sb_add(b, " GiB");
		} else {
			num(b, v / 1024, fabs(v) < 10 * 1024 ? 2 : 1);
			sb_add(b, " MiB");
		}
	} else if (n > 3 && !strcmp(metric + n - 3, "_ms")) {
		if (fabs(v) >= 1000) {
			num(b, v / 1000, 2);
			sb_add(b, " s");
		} else {
			num(b, v, 0);
			sb_add(b, " ms");
		}
	} else {
		num(b, v, v == floor(v) ? 0 : 2);
	}
}

static const char *
metric_name(const struct mr_fig *f)
{
	static const struct { const char *m, *human; } names[] = {
		{ "rss_kb", "RSS" }, { "vsz_kb", "VSZ" }, { "pss_kb", "PSS" },
		{ "lazyfree_kb", "LazyFree" }, { "tree_rss_kb", "RSS of the process tree" },
		{ "tree_pss_kb", "PSS of the process tree" },
		{ "tree_private_dirty_kb", "private dirty memory of the process tree" },
		{ "peak_rss_kb", "peak RSS" }, { "maxrss_kb", "peak RSS (rusage)" },
		{ "peak_tree_rss_kb", "peak RSS of the process tree" },
		{ "wall_ms", "wall time" }, { "user_ms", "user time" }, { "sys_ms", "sys time" },
		{ "minflt", "minor faults" },
	};
	const char *m = f->ckpt ? mr_ckpt_metrics[f->metric] : mr_run_metrics[f->metric];
	size_t i;

	for (i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i].m, m))
			return names[i].human;
	return m;
}

/* How a config of the report is named in a cell: the values of its
 * allocator and of a key other than the row's one, key=value otherwise. */
static void
cfg_label(struct strbuf *b, const struct mr_config *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		sb_printf(b, "%s%s%s%s", i ? ", " : "",
			  strcmp(c->key[i], "allocator") ? c->key[i] : "",
			  strcmp(c->key[i], "allocator") ? "=" : "", c->val[i]);
}

/* Our median of figure f's metric at its checkpoint in config ci of k;
 * NAN with *why (fresh) when there is none. */
static double
our_median(const struct mr_rd_case *k, int ci, const struct mr_fig *f, char **why)
{
	struct mr_ref ref;
	double *v, m = NAN;
	int nv;

	memset(&ref, 0, sizeof ref);
	ref.ckpt = f->ckpt;
	ref.metric = f->metric;
	ref.checkpoint = f->at;
	ref.seq = f->seq;
	*why = NULL;
	if ((nv = mr_rd_values(k, ci, &ref, &v)) > 0)
		m = mr_st_median(v, nv);
	else
		*why = mr_rd_nodata(k, ci, &ref);
	free(v);
	return m;
}

/* The first figure of f's config and metric, where the growth of f
 * starts ("compare growth"); f itself when it is that first one. */
static const struct mr_fig *
growth_base(const struct mr_figs *fs, const struct mr_fig *f)
{
	int i;

	for (i = 0; i < fs->n; i++) {
		const struct mr_fig *g = &fs->f[i];

		if (g->at && g->ckpt == f->ckpt && g->metric == f->metric &&
		    !strcmp(g->cfg.n ? g->cfg.str : "", f->cfg.n ? f->cfg.str : ""))
			return g;
	}
	return f;
}

/* Our figure for the report's figure f in case k (the config the
 * report-and-here chart draws for it, among those of runtime spec: NULL,
 * the model), minus that of base unless base is f. */
static void
ours(struct strbuf *b, const struct mr_rd_case *k, const struct mr_fig *f,
     const struct mr_fig *base, const char *spec)
{
	const char *m = f->ckpt ? mr_ckpt_metrics[f->metric] : mr_run_metrics[f->metric];
	int ci = k ? mr_ch_ours_in(k, &f->cfg, spec) : -1;
	char *why = NULL, *why0 = NULL;
	double v, v0 = 0;

	if (ci < 0) {
		sb_add(b, "not run");
		return;
	}
	v = our_median(k, ci, f, &why);
	if (base != f && !isnan(v))
		v0 = our_median(k, ci, base, &why0);
	if (isnan(v) || isnan(v0)) {
		sb_add(b, "not measured (");
		cell(b, why ? why : why0 ? why0 : "no value");
		sb_add(b, ")");
	} else {
		if (base != f && v - v0 >= 0)
			sb_add(b, "+");
		measured(b, m, v - v0);
	}
	free(why);
	free(why0);
}

/* The report's figure f as printed, or its growth from base. */
static void
theirs(struct strbuf *b, const struct mr_fig *f, const struct mr_fig *base)
{
	if (base == f) {
		sb_add(b, f->printed);
	} else {
		/* base in f's unit */
		double d = f->value - base->value * base->scale / f->scale;

		sb_add(b, d >= 0 ? "+" : "");
		num(b, d, fabs(d) >= 100 ? 0 : fabs(d) >= 10 ? 1 : 2);
	}
	if (strcmp(f->unit, "-"))
		sb_printf(b, " %s", f->unit);
}

/* Whether figures a and b are of one row: the same metric at the same
 * checkpoint occurrence. */
static int
same_row(const struct mr_fig *a, const struct mr_fig *b)
{
	return a->ckpt == b->ckpt && a->metric == b->metric && a->seq == b->seq &&
	       ((!a->at && !b->at) || (a->at && b->at && !strcmp(a->at, b->at)));
}

/* The case's claims in a cell: the counts, and the ids of those that do
 * not hold or reproduce. */
static void
claims_cell(struct strbuf *b, const struct mr_vd_case *vk)
{
	const struct mr_vd_totals *t = &vk->t;
	int i, any = 0;

	if (!vk->has_claims) {
		sb_add(b, "no claims");
		return;
	}
	sb_printf(b, "%d held", t->held);
	if (t->reproduces)
		sb_printf(b, ", %d reproduce%s", t->reproduces, t->reproduces == 1 ? "s" : "");
	if (t->regressed)
		sb_printf(b, ", %d regressed", t->regressed);
	if (t->notrepro)
		sb_printf(b, ", %d do%s not reproduce", t->notrepro, t->notrepro == 1 ? "es" : "");
	if (t->cskipped)
		sb_printf(b, ", %d skipped", t->cskipped);
	for (i = 0; i < vk->n; i++) {
		const struct mr_vd *v = &vk->v[i];

		if (v->kind != MR_VD_CLAIM ||
		    (v->word != MR_VD_REGRESSED && v->word != MR_VD_NOTREPRO))
			continue;
		sb_printf(b, "%s`%s`", any++ ? ", " : ": ", v->id);
	}
}

/* The seed's number from its path: "seeds/003_0f01....txt" -> "003". */
static char *
seed_no(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	return estrndup(base, strspn(base, "0123456789"));
}

/* The figure column of a row: the metric and when. */
static void
row_name(struct strbuf *b, const struct mr_fig *f, const struct mr_fig *base)
{
	cell(b, metric_name(f));
	if (base != f) {
		sb_printf(b, " from %s", base->at);
		if (base->seq)
			sb_printf(b, " #%ld", base->seq);
		sb_add(b, " to");
	} else if (f->at) {
		sb_add(b, " at");
	}
	if (f->at)
		sb_printf(b, " %s", f->at);
	if (f->seq)
		sb_printf(b, " #%ld", f->seq);
}

/* Where a column's figures come from: the report's own (k NULL), or
 * the runs of case k under runtime spec (NULL: the model) of results R. */
struct col {
	const struct mr_rd_case *k;
	const char *spec;
	const char *version; /* the runtime's, from env.tsv; NULL: the model's */
	int report;          /* 1: the report's figures */
};

/* The cell of column c in the row of figure i: every config of the row. */
static void
row_side(struct strbuf *b, const struct mr_figs *fs, int i, const struct col *c)
{
	const struct mr_fig *f = &fs->f[i];
	int j, any = 0;

	if (!c->report && c->spec) {
		if (!c->k) {
			sb_add(b, "not run");
			return;
		}
		sb_printf(b, "%s", c->spec);
		if (c->version && strcmp(c->version, c->spec + strcspn(c->spec, "@") + 1))
			sb_printf(b, " (%s)", c->version);
		sb_add(b, ": ");
	}
	for (j = i; j < fs->n; j++) {
		const struct mr_fig *g = &fs->f[j];
		const struct mr_fig *base = fs->growth && g->at ? growth_base(fs, g) : g;

		if (!same_row(f, g))
			continue;
		if (any++)
			sb_add(b, "; ");
		cfg_label(b, &g->cfg);
		if (g->cfg.n)
			sb_add(b, " ");
		if (!c->report) {
			ours(b, c->k, g, base, c->spec);
			continue;
		}
		theirs(b, g, base);
		if (g->note) {
			sb_add(b, " (");
			cell(b, g->note);
			sb_add(b, ")");
		}
	}
}

/* The rows of case vk: the report's figures (fs), the original under the
 * report's runtime (orig[0]) and under today's (orig[1]), the model
 * (model). */
static void
case_rows(FILE *out, const struct mr_vd_case *vk, const struct col *orig,
	  const struct col *model)
{
	const struct mr_figs *fs = &vk->figs;
	const struct col report = { .report = 1 };
	const struct col *cols[] = { &report, &orig[0], &orig[1], model };
	char *done = ecalloc((size_t)fs->n + 1, 1);
	int i, j, first = 1;
	size_t c;

	for (i = 0; i < fs->n; i++) {
		struct strbuf b = {0};
		const struct mr_fig *f = &fs->f[i];
		const struct mr_fig *base = fs->growth && f->at ? growth_base(fs, f) : f;

		if (done[i])
			continue;
		for (j = i; j < fs->n; j++)
			done[j] |= same_row(f, &fs->f[j]);
		/* growth: the first checkpoint of a series is where it starts */
		if (fs->growth && f->at && base == f)
			continue;
		sb_add(&b, "| ");
		if (first) {
			char *no = seed_no(fs->src[f->src]);

			sb_printf(&b, "**%s** ([seed %s](%s), ", vk->name, no, fs->src[f->src]);
			cell(&b, fs->src_label[f->src]);
			sb_add(&b, ")");
			free(no);
		}
		sb_add(&b, " | ");
		row_name(&b, f, base);
		for (c = 0; c < sizeof cols / sizeof *cols; c++) {
			sb_add(&b, " | ");
			if (c == 1 || c == 2) {
				if (!orig[c - 1].spec) {
					sb_add(&b, first ? (orig[0].spec || orig[1].spec ? "not run" : "no original") : "");
					continue;
				}
			}
			row_side(&b, fs, i, cols[c]);
		}
		sb_add(&b, " | ");
		if (first)
			claims_cell(&b, vk);
		sb_add(&b, " |\n");
		fputs(b.s, out);
		sb_free(&b);
		first = 0;
	}
	free(done);
}

/* The original columns of case name over the sources: the report's
 * runtime (fs->runtime) where some results ran it, and the newest other
 * runtime version they ran ("today's"). */
static void
orig_cols(const struct src *s, int n, const char *name, const struct mr_figs *fs,
	  struct col *orig)
{
	int i, ci;

	memset(orig, 0, 2 * sizeof *orig);
	for (i = 0; i < n; i++) {
		const struct mr_rd_case *k = mr_rd_case(&s[i].R, name);

		for (ci = 0; k && ci < k->ncfg; ci++) {
			const char *spec = mr_config_get(&k->conf[ci], MR_KEY_RUNTIME), *ver;
			char *key;

			if (!spec || k->cfg[ci].nok == 0)
				continue;
			key = esprintf("runtime.%s.version", spec);
			ver = mr_rd_env(&s[i].R, key);
			free(key);
			if (fs->runtime && !strcmp(spec, fs->runtime)) {
				if (!orig[0].k)
					orig[0] = (struct col){ .k = k, .spec = spec, .version = ver };
				continue;
			}
			if (!orig[1].k || (ver && orig[1].version && mr_version_cmp(ver, orig[1].version) > 0))
				orig[1] = (struct col){ .k = k, .spec = spec, .version = ver };
		}
	}
	if (!orig[0].k && fs->runtime)
		orig[0].spec = fs->runtime; /* "not run" */
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
mr_corpus(const struct mr_corpus_opts *o)
{
	struct src *s = ecalloc((size_t)o->ndirs + 1, sizeof *s);
	const char **names = NULL;
	int nnames = 0, rc = MR_USAGE, i, j, l, loaded = 0;

	for (i = 0; i < o->ndirs; i++, loaded++) {
		struct mr_cmp_opts co = {0};

		co.results_dir = o->dirs[i];
		co.expected_dir = o->expected_dir;
		co.cases_dir = o->cases_dir;
		if (mr_check_eval(&co, &s[i].vs) != MR_OK)
			goto out;
		if (mr_rd_load(&s[i].R, o->dirs[i]) < 0) {
			mr_vds_free(&s[i].vs);
			goto out;
		}
		for (j = 0; j < s[i].vs.nk; j++) {
			for (l = 0; l < nnames && strcmp(names[l], s[i].vs.k[j].name); l++)
				;
			if (l == nnames) {
				names = erealloc(names, sizeof *names * (size_t)(nnames + 1));
				names[nnames++] = s[i].vs.k[j].name;
			}
		}
	}
	if (nnames > 1)
		qsort(names, (size_t)nnames, sizeof *names, by_name);
	fprintf(o->out, "| case (report) | figure | the report | its program, on the report's runtime | its program, today | the model | claims |\n"
		"|---|---|---|---|---|---|---|\n");
	for (l = 0; l < nnames; l++) {
		for (i = 0; i < o->ndirs; i++) {
			for (j = 0; j < s[i].vs.nk && strcmp(s[i].vs.k[j].name, names[l]); j++)
				;
			if (j < s[i].vs.nk)
				break;
		}
		{
			struct col orig[2], model = { .k = mr_rd_case(&s[i].R, names[l]) };

			orig_cols(s, o->ndirs, names[l], &s[i].vs.k[j].figs, orig);
			case_rows(o->out, &s[i].vs.k[j], orig, &model);
		}
	}
	fprintf(o->out, "\nWritten by `memrepro corpus");
	for (i = 0; i < o->ndirs; i++)
		fprintf(o->out, " %s", o->dirs[i]);
	fprintf(o->out, "` from results of %s", s[0].R.platform ? s[0].R.platform : "?");
	for (i = 0; i < o->ndirs; i++) {
		const char *p = mr_rd_env(&s[i].R, "profile"), *r = mr_rd_env(&s[i].R, "repeat"),
			   *t = mr_rd_env(&s[i].R, "started");

		fprintf(o->out, "%s%s: profile %s, %s repeats, started %s", i ? "; " : " (",
			o->dirs[i], p ? p : "?", r ? r : "?", t ? t : "?");
	}
	fprintf(o->out, ").\n");
	rc = ferror(o->out) ? MR_FAILED : MR_OK;
out:
	for (i = 0; i < loaded; i++) {
		mr_vds_free(&s[i].vs);
		mr_rd_free(&s[i].R);
	}
	free(names);
	free(s);
	return rc;
}
