/* chfig: "the report and here", the report's own figures beside ours
 * (charts.h, mr_chart_figures; plots/figures.gp).
 *
 * One row of panels per metric the report printed at its checkpoints
 * (rss_kb, vsz_kb, ...), and one per unit for its whole-run figures
 * (wall_ms, user_ms and sys_ms side by side); the left panel is the
 * report's figures in the unit it printed, the right one ours (medians
 * over the ok runs, the repeats' min..max as error bars) in MiB or s.
 * Where the results ran the report's own program (a runtime pair), a
 * panel between them has its figures as ours are drawn: on the report's
 * runtime (filled marks) and on the newest other runtime version run
 * (hollow), the two the report's table shows (mr_ft_orig_cols).
 * A row's x axis is the report's: the number of its checkpoints under
 * the figures file's "x" directive, else its checkpoints (or the
 * whole-run metrics) as categories in order of writing.  A checkpoint
 * the figures of one config name again (foo, foo, gc, foo) is its next
 * occurrence (foo#1, foo#2, gc, foo#3); one named once is its last.
 *
 * Each config the report names has one colour on both sides.  Ours for
 * it is the config of ours whose pairs include all of the report
 * config's ("jemalloc" also matches "jemalloc@5.3.0"): of several, one
 * with ok runs, then the one with the fewest pairs (the keys of the
 * claims' axis directives, a tunable, left unset: the case's defaults),
 * then the first in order of appearance; the others with ok runs are
 * named under the chart ("also measured, not drawn").  Ours are drawn at
 * every category of a row for each report config with figures in it.
 * A program's config is found the same way among the runs of its
 * runtime (mr_ch_ours_in).  With "compare growth" a checkpoint row is
 * each config's series minus its first point, on every side (ours: the
 * median's, the repeats' range shifted by the same); whole-run figures
 * stay totals.
 */
#include "out/charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/figures.h"
#include "check/stats.h"
#include "core/util.h"
#include "out/chutil.h"
#include "out/figtab.h"
#include "run/axes.h"

/* More distinct reasons why a figure is not measured here than this are
 * summed up in one line. */
#define FIG_NOTES_MAX 8
/* A row with more points a side than this gets value labels on the last
 * point of each config only. */
#define FIG_LABEL_ALL 12
/* Notes are wrapped at this many characters (the chart's width at its
 * notes' font). */
#define FIG_NOTE_WIDTH 150
/* The geometry of the three-panel chart that the labels of its
 * program panel are laid out for (plots/figures.gp): a panel's plot is
 * this wide and high in px, a value label this thick (8 pt in the PNG,
 * and a pixel apart); a heading line at most this wide, in em of its
 * 11 pt. */
#define FIG_PANEL_PX 270.0
#define FIG_PLOT_PX 196.0
#define FIG_LABEL_PX 12.0
#define FIG_HEAD_EM 23.0
/* The left and middle columns' headings may be wider (the left one has
 * room to its left; the two together fit their columns' FIG_COL_EM
 * each, between their centres). */
#define FIG_HEAD_EM_LEFT 31.0
#define FIG_HEAD_EM_MID 25.0
#define FIG_COL_EM 27.0
/* In a category, the marks of its configs stand this far apart (in
 * categories) at most: figures.gp's dx of three panels. */
#define FIG_DX_MAX3 0.3

/* A row of panels. */
struct frow {
	int ckpt;          /* 1: one checkpoint metric; 0: run metrics of one unit */
	int metric;        /* ckpt: the metric; else -1 */
	enum mr_unit unit; /* the metrics' unit */
	int numx;          /* x is the number of the checkpoint ("x" directive) */
	const char **cat;  /* the categories: checkpoint names ("foo#2") or
	                      run metric names, in order of writing */
	double *pos;       /* x of each category */
	int ncat;
	const char *runit; /* the report's unit on this row (its first figure's) */
	double rscale;     /* that unit's scale */
	double lo[3], hi[3]; /* the drawn y range of each side (report, here,
	                        the program) */
};

static void
extend(struct frow *w, int side, double lo, double hi)
{
	if (isnan(w->lo[side]) || lo < w->lo[side])
		w->lo[side] = lo;
	if (isnan(w->hi[side]) || hi > w->hi[side])
		w->hi[side] = hi;
}

/* What is drawn of a report config. */
struct fcfg {
	const struct mr_config *cfg; /* the report's (a figure's) */
	const char *note;            /* its first figure's note, or NULL */
	int ours;                    /* its config of ours (the model), -1: none */
	int prog[2];                 /* its config of ours under the program's
	                                runtimes (the report's, today's), -1: none
	                                or that runtime not drawn */
	struct strbuf also;          /* other configs of ours that match */
};

/* A config's string, "-" for none. */
static const char *
cstr(const struct mr_config *c)
{
	return c->n && c->str ? c->str : "-";
}

static int
same_cfg(const struct mr_config *a, const struct mr_config *b)
{
	return !strcmp(cstr(a), cstr(b));
}

/* How config c differs from config d, "k=v,k=v" (a key of d that c
 * lacks: "k unset"). */
static void
diff_pairs(struct strbuf *b, const struct mr_config *c, const struct mr_config *d)
{
	size_t len0 = b->len;
	int i;

	for (i = 0; i < c->n; i++)
		if (!mr_config_same(mr_config_get(d, c->key[i]), c->val[i]))
			sb_printf(b, "%s%s=%s", b->len > len0 ? "," : "", c->key[i], c->val[i]);
	for (i = 0; i < d->n; i++)
		if (!mr_config_get(c, d->key[i]))
			sb_printf(b, "%s%s unset", b->len > len0 ? "," : "", d->key[i]);
}

/* Ours for report config fc: the model's config and, for each runtime of
 * the program drawn (spec[s], NULL: none), the program's; the other
 * configs that match, named by how they differ from the model's (else
 * the program's drawn). */
static void
match(const struct mr_rd_case *k, struct fcfg *fc, const char *const spec[2])
{
	int i, s, base;

	fc->ours = mr_ch_ours(k, fc->cfg);
	for (s = 0; s < 2; s++)
		fc->prog[s] = spec[s] ? mr_ch_ours_in(k, fc->cfg, spec[s]) : -1;
	base = fc->ours >= 0 ? fc->ours : fc->prog[0] >= 0 ? fc->prog[0] : fc->prog[1];
	sb_add(&fc->also, "");
	for (i = 0; i < k->ncfg; i++) {
		if (i == fc->ours || i == fc->prog[0] || i == fc->prog[1] || !k->cfg[i].nok ||
		    !mr_ch_matches(fc->cfg, &k->conf[i]))
			continue;
		if (fc->also.len)
			sb_add(&fc->also, "; ");
		if (base >= 0)
			diff_pairs(&fc->also, &k->conf[i], &k->conf[base]);
		else
			sb_add(&fc->also, cstr(&k->conf[i]));
	}
}

/* A category name "foo#2" as a checkpoint name and occurrence (0: the
 * last). */
static void
ck_ref(const char *cat, struct mr_ref *ref, char *name, size_t size)
{
	const char *h = strrchr(cat, '#');
	char *end;
	long seq = 0;

	if (h && h[1]) {
		seq = strtol(h + 1, &end, 10);
		if (*end || seq < 1)
			seq = 0, h = NULL;
	} else {
		h = NULL;
	}
	snprintf(name, size, "%.*s", h ? (int)(h - cat) : (int)strlen(cat), cat);
	ref->checkpoint = name;
	ref->seq = seq;
}

/* Ours for a point: median, min, max of the ok runs of config ci; n the
 * number of values (0: none, *why says why, fresh). */
static int
ours(const struct mr_rd_case *k, int ci, const struct frow *w, int c,
     double *med, double *lo, double *hi, char **why)
{
	struct mr_ref ref;
	char name[256];
	double *v;
	int n;

	memset(&ref, 0, sizeof ref);
	ref.ckpt = w->ckpt;
	if (w->ckpt) {
		ref.metric = w->metric;
		ck_ref(w->cat[c], &ref, name, sizeof name);
	} else {
		ref.metric = mr_run_metric(w->cat[c]);
	}
	*why = NULL;
	n = mr_rd_values(k, ci, &ref, &v);
	if (n > 0) {
		*lo = v[0];
		*hi = v[n - 1];
		*med = mr_st_median(v, n);
	} else {
		*why = mr_rd_nodata(k, ci, &ref);
	}
	free(v);
	return n;
}

/* Our figure in the chart's unit: MiB, s, or the count. */
static double
here_unit(enum mr_unit u, double v)
{
	return u == MR_UNIT_KB ? v / 1024 : u == MR_UNIT_MS ? v / 1000 : v;
}

static const char *
here_unit_name(enum mr_unit u)
{
	return u == MR_UNIT_KB ? "MiB" : u == MR_UNIT_MS ? "s" : "count";
}

/* s as a word of a gnuplot list: in double quotes, none inside. */
static void
quoted(struct strbuf *b, const char *s)
{
	if (b->len)
		sb_add(b, " ");
	sb_add(b, "\"");
	for (; *s; s++)
		sb_addn(b, *s == '"' ? "'" : *s == '\n' || *s == '\t' ? " " : s, 1);
	sb_add(b, "\"");
}

/* s for a TSV field: no tab, no newline; "-" when empty. */
static void
field(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

static int
add_cat(struct frow *w, const char *cat, double pos)
{
	int i;

	for (i = 0; i < w->ncat; i++)
		if (!strcmp(w->cat[i], cat))
			return i;
	w->cat = erealloc(w->cat, sizeof *w->cat * (w->ncat + 1));
	w->pos = erealloc(w->pos, sizeof *w->pos * (w->ncat + 1));
	w->cat[w->ncat] = cat;
	w->pos[w->ncat] = pos;
	return w->ncat++;
}

/* The row of figure f, created when new. */
static int
row_of(struct frow **rows, int *nrow, const struct mr_figs *fs, const struct mr_fig *f)
{
	const char *name = f->ckpt ? mr_ckpt_metrics[f->metric] : mr_run_metrics[f->metric];
	enum mr_unit u = mr_metric_unit(name);
	struct frow *w;
	int i;

	for (i = 0; i < *nrow; i++)
		if ((*rows)[i].ckpt == f->ckpt &&
		    (f->ckpt ? (*rows)[i].metric == f->metric : (*rows)[i].unit == u))
			return i;
	*rows = erealloc(*rows, sizeof **rows * (*nrow + 1));
	w = &(*rows)[*nrow];
	memset(w, 0, sizeof *w);
	w->ckpt = f->ckpt;
	w->metric = f->ckpt ? f->metric : -1;
	w->unit = u;
	w->numx = f->ckpt && fs->xprefix && !isnan(f->x);
	w->runit = f->unit;
	w->rscale = f->scale;
	w->lo[0] = w->lo[1] = w->lo[2] = w->hi[0] = w->hi[1] = w->hi[2] = NAN;
	return (*nrow)++;
}

/* The legend of report config i: its pairs that differ between the
 * report's configs (all of them when none differ), and its note. */
static char *
cfg_label(const struct fcfg *fc, int nc, int i)
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

/* A value for a point's label (the axis names its unit). */
static void
tag(char *buf, size_t size, double y)
{
	if (isnan(y))
		buf[0] = 0;
	else if (fabs(y) >= 100 || y == floor(y))
		snprintf(buf, size, "%.0f", y);
	else if (fabs(y) >= 10)
		snprintf(buf, size, "%.1f", y);
	else
		snprintf(buf, size, "%.3g", y);
}

/* Remove what an earlier report drew of the case: a chart that is not
 * drawn now must not be shown. */
static void
unlink_old(const char *base)
{
	static const char *const ext[] = { "png", "svg", "tsv" };
	size_t i;

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		char *p = esprintf("%s.%s", base, ext[i]);

		unlink(p);
		free(p);
	}
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

/* Append text to b wrapped at width columns (at blanks), after a newline
 * when b is not empty. */
static void
wrapped(struct strbuf *b, const char *text, size_t width)
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

/* The reasons why a figure is not measured here, each said once, at
 * most FIG_NOTES_MAX of them (the others counted). */
struct fnotes {
	struct strbuf *b;
	char *seen[FIG_NOTES_MAX];
	int nseen, more;
};

/* Say l (owned) once. */
static void
note_once(struct fnotes *ns, char *l)
{
	int q;

	for (q = 0; q < ns->nseen; q++)
		if (!strcmp(ns->seen[q], l)) {
			free(l);
			return;
		}
	if (ns->nseen < FIG_NOTES_MAX) {
		wrapped(ns->b, l, FIG_NOTE_WIDTH);
		ns->seen[ns->nseen++] = l;
	} else {
		ns->more++;
		free(l);
	}
}

/* A point of ours: the median, the repeats' range and the median in the
 * metric's own unit; n the repeats (0: none); its label and the label's
 * y. */
struct fpt {
	double med, lo, hi, raw, ly;
	int n;
	char tag[64];
};

/* Our points of config oi at each category of row w (pt[0..ncat-1]),
 * in the chart's unit and, with growth, minus the series' first point;
 * a category not measured gets n 0 and its reason in the notes.  The
 * number of points. */
static int
series(const struct mr_rd_case *k, int oi, const struct frow *w, int growth,
       struct fpt *pt, struct fnotes *ns)
{
	double base0 = NAN;
	int j, npts = 0;

	for (j = 0; j < w->ncat; j++) {
		struct fpt *p = &pt[j];
		char *why;

		p->med = p->lo = p->hi = NAN;
		p->n = ours(k, oi, w, j, &p->med, &p->lo, &p->hi, &why);
		p->tag[0] = 0;
		if (!p->n) {
			note_once(ns, esprintf("here, %s: %s", k->cfg[oi].label, why));
			free(why);
			continue;
		}
		npts++;
		p->raw = p->med;
		p->med = here_unit(w->unit, p->med);
		p->lo = here_unit(w->unit, p->lo);
		p->hi = here_unit(w->unit, p->hi);
		tag(p->tag, sizeof p->tag, p->med);
		if (growth) {
			/* the first point is 0 by construction: no label */
			if (isnan(base0))
				base0 = p->med, p->tag[0] = 0;
			p->lo -= base0;
			p->hi -= base0;
			p->med -= base0;
			if (p->tag[0])
				tag(p->tag, sizeof p->tag, p->med);
		}
		p->ly = p->hi;
	}
	return npts;
}

/* A line of the TSV for our point j of row r (row w), side side ("here",
 * "program"), report config c, our config oi, runtime spec ("-": the
 * model); label l or none. */
static void
write_ours(FILE *f, const struct mr_rd_case *k, int r, const struct frow *w, int j,
	   const char *side, const struct fcfg *fc, int c, int oi, const char *spec,
	   const struct fpt *p, int l)
{
	fprintf(f, "%d\t%s\t%d\t%s\t", r + 1, side, c + 1, cstr(fc[c].cfg));
	field(f, w->cat[j]);
	fprintf(f, "\t%s\t%g\t%.10g\t%.10g\t%.10g\t%.10g\t%s\t%d\t%s\t",
		w->ckpt ? mr_ckpt_metrics[w->metric] : w->cat[j],
		w->pos[j], p->med, p->lo, p->hi, p->raw,
		w->unit == MR_UNIT_KB ? "KiB" : w->unit == MR_UNIT_MS ? "ms" : "-", p->n,
		k->conf[oi].str);
	field(f, l ? p->tag : "");
	fprintf(f, "\t-\t%s\t%.10g\n", spec, p->ly);
}

/* Of the marks side by side in a category (nslot of them) of row w in a
 * three-panel chart (prog), every how many has a value label so that
 * they stand apart; 1: all. */
static int
stride(const struct frow *w, int nslot, int prog)
{
	double dx, px;

	if (!prog || w->numx || nslot < 2)
		return 1;
	dx = 0.6 / nslot < FIG_DX_MAX3 ? 0.6 / nslot : FIG_DX_MAX3;
	px = dx * FIG_PANEL_PX / w->ncat;
	return px >= FIG_LABEL_PX ? 1 : (int)ceil(FIG_LABEL_PX / px);
}

/* The y span the program panel of row w is drawn over, at least (its
 * points' range as figures.gp sets it, with its offsets and the room
 * autoscaling rounds up to a tic). */
static double
prog_span(const struct frow *w, int growth)
{
	double lo = w->lo[2], hi = w->hi[2];

	if (lo == hi) /* row_spec's range around a flat side */
		return hi + (hi ? fabs(hi) : 1) - (lo - (lo ? fabs(lo) : 1));
	if (!growth)
		lo = lo < 0 ? lo : 0; /* totals start at 0 */
	return (hi - lo) * 1.16 * 1.25;
}

/* Labels on a numeric axis are right of their points: those at one x
 * (pt[0..n-1] of category j) are moved apart to a label's thickness,
 * in their order, around where they were. */
static void
spread(struct fpt **pt, int n, double sep)
{
	double shift = 0;
	int i, j, pass;

	for (i = 1; i < n; i++) /* by y, insertion sort */
		for (j = i; j > 0 && pt[j]->ly < pt[j - 1]->ly; j--) {
			struct fpt *t = pt[j];

			pt[j] = pt[j - 1];
			pt[j - 1] = t;
		}
	for (pass = 0; pass < 2; pass++) {
		for (i = 1; i < n; i++)
			if (pt[i]->ly < pt[i - 1]->ly + sep)
				pt[i]->ly = pt[i - 1]->ly + sep;
		if (pass)
			break;
		/* back down by the mean push: around where they were */
		for (i = 0; i < n; i++)
			shift += pt[i]->ly - pt[i]->hi;
		for (i = 0; i < n; i++)
			pt[i]->ly -= shift / n;
	}
}

/* The program's points of row r: per report config with figures in the
 * row and runtime s drawn (spec[s]), its config's series; which get a
 * label (as ours, the last category's only beyond FIG_LABEL_ALL; where
 * the marks of a category stand closer than a label is thick, every
 * stride-th: those of the first runtime drawn, first), moved apart on a
 * numeric axis. */
static void
write_prog(FILE *f, const struct mr_rd_case *k, const struct mr_figs *fs, int r,
	   struct frow *w, const struct fcfg *fc, int nc, const char *const spec[2],
	   char *has, struct fnotes *ns)
{
	struct fpt *pt = ecalloc((size_t)nc * 2 * w->ncat + 1, sizeof *pt);
	struct fpt **at = ecalloc((size_t)nc * 2 + 1, sizeof *at);
	int np = !!spec[0] + !!spec[1], nslot = nc * np, every = stride(w, nslot, 1);
	int c, s, j, all;

	for (c = 0; c < nc; c++)
		for (s = 0; s < 2; s++) {
			struct fpt *p = &pt[(c * 2 + s) * w->ncat];

			if (!spec[s] || fc[c].prog[s] < 0 || !(has[r * nc + c] & 1))
				continue;
			if (!series(k, fc[c].prog[s], w, fs->growth && w->ckpt, p, ns))
				continue;
			has[r * nc + c] |= (char)(4 << s);
			for (j = 0; j < w->ncat; j++)
				if (p[j].n)
					extend(w, 2, p[j].lo, p[j].hi);
		}
	all = w->ncat * nslot <= FIG_LABEL_ALL;
	for (j = 0; j < w->ncat; j++) {
		int n = 0;

		for (c = 0; c < nc; c++)
			for (s = 0; s < 2; s++) {
				struct fpt *p = &pt[(c * 2 + s) * w->ncat + j];

				if (!(has[r * nc + c] & (4 << s)) || !p->n)
					continue;
				if (!(all || j == w->ncat - 1) ||
				    (c * np + (np == 2 ? s : 0)) % every || !p->tag[0]) {
					p->tag[0] = 0;
					continue;
				}
				at[n++] = p;
			}
		if (w->numx && n > 1)
			spread(at, n, FIG_LABEL_PX / FIG_PLOT_PX * prog_span(w, fs->growth && w->ckpt));
	}
	for (c = 0; c < nc; c++)
		for (s = 0; s < 2; s++) {
			if (!(has[r * nc + c] & (4 << s)))
				continue;
			for (j = 0; j < w->ncat; j++) {
				const struct fpt *p = &pt[(c * 2 + s) * w->ncat + j];

				if (p->n)
					write_ours(f, k, r, w, j, "program", fc, c, fc[c].prog[s],
						   spec[s], p, p->tag[0] != 0);
			}
		}
	free(at);
	free(pt);
}

/* Write the rows' points into f; mark in has[r * nc + c] (bit 1: the
 * report's side, 2: ours, 4 and 8: the program's on runtime spec[0],
 * spec[1]) which configs have points; notes get what is not measured
 * here. */
static void
write_points(FILE *f, const struct mr_rd_case *k, const struct mr_figs *fs,
	     char *const *fcat, const int *frow, struct frow *rows, int nrow,
	     const struct fcfg *fc, int nc, const char *const spec[2], char *has,
	     struct strbuf *notes)
{
	struct fnotes ns;
	struct fpt *pt = NULL;
	int r, c, i, j, prog = spec[0] || spec[1];

	memset(&ns, 0, sizeof ns);
	ns.b = notes;
	for (r = 0; r < nrow; r++) {
		struct frow *w = &rows[r];
		int every = stride(w, nc, prog);

		/* the report's side */
		for (c = 0; c < nc; c++) {
			double base0 = NAN;
			int npts = 0, last = -1;

			for (i = 0; i < fs->n; i++)
				if (same_cfg(&fs->f[i].cfg, fc[c].cfg) && frow[i] == r) {
					npts++;
					last = i;
				}
			for (i = 0; i < fs->n; i++) {
				const struct mr_fig *g = &fs->f[i];
				const char *cat;
				double y;
				char t[64];
				int ci;

				if (!same_cfg(&g->cfg, fc[c].cfg) || frow[i] != r)
					continue;
				cat = fcat[i];
				ci = add_cat(w, cat, 0);
				y = g->value;
				if (!isnan(g->scale) && !isnan(w->rscale) && w->rscale > 0 &&
				    strcmp(g->unit, w->runit))
					y = g->value * g->scale / w->rscale;
				tag(t, sizeof t, y);
				if (fs->growth && w->ckpt) {
					/* the first point is 0 by construction: no label */
					if (isnan(base0))
						base0 = y, t[0] = 0;
					y -= base0;
					if (t[0])
						tag(t, sizeof t, y);
				}
				fprintf(f, "%d\treport\t%d\t%s\t", r + 1, c + 1, cstr(fc[c].cfg));
				field(f, cat);
				fprintf(f, "\t%s\t%g\t%.10g\t%.10g\t%.10g\t%.10g\t%s\t1\t-\t",
					w->ckpt ? mr_ckpt_metrics[g->metric] : mr_run_metrics[g->metric],
					w->pos[ci], y, y, y, g->value, g->unit);
				field(f, (npts * nc <= FIG_LABEL_ALL || i == last) && c % every == 0 ? t : "");
				fputc('\t', f);
				field(f, g->note);
				fprintf(f, "\t-\t%.10g\n", y);
				has[r * nc + c] |= 1;
				extend(w, 0, y, y);
			}
		}
		/* ours, at every category of the row, for every report config
		 * with figures in it */
		pt = erealloc(pt, sizeof *pt * ((size_t)w->ncat + 1));
		for (c = 0; c < nc; c++) {
			int oi = fc[c].ours;

			if (oi < 0 || !(has[r * nc + c] & 1))
				continue;
			series(k, oi, w, fs->growth && w->ckpt, pt, &ns);
			for (j = 0; j < w->ncat; j++) {
				if (!pt[j].n)
					continue;
				write_ours(f, k, r, w, j, "here", fc, c, oi, "-", &pt[j],
					   (w->ncat * nc <= FIG_LABEL_ALL || j == w->ncat - 1) &&
					   c % every == 0);
				has[r * nc + c] |= 2;
				extend(w, 1, pt[j].lo, pt[j].hi);
			}
		}
		if (spec[0] || spec[1])
			write_prog(f, k, fs, r, w, fc, nc, spec, has, &ns);
	}
	free(pt);
	for (i = 0; i < ns.nseen; i++)
		free(ns.seen[i]);
	if (ns.more)
		sb_printf(notes, "\n(and %d more reasons why a figure was not measured here)", ns.more);
}

/* The chart's title: the case, its key figure, how the sides compare. */
static void
chart_title(struct strbuf *title, const struct mr_rd_case *k, const struct mr_figs *fs, int prog)
{
	sb_printf(title, "%s: the report and here", k->name);
	if (fs->has_key)
		sb_printf(title, "  (key figure: %s%s%s, %s is better)",
			  fs->key_ckpt ? mr_ckpt_metrics[fs->key_metric] : mr_run_metrics[fs->key_metric],
			  fs->key_checkpoint ? "@" : "", fs->key_checkpoint ? fs->key_checkpoint : "",
			  fs->key_lower ? "lower" : "higher");
	if (fs->growth)
		sb_printf(title, "\ncompare growth: each checkpoint series minus its first point, %s"
			  " (the totals are not comparable)", prog ? "in every panel" : "on both sides");
}

/* The ROWS word of row w for figures.gp (its fields end in '|'); has:
 * per report config, 1 when it has figures in the row, 2 when ours do,
 * 4 and 8 when the program's on its two runtimes do (prog: the chart
 * has that panel). */
static void
row_spec(struct strbuf *rowspec, const struct frow *w, const struct mr_figs *fs,
	 const char *has, int nc, int prog)
{
	int i, c, d;
	struct strbuf a = {0}, x = {0};
	const char *mname = w->ckpt ? mr_ckpt_metrics[w->metric]
		: w->ncat == 1 ? w->cat[0]
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
		sb_add(&a, "(");
		for (i = 0; i < w->ncat; i++) {
			struct strbuf q = {0};

			sb_add(&q, "");
			rowfield(&q, w->cat[i]);
			q.s[--q.len] = 0; /* the '|' */
			sb_printf(&a, "%s'%s' %g", i ? ", " : "", q.s, w->pos[i]);
			sb_free(&q);
		}
		sb_add(&a, ")|");
		sb_add(&x, a.s); /* its quotes are the tics' own */
		sb_free(&a);
	}
	rowfield(&x, w->numx ? (fs->xunit ? fs->xunit : "") : w->ckpt ? "checkpoint" : "whole run");
	for (i = 1; i <= 2; i++) {
		sb_add(&a, "");
		for (c = 0; c < nc; c++)
			if (has[c] & i)
				sb_printf(&a, "%s%d", a.len ? " " : "", c + 1);
		rowfield(&x, a.s);
		sb_free(&a);
	}
	sb_printf(&x, "%d|%d|%d|", w->ncat, w->ckpt, w->ckpt && fs->growth);
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
	quoted(rowspec, x.s);
	sb_free(&x);
}

/* The notes under the chart: the figures file's, the report configs not
 * measured here, the configs of ours not drawn. */
static void
chart_notes(struct strbuf *notes, const struct mr_figs *fs, const struct fcfg *fc, int nc,
	    const char *const spec[2])
{
	int i, c, s, said;

	sb_add(notes, "");
	for (i = 0; i < fs->nnote; i++)
		wrapped(notes, fs->note[i], FIG_NOTE_WIDTH);
	for (c = 0; c < nc; c++) {
		struct strbuf l = {0};
		int none = fc[c].ours < 0;

		for (s = 0; s < 2; s++)
			none = none && (!spec[s] || fc[c].prog[s] < 0);
		if (none) {
			sb_printf(&l, "not measured here: %s (no config of these results has all its pairs)",
				  cstr(fc[c].cfg));
			wrapped(notes, l.s, FIG_NOTE_WIDTH);
			sb_free(&l);
			continue;
		}
		if (fc[c].ours < 0) {
			sb_printf(&l, "the model not measured here: %s (no config of the model has all its pairs)",
				  cstr(fc[c].cfg));
			wrapped(notes, l.s, FIG_NOTE_WIDTH);
			sb_free(&l);
		}
		for (s = 0; s < 2; s++)
			if (spec[s] && fc[c].prog[s] < 0) {
				sb_printf(&l, "its program on %s not measured here: %s (no config of its runs"
					  " has all its pairs)", spec[s], cstr(fc[c].cfg));
				wrapped(notes, l.s, FIG_NOTE_WIDTH);
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
					sb_printf(&l, "%s%s", m++ ? "; " : "", cstr(fc[d].cfg));
			sb_add(&l, ")");
		}
		wrapped(notes, l.s, FIG_NOTE_WIDTH);
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
		rowfield(b, l.s);
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

/* The headings of the two panels (no program ran): the report's, ours. */
static void
headings2(struct strbuf *sides, const struct mr_figs *fs, const char *profile)
{
	struct strbuf a = {0}, b = {0};
	int i;

	sb_add(&a, "the report: ");
	for (i = 0; i < fs->nsrc; i++)
		sb_printf(&a, "%s%s", i ? "; " : "", fs->src_label[i]);
	sb_printf(&b, "here: memrepro%s%s%s", profile ? ", " : "",
		  profile ? profile : "", profile ? " profile" : "");
	quoted(sides, a.s);
	quoted(sides, "open marks: the figures as printed");
	quoted(sides, b.s);
	quoted(sides, "filled marks: medians of the repeats, bars: min..max");
	sb_free(&a);
	sb_free(&b);
}

/* The headings of the three columns (SIDES for figures.gp): the report,
 * its program (which file, which runtime is drawn how; its marks are
 * medians as the model's), the model.  The report's may be as wide as
 * the program's leaves room for. */
static void
headings3(struct strbuf *sides, const struct mr_rd_case *k, const struct mr_figs *fs,
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
	quoted(sides, h.s);
	quoted(sides, mid.s);
	sb_free(&a);
	sb_free(&h);
	sb_free(&mid);

	sb_printf(&a, "the model: memrepro%s%s%s", profile ? ", " : "",
		  profile ? profile : "", profile ? " profile" : "");
	sb_add(&h, "");
	head_lines(&h, a.s, FIG_HEAD_EM);
	head_lines(&h, "medians of the repeats, bars: min..max", FIG_HEAD_EM);
	quoted(sides, h.s);
	sb_free(&a);
	sb_free(&h);
}

int
mr_chart_figures(struct mr_plot *p, const struct mr_rd *R, int ki,
		 const struct mr_figs *fs, const char *outdir)
{
	const struct mr_rd_case *k = &R->k[ki];
	char *base = esprintf("%s/%s.figures", outdir, k->name);
	char *tsv = esprintf("%s.tsv", base);
	struct strbuf title = {0}, rowspec = {0}, sides = {0}, legend = {0}, notes = {0};
	struct strbuf missing = {0};
	struct strbuf program = {0};
	struct frow *rows = NULL;
	struct fcfg *fc = NULL;
	struct mr_ft_col orig[2];
	const char *profile = mr_rd_env(R, "profile");
	const char *spec[2];
	char *has = NULL, **fcat = NULL;
	int *frow = NULL, nrow = 0, nc = 0, r, i, c, rc = -1, prog;
	FILE *f = NULL;

	if (!fs->n) {
		unlink_old(base);
		free(base);
		free(tsv);
		return 1;
	}
	/* The program's panel: the runtimes the report's table shows,
	 * where they ran. */
	mr_ft_orig_cols(&R, 1, k->name, fs, orig);
	for (i = 0; i < 2; i++)
		spec[i] = orig[i].k ? orig[i].spec : NULL;
	prog = spec[0] || spec[1];
	/* The report's configs (colours), the rows and their categories, in
	 * order of writing; a checkpoint's occurrence is the parser's (foo,
	 * foo, gc, foo: foo#1, foo#2, gc, foo#3). */
	fcat = ecalloc((size_t)fs->n + 1, sizeof *fcat);
	frow = ecalloc((size_t)fs->n + 1, sizeof *frow);
	for (i = 0; i < fs->n; i++) {
		const struct mr_fig *g = &fs->f[i];
		struct frow *w;

		fcat[i] = !g->at ? estrdup(mr_run_metrics[g->metric])
			: g->seq ? esprintf("%s#%ld", g->at, g->seq) : estrdup(g->at);

		for (c = 0; c < nc; c++)
			if (same_cfg(fc[c].cfg, &g->cfg))
				break;
		if (c == nc) {
			fc = erealloc(fc, sizeof *fc * (nc + 1));
			memset(&fc[nc], 0, sizeof *fc);
			fc[nc].cfg = &g->cfg;
			match(k, &fc[nc], spec);
			nc++;
		}
		if (!fc[c].note && g->note)
			fc[c].note = g->note;
		r = frow[i] = row_of(&rows, &nrow, fs, g);
		w = &rows[r];
		add_cat(w, fcat[i], w->numx && !isnan(g->x) ? g->x : w->ncat + 1);
	}
	has = ecalloc((size_t)nrow * nc + 1, 1);
	sb_add(&missing, "");
	if (!(f = mr_ch_create(tsv)))
		goto out;
	fprintf(f, "# memrepro report: the report's figures (expected/%s.figures) beside ours\n",
		k->name);
	fprintf(f, "row\tside\tcfg\tconfig\tat\tmetric\tx\ty\tlo\thi\tvalue\tunit\tn\tdrawn\ttag\tnote\truntime\tly\n");
	write_points(f, k, fs, fcat, frow, rows, nrow, fc, nc, spec, has, &missing);
	if (mr_ch_close(f, tsv) < 0)
		goto out;

	/* What gnuplot is told besides the TSV. */
	chart_title(&title, k, fs, prog);
	for (r = 0; r < nrow; r++)
		row_spec(&rowspec, &rows[r], fs, has + r * nc, nc, prog);
	sb_add(&program, "");
	if (prog) {
		headings3(&sides, k, fs, orig, profile);
		for (i = 0; i < 2; i++)
			quoted(&program, spec[i] ? spec[i] : "-");
	} else {
		headings2(&sides, fs, profile);
	}
	for (c = 0; c < nc; c++) {
		char *l = cfg_label(fc, nc, c);

		quoted(&legend, l);
		free(l);
	}
	chart_notes(&notes, fs, fc, nc, spec);
	if (missing.len)
		sb_printf(&notes, "%s%s", notes.len ? "\n" : "", missing.s);
	sb_add(&rowspec, "");
	{
		const char *args[] = { title.s, rowspec.s, sides.s, legend.s, notes.s, program.s,
				       NULL };

		rc = mr_plot_draw(p, "figures", tsv, base, args);
	}
out:
	for (r = 0; r < nrow; r++) {
		free(rows[r].cat);
		free(rows[r].pos);
	}
	free(rows);
	for (c = 0; c < nc; c++)
		sb_free(&fc[c].also);
	free(fc);
	free(has);
	for (i = 0; fcat && i < fs->n; i++)
		free(fcat[i]);
	free(fcat);
	free(frow);
	sb_free(&title);
	sb_free(&rowspec);
	sb_free(&sides);
	sb_free(&legend);
	sb_free(&notes);
	sb_free(&missing);
	sb_free(&program);
	free(base);
	free(tsv);
	return rc;
}
