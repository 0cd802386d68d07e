/* platforms: where each claim holds, over results of several platforms.
 *
 * Each results directory (usually a platform's merged shards) is checked
 * as `check --from DIR` checks it (check.h's mr_check_eval: the same
 * claims, baselines and verdicts), and the verdicts are laid side by
 * side: one row per claim (case and claim id), one column per platform,
 * the claim's verdict word there (verdict.h's mr_vd_words), rows where
 * the platforms disagree first.  Above it, per platform, what env.tsv
 * says of it (kernel, libc, allocator versions, THP, CPUs, started,
 * commit) and its baseline's counts.  Written as Markdown, TSV, HTML or
 * JSON (docs/formats.md, "memrepro platforms").
 */
#ifndef MR_PLATFORMS_H
#define MR_PLATFORMS_H

#include <stdio.h>

enum mr_plat_fmt { MR_PLAT_MD, MR_PLAT_TSV, MR_PLAT_HTML, MR_PLAT_JSON };

struct mr_plat_opts {
	const char *const *dirs;  /* results directories, one per platform */
	int ndirs;
	const char *expected_dir; /* claims and baselines */
	const char *cases_dir;    /* case binaries (their checkpoints), as
	                             check has it; NULL: not checked */
	enum mr_plat_fmt format;
	FILE *out;
};

/* The format called name ("md", "tsv", "html", "json"), or -1. */
int mr_plat_fmt_parse(const char *name);

/* Write the table to o->out.  Returns MR_OK whatever the verdicts (a
 * table, not a check), MR_USAGE on bad input (a message naming
 * file:line:column, or the two directories of one platform, has been
 * printed on stderr), MR_FAILED when o->out could not be written. */
int mr_platforms(const struct mr_plat_opts *o);

#endif
