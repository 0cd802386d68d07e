/* resume: continuing an interrupted run in its own results directory.
 *
 * A run records in env.tsv's "options" the arguments that shape its
 * results (the matrix, the repeats, the timeouts: not --out, --verbose,
 * -j and the like), and in "cases" the cases it ran.  --resume DIR reads
 * them back as the command line to run again, and refuses when the
 * machine, its allocators or the options differ from what DIR recorded:
 * the results would mix two setups.
 */
#ifndef MR_RESUME_H
#define MR_RESUME_H

#include <stdio.h>

#include "results/write.h"
#include "matrix/envfp.h"
#include "core/util.h"

/* Add one argument to the record b: blanks separate arguments, so a blank
 * inside one is written \s and a backslash \\. */
void mr_resume_record_arg(struct strbuf *b, const char *a);

/* The command line that continues the run in dir by command cmd:
 * "memrepro CMD [--cases=DIR] ARGS... [-- CASE...]" from dir/env.tsv,
 * into *argv (owned, NULL-terminated, each string owned) and *argc.
 * Takes dir's lock first (mr_results_lock: a runner writing dir may be
 * between two of its writes) and stores its fd in *lock, for
 * mr_results_reopen.  Returns 0, or -1 after printing why. */
int mr_resume_argv(const char *dir, const char *cmd, int *lock, char ***argv,
		   int *argc);

/* Check that the environment now (fingerprint now) is the one res's
 * env.tsv recorded, but for the keys that may differ; then add a
 * "resumed.N" key and say on progress how many runs (ndone) had ended.
 * Returns MR_OK, or MR_USAGE / MR_FAILED after saying why. */
int mr_resume_env(struct mr_results *res, int ndone, const struct mr_envfp *now,
		  FILE *progress);

#endif
