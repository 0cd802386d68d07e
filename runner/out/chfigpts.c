/* chfigpts: our points of "the report and here" and its derived TSV
 * (chfig.h): per row, the report's figures as printed, ours (medians of
 * the ok runs, the repeats' min..max) and the program's, which of them
 * get a value label and where. */
#include "out/chfig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/stats.h"
#include "check/values.h"
#include "core/util.h"

static void
extend(struct frow *w, int side, double lo, double hi)
{
	if (isnan(w->lo[side]) || lo < w->lo[side])
		w->lo[side] = lo;
	if (isnan(w->hi[side]) || hi > w->hi[side])
		w->hi[side] = hi;
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
		mr_cf_wrapped(ns->b, l, FIG_NOTE_WIDTH);
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
	fprintf(f, "%d\t%s\t%d\t%s\t", r + 1, side, c + 1, mr_cf_cstr(fc[c].cfg));
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

	if (lo == hi) /* mr_cf_row_spec's range around a flat side */
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
void
mr_cf_points(FILE *f, const struct mr_rd_case *k, const struct mr_figs *fs,
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
				if (mr_cf_same_cfg(&fs->f[i].cfg, fc[c].cfg) && frow[i] == r) {
					npts++;
					last = i;
				}
			for (i = 0; i < fs->n; i++) {
				const struct mr_fig *g = &fs->f[i];
				const char *cat;
				double y;
				char t[64];
				int ci;

				if (!mr_cf_same_cfg(&g->cfg, fc[c].cfg) || frow[i] != r)
					continue;
				cat = fcat[i];
				ci = mr_cf_add_cat(w, cat, 0);
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
				fprintf(f, "%d\treport\t%d\t%s\t", r + 1, c + 1, mr_cf_cstr(fc[c].cfg));
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
