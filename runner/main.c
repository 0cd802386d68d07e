/* memrepro: run the corpus of memory-behaviour reproductions.
 *
 * main: the command line only.  A table of commands, each with its
 * handler, the options it takes and what its arguments must be; the
 * options parsed and checked against it (args.c), then handed to the
 * handler (cmds.h: cmdcases.c, cmdrun.c, cmdread.c).  The help texts are
 * in help.c; running cases is session/session.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "cmds.h"
#include "help.h"
#include "out/plot.h"
#include "results/write.h"
#include "matrix/langs.h"
#include "matrix/registry.h"
#include "matrix/regparse.h"
#include "proc/spawn.h"
#include "core/util.h"

/* The Makefile -includes build/commit.h (MR_COMMIT, MEMREPRO_VERSION);
 * other builds (lint) do not. */
#ifndef MR_COMMIT
#define MR_COMMIT "unknown"
#endif
#ifndef MEMREPRO_VERSION
#define MEMREPRO_VERSION "unknown"
#endif

/* The texts that list the runtime languages, from their table
 * (matrix/langs.h): needs_texts() fills them before the arguments are
 * read. */
static char fetch_needs[256], new_needs[128];

static void
needs_texts(void)
{
	struct strbuf ex = { 0 }, nl = { 0 };

	mr_langs_examples(&ex);
	mr_langs_list(&nl, "%s", "|", "|", 1);
	snprintf(fetch_needs, sizeof fetch_needs,
		 "fetch needs one SPEC or more (jemalloc@5.2.1, libc@2.41, mimalloc@trixie, %s)", ex.s);
	snprintf(new_needs, sizeof new_needs,
		 "new needs one case NAME: memrepro new NAME [--lang c|%s|sh]", nl.s);
	sb_free(&ex);
	sb_free(&nl);
}

static const struct mr_command commands[] = {
	{ .name = "list", .run = mr_cmd_list, .help = &mr_help_list,
	  .allowed = O_CASES | O_VERBOSE, .max_names = 0, .reads = -1 },
	{ .name = "describe", .run = mr_cmd_describe, .help = &mr_help_describe,
	  .allowed = O_CASES | O_AXIS | O_PROFILE | O_VERBOSE | O_ALLOC | O_ALLOCATORS,
	  .min_names = 1, .max_names = 1, .reads = -1 },
	{ .name = "run", .run = mr_cmd_run, .help = &mr_help_run,
	  .allowed = O_RUN | O_QUIET | O_EXPECTED | O_COMMAND | O_FORMAT | O_CLAIMS, .max_names = -1,
	  .reads = -1,
	  .command = 1 },
	{ .name = "check", .run = mr_cmd_check, .help = &mr_help_check,
	  .allowed = O_RUN | O_EXPECTED | O_FROM | O_FORMAT | O_QUIET | O_CLAIMS,
	  .max_names = -1, .quick = 1, .reads = -1 },
	{ .name = "bless", .run = mr_cmd_bless, .help = &mr_help_bless,
	  .allowed = O_RUN | O_EXPECTED | O_FROM | O_YES | O_QUIET,
	  .max_names = -1, .quick = 1, .reads = -1, .from_refuse = 2, .makes_expected = 1 },
	{ .name = "report", .run = mr_cmd_report, .help = &mr_help_report,
	  .allowed = O_RUN | O_EXPECTED | O_FROM | O_PLOTS | O_QUIET,
	  .max_names = -1, .reads = -1, .dir_arg = 1 },
	{ .name = "compare", .run = mr_cmd_compare, .help = &mr_help_compare,
	  .needs = "compare needs two results directories, OLD and NEW",
	  .allowed = O_OUT | O_PLOTS | O_NOCHARTS | O_FAILON | O_VERBOSE,
	  .min_names = 2, .max_names = 2, .reads = 0 },
	{ .name = "trend", .run = mr_cmd_trend, .help = &mr_help_trend,
	  .needs = "trend needs two results directories or more",
	  .allowed = O_OUT | O_PLOTS | O_NOCHARTS | O_VERBOSE | O_EXPECTED, .min_names = 2, .max_names = -1,
	  .reads = 0 },
	{ .name = "export", .run = mr_cmd_export, .help = &mr_help_export,
	  .needs = "export needs --format bmf|benchmark-action and one results directory",
	  .allowed = O_FORMAT | O_EXPECTED, .min_names = 1, .max_names = 1, .reads = 0,
	  .own_format = 1 },
	{ .name = "corpus", .run = mr_cmd_corpus, .help = &mr_help_corpus,
	  .needs = "corpus needs one results directory or more",
	  .allowed = O_EXPECTED | O_CASES | O_VERBOSE, .min_names = 1, .max_names = -1,
	  .reads = 0 },
	{ .name = "merge", .run = mr_cmd_merge, .help = &mr_help_merge,
	  .needs = "merge needs --out DIR and the shards' results directories",
	  .allowed = O_OUT | O_VERBOSE, .min_names = 1, .max_names = -1,
	  .needs_out = 1, .reads = 1 },
	{ .name = "versions", .run = mr_cmd_versions, .help = &mr_help_versions,
	  .allowed = O_FORMAT | O_VERBOSE | O_ALLOCATORS | O_ALLOC, .max_names = -1,
	  .reads = -1 },
	{ .name = "fetch", .run = mr_cmd_fetch, .help = &mr_help_fetch,
	  .needs = fetch_needs,
	  .allowed = O_VERBOSE | O_ALLOCATORS | O_ALLOC, .min_names = 1, .max_names = -1,
	  .reads = -1 },
	{ .name = "platforms", .run = mr_cmd_platforms, .help = &mr_help_platforms,
	  .needs = "platforms needs one results directory or more, one per platform",
	  .allowed = O_EXPECTED | O_CASES | O_FORMAT, .min_names = 1, .max_names = -1,
	  .reads = 0, .own_format = 1 },
	{ .name = "new", .run = mr_cmd_new, .help = &mr_help_new,
	  .needs = new_needs,
	  .allowed = O_CASES | O_EXPECTED | O_LANG, .min_names = 1, .max_names = 1,
	  .reads = -1, .makes_expected = 1 },
};
#define NCMD ((int)(sizeof commands / sizeof commands[0]))

/* --- paths ----------------------------------------------------------- */

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

	if (mr_cmd_is_dir(p))
		return p;
	free(p);
	return esprintf("%s/../libexec/memrepro/cases", exe_dir);
}

static char *
default_expected_dir(const char *exe_dir)
{
	char *p;

	if (mr_cmd_is_dir("expected"))
		return estrdup("expected");
	/* build/memrepro of a source tree run from elsewhere: the tree's */
	p = esprintf("%s/../expected", exe_dir);
	if (mr_cmd_is_dir(p))
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

/* --expected DIR given to a command that reads it: DIR must be there (a
 * misspelt one would judge nothing, and pass).  MR_OK or MR_USAGE. */
static int
expected_there(const struct mr_args *o, const struct mr_paths *p)
{
	struct stat st;

	if (!(o->given & O_EXPECTED) || o->cmd->makes_expected)
		return MR_OK;
	if (stat(p->expected_dir, &st) < 0) {
		weprintf("--expected %s:", p->expected_dir);
		return MR_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		weprintf("--expected %s: not a directory", p->expected_dir);
		return MR_USAGE;
	}
	return MR_OK;
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
	if (c->dir_arg && o->nnames == 1 && mr_cmd_is_dir(o->names[0]))
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
	needs_texts();
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
	if (rc == MR_OK && (rc = expected_there(&o, &p)) == MR_OK && (rc = readers(&o)) == MR_OK)
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

