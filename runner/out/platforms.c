/* platforms: the claim x platform table — see platforms.h. */
#include "out/platforms.h"

#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/verdict.h"
#include "core/util.h"
#include "out/doc.h"
#include "out/escape.h"
#include "out/format.h"
#include "out/repcase.h"
#include "results/read.h"
#include "proto/schema.h"

/* One platform: its results and their verdicts. */
struct plat {
	const char *dir;
	struct mr_rd R;
	struct mr_vds vs;
};

/* A line of the header: what env.tsv says of each platform. */
struct hrow {
	char *key;    /* env.tsv's key ("kernel", "allocator.jemalloc.version"),
	                 "dir" or "baseline" (owned) */
	char *label;  /* as Markdown and HTML name it (owned) */
	char **val;   /* per platform, NULL: not recorded (owned) */
};

/* A claim's row: its verdict on each platform. */
struct crow {
	const char *kase, *id;     /* into a platform's verdicts */
	const struct mr_vd **cell; /* per platform, NULL: not judged there */
	int differs;               /* the platforms that judged it disagree */
};

/* Everything the writers print. */
struct table {
	struct plat *p;
	int np;
	struct hrow *h;
	int nh;
	struct crow *c;
	int nc;
};

int
mr_plat_fmt_parse(const char *name)
{
	static const char *const names[] = { "md", "tsv", "html", "json" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(name, names[i]) == 0)
			return (int)i;
	return -1;
}

/* --- reading ------------------------------------------------------------ */

/* Check and load dirs[i] into P[i], as check --from does.  MR_OK, or
 * MR_USAGE after printing why (P[i] is then empty). */
static int
load_one(const struct mr_plat_opts *o, int i, struct plat *P)
{
	struct mr_check_opts co = {0};

	P->dir = o->dirs[i];
	co.results_dir = o->dirs[i];
	co.expected_dir = o->expected_dir;
	co.cases_dir = o->cases_dir;
	co.rd = &P->R; /* read once */
	if (mr_rd_load(&P->R, o->dirs[i]) < 0 || mr_check_eval(&co, &P->vs) != MR_OK) {
		mr_rd_free(&P->R);
		return MR_USAGE;
	}
	return MR_OK;
}

/* Two directories of one platform key would be two columns of one
 * platform: refused, naming both.  MR_OK or MR_USAGE. */
static int
distinct(const struct plat *P, int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(P[i].R.platform, P[j].R.platform) == 0) {
				weprintf("platforms: %s and %s are both of platform %s: give one results directory per platform (merge a platform's shards first)",
					 P[j].dir, P[i].dir, P[i].R.platform);
				return MR_USAGE;
			}
	return MR_OK;
}

/* --- the header --------------------------------------------------------- */

static struct hrow *
hrow_add(struct table *t, const char *key, const char *label)
{
	struct hrow *h;

	t->h = erealloc(t->h, sizeof *t->h * (size_t)(t->nh + 1));
	h = &t->h[t->nh++];
	h->key = estrdup(key);
	h->label = estrdup(label);
	h->val = ecalloc((size_t)t->np + 1, sizeof *h->val);
	return h;
}

/* A line of env.tsv's key on every platform. */
static void
env_row(struct table *t, const char *key, const char *label)
{
	struct hrow *h = hrow_add(t, key, label);
	int i;

	for (i = 0; i < t->np; i++) {
		const char *v = mr_rd_env(&t->p[i].R, key);

		h->val[i] = v ? estrdup(v) : NULL;
	}
}

/* Whether the header has a line of key already. */
static int
has_row(const struct table *t, const char *key)
{
	int i;

	for (i = 0; i < t->nh; i++)
		if (strcmp(t->h[i].key, key) == 0)
			return 1;
	return 0;
}

/* The allocator of env.tsv key k ("allocator.NAME.soname"): its name,
 * fresh, or NULL when k is not such a key. */
static char *
alloc_name(const char *k)
{
	const char *dot = strrchr(k, '.');

	if (strncmp(k, "allocator.", 10) != 0 || !dot || dot <= k + 10 ||
	    strcmp(dot, ".soname") != 0)
		return NULL;
	return estrndup(k + 10, (size_t)(dot - k - 10));
}

/* A line per allocator any platform recorded, in order of appearance:
 * its version, or why it is missing. */
static void
alloc_rows(struct table *t)
{
	int i, j, l;

	for (i = 0; i < t->np; i++)
		for (j = 0; j < t->p[i].R.nenv; j++) {
			char *name = alloc_name(t->p[i].R.envk[j]), *key, *label, *miss;

			if (!name)
				continue;
			key = esprintf(MR_ENVK_ALLOC_VERSION, name);
			miss = esprintf(MR_ENVK_ALLOC_MISSING, name);
			label = esprintf("allocator %s", name);
			if (!has_row(t, key)) {
				struct hrow *h = hrow_add(t, key, label);

				for (l = 0; l < t->np; l++) {
					const char *v = mr_rd_env(&t->p[l].R, key),
						   *m = mr_rd_env(&t->p[l].R, miss);

					h->val[l] = v ? estrdup(v) : m ? esprintf("missing: %s", m) : NULL;
				}
			}
			free(name);
			free(key);
			free(miss);
			free(label);
		}
}

/* The baseline's counts of vs, or that there is none.  Fresh string. */
static char *
baseline_text(const struct mr_vds *vs)
{
	const struct mr_vd_totals *a = &vs->all;
	int i, notrun = 0;

	if (!a->has_bl)
		return esprintf("no baseline for %s", vs->platform ? vs->platform : "?");
	for (i = 0; i < vs->nk; i++)
		notrun += vs->k[i].notrun_rows;
	if (!notrun)
		return esprintf("%d held, %d regressed, %d improved, %d skipped", a->bheld,
				a->bregressed, a->bimproved, a->bmissing);
	return esprintf("%d held, %d regressed, %d improved, %d skipped; %d rows of configs not run here",
			a->bheld, a->bregressed, a->bimproved, a->bmissing, notrun);
}

static void
header(struct table *t)
{
	struct hrow *h;
	int i;

	h = hrow_add(t, "dir", "results");
	for (i = 0; i < t->np; i++)
		h->val[i] = estrdup(t->p[i].dir);
	env_row(t, MR_ENVK_KERNEL, "kernel");
	env_row(t, MR_ENVK_LIBC, "libc");
	alloc_rows(t);
	env_row(t, MR_ENVK_THP, "THP");
	env_row(t, MR_ENVK_THP_DEFRAG, "THP defrag");
	env_row(t, MR_ENVK_CPUS, "CPUs");
	env_row(t, MR_ENVK_CPU_MODEL, "CPU model");
	env_row(t, MR_ENVK_ARCH, "arch");
	env_row(t, MR_ENVK_STARTED, "started");
	env_row(t, MR_ENVK_COMMIT, "memrepro commit");
	h = hrow_add(t, "baseline", "baseline");
	for (i = 0; i < t->np; i++)
		h->val[i] = baseline_text(&t->p[i].vs);
}

/* --- the claims --------------------------------------------------------- */

/* The row of case kase, claim id, added when new. */
static struct crow *
crow_of(struct table *t, const char *kase, const char *id)
{
	struct crow *c;
	int i;

	for (i = 0; i < t->nc; i++)
		if (strcmp(t->c[i].kase, kase) == 0 && strcmp(t->c[i].id, id) == 0)
			return &t->c[i];
	t->c = erealloc(t->c, sizeof *t->c * (size_t)(t->nc + 1));
	c = &t->c[t->nc++];
	c->kase = kase;
	c->id = id;
	c->cell = ecalloc((size_t)t->np + 1, sizeof *c->cell);
	c->differs = 0;
	return c;
}

/* Whether the platforms that judged c gave it different words. */
static int
differs(const struct crow *c, int np)
{
	const struct mr_vd *first = NULL;
	int i;

	for (i = 0; i < np; i++) {
		if (!c->cell[i])
			continue;
		if (first && c->cell[i]->word != first->word)
			return 1;
		if (!first)
			first = c->cell[i];
	}
	return 0;
}

/* Every claim of every platform, in order of first appearance, then
 * those where the platforms disagree moved first (in that order). */
static void
claims(struct table *t)
{
	struct crow *sorted;
	int i, j, l, n = 0;

	for (i = 0; i < t->np; i++)
		for (j = 0; j < t->p[i].vs.nk; j++) {
			const struct mr_vd_case *k = &t->p[i].vs.k[j];

			for (l = 0; l < k->n; l++)
				if (k->v[l].kind == MR_VD_CLAIM)
					crow_of(t, k->name, k->v[l].id)->cell[i] = &k->v[l];
		}
	sorted = ecalloc((size_t)t->nc + 1, sizeof *sorted);
	for (i = 0; i < t->nc; i++)
		t->c[i].differs = differs(&t->c[i], t->np);
	for (l = 1; l >= 0; l--)
		for (i = 0; i < t->nc; i++)
			if (t->c[i].differs == l)
				sorted[n++] = t->c[i];
	free(t->c);
	t->c = sorted;
}

static void
table_free(struct table *t)
{
	int i, j;

	for (i = 0; i < t->nh; i++) {
		for (j = 0; j < t->np; j++)
			free(t->h[i].val[j]);
		free(t->h[i].val);
		free(t->h[i].key);
		free(t->h[i].label);
	}
	for (i = 0; i < t->nc; i++)
		free(t->c[i].cell);
	free(t->h);
	free(t->c);
}

/* --- Markdown and HTML -------------------------------------------------- */

/* The column heads: lead (NULL-terminated), then the platform keys.
 * Fresh array of pointers into lead and the results (the keys are
 * letters, digits and ._+@- only: read.c refuses others). */
static const char **
heads(const struct table *t, const char *const *lead)
{
	const char **h;
	int n = 0, i;

	while (lead[n])
		n++;
	h = ecalloc((size_t)n + (size_t)t->np + 1, sizeof *h);
	for (i = 0; i < n; i++)
		h[i] = lead[i];
	for (i = 0; i < t->np; i++)
		h[n + i] = t->p[i].R.platform;
	return h;
}

static void
doc_header(struct mr_doc *d, const struct table *t)
{
	static const char *const lead[] = { "", NULL };
	const char **h = heads(t, lead);
	int i, j;

	mr_doc_heading(d, 2, "platforms", "Platforms");
	mr_doc_table(d, h);
	for (i = 0; i < t->nh; i++) {
		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_text(d, t->h[i].label);
		for (j = 0; j < t->np; j++) {
			mr_doc_cell(d);
			mr_doc_text(d, t->h[i].val[j] ? t->h[i].val[j] : "-");
		}
		mr_doc_row_end(d);
	}
	mr_doc_table_end(d);
	free(h);
}

static void
doc_claims(struct mr_doc *d, const struct table *t)
{
	static const char *const lead[] = { "case", "claim", "platforms", NULL };
	const char **h = heads(t, lead);
	int i, j;

	mr_doc_heading(d, 2, "claims", "Claims");
	mr_doc_table(d, h);
	for (i = 0; i < t->nc; i++) {
		const struct crow *c = &t->c[i];

		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_text(d, c->kase);
		mr_doc_cell(d);
		mr_doc_code(d, c->id);
		mr_doc_cell(d);
		if (c->differs)
			mr_doc_bold(d, "differ");
		else
			mr_doc_text(d, "agree");
		for (j = 0; j < t->np; j++) {
			mr_doc_cell(d);
			if (c->cell[j])
				mr_repcase_verdict(d, c->cell[j]->word);
			else
				mr_doc_text(d, "not run");
		}
		mr_doc_row_end(d);
	}
	mr_doc_table_end(d);
	free(h);
}

/* Markdown (html 0) or HTML (1), through doc.h with the other stream to
 * /dev/null.  0, or -1 when /dev/null cannot be opened (printed). */
static int
write_doc(const struct table *t, FILE *out, int html)
{
	FILE *null = fopen("/dev/null", "w");
	struct mr_doc d = {0};
	int differ = 0, i;

	if (!null) {
		weprintf("/dev/null:");
		return -1;
	}
	d.md = html ? null : out;
	d.html = html ? out : null;
	d.dir = ".";
	for (i = 0; i < t->nc; i++)
		differ += t->c[i].differs;
	mr_doc_begin(&d, "Where each claim holds");
	mr_doc_para(&d);
	mr_doc_textf(&d, "%d claim%s on %d platform%s; %d where the platforms differ, listed first.",
		     t->nc, t->nc == 1 ? "" : "s", t->np, t->np == 1 ? "" : "s", differ);
	mr_doc_para_end(&d);
	doc_header(&d, t);
	doc_claims(&d, t);
	mr_doc_end(&d);
	fclose(null);
	return 0;
}

/* --- TSV and JSON ------------------------------------------------------- */

/* A TSV field: tabs, newlines and carriage returns as blanks, "-" for
 * none. */
static void
tsv_field(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void
write_tsv(const struct table *t, FILE *f)
{
	int i, j;

	fputs("case\tclaim\tplatforms", f);
	for (j = 0; j < t->np; j++)
		fprintf(f, "\t%s", t->p[j].R.platform);
	fputc('\n', f);
	for (i = 0; i < t->nh; i++) {
		fprintf(f, "-\t%s\t-", t->h[i].key);
		for (j = 0; j < t->np; j++) {
			fputc('\t', f);
			tsv_field(f, t->h[i].val[j]);
		}
		fputc('\n', f);
	}
	for (i = 0; i < t->nc; i++) {
		fprintf(f, "%s\t%s\t%s", t->c[i].kase, t->c[i].id,
			t->c[i].differs ? "differ" : "agree");
		for (j = 0; j < t->np; j++)
			fprintf(f, "\t%s", t->c[i].cell[j] ? mr_vd_words[t->c[i].cell[j]->word] : "-");
		fputc('\n', f);
	}
}

/* "key": "s" (null when s is NULL). */
static void
jstr(FILE *f, const char *key, const char *s)
{
	fputc('"', f);
	mr_esc_json(f, key);
	fputs("\": ", f);
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	mr_esc_json(f, s);
	fputc('"', f);
}

static void
json_platform(FILE *f, const struct table *t, int j)
{
	const struct mr_vd_totals *a = &t->p[j].vs.all;
	int i;

	fputs(j ? ",\n    {" : "\n    {", f);
	jstr(f, "platform", t->p[j].R.platform);
	for (i = 0; i < t->nh; i++) {
		fputs(", ", f);
		jstr(f, t->h[i].key, t->h[i].val[j]);
	}
	if (a->has_bl)
		fprintf(f, ", \"baseline_rows\": {\"held\": %d, \"regressed\": %d, \"improved\": %d, \"skipped\": %d}}",
			a->bheld, a->bregressed, a->bimproved, a->bmissing);
	else
		fputs(", \"baseline_rows\": null}", f);
}

static void
json_claim(FILE *f, const struct crow *c, int np, int first)
{
	int j;

	fputs(first ? "\n    {" : ",\n    {", f);
	jstr(f, "case", c->kase);
	fputs(", ", f);
	jstr(f, "claim", c->id);
	fprintf(f, ", \"differ\": %s, \"verdicts\": [", c->differs ? "true" : "false");
	for (j = 0; j < np; j++) {
		const struct mr_vd *v = c->cell[j];

		fputs(j ? ", " : "", f);
		if (!v) {
			fputs("null", f);
			continue;
		}
		fputc('{', f);
		jstr(f, "verdict", mr_vd_words[v->word]);
		fprintf(f, ", \"status\": \"%s\", ", v->holds ? "holds" : "reported");
		jstr(f, "detail", v->detail);
		fputs(", ", f);
		jstr(f, "words", v->words);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void
write_json(const struct table *t, FILE *f)
{
	int i;

	fputs("{\n  \"platforms\": [", f);
	for (i = 0; i < t->np; i++)
		json_platform(f, t, i);
	fputs("\n  ],\n  \"claims\": [", f);
	for (i = 0; i < t->nc; i++)
		json_claim(f, &t->c[i], t->np, i == 0);
	fputs("\n  ]\n}\n", f);
}

/* --- the command -------------------------------------------------------- */

static int
write_table(const struct table *t, const struct mr_plat_opts *o)
{
	int rc = 0;

	switch (o->format) {
	case MR_PLAT_MD: rc = write_doc(t, o->out, 0); break;
	case MR_PLAT_HTML: rc = write_doc(t, o->out, 1); break;
	case MR_PLAT_TSV: write_tsv(t, o->out); break;
	case MR_PLAT_JSON: write_json(t, o->out); break;
	}
	if (rc < 0)
		return MR_FAILED;
	if (fflush(o->out) != 0 || ferror(o->out)) {
		weprintf("platforms: writing the table:");
		return MR_FAILED;
	}
	return MR_OK;
}

int
mr_platforms(const struct mr_plat_opts *o)
{
	struct table t = {0};
	int i, rc = MR_OK;

	t.p = ecalloc((size_t)o->ndirs + 1, sizeof *t.p);
	for (i = 0; i < o->ndirs && rc == MR_OK; i++, t.np++)
		if ((rc = load_one(o, i, &t.p[i])) != MR_OK)
			break;
	if (rc == MR_OK)
		rc = distinct(t.p, t.np);
	if (rc == MR_OK) {
		header(&t);
		claims(&t);
		rc = write_table(&t, o);
	}
	table_free(&t);
	for (i = 0; i < t.np; i++) {
		mr_vds_free(&t.p[i].vs);
		mr_rd_free(&t.p[i].R);
	}
	free(t.p);
	return rc;
}
