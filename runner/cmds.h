/* cmds: the handlers of the command line's commands, one per entry of
 * main.c's table.  Each takes the parsed options and the paths, does the
 * command's work through the folder of its step and returns the exit
 * status: MR_OK, MR_FAILED (1), MR_USAGE (2), or 128 + a signal.
 * cmdcases.c: list, describe; cmdrun.c: the commands that run cases (run,
 * check, bless, report); cmdread.c: those that read results directories
 * or the release cache (compare, trend, export, corpus, merge, platforms,
 * versions, fetch).
 */
#ifndef MR_CMDS_H
#define MR_CMDS_H

#include "args.h"
#include "matrix/cmdcase.h"

int mr_cmd_list(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_describe(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_run(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_check(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_bless(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_report(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_compare(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_trend(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_export(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_merge(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_corpus(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_versions(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_fetch(const struct mr_args *o, const struct mr_paths *p);
int mr_cmd_platforms(const struct mr_args *o, const struct mr_paths *p);
/* cmdnew.c: a case's skeleton from the templates (etc/new/): NAME's
 * files in --cases (default ./cases) and --expected (default ./expected),
 * none overwritten.  MR_OK, or MR_USAGE after naming what was wrong. */
int mr_cmd_new(const struct mr_args *o, const struct mr_paths *p);

/* Non-zero when p is a directory (stat, links followed). */
int mr_cmd_is_dir(const char *p);

/* run -- CMD (cmdcommand.c, matrix/cmdcase.h): the command's case made from
 * o (MR_OK, or MR_USAGE after printing why), and the step after its runs
 * (the summary, the report, and with --claims or --expected the gate:
 * the claims and baseline judged as check judges them, over tab, the
 * session's table).  Returns MR_OK, MR_FAILED (the gate failed) or
 * MR_USAGE (the results or the claims could not be read). */
struct mr_casetab;
int mr_cmd_command_init(const struct mr_args *o, struct mr_cmdcase *cc);
int mr_cmd_command_then(const struct mr_args *o, const struct mr_paths *p, const char *dir,
			const char *name, struct mr_casetab *tab);

#endif
