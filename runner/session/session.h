/* session: one invocation's runs of the cases, into one results directory.
 *
 * The cases (selected by name, or all), each under its matrix of configs,
 * every repeat: repeats outermost, so that slow drift of the machine falls
 * on every config alike.  With -j, first the runs whose times nothing
 * compares, side by side in workers, then the timed ones alone (plan.h);
 * with --shard K/N only this shard's (case, config) pairs; with --resume
 * only the runs the interrupted run had not ended (resume.h).  Progress
 * goes to the terminal (term.h); a failed run's log tail with it.
 */
#ifndef MR_SESSION_H
#define MR_SESSION_H

#include <stdio.h>

#include "matrix/alloc.h"
#include "matrix/matrix.h"

struct mr_casetab;

/* A run's timeout when neither --timeout nor the case sets one. */
#define MR_SESSION_DEFAULT_TIMEOUT_S 60

struct mr_cmdcase;

/* What the command line says a session does.  Borrowed: the session owns
 * none of it. */
struct mr_session_opts {
	const char *cmd;          /* the command, named in the resume hint */
	const char *cases_dir;
	const char *expected_dir; /* claims and baselines: the plans' input */
	const char *self_exe;     /* the runner, for the allocator probe */
	const char *const *names; /* the cases to run; nnames 0: all */
	int nnames;
	const struct mr_matrix_axis *axes; /* --axis */
	int nax;
	int quick;                /* the quick profile */
	int versions;             /* the versions profile (matrix/versions.h) */
	int originals;            /* the originals profile (session/configs.h) */
	long repeat;              /* runs per config */
	const char *out;          /* results directory; NULL: a new default */
	double timeout_s;         /* --timeout; 0: the case's, else the default */
	double factor;            /* --timeout-factor */
	long interval_ms;         /* sampling interval */
	int verbose, quiet;
	long mem_cap_mib;         /* --mem-cap, 0: none */
	const char *resume;       /* --resume: out is that directory */
	int resume_lock;          /* its lock's fd (mr_resume_argv), or -1;
	                             taken over by the session */
	int shard_k, shard_n;     /* --shard K/N; 0/0: none */
	long jobs;                /* runs at once */
	int aslr;                 /* leave the cases' layout random */
	const char *record;       /* env.tsv's "options" (resume.h) */
	struct mr_casetab *tab;   /* the command's table of descriptions and
	                             claims over cases_dir and expected_dir
	                             (check/casetab.h): the session enters the
	                             cases it describes and hands them over
	                             (mr_casetab_keep); required */
	FILE *progress;           /* where progress goes */
	/* After the runs, before the results are closed: the command's own
	 * step (check, bless, report) over the results directory and the
	 * names of the cases run.  Returns its status.  NULL: none. */
	int (*then)(void *ctx, const char *dir, const char *const *names);
	void *ctx;
	const struct mr_cmdcase *command; /* a command's session (matrix/cmdcase.h),
	                                     or NULL: the cases' */
};

/* Run the session o describes.  Returns MR_OK, MR_FAILED (a run or the
 * then step failed), MR_USAGE (bad input, printed) or 128 + the signal
 * that interrupted it.  Prints "results: DIR" once the directory is made. */
int mr_session_run(const struct mr_session_opts *o);

#endif
