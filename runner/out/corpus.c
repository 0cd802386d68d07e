/* corpus: the corpus table — see corpus.h. */
#include "out/corpus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/stats.h"
#include "check/verdict.h"
#include "core/util.h"
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

/* Whether config c has every pair of the report's config want. */
static int
matches(const struct mr_config *c, const struct mr_config *want)
{
	int i;

	for (i = 0; i < want->n; i++)
		if (!mr_config_same(mr_config_get(c, want->key[i]), want->val[i]))
			return 0;
	return 1;
}

/* Our figure for the report's figure f in case k: the median of the
 * matching configs' medians, with their range when there are several. */
static void
ours(struct strbuf *b, const struct mr_rd_case *k, const struct mr_fig *f)
{
	const char *m = f->ckpt ? mr_ckpt_metrics[f->metric] : mr_run_metrics[f->metric];
	struct mr_ref ref;
	double *med = ecalloc((size_t)k->ncfg + 1, sizeof *med), lo = INFINITY, hi = -INFINITY;
	int n = 0, i, first = -1;

	memset(&ref, 0, sizeof ref);
	ref.ckpt = f->ckpt;
	ref.metric = f->metric;
	ref.checkpoint = f->at;
	ref.seq = f->seq;
	for (i = 0; i < k->ncfg; i++) {
		double *v;
		int nv;

		if (!matches(&k->conf[i], &f->cfg))
			continue;
		first = first < 0 ? i : first;
		if ((nv = mr_rd_values(k, i, &ref, &v)) > 0) {
			med[n] = mr_st_median(v, nv);
			lo = med[n] < lo ? med[n] : lo;
			hi = med[n] > hi ? med[n] : hi;
			n++;
		}
		free(v);
	}
	if (first < 0) {
		sb_add(b, "not run");
	} else if (!n) {
		char *why = mr_rd_nodata(k, first, &ref);

		sb_add(b, "not measured (");
		cell(b, why);
		sb_add(b, ")");
		free(why);
	} else {
		measured(b, m, mr_st_median(med, n));
		if (n > 1) {
			sb_printf(b, " (%d configs: ", n);
			measured(b, m, lo);
			sb_add(b, " to ");
			measured(b, m, hi);
			sb_add(b, ")");
		}
	}
	free(med);
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

static void
case_rows(FILE *out, const struct mr_vd_case *vk, const struct mr_rd_case *k)
{
	const struct mr_figs *fs = &vk->figs;
	char *done = ecalloc((size_t)fs->n + 1, 1);
	int i, j, first = 1;

	for (i = 0; i < fs->n; i++) {
		struct strbuf b = {0};

		if (done[i])
			continue;
		sb_add(&b, "| ");
		if (first) {
			char *no = seed_no(fs->src[fs->f[i].src]);

			sb_printf(&b, "**%s** ([seed %s](%s), ", vk->name, no, fs->src[fs->f[i].src]);
			cell(&b, fs->src_label[fs->f[i].src]);
			sb_add(&b, ")");
			free(no);
		}
		sb_add(&b, " | ");
		cell(&b, metric_name(&fs->f[i]));
		if (fs->f[i].at)
			sb_printf(&b, " at %s", fs->f[i].at);
		if (fs->f[i].seq)
			sb_printf(&b, " #%ld", fs->f[i].seq);
		sb_add(&b, " | ");
		for (j = i; j < fs->n; j++) {
			const struct mr_fig *f = &fs->f[j];
			char v[64];

			if (!same_row(&fs->f[i], f))
				continue;
			if (j > i)
				sb_add(&b, "; ");
			cfg_label(&b, &f->cfg);
			snprintf(v, sizeof v, "%s%g", f->cfg.n ? " " : "", f->value);
			sb_add(&b, v);
			if (strcmp(f->unit, "-"))
				sb_printf(&b, " %s", f->unit);
			if (f->note) {
				sb_add(&b, " (");
				cell(&b, f->note);
				sb_add(&b, ")");
			}
		}
		sb_add(&b, " | ");
		for (j = i; j < fs->n; j++) {
			if (!same_row(&fs->f[i], &fs->f[j]))
				continue;
			if (j > i)
				sb_add(&b, "; ");
			cfg_label(&b, &fs->f[j].cfg);
			if (fs->f[j].cfg.n)
				sb_add(&b, " ");
			if (k)
				ours(&b, k, &fs->f[j]);
			else
				sb_add(&b, "not run");
			done[j] = 1;
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
	fprintf(o->out, "| case (report) | figure | the report | measured here | claims |\n"
		"|---|---|---|---|---|\n");
	for (l = 0; l < nnames; l++) {
		for (i = 0; i < o->ndirs; i++) {
			for (j = 0; j < s[i].vs.nk && strcmp(s[i].vs.k[j].name, names[l]); j++)
				;
			if (j < s[i].vs.nk)
				break;
		}
		case_rows(o->out, &s[i].vs.k[j], mr_rd_case(&s[i].R, names[l]));
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
