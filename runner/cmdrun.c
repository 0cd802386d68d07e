/* cmdrun: the commands that run cases (run, check, bless) or report on
 * their results (report) — see cmds.h.  A session runs the cases
 * (session/session.h), then the command's step goes over the results. */
#include "cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/casetab.h"
#include "check/check.h"
#include "out/bless.h"
#include "out/format.h"
#include "out/report.h"
#include "proto/cases.h"
#include "guest/guest.h"
#include "session/session.h"
#include "session/term.h"
#include "core/util.h"

int
mr_cmd_is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What a command that runs cases hands to its step after the runs. */
struct then {
	const struct mr_args *o;
	const struct mr_paths *p;
	int (*cmp)(const struct mr_check_opts *co); /* check, bless: mr_fmt_check or
	                                             mr_bless */
	const struct mr_cmdcase *command; /* run -- CMD (cmdcommand.c), or NULL */
	struct mr_casetab *tab; /* the session's descriptions and claims, for
	                           the step; NULL: the step reads its own */
};

/* check/bless options over the results in dir. */
static void
cmp_opts(struct mr_check_opts *co, const struct mr_args *o, const struct mr_paths *p,
	 const char *dir, const char *const *names)
{
	memset(co, 0, sizeof *co);
	co->results_dir = dir;
	co->expected_dir = p->expected_dir;
	co->cases_dir = p->cases_dir;
	co->cases = names;
	co->verbose = o->verbose;
	co->out = stdout;
	co->format = o->format;
	co->color = mr_term_color(stdout);
	co->yes = o->yes;
	co->interactive = isatty(0);
}

static int
then_check(void *ctx, const char *dir, const char *const *names)
{
	const struct then *t = ctx;
	struct mr_check_opts co;

	cmp_opts(&co, t->o, t->p, dir, names);
	co.tab = t->tab;
	return t->cmp(&co);
}

static int
report(const struct mr_args *o, const struct mr_paths *p, const char *dir,
       const char *const *names, struct mr_casetab *tab)
{
	struct mr_report_opts ro = { 0 };

	ro.tab = tab;
	ro.results_dir = dir;
	ro.expected_dir = p->expected_dir;
	ro.cases_dir = p->cases_dir;
	ro.plots_dir = o->plots;
	ro.cases = names;
	ro.verbose = o->verbose;
	ro.out = stdout;
	return mr_report(&ro);
}

static int
then_report(void *ctx, const char *dir, const char *const *names)
{
	const struct then *t = ctx;

	return report(t->o, t->p, dir, names, t->tab);
}

/* Run the cases (a session), then step over the results with t (step
 * NULL: none). */
static int
session(struct then *t, int (*step)(void *, const char *, const char *const *))
{
	const struct mr_args *o = t->o;
	const struct mr_paths *p = t->p;
	struct mr_session_opts so = { 0 };
	struct mr_casetab tab; /* each case described, its claims read, once */
	int rc;

	so.cmd = o->cmd->name;
	so.cases_dir = p->cases_dir;
	so.expected_dir = p->expected_dir;
	so.self_exe = p->exe;
	so.names = o->names;
	so.nnames = o->nnames;
	so.axes = o->axes;
	so.nax = o->nax;
	so.quick = o->quick;
	so.versions = o->versions;
	so.originals = o->originals;
	so.repeat = o->repeat;
	so.out = o->out;
	so.timeout_s = o->timeout_s;
	so.factor = o->factor;
	so.interval_ms = o->interval_ms;
	so.verbose = o->verbose;
	so.quiet = o->quiet;
	so.mem_cap_mib = o->mem_cap_mib;
	so.resume = o->resume;
	so.resume_lock = o->resume_lock;
	so.shard_k = o->shard_k;
	so.shard_n = o->shard_n;
	so.jobs = o->jobs;
	so.aslr = o->aslr;
	so.record = o->record.s;
	so.progress = step ? stderr : stdout;
	so.then = step;
	so.ctx = t;
	so.command = t->command;
	mr_casetab_init(&tab, p->cases_dir, p->expected_dir);
	if (t->command && o->claims) /* run -- CMD --claims FILE */
		mr_casetab_claims_file(&tab, t->command->name, o->claims);
	so.tab = t->tab = &tab;
	if (o->kernels || mr_guest_wanted(so.axes, so.nax)) { /* the kernel axis: guest/guest.h */
		struct mr_matrix_axis *ax = o->kernels ? mr_guest_profile_axes(o->axes, o->nax, &so.nax) : NULL;

		if (ax)
			so.axes = ax;
		rc = mr_guest_session(&so);
		free(ax);
	} else {
		rc = mr_session_run(&so);
	}
	t->tab = NULL;
	mr_casetab_free(&tab);
	return rc;
}

/* After a command's runs: its summary (cmdcommand.c). */
static int
then_command(void *ctx, const char *dir, const char *const *names)
{
	const struct then *t = ctx;

	return mr_cmd_command_then(t->o, t->p, dir, names[0], t->tab);
}

int
mr_cmd_run(const struct mr_args *o, const struct mr_paths *p)
{
	struct then t = { o, p, NULL, NULL, NULL };
	struct mr_cmdcase cc;
	int rc;

	if (!o->command) {
		if (o->given & O_FORMAT) {
			weprintf("--format does not apply to run of cases (check prints verdicts)");
			return MR_USAGE;
		}
		return session(&t, NULL);
	}
	/* run -- CMD: a command as a case (cmdcommand.c) */
	if (mr_cmd_command_init(o, &cc) != MR_OK)
		return MR_USAGE;
	t.command = &cc;
	rc = session(&t, then_command);
	mr_cmdcase_free(&cc);
	return rc;
}

/* check and bless: of the results --from names, or of a run first. */
static int
check_or_bless(const struct mr_args *o, const struct mr_paths *p,
	       int (*cmp)(const struct mr_check_opts *co))
{
	struct then t = { o, p, cmp, NULL, NULL };
	struct mr_casetab tab;
	int rc;

	if (!o->from)
		return session(&t, then_check);
	if (!o->claims)
		return then_check(&t, o->from, o->nnames ? o->names : NULL);
	/* check --from DIR --claims FILE NAME: FILE in place of NAME's */
	mr_casetab_init(&tab, p->cases_dir, p->expected_dir);
	mr_casetab_claims_file(&tab, o->names[0], o->claims);
	t.tab = &tab;
	rc = then_check(&t, o->from, o->names);
	mr_casetab_free(&tab);
	return rc;
}

int
mr_cmd_check(const struct mr_args *o, const struct mr_paths *p)
{
	return check_or_bless(o, p, mr_fmt_check);
}

int
mr_cmd_bless(const struct mr_args *o, const struct mr_paths *p)
{
	return check_or_bless(o, p, mr_bless);
}

/* report DIR (or --from DIR): the results exist; no case names then. */
static int
report_dir(const struct mr_args *o, const struct mr_paths *p, const char *dir)
{
	struct stat st;
	mr_optbits extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES | O_PLOTS |
				 O_QUIET | O_HELP | O_VERSION);

	if (extra) {
		weprintf("%s does not apply to the report of an existing results directory (nothing is run)",
			 mr_args_first(extra));
		return MR_USAGE;
	}
	if (stat(dir, &st) < 0) {
		weprintf("results directory %s:", dir);
		return MR_USAGE;
	}
	return report(o, p, dir, o->from && o->nnames ? o->names : NULL, NULL);
}

int
mr_cmd_report(const struct mr_args *o, const struct mr_paths *p)
{
	struct then t = { o, p, NULL, NULL, NULL };

	if (o->from)
		return report_dir(o, p, o->from);
	/* one argument that is a directory, or that no case could be named
	 * (a path): the results to report on */
	if (o->nnames == 1 && (mr_cmd_is_dir(o->names[0]) || !mr_name_case(o->names[0])))
		return report_dir(o, p, o->names[0]);
	return session(&t, then_report);
}
