/* format: the verdicts of a check printed for people or for tools.
 *
 * One writer per format, each in its own file (human.c, tap.c, junit.c,
 * json.c); format.c parses --format and dispatches, and holds what they
 * share.  The strings inside JSON and XML are escaped by escape.h.
 *
 *  human  the table of docs/formats.md ("Verdicts"); colours when asked
 *  tap    TAP version 13 as kselftest writes it: one "ok"/"not ok" line
 *         per verdict, "# SKIP" / "# XFAIL" directives, details and the
 *         tail of a failed run's log as "# " lines
 *  junit  JUnit XML: a testsuite per case, a testcase per claim and per
 *         canonical config (its runs and baseline rows) with its time,
 *         an error for a config whose runs did not end ok, failures
 *         carrying the observed and expected figures
 *  json   one object with every verdict and figure (docs/formats.md,
 *         "check --format json")
 */
#ifndef MR_FORMAT_H
#define MR_FORMAT_H

#include <stdio.h>

#include "check/verdict.h"

enum mr_fmt { MR_FMT_HUMAN, MR_FMT_TAP, MR_FMT_JUNIT, MR_FMT_JSON };

struct mr_fmt_opts {
	enum mr_fmt format;
	int verbose;  /* human: held rows and every claim combination */
	int color;    /* human: colour the verdict words (ANSI) */
	FILE *out;
};

/* Lines of a failed run's log in TAP and JUnit output. */
#define MR_FMT_LOG_TAIL 10

/* The format called name ("human", "tap", "junit", "json"), or -1. */
int mr_fmt_parse(const char *name);

/* Print vs in the chosen format, then flush o->out. */
void mr_fmt_write(const struct mr_vds *vs, const struct mr_fmt_opts *o);

/* The writers mr_fmt_write dispatches to, one per format: vs to o->out,
 * not flushed. */
void mr_fmt_human(const struct mr_vds *vs, const struct mr_fmt_opts *o);
void mr_fmt_tap(const struct mr_vds *vs, const struct mr_fmt_opts *o);
void mr_fmt_junit(const struct mr_vds *vs, const struct mr_fmt_opts *o);
void mr_fmt_json(const struct mr_vds *vs, const struct mr_fmt_opts *o);

/* Evaluate the claims and baselines (check.h's mr_check_eval) and print
 * the verdicts in o->format to o->out (NULL: stdout).  Returns MR_OK when
 * nothing regressed and no run failed, MR_FAILED otherwise, MR_USAGE on
 * bad input (a message naming file:line:column has been printed on
 * stderr).  Defined here, not in check/: check returns verdicts, out/
 * prints them. */
struct mr_check_opts;
int mr_fmt_check(const struct mr_check_opts *o);

/* The one-line counts of a case or of all ("fiber-stacks: 8 claims held,
 * 1 reproduces, 0 regressed; baseline 216 held, ...; 36 runs ok, 0
 * failed"), without the name and the newline.  Fresh string. */
char *mr_fmt_totals(const struct mr_vd_totals *t);

/* The summary line of every case's counts, "total: ..." (mr_fmt_totals
 * of vs->all), to f: check's last line when it judged several cases, and
 * report's. */
void mr_fmt_summary(FILE *f, const struct mr_vds *vs);

/* one when n is 1, else many (a static string). */
const char *mr_fmt_plural(int n, const char *one, const char *many);

#endif
