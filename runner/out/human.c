#include "out/format.h"

#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "check/finding.h"
#include "core/util.h"

#define INDENT "  "

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
			fprintf(f, "  %s\n", v->words && !o->verbose ? v->words : v->detail);
		}
		if (v->words && o->verbose)
			fprintf(f, INDENT "       %-*s  in words: %s\n", w, "", v->words);
		fprintf(f, INDENT "       %-*s  \"%s\"\n", w, "", v->cite);
		if (v->since)
			fprintf(f, INDENT "       %-*s  since %s: %s%s\n", w, "", v->since,
				v->news ? "NEWS: " : "", v->since_detail);
		if (o->verbose)
			for (j = 0; j < v->nlines; j++)
				fprintf(f, INDENT "       %-*s    %s\n", w, "", v->lines[j]);
	}
}

/* The upgrade table (kern 0: per claim evaluated at some version, its
 * word at each version of the results, old to new) or the kernel table
 * (kern 1: at each kernel). */
static void
human_upgrade(FILE *f, const struct mr_fmt_opts *o, const struct mr_vd_case *k, int kern)
{
	int *cw = ecalloc(k->ncol + 1, sizeof *cw), w = (int)strlen("claim"), i, j, last = -1;

	for (j = 0; j < k->ncol; j++) {
		cw[j] = (int)strlen(k->col[j].label);
		if (mr_vd_col_in(&k->col[j], kern))
			last = j;
	}
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CLAIM || !v->cells)
			continue;
		if ((int)strlen(v->id) > w)
			w = (int)strlen(v->id);
		for (j = 0; j < k->ncol; j++)
			if (v->cells[j] < MR_VD_NWORDS &&
			    (int)strlen(mr_vd_words[v->cells[j]]) > cw[j])
				cw[j] = (int)strlen(mr_vd_words[v->cells[j]]);
	}
	fprintf(f, INDENT "%-8s  %-*s", kern ? "kernels" : "versions", w, "claim");
	for (j = 0; j < k->ncol; j++)
		if (mr_vd_col_in(&k->col[j], kern))
			fprintf(f, "  %-*s", j < last ? cw[j] : 0, k->col[j].label);
	fputc('\n', f);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (!v->cells || !mr_vd_table_row(v, k, kern))
			continue;
		fprintf(f, INDENT "%-8s  %-*s", "", w, v->id);
		for (j = 0; j < k->ncol; j++) {
			if (!mr_vd_col_in(&k->col[j], kern))
				continue;
			fputs("  ", f);
			if (v->cells[j] == MR_VD_NWORDS)
				fprintf(f, "%-*s", j == last ? 0 : cw[j], "-");
			else
				word(f, o, (enum mr_vd_word)v->cells[j], j == last ? 0 : cw[j]);
		}
		fputc('\n', f);
	}
	free(cw);
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
				if (v->detail)
					fprintf(f, " (%s)", v->detail);
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
			"baseline", k->notrun_rows, mr_fmt_plural(k->notrun_rows, "row", "rows"),
			k->notrun_cfgs, mr_fmt_plural(k->notrun_cfgs, "config", "configs"));
}

void
mr_fmt_human(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	FILE *f = o->out;
	char *lead = NULL;
	int i;

	if (vs->norun) {
		char *path = esprintf("%s/" MR_FILE_RUNS, vs->results);

		fprintf(f, "%s: no runs: nothing to check\n", path);
		free(path);
		return;
	}
	for (i = 0; i < vs->nchanged; i++)
		fprintf(f, "%s\n", vs->changed[i]);
	if (vs->busy)
		fprintf(f, "%s\n", vs->busy);
	/* one case: its own lead line says it */
	if (vs->nk > 1 && (lead = mr_finding(vs, -1)))
		fprintf(f, "%s\n", lead);
	if (vs->nchanged || vs->nbusy || lead)
		fputc('\n', f);
	free(lead);
	for (i = 0; i < vs->nk; i++) {
		const struct mr_vd_case *k = &vs->k[i];

		fprintf(f, "%s\n", k->name);
		if ((lead = mr_finding(vs, i))) {
			fprintf(f, INDENT "%s\n", lead);
			free(lead);
		}
		human_claims(f, o, k);
		if (mr_vd_table_cols(k, 0) && k->has_claims)
			human_upgrade(f, o, k, 0);
		if (mr_vd_table_cols(k, 1) && k->has_claims)
			human_upgrade(f, o, k, 1);
		human_runs(f, o, k);
		human_baseline(f, o, vs, k);
		human_totals(f, k->name, &k->t);
		if (i + 1 < vs->nk)
			fputc('\n', f);
	}
	if (vs->nk > 1) {
		fputc('\n', f);
		mr_fmt_summary(f, vs);
	}
}

void
mr_fmt_summary(FILE *f, const struct mr_vds *vs)
{
	human_totals(f, "total", &vs->all);
}
