/* chfiglab: the words of "the report and here" that figures.gp is told
 * besides its TSV (chfig.h): the title, a ROWS word per row, the
 * headings of the sides, the legend and the notes under the chart. */
#include "out/chfig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "out/chutil.h"
#include "matrix/axes.h"

/* s as a word of a gnuplot list: in double quotes, none inside. */
void
mr_cf_quoted(struct strbuf *b, const char *s)
{
	if (b->len)
		sb_add(b, " ");
	sb_add(b, "\"");
	for (; *s; s++)
		sb_addn(b, *s == '"' ? "'" : *s == '\n' || *s == '\t' ? " " : s, 1);
	sb_add(b, "\"");
}

/* Append s to b as a field of a ROWS word: no '"', '|' or '\'' (they
 * delimit it or its tics), no newline. */
static void
rowfield(struct strbuf *b, const char *s)
{
	for (; *s; s++)
		sb_addn(b, *s == '"' || *s == '|' || *s == '\'' || *s == '\n' || *s == '\t' ? " " : s, 1);
	sb_add(b, "|");
}

/* Append s to b as a line of a heading (a quoted word of SIDES): no
 * '"' or '|' (they delimit it or its lines), no newline. */
static void
headfield(struct strbuf *b, const char *s)
{
	for (; *s; s++)
		sb_addn(b, *s == '"' ? "'" : *s == '|' || *s == '\n' || *s == '\t' ? " " : s, 1);
	sb_add(b, "|");
}

/* Append text to b wrapped at width columns (at blanks), after a newline
 * when b is not empty. */
void
mr_cf_wrapped(struct strbuf *b, const char *text, size_t width)
{
	const char *s = text;

	if (b->len)
		sb_add(b, "\n");
	while (strlen(s) > width) {
		const char *cut = s + width;

		while (cut > s && *cut != ' ')
			cut--;
		if (cut == s)
			cut = s + width;
		sb_addn(b, s, (size_t)(cut - s));
		sb_add(b, "\n    ");
		s = *cut == ' ' ? cut + 1 : cut;
	}
	sb_add(b, s);
}

static const char *
here_unit_name(enum mr_unit u)
{
	return u == MR_UNIT_KB ? "MiB" : u == MR_UNIT_MS ? "s" : "count";
}

/* The legend of report config i: its pairs that differ between the
 * report's configs (all of them when none differ), and its note. */
char *
mr_cf_cfg_label(const struct fcfg *fc, int nc, int i)
{
	const struct mr_config *c = fc[i].cfg;
	struct strbuf b = {0};
	int p, j;

	sb_add(&b, "");
	for (p = 0; p < c->n; p++) {
		int varies = 0;

		for (j = 0; j < nc && !varies; j++)
			varies = !mr_config_same(mr_config_get(fc[j].cfg, c->key[p]), c->val[p]);
		if (varies || nc == 1)
			sb_printf(&b, "%s%s=%s", b.len ? " " : "", c->key[p], c->val[p]);
	}
	if (!b.len)
		sb_add(&b, c->n ? c->str : "the report's run");
	if (fc[i].note)
		sb_printf(&b, " (report: %s)", fc[i].note);
	return b.s;
}

/* The chart's title: the case, its key figure, how the sides compare. */
void
mr_cf_title(struct strbuf *title, const struct mr_rd_case *k, const struct mr_figs *fs, int prog)
{
	char noun[64];

	sb_printf(title, "%s: the report and here", k->name);
	if (fs->has_key)
		sb_printf(title, "  (key figure: %s%s%s, %s is better)",
			  mr_ch_noun(noun, sizeof noun, fs->key_ckpt ? mr_ckpt_metrics[fs->key_metric]
						       : mr_run_metrics[fs->key_metric]),
			  fs->key_checkpoint ? " at " : "", fs->key_checkpoint ? fs->key_checkpoint : "",
			  fs->key_lower ? "lower" : "higher");
	if (fs->growth)
		sb_printf(title, "\ncompare growth: each checkpoint series minus its first point, %s"
			  " (the totals are not comparable)", prog ? "in every panel" : "on both sides");
}

/* Whether the checkpoint series of row w move within a band narrow
 * beside their level (every side's range under FIG_BAND of its top):
 * its y axis then spans the band, not 0 to the top, or the steps the
 * chart is about would be a flat line. */
static int
small_steps(const struct frow *w)
{
	int i, any = 0;

	for (i = 0; i < 3; i++) {
		if (isnan(w->lo[i]) || isnan(w->hi[i]))
			continue;
		if (!(w->lo[i] > 0) || w->hi[i] - w->lo[i] > FIG_BAND * w->hi[i])
			return 0;
		any = 1;
	}
	return any;
}

/* The ROWS word of row w for figures.gp (its fields end in '|'); has:
 * per report config, 1 when it has figures in the row, 2 when ours do,
 * 4 and 8 when the program's on its two runtimes do (prog: the chart
 * has that panel). */
void
mr_cf_row_spec(struct strbuf *rowspec, const struct frow *w, const struct mr_figs *fs,
	 const char *has, int nc, int prog)
{
	int i, c, d, slant = 0;
	struct strbuf a = {0}, x = {0};
	char noun[64];
	const char *mname = w->ckpt ? mr_ch_noun(noun, sizeof noun, mr_ckpt_metrics[w->metric])
		: w->ncat == 1 ? mr_ch_noun(noun, sizeof noun, w->cat[0])
		: w->unit == MR_UNIT_MS ? "time" : w->unit == MR_UNIT_KB ? "memory" : "count";
	const char *what = w->ckpt && fs->growth ? " growth" : "";

	sb_printf(&a, "%s%s (%s)", mname, what, strcmp(w->runit, "-") ? w->runit : "count");
	rowfield(&x, a.s);
	sb_free(&a);
	sb_printf(&a, "%s%s (%s)", mname, what, here_unit_name(w->unit));
	rowfield(&x, a.s);
	sb_free(&a);
	if (w->numx) {
		rowfield(&x, "auto");
	} else {
		/* categories wider than their room on the x axis (a PNG's
		 * text, 4/3 the SVG's) are slanted */
		double room = (prog ? FIG_PANEL3_PX : FIG_PANEL2_PX) / (w->ncat > 0 ? w->ncat : 1), wmax = 0;

		for (i = 0; i < w->ncat; i++)
			wmax = fmax(wmax, mr_ch_em(w->ckpt ? w->cat[i] : mr_ch_noun(noun, sizeof noun, w->cat[i]), 0));
		slant = wmax * FIG_TIC_PX + 6 > room;
		sb_add(&a, slant ? "rotate by 90 right (" : "(");
		for (i = 0; i < w->ncat; i++) {
			struct strbuf q = {0};

			sb_add(&q, "");
			/* a whole-run category is a metric: its noun */
			rowfield(&q, w->ckpt ? w->cat[i] : mr_ch_noun(noun, sizeof noun, w->cat[i]));
			q.s[--q.len] = 0; /* the '|' */
			sb_printf(&a, "%s'%s' %g", i ? ", " : "", q.s, w->pos[i]);
			sb_free(&q);
		}
		sb_add(&a, ")|");
		sb_add(&x, a.s); /* its quotes are the tics' own */
		sb_free(&a);
	}
	/* slanted categories take the x label's room; they name themselves */
	rowfield(&x, w->numx ? (fs->xunit ? fs->xunit : "") : slant ? "" : w->ckpt ? "checkpoint" : "whole run");
	for (i = 1; i <= 2; i++) {
		sb_add(&a, "");
		for (c = 0; c < nc; c++)
			if (has[c] & i)
				sb_printf(&a, "%s%d", a.len ? " " : "", c + 1);
		rowfield(&x, a.s);
		sb_free(&a);
	}
	sb_printf(&x, "%d|%d|%d|", w->ncat, w->ckpt, w->ckpt && (fs->growth || small_steps(w)));
	/* a side whose points are all one value gets a range around it
	 * (gnuplot cannot autoscale a flat range) */
	for (i = 0; i < 3; i++) {
		if (i == 2) {
			if (!prog)
				break;
			for (c = 0; c < 2; c++) { /* the program's configs, per runtime */
				sb_add(&a, "");
				for (d = 0; d < nc; d++)
					if (has[d] & (4 << c))
						sb_printf(&a, "%s%d", a.len ? " " : "", d + 1);
				rowfield(&x, a.s);
				sb_free(&a);
			}
		}
		if (w->lo[i] == w->hi[i])
			sb_printf(&x, "%g:%g|", w->lo[i] - (w->lo[i] ? fabs(w->lo[i]) : 1),
				  w->hi[i] + (w->hi[i] ? fabs(w->hi[i]) : 1));
		else
			sb_add(&x, "|");
	}
	mr_cf_quoted(rowspec, x.s);
	sb_free(&x);
}

/* The notes under the chart: the figures file's, the report configs not
 * measured here, the configs of ours not drawn. */
void
mr_cf_notes(struct strbuf *notes, const struct mr_figs *fs, const struct fcfg *fc, int nc,
	    const char *const spec[2])
{
	int i, c, s, said;

	sb_add(notes, "");
	for (i = 0; i < fs->nnote; i++)
		mr_cf_wrapped(notes, fs->note[i], FIG_NOTE_WIDTH);
	for (c = 0; c < nc; c++) {
		struct strbuf l = {0};
		int none = fc[c].ours < 0;

		for (s = 0; s < 2; s++)
			none = none && (!spec[s] || fc[c].prog[s] < 0);
		if (none) {
			sb_printf(&l, "not measured here: %s (no config of these results has all its pairs)",
				  mr_cf_cstr(fc[c].cfg));
			mr_cf_wrapped(notes, l.s, FIG_NOTE_WIDTH);
			sb_free(&l);
			continue;
		}
		if (fc[c].ours < 0) {
			sb_printf(&l, "the model not measured here: %s (no config of the model has all its pairs)",
				  mr_cf_cstr(fc[c].cfg));
			mr_cf_wrapped(notes, l.s, FIG_NOTE_WIDTH);
			sb_free(&l);
		}
		for (s = 0; s < 2; s++)
			if (spec[s] && fc[c].prog[s] < 0) {
				sb_printf(&l, "its program on %s not measured here: %s (no config of its runs"
					  " has all its pairs)", spec[s], mr_cf_cstr(fc[c].cfg));
				mr_cf_wrapped(notes, l.s, FIG_NOTE_WIDTH);
				sb_free(&l);
			}
	}
	/* the configs of ours not drawn, once per distinct difference */
	for (c = 0, said = 0; c < nc; c++) {
		struct strbuf l = {0};
		int n = 0, d, first = -1;

		if (!fc[c].also.len)
			continue;
		for (d = 0; d < c && first < 0; d++)
			if (!strcmp(fc[d].also.s, fc[c].also.s))
				first = d;
		if (first >= 0)
			continue;
		for (d = c; d < nc; d++)
			n += !strcmp(fc[d].also.s, fc[c].also.s);
		if (!said++)
			sb_add(&l, "here, a report config is drawn with the config of ours that has all"
			       " its pairs and the case's defaults otherwise; ");
		sb_printf(&l, "also measured, not drawn: %s (beside ", fc[c].also.s);
		if (n == nc)
			sb_add(&l, nc == 1 ? "it)" : "each)");
		else if (n > 2)
			sb_printf(&l, "%d of the report's configs)", n);
		else {
			int m = 0;

			for (d = c; d < nc; d++)
				if (!strcmp(fc[d].also.s, fc[c].also.s))
					sb_printf(&l, "%s%s", m++ ? "; " : "", mr_cf_cstr(fc[d].cfg));
			sb_add(&l, ")");
		}
		mr_cf_wrapped(notes, l.s, FIG_NOTE_WIDTH);
		sb_free(&l);
	}
}

/* Append text to b as the lines of a heading word for figures.gp, each
 * ending in '|', wrapped at blanks to em; the widest line's em. */
static double
head_lines(struct strbuf *b, const char *text, double em)
{
	const char *s = text;
	double widest = 0;

	while (*s) {
		size_t cut = 0, blank = 0;
		int nch = 0;
		struct strbuf l = {0};
		double w;

		/* the longest prefix that fits, in whole characters */
		while (s[cut]) {
			size_t next = cut + 1;

			while ((s[next] & 0xc0) == 0x80)
				next++;
			if (mr_ch_em(s, nch + 1) > em && cut)
				break;
			if (s[cut] == ' ')
				blank = cut;
			cut = next;
			nch++;
		}
		if (s[cut] && blank)
			cut = blank;
		sb_addn(&l, s, cut);
		w = mr_ch_em(l.s, 0);
		widest = w > widest ? w : widest;
		headfield(b, l.s);
		sb_free(&l);
		s += cut;
		while (*s == ' ')
			s++;
	}
	return widest;
}

/* A runtime as a heading names it: its spec, and the version it
 * resolved to where the spec does not say it ("node@22 22.23.5"). */
static void
rt_name(struct strbuf *b, const char *spec, const char *version)
{
	const char *at = strchr(spec, '@');

	sb_add(b, spec);
	if (version && (!at || strcmp(version, at + 1)))
		sb_printf(b, " %s", version);
}

/* One panel's heading, its two lines wrapped to the column, quoted into
 * SIDES. */
static void
side_heading(struct strbuf *sides, const char *first, const char *second)
{
	struct strbuf h = {0};

	sb_add(&h, "");
	head_lines(&h, first, FIG_HEAD_EM_HALF);
	head_lines(&h, second, FIG_HEAD_EM_HALF);
	mr_cf_quoted(sides, h.s);
	sb_free(&h);
}

/* The headings of the two panels (no program ran): the report's, ours,
 * each wrapped to its column (SIDES for figures.gp). */
void
mr_cf_headings2(struct strbuf *sides, const struct mr_figs *fs, const char *profile)
{
	struct strbuf a = {0};
	int i;

	sb_add(&a, "the report: ");
	for (i = 0; i < fs->nsrc; i++)
		sb_printf(&a, "%s%s", i ? "; " : "", fs->src_label[i]);
	side_heading(sides, a.s, "open marks: the figures as printed");
	sb_free(&a);
	sb_printf(&a, "here: memrepro%s%s%s", profile ? ", " : "",
		  profile ? profile : "", profile ? " profile" : "");
	side_heading(sides, a.s, "filled marks: medians of the repeats, bars: min..max");
	sb_free(&a);
}

/* The headings of the three columns (SIDES for figures.gp): the report,
 * its program (which file, which runtime is drawn how; its marks are
 * medians as the model's), the model.  The report's may be as wide as
 * the program's leaves room for. */
void
mr_cf_headings3(struct strbuf *sides, const struct mr_rd_case *k, const struct mr_figs *fs,
	  const struct mr_ft_col orig[2], const char *profile)
{
	struct strbuf a = {0}, h = {0}, mid = {0};
	const char *ext0 = NULL;
	double wmid, wl, em;
	int s;

	sb_add(&a, "its program:");
	for (s = 0; s < 2; s++) {
		const char *ext = orig[s].k ? mr_matrix_runtime_ext(orig[s].spec) : NULL;

		if (ext && (!ext0 || strcmp(ext, ext0)))
			sb_printf(&a, "%s cases/%s.%s", ext0 ? "," : "", k->name, ext);
		if (ext && !ext0)
			ext0 = ext;
	}
	sb_add(&mid, "");
	wmid = head_lines(&mid, a.s, FIG_HEAD_EM_MID);
	sb_free(&a);
	sb_add(&a, "");
	for (s = 0; s < 2; s++)
		if (orig[s].k) {
			sb_printf(&a, "%s%s: ", a.len ? ", " : "", s ? "hollow" : "filled");
			rt_name(&a, orig[s].spec, orig[s].version);
		}
	if (!orig[0].k && orig[0].spec)
		sb_printf(&a, "; %s not run", orig[0].spec);
	wl = head_lines(&mid, a.s, FIG_HEAD_EM_MID);
	wmid = wl > wmid ? wl : wmid;
	sb_free(&a);

	sb_add(&a, "the report: ");
	for (s = 0; s < fs->nsrc; s++)
		sb_printf(&a, "%s%s", s ? "; " : "", fs->src_label[s]);
	em = 2 * FIG_COL_EM - 1 - wmid;
	em = em < FIG_HEAD_EM_LEFT ? em : FIG_HEAD_EM_LEFT;
	sb_add(&h, "");
	head_lines(&h, a.s, em);
	head_lines(&h, "open marks: the figures as printed", em);
	mr_cf_quoted(sides, h.s);
	mr_cf_quoted(sides, mid.s);
	sb_free(&a);
	sb_free(&h);
	sb_free(&mid);

	sb_printf(&a, "the model: memrepro%s%s%s", profile ? ", " : "",
		  profile ? profile : "", profile ? " profile" : "");
	sb_add(&h, "");
	head_lines(&h, a.s, FIG_HEAD_EM);
	head_lines(&h, "medians of the repeats, bars: min..max", FIG_HEAD_EM);
	mr_cf_quoted(sides, h.s);
	sb_free(&a);
	sb_free(&h);
}
