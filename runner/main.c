/* memrepro: run the corpus of memory-behaviour reproductions.
 *
 * main: the command line only.  A table of commands, each with its
 * handler, the options it takes and what its arguments must be; the
 * options parsed and checked against it (args.c), then handed to the
 * handler.  The help texts are in help.c; running cases is
 * run/session.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "help.h"
#include "check/check.h"
#include "out/bless.h"
#include "out/compare.h"
#include "out/format.h"
#include "out/plot.h"
#include "out/corpus.h"
#include "out/report.h"
#include "out/trend.h"
#include "out/export.h"
#include "out/platforms.h"
#include "proto/cases.h"
#include "results/merge.h"
#include "results/write.h"
#include "release/cmd.h"
#include "run/registry.h"
#include "run/regparse.h"
#include "run/select.h"
#include "run/configs.h"
#include "run/session.h"
#include "run/spawn.h"
#include "run/term.h"
#include "core/util.h"

/* The Makefile -includes build/commit.h (MR_COMMIT, MEMREPRO_VERSION);
 * other builds (lint) do not. */
#ifndef MR_COMMIT
#define MR_COMMIT "unknown"
#endif
#ifndef MEMREPRO_VERSION
#define MEMREPRO_VERSION "unknown"
#endif

static int cmd_list(const struct mr_args *o, const struct mr_paths *p);
static int cmd_describe(const struct mr_args *o, const struct mr_paths *p);
static int cmd_run(const struct mr_args *o, const struct mr_paths *p);
static int cmd_check(const struct mr_args *o, const struct mr_paths *p);
static int cmd_bless(const struct mr_args *o, const struct mr_paths *p);
static int cmd_report(const struct mr_args *o, const struct mr_paths *p);
static int cmd_compare(const struct mr_args *o, const struct mr_paths *p);
static int cmd_trend(const struct mr_args *o, const struct mr_paths *p);
static int cmd_export(const struct mr_args *o, const struct mr_paths *p);
static int cmd_merge(const struct mr_args *o, const struct mr_paths *p);
static int cmd_corpus(const struct mr_args *o, const struct mr_paths *p);
static int cmd_versions(const struct mr_args *o, const struct mr_paths *p);
static int cmd_fetch(const struct mr_args *o, const struct mr_paths *p);
static int cmd_platforms(const struct mr_args *o, const struct mr_paths *p);

static const struct mr_command commands[] = {
	{ .name = "list", .run = cmd_list, .help = &mr_help_list,
	  .allowed = O_CASES | O_VERBOSE, .max_names = 0, .reads = -1 },
	{ .name = "describe", .run = cmd_describe, .help = &mr_help_describe,
	  .allowed = O_CASES | O_AXIS | O_PROFILE | O_VERBOSE | O_ALLOC | O_ALLOCATORS,
	  .min_names = 1, .max_names = 1, .reads = -1 },
	{ .name = "run", .run = cmd_run, .help = &mr_help_run,
	  .allowed = O_RUN | O_QUIET | O_EXPECTED, .max_names = -1, .reads = -1 },
	{ .name = "check", .run = cmd_check, .help = &mr_help_check,
	  .allowed = O_RUN | O_EXPECTED | O_FROM | O_FORMAT | O_QUIET,
	  .max_names = -1, .quick = 1, .reads = -1 },
	{ .name = "bless", .run = cmd_bless, .help = &mr_help_bless,
	  .allowed = O_RUN | O_EXPECTED | O_FROM | O_YES | O_QUIET,
	  .max_names = -1, .quick = 1, .reads = -1, .from_refuse = 2 },
	{ .name = "report", .run = cmd_report, .help = &mr_help_report,
	  .allowed = O_RUN | O_EXPECTED | O_FROM | O_PLOTS | O_QUIET,
	  .max_names = -1, .reads = -1, .dir_arg = 1 },
	{ .name = "compare", .run = cmd_compare, .help = &mr_help_compare,
	  .needs = "compare needs two results directories, OLD and NEW",
	  .allowed = O_OUT | O_PLOTS | O_FAILON | O_VERBOSE,
	  .min_names = 2, .max_names = 2, .reads = 0 },
	{ .name = "trend", .run = cmd_trend, .help = &mr_help_trend,
	  .needs = "trend needs two results directories or more",
	  .allowed = O_OUT | O_PLOTS | O_VERBOSE | O_EXPECTED, .min_names = 2, .max_names = -1,
	  .reads = 0 },
	{ .name = "export", .run = cmd_export, .help = &mr_help_export,
	  .needs = "export needs --format bmf|benchmark-action and one results directory",
	  .allowed = O_FORMAT | O_EXPECTED, .min_names = 1, .max_names = 1, .reads = 0,
	  .own_format = 1 },
	{ .name = "corpus", .run = cmd_corpus, .help = &mr_help_corpus,
	  .needs = "corpus needs one results directory or more",
	  .allowed = O_EXPECTED | O_CASES | O_VERBOSE, .min_names = 1, .max_names = -1,
	  .reads = 0 },
	{ .name = "merge", .run = cmd_merge, .help = &mr_help_merge,
	  .needs = "merge needs --out DIR and the shards' results directories",
	  .allowed = O_OUT | O_VERBOSE, .min_names = 1, .max_names = -1,
	  .needs_out = 1, .reads = 1 },
	{ .name = "versions", .run = cmd_versions, .help = &mr_help_versions,
	  .allowed = O_FORMAT | O_VERBOSE | O_ALLOCATORS | O_ALLOC, .max_names = -1,
	  .reads = -1 },
	{ .name = "fetch", .run = cmd_fetch, .help = &mr_help_fetch,
	  .needs = "fetch needs one SPEC or more (jemalloc@5.2.1, libc@2.41, mimalloc@trixie, node@22, ruby@3.3)",
	  .allowed = O_VERBOSE | O_ALLOCATORS | O_ALLOC, .min_names = 1, .max_names = -1,
	  .reads = -1 },
	{ .name = "platforms", .run = cmd_platforms, .help = &mr_help_platforms,
	  .needs = "platforms needs one results directory or more, one per platform",
	  .allowed = O_EXPECTED | O_CASES | O_FORMAT, .min_names = 1, .max_names = -1,
	  .reads = 0, .own_format = 1 },
};
#define NCMD ((int)(sizeof commands / sizeof commands[0]))

/* --- paths ----------------------------------------------------------- */

static int
is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The runner's own path and directory (owned). */
static void
self_paths(char **exe, char **dir)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	char *slash;

	if (n <= 0)
		eprintf("readlink /proc/self/exe:");
	buf[n] = '\0';
	*exe = estrdup(buf);
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	*dir = estrdup(slash && buf[0] ? buf : "/");
}

static char *
default_cases_dir(const char *exe_dir)
{
	char *p = esprintf("%s/cases", exe_dir);

	if (is_dir(p))
		return p;
	free(p);
	return esprintf("%s/../libexec/memrepro/cases", exe_dir);
}

static char *
default_expected_dir(const char *exe_dir)
{
	char *p;

	if (is_dir("expected"))
		return estrdup("expected");
	/* build/memrepro of a source tree run from elsewhere: the tree's */
	p = esprintf("%s/../expected", exe_dir);
	if (is_dir(p))
		return p;
	free(p);
	return esprintf("%s/../share/memrepro/expected", exe_dir);
}

/* The allocator registry of a command that builds matrices: the shipped
 * file, the user's, --allocators, then each --alloc.  MR_OK, or MR_USAGE
 * after saying why. */
static int
load_registry(const struct mr_args *o, const struct mr_paths *p, struct mr_registry *r)
{
	struct strbuf err = { 0 };
	char *shipped = mr_registry_default_file(p->exe_dir);
	int i, rc = mr_registry_load(r, shipped, o->allocators, &err);

	/* "FILE:LINE:COL: message" as a compiler writes it (formats.md) */
	if (rc < 0)
		fprintf(stderr, "%s\n", err.s);
	for (i = 0; rc == 0 && i < o->nallocs; i++)
		if ((rc = mr_registry_set(r, o->allocs[i], &err)) < 0)
			weprintf("%s", err.s);
	if (rc == 0)
		mr_registry_use(r);
	sb_free(&err);
	free(shipped);
	return rc < 0 ? MR_USAGE : MR_OK;
}

/* --- list, describe -------------------------------------------------- */

/* "name<TAB>axes<TAB>title"; axes "mode=a|b|c madvise=free|none" or "-". */
static void
list_line(const struct mr_cases_desc *c)
{
	int i, j, n = 0;

	printf("%s\t", c->name);
	for (i = 0; i < c->nparams; i++) {
		const struct mr_cases_param *p = &c->params[i];

		if (!p->axis)
			continue;
		printf("%s%s=", n++ ? " " : "", p->name);
		for (j = 0; j < p->naxis; j++)
			printf("%s%s", j ? "|" : "", p->axis[j]);
	}
	printf("%s\t%s\n", n ? "" : "-", c->title);
}

static int
cmd_list(const struct mr_args *o, const struct mr_paths *p)
{
	const char *dir = p->cases_dir;
	char **names;
	int n = mr_cases_discover(dir, &names), i, rc = MR_OK, lrc;

	(void)o;

	if (n < 0) {
		errno = -n;
		weprintf("cases directory %s:", dir);
		return MR_USAGE;
	}
	for (i = 0; i < n; i++) {
		struct mr_cases_desc c;
		struct strbuf err = { 0 };

		if ((lrc = mr_cases_load(dir, names[i], &c, &err)) < 0) {
			fflush(stdout);
			mr_select_load_error(lrc, &err);
			rc = MR_USAGE;
		} else {
			list_line(&c);
			mr_cases_free(&c);
		}
		sb_free(&err);
	}
	mr_cases_free_names(names, n);
	return rc;
}

static int
cmd_describe(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_cases_desc *c;
	struct mr_matrix m;
	struct mr_matrix_axis *ax = ecalloc((size_t)o->nax + 1, sizeof *ax);
	struct strbuf err = { 0 };
	int i, rc = MR_OK, nax = o->nax;

	if (mr_select_cases(p->cases_dir, o->names, o->nnames, &c) < 0) {
		free(ax);
		return MR_USAGE;
	}
	/* the runtime axis as run would have it (its default) */
	for (i = 0; i < o->nax; i++)
		mr_matrix_axis_copy(&ax[i], &o->axes[i]);
	mr_configs_default_axes(&ax, &nax, o->originals);
	rc = mr_matrix_check_axes(c, 1, ax, nax, &err) < 0 ||
	     mr_matrix_build(c, ax, nax, o->quick, &m, &err) < 0 ? MR_USAGE : MR_OK;
	for (i = 0; i < nax; i++)
		mr_matrix_axis_free(&ax[i]);
	free(ax);
	if (rc != MR_OK) {
		weprintf("%s", err.s);
		sb_free(&err);
		mr_select_free(c, 1);
		return MR_USAGE;
	}
	printf("%s: %s\n", c->name, c->title);
	printf("source: %s\n", c->source);
	if (c->mechanism)
		printf("mechanism: %s\n", c->mechanism);
	printf("binary: %s\n", c->path);
	if (c->timeout_s)
		printf("timeout: %u s\n", c->timeout_s);
	else
		printf("timeout: runner default (%d s)\n", MR_SESSION_DEFAULT_TIMEOUT_S);
	printf("parameters:\n");
	for (i = 0; i < c->nparams; i++) {
		const struct mr_cases_param *p = &c->params[i];

		printf("  %s: %s\n    default %s, quick %s, allowed %s", p->name, p->help,
		       p->def, p->quick, p->allowed);
		if (p->axis) {
			int j;

			printf(", axis ");
			for (j = 0; j < p->naxis; j++)
				printf("%s%s", j ? "|" : "", p->axis[j]);
		}
		printf("\n");
	}
	if (!c->nparams)
		printf("  (none)\n");
	printf("checkpoints:\n");
	for (i = 0; i < c->nckpts; i++)
		printf("  %s: %s\n", c->ckpts[i].name, c->ckpts[i].help);
	if (!c->nckpts)
		printf("  (none)\n");
	printf("matrix (profile %s): %d config%s\n", o->quick ? "quick" : "full",
	       m.n, m.n == 1 ? "" : "s");
	for (i = 0; i < m.n; i++)
		printf("  %s\n", m.cfg[i].canon);
	mr_matrix_free(&m);
	mr_select_free(c, 1);
	return rc;
}

/* --- run, check, bless, report ------------------------------------- */

/* What a command that runs cases hands to its step after the runs. */
struct then {
	const struct mr_args *o;
	const struct mr_paths *p;
	int (*cmp)(const struct mr_cmp_opts *co); /* check, bless: mr_check or
	                                             mr_bless */
};

/* check/bless options over the results in dir. */
static void
cmp_opts(struct mr_cmp_opts *co, const struct mr_args *o, const struct mr_paths *p,
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
	struct mr_cmp_opts co;

	cmp_opts(&co, t->o, t->p, dir, names);
	return t->cmp(&co);
}

static int
report(const struct mr_args *o, const struct mr_paths *p, const char *dir,
       const char *const *names)
{
	struct mr_report_opts ro = { 0 };

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

	return report(t->o, t->p, dir, names);
}

/* Run the cases (a session), then step over the results with t (step
 * NULL: none). */
static int
session(struct then *t, int (*step)(void *, const char *, const char *const *))
{
	const struct mr_args *o = t->o;
	const struct mr_paths *p = t->p;
	struct mr_session_opts so = { 0 };

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
	return mr_session_run(&so);
}

static int
cmd_run(const struct mr_args *o, const struct mr_paths *p)
{
	struct then t = { o, p, NULL };

	return session(&t, NULL);
}

/* check and bless: of the results --from names, or of a run first. */
static int
check_or_bless(const struct mr_args *o, const struct mr_paths *p,
	       int (*cmp)(const struct mr_cmp_opts *co))
{
	struct then t = { o, p, cmp };

	if (!o->from)
		return session(&t, then_check);
	return then_check(&t, o->from, o->nnames ? o->names : NULL);
}

static int
cmd_check(const struct mr_args *o, const struct mr_paths *p)
{
	return check_or_bless(o, p, mr_check);
}

static int
cmd_bless(const struct mr_args *o, const struct mr_paths *p)
{
	return check_or_bless(o, p, mr_bless);
}

/* report DIR (or --from DIR): the results exist; no case names then. */
static int
report_dir(const struct mr_args *o, const struct mr_paths *p, const char *dir)
{
	struct stat st;
	int extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES | O_PLOTS |
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
	return report(o, p, dir, o->from && o->nnames ? o->names : NULL);
}

static int
cmd_report(const struct mr_args *o, const struct mr_paths *p)
{
	struct then t = { o, p, NULL };

	if (o->from)
		return report_dir(o, p, o->from);
	if (o->nnames == 1 && is_dir(o->names[0]))
		return report_dir(o, p, o->names[0]);
	return session(&t, then_report);
}

/* --- compare, trend, merge -------------------------------------------- */

static int
cmd_compare(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_diff_opts d = { 0 };

	(void)p;
	d.old_dir = o->names[0];
	d.new_dir = o->names[1];
	d.out_dir = o->out;
	d.plots_dir = o->plots;
	d.fail_on = o->fail_on;
	d.verbose = o->verbose;
	d.color = mr_term_color(stdout);
	d.out = stdout;
	return mr_diff(&d);
}

static int
cmd_trend(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_trend_opts t = { 0 };

	t.dirs = o->names;
	t.ndirs = o->nnames;
	t.out_dir = o->out;
	t.expected_dir = p->expected_dir;
	t.plots_dir = o->plots;
	t.verbose = o->verbose;
	t.out = stdout;
	return mr_trend(&t);
}

/* export: the format word is its own (bmf, benchmark-action), not
 * check's; --expected is taken as by the other readers of results, and
 * unused: the figures are the results' own. */
static int
cmd_export(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_export_opts e = { 0 };
	int fmt = o->format_word ? mr_export_parse(o->format_word) : -1;

	(void)p;
	if (fmt < 0) {
		weprintf("export --format '%s': want bmf or benchmark-action",
			 o->format_word ? o->format_word : "");
		return MR_USAGE;
	}
	e.dir = o->names[0];
	e.format = (enum mr_export_fmt)fmt;
	e.out = stdout;
	return mr_export(&e);
}

static int
cmd_corpus(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_corpus_opts c = { 0 };

	c.dirs = (const char *const *)o->names;
	c.ndirs = o->nnames;
	c.expected_dir = p->expected_dir;
	c.cases_dir = p->cases_dir;
	c.out = stdout;
	return mr_corpus(&c);
}

static int
cmd_merge(const struct mr_args *o, const struct mr_paths *p)
{
	(void)p;
	return mr_merge(o->out, (const char *const *)o->names, o->nnames);
}

/* --- versions, fetch ------------------------------------------------- */

static int
cmd_versions(const struct mr_args *o, const struct mr_paths *p)
{
	(void)p;
	if ((o->given & O_FORMAT) && o->format != MR_FMT_HUMAN && o->format != MR_FMT_JSON) {
		weprintf("versions --format: want human or json");
		return MR_USAGE;
	}
	/* the registry: main loaded it (--allocators, --alloc) */
	return mr_release_cmd_versions(mr_registry_current(), (const char *const *)o->names,
				       o->nnames, o->format == MR_FMT_JSON);
}

static int
cmd_fetch(const struct mr_args *o, const struct mr_paths *p)
{
	(void)p;
	return mr_release_cmd_fetch(mr_registry_current(), (const char *const *)o->names,
				    o->nnames);
}

/* --- platforms ------------------------------------------------------- */

static int
cmd_platforms(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_plat_opts po = { 0 };
	int f = o->format_word ? mr_plat_fmt_parse(o->format_word) : MR_PLAT_MD;

	if (f < 0) {
		weprintf("platforms --format '%s': want md, tsv, html or json", o->format_word);
		return MR_USAGE;
	}
	po.dirs = (const char *const *)o->names;
	po.ndirs = o->nnames;
	po.expected_dir = p->expected_dir;
	po.cases_dir = p->cases_dir;
	po.format = (enum mr_plat_fmt)f;
	po.out = stdout;
	return mr_platforms(&po);
}

/* A command that reads results directories and runs nothing: while a
 * runner still writes one, say so; refuse (MR_USAGE) when what is made of
 * it lasts (refuse: merged results, baselines), else warn and go on (a
 * look at the runs so far).  MR_OK otherwise. */
static int
readers_check(const char *const *dirs, int n, int refuse)
{
	int i, rc = MR_OK;
	long pid;

	for (i = 0; i < n; i++) {
		char who[48] = "";

		if (mr_results_busy(dirs[i], &pid) != 1)
			continue;
		if (pid)
			snprintf(who, sizeof who, " (pid %ld)", pid);
		if (refuse) {
			weprintf("%s is still being written by a runner%s: refusing to %s it before the run ends",
				 dirs[i], who, refuse == 1 ? "merge" : "bless from");
			rc = MR_USAGE;
		} else {
			weprintf("warning: %s is still being written by a runner%s: its results are not complete",
				 dirs[i], who);
		}
	}
	return rc;
}

/* The results directories a command only reads, and whether it refuses
 * one a runner still writes (readers_check).  Returns its status. */
static int
readers(const struct mr_args *o)
{
	const struct mr_command *c = o->cmd;

	if (c->reads >= 0)
		return readers_check((const char *const *)o->names, o->nnames, c->reads);
	if (o->from)
		return readers_check(&o->from, 1, c->from_refuse);
	if (c->dir_arg && o->nnames == 1 && is_dir(o->names[0]))
		return readers_check((const char *const *)o->names, 1, 0);
	return MR_OK;
}

int
main(int argc, char **argv)
{
	struct mr_args o = { 0 };
	struct mr_registry reg = { 0 };
	struct mr_paths p;
	char *plots_dir;
	int rc;

	/* The allocator probe: this binary re-executed with LD_PRELOAD. */
	if (argc == 3 && strcmp(argv[1], "__probe-alloc") == 0)
		return mr_alloc_probe_main(argv[2]);
	if (mr_args_parse(&o, commands, NCMD, argc, argv) == 1) {
		printf("memrepro %s (commit %s)\n", MEMREPRO_VERSION, MR_COMMIT);
		mr_args_free(&o);
		return MR_OK;
	}
	if (o.resume)
		mr_args_resume(&o);
	self_paths(&p.exe, &p.exe_dir);
	p.cases_dir = o.cases_dir ? estrdup(o.cases_dir) : default_cases_dir(p.exe_dir);
	p.expected_dir = o.expected_dir ? estrdup(o.expected_dir) :
			 default_expected_dir(p.exe_dir);
	plots_dir = o.plots ? NULL : mr_plot_default_dir(p.exe_dir);
	if (plots_dir)
		o.plots = plots_dir;
	mr_spawn_init();
	rc = o.cmd->allowed & (O_AXIS | O_ALLOCATORS) ? load_registry(&o, &p, &reg) : MR_OK;
	if (rc == MR_OK && (rc = readers(&o)) == MR_OK)
		rc = o.cmd->run(&o, &p);
	/* SIGINT, SIGTERM or SIGHUP stopped the command (a reader of results
	 * stops at its next row): exit as the shell says a signal did */
	if (mr_spawn_interrupted)
		rc = 128 + mr_spawn_interrupted;
	mr_registry_free(&reg);
	fflush(stdout);
	free(p.exe);
	free(p.exe_dir);
	free(p.cases_dir);
	free(p.expected_dir);
	free(plots_dir);
	mr_args_free(&o);
	return rc;
}

