/* sessint: what the files of a session share (session.c, sidebyside.c);
 * not for use outside them. */
#ifndef MR_SESSINT_H
#define MR_SESSINT_H

#include <stdint.h>
#include <stdio.h>

#include "proto/cases.h"
#include "results/write.h"
#include "matrix/alloc.h"
#include "matrix/origtab.h"
#include "session/schedule.h"
#include "proc/spawn.h"
#include "session/term.h"

struct mr_session_opts;

/* The state shared by the runs of one invocation. */
struct session {
	const struct mr_session_opts *o;
	struct mr_casetab *tab;     /* o->tab, or one of the session's own */
	struct mr_results res;
	struct mr_alloc_tab allocs; /* one per allocator the configs name */
	struct mr_origtab origs;    /* the runtimes and originals they name */
	FILE *progress;
	struct mr_term term; /* the progress line or lines */
	int failed;       /* some run failed */
	int interrupted;
	struct mr_results_done done; /* --resume: the runs that had ended */
	unsigned char **skip; /* --shard: skip[i][k] when config k of case i
	                         is another shard's; NULL: run every pair */
	unsigned char **timed; /* -j: timed[i][k] when the times of config k
	                          of case i are compared (schedule.h); NULL:
	                          one run at a time */
	uint64_t **peak;  /* -j: peak[i][k] the expected peak in kB of config
	                     k of case i, from the baseline or the largest
	                     measured so far; 0: unknown (plan.h) */
	uint64_t avail_kb; /* -j: the memory runs may take together; 0: no gate */
	struct mr_machine machine; /* the machine's settings as env.tsv says */
};

/* One run: what it needs, and when it ran. */
struct job {
	const struct mr_cases_desc *c;
	const struct mr_matrix_cfg *cf;
	int repeat;
	char *log, *abs;         /* relative to the results, and not */
	char **extra, **env, **argv; /* extra: the config's variables, NULL-terminated */
	struct mr_spawn_req rq;
	struct mr_sched_worker w; /* -j: the worker running it */
	uint64_t *peak, *casepk; /* -j: its config's expected peak, its case's
	                            configs' (ncfg); NULL: none */
	int ncfg;
	uint64_t want_kb;        /* -j: its expected peak when it started */
	char waited[160];        /* why it waited to start; "": it did not */
	uint64_t t0, t1;         /* monotonic ns: started, ended (0: running) */
	int window;              /* its load matters (proc/machine.h) */
};

/* Free what run j holds, and clear it. */
void mr_sess_job_free(struct job *j);

/* Get run j (c, cf and repeat set) ready to start.  Returns 0; 1 when its
 * allocator is missing (the run is recorded as skipped: nothing to start);
 * -1 to stop (the runner failed). */
int mr_sess_job_prepare(struct session *s, struct job *j);

/* Record how run j went: rc and res from mr_spawn_run, overlap the runs
 * beside it.  Frees res.  Returns 0, or -1 to stop (the runner itself
 * failed, or an interrupt). */
int mr_sess_job_record(struct session *s, struct job *j, int rc,
		       struct mr_spawn_res *res, int overlap);

/* Run v[0..n-1] up to s->o->jobs at once, each in a worker.  On an
 * interrupt or a failure of the runner, starts no more, stops the running
 * ones and records what they got.  Returns 0, or -1 to stop. */
int mr_sess_side_by_side(struct session *s, struct job *v, int n);

#endif
