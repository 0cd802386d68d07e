/* figtab: the table of a case's figures — see figtab.h. */
#include "out/figtab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "check/stats.h"
#include "check/values.h"
#include "core/version.h"
#include "check/words.h"
#include "core/util.h"
#include "out/chutil.h"
#include "proto/schema.h"

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
void
mr_ft_measured(struct strbuf *b, const char *metric, double v)
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

/* What a figure's metric is called in a table (check/words.h's
 * mr_words_row_noun). */
const char *
mr_ft_metric_name(const struct mr_fig *f)
{
	return mr_words_row_noun(f->ckpt ? mr_ckpt_metrics[f->metric] : mr_run_metrics[f->metric]);
}

/* How a config of the report is named: the value of its allocator,
 * key=value for the other keys. */
void
mr_ft_cfg_label(struct strbuf *b, const struct mr_config *c)
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
 * starts ("compare growth"); f itself when it is that first one, or
 * when the figures are not growths. */
const struct mr_fig *
mr_ft_growth_base(const struct mr_figs *fs, const struct mr_fig *f)
{
	int i;

	if (!fs->growth || !f->at)
		return f;
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
		sb_add(b, why ? why : why0 ? why0 : "no value");
		sb_add(b, ")");
	} else {
		if (base != f && v - v0 >= 0)
			sb_add(b, "+");
		mr_ft_measured(b, m, v - v0);
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
int
mr_ft_same_row(const struct mr_fig *a, const struct mr_fig *b)
{
	return a->ckpt == b->ckpt && a->metric == b->metric && a->seq == b->seq &&
	       ((!a->at && !b->at) || (a->at && b->at && !strcmp(a->at, b->at)));
}

int
mr_ft_row_first(const struct mr_figs *fs, int i, char *done)
{
	const struct mr_fig *f = &fs->f[i];
	int j, show = 0;

	if (done[i])
		return 0;
	/* growth: the first checkpoint of a series is where it starts, no row
	 * of its own; a row where another config's series goes on is one */
	for (j = i; j < fs->n; j++)
		if (mr_ft_same_row(f, &fs->f[j])) {
			done[j] = 1;
			show |= !(fs->growth && fs->f[j].at && mr_ft_growth_base(fs, &fs->f[j]) == &fs->f[j]);
		}
	return show;
}

/* The figure column of a row: the metric and when. */
void
mr_ft_row_name(struct strbuf *b, const struct mr_fig *f, const struct mr_fig *base)
{
	sb_add(b, mr_ft_metric_name(f));
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


/* The cell of column c in the row of figure i: every config of the row. */
void
mr_ft_cell(struct strbuf *b, const struct mr_figs *fs, int i, const struct mr_ft_col *c)
{
	const struct mr_fig *f = &fs->f[i];
	int j, any = 0;

	if (!c->report && c->spec) {
		const char *at = strchr(c->spec, '@');

		if (!c->k) {
			sb_add(b, "not run");
			return;
		}
		sb_printf(b, "%s", c->spec);
		if (c->version && (!at || strcmp(c->version, at + 1)))
			sb_printf(b, " (%s)", c->version);
		sb_add(b, ": ");
	}
	for (j = i; j < fs->n; j++) {
		const struct mr_fig *g = &fs->f[j];

		if (!mr_ft_same_row(f, g))
			continue;
		if (any++)
			sb_add(b, "; ");
		mr_ft_cfg_label(b, &g->cfg);
		if (g->cfg.n)
			sb_add(b, " ");
		mr_ft_one(b, fs, j, c);
	}
}

/* Figure j of fs alone, in column c. */
void
mr_ft_one(struct strbuf *b, const struct mr_figs *fs, int j, const struct mr_ft_col *c)
{
	const struct mr_fig *g = &fs->f[j];
	const struct mr_fig *base = mr_ft_growth_base(fs, g);

	if (!c->report) {
		if (c->spec && !c->k)
			sb_add(b, "not run");
		else
			ours(b, c->k, g, base, c->spec);
		return;
	}
	theirs(b, g, base);
	if (g->note) {
		sb_add(b, " (");
		sb_add(b, g->note);
		sb_add(b, ")");
	}
}

/* The original columns of case name over the sources: the report's
 * runtime (fs->runtime) where some results ran it, and the newest other
 * runtime version they ran ("today's"). */
void
mr_ft_orig_cols(const struct mr_rd *const *R, int n, const char *name, const struct mr_figs *fs,
		struct mr_ft_col orig[2])
{
	int i, ci;

	memset(orig, 0, 2 * sizeof *orig);
	for (i = 0; i < n; i++) {
		const struct mr_rd_case *k = mr_rd_case(R[i], name);

		for (ci = 0; k && ci < k->ncfg; ci++) {
			const char *spec = mr_config_get(&k->conf[ci], MR_KEY_RUNTIME), *ver;
			char *key;

			if (!spec || k->cfg[ci].nok == 0)
				continue;
			key = esprintf(MR_ENVK_RUNTIME_VERSION, spec);
			ver = mr_rd_env(R[i], key);
			free(key);
			if (fs->runtime && !strcmp(spec, fs->runtime)) {
				if (!orig[0].k)
					orig[0] = (struct mr_ft_col){ .k = k, .spec = spec, .version = ver };
				continue;
			}
			if (!orig[1].k || (ver && orig[1].version && mr_version_cmp(ver, orig[1].version) > 0))
				orig[1] = (struct mr_ft_col){ .k = k, .spec = spec, .version = ver };
		}
	}
	if (!orig[0].k && fs->runtime)
		orig[0].spec = fs->runtime; /* "not run" */
}
