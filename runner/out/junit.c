#include "out/format.h"

#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "core/safeio.h"
#include "core/util.h"
#include "out/escape.h"

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
	mr_esc_xml(f, value);
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
	/* the message in words where there are some; the expression in the
	 * system-out */
	sb_printf(&msg, "%s: %s", mr_vd_words[v->word], v->words ? v->words : v->detail);
	if (mr_vd_fails(v->word)) {
		fprintf(f, "      <failure type=\"regressed\"");
		xml_attr(f, "message", msg.s);
		fprintf(f, ">");
		mr_esc_xml(f, "the report: \"");
		mr_esc_xml(f, v->cite);
		mr_esc_xml(f, "\"\n");
		for (l = 0; l < v->nlines; l++) {
			mr_esc_xml(f, v->lines[l]);
			mr_esc_xml(f, "\n");
		}
		fprintf(f, "</failure>\n");
	} else if (v->word == MR_VD_SKIPPED || v->word == MR_VD_NOTREPRO ||
		   v->word == MR_VD_UNDEFINED) {
		fprintf(f, "      <skipped");
		xml_attr(f, "message", msg.s);
		fprintf(f, "/>\n");
	}
	fprintf(f, "      <system-out>");
	mr_esc_xml(f, msg.s);
	if (v->words) {
		mr_esc_xml(f, "\nexpression: ");
		mr_esc_xml(f, v->detail);
	}
	mr_esc_xml(f, "\nthe report: \"");
	mr_esc_xml(f, v->cite);
	mr_esc_xml(f, "\"\n");
	for (l = 0; v->cells && l < k->ncol; l++) {
		if (v->cells[l] == MR_VD_NWORDS)
			continue;
		mr_esc_xml(f, k->col[l].label);
		mr_esc_xml(f, ": ");
		mr_esc_xml(f, mr_vd_words[v->cells[l]]);
		mr_esc_xml(f, "\n");
	}
	if (v->since) {
		mr_esc_xml(f, "since ");
		mr_esc_xml(f, v->since);
		mr_esc_xml(f, v->news ? ": NEWS: " : ": ");
		mr_esc_xml(f, v->since_detail);
		mr_esc_xml(f, "\n");
	}
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
				char *tail = mr_sio_tail_under(results, v->log, MR_FMT_LOG_TAIL);

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
		mr_esc_xml(f, body.s);
		fprintf(f, "</failure>\n");
	} else if (skip && c->nok == 0) {
		fprintf(f, "      <skipped");
		xml_attr(f, "message", skip);
		fprintf(f, "/>\n");
	}
	fprintf(f, "      <system-out>");
	mr_esc_xml(f, out.s);
	fprintf(f, "</system-out>\n    </testcase>\n");
	sb_free(&msg);
	sb_free(&body);
	sb_free(&out);
}

void
mr_fmt_junit(const struct mr_vds *vs, const struct mr_fmt_opts *o)
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
