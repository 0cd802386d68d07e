/* chlay: the layout of a series chart's small multiples (chseries.c):
 * which axes of a case's configs are panels and which colours, the
 * panels (a group of the panel axes' values, or a part of one with at
 * most MR_LAY_MAX_LINES colours), their titles and the colours' labels.
 * An axis whose value follows from the panel's (jemalloc.dirty_decay_ms
 * set only under allocator=jemalloc) is named in the panel's title, not
 * coloured.  Private to runner/out/ch*.c. */
#ifndef MR_CHLAY_H
#define MR_CHLAY_H

#include "results/config.h"
#include "core/util.h"

/* Colours in one panel, at most. */
#define MR_LAY_MAX_LINES 4

/* A layout. */
struct mr_lay {
	int n;              /* configs with data */
	const struct mr_config *cf; /* their configs (copies of k->conf[]) */
	int nax;
	struct mr_axis *ax; /* the axes over them, values sorted */
	int *vi;            /* [n * nax]: config i's value of axis a */
	int *pan;           /* [nax]: 0 a colour axis, else its rank among
	                       the panel axes (1: the most significant) */
	int npan;           /* panel axes */
	int *ord;           /* configs by panel, then colour */
	int *grp, ngrp;     /* [n]: group (panel axes' values) */
	int *col, ncol;     /* [n]: colour */
	int *panel, npanel; /* [n]: panel, a group or a part of one */
	char **ptitle;      /* [npanel] */
	char **clabel;      /* [ncol] */
	int ncols;          /* columns of panels, so that a row is one value
	                       of the first panel axis; 0: the script's choice */
};

/* The layout of configs cf[0..n-1] (n >= 1; cf must outlive L) with
 * panel axis panels (the figures file's "panels").  Free with mr_lay_free. */
void mr_lay_make(struct mr_lay *L, const struct mr_config *cf, int n, const char *panels);
void mr_lay_free(struct mr_lay *L);

/* The names of the panel axes (b[0]) and the colour axes (b[1]) for the
 * title: "a, b and c". */
void mr_lay_axes(const struct mr_lay *L, struct strbuf *b);

#endif
