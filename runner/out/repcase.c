/* repcase: a case's section of the report — see repcase.h. */
#include "out/repcase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/verdict.h"
#include "core/numfmt.h"
#include "core/util.h"
#include "out/escape.h"
#include "out/repfigs.h"

/* A verdict word: loud when it fails or asks for attention. */
void
mr_repcase_verdict(struct mr_doc *d, enum mr_vd_word w)
{
	static const char *const cls[MR_VD_NWORDS] = {
		"held", "regressed", "improved", "held", "notrepro", "skipped",
		"regressed", "notrepro", "notrepro", "notrepro",
	};

	mr_doc_badge(d, mr_vd_words[w], cls[w],
		     mr_vd_fails(w) || w == MR_VD_IMPROVED || w == MR_VD_UNDEFINED);
}

void
mr_repcase_counts(struct mr_doc *d, const struct mr_vd_totals *t, int what)
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
		mr_doc_bold(d, b.s);
	else
		mr_doc_text(d, b.s);
	sb_free(&b);
}

/* A chart of the results, or a note that it was not drawn. */
void
mr_repcase_image(struct mr_doc *d, const char *alt, const char *rel)
{
	if (mr_doc_image(d, alt, rel) < 0) {
		mr_doc_para(d);
		mr_doc_textf(d, "(%s: not drawn, see the messages of memrepro report)", alt);
		mr_doc_para_end(d);
	}
}


static void
write_claims(struct mr_doc *d, const struct mr_vd_case *k)
{
	static const char *const head[] = {
		"claim", "verdict", "the report's figure", "measured here", NULL,
	};
	int i;

	mr_doc_heading(d, 3, NULL, "Claims");
	if (!k->has_claims) {
		mr_doc_para(d);
		mr_doc_text(d, "No claims: ");
		mr_doc_code(d, k->claims_path);
		mr_doc_text(d, " does not exist.");
		mr_doc_para_end(d);
		return;
	}
	mr_doc_table(d, head);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CLAIM)
			continue;
		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_code(d, v->id);
		mr_doc_text(d, v->holds ? " (holds)" : " (reported)");
		mr_doc_cell(d);
		mr_repcase_verdict(d, v->word);
		mr_doc_cell(d);
		mr_doc_text(d, v->cite);
		mr_doc_cell(d);
		if (v->words) {
			/* the words; the expression they say one click away */
			mr_doc_details(d, v->words);
			mr_doc_code(d, v->detail);
			mr_doc_details_end(d);
		} else {
			mr_doc_code(d, v->detail);
		}
		if (v->since) {
			mr_doc_text(d, " since ");
			mr_doc_code(d, v->since);
			mr_doc_text(d, ": ");
			if (v->news) {
				mr_doc_bold(d, "news:");
				mr_doc_text(d, " ");
			}
			mr_doc_text(d, v->since_detail);
		}
		mr_doc_row_end(d);
	}
	mr_doc_table_end(d);
}


/* The upgrade table (kern 0): per claim, its verdict at each version in
 * the results, old to new ("-": not evaluated there); the kernel table
 * (kern 1): at each kernel. */
static void
write_upgrade(struct mr_doc *d, const struct mr_vd_case *k, int kern)
{
	const char **head;
	int i, j, n = 0;

	if (!mr_vd_table_cols(k, kern) || !k->has_claims)
		return;
	mr_doc_heading(d, 3, NULL, kern ? "Across kernels" : "Across versions");
	head = ecalloc(k->ncol + 2, sizeof *head);
	head[n++] = "claim";
	for (j = 0; j < k->ncol; j++)
		if (mr_vd_col_in(&k->col[j], kern))
			head[n++] = mr_esc_head(k->col[j].label);
	mr_doc_table(d, head);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (!mr_vd_table_row(v, k, kern))
			continue;
		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_code(d, v->id);
		for (j = 0; j < k->ncol; j++) {
			if (!mr_vd_col_in(&k->col[j], kern))
				continue;
			mr_doc_cell(d);
			if (v->cells[j] == MR_VD_NWORDS)
				mr_doc_text(d, "-");
			else
				mr_repcase_verdict(d, (enum mr_vd_word)v->cells[j]);
		}
		mr_doc_row_end(d);
	}
	mr_doc_table_end(d);
	for (j = 1; j < n; j++)
		free((char *)head[j]);
	free(head);
}

static void
write_runs(struct mr_doc *d, const struct mr_vds *vs, const struct mr_vd_case *k)
{
	static const char *const head[] = { "config", "repeat", "outcome", "log", NULL };
	int i, any = 0;

	mr_doc_heading(d, 3, NULL, "Runs");
	mr_doc_para(d);
	mr_doc_textf(d, "%d ok, %d failed, %d skipped.", k->t.rok, k->t.rfailed, k->t.rskipped);
	mr_doc_para_end(d);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];
		char rep[32];

		if (v->kind == MR_VD_RUN) {
			if (!any++)
				mr_doc_table(d, head);
			snprintf(rep, sizeof rep, "%ld", v->repeat);
			mr_doc_row(d);
			mr_doc_cell(d);
			mr_doc_code(d, v->label);
			mr_doc_cell(d);
			mr_doc_text(d, rep);
			mr_doc_cell(d);
			mr_repcase_verdict(d, MR_VD_FAILED);
			mr_doc_textf(d, " (%s%s%s)", v->outcome, strcmp(v->detail, "-") ? ": " : "",
			      strcmp(v->detail, "-") ? v->detail : "");
			mr_doc_cell(d);
			if (v->log) {
				/* relative to the report, which is in the results */
				size_t n = strlen(vs->results);

				if (!strncmp(v->log, vs->results, n) && v->log[n] == '/')
					mr_doc_file(d, v->log + n + 1);
				else
					mr_doc_code(d, v->log);
			}
			mr_doc_row_end(d);
		} else if (v->kind == MR_VD_CONFIG && v->word == MR_VD_SKIPPED) {
			if (!any++)
				mr_doc_table(d, head);
			mr_doc_row(d);
			mr_doc_cell(d);
			mr_doc_code(d, v->label);
			mr_doc_cell(d);
			mr_doc_textf(d, "%d of %d", v->nskip, v->nrun);
			mr_doc_cell(d);
			mr_repcase_verdict(d, MR_VD_SKIPPED);
			mr_doc_textf(d, " (%s)", v->detail);
			mr_doc_cell(d);
			mr_doc_row_end(d);
		}
	}
	if (any)
		mr_doc_table_end(d);
}

static void
write_baseline(struct mr_doc *d, const struct mr_vds *vs, const struct mr_vd_case *k)
{
	static const char *const head[] = {
		"config", "figure", "verdict", "observed (repeats)", "baseline +/- tolerance",
		"change", NULL,
	};
	int i, any = 0;

	mr_doc_heading(d, 3, NULL, "Baseline");
	mr_doc_para(d);
	if (!k->has_bl) {
		mr_doc_textf(d, "No baseline for platform %s: claims only (", vs->platform);
		mr_doc_code(d, "memrepro bless");
		mr_doc_text(d, " writes one).");
		mr_doc_para_end(d);
		return;
	}
	mr_doc_code(d, k->bl_path);
	mr_doc_text(d, ": ");
	mr_repcase_counts(d, &k->t, 1);
	if (k->notrun_rows)
		mr_doc_textf(d, "; %d rows of %d configs not run here", k->notrun_rows,
		      k->notrun_cfgs);
	mr_doc_text(d, ".");
	mr_doc_para_end(d);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];
		char a[48], b[48], c[48], e[48], f[48], ch[48];

		if (v->kind != MR_VD_ROW ||
		    (v->word != MR_VD_REGRESSED && v->word != MR_VD_IMPROVED))
			continue;
		if (!any++)
			mr_doc_table(d, head);
		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_code(d, v->label);
		mr_doc_cell(d);
		mr_doc_code(d, v->what);
		mr_doc_cell(d);
		mr_repcase_verdict(d, v->word);
		mr_doc_cell(d);
		mr_doc_textf(d, "%s (%s .. %s)", mr_fmt_num(a, v->obs), mr_fmt_num(b, v->omin),
		      mr_fmt_num(c, v->omax));
		mr_doc_cell(d);
		mr_doc_textf(d, "%s +/- %s", mr_fmt_num(e, v->exp), mr_fmt_num(f, v->tol));
		mr_doc_cell(d);
		if (v->exp)
			snprintf(ch, sizeof ch, "%+.1f %%", 100 * (v->obs - v->exp) / fabs(v->exp));
		else
			snprintf(ch, sizeof ch, "-");
		mr_doc_text(d, ch);
		mr_doc_row_end(d);
	}
	if (any)
		mr_doc_table_end(d);
	for (i = 0; i < k->n; i++) {
		if (k->v[i].kind == MR_VD_CONFIG && k->v[i].word == MR_VD_NOTINBL) {
			mr_doc_para(d);
			mr_doc_code(d, k->v[i].label);
			mr_doc_text(d, ": not in the baseline.");
			mr_doc_para_end(d);
		}
	}
}

void
mr_repcase_write(struct mr_doc *d, const struct mr_vds *vs, const struct mr_rd *R,
		 const struct mr_vd_case *k, const char *title, const char *source)
{
	char *id = esprintf("case-%s", k->name), *h, *rel;

	h = title ? esprintf("%s: %s", k->name, title) : estrdup(k->name);
	mr_doc_heading(d, 2, id, h);
	free(h);
	free(id);
	if (source) {
		mr_doc_para(d);
		mr_doc_bold(d, "Source:");
		mr_doc_text(d, " ");
		mr_doc_text(d, source);
		mr_doc_para_end(d);
	}
	mr_repfigs_write(d, R, k);
	write_claims(d, k);
	write_upgrade(d, k, 0);
	write_upgrade(d, k, 1);
	write_runs(d, vs, k);
	write_baseline(d, vs, k);
	mr_doc_heading(d, 3, NULL, "Charts");
	if (k->figs.n) {
		rel = esprintf("plots/%s.figures", k->name);
		mr_repcase_image(d, "the report's figures and ours", rel);
		free(rel);
	}
	rel = esprintf("plots/%s.series", k->name);
	mr_repcase_image(d, "memory over time, every config", rel);
	free(rel);
	rel = esprintf("plots/%s.diff", k->name);
	mr_repcase_image(d, "observed medians against the baseline", rel);
	free(rel);
}
