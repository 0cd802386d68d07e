/* cmpchart: compare's table (compare.tsv) and its per-case charts, over
 * the rows compare.c makes (one per figure both sides measured).  Used by
 * compare.c; trend's charts name configs with mr_cmp_short. */
#ifndef MR_CMPCHART_H
#define MR_CMPCHART_H

#include <stddef.h>
#include <stdio.h>

#include "check/claims.h"
#include "check/values.h"

enum change { SAME, WORSE, BETTER, NOTCMP };

/* How a row is drawn: on its config's line (worst: the line's point),
 * on a line of its own (named), or as a dot on its config's line (none;
 * more: beyond the noise, but the chart had no room to name it). */
enum kind { K_NONE, K_WORST, K_NAMED, K_MORE };

/* The words of enum change, in compare.tsv's verdict column. */
extern const char *const mr_cmp_change_words[];

/* Worse or better beyond the noise. */
#define BEYOND(r) ((r)->change == WORSE || (r)->change == BETTER)

/* One figure of one config in both results. */
struct row {
	int kn, cn;          /* case and config in NEW */
	struct mr_ref ref;
	char *what;          /* "rss_kb@cleared" */
	double om, omin, omax, nm, nmin, nmax;
	int on, nn;
	double pct;          /* change of the median, NAN: from 0 */
	const char *test;    /* "U", or "-": too few repeats to test */
	double p;            /* the U test's p, NAN when not tested */
	enum change change;  /* beyond the noise, and which way */
	int floor;           /* within the metric's floor: never a change */
	int fails;           /* worse by more than --fail-on */
	int line;            /* the chart line it is drawn on, 1 = top */
	enum kind kind;
	double slo, shi;     /* a worst row: its config's smallest and largest x */
};

/* A case's chart, laid out. */
struct clay {
	int ncfg;            /* configs drawn */
	int nlines;
	int nmore;           /* beyond the noise, not named */
	double wl, wr;       /* the widest labels left and right, in points */
	double xmin, xmax;
	char **shortl;       /* [k->ncfg]: the configs' short names */
};

/* "+12.5 %", or "from 0" for NAN. */
void mr_cmp_pct(char *buf, size_t size, double pct);

/* Lay out case ki's chart (k: N's case ki) into *L. */
void mr_cmp_lay_case(struct row *rows, int nrows, const struct mr_rd_case *k, int ki,
		     struct clay *L);

void mr_cmp_clay_free(struct clay *L, int ncfg);

/* compare.tsv: its header and the rows of every case (ki < 0) or of case
 * ki alone (a chart's input), laid out in L[], on f.  0, or -1 on a
 * write error (not printed). */
int mr_cmp_write_rows(FILE *f, const struct mr_rd *N, const struct row *rows, int nrows,
		      const char *olddir, const struct clay *L, int ki);

/* What the charts are drawn with and for. */
struct mr_cmp_chart {
	const char *old_dir, *new_dir; /* the results compared (titles) */
	const char *plots_dir;         /* the gnuplot scripts */
	int verbose;                   /* print gnuplot's command lines */
	double fail_on;                /* --fail-on's line, < 0: none */
	const struct mr_rd *old;       /* OLD: a case it has not is not drawn */
};

/* Draw every case's chart into outdir, each from its own rows.  0, or
 * -1 when one could not be drawn (printed). */
int mr_cmp_draw(const struct mr_cmp_chart *o, const struct mr_rd *N, const struct row *rows,
		int nrows, const char *outdir, const struct clay *L);

struct mr_config;

/* The short name of config i of cfg[0..n-1] on a chart (compare's and
 * trend's): the values of its axes other than skip (NULL: none), the
 * allocator's bare, the others key=value with the key after its last '.'
 * (mmap_threshold=131072), ", "-separated, an axis the config leaves
 * unset left out; when that leaves nothing, the other axes said "KEY
 * unset", else skip's value, else its canonical string.  Fresh string. */
char *mr_cmp_short(const struct mr_config *cfg, int n, int i, const char *skip);

#endif
