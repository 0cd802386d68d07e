/* chfig: the parts of "the report and here" (charts.h, mr_chart_figures):
 * its rows and report configs (chfig.c, which draws it), our points and
 * the derived TSV (chfigpts.c), the words figures.gp is told: title,
 * rows, headings, legend, notes (chfiglab.c).  Private to
 * runner/out/chfig*.c. */
#ifndef MR_CHFIG_H
#define MR_CHFIG_H

#include <stdio.h>

#include "check/figures.h"
#include "core/util.h"
#include "out/figtab.h"
#include "check/values.h"

/* More distinct reasons why a figure is not measured here than this are
 * summed up in one line. */
#define FIG_NOTES_MAX 8

/* A row with more points a side than this gets value labels on the last
 * point of each config only. */
#define FIG_LABEL_ALL 12

/* Notes are wrapped at this many characters (the chart's width at its
 * notes' font). */
#define FIG_NOTE_WIDTH 150
/* A panel's width in px (figures.gp's pleft..pright of 1200 px: two
 * panels, three with the program's), a tic label's px per em (11 pt as
 * pngcairo draws it), and the band (a fraction of the top) within which
 * checkpoint series get a y axis of their own range, not from 0. */
#define FIG_PANEL2_PX 432.0
#define FIG_PANEL3_PX 270.0
#define FIG_TIC_PX 14.7
#define FIG_BAND 0.25

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
/* A heading of the two-panel chart: its half of the width, 600 px, less
 * a margin, in em of 11 pt in the PNG (14.7 px). */
#define FIG_HEAD_EM_HALF 36.0

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
	const char *runit; /* the row's unit of the report's figures: ours (MiB,
	                      s) for a size or time, else its first figure's */
	double rscale;     /* that unit's scale */
	double lo[3], hi[3]; /* the drawn y range of each side (report, here,
	                        the program) */
};

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
const char *mr_cf_cstr(const struct mr_config *c);
int mr_cf_same_cfg(const struct mr_config *a, const struct mr_config *b);

/* The index of category cat of row w, added at x pos when new. */
int mr_cf_add_cat(struct frow *w, const char *cat, double pos);

/* Write the rows' points into f (chfigpts.c); mark in has[r * nc + c]
 * (bit 1: the report's side, 2: ours, 4 and 8: the program's on runtime
 * spec[0], spec[1]) which configs have points; notes get what is not
 * measured here. */
void mr_cf_points(FILE *f, const struct mr_rd_case *k, const struct mr_figs *fs,
		  char *const *fcat, const int *frow, struct frow *rows, int nrow,
		  const struct fcfg *fc, int nc, const char *const spec[2], char *has,
		  struct strbuf *notes);

/* s as a word of a gnuplot list: in double quotes, none inside. */
void mr_cf_quoted(struct strbuf *b, const char *s);

/* Append text to b wrapped at width columns (at blanks), after a newline
 * when b is not empty. */
void mr_cf_wrapped(struct strbuf *b, const char *text, size_t width);

/* The legend of report config i (fresh). */
char *mr_cf_cfg_label(const struct fcfg *fc, int nc, int i);

/* The chart's title, a row's ROWS word, the notes under the chart, the
 * headings of two panels (no program ran) or three (chfiglab.c). */
void mr_cf_title(struct strbuf *title, const struct mr_rd_case *k, const struct mr_figs *fs,
		 int prog);
void mr_cf_row_spec(struct strbuf *rowspec, const struct frow *w, const struct mr_figs *fs,
		    const char *has, int nc, int prog);
void mr_cf_notes(struct strbuf *notes, const struct mr_figs *fs, const struct fcfg *fc, int nc,
		 const char *const spec[2]);
void mr_cf_headings2(struct strbuf *sides, const struct mr_figs *fs, const char *profile);
void mr_cf_headings3(struct strbuf *sides, const struct mr_rd_case *k, const struct mr_figs *fs,
		     const struct mr_ft_col orig[2], const char *profile);

#endif
