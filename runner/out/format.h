/* format: the verdicts of a check printed for people or for tools.
 *
 *  human  the table of docs/formats.md ("Verdicts"); colours when asked
 *  tap    TAP version 13 as kselftest writes it: one "ok"/"not ok" line
 *         per verdict, "# SKIP" / "# XFAIL" directives, details and the
 *         tail of a failed run's log as "# " lines
 *  junit  JUnit XML: a testsuite per case, a testcase per claim and per
 *         config (its runs and baseline rows), failures carrying the
 *         observed and expected figures
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

/* The format called name ("human", "tap", "junit", "json"), or -1. */
int mr_fmt_parse(const char *name);

/* Print vs in the chosen format. */
void mr_fmt_write(const struct mr_vds *vs, const struct mr_fmt_opts *o);

/* The one-line counts of a case or of all ("fiber-stacks: 8 claims held,
 * 1 reproduces, 0 regressed; baseline 216 held, ...; 36 runs ok, 0
 * failed"), without the name and the newline.  Fresh string. */
char *mr_fmt_totals(const struct mr_vd_totals *t);

/* Write s as the content of a JSON string (without the quotes) / as XML
 * character data or an attribute value: escaped, control characters and
 * invalid UTF-8 replaced. */
void mr_fmt_json_str(FILE *f, const char *s);
void mr_fmt_xml_str(FILE *f, const char *s);

#endif
