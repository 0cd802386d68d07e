/* figures: the figures a case's report printed, and how the case is
 * shown, from expected/<case>.figures (docs/formats.md, "The report's
 * figures").  Read by the report's charts and tables, never by a verdict:
 * the claims quote the same figures in their citations.
 */
#ifndef MR_FIGURES_H
#define MR_FIGURES_H

#include "results/config.h"

/* One figure the report printed. */
struct mr_fig {
	int src;           /* index into the file's sources */
	char *at;          /* the checkpoint it was printed at; NULL: a figure
	                      of the whole run ("-") */
	long seq;          /* its occurrence, written NAME#N (as in claims),
	                      or its turn where one config's figures of the
	                      metric name the checkpoint several times
	                      without a number (foo, foo, gc, foo: 1, 2, -, 3);
	                      0: the last */
	long nth;          /* (the parser's, while numbering) */
	double x;          /* at's x under the file's "x" directive, else NAN */
	struct mr_config cfg; /* the report's config (n == 0: "-") */
	int ckpt;          /* 1: metric is a checkpoint metric, 0: a run metric */
	int metric;        /* index into mr_ckpt_metrics or mr_run_metrics */
	double value;      /* as printed */
	char *printed;     /* ... and its text as written in the file */
	char *unit;        /* as printed: B KiB MiB GiB kB KB MB GB ms s, or
	                      "-" for a count */
	double scale;      /* value * scale is in the metric's own unit (KiB
	                      for *_kb, ms for *_ms, 1 for a count) */
	char *note;        /* the report's own label of it, or NULL */
	int line;          /* where it is written */
	int col_at, col_cfg; /* ... its checkpoint and its config */
};

struct mr_figs {
	char *path;        /* the file read (NULL: none) */
	int nsrc;
	char **src;        /* the reports cited, in order (mr_figs_source_ok) */
	char **src_label;  /* how each names the report's side ("Node.js
	                      v10.7.0, testcase 1") */
	int has_key;       /* a key figure is declared */
	int key_ckpt, key_metric; /* as in struct mr_fig */
	char *key_checkpoint; /* NULL: a run metric, or the last checkpoint
	                         is meant when key_ckpt (written "METRIC@") */
	int key_lower;     /* 1: lower is better, 0: higher */
	int key_line;      /* where it is written */
	char *xprefix;     /* "x PREFIX UNIT": checkpoints PREFIX<number> sit
	                      at x = number; NULL: no such axis */
	char *xunit;
	char *xclock;      /* "x PREFIX UNIT \"WHAT\"": what the unit is when
	                      it is not the wall clock's (a model's scaled
	                      minutes), said on the x axis; NULL: none */
	int xround;        /* "rounds UNIT": a checkpoint sits at its
	                      occurrence N (its #N), the case's checkpoints of
	                      a round in their order within it */
	char *panels;      /* the axis of the small multiples; "allocator"
	                      when not declared */
	int panels_line;   /* where it is declared, 0: not */
	int growth;        /* "compare growth": series minus their first
	                      point; 0: totals */
	char *runtime;     /* "runtime SPEC": the runtime the report was made
	                      on, as the runtime axis spells it
	                      ("node@10.7.0"); NULL: not declared */
	int runtime_line;
	char **note;       /* "note" texts, in order */
	int nnote;
	struct mr_fig *f;  /* the figures, in order of writing */
	int n;
};

/* Read expected_dir/<kase>.figures into *fs.  Returns 0; 1 when there is
 * no such file (*fs holds the defaults: no key, panels "allocator"); -1
 * on bad input, printed as path:line:column (*fs is empty then).  Free
 * with mr_figs_free in every case. */
int mr_figs_load(const char *expected_dir, const char *kase, struct mr_figs *fs);

/* Parse the len bytes of buf as the figures file path (a fuzz target's
 * entry): as mr_figs_load, without the 1. */
int mr_figs_parse(const char *path, const char *buf, size_t len, struct mr_figs *fs);

void mr_figs_free(struct mr_figs *fs);

/* Whether s cites a report as a figures file's source line may: a seed
 * (seeds/FILE), a GitHub issue or pull request (OWNER/REPO#N) or an
 * https:// address without blanks or quotes. */
int mr_figs_source_ok(const char *s);

/* Check fs against a case: every key of a figure's config, and a declared
 * panels axis, is a key of some config of cfg[0..ncfg-1] (ncfg 0: not
 * checked), every checkpoint
 * one of names[0..nnames-1] (names NULL: not checked).  Returns 0, or -1
 * printed as path:line:column. */
int mr_figs_check(const struct mr_figs *fs, const struct mr_config *cfg, int ncfg,
		  const char *const *names, int nnames);

/* The x of checkpoint name under fs's "x" directive, or NAN when fs has
 * none or name is not PREFIX<number>. */
double mr_figs_x(const struct mr_figs *fs, const char *checkpoint);

#endif
