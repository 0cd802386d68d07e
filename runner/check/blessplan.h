/* blessplan: the baselines a results directory would write, and what they
 * change.
 *
 * For each case of the results: the medians, spreads and tolerances of
 * its ok runs as a new <expected>/<platform>/<case>.tsv (configs with
 * failed or skipped runs are left out, and why), and how it differs from
 * the baseline there.  Nothing here prints: out/bless.c says what changes,
 * asks, and calls mr_bless_write for the cases to write.
 */
#ifndef MR_BLESSPLAN_H
#define MR_BLESSPLAN_H

#include "check/baseline.h"
#include "check/check.h"
#include "results/read.h"

/* A config left out of a case's new baseline. */
struct mr_bless_left {
	const char *label; /* its short label (in the results' case) */
	char *why;         /* "2 of 5 repeats not ok", or why no run is ok (owned) */
};

/* A row that blessing changes. */
struct mr_bless_change {
	char mark;                 /* '~' its median moved beyond the old
	                              tolerance, '.' within it, '+' new,
	                              '-' gone */
	const struct mr_bl_row *o; /* the old row (in ob; NULL for '+') */
	const struct mr_bl_row *n; /* the new row (in nb; NULL for '-') */
	const struct mr_bl_row *r; /* the row it is about: n, else o */
	char *label;               /* the short label of the row's config, its
	                              canonical string when not run here (owned) */
};

/* What blessing one case writes. */
struct mr_bless_case {
	const struct mr_rd_case *k;   /* the case, in the plan's results */
	struct mr_bless_left *left;   /* configs left out (owned) */
	int nleft;
	struct mr_baseline nb;        /* the new baseline; nb.path NULL when
	                                 it has no row ("nothing to bless") */
	struct mr_baseline ob;        /* the baseline there, when has_old */
	int has_old;                  /* 0: none, or unreadable (printed as an
	                                 error): replaced */
	int moved, within, same;      /* rows of both, by how far they moved */
	int added, gone;              /* rows of only nb / only ob */
	int kept;                     /* rows of ob of configs the results
	                                 lack (another profile's), kept in nb
	                                 (and counted unchanged too) */
	int busy;                     /* configs whose figures follow an
	                                 allocator's clock, every run of them
	                                 on a busy machine: none blessed, the
	                                 old rows (if any) kept */
	int cost_changed, cost_added, cost_gone; /* cost rows, likewise */
	struct mr_bless_change *ch;   /* '~' and '.' in nb's order, then (with
	                                 an old baseline) '+' in nb's order,
	                                 then '-' in ob's order (owned) */
	int nch;
	int differs;                  /* some row or cost row differs: to be
	                                 written */
};

/* A blessing of the results: the cases selected, where their baselines go. */
struct mr_bless {
	struct mr_rd R;     /* the results */
	int *sel, nsel;     /* the selected cases (indices into R.k) */
	char *dir;          /* <expected>/<platform> (owned) */
	char date[64];      /* the "blessed" key: now, or SOURCE_DATE_EPOCH */
	const char *exp;    /* the expected directory */
	const char *frag;   /* the guest whose configs are blessed (its
	                       pairs), NULL: the host's (mr_bless_platform) */
	struct mr_rd_plat *plat; /* the guests of the results (owned) */
	int nplat;
};

/* Load the results of o and select its cases.  Returns MR_OK, or MR_USAGE
 * on bad input (printed; b needs no free). */
int mr_bless_open(const struct mr_check_opts *o, struct mr_bless *b);

/* Work out case i (0 <= i < b->nsel) of b into c: its new baseline and
 * what it changes against the old one (read, an unreadable one printed
 * as an error).  Free c with mr_bless_case_free. */
void mr_bless_case(const struct mr_bless *b, int i, struct mr_bless_case *c);

/* Bless platform i from now on: 0 the host's (the results' platform),
 * i > 0 the guest plat[i - 1]'s, its configs keyed without the guest's
 * pairs (docs/kernels.md).  Returns 0, or -1 when that guest's platform
 * is not recorded. */
int mr_bless_platform(struct mr_bless *b, int i);

/* Create b->dir.  Returns 0, or -1 (printed). */
int mr_bless_mkdir(const struct mr_bless *b);

/* Write c's new baseline to c->nb.path.  Returns 0, or -1 (printed). */
int mr_bless_write(const struct mr_bless_case *c);

void mr_bless_case_free(struct mr_bless_case *c);
void mr_bless_close(struct mr_bless *b);

#endif
