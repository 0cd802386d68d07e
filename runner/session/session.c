/* session: one invocation's runs of the cases — see session.h. */
#include "session/session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/baseline.h"
#include "check/casetab.h"
#include "core/safeio.h"
#include "proto/cases.h"
#include "proto/schema.h"
#include "results/write.h"
#include "matrix/allocconf.h"
#include "matrix/allocrel.h"
#include "proc/cgroup.h"
#include "proc/scratch.h"
#include "matrix/cmdcase.h"
#include "session/configs.h"
#include "matrix/envfp.h"
#include "matrix/libc.h"
#include "matrix/muslbuild.h"
#include "matrix/origtab.h"
#include "session/plan.h"
#include "matrix/registry.h"
#include "session/resume.h"
#include "session/schedule.h"
#include "session/sessint.h"
#include "matrix/select.h"
#include "proc/spawn.h"
#include "session/term.h"
#include "core/util.h"

/* Timeouts are capped (a month) so that deadlines in ns cannot overflow. */
#define MAX_TIMEOUT_S (30 * 86400)
/* Lines of a failed run's log shown on the terminal. */
#define LOG_TAIL 10

static long
timeout_ms(const struct mr_session_opts *o, const struct mr_cases_desc *c)
{
	double s = o->timeout_s > 0 ? o->timeout_s :
		   c->timeout_s ? (double)c->timeout_s : MR_SESSION_DEFAULT_TIMEOUT_S;

	s *= o->factor;
	if (s > MAX_TIMEOUT_S)
		s = MAX_TIMEOUT_S;
	return s * 1000 < 1 ? 1 : (long)(s * 1000);
}

void
mr_sess_job_free(struct job *j)
{
	int i;

	mr_matrix_argv_free(j->argv);
	mr_spawn_env_free(j->env);
	for (i = 0; j->extra && j->extra[i]; i++)
		free(j->extra[i]);
	free(j->extra);
	free(j->abs);
	free(j->log);
	memset(j, 0, sizeof *j);
}

/* How many runs config cf gets: --repeat, but one for an original in the
 * quick profile (its interpreter makes each run 0.5-2 s where a model's
 * takes 0.1; the originals' claims are judged on one run, as the corpus
 * measures them). */
static long
repeats_of(const struct session *s, const struct mr_matrix_cfg *cf)
{
	return s->o->quick && cf->runtime ? 1 : s->o->repeat;
}

/* The musl build of j's case (muslbuild.h), for allocator=musl: a fresh
 * path in *bin and NULL, or the fresh reason it cannot run. */
static char *
musl_bin(const struct job *j, const struct mr_libc *l, int command, char **bin)
{
	char *why;

	if (j->cf->runtime || command)
		return esprintf("allocator=%s runs the C cases' musl builds; %s is not one",
				j->cf->allocator, j->c->name);
	if (l && !l->host)
		return esprintf("allocator=%s is musl's libc: it runs with no glibc (libc=%s)",
				j->cf->allocator, j->cf->libc);
	*bin = mr_musl_case_path(j->c, &why);
	return why;
}

/* Get run j (c, cf and repeat set) ready to start.  Returns 0; 1 when its
 * allocator is missing (the run is recorded as skipped: nothing to start);
 * -1 to stop (the runner failed). */
int
mr_sess_job_prepare(struct session *s, struct job *j)
{
	const struct mr_session_opts *o = s->o;
	const struct mr_alloc *a = mr_alloc_find(&s->allocs, j->cf->allocator);
	const struct mr_libc *l = j->cf->libc ? mr_libc_find(j->cf->libc) : NULL;
	char *need = mr_allocrel_skip(a, l, o->self_exe), *orig = NULL, **oargv = NULL, *mbin = NULL;
	char *oenv[MR_ORIGTAB_ENV];
	const char *skip = a->missing ? a->missing : l && l->missing ? l->missing : need;
	int nx = 0, noenv = 0, i;

	if (a->entry && a->entry->build_musl && !skip)
		skip = orig = musl_bin(j, l, o->command != NULL, &mbin);
	if (j->cf->runtime && !skip)
		skip = orig = mr_origtab_job(&s->origs, j->c, j->cf, l, a->preload ? a->path : NULL,
					     &oargv, oenv, &noenv);
	if (skip) {
		struct mr_results_run row = { j->c->name, j->cf->canon, j->repeat,
					      MR_OUTCOME_SKIPPED, skip, NULL, "-", 0,
					      j->waited[0] ? j->waited : NULL };
		int rc = mr_results_add(&s->res, &row);

		mr_term_start(&s->term, j->c->name, j->cf->shortc, j->repeat, (int)repeats_of(s, j->cf));
		mr_term_end(&s->term, &row, j->cf->shortc, (int)repeats_of(s, j->cf));
		free(need);
		free(orig);
		return rc < 0 ? -1 : 1;
	}
	j->log = mr_results_log(&s->res, j->c->name, j->cf->safe, j->repeat);
	if (!j->log)
		return -1;
	j->abs = esprintf("%s/%s", s->res.dir, j->log);
	for (i = 0; j->cf->optenv && j->cf->optenv[i]; i++)
		;
	j->extra = ecalloc((size_t)i + 6 + MR_ORIGTAB_ENV, sizeof *j->extra);
	for (i = 0; i < noenv; i++)
		j->extra[nx++] = oenv[i];
	if (a->preload)
		j->extra[nx++] = esprintf("LD_PRELOAD=%s", a->path);
	if (j->cf->tunables)
		j->extra[nx++] = esprintf("GLIBC_TUNABLES=%s", j->cf->tunables);
	for (i = 0; j->cf->optenv && j->cf->optenv[i]; i++)
		j->extra[nx++] = estrdup(j->cf->optenv[i]);
	j->argv = oargv ? oargv : o->command ? mr_cmdcase_argv(o->command) : /* matrix/cmdcase.h */
		  mr_matrix_argv(j->c, j->cf);
	if (mbin) {
		free(j->argv[0]);
		j->argv[0] = mbin;
	}
	if (l && !l->host && !oargv) {
		char **argv = mr_libc_argv(l, j->argv, a->preload ? a->path : NULL,
					   &j->extra[nx]);

		nx += 3;
		mr_matrix_argv_free(j->argv);
		j->argv = argv;
	}
	j->env = mr_spawn_env((const char *const *)j->extra);
	if (o->verbose) {
		mr_term_clear(&s->term);
		fprintf(s->progress, "# exec:");
		for (i = 0; i < nx; i++)
			fprintf(s->progress, " %s", j->extra[i]);
		for (i = 0; j->argv[i]; i++)
			fprintf(s->progress, " %s", j->argv[i]);
		fprintf(s->progress, " > %s 2>&1\n", j->log);
	}
	j->rq.c = j->c;
	j->rq.argv = j->argv;
	j->rq.envp = j->env;
	j->rq.log_path = j->abs;
	j->rq.timeout_ms = timeout_ms(o, j->c);
	j->rq.interval_ms = (int)o->interval_ms;
	j->rq.tick = mr_term_tick;
	j->rq.tick_ctx = &s->term;
	j->rq.cap_kb = (uint64_t)o->mem_cap_mib * 1024;
	j->rq.pressure_kb = (uint64_t)j->cf->pressure_mib * 1024;
	j->rq.machine = &s->machine;
	j->rq.marks = o->command ? &o->command->marks : NULL; /* proc/marks.h */
	j->rq.window = j->window;
	mr_term_start(&s->term, j->c->name, j->cf->shortc, j->repeat, (int)repeats_of(s, j->cf));
	return 0;
}

/* Keep the largest peak a run of j's config measured (its RSS
 * high-water mark, its tree's, its cgroup's charge), for the next runs'
 * plan (-j). */
static void
job_learn(const struct job *j, const struct mr_spawn_res *res)
{
	uint64_t kb = res->maxrss_kb;

	if (!j->peak)
		return;
	if (res->peak_tree_rss_kb > kb)
		kb = res->peak_tree_rss_kb;
	if (res->cgroup_peak_kb != MR_NOT_MEASURED && res->cgroup_peak_kb > kb)
		kb = res->cgroup_peak_kb;
	if (kb > *j->peak)
		*j->peak = kb;
}

/* Record how run j went: rc and res from mr_spawn_run, overlap the runs
 * beside it.  Frees res.  Returns 0, or -1 to stop (the runner itself
 * failed, or an interrupt). */
int
mr_sess_job_record(struct session *s, struct job *j, int rc, struct mr_spawn_res *res,
	   int overlap)
{
	struct mr_results_run row = { j->c->name, j->cf->canon, j->repeat,
				      MR_OUTCOME_SKIPPED, NULL, NULL, "-", overlap,
				      j->waited[0] ? j->waited : NULL };
	char detail[512];

	if (rc == 0)
		job_learn(j, res);
	if (rc == -ENOTSUP) {
		/* a pressure config where no memory cgroup can be made */
		snprintf(detail, sizeof detail, "pressure=%ld needs a memory cgroup: %s",
			 j->cf->pressure_mib, res->cgroup_why);
		row.detail = detail;
		rc = mr_results_add(&s->res, &row);
		mr_term_end(&s->term, &row, j->cf->shortc, (int)repeats_of(s, j->cf));
	} else if (rc == 0) {
		row.outcome = mr_spawn_describe(res, j->rq.timeout_ms, j->abs, detail,
						sizeof detail);
		row.detail = detail;
		row.res = res;
		row.log = j->log;
		rc = mr_results_add(&s->res, &row);
		mr_term_end(&s->term, &row, j->cf->shortc, (int)repeats_of(s, j->cf));
		if (mr_term_failing(row.outcome)) {
			s->failed = 1;
			mr_sio_print_tail(s->progress, j->abs, LOG_TAIL, "# ");
		}
		if (res->log_errno) {
			/* the results' disk is full, or gone: going on would
			 * lose the next runs' rows too */
			errno = res->log_errno;
			weprintf("write %s: stopping, the runs that ended are in %s:",
				 j->abs, s->res.dir);
			rc = -1;
		}
	} else if (rc == -EINTR) {
		s->interrupted = 1;
	}
	mr_spawn_res_free(res);
	return rc < 0 ? -1 : 0;
}

/* One run of case c under config cf, alone.  Returns 0, or -1 to stop. */
static int
run_one(struct session *s, const struct mr_cases_desc *c,
	const struct mr_matrix_cfg *cf, int repeat, int window)
{
	struct job j = { 0 };
	struct mr_spawn_res res;
	int rc;

	j.c = c;
	j.cf = cf;
	j.repeat = repeat;
	j.window = window;
	rc = mr_sess_job_prepare(s, &j);

	if (rc == 0)
		rc = mr_sess_job_record(s, &j, mr_spawn_run(&j.rq, &res), &res, 0);
	mr_sess_job_free(&j);
	return rc < 0 ? -1 : 0;
}

/* Whether repeat r of config k of case i (c, m) is to run: within its
 * repeats, not skipped before the runs, not done by an earlier session
 * (--resume). */
static int
due(const struct session *s, const struct mr_cases_desc *c, const struct mr_matrix *m,
    int i, int k, int r)
{
	return r <= repeats_of(s, &m->cfg[k]) && !(s->skip && s->skip[i][k]) &&
	       !mr_results_done_has(&s->done, c->name, m->cfg[k].canon, r);
}

/* Run every case, repeats outermost so that slow drift of the machine
 * falls on every config alike.  With -j, first the runs whose times are
 * not compared, side by side, then the timed ones alone.  Returns MR_OK,
 * MR_FAILED or 130. */
static int
run_all(struct session *s, struct mr_cases_desc *cases, int ncases,
	struct mr_matrix *mats)
{
	struct job *side = NULL;
	int i, r, k, total = 0, nside = 0, pass, window;
	int side_by_side = s->timed && s->o->jobs > 1;

	for (i = 0; i < ncases; i++)
		for (r = 1; r <= s->o->repeat; r++)
			for (k = 0; k < mats[i].n; k++)
				total += due(s, &cases[i], &mats[i], i, k, r);
	mr_term_init(&s->term, s->progress, total, s->o->quiet);
	if (side_by_side)
		side = ecalloc((size_t)total + 1, sizeof *side);
	/* pass 0 gathers the runs that may share the machine, pass 1 runs
	 * the others alone (every run, without -j) */
	for (pass = side_by_side ? 0 : 1; pass < 2; pass++) {
		if (pass == 1 && nside) {
			int rc = mr_sess_side_by_side(s, side, nside);

			nside = 0;
			if (rc < 0 || mr_spawn_interrupted)
				goto stop;
		}
		for (i = 0; i < ncases; i++)
			for (r = 1; r <= s->o->repeat; r++)
				for (k = 0; k < mats[i].n; k++) {
					const struct mr_matrix_cfg *cf = &mats[i].cfg[k];

					if (mr_spawn_interrupted)
						goto stop;
					if (!due(s, &cases[i], &mats[i], i, k, r))
						continue;
					/* a run whose load matters is watched
					 * over a window (proc/machine.h) */
					window = (s->timed && s->timed[i][k]) || mr_bl_clocks(cf->canon);
					if (pass == 0 && !s->timed[i][k]) {
						side[nside].window = window;
						side[nside].c = &cases[i];
						side[nside].cf = cf;
						side[nside].peak = &s->peak[i][k];
						side[nside].casepk = s->peak[i];
						side[nside].ncfg = mats[i].n;
						side[nside++].repeat = r;
					} else if (pass == 1 && (!side_by_side || s->timed[i][k]) &&
						   run_one(s, &cases[i], cf, r, window) < 0) {
						goto stop;
					}
				}
	}
	free(side);
	mr_term_finish(&s->term);
	return s->failed ? MR_FAILED : MR_OK;
stop:
	free(side);
	mr_term_clear(&s->term);
	if (s->interrupted || mr_spawn_interrupted) {
		int sig = mr_spawn_interrupted ? (int)mr_spawn_interrupted : SIGINT;
		const char *abbrev = sigabbrev_np(sig);

		if (s->o->command) /* run -- CMD: no --resume (matrix/cmdcase.h) */
			weprintf("interrupted by SIG%s: the runs that ended are in %s",
				 abbrev ? abbrev : "?", s->res.dir);
		else
			weprintf("interrupted by SIG%s: the runs that ended are in %s; continue them with: memrepro %s --resume %s",
				 abbrev ? abbrev : "?", s->res.dir, s->o->cmd, s->res.dir);
		return 128 + sig;
	}
	return MR_FAILED;
}

/* The keys env.tsv adds for the run itself: what --resume needs to run
 * it on, and the memory cgroup the runs went to. */
static void
run_env_keys(struct mr_envfp *fp, const struct mr_session_opts *o, const char *cases_dir,
	     const struct mr_cases_desc *cases, int ncases)
{
	const char *parent, *why;
	char *abs = realpath(cases_dir, NULL), buf[32], aslr[128];
	int v = mr_cgroup_probe(&parent, &why), i;
	struct strbuf names = { 0 };

	mr_envfp_add(fp, MR_ENVK_OPTIONS, o->record ? o->record : "");
	for (i = 0; i < ncases; i++)
		sb_printf(&names, "%s%s", i ? " " : "", cases[i].name);
	mr_envfp_add(fp, MR_ENVK_CASES, names.s ? names.s : "");
	sb_free(&names);
	mr_envfp_add(fp, MR_ENVK_CASES_DIR, abs ? abs : cases_dir);
	free(abs);
	snprintf(buf, sizeof buf, "%ld", o->jobs);
	mr_envfp_add(fp, MR_ENVK_JOBS, buf);
	mr_envfp_add(fp, MR_ENVK_OTHER_CPU, MR_OTHER_CPU_BOARD);
	/* where a mapping lands decides whether THP backs it, or whether an
	 * allocator's 2 MiB alignment costs it a page more: thread-vsz
	 * (glibc, THP always) kept 13.3 or 15.3 MiB at "created" with ASLR,
	 * 13.30-13.32 MiB without, over 6 runs each (setarch -R) */
	if (mr_spawn_aslr(o->aslr, aslr, sizeof aslr) < 0 && !o->aslr)
		weprintf("address space randomization stays %s: figures that depend on where a mapping lands vary more",
			 aslr);
	mr_envfp_add(fp, MR_ENVK_ASLR, aslr);
	snprintf(buf, sizeof buf, "%ld", o->mem_cap_mib);
	mr_envfp_add(fp, MR_ENVK_MEM_CAP_MIB, o->mem_cap_mib ? buf : "-");
	mr_envfp_add(fp, MR_ENVK_MEMORY_CGROUP, v == 2 ? "v2" : v == 1 ? "v1" : "none");
	mr_envfp_add(fp, v ? MR_ENVK_MEMORY_CGROUP_ "parent" : MR_ENVK_MEMORY_CGROUP_ "why", v ? parent : why);
	/* the variable each allocator option axis reaches the case in */
	for (i = 0; i < o->nax; i++) {
		char *var = mr_matrix_option_variable(o->axes[i].key), *key;

		if (!var)
			continue;
		key = esprintf("option.%s", o->axes[i].key);
		mr_envfp_add(fp, key, var);
		free(key);
		free(var);
	}
	/* how the runs' trees were killed: through cgroup.kill, or top down */
	mr_envfp_add(fp, MR_ENVK_KILL_CGROUP_ "parent", mr_cgroup_kill_parent() ? mr_cgroup_kill_parent() : "-");
}

/* The results directory: new, or the one --resume continues (with the
 * runs that had ended in s->done).  Returns MR_OK or MR_USAGE (printed). */
static int
session_open(struct session *s)
{
	const struct mr_session_opts *o = s->o;
	char *outdir = o->out ? estrdup(o->out) : mr_results_default_dir();
	int rc = o->resume ? mr_results_reopen(&s->res, outdir, o->resume_lock, &s->done) :
			     mr_results_open(&s->res, outdir);

	free(outdir);
	return rc < 0 ? MR_USAGE : MR_OK;
}

/* -j: the expected peaks (plan.h) and the memory available to them. */
static int
session_mem_plan(struct session *s, const struct mr_cases_desc *cases, int ncases,
		 const struct mr_matrix *mats, const char *platform)
{
	long long kb;
	int rc = mr_plan_peaks(cases, ncases, mats, s->tab, platform, &s->peak);

	if (rc != MR_OK)
		return rc;
	kb = mr_sched_mem_available();
	if (kb < 0)
		return MR_USAGE;
	s->avail_kb = (uint64_t)kb;
	return MR_OK;
}

/* The environment fingerprint and the plans, then env.tsv written (or, on
 * --resume, checked against the recorded one).  Returns MR_OK, MR_USAGE
 * or MR_FAILED (printed). */
static int
session_env(struct session *s, const struct mr_cases_desc *cases, int ncases,
	    const struct mr_matrix *mats)
{
	const struct mr_session_opts *o = s->o;
	struct mr_envfp fp;
	struct mr_envfp_run er;
	int i, rc = MR_OK;

	/* a kernels run records the quick profile its guests run (run/guestrun.c) */
	er.profile = mr_profiles[mr_profile_of(o->quick, o->versions, o->originals, 0)];
	er.repeat = (int)o->repeat;
	er.interval_ms = (int)o->interval_ms;
	er.timeout_s = (o->timeout_s > 0 ? o->timeout_s : MR_SESSION_DEFAULT_TIMEOUT_S) *
		       o->factor;
	mr_machine_read(&s->machine);
	mr_envfp_collect(&fp, &er, &s->allocs, &s->machine);
	mr_origtab_env(&s->origs, &fp);
	run_env_keys(&fp, o, o->cases_dir, cases, ncases);
	if (o->shard_n)
		rc = mr_plan_shard(cases, ncases, mats, s->tab, o->shard_k,
				   o->shard_n, &fp, &s->skip);
	/* without -j the plan only decides which runs are watched longer
	 * (proc/machine.h): a baseline it cannot read stops nothing */
	if (rc == MR_OK &&
	    (rc = mr_plan_timed(cases, ncases, mats, s->tab, mr_envfp_get(&fp, MR_ENVK_PLATFORM),
				&s->timed)) != MR_OK &&
	    o->jobs <= 1)
		rc = MR_OK;
	if (rc == MR_OK && o->jobs > 1)
		rc = session_mem_plan(s, cases, ncases, mats, mr_envfp_get(&fp, MR_ENVK_PLATFORM));
	if (rc == MR_OK && o->verbose)
		for (i = 0; i < fp.n; i++)
			fprintf(s->progress, "# %s: %s\n", fp.key[i], fp.val[i]);
	if (rc != MR_OK)
		;
	else if (o->resume)
		rc = mr_resume_env(&s->res, s->done.n, &fp, s->progress);
	else if (mr_results_env(&s->res, &fp) < 0)
		rc = MR_FAILED;
	mr_envfp_free(&fp);
	return rc;
}

/* The command's own step over the results (o->then).  Returns rc, made
 * MR_USAGE or MR_FAILED by what the step returned. */
static int
session_then(const struct session *s, const struct mr_cases_desc *cases,
	     int ncases, int rc)
{
	const char **names;
	int i, crc;

	if (!s->o->then)
		return rc;
	names = ecalloc((size_t)ncases + 1, sizeof *names);
	for (i = 0; i < ncases; i++)
		names[i] = cases[i].name;
	crc = s->o->then(s->o->ctx, s->res.dir, names);
	free(names);
	if (crc == MR_USAGE)
		return MR_USAGE;
	return crc != MR_OK ? MR_FAILED : rc;
}

/* The allocators the configs name, in the order they first appear,
 * found and probed. */
static void
session_allocs(struct session *s, const struct mr_matrix *mats, int nmats)
{
	const char **specs = NULL;
	int n = 0, i, k;

	for (i = 0; i < nmats; i++) {
		specs = erealloc(specs, (size_t)(n + mats[i].n + 1) * sizeof *specs);
		for (k = 0; k < mats[i].n; k++)
			specs[n++] = mats[i].cfg[k].allocator;
	}
	mr_alloc_resolve(&s->allocs, mr_registry_current(), specs, n, s->o->self_exe);
	free(specs);
}

/* The allocators' options, asked of each allocator before anything runs
 * (matrix/allocconf.h).  MR_OK, or MR_USAGE after saying which it
 * refused. */
static int
session_conf(struct session *s, const struct mr_matrix *mats, int nmats)
{
	struct strbuf err = { 0 };
	int rc = mr_allocconf_check(&s->allocs, mats, nmats, s->o->axes, s->o->nax,
				    s->o->self_exe, &err);

	if (rc < 0)
		weprintf("%s", err.s);
	sb_free(&err);
	return rc < 0 ? MR_USAGE : MR_OK;
}

int
mr_session_run(const struct mr_session_opts *o)
{
	struct session s = { 0 };
	struct mr_cases_desc *cases = NULL;
	struct mr_matrix *mats = NULL;
	int ncases, i, rc, built = 0;

	s.o = o;
	s.progress = o->progress;
	s.tab = o->tab;
	rc = mr_configs_build(&(struct mr_configs_opts){ .cases_dir = o->cases_dir,
		.names = o->names, .nnames = o->nnames, .axes = o->axes, .nax = o->nax,
		.quick = o->quick, .versions = o->versions, .originals = o->originals,
		.expected_dir = o->expected_dir, .command = o->command, .self_exe = o->self_exe,
		.tab = s.tab },
		&cases, &ncases, &mats, &built) < 0 ? MR_USAGE :
	     mr_origtab_prepare(&s.origs, cases, built, mats) < 0 ? MR_USAGE : MR_OK;
	if (rc == MR_OK) {
		/* the allocators found and their options taken before the
		 * results directory is made: a refusal leaves nothing behind */
		session_allocs(&s, mats, built);
		if ((rc = session_conf(&s, mats, built)) == MR_OK)
			rc = session_open(&s);
		if (rc != MR_OK)
			mr_alloc_free(&s.allocs);
	}
	if (rc == MR_OK) {
		/* what runners killed outright (SIGKILL) could not clean up */
		mr_cgroup_sweep();
		mr_scratch_sweep();
		rc = session_env(&s, cases, ncases, mats);
		if (rc == MR_OK)
			rc = run_all(&s, cases, ncases, mats);
		fprintf(s.progress, "results: %s\n", s.res.dir);
		fflush(s.progress);
		if (rc == MR_OK || rc == MR_FAILED)
			rc = session_then(&s, cases, ncases, rc);
		if (mr_results_close(&s.res) < 0 && rc == MR_OK)
			rc = MR_FAILED;
		mr_results_done_free(&s.done);
		mr_alloc_free(&s.allocs);
		mr_plan_free(s.skip, ncases);
		mr_plan_free(s.timed, ncases);
		mr_plan_peaks_free(s.peak, ncases);
	}
	mr_origtab_free(&s.origs);
	for (i = 0; i < built; i++)
		mr_matrix_free(&mats[i]);
	free(mats);
	mr_allocrel_free();
	mr_libc_free_all();
	if (cases) /* entered in the command's table: its to free */
		mr_casetab_keep(o->tab, cases, ncases);
	/* interrupted before the results directory was made (a case's
	 * --describe, a fetch): nothing to resume, the status names the
	 * signal as after the runs */
	if (rc == MR_USAGE && mr_spawn_interrupted)
		rc = 128 + (int)mr_spawn_interrupted;
	return rc;
}
