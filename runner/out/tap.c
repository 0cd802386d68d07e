#include "out/format.h"

#include <stdlib.h>
#include <string.h>

#include "check/claims.h"
#include "check/finding.h"
#include "core/safeio.h"
#include "core/util.h"

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

/* The last MR_FMT_LOG_TAIL lines of a log of the results as "# " lines
 * (read through safeio.h: a log that is a link or not a regular file
 * gives a note instead). */
static void
log_diag(FILE *f, const char *results, const char *path)
{
	if (path) {
		char *tail = mr_sio_tail_under(results, path, MR_FMT_LOG_TAIL);

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

void
mr_fmt_tap(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	FILE *f = o->out;
	char *lead;
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
	for (i = 0; i < vs->nchanged; i++)
		fprintf(f, "# %s\n", vs->changed[i]);
	if (vs->busy)
		fprintf(f, "# %s\n", vs->busy);
	if ((lead = mr_finding(vs, -1))) {
		fprintf(f, "# %s\n", lead);
		free(lead);
	}
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
				if (v->words)
					fprintf(f, "# in words: %s\n", v->words);
				fprintf(f, "# \"%s\"\n", v->cite);
				if (v->cells) {
					struct strbuf b = {0};

					for (l = 0; l < k->ncol; l++)
						if (v->cells[l] < MR_VD_NWORDS)
							sb_printf(&b, "%s%s %s", b.len ? ", " : "",
								  k->col[l].label,
								  mr_vd_words[v->cells[l]]);
					if (b.len)
						fprintf(f, "# versions: %s\n", b.s);
					sb_free(&b);
				}
				if (v->since)
					fprintf(f, "# since %s: %s%s\n", v->since,
						v->news ? "NEWS: " : "", v->since_detail);
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
