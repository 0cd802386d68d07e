#include "out/format.h"

#include <math.h>

#include "out/escape.h"

static void
jstr(FILE *f, const char *key, const char *s, int comma)
{
	fprintf(f, "\"%s\": ", key);
	if (!s) {
		fputs("null", f);
	} else {
		fputc('"', f);
		mr_esc_json(f, s);
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
			jstr(f, "words", v->words, 1);
			jstr(f, "citation", v->cite, 1);
			jnum(f, "line", (double)v->line, 1);
			fputs("\"combinations\": [", f);
			for (l = 0; l < v->nlines; l++) {
				fputs(l ? ", \"" : "\"", f);
				mr_esc_json(f, v->lines[l]);
				fputc('"', f);
			}
			fputc(']', f);
			if (v->cells) {
				/* parallel to the case's "versions" */
				fputs(", \"upgrade\": [", f);
				for (l = 0; l < k->ncol; l++) {
					fputs(l ? ", " : "", f);
					if (v->cells[l] == MR_VD_NWORDS)
						fputs("null", f);
					else
						fprintf(f, "\"%s\"", mr_vd_words[v->cells[l]]);
				}
				fputc(']', f);
			}
			if (v->since) {
				fputs(", \"since\": {", f);
				jstr(f, "spec", v->since, 1);
				jstr(f, "detail", v->since_detail, 1);
				jnum(f, "news", v->news, 0);
				fputc('}', f);
			}
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

void
mr_fmt_json(const struct mr_vds *vs, const struct mr_fmt_opts *o)
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
	fputs("\n  \"machine_changed\": [", f);
	for (i = 0; i < vs->nchanged; i++) {
		fputs(i ? ", \"" : "\"", f);
		mr_esc_json(f, vs->changed[i]);
		fputc('"', f);
	}
	fputs("], ", f);
	jnum(f, "busy_runs", vs->nbusy, 1);
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
		fputs(k->ncfg ? "\n    ]" : "]", f);
		if (k->ncol) {
			fputs(",\n    \"versions\": [", f);
			for (j = 0; j < k->ncol; j++) {
				fputs(j ? ",\n      {" : "\n      {", f);
				jstr(f, "of", k->col[j].what, 1);
				jstr(f, "value", k->col[j].spec, 1);
				jstr(f, "version", k->col[j].version, 1);
				jstr(f, "label", k->col[j].label, 0);
				fputc('}', f);
			}
			fputs("\n    ]", f);
		}
		fputs(",\n    \"claims\": ", f);
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
