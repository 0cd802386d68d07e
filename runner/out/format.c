#include "out/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "core/safeio.h"
#include "core/util.h"

#define INDENT "  "
/* Lines of a failed run's log in TAP and JUnit output. */
#define LOG_TAIL 10

static const char *const names[] = { "human", "tap", "junit", "json", NULL };

int
mr_fmt_parse(const char *name)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static const char *
plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

char *
mr_fmt_totals(const struct mr_vd_totals *t)
{
	struct strbuf b = {0};

	if (t->has_claims) {
		sb_printf(&b, "%d %s held, %d reproduces, %d regressed", t->held,
			  plural(t->held, "claim", "claims"), t->reproduces,
			  t->regressed);
		if (t->notrepro)
			sb_printf(&b, ", %d %s not reproduce", t->notrepro,
				  plural(t->notrepro, "does", "do"));
		if (t->cskipped)
			sb_printf(&b, ", %d skipped", t->cskipped);
		if (t->cundefined)
			sb_printf(&b, ", %d undefined", t->cundefined);
	} else {
		sb_add(&b, "no claims");
	}
	if (t->has_bl) {
		sb_printf(&b, "; baseline %d held, %d regressed, %d improved",
			  t->bheld, t->bregressed, t->bimproved);
		if (t->bmissing)
			sb_printf(&b, ", %d not measured", t->bmissing);
	} else {
		sb_add(&b, "; no baseline");
	}
	sb_printf(&b, "; %d %s ok, %d failed", t->rok,
		  plural(t->rok, "run", "runs"), t->rfailed);
	if (t->rskipped)
		sb_printf(&b, ", %d skipped", t->rskipped);
	return b.s;
}

/* --- human --------------------------------------------------------------- */

/* ANSI colours of the verdict words (ECMA-48 SGR). */
static const char *const colors[MR_VD_NWORDS] = {
	[MR_VD_HELD] = "32",           /* green */
	[MR_VD_REGRESSED] = "1;31",    /* bold red */
	[MR_VD_IMPROVED] = "1;36",     /* bold cyan: loud, not failing */
	[MR_VD_REPRODUCES] = "32",
	[MR_VD_NOTREPRO] = "33",       /* yellow */
	[MR_VD_SKIPPED] = "2",         /* faint */
	[MR_VD_FAILED] = "1;31",
	[MR_VD_NOTMEASURED] = "33",
	[MR_VD_NOTINBL] = "33",
	[MR_VD_UNDEFINED] = "1;33",    /* bold yellow: loud, not failing */
};

/* The verdict word w left-aligned in width columns, coloured when asked. */
static void
word(FILE *f, const struct mr_fmt_opts *o, enum mr_vd_word w, int width)
{
	int n = (int)strlen(mr_vd_words[w]);

	if (o->color)
		fprintf(f, "\033[%sm%s\033[0m", colors[w], mr_vd_words[w]);
	else
		fputs(mr_vd_words[w], f);
	if (width > n)
		fprintf(f, "%*s", width - n, "");
}

static void
human_totals(FILE *f, const char *name, const struct mr_vd_totals *t)
{
	char *s = mr_fmt_totals(t);

	fprintf(f, "%s: %s\n", name, s);
	free(s);
}

static void
human_claims(FILE *f, const struct mr_fmt_opts *o, const struct mr_vd_case *k)
{
	int w = 0, vw = 0, i, j;

	if (!k->has_claims) {
		fprintf(f, INDENT "(no claims: %s does not exist)\n", k->claims_path);
		return;
	}
	/* The columns are as wide as their widest entry. */
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CLAIM)
			continue;
		if ((int)strlen(v->id) > w)
			w = (int)strlen(v->id);
		if (v->word != MR_VD_SKIPPED && v->word != MR_VD_UNDEFINED &&
		    (int)strlen(mr_vd_words[v->word]) > vw)
			vw = (int)strlen(mr_vd_words[v->word]);
	}
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CLAIM)
			continue;
		fprintf(f, INDENT "claim  %-*s  ", w, v->id);
		if (v->word == MR_VD_SKIPPED || v->word == MR_VD_UNDEFINED) {
			word(f, o, v->word, 0);
			fprintf(f, " (%s)\n", v->detail);
		} else {
			word(f, o, v->word, vw);
			fprintf(f, "  %s\n", v->detail);
		}
		fprintf(f, INDENT "       %-*s  \"%s\"\n", w, "", v->cite);
		if (o->verbose)
			for (j = 0; j < v->nlines; j++)
				fprintf(f, INDENT "       %-*s    %s\n", w, "", v->lines[j]);
	}
}

static void
human_runs(FILE *f, const struct mr_fmt_opts *o, const struct mr_vd_case *k)
{
	int w = 0, i, n;

	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind == MR_VD_RUN)
			n = (int)strlen(v->label) + 5; /* " #123" */
		else if (v->kind == MR_VD_CONFIG && v->word == MR_VD_SKIPPED)
			n = (int)strlen(v->label);
		else
			continue;
		if (n > w)
			w = n;
	}
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];
		char *name;

		if (v->kind != MR_VD_RUN)
			continue;
		name = esprintf("%s #%ld", v->label, v->repeat);
		fprintf(f, INDENT "%-6s  %-*s  ", "run", w, name);
		word(f, o, MR_VD_FAILED, 0);
		fprintf(f, " (%s", v->outcome);
		if (strcmp(v->detail, "-"))
			fprintf(f, ": %s", v->detail);
		fputc(')', f);
		if (v->log)
			fprintf(f, "; log %s", v->log);
		fputc('\n', f);
		free(name);
	}
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CONFIG || v->word != MR_VD_SKIPPED)
			continue;
		fprintf(f, INDENT "%-6s  %-*s  ", "config", w, v->label);
		word(f, o, MR_VD_SKIPPED, 0);
		fprintf(f, " (%s)", v->detail);
		if (v->nskip < v->nrun)
			fprintf(f, " in %d of %d repeats", v->nskip, v->nrun);
		fputc('\n', f);
	}
}

static void
human_baseline(FILE *f, const struct mr_fmt_opts *o, const struct mr_vds *vs,
	       const struct mr_vd_case *k)
{
	int i, j;

	if (!k->has_bl) {
		fprintf(f, INDENT "no baseline for platform %s: comparing claims only\n",
			vs->platform);
		return;
	}
	/* The rows of a config are consecutive: a summary line, then the
	 * rows that did not hold (every row when verbose). */
	for (i = 0; i < k->n; i = j) {
		int count[MR_VD_NWORDS] = {0};

		if (k->v[i].kind != MR_VD_ROW) {
			j = i + 1;
			continue;
		}
		for (j = i; j < k->n && k->v[j].kind == MR_VD_ROW &&
			    !strcmp(k->v[j].config, k->v[i].config); j++)
			count[k->v[j].word]++;
		fprintf(f, INDENT "%-8s  %-*s  %d held", "baseline", k->lw,
			k->v[i].label, count[MR_VD_HELD]);
		if (count[MR_VD_REGRESSED])
			fprintf(f, ", %d regressed", count[MR_VD_REGRESSED]);
		if (count[MR_VD_IMPROVED])
			fprintf(f, ", %d improved", count[MR_VD_IMPROVED]);
		if (count[MR_VD_NOTMEASURED])
			fprintf(f, ", %d not measured", count[MR_VD_NOTMEASURED]);
		fputc('\n', f);
		for (; i < j; i++) {
			const struct mr_vd *v = &k->v[i];
			char obs[48], med[48], tol[48];

			if (v->word == MR_VD_NOTMEASURED) {
				fprintf(f, INDENT "          %-*s  ", k->mw, v->what);
				word(f, o, v->word, 0);
				fputc('\n', f);
			} else if (o->verbose || v->word != MR_VD_HELD) {
				fprintf(f, INDENT "          %-*s  ", k->mw, v->what);
				word(f, o, v->word, 9);
				fprintf(f, "  observed %s, expected %s +/- %s\n",
					mr_fmt_num(obs, v->obs), mr_fmt_num(med, v->exp),
					mr_fmt_num(tol, v->tol));
			}
		}
	}
	for (i = 0; i < k->n; i++) {
		if (k->v[i].kind == MR_VD_CONFIG && k->v[i].word == MR_VD_NOTINBL) {
			fprintf(f, INDENT "%-8s  %-*s  ", "baseline", k->lw, k->v[i].label);
			word(f, o, MR_VD_NOTINBL, 0);
			fputc('\n', f);
		}
	}
	if (k->notrun_rows)
		fprintf(f, INDENT "%-8s  %d %s of %d %s not run here: not compared\n",
			"baseline", k->notrun_rows, plural(k->notrun_rows, "row", "rows"),
			k->notrun_cfgs, plural(k->notrun_cfgs, "config", "configs"));
}

static void
human(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	FILE *f = o->out;
	int i;

	if (vs->norun) {
		char *path = esprintf("%s/runs.tsv", vs->results);

		fprintf(f, "%s: no runs: nothing to check\n", path);
		free(path);
		return;
	}
	for (i = 0; i < vs->nk; i++) {
		const struct mr_vd_case *k = &vs->k[i];

		fprintf(f, "%s\n", k->name);
		human_claims(f, o, k);
		human_runs(f, o, k);
		human_baseline(f, o, vs, k);
		human_totals(f, k->name, &k->t);
		if (i + 1 < vs->nk)
			fputc('\n', f);
	}
	if (vs->nk > 1) {
		fputc('\n', f);
		human_totals(f, "total", &vs->all);
	}
}

/* --- TAP ----------------------------------------------------------------- */

/* s on "# " lines, one per line of s. */
static void
tap_diag(FILE *f, const char *s)
{
	const char *nl;

	for (; s && *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl) {
			fprintf(f, "# %s\n", s);
			return;
		}
		fprintf(f, "# %.*s\n", (int)(nl - s), s);
	}
}

/* The last LOG_TAIL lines of a log of the results as "# " lines (read
 * through safeio.h: a log that is a link or not a regular file gives a
 * note instead). */
static void
log_diag(FILE *f, const char *results, const char *path)
{
	if (path) {
		char *tail = mr_sio_tail_under(results, path, LOG_TAIL);

		fprintf(f, "# log %s\n", path);
		tap_diag(f, tail);
		free(tail);
	}
}

static void
tap_figures(FILE *f, const struct mr_vd *v)
{
	char obs[48], med[48], tol[48];

	fprintf(f, " (observed %s, expected %s +/- %s)", mr_fmt_num(obs, v->obs),
		mr_fmt_num(med, v->exp), mr_fmt_num(tol, v->tol));
}

static void
tap(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	FILE *f = o->out;
	int total = 0, t = 0, i, j, l;

	fprintf(f, "TAP version 13\n");
	if (vs->norun) {
		fprintf(f, "1..1\nnot ok 1 %s: no runs: nothing to check\n", vs->results);
		return;
	}
	for (i = 0; i < vs->nk; i++)
		total += vs->k[i].n;
	if (!total) {
		fprintf(f, "1..0 # SKIP no claims or baseline rows to check\n");
		return;
	}
	fprintf(f, "1..%d\n", total);
	fprintf(f, "# results %s, platform %s\n", vs->results, vs->platform);
	for (i = 0; i < vs->nk; i++) {
		const struct mr_vd_case *k = &vs->k[i];
		char *s;

		fprintf(f, "# %s\n", k->name);
		if (!k->has_claims)
			fprintf(f, "# no claims: %s does not exist\n", k->claims_path);
		if (!k->has_bl)
			fprintf(f, "# no baseline for platform %s\n", vs->platform);
		for (j = 0; j < k->n; j++) {
			const struct mr_vd *v = &k->v[j];
			const char *ok = mr_vd_fails(v->word) ? "not ok" : "ok";

			t++;
			switch (v->kind) {
			case MR_VD_CLAIM:
				fprintf(f, "%s %d %s: claim %s", ok, t, k->name, v->id);
				if (v->word == MR_VD_SKIPPED)
					fprintf(f, " # SKIP %s\n", v->detail);
				else if (v->word == MR_VD_UNDEFINED)
					fprintf(f, " # SKIP undefined: %s\n", v->detail);
				else if (v->word == MR_VD_NOTREPRO)
					fprintf(f, " # XFAIL does not reproduce\n");
				else
					fprintf(f, " %s\n", mr_vd_words[v->word]);
				if (v->word != MR_VD_SKIPPED && v->word != MR_VD_UNDEFINED)
					tap_diag(f, v->detail);
				fprintf(f, "# \"%s\"\n", v->cite);
				for (l = 0; o->verbose && l < v->nlines; l++)
					tap_diag(f, v->lines[l]);
				break;
			case MR_VD_RUN:
				fprintf(f, "%s %d %s: run %s repeat %ld failed (%s%s%s)\n",
					ok, t, k->name, v->label, v->repeat, v->outcome,
					strcmp(v->detail, "-") ? ": " : "",
					strcmp(v->detail, "-") ? v->detail : "");
				log_diag(f, vs->results, v->log);
				break;
			case MR_VD_CONFIG:
				fprintf(f, "ok %d %s: %s %s # SKIP %s\n", t, k->name,
					v->word == MR_VD_SKIPPED ? "config" : "baseline",
					v->label, v->word == MR_VD_SKIPPED ? v->detail
									  : "not in baseline");
				break;
			case MR_VD_ROW:
				fprintf(f, "%s %d %s: baseline %s %s", ok, t, k->name,
					v->label, v->what);
				if (v->word == MR_VD_NOTMEASURED) {
					fprintf(f, " # SKIP not measured\n");
					break;
				}
				fprintf(f, " %s", mr_vd_words[v->word]);
				tap_figures(f, v);
				fputc('\n', f);
				if (v->word == MR_VD_IMPROVED)
					fprintf(f, "# improved beyond the tolerance: bless to keep it\n");
				break;
			}
		}
		s = mr_fmt_totals(&k->t);
		fprintf(f, "# %s: %s\n", k->name, s);
		free(s);
	}
}

/* --- escaping ------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s, or 0. */
static int
utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void
mr_fmt_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		int n = utf8_len(p);

		if (n == 0) {
			fputs("\\ufffd", f);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p == '\n') {
			fputs("\\n", f);
			p++;
		} else if (*p == '\t') {
			fputs("\\t", f);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
}

void
mr_fmt_xml_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		int n = utf8_len(p);

		switch (n ? *p : 0) {
		case 0:
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			p++;
			continue;
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		case '\n':
			fputs("&#10;", f);
			break;
		case '\t':
			fputs("&#9;", f);
			break;
		default:
			/* XML 1.0 admits no other control character. */
			if (*p < 0x20 || *p == 0x7f)
				fputc('?', f);
			else
				fwrite(p, 1, n, f);
		}
		p += n;
	}
}

/* --- JUnit --------------------------------------------------------------- */

/* Counts of one testsuite: a testcase per claim and per config. */
static void
junit_counts(const struct mr_vd_case *k, int *tests, int *failures, int *skipped)
{
	int i, j;

	*tests = k->ncfg;
	*failures = *skipped = 0;
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CLAIM)
			continue;
		++*tests;
		*failures += mr_vd_fails(v->word);
		*skipped += v->word == MR_VD_SKIPPED || v->word == MR_VD_NOTREPRO ||
			    v->word == MR_VD_UNDEFINED;
	}
	for (j = 0; j < k->ncfg; j++) {
		int fails = 0;

		for (i = 0; i < k->n; i++)
			if (k->v[i].config && !strcmp(k->v[i].config, k->cfg[j].config))
				fails |= mr_vd_fails(k->v[i].word);
		*failures += fails;
		*skipped += !fails && k->cfg[j].nok == 0 && k->cfg[j].nskip > 0;
	}
}

static void
xml_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	mr_fmt_xml_str(f, value);
	fputc('"', f);
}

static void
junit_claim(FILE *f, const struct mr_vd_case *k, const struct mr_vd *v)
{
	struct strbuf msg = {0};
	int l;

	fprintf(f, "    <testcase");
	xml_attr(f, "classname", k->name);
	xml_attr(f, "name", v->id);
	fprintf(f, ">\n");
	sb_printf(&msg, "%s: %s", mr_vd_words[v->word], v->detail);
	if (mr_vd_fails(v->word)) {
		fprintf(f, "      <failure type=\"regressed\"");
		xml_attr(f, "message", msg.s);
		fprintf(f, ">");
		mr_fmt_xml_str(f, "the report: \"");
		mr_fmt_xml_str(f, v->cite);
		mr_fmt_xml_str(f, "\"\n");
		for (l = 0; l < v->nlines; l++) {
			mr_fmt_xml_str(f, v->lines[l]);
			mr_fmt_xml_str(f, "\n");
		}
		fprintf(f, "</failure>\n");
	} else if (v->word == MR_VD_SKIPPED || v->word == MR_VD_NOTREPRO ||
		   v->word == MR_VD_UNDEFINED) {
		fprintf(f, "      <skipped");
		xml_attr(f, "message", msg.s);
		fprintf(f, "/>\n");
	}
	fprintf(f, "      <system-out>");
	mr_fmt_xml_str(f, msg.s);
	mr_fmt_xml_str(f, "\nthe report: \"");
	mr_fmt_xml_str(f, v->cite);
	mr_fmt_xml_str(f, "\"\n");
	fprintf(f, "</system-out>\n    </testcase>\n");
	sb_free(&msg);
}

static void
junit_config(FILE *f, const char *results, const struct mr_vd_case *k,
	     const struct mr_vd_cfg *c)
{
	struct strbuf msg = {0}, body = {0}, out = {0};
	const char *type = NULL, *skip = NULL;
	int i;

	sb_add(&msg, "");
	sb_add(&body, "");
	sb_add(&out, "");
	sb_printf(&out, "%s: %d runs ok, %d failed, %d skipped\n", c->config, c->nok,
		  c->nfail, c->nskip);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];
		char obs[48], med[48], tol[48];

		if (!v->config || v->kind == MR_VD_CLAIM || strcmp(v->config, c->config))
			continue;
		switch (v->kind) {
		case MR_VD_RUN:
			type = "failed";
			sb_printf(&msg, "%srepeat %ld %s%s%s", msg.len ? "; " : "",
				  v->repeat, v->outcome, strcmp(v->detail, "-") ? ": " : "",
				  strcmp(v->detail, "-") ? v->detail : "");
			sb_printf(&body, "run repeat %ld failed (%s: %s)\n", v->repeat,
				  v->outcome, v->detail);
			if (v->log) {
				char *tail = mr_sio_tail_under(results, v->log, LOG_TAIL);

				sb_printf(&body, "log %s:\n%s", v->log, tail);
				free(tail);
			}
			break;
		case MR_VD_CONFIG:
			if (v->word == MR_VD_SKIPPED && v->nskip == v->nrun)
				skip = v->detail;
			sb_printf(&out, "%s%s%s\n", mr_vd_words[v->word],
				  v->word == MR_VD_SKIPPED ? ": " : "",
				  v->word == MR_VD_SKIPPED ? v->detail : "");
			break;
		case MR_VD_ROW:
			if (v->word == MR_VD_NOTMEASURED) {
				sb_printf(&out, "%s not measured\n", v->what);
				break;
			}
			sb_printf(&out, "%s %s: observed %s (%d runs), expected %s +/- %s\n",
				  v->what, mr_vd_words[v->word], mr_fmt_num(obs, v->obs),
				  v->on, mr_fmt_num(med, v->exp), mr_fmt_num(tol, v->tol));
			if (v->word == MR_VD_REGRESSED) {
				if (!type)
					type = "regressed";
				sb_printf(&msg, "%s%s observed %s, expected %s +/- %s",
					  msg.len ? "; " : "", v->what, obs, med, tol);
				sb_printf(&body, "%s regressed: observed %s, expected %s +/- %s\n",
					  v->what, obs, med, tol);
			}
			break;
		case MR_VD_CLAIM:
			break;
		}
	}
	fprintf(f, "    <testcase");
	xml_attr(f, "classname", k->name);
	xml_attr(f, "name", c->label);
	fprintf(f, ">\n");
	if (type) {
		fprintf(f, "      <failure");
		xml_attr(f, "type", type);
		xml_attr(f, "message", msg.s);
		fprintf(f, ">");
		mr_fmt_xml_str(f, body.s);
		fprintf(f, "</failure>\n");
	} else if (skip && c->nok == 0) {
		fprintf(f, "      <skipped");
		xml_attr(f, "message", skip);
		fprintf(f, "/>\n");
	}
	fprintf(f, "      <system-out>");
	mr_fmt_xml_str(f, out.s);
	fprintf(f, "</system-out>\n    </testcase>\n");
	sb_free(&msg);
	sb_free(&body);
	sb_free(&out);
}

static void
junit(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	FILE *f = o->out;
	int tests = 0, failures = 0, skipped = 0, t, fl, s, i, j;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	for (i = 0; i < vs->nk; i++) {
		junit_counts(&vs->k[i], &t, &fl, &s);
		tests += t;
		failures += fl;
		skipped += s;
	}
	if (vs->norun) {
		tests = failures = 1;
		skipped = 0;
	}
	fprintf(f, "<testsuites name=\"memrepro check\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
		tests, failures, skipped);
	if (vs->norun) {
		fprintf(f, "  <testsuite name=\"results\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
			   "    <testcase classname=\"results\" name=\"runs\">\n"
			   "      <failure type=\"failed\"");
		xml_attr(f, "message", "no runs: nothing to check");
		fprintf(f, "/>\n    </testcase>\n  </testsuite>\n");
	}
	for (i = 0; i < vs->nk; i++) {
		const struct mr_vd_case *k = &vs->k[i];

		junit_counts(k, &t, &fl, &s);
		fprintf(f, "  <testsuite");
		xml_attr(f, "name", k->name);
		fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
			t, fl, s);
		fprintf(f, "    <properties>\n      <property name=\"results\"");
		xml_attr(f, "value", vs->results);
		fprintf(f, "/>\n      <property name=\"platform\"");
		xml_attr(f, "value", vs->platform);
		fprintf(f, "/>\n      <property name=\"claims\"");
		xml_attr(f, "value", k->has_claims ? k->claims_path : "-");
		fprintf(f, "/>\n      <property name=\"baseline\"");
		xml_attr(f, "value", k->has_bl ? k->bl_path : "-");
		fprintf(f, "/>\n    </properties>\n");
		for (j = 0; j < k->n; j++)
			if (k->v[j].kind == MR_VD_CLAIM)
				junit_claim(f, k, &k->v[j]);
		for (j = 0; j < k->ncfg; j++)
			junit_config(f, vs->results, k, &k->cfg[j]);
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
}

/* --- JSON ---------------------------------------------------------------- */

static void
jstr(FILE *f, const char *key, const char *s, int comma)
{
	fprintf(f, "\"%s\": ", key);
	if (!s) {
		fputs("null", f);
	} else {
		fputc('"', f);
		mr_fmt_json_str(f, s);
		fputc('"', f);
	}
	if (comma)
		fputs(", ", f);
}

static void
jnum(FILE *f, const char *key, double v, int comma)
{
	if (isnan(v) || isinf(v))
		fprintf(f, "\"%s\": null", key);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "\"%s\": %.0f", key, v == 0 ? 0.0 : v);
	else
		fprintf(f, "\"%s\": %.17g", key, v);
	if (comma)
		fputs(", ", f);
}

static void
json_totals(FILE *f, const struct mr_vd_totals *t)
{
	fprintf(f, "{\"claims\": %d, \"held\": %d, \"reproduces\": %d, \"regressed\": %d, "
		   "\"does_not_reproduce\": %d, \"skipped\": %d, \"undefined\": %d, "
		   "\"baseline_held\": %d, \"baseline_regressed\": %d, "
		   "\"baseline_improved\": %d, \"baseline_not_measured\": %d, "
		   "\"runs_ok\": %d, \"runs_failed\": %d, \"runs_skipped\": %d}",
		t->nclaims, t->held, t->reproduces, t->regressed, t->notrepro,
		t->cskipped, t->cundefined, t->bheld, t->bregressed, t->bimproved, t->bmissing,
		t->rok, t->rfailed, t->rskipped);
}

/* The items of kind of a case as a JSON array. */
static void
json_items(FILE *f, const struct mr_vd_case *k, enum mr_vd_kind kind,
	   enum mr_vd_word only)
{
	int i, l, n = 0;

	fputc('[', f);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != kind || (kind == MR_VD_CONFIG && v->word != only))
			continue;
		fputs(n++ ? ",\n      {" : "\n      {", f);
		switch (kind) {
		case MR_VD_CLAIM:
			jstr(f, "id", v->id, 1);
			jstr(f, "status", v->holds ? "holds" : "reported", 1);
			jstr(f, "verdict", mr_vd_words[v->word], 1);
			jstr(f, "detail", v->detail, 1);
			jstr(f, "citation", v->cite, 1);
			jnum(f, "line", (double)v->line, 1);
			fputs("\"combinations\": [", f);
			for (l = 0; l < v->nlines; l++) {
				fputs(l ? ", \"" : "\"", f);
				mr_fmt_json_str(f, v->lines[l]);
				fputc('"', f);
			}
			fputc(']', f);
			break;
		case MR_VD_RUN:
			jstr(f, "config", v->config, 1);
			jstr(f, "label", v->label, 1);
			jnum(f, "repeat", (double)v->repeat, 1);
			jstr(f, "verdict", mr_vd_words[v->word], 1);
			jstr(f, "outcome", v->outcome, 1);
			jstr(f, "detail", v->detail, 1);
			jstr(f, "log", v->log, 0);
			break;
		case MR_VD_CONFIG:
			jstr(f, "config", v->config, 1);
			jstr(f, "label", v->label, 1);
			if (only == MR_VD_SKIPPED) {
				jstr(f, "reason", v->detail, 1);
				jnum(f, "repeats_skipped", v->nskip, 1);
				jnum(f, "repeats", v->nrun, 0);
			} else {
				jstr(f, "verdict", mr_vd_words[v->word], 0);
			}
			break;
		case MR_VD_ROW:
			jstr(f, "config", v->config, 1);
			jstr(f, "label", v->label, 1);
			jstr(f, "checkpoint", v->checkpoint, 1);
			jstr(f, "metric", v->metric, 1);
			jstr(f, "verdict", mr_vd_words[v->word], 1);
			fputs("\"observed\": {", f);
			jnum(f, "median", v->obs, 1);
			jnum(f, "min", v->omin, 1);
			jnum(f, "max", v->omax, 1);
			jnum(f, "n", v->on, 0);
			fputs("}, \"expected\": {", f);
			jnum(f, "median", v->exp, 1);
			jnum(f, "min", v->emin, 1);
			jnum(f, "max", v->emax, 1);
			jnum(f, "n", (double)v->en, 1);
			jnum(f, "tolerance", v->tol, 0);
			fputc('}', f);
			break;
		}
		fputc('}', f);
	}
	fputs(n ? "\n    ]" : "]", f);
}

static void
json(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	FILE *f = o->out;
	int i, j;

	fputs("{", f);
	jstr(f, "format", "memrepro-check", 1);
	jnum(f, "version", 1, 1);
	jstr(f, "results", vs->results, 1);
	jstr(f, "platform", vs->platform, 1);
	jstr(f, "expected", vs->expected, 1);
	jstr(f, "status", vs->status ? "failed" : "passed", 1);
	jnum(f, "exit", vs->status, 1);
	if (vs->norun)
		jstr(f, "error", "no runs: nothing to check", 1);
	fputs("\n  \"totals\": ", f);
	json_totals(f, &vs->all);
	fputs(",\n  \"cases\": [", f);
	for (i = 0; i < vs->nk; i++) {
		const struct mr_vd_case *k = &vs->k[i];

		fputs(i ? ",\n  {" : "\n  {", f);
		jstr(f, "name", k->name, 1);
		jstr(f, "claims_file", k->has_claims ? k->claims_path : NULL, 1);
		jstr(f, "baseline_file", k->has_bl ? k->bl_path : NULL, 1);
		fputs("\n    \"configs\": [", f);
		for (j = 0; j < k->ncfg; j++) {
			fputs(j ? ",\n      {" : "\n      {", f);
			jstr(f, "config", k->cfg[j].config, 1);
			jstr(f, "label", k->cfg[j].label, 1);
			jnum(f, "runs_ok", k->cfg[j].nok, 1);
			jnum(f, "runs_failed", k->cfg[j].nfail, 1);
			jnum(f, "runs_skipped", k->cfg[j].nskip, 0);
			fputc('}', f);
		}
		fputs(k->ncfg ? "\n    ],\n    \"claims\": " : "],\n    \"claims\": ", f);
		json_items(f, k, MR_VD_CLAIM, 0);
		fputs(",\n    \"failed_runs\": ", f);
		json_items(f, k, MR_VD_RUN, 0);
		fputs(",\n    \"skipped_configs\": ", f);
		json_items(f, k, MR_VD_CONFIG, MR_VD_SKIPPED);
		fputs(",\n    \"not_in_baseline\": ", f);
		json_items(f, k, MR_VD_CONFIG, MR_VD_NOTINBL);
		fputs(",\n    \"baseline\": ", f);
		json_items(f, k, MR_VD_ROW, 0);
		fprintf(f, ",\n    \"baseline_rows_not_run\": %d, \"baseline_configs_not_run\": %d",
			k->notrun_rows, k->notrun_cfgs);
		fputs(",\n    \"totals\": ", f);
		json_totals(f, &k->t);
		fputs("}", f);
	}
	fputs(vs->nk ? "\n  ]\n}\n" : "]\n}\n", f);
}

void
mr_fmt_write(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	switch (o->format) {
	case MR_FMT_HUMAN:
		human(vs, o);
		break;
	case MR_FMT_TAP:
		tap(vs, o);
		break;
	case MR_FMT_JUNIT:
		junit(vs, o);
		break;
	case MR_FMT_JSON:
		json(vs, o);
		break;
	}
	fflush(o->out);
}
