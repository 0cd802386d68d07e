/* repstatus: the top of the report — see repstatus.h. */
#include "out/repstatus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/finding.h"
#include "core/numfmt.h"
#include "core/util.h"
#include "out/repcase.h"

/* Regressed baseline rows listed one by one when they share nothing. */
enum { ROWS_LISTED = 5 };

/* Whether case k has something to say at the top. */
static int
changed(const struct mr_vd_case *k)
{
	return k->t.regressed || k->t.bregressed || k->t.bimproved || k->t.rfailed;
}

/* The claims of k that failed: their ids and what was measured. */
static void
failed_claims(struct mr_doc *d, const struct mr_vd_case *k)
{
	int i, any = 0;

	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_CLAIM || v->word != MR_VD_REGRESSED)
			continue;
		if (any++)
			mr_doc_text(d, "; ");
		mr_doc_code(d, v->id);
		mr_doc_text(d, ": ");
		mr_doc_text(d, v->words ? v->words : v->detail);
	}
	if (!any)
		mr_doc_text(d, "-");
}

/* One baseline row that moved: its config, figure and change. */
static void
row(struct mr_doc *d, const struct mr_vd *v)
{
	char a[48], e[48];

	mr_doc_code(d, v->label ? v->label : v->config);
	mr_doc_text(d, " ");
	mr_doc_code(d, v->what);
	mr_doc_textf(d, " %s %s vs %s", mr_vd_words[v->word], mr_fmt_num(a, v->obs),
		     mr_fmt_num(e, v->exp));
	if (v->exp && !isnan(v->obs))
		mr_doc_textf(d, " (%+.1f %%)", 100 * (v->obs - v->exp) / fabs(v->exp));
}

/* What the regressed rows of case ci share, or the rows themselves. */
static void
moved_rows(struct mr_doc *d, const struct mr_vds *vs, int ci)
{
	const struct mr_vd_case *k = &vs->k[ci];
	char *share = mr_finding(vs, ci);
	int i, n = 0;

	if (share) {
		mr_doc_text(d, share);
		if (k->t.bimproved)
			mr_doc_textf(d, "; %d improved", k->t.bimproved);
		free(share);
		return;
	}
	mr_repcase_counts(d, &k->t, 1);
	for (i = 0; i < k->n; i++) {
		const struct mr_vd *v = &k->v[i];

		if (v->kind != MR_VD_ROW ||
		    (v->word != MR_VD_REGRESSED && v->word != MR_VD_IMPROVED))
			continue;
		if (n++ == ROWS_LISTED) {
			mr_doc_text(d, "; ...");
			break;
		}
		mr_doc_text(d, n == 1 ? ": " : "; ");
		row(d, v);
	}
}

static void
what_changed(struct mr_doc *d, const struct mr_vds *vs)
{
	static const char *const head[] = {
		"case", "claims that failed", "baseline", "runs", NULL,
	};
	int i;

	mr_doc_table(d, head);
	for (i = 0; i < vs->nk; i++) {
		const struct mr_vd_case *k = &vs->k[i];
		char *anchor;

		if (!changed(k))
			continue;
		anchor = esprintf("#case-%s", k->name);
		mr_doc_row(d);
		mr_doc_cell(d);
		mr_doc_link(d, k->name, anchor);
		free(anchor);
		mr_doc_cell(d);
		failed_claims(d, k);
		mr_doc_cell(d);
		if (k->t.has_bl)
			moved_rows(d, vs, i);
		else
			mr_doc_text(d, "no baseline");
		mr_doc_cell(d);
		mr_repcase_counts(d, &k->t, 2);
		mr_doc_row_end(d);
	}
	mr_doc_table_end(d);
}

void
mr_repstatus_write(struct mr_doc *d, const struct mr_vds *vs)
{
	int i, any = 0;
	char *lead = NULL;

	mr_doc_heading(d, 2, "status", vs->status ? "Status: failed" : "Status: passed");
	mr_doc_para(d);
	mr_doc_badge(d, vs->status ? "failed" : "passed", vs->status ? "regressed" : "held",
		     vs->status != 0);
	/* "passed: claims 7 held; baseline 207 held; runs 36 ok." */
	mr_doc_text(d, ": claims ");
	mr_repcase_counts(d, &vs->all, 0);
	mr_doc_text(d, "; baseline ");
	mr_repcase_counts(d, &vs->all, 1);
	mr_doc_text(d, "; runs ");
	mr_repcase_counts(d, &vs->all, 2);
	mr_doc_text(d, ".");
	mr_doc_para_end(d);
	for (i = 0; i < vs->nchanged; i++) {
		mr_doc_para(d);
		mr_doc_bold(d, "Not judged:");
		mr_doc_textf(d, " %s.", vs->changed[i]);
		mr_doc_para_end(d);
	}
	for (i = 0; i < vs->nk; i++)
		any += changed(&vs->k[i]);
	mr_doc_para(d);
	if (!any) {
		mr_doc_text(d, vs->norun ? "No runs in the results."
			    : "Nothing changed against the baseline, and no claim failed.");
		mr_doc_para_end(d);
		return;
	}
	mr_doc_bold(d, "What changed");
	/* across cases: what one case's row would not say */
	if (any > 1 && (lead = mr_finding(vs, -1))) {
		mr_doc_textf(d, ": %s.", lead);
		free(lead);
	} else {
		mr_doc_text(d, ", per case:");
	}
	mr_doc_para_end(d);
	what_changed(d, vs);
}
