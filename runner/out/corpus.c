/* corpus: the corpus table — see corpus.h. */
#include "out/corpus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/casetab.h"
#include "check/check.h"
#include "check/stats.h"
#include "core/version.h"
#include "check/verdict.h"
#include "core/util.h"
#include "out/figtab.h"
#include "proc/caseload.h"
#include "proto/cases.h"
#include "proto/schema.h"
#include "results/read.h"

/* One results directory, evaluated. */
struct src {
	struct mr_vds vs;
	struct mr_rd R;
};

/* s for a markdown table cell: '|' escaped, newlines as blanks. */
static void
cell(struct strbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			sb_add(b, "\\|");
		else
			sb_addn(b, *s == '\n' || *s == '\t' ? " " : s, 1);
	}
}

/* The case's claims in a cell: the counts, and the ids of those that do
 * not hold or reproduce. */
static void
claims_cell(struct strbuf *b, const struct mr_vd_case *vk)
{
	const struct mr_vd_totals *t = &vk->t;
	int i, any = 0;

	if (!vk->has_claims) {
		sb_add(b, "no claims");
		return;
	}
	sb_printf(b, "%d held", t->held);
	if (t->reproduces)
		sb_printf(b, ", %d reproduce%s", t->reproduces, t->reproduces == 1 ? "s" : "");
	if (t->regressed)
		sb_printf(b, ", %d regressed", t->regressed);
	if (t->notrepro)
		sb_printf(b, ", %d do%s not reproduce", t->notrepro, t->notrepro == 1 ? "es" : "");
	if (t->cskipped)
		sb_printf(b, ", %d skipped", t->cskipped);
	for (i = 0; i < vk->n; i++) {
		const struct mr_vd *v = &vk->v[i];

		if (v->kind != MR_VD_CLAIM ||
		    (v->word != MR_VD_REGRESSED && v->word != MR_VD_NOTREPRO))
			continue;
		sb_printf(b, "%s`%s`", any++ ? ", " : ": ", v->id);
	}
}

/* A link to report src (mr_figs_source_ok): "[seed 003](seeds/003_....txt)",
 * "[jemalloc/jemalloc#1127](https://github.com/jemalloc/jemalloc/issues/1127)"
 * (GitHub sends an issue's address of a pull request on to it), or the
 * address itself. */
static void
source_link(struct strbuf *b, const char *src)
{
	const char *hash = strchr(src, '#');

	if (strncmp(src, "seeds/", 6) == 0) {
		size_t n = strspn(src + 6, "0123456789");

		sb_printf(b, "[seed %.*s](%s)", (int)n, src + 6, src);
	} else if (strncmp(src, "https://", 8) == 0) {
		sb_printf(b, "<%s>", src);
	} else if (hash) {
		sb_printf(b, "[%s](https://github.com/%.*s/issues/%s)", src, (int)(hash - src), src,
			  hash + 1);
	} else {
		cell(b, src);
	}
}

/* The rows of case vk: the report's figures (fs), the original under the
 * report's runtime (orig[0]) and under today's (orig[1]), the model
 * (model); one row saying so for a report that printed none as text. */
static void
case_rows(FILE *out, const struct mr_vd_case *vk, const struct mr_ft_col *orig,
	  const struct mr_ft_col *model)
{
	const struct mr_figs *fs = &vk->figs;
	const struct mr_ft_col report = { .report = 1 };
	const struct mr_ft_col *cols[] = { &report, &orig[0], &orig[1], model };
	char *done = ecalloc((size_t)fs->n + 1, 1);
	int i, first = 1;
	size_t c;

	if (fs->n == 0 && fs->nsrc > 0) {
		/* a report whose figures are not text (screenshots): its row says
		 * so, with the claims that quote its words */
		struct strbuf b = {0};

		sb_printf(&b, "| **%s** (", vk->name);
		source_link(&b, fs->src[0]);
		sb_add(&b, ", ");
		cell(&b, fs->src_label[0]);
		sb_printf(&b, ") | none printed as text | see expected/%s.figures |  |  |  | ", vk->name);
		claims_cell(&b, vk);
		sb_add(&b, " |\n");
		fputs(b.s, out);
		sb_free(&b);
	}
	for (i = 0; i < fs->n; i++) {
		struct strbuf b = {0};
		const struct mr_fig *f = &fs->f[i];
		const struct mr_fig *base = mr_ft_growth_base(fs, f);

		if (!mr_ft_row_first(fs, i, done))
			continue;
		sb_add(&b, "| ");
		if (first) {
			sb_printf(&b, "**%s** (", vk->name);
			source_link(&b, fs->src[f->src]);
			sb_add(&b, ", ");
			cell(&b, fs->src_label[f->src]);
			sb_add(&b, ")");
		}
		sb_add(&b, " | ");
		{
			struct strbuf name = {0};

			mr_ft_row_name(&name, f, base);
			cell(&b, name.s);
			sb_free(&name);
		}
		for (c = 0; c < sizeof cols / sizeof *cols; c++) {
			sb_add(&b, " | ");
			if (c == 1 || c == 2) {
				if (!orig[c - 1].spec) {
					sb_add(&b, first ? (orig[0].spec || orig[1].spec ? "not run" : "no original") : "");
					continue;
				}
			}
			{
				struct strbuf t = {0};

				mr_ft_cell(&t, fs, i, cols[c]);
				cell(&b, t.s ? t.s : "");
				sb_free(&t);
			}
		}
		sb_add(&b, " | ");
		if (first)
			claims_cell(&b, vk);
		sb_add(&b, " |\n");
		fputs(b.s, out);
		sb_free(&b);
		first = 0;
	}
	free(done);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The table's groups, in order: each case's mechanism (its --describe,
 * MR_MECHANISMS) and a heading; a case whose binary is not at hand or
 * says none goes under the last. */
static const struct {
	const char *mechanism, *heading;
} groups[] = {
	{ "arenas", "Arenas: a thread's own malloc arena, and what it keeps" },
	{ "retention", "Retention below the top: freed memory the allocator keeps" },
	{ "purging", "Purging and madvise: when freed pages go back, and how" },
	{ "hugepages", "Huge pages: transparent huge pages under the allocators" },
	{ "reservations", "Reservations: address space taken ahead of use" },
	{ "zeroing", "Zeroing: calloc and fresh pages" },
	{ NULL, "Not filed under a mechanism" },
};

/* Which of groups[] case name is in. */
static size_t
group_of(struct mr_casetab *tab, const char *name)
{
	const struct mr_cases_desc *desc = mr_casetab_desc(tab, name, NULL, NULL);
	size_t g = sizeof groups / sizeof *groups - 1;

	for (size_t i = 0; desc && desc->mechanism && groups[i].mechanism; i++)
		if (strcmp(groups[i].mechanism, desc->mechanism) == 0)
			g = i;
	return g;
}

/* The rows of case name, in group g: the group's heading and the table's
 * head first when it is the group's first case (shown 0; *headings counts
 * the headings written).  Returns 1. */
static int
group_rows(const struct mr_corpus_opts *o, const struct src *s, const struct mr_rd *const *R,
	   const char *name, size_t g, int shown, int *headings)
{
	struct mr_ft_col orig[2], model;
	int i, j = 0;

	if (!shown)
		fprintf(o->out, "%s### %s\n\n"
			"| case (report) | figure | the report | its program, on the report's runtime | its program, today | the model | claims |\n"
			"|---|---|---|---|---|---|---|\n", (*headings)++ ? "\n" : "", groups[g].heading);
	for (i = 0; i < o->ndirs; i++) {
		for (j = 0; j < s[i].vs.nk && strcmp(s[i].vs.k[j].name, name); j++)
			;
		if (j < s[i].vs.nk)
			break;
	}
	model = (struct mr_ft_col){ .k = mr_rd_case(&s[i].R, name) };
	mr_ft_orig_cols(R, o->ndirs, name, &s[i].vs.k[j].figs, orig);
	case_rows(o->out, &s[i].vs.k[j], orig, &model);
	return 1;
}

int
mr_corpus(const struct mr_corpus_opts *o)
{
	struct src *s = ecalloc((size_t)o->ndirs + 1, sizeof *s);
	struct mr_casetab tab; /* each case described, its claims read, once */
	const char **names = NULL;
	const struct mr_rd **R = NULL;
	int nnames = 0, rc = MR_USAGE, i, j, l, loaded = 0, shown, headings = 0;
	size_t g, *group = NULL;

	mr_casetab_init(&tab, o->cases_dir, o->expected_dir ? o->expected_dir : "expected");
	for (i = 0; i < o->ndirs; i++, loaded++) {
		struct mr_check_opts co = {0};

		co.results_dir = o->dirs[i];
		co.rd = &s[i].R; /* read once: check judges what the table shows */
		co.tab = &tab;
		co.expected_dir = o->expected_dir;
		co.cases_dir = o->cases_dir;
		if (mr_rd_load(&s[i].R, o->dirs[i]) < 0 || mr_check_eval(&co, &s[i].vs) != MR_OK) {
			mr_rd_free(&s[i].R);
			goto out;
		}
		for (j = 0; j < s[i].vs.nk; j++) {
			for (l = 0; l < nnames && strcmp(names[l], s[i].vs.k[j].name); l++)
				;
			if (l == nnames) {
				names = erealloc(names, sizeof *names * (size_t)(nnames + 1));
				names[nnames++] = s[i].vs.k[j].name;
			}
		}
	}
	if (nnames > 1)
		qsort(names, (size_t)nnames, sizeof *names, by_name);
	R = ecalloc((size_t)o->ndirs + 1, sizeof *R);
	for (i = 0; i < o->ndirs; i++)
		R[i] = &s[i].R;
	group = ecalloc((size_t)nnames + 1, sizeof *group);
	for (l = 0; l < nnames; l++)
		group[l] = group_of(&tab, names[l]);
	for (g = 0; g < sizeof groups / sizeof *groups; g++)
		for (l = 0, shown = 0; l < nnames; l++)
			if (group[l] == g)
				shown += group_rows(o, s, R, names[l], g, shown, &headings);
	fprintf(o->out, "\nWritten by `memrepro corpus");
	for (i = 0; i < o->ndirs; i++)
		fprintf(o->out, " %s", o->dirs[i]);
	fprintf(o->out, "` from results of %s", s[0].R.platform ? s[0].R.platform : "?");
	for (i = 0; i < o->ndirs; i++) {
		const char *p = mr_rd_env(&s[i].R, MR_ENVK_PROFILE), *r = mr_rd_env(&s[i].R, MR_ENVK_REPEAT),
			   *t = mr_rd_env(&s[i].R, MR_ENVK_STARTED);

		fprintf(o->out, "%s%s: profile %s, %s repeats, started %s", i ? "; " : " (",
			o->dirs[i], p ? p : "?", r ? r : "?", t ? t : "?");
	}
	fprintf(o->out, ").\n");
	rc = ferror(o->out) ? MR_FAILED : MR_OK;
out:
	for (i = 0; i < loaded; i++) {
		mr_vds_free(&s[i].vs);
		mr_rd_free(&s[i].R);
	}
	mr_casetab_free(&tab);
	free(names);
	free(group);
	free(R);
	free(s);
	return rc;
}
