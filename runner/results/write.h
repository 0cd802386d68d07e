/* write: the results directory (docs/formats.md, "Results directory").
 *
 * env.tsv, runs.tsv, checkpoints.tsv and series.tsv, each with its header
 * row, plus logs/<case>/<config>.<repeat>.log.  A run's rows are written
 * together and flushed when the run ends, so a crash or an interrupt of
 * the runner never leaves half a row and never loses a finished run.
 * write.c creates and appends, reopen.c reopens an interrupted run's
 * directory for --resume (mr_results_reopen, mr_results_done_*,
 * mr_results_read_env); the lock is results/lock.h's.
 */
#ifndef MR_WRITE_H
#define MR_WRITE_H

#include <stdio.h>

#include "results/lock.h"
#include "matrix/envfp.h"
#include "proc/spawn.h"

struct mr_results {
	char *dir;      /* owned */
	int lock;       /* fd of dir/MR_RESULTS_LOCK holding its flock, or -1 */
	FILE *env;
	FILE *runs;
	FILE *ckpts;
	FILE *series;
};

/* One finished (or skipped) run, as runs.tsv shows it. */
struct mr_results_run {
	const char *casename;
	const char *config;    /* canonical */
	int repeat;            /* 1..N */
	enum mr_outcome outcome; /* written as its word (mr_outcomes) */
	const char *detail;    /* "-" when none */
	const struct mr_spawn_res *res; /* NULL: never started (skipped) */
	const char *log;       /* relative to the directory, or "-" */
	int overlap;           /* other runs alive at some time during this
	                          one (-j); 0: it ran alone */
	const char *waited;    /* why it waited to start (-j: memory), NULL
	                          or "-": it did not */
};

/* The default directory name: "results/<YYYYmmdd-HHMMSS>", with "-2",
 * "-3"... appended when that exists already.  Owned. */
char *mr_results_default_dir(void);

/* Refuse a filesystem with less than 32 MiB free where dir is (or its
 * nearest existing parent, when it is still to be made): one run's log
 * alone may take MR_SPAWN_LOG_MAX.  0, or -1 with a message printed. */
int mr_results_space(const char *dir);

/* Create dir (and parents) and its files with their header rows, holding
 * its lock (mr_results_lock) until mr_results_close.  An existing dir
 * with anything but the lock file in it is refused.  Returns 0, or -1
 * with a message printed (not writable, not empty, being written, ...). */
int mr_results_open(struct mr_results *r, const char *dir);

/* The runs a results directory already has, for run --resume: sorted
 * "case<TAB>config<TAB>repeat" keys. */
struct mr_results_done {
	char **key;  /* owned */
	int n;
};

/* Reopen dir, written by an interrupted run, to continue it; lock: what
 * mr_results_lock(dir) returned, owned by r from now on (closed by
 * mr_results_close, and on failure).  Its TSV
 * headers must be the ones this runner writes.  Repairs what an
 * interruption can leave: a last line without its newline (a runner killed
 * outright in the middle of a write) is cut off, and the checkpoint and
 * series rows of a run that has no runs.tsv row (the run in progress: it
 * will be run again) are dropped.  Fills done with the runs that ended.
 * The directory may come from elsewhere: its files are read and appended
 * to through safeio.h (a symbolic link or anything but a regular file is
 * refused, never followed).  Returns 0, or -1 with a message printed. */
int mr_results_reopen(struct mr_results *r, const char *dir, int lock,
		      struct mr_results_done *done);

/* Non-zero when done has the run. */
int mr_results_done_has(const struct mr_results_done *done, const char *casename,
			const char *config, int repeat);
void mr_results_done_free(struct mr_results_done *done);

/* Read dir/env.tsv into fp (every key and value, in order; through
 * safeio.h).  Returns 0, or -1 with a message printed. */
int mr_results_read_env(const char *dir, struct mr_envfp *fp);

/* Append one key to env.tsv (a resume, say).  0 or -1 (printed). */
int mr_results_env_add(struct mr_results *r, const char *key, const char *val);

/* Write env.tsv.  Returns 0 or -1 (message printed). */
int mr_results_env(struct mr_results *r, const struct mr_envfp *fp);

/* The log path of a run relative to the directory
 * ("logs/<case>/<safe>.<repeat>.log"), creating logs/<case>/ (each a real
 * directory, not a symbolic link) and removing whatever is at the log's
 * place, so that the log is created afresh.  Owned; NULL with a message
 * printed when that cannot be done. */
char *mr_results_log(struct mr_results *r, const char *casename,
		     const char *safe, int repeat);

/* Append the run's rows to runs.tsv, checkpoints.tsv and series.tsv and
 * flush them.  Returns 0 or -1 (a write failed; message printed). */
int mr_results_add(struct mr_results *r, const struct mr_results_run *run);

/* Close every file and release the lock; returns 0 or -1 when a final
 * flush failed. */
int mr_results_close(struct mr_results *r);

/* One progress line for a run:
 * "fiber-stacks madvise=free #1/3 ok 0.61 s rss@cleared 74.2 MiB". */
void mr_results_progress(FILE *out, const struct mr_results_run *run,
			 const char *shortc, int nrepeat);

#endif
