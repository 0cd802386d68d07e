#include "out/report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "proto/cases.h"
#include "out/charts.h"
#include "check/check.h"
#include "out/escape.h"
#include "out/plot.h"
#include "results/read.h"
#include "core/safeio.h"
#include "core/util.h"
#include "check/verdict.h"

/* --- the document: one walk, two writers --------------------------------- */

struct doc {
	FILE *md;
	FILE *html;
	const char *dir;  /* the results directory (images are read from it) */
	int in_table;     /* markdown: '|' must be escaped */
	int ncell;        /* cells written in the current row */
};

static int
alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Markdown text: what could start emphasis, code, a link, HTML or a table
 * cell is escaped; an underscore inside a word and a '<' that starts no
 * tag cannot (GFM), so they stay.  ('>' and '#' matter only at the start
 * of a line, where this text never is.) */
static void
md_esc(struct doc *d, const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '\n' || *p == '\r' || *p == '\t')
			fputc(' ', d->md);
		else if (*p == '_' && p > s && alnum(p[-1]) && alnum(p[1]))
			fputc('_', d->md);
		else if (*p == '<' && !alnum(p[1]) && !strchr("/!?", p[1]))
			fputc('<', d->md); /* not a tag: "8 MiB < 32 MiB" */
		else if (strchr("\\`*_[]<|~", *p))
			fprintf(d->md, "\\%c", *p);
		else
			fputc(*p, d->md);
	}
}


/* Plain text. */
static void
text(struct doc *d, const char *s)
{
	md_esc(d, s);
	mr_esc_xml(d->html, s);
}

static void
textf(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
textf(struct doc *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		eprintf("vasprintf:");
	va_end(ap);
	text(d, s);
	free(s);
}

/* Inline code: a backtick fence longer than any run inside. */
static void
code(struct doc *d, const char *s)
{
	int run = 0, longest = 0, i;
	const char *p;

	for (p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (i = 0; i <= longest; i++)
		fputc('`', d->md);
	if (*s == '`' || (*s && s[strlen(s) - 1] == '`'))
		fputc(' ', d->md);
	for (p = s; *p; p++) {
		if (*p == '|' && d->in_table)
			fputs("\\|", d->md);
		else if (*p == '\n' || *p == '\t')
			fputc(' ', d->md);
		else
			fputc(*p, d->md);
	}
	if (*s == '`' || (*s && s[strlen(s) - 1] == '`'))
		fputc(' ', d->md);
	for (i = 0; i <= longest; i++)
		fputc('`', d->md);
	fputs("<code>", d->html);
	mr_esc_xml(d->html, s);
	fputs("</code>", d->html);
}

static void
bold(struct doc *d, const char *s)
{
	fputs("**", d->md);
	md_esc(d, s);
	fputs("**", d->md);
	fputs("<strong>", d->html);
	mr_esc_xml(d->html, s);
	fputs("</strong>", d->html);
}

/* href is a path relative to the results directory, or "#anchor". */
static void
doc_link(struct doc *d, const char *s, const char *href)
{
	fputc('[', d->md);
	md_esc(d, s);
	fprintf(d->md, "](%s)", href);
	fprintf(d->html, "<a href=\"");
	mr_esc_xml(d->html, href);
	fprintf(d->html, "\">");
	mr_esc_xml(d->html, s);
	fprintf(d->html, "</a>");
}

static void
heading(struct doc *d, int level, const char *id, const char *s)
{
	fprintf(d->md, "\n%.*s ", level, "######");
	md_esc(d, s);
	fputs("\n\n", d->md);
	fprintf(d->html, "<h%d", level);
	if (id) {
		fputs(" id=\"", d->html);
		mr_esc_xml(d->html, id);
		fputc('"', d->html);
	}
	fputc('>', d->html);
	mr_esc_xml(d->html, s);
	fprintf(d->html, "</h%d>\n", level);
}

static void
para(struct doc *d)
{
	fputs("<p>", d->html);
}

static void
para_end(struct doc *d)
{
	fputs("\n\n", d->md);
	fputs("</p>\n", d->html);
}

static void
verdict(struct doc *d, enum mr_vd_word w)
{
	static const char *const cls[MR_VD_NWORDS] = {
		"held", "regressed", "improved", "held", "notrepro", "skipped",
		"regressed", "notrepro", "notrepro", "notrepro",
	};

	if (mr_vd_fails(w) || w == MR_VD_IMPROVED || w == MR_VD_UNDEFINED)
		fprintf(d->md, "**%s**", mr_vd_words[w]);
	else
		fputs(mr_vd_words[w], d->md);
	fprintf(d->html, "<span class=\"v v-%s\">%s</span>", cls[w], mr_vd_words[w]);
}

static void
table(struct doc *d, const char *const *head)
{
	int i;

	fputc('|', d->md);
	fputs("<table>\n<thead><tr>", d->html);
	for (i = 0; head[i]; i++) {
		fprintf(d->md, " %s |", head[i]);
		fprintf(d->html, "<th>%s</th>", head[i]);
	}
	fputs("\n|", d->md);
	for (i = 0; head[i]; i++)
		fputs("---|", d->md);
	fputc('\n', d->md);
	fputs("</tr></thead>\n<tbody>\n", d->html);
	d->in_table = 1;
}

static void
row(struct doc *d)
{
	fputc('|', d->md);
	fputs("<tr>", d->html);
	d->ncell = 0;
}

static void
cell(struct doc *d)
{
	if (d->ncell++) {
		fputs(" |", d->md);
		fputs("</td>", d->html);
	}
	fputc(' ', d->md);
	fputs("<td>", d->html);
}

static void
row_end(struct doc *d)
{
	if (d->ncell) {
		fputs(" |", d->md);
		fputs("</td>", d->html);
	}
	fputc('\n', d->md);
	fputs("</tr>\n", d->html);
}

static void
table_end(struct doc *d)
{
	fputc('\n', d->md);
	fputs("</tbody>\n</table>\n", d->html);
	d->in_table = 0;
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The stream in as base64, into f; in is closed. */
static void
base64_file(FILE *f, FILE *in)
{
	unsigned char buf[3 * 1024];
	size_t n, i;

	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		for (i = 0; i < n; i += 3) {
			unsigned v = buf[i] << 16 | (i + 1 < n ? buf[i + 1] << 8 : 0) |
				     (i + 2 < n ? buf[i + 2] : 0);

			fputc(b64[v >> 18 & 63], f);
			fputc(b64[v >> 12 & 63], f);
			fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
			fputc(i + 2 < n ? b64[v & 63] : '=', f);
		}
		/* only the last read may end short of a multiple of 3 */
		if (n % 3)
			break;
	}
	fclose(in);
}

/* An image of the results: rel is "plots/<name>" without extension.  It
 * is read as every file of the results is (safeio.h): a link planted in
 * its place is refused, not embedded. */
static void
image(struct doc *d, const char *alt, const char *rel)
{
	char *png = esprintf("%s.png", rel);
	FILE *in = mr_sio_fopen(d->dir, png, MR_SIO_IMAGE_MAX);

	if (!in) {
		para(d);
		textf(d, "(%s: not drawn, see the messages of memrepro report)", alt);
		para_end(d);
		free(png);
		return;
	}
	fprintf(d->md, "![");
	md_esc(d, alt);
	fprintf(d->md, "](%s.png)\n\n[SVG](%s.svg)", rel, rel);
	{
		char *tsv = esprintf("%s/%s.tsv", d->dir, rel);

		if (access(tsv, R_OK) == 0)
			fprintf(d->md, " · [data](%s.tsv)", rel);
		free(tsv);
	}
	fputs("\n\n", d->md);
	fputs("<figure><img alt=\"", d->html);
	mr_esc_xml(d->html, alt);
	fputs("\" src=\"data:image/png;base64,", d->html);
	base64_file(d->html, in);
	fputs("\"></figure>\n", d->html);
	free(png);
}

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"max-width:1240px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}"
	"h1{font-size:1.7em;border-bottom:2px solid #ddd;padding-bottom:.2em}"
	"h2{font-size:1.35em;margin-top:2em;border-bottom:1px solid #e4e4e4}"
	"h3{font-size:1.1em;margin-top:1.5em}"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-size:.92em}"
	"th,td{border:1px solid #ddd;padding:.3em .55em;text-align:left;vertical-align:top}"
	"th{background:#f4f4f4}tr:nth-child(even) td{background:#fafafa}"
	"code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em;"
	"background:#f3f3f3;padding:.05em .3em;border-radius:3px}"
	"figure{margin:1em 0}img{max-width:100%;height:auto;border:1px solid #e4e4e4}"
	".v{font-weight:600;padding:.05em .4em;border-radius:3px;white-space:nowrap}"
	".v-held{color:#1a6b2a;background:#e3f3e6}.v-regressed{color:#fff;background:#c62828}"
	".v-improved{color:#0b5d6b;background:#d8f0f4}.v-notrepro{color:#7a5a00;background:#fbf0cc}"
	".v-skipped{color:#666;background:#eee}";

/* --- the content --------------------------------------------------------- */

/* What --describe says of a case, when its binary is found. */
struct about {
	char *title;
	char *source;
};

static void
describe_cases(const struct mr_report_opts *o, const struct mr_vds *vs,
	       struct about *ab)
{
	int i;

	for (i = 0; i < vs->nk && o->cases_dir; i++) {
		struct mr_cases_desc c;
		struct strbuf err = {0};

		if (mr_cases_load(o->cases_dir, vs->k[i].name, &c, &err) == 0) {
			ab[i].title = estrdup(c.title);
			ab[i].source = estrdup(c.source);
			mr_cases_free(&c);
		} else if (o->verbose) {
			weprintf("%s: no title and source: %s", vs->k[i].name, err.s);
		}
		sb_free(&err);
	}
}

static void
summary_counts(struct doc *d, const struct mr_vd_totals *t, int what)
{
	struct strbuf b = {0};

	sb_add(&b, "");
	if (what == 0) {
		if (!t->has_claims)
			sb_add(&b, "no claims");
		else {
			sb_printf(&b, "%d held", t->held);
			if (t->reproduces)
				sb_printf(&b, ", %d reproduces", t->reproduces);
			if (t->regressed)
				sb_printf(&b, ", %d regressed", t->regressed);
			if (t->notrepro)
				sb_printf(&b, ", %d do not reproduce", t->notrepro);
			if (t->cskipped)
				sb_printf(&b, ", %d skipped", t->cskipped);
			if (t->cundefined)
				sb_printf(&b, ", %d undefined", t->cundefined);
		}
	} else if (what == 1) {
		if (!t->has_bl)
			sb_add(&b, "no baseline");
		else {
			sb_printf(&b, "%d held", t->bheld);
			if (t->bregressed)
				sb_printf(&b, ", %d regressed", t->bregressed);
			if (t->bimproved)
				sb_printf(&b, ", %d improved", t->bimproved);
			if (t->bmissing)
				sb_printf(&b, ", %d not measured", t->bmissing);
		}
	} else {
		sb_printf(&b, "%d ok", t->rok);
		if (t->rfailed)
			sb_printf(&b, ", %d failed", t->rfailed);
		if (t->rskipped)
			sb_printf(&b, ", %d skipped", t->rskipped);
	}
	if ((what == 0 && t->regressed) || (what == 1 && t->bregressed) ||
	    (what == 2 && t->rfailed))
		bold(d, b.s);
	else
		text(d, b.s);
	sb_free(&b);
}

/* One row of the environment table. */
static void
env_row(struct doc *d, const char *key, const char *value)
{
	if (!value)
		return;
	row(d);
	cell(d);
	text(d, key);
	cell(d);
	text(d, value);
	row_end(d);
}

static void
write_env(struct doc *d, const struct mr_rd *R)
{
	static const char *const head[] = { "what", "here", NULL };
	static const char *const allocs[] = { "glibc", "jemalloc", "tcmalloc", "mimalloc" };
	const char *v;
	char buf[512];
	size_t i;

	heading(d, 2, "environment", "Environment");
	table(d, head);
	env_row(d, "platform (baseline key)", R->platform);
	env_row(d, "kernel", mr_rd_env(R, "kernel"));
	env_row(d, "libc", mr_rd_env(R, "libc"));
	if ((v = mr_rd_env(R, "cpus"))) {
		snprintf(buf, sizeof buf, "%s x %s (%s)", v,
			 mr_rd_env(R, "cpu_model") ? mr_rd_env(R, "cpu_model") : "?",
			 mr_rd_env(R, "arch") ? mr_rd_env(R, "arch") : "?");
		env_row(d, "CPUs", buf);
	}
	if ((v = mr_rd_env(R, "mem_total_kb"))) {
		snprintf(buf, sizeof buf, "%.1f GiB", strtod(v, NULL) / 1048576);
		env_row(d, "memory", buf);
	}
	if ((v = mr_rd_env(R, "thp"))) {
		snprintf(buf, sizeof buf, "%s (defrag %s), overcommit %s", v,
			 mr_rd_env(R, "thp_defrag") ? mr_rd_env(R, "thp_defrag") : "?",
			 mr_rd_env(R, "overcommit") ? mr_rd_env(R, "overcommit") : "?");
		env_row(d, "transparent huge pages", buf);
	}
	for (i = 0; i < sizeof allocs / sizeof *allocs; i++) {
		char key[64], *k2;
		const char *ver, *so, *miss;

		snprintf(key, sizeof key, "allocator.%s.version", allocs[i]);
		ver = mr_rd_env(R, key);
		snprintf(key, sizeof key, "allocator.%s.soname", allocs[i]);
		so = mr_rd_env(R, key);
		snprintf(key, sizeof key, "allocator.%s.missing", allocs[i]);
		miss = mr_rd_env(R, key);
		if (!ver && !so && !miss)
			continue;
		if (miss)
			snprintf(buf, sizeof buf, "missing: %s", miss);
		else
			snprintf(buf, sizeof buf, "%s (%s)", ver ? ver : "?", so ? so : "?");
		k2 = esprintf("allocator %s", allocs[i]);
		env_row(d, k2, buf);
		free(k2);
	}
	snprintf(buf, sizeof buf, "profile %s, %s repeats, sampled every %s ms, timeout %s s",
		 mr_rd_env(R, "profile") ? mr_rd_env(R, "profile") : "?",
		 mr_rd_env(R, "repeat") ? mr_rd_env(R, "repeat") : "?",
		 mr_rd_env(R, "interval_ms") ? mr_rd_env(R, "interval_ms") : "?",
		 mr_rd_env(R, "timeout_s") ? mr_rd_env(R, "timeout_s") : "?");
	env_row(d, "runs", buf);
	env_row(d, "started", mr_rd_env(R, "started"));
	env_row(d, "memrepro", mr_rd_env(R, "memrepro_version"));
	table_end(d);
	para(d);
	text(d, "Every key: ");
	doc_link(d, "env.tsv", "env.tsv");
	text(d, ".");
	para_end(d);
}

static void
write_verdicts(struct doc *d, const struct mr_vds *vs)
{
	static const char *const head[] = { "case", "claims", "baseline", "runs", NULL };
	int i;

	heading(d, 2, "verdicts", "Verdicts");
	table(d, head);
	for (i = 0; i < vs->nk; i++) {
		char *anchor = esprintf("#case-%s", vs->k[i].name);

		row(d);
		cell(d);
		doc_link(d, vs->k[i].name, anchor);
		cell(d);
		summary_counts(d, &vs->k[i].t, 0);
		cell(d);
		summary_counts(d, &vs->k[i].t, 1);
		cell(d);
		summary_counts(d, &vs->k[i].t, 2);
		row_end(d);
		free(anchor);
	}
	if (vs->nk > 1) {
		row(d);
		cell(d);
		bold(d, "total");
		cell(d);
		summary_counts(d, &vs->all, 0);
		cell(d);
		summary_counts(d, &vs->all, 1);
		cell(d);
		summary_counts(d, &vs->all, 2);
		row_end(d);
	}
	table_end(d);
}

static void
write_claims(struct doc *d, const struct mr_vd_case *k)
{
	static const char *const head[] = {
		"claim", "verdict", "the report's figure", "measured here", NULL,
	};
	int i;

	heading(d, 3, NULL, "Claims");
	if (!k->has_claims) {
		para(d);
		text(d, "No claims: ");
		code(d, k->claims_path);
		text(d, " does not exist.");
		para_end(d);
		return;
	}
	table(d, head);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CLAIM)
			continue;
		row(d);
		cell(d);
		code(d, v->id);
		text(d, v->holds ? " (holds)" : " (reported)");
		cell(d);
		verdict(d, v->word);
		cell(d);
		text(d, v->cite);
		cell(d);
		code(d, v->detail);
		row_end(d);
	}
	table_end(d);
}

static void
write_runs(struct doc *d, const struct mr_vds *vs, const struct mr_vd_case *k)
{
	static const char *const head[] = { "config", "repeat", "outcome", "log", NULL };
	int i, any = 0;

	heading(d, 3, NULL, "Runs");
	para(d);
	textf(d, "%d ok, %d failed, %d skipped.", k->t.rok, k->t.rfailed, k->t.rskipped);
	para_end(d);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];
		char rep[32];

		if (v->kind == MR_VD_RUN) {
			if (!any++)
				table(d, head);
			snprintf(rep, sizeof rep, "%ld", v->repeat);
			row(d);
			cell(d);
			code(d, v->label);
			cell(d);
			text(d, rep);
			cell(d);
			verdict(d, MR_VD_FAILED);
			textf(d, " (%s%s%s)", v->outcome, strcmp(v->detail, "-") ? ": " : "",
			      strcmp(v->detail, "-") ? v->detail : "");
			cell(d);
			if (v->log) {
				/* relative to the report, which is in the results */
				size_t n = strlen(vs->results);

				if (!strncmp(v->log, vs->results, n) && v->log[n] == '/')
					doc_link(d, v->log + n + 1, v->log + n + 1);
				else
					code(d, v->log);
			}
			row_end(d);
		} else if (v->kind == MR_VD_CONFIG && v->word == MR_VD_SKIPPED) {
			if (!any++)
				table(d, head);
			row(d);
			cell(d);
			code(d, v->label);
			cell(d);
			textf(d, "%d of %d", v->nskip, v->nrun);
			cell(d);
			verdict(d, MR_VD_SKIPPED);
			textf(d, " (%s)", v->detail);
			cell(d);
			row_end(d);
		}
	}
	if (any)
		table_end(d);
}

static void
write_baseline(struct doc *d, const struct mr_vds *vs, const struct mr_vd_case *k)
{
	static const char *const head[] = {
		"config", "figure", "verdict", "observed (repeats)", "baseline +/- tolerance",
		"change", NULL,
	};
	int i, any = 0;

	heading(d, 3, NULL, "Baseline");
	para(d);
	if (!k->has_bl) {
		textf(d, "No baseline for platform %s: claims only (", vs->platform);
		code(d, "memrepro bless");
		text(d, " writes one).");
		para_end(d);
		return;
	}
	code(d, k->bl_path);
	text(d, ": ");
	summary_counts(d, &k->t, 1);
	if (k->notrun_rows)
		textf(d, "; %d rows of %d configs not run here", k->notrun_rows,
		      k->notrun_cfgs);
	text(d, ".");
	para_end(d);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];
		char a[48], b[48], c[48], e[48], f[48], ch[48];

		if (v->kind != MR_VD_ROW ||
		    (v->word != MR_VD_REGRESSED && v->word != MR_VD_IMPROVED))
			continue;
		if (!any++)
			table(d, head);
		row(d);
		cell(d);
		code(d, v->label);
		cell(d);
		code(d, v->what);
		cell(d);
		verdict(d, v->word);
		cell(d);
		textf(d, "%s (%s .. %s)", mr_fmt_num(a, v->obs), mr_fmt_num(b, v->omin),
		      mr_fmt_num(c, v->omax));
		cell(d);
		textf(d, "%s +/- %s", mr_fmt_num(e, v->exp), mr_fmt_num(f, v->tol));
		cell(d);
		if (v->exp)
			snprintf(ch, sizeof ch, "%+.1f %%", 100 * (v->obs - v->exp) / fabs(v->exp));
		else
			snprintf(ch, sizeof ch, "-");
		text(d, ch);
		row_end(d);
	}
	if (any)
		table_end(d);
	for (i = 0; i < k->n; i++) {
		if (k->v[i].kind == MR_VD_CONFIG && k->v[i].word == MR_VD_NOTINBL) {
			para(d);
			code(d, k->v[i].label);
			text(d, ": not in the baseline.");
			para_end(d);
		}
	}
}

static void
write_case(struct doc *d, const struct mr_vds *vs, const struct mr_vd_case *k,
	   const struct about *ab)
{
	char *id = esprintf("case-%s", k->name), *h, *rel;

	h = ab->title ? esprintf("%s: %s", k->name, ab->title) : estrdup(k->name);
	heading(d, 2, id, h);
	free(h);
	free(id);
	if (ab->source) {
		para(d);
		bold(d, "Source:");
		text(d, " ");
		text(d, ab->source);
		para_end(d);
	}
	write_claims(d, k);
	write_runs(d, vs, k);
	write_baseline(d, vs, k);
	heading(d, 3, NULL, "Charts");
	rel = esprintf("plots/%s.series", k->name);
	image(d, "memory over time, every config", rel);
	free(rel);
	rel = esprintf("plots/%s.diff", k->name);
	image(d, "observed medians against the baseline", rel);
	free(rel);
}

static void
write_doc(struct doc *d, const struct mr_report_opts *o, const struct mr_rd *R,
	  const struct mr_vds *vs, const struct about *ab, const char *charts_note)
{
	const char *started = mr_rd_env(R, "started");
	char now[64];
	time_t t = time(NULL);
	struct tm tm;
	char *title;
	int i;

	gmtime_r(&t, &tm);
	strftime(now, sizeof now, "%Y-%m-%d %H:%M UTC", &tm);
	title = esprintf("memrepro report: %s", R->platform);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      d->html);
	mr_esc_xml(d->html, title);
	fprintf(d->html, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
	fprintf(d->md, "# ");
	md_esc(d, title);
	fputs("\n\n", d->md);
	fputs("<h1>", d->html);
	mr_esc_xml(d->html, title);
	fputs("</h1>\n", d->html);
	free(title);

	para(d);
	text(d, "Results ");
	code(d, o->results_dir);
	textf(d, " (profile %s, %s repeats, started %s), compared with ",
	      mr_rd_env(R, "profile") ? mr_rd_env(R, "profile") : "?",
	      mr_rd_env(R, "repeat") ? mr_rd_env(R, "repeat") : "?",
	      started ? started : "?");
	code(d, vs->expected);
	text(d, ". Status: ");
	bold(d, vs->status ? "failed" : "passed");
	textf(d, ". Written by memrepro %s on %s.",
	      mr_rd_env(R, "memrepro_version") ? mr_rd_env(R, "memrepro_version") : "",
	      now);
	para_end(d);
	if (charts_note) {
		para(d);
		bold(d, "Charts:");
		textf(d, " %s", charts_note);
		para_end(d);
	}
	write_env(d, R);
	write_verdicts(d, vs);
	heading(d, 2, "allocators", "Allocators");
	para(d);
	text(d, "Each cell: the case's key figure (");
	code(d, "rss_kb");
	text(d, " at its last checkpoint, else ");
	code(d, "peak_rss_kb");
	text(d, ") under that allocator, as a ratio to the same config under glibc "
		"(the geometric mean over the configs that differ only in their "
		"allocator). Blue: less memory than glibc; red: more.");
	para_end(d);
	image(d, "allocator matrix", "plots/allocators");
	for (i = 0; i < vs->nk; i++)
		write_case(d, vs, &vs->k[i], &ab[i]);
	fputs("</body>\n</html>\n", d->html);
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

	*note = NULL;
	if (mr_plot_init(&p, o->plots_dir, o->verbose) < 0) {
		*note = esprintf("not drawn (no gnuplot, or no scripts in %s)", o->plots_dir);
		free(sel);
		return -1;
	}
	if (mr_chart_scan(R, &scan) < 0) {
		mr_plot_free(&p);
		free(sel);
		return -2;
	}
	for (i = 0; i < vs->nk; i++) {
		int ki = (int)(mr_rd_case(R, vs->k[i].name) - R->k);

		sel[i] = ki;
		mr_chart_series(&p, R, &scan, ki, ab[i].title, outdir);
		mr_chart_diff(&p, R, ki, &vs->k[i], outdir);
	}
	mr_chart_allocators(&p, R, sel, vs->nk, outdir);
	if (p.failed) {
		*note = esprintf("%d could not be drawn (see the messages of memrepro report)",
				 p.failed);
		rc = -1;
	}
	mr_chart_scan_free(&scan);
	mr_plot_free(&p);
	free(sel);
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
	struct mr_cmp_opts co = {0};
	struct mr_vds vs;
	struct mr_rd R;
	struct about *ab = NULL;
	struct doc d = {0};
	char *outdir = NULL, *md = NULL, *html = NULL, *note = NULL;
	int rc = MR_USAGE, crc, i;

	co.results_dir = o->results_dir;
	co.expected_dir = o->expected_dir;
	co.cases_dir = o->cases_dir;
	co.cases = o->cases;
	if (mr_check_eval(&co, &vs) != MR_OK)
		return MR_USAGE;
	if (mr_rd_load(&R, o->results_dir) < 0)
		goto out;
	ab = ecalloc(vs.nk + 1, sizeof *ab);
	describe_cases(o, &vs, ab);
	outdir = mr_rd_path(o->results_dir, "plots");
	if ((i = mr_mkdir_out(outdir)) < 0) {
		errno = -i;
		weprintf("create %s:", outdir);
		rc = MR_FAILED;
		goto out;
	}
	crc = draw_charts(o, &R, &vs, ab, outdir, &note);
	if (crc == -2)
		goto out; /* a corrupt series.tsv is bad input */
	md = mr_rd_path(o->results_dir, "report.md");
	html = mr_rd_path(o->results_dir, "report.html");
	rc = MR_FAILED;
	d.dir = o->results_dir;
	if (!(d.md = open_out(md)) || !(d.html = open_out(html)))
		goto out;
	write_doc(&d, o, &R, &vs, ab, note);
	i = close_out(d.md, md);
	d.md = NULL;
	if (close_out(d.html, html) < 0 || i < 0) {
		d.html = NULL;
		goto out;
	}
	d.html = NULL;
	fprintf(o->out, "report: %s\nreport: %s\n", md, html);
	rc = crc < 0 ? MR_FAILED : MR_OK;
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
	mr_rd_free(&R);
	mr_vds_free(&vs);
	return rc;
}
