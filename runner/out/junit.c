#include "out/format.h"

#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "core/safeio.h"
#include "core/util.h"
#include "out/escape.h"

/* How a testcase ends.  JUnit's consumers count errors (the test could
 * not be carried out: here a run that did not end ok) apart from failures
 * (it was carried out and did not pass: a regressed claim or baseline
 * row). */
enum junit_res { J_PASSED, J_SKIPPED, J_FAILURE, J_ERROR };

/* The counts and time of a testsuite, or of them all. */
struct junit_sum {
	int tests, failures, errors, skipped;
	double ms;
};

static int
claim_skipped(enum mr_vd_word w)
{
	return w == MR_VD_SKIPPED || w == MR_VD_NOTREPRO || w == MR_VD_UNDEFINED;
}

static enum junit_res
claim_res(const struct mr_vd *v)
{
	if (mr_vd_fails(v->word))
		return J_FAILURE;
	return claim_skipped(v->word) ? J_SKIPPED : J_PASSED;
}

/* A config with a run that did not end ok is an error, whatever its
 * baseline rows (they are then over fewer runs); else a regressed row is a
 * failure; a config none of whose runs ran is skipped. */
static enum junit_res
config_res(const struct mr_vd_case *k, const struct mr_vd_cfg *c)
{
	int fail = 0, i;

	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (!v->config || v->kind == MR_VD_CLAIM || strcmp(v->config, c->config))
			continue;
		if (v->kind == MR_VD_RUN)
			return J_ERROR;
		fail |= mr_vd_fails(v->word);
	}
	if (fail)
		return J_FAILURE;
	return c->nok == 0 && c->nskip > 0 ? J_SKIPPED : J_PASSED;
}

static void
sum_add(struct junit_sum *s, enum junit_res r, double ms)
{
	s->tests++;
	s->failures += r == J_FAILURE;
	s->errors += r == J_ERROR;
	s->skipped += r == J_SKIPPED;
	s->ms += ms;
}

/* The testsuite of a case: a testcase per claim (time 0: judging a claim
 * runs nothing; the runs it judged are its configs' testcases) and per
 * config (the sum of its runs' wall_ms). */
static void
junit_counts(const struct mr_vd_case *k, struct junit_sum *s)
{
	int i;

	memset(s, 0, sizeof *s);
	for (i = 0; i < k->n; i++)
		if (k->v[i].kind == MR_VD_CLAIM)
			sum_add(s, claim_res(&k->v[i]), 0);
	for (i = 0; i < k->ncfg; i++)
		sum_add(s, config_res(k, &k->cfg[i]), k->cfg[i].wall_ms);
}

/* A time attribute: ms in seconds, to the millisecond. */
static void
xml_time(FILE *f, double ms)
{
	fprintf(f, " time=\"%.3f\"", ms / 1000);
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
	xml_time(f, 0);
	fprintf(f, ">\n");
	/* the message in words where there are some; the expression in the
	 * system-out */
	sb_printf(&msg, "%s: %s", mr_vd_words[v->word], v->words ? v->words : v->detail);
	if (claim_res(v) == J_FAILURE) {
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
	} else if (claim_res(v) == J_SKIPPED) {
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

/* A config's testcase, named by the canonical config (as in runs.tsv:
 * the same from one night to the next, whatever else ran beside it). */
static void
junit_config(FILE *f, const char *results, const struct mr_vd_case *k,
	     const struct mr_vd_cfg *c)
{
	struct strbuf emsg = {0}, fmsg = {0}, body = {0}, out = {0};
	const char *etype = NULL, *skip = NULL;
	enum junit_res res = config_res(k, c);
	int i;

	sb_add(&emsg, "");
	sb_add(&fmsg, "");
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
			if (!etype)
				etype = v->outcome;
			sb_printf(&emsg, "%srepeat %ld %s%s%s", emsg.len ? "; " : "",
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
				sb_printf(&fmsg, "%s%s observed %s, expected %s +/- %s",
					  fmsg.len ? "; " : "", v->what, obs, med, tol);
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
	xml_attr(f, "name", c->config);
	xml_time(f, c->wall_ms);
	fprintf(f, ">\n");
	if (res == J_ERROR || res == J_FAILURE) {
		/* an error's text has the regressed rows too: one element per
		 * testcase, as its consumers expect */
		fprintf(f, res == J_ERROR ? "      <error" : "      <failure");
		xml_attr(f, "type", res == J_ERROR ? etype : "regressed");
		xml_attr(f, "message", res == J_ERROR ? emsg.s : fmsg.s);
		fprintf(f, ">");
		mr_esc_xml(f, body.s);
		fprintf(f, res == J_ERROR ? "</error>\n" : "</failure>\n");
	} else if (res == J_SKIPPED && skip) {
		fprintf(f, "      <skipped");
		xml_attr(f, "message", skip);
		fprintf(f, "/>\n");
	}
	fprintf(f, "      <system-out>");
	mr_esc_xml(f, out.s);
	fprintf(f, "</system-out>\n    </testcase>\n");
	sb_free(&emsg);
	sb_free(&fmsg);
	sb_free(&body);
	sb_free(&out);
}

static void
suite_attrs(FILE *f, const struct junit_sum *s)
{
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\"",
		s->tests, s->failures, s->errors, s->skipped);
	xml_time(f, s->ms);
}

void
mr_fmt_junit(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	FILE *f = o->out;
	struct junit_sum all = {0}, s;
	int i, j;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	for (i = 0; i < vs->nk; i++) {
		junit_counts(&vs->k[i], &s);
		all.tests += s.tests;
		all.failures += s.failures;
		all.errors += s.errors;
		all.skipped += s.skipped;
		all.ms += s.ms;
	}
	if (vs->norun) {
		memset(&all, 0, sizeof all);
		all.tests = all.failures = 1;
	}
	fprintf(f, "<testsuites name=\"memrepro check\"");
	suite_attrs(f, &all);
	fprintf(f, ">\n");
	if (vs->norun) {
		fprintf(f, "  <testsuite name=\"results\"");
		suite_attrs(f, &all);
		fprintf(f, ">\n"
			   "    <testcase classname=\"results\" name=\"runs\" time=\"0.000\">\n"
			   "      <failure type=\"failed\"");
		xml_attr(f, "message", "no runs: nothing to check");
		fprintf(f, "/>\n    </testcase>\n  </testsuite>\n");
	}
	for (i = 0; i < vs->nk; i++) {
		const struct mr_vd_case *k = &vs->k[i];

		junit_counts(k, &s);
		fprintf(f, "  <testsuite");
		xml_attr(f, "name", k->name);
		suite_attrs(f, &s);
		fprintf(f, ">\n");
		fprintf(f, "    <properties>\n      <property name=\"results\"");
		xml_attr(f, "value", vs->results);
		fprintf(f, "/>\n      <property name=\"platform\"");
		xml_attr(f, "value", vs->platform);
		fprintf(f, "/>\n      <property name=\"claims\"");
		xml_attr(f, "value", k->has_claims ? k->claims_path : "-");
		fprintf(f, "/>\n      <property name=\"baseline\"");
		xml_attr(f, "value", k->has_bl ? k->bl_path : "-");
		for (j = 0; j < vs->nchanged; j++) {
			fprintf(f, "/>\n      <property name=\"machine_changed\"");
			xml_attr(f, "value", vs->changed[j]);
		}
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
