/* chseries: what the series chart's parts share (chseries.c reads and
 * writes its data, chserlab.c its title and note).  Private to them. */
#ifndef MR_CHSERIES_H
#define MR_CHSERIES_H

#include "check/figures.h"
#include "core/util.h"
#include "out/chlay.h"
#include "results/read.h"

enum {
	MAX_NAMED = 6,  /* checkpoint names with a marker shape of their own */
	MAX_NONE = 160, /* characters of the title's list of configs without data */
	NOTE_WIDTH = 140, /* characters of a line of the note (10 pt, 1200 px) */
	SHARE_X = 4,    /* panels whose runs' lengths differ more: own time axes */
	TITLE_WIDTH = 110, /* characters of a title line (13 pt, 1200 px) */
};

/* A sample: time (s), the y metric, the tree's RSS and the cgroup's
 * charge (KiB; NAN: not measured). */
struct pt {
	double x, y, trss, cg;
};

/* A run that is drawn. */
struct srun {
	int ri;            /* in k->run */
	int cfg;           /* index into the layout's configs */
	int drawn;         /* the config's median run: drawn thick */
	struct pt *p;      /* its samples, in time order */
	int np;
	double peak;       /* largest y, KiB */
};

/* What one chart is drawn from. */
struct sc {
	const struct mr_rd_case *k;
	const struct mr_figs *fs; /* NULL: none */
	int xmode;              /* x is the report's axis (fs's "x") */
	int ymet;               /* the checkpoint metric on y */
	const char *yname;        /* its name: RSS, or VSZ (the report's) */
	int lazy;               /* LazyFree is shaded */
	int tree;               /* 1: the tree's line is the cgroup, 2: the
	                           tree's summed RSS; 0: no tree */
	int maxrep;             /* most runs drawn of a config */
	struct srun *run;       /* the runs drawn, config by config */
	int nrun;
	int *idx;               /* [k->nrun]: index into run[], or -1 */
	struct mr_config *cf;   /* the configs with data (copies) */
	int *cfgof;             /* their index in k */
	int ncf;
	const char **names;     /* checkpoint names recorded (into k) */
	int nnames;
	struct strbuf none;     /* the configs without data, for the title */
	int nnone;
	double xmax, ymax;      /* of everything drawn (x: s or fs's unit, y: MiB) */
	double *pxmax;          /* [L.npanel]: each panel's largest x */
	struct mr_lay L;
};

/* The title: the case, what is drawn over what, the axes; the configs
 * without data (title: the case's own, or NULL). */
void mr_sc_title(const struct sc *c, const char *title, struct strbuf *t);

/* The note under the panels ('|'-separated lines): how to read them;
 * with no data, why. */
void mr_sc_note(const struct sc *c, struct strbuf *note);

/* Whether the panels share their time axis (chserlab.c says when). */
int mr_sc_shared_x(const struct sc *c);

#endif
