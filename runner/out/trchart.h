/* trchart: trend's table (trend.tsv) and its per-case charts, over the
 * series trend.c makes (one per case, config and figure) and their
 * steps.  Used by trend.c. */
#ifndef MR_TRCHART_H
#define MR_TRCHART_H

#include <stdio.h>

#include "check/claims.h"
#include "check/stats.h"
#include "check/values.h"

/* Steps kept per series (a nightly history rarely has more). */
#define MR_TR_MAX_STEPS 16
/* The figures of a case's chart. */
#define MR_TR_MAX_FIGS 6

/* One (case, config, figure) over the directories. */
struct series {
	char *kase;      /* case name */
	char *config;    /* canonical config */
	char *label;     /* short form (in the newest directory that has it) */
	int cfg;         /* config index in that directory's case, from 1 */
	struct mr_ref ref; /* checkpoint owned */
	char *what;      /* "rss_kb@cleared" */
	double *med, *min, *max; /* per directory, NAN when absent */
	int *n;
	int *step;       /* per directory: 1 at the first point after a step */
	int nsteps;
	struct mr_st_step steps[MR_TR_MAX_STEPS];
	int changed;     /* last vs first median beyond the noise */
	double score;    /* the largest relative change (a step's or the
	                    last vs the first), for the panels' order */
	int panel;       /* its panel in its case's chart, 0: not drawn */
	int colour;      /* its colour there, from 1 */
};

/* A case's chart, laid out. */
struct tlay {
	const char *kase;   /* into a series */
	char *key;          /* the key figure's name, NULL: none */
	char *panels;       /* the panel axis */
	int nfig;
	const char *fig[MR_TR_MAX_FIGS]; /* into series */
	int npg;            /* panels per figure: groups, parts of them */
	char **pgtitle;     /* [npg] */
	char *empty;        /* [nfig * npg + 1]: '1' for a panel without a
	                       point (its group did not measure its figure) */
	int ncol;           /* colours */
	char **clabel;      /* [ncol] */
	int nmore;          /* figures with a change not drawn */
	int nchanged;       /* figures with a change or a step */
	int nsteps;
};

/* Has the series a median in any directory?  (A case whose runs were all
 * skipped has figures but no values: a panel of it would be empty.) */
int mr_tr_measured(const struct series *x, int nr);

/* trend.tsv's header and rows on f: every point of s[0..ns-1] over the
 * nr directories R, or (kase not NULL) those of case kase drawn in a
 * panel (a chart's input).  0, or -1 on a write error (not printed). */
int mr_tr_write_rows(FILE *f, struct mr_rd *const *R, int nr, const struct series *s,
		     int ns, const char *kase);

/* Lay out case T->kase's chart (trchart.c): its panels, colours and
 * figures, and each series' panel and colour. */
void mr_tr_lay_case(struct tlay *T, struct series *s, int ns, int nr, const char *panel_axis);

void mr_tr_tlay_free(struct tlay *T);

/* Draw every case's chart into outdir, each from its own rows only.
 * 0, or -1 when a chart could not be drawn (printed). */
int mr_tr_draw(const char *plots_dir, int verbose, struct mr_rd *const *R, int nr,
	       const struct tlay *T, int nt, const struct series *s, int ns,
	       const char *outdir);

#endif
