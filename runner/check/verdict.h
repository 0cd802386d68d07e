/* verdict: the verdicts of a check, as data.
 *
 * compare evaluates a results directory against expected/ into a struct
 * mr_vds; format prints it (human, TAP, JUnit, JSON) and report writes it
 * into report.md / report.html.  One list, so every output says the same.
 * Words and meanings: docs/formats.md, "Verdicts".
 */
#ifndef MR_VERDICT_H
#define MR_VERDICT_H

#include "check/figures.h"

enum mr_vd_word {
	MR_VD_HELD,        /* a holds claim that held, a row within tolerance */
	MR_VD_REGRESSED,   /* a holds claim that failed, a row above tolerance */
	MR_VD_IMPROVED,    /* a row below tolerance */
	MR_VD_REPRODUCES,  /* a reported claim that held */
	MR_VD_NOTREPRO,    /* a reported claim that failed */
	MR_VD_SKIPPED,     /* no data: a claim, or a config none of whose runs ran */
	MR_VD_FAILED,      /* a run that failed, crashed, timed out, ... */
	MR_VD_NOTMEASURED, /* a baseline row no ok run measured */
	MR_VD_NOTINBL,     /* a config with ok runs and no baseline rows */
	MR_VD_UNDEFINED,   /* a claim false nowhere but undefined somewhere
	                      (a division by a measured zero, a result
	                      beyond the doubles): loud, not failing */
	MR_VD_NWORDS
};

/* "held", "regressed", ..., "not in baseline", by enum mr_vd_word. */
extern const char *const mr_vd_words[MR_VD_NWORDS];

/* Non-zero for the words that fail a check (regressed, failed). */
int mr_vd_fails(enum mr_vd_word w);

enum mr_vd_kind {
	MR_VD_CLAIM,  /* a claim of the case */
	MR_VD_RUN,    /* a run that failed (ok and skipped runs are counted) */
	MR_VD_CONFIG, /* a config: skipped (its runs did not run), or not in
	                 the baseline */
	MR_VD_ROW,    /* a baseline row */
};

/* One verdict.  Strings are owned; NULL when they do not apply. */
struct mr_vd {
	enum mr_vd_kind kind;
	enum mr_vd_word word;
	char *config;     /* canonical config (not for a claim) */
	char *label;      /* its short form (only the keys that vary) */
	/* MR_VD_CLAIM */
	char *id;         /* claim id */
	int holds;        /* 1: status holds, 0: reported */
	char *detail;     /* the figures of the first failing (else first)
	                     combination, or why all were skipped; also
	                     MR_VD_RUN's and a skipped MR_VD_CONFIG's reason */
	char *words;      /* the detail in words (check/words.h), or NULL:
	                     then the detail says it */
	char *cite;       /* the report's figure the claim stands for */
	char **lines;     /* every combination, one line each */
	int nlines;
	long line;        /* of the claim in its file */
	int *cells;       /* the case's ncol: the claim's word at each version
	                     of the upgrade table, MR_VD_NWORDS where it was
	                     not evaluated; NULL when the case has none */
	char *since;      /* "reported since jemalloc@5.3.0": the spec, or NULL */
	char *since_detail; /* per version of it: what the claim did there
	                     against what the report says */
	int news;         /* versions at or after since where it reproduces */
	/* MR_VD_RUN */
	long repeat;
	const char *outcome; /* runs.tsv word (static) */
	char *log;        /* the run's log, with the results dir, or NULL */
	/* MR_VD_CONFIG skipped */
	int nskip, nrun;  /* skipped in nskip of nrun repeats */
	/* MR_VD_ROW */
	char *what;       /* "rss_kb@cleared", "wall_ms" */
	char *metric;     /* "rss_kb" */
	char *checkpoint; /* "cleared", "created#2", "-" for a run metric */
	double obs;       /* observed median (NAN: not measured) */
	double omin, omax; /* observed spread */
	int on;           /* ok runs that measured it */
	double exp;       /* blessed median */
	double emin, emax; /* blessed spread */
	long en;          /* repeats the blessed median is over */
	double tol;       /* tolerance: exp +- tol held */
};

/* Counts, per case and in all. */
struct mr_vd_totals {
	int nclaims, held, reproduces, regressed, notrepro, cskipped, cundefined;
	int has_claims, has_bl;
	int bheld, bregressed, bimproved, bmissing;
	int rok, rfailed, rskipped;
};

/* A config of a case and how its runs ended. */
struct mr_vd_cfg {
	char *config;       /* canonical */
	char *label;        /* short form */
	int nok, nfail, nskip; /* runs by outcome */
	double wall_ms;     /* the sum of its runs' wall_ms (those that
	                       measured it, whatever their outcome) */
};

/* A column of the upgrade table: one version of an allocator that has
 * several in the results, or one libc of several. */
struct mr_vd_col {
	char *what;       /* the allocator's name, "libc" or "kernel" */
	char *spec;       /* the configs' value: "jemalloc@5.2.1", "jemalloc";
	                     libc's ("2.41"), NULL: the host's */
	char *version;    /* its version, NULL: not recorded */
	char *label;      /* "jemalloc@5.2.1", "jemalloc (host 5.3.0)",
	                     "libc@2.41", "libc (host 2.36)" */
};

/* The verdicts of one case, in the order the human table prints them:
 * claims in file order, failed runs, skipped configs, baseline rows
 * grouped by config (in baseline order), configs not in the baseline. */
struct mr_vd_case {
	char *name;
	char *claims_path;  /* <expected>/<case>.claims */
	int has_claims;     /* the file exists */
	char *bl_path;      /* <expected>/<platform>/<case>.tsv */
	int has_bl;         /* the file exists */
	struct mr_figs figs; /* <expected>/<case>.figures: the report's
	                        figures and how the case is shown */
	int has_figs;       /* the file exists */
	int notrun_rows;    /* baseline rows of configs not run here */
	int notrun_cfgs;    /* ... and their configs */
	int lw;             /* widest config label of the case */
	int mw;             /* widest metric@checkpoint of its baseline */
	struct mr_vd_cfg *cfg; /* every config of the case in the results */
	int ncfg;
	struct mr_vd_col *col; /* the upgrade table's versions, old to new;
	                          none when every allocator and the libc
	                          have one version in the results */
	int ncol;
	struct mr_vd *v;
	int n;
	struct mr_vd_totals t;
};

struct mr_vds {
	char *results;      /* the results directory */
	char *platform;
	char *expected;     /* the expected directory */
	int norun;          /* the results have no runs at all (fails) */
	struct mr_vd_case *k;
	int nk;
	struct mr_vd_totals all;
	int status;         /* MR_OK, or MR_FAILED: something regressed or
	                       a run failed (or no runs) */
	char **changed;     /* "the machine changed: thp madvise -> always
	                       during the run (3 runs not judged: ...)", one
	                       per distinct change, said once at the top */
	int nchanged;
	int nbusy;          /* ok runs on a busy machine: times not judged */
	char *busy;         /* what that means, said once at the top, or
	                       NULL when nbusy is 0 */
};

/* Append a zeroed verdict to k and return it. */
struct mr_vd *mr_vd_add(struct mr_vd_case *k, enum mr_vd_kind kind,
			enum mr_vd_word w);

/* Add b's counts to a. */
/* Whether column c is of the kernel table (kern 1: its what is
 * "kernel") or of the versions table (kern 0). */
int mr_vd_col_in(const struct mr_vd_col *c, int kern);

/* Whether claim verdict v has a word in some column of k's table kern
 * (mr_vd_col_in); and how many columns that table has. */
int mr_vd_table_row(const struct mr_vd *v, const struct mr_vd_case *k, int kern);
int mr_vd_table_cols(const struct mr_vd_case *k, int kern);

void mr_vd_totals_add(struct mr_vd_totals *a, const struct mr_vd_totals *b);

/* Free n columns and the array. */
void mr_vd_cols_free(struct mr_vd_col *col, int n);

/* Free everything vs owns and zero it. */
void mr_vds_free(struct mr_vds *vs);

#endif
