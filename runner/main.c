/* memrepro: run the corpus of memory-behaviour reproductions.
 *
 * main: the command line only.  A table of commands, each with its
 * handler, the options it takes and what its arguments must be; the
 * options parsed with getopt_long (short ones bundle, long ones may be
 * abbreviated while unambiguous), checked, and handed to the handler.
 * The help texts are in help.c; running cases is run/session.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "help.h"
#include "check/check.h"
#include "out/compare.h"
#include "out/plot.h"
#include "out/report.h"
#include "out/trend.h"
#include "proto/cases.h"
#include "results/merge.h"
#include "results/write.h"
#include "run/alloc.h"
#include "run/matrix.h"
#include "run/resume.h"
#include "run/select.h"
#include "run/session.h"
#include "run/shard.h"
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

#define DEFAULT_REPEAT 3
#define MAX_JOBS 64
#define DEFAULT_INTERVAL_MS 10

/* The options: the order in which "does not apply" names the first. */
static const struct option_def {
	const char *name; /* "--long" */
	int bit;
	int has_arg;
	const char *abbr; /* the short option ("-j"), NULL: none */
} optab[] = {
	{ "--axis", O_AXIS, 1, NULL },
	{ "--alloc", O_ALLOC, 1, NULL },
	{ "--profile", O_PROFILE, 1, NULL },
	{ "--repeat", O_REPEAT, 1, NULL },
	{ "--out", O_OUT, 1, NULL },
	{ "--timeout", O_TIMEOUT, 1, NULL },
	{ "--timeout-factor", O_FACTOR, 1, NULL },
	{ "--interval", O_INTERVAL, 1, NULL },
	{ "--cases", O_CASES, 1, NULL },
	{ "--expected", O_EXPECTED, 1, NULL },
	{ "--from", O_FROM, 1, NULL },
	{ "--mem-cap", O_MEMCAP, 1, NULL },
	{ "--resume", O_RESUME, 1, NULL },
	{ "--shard", O_SHARD, 1, NULL },
	{ "--jobs", O_JOBS, 1, "-j" },
	{ "--aslr", O_ASLR, 1, NULL },
	{ "--format", O_FORMAT, 1, NULL },
	{ "--quiet", O_QUIET, 0, "-q" },
	{ "--yes", O_YES, 0, "-y" },
	{ "--plots", O_PLOTS, 1, NULL },
	{ "--fail-on", O_FAILON, 1, NULL },
	{ "--verbose", O_VERBOSE, 0, "-v" },
	{ "--help", O_HELP, 0, "-h" },
	{ "--version", O_VERSION, 0, NULL },
};
#define NOPT ((int)(sizeof optab / sizeof optab[0]))
/* getopt_long's value of a long option without a letter: OPT0 + index. */
#define OPT0 256

struct opts;
struct paths;

/* A command: its handler, the options it takes, its arguments. */
struct command {
	const char *name;
	int (*run)(const struct opts *o, const struct paths *p);
	int allowed;     /* option bits */
	int min_names;   /* positional arguments (case names, directories) */
	int max_names;   /* -1: any */
	const char *needs; /* the error when the arguments (or --out, with
	                      needs_out) are not as wanted; NULL: generic */
	int needs_out;
	int quick;       /* the quick profile unless --profile says */
	int reads;       /* its arguments are results directories that a
	                    runner may still write: -1 no, 0 warn, 1 refuse */
	int from_refuse; /* --from DIR still being written: 2 refuse, 0 warn */
	int dir_arg;     /* one argument naming a directory is results */
	const struct mr_help *help;
};

/* Everything the command line says. */
struct opts {
	const struct command *cmd;
	int given;                 /* option bits seen */
	struct mr_matrix_axis *axes;
	int nax;
	int quick;                 /* -1: the command's default */
	long repeat;
	const char *out;
	double timeout_s;          /* 0: none given */
	double factor;
	long interval_ms;
	const char *cases_dir;
	const char *expected_dir;
	const char *from;
	int verbose;
	const char *sonames[MR_ALLOC_N]; /* --alloc overrides, NULL: default */
	const char **names;        /* positional, NULL-terminated */
	int nnames;
	int format;                /* --format: enum mr_fmt */
	int quiet;                 /* --quiet */
	int yes;                   /* --yes */
	const char *plots;         /* --plots, else the default (set by main) */
	double fail_on;            /* --fail-on, -1: none */
	long mem_cap_mib;          /* --mem-cap, 0: none */
	const char *resume;        /* --resume DIR */
	int resume_lock;           /* DIR's lock (mr_resume_argv), -1: none */
	int shard_k, shard_n;      /* --shard K/N; 0/0: none */
	long jobs;                 /* -j, --jobs: runs at once */
	int aslr;                  /* --aslr on: leave the cases' layout random */
	int help, version;         /* --help, --version */
	struct strbuf record;      /* the options that shape the results, as
	                              env.tsv's "options" records them */
	char **owned;              /* argument strings read back by --resume */
};

/* Where things are, from the options or the defaults (owned). */
struct paths {
	char *exe, *exe_dir;
	char *cases_dir, *expected_dir;
};

static void
opts_free(struct opts *o)
{
	int i;

	for (i = 0; i < o->nax; i++)
		mr_matrix_axis_free(&o->axes[i]);
	free(o->axes);
	free(o->names);
	sb_free(&o->record);
	for (i = 0; o->owned && o->owned[i]; i++)
		free(o->owned[i]);
	free(o->owned);
	memset(o, 0, sizeof *o);
}

static _Noreturn void
usage_error(struct opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static _Noreturn void
usage_error(struct opts *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vweprintf(fmt, ap);
	va_end(ap);
	if (o->cmd)
		fprintf(stderr, "usage: %s\n(memrepro %s --help for more)\n", o->cmd->help->usage,
			o->cmd->name);
	else
		fprintf(stderr, "(memrepro --help for usage)\n");
	opts_free(o);
	exit(MR_USAGE);
}

static long
num_arg(struct opts *o, const char *opt, const char *v, long min, long max)
{
	long long x;

	if (parse_ll(v, &x) < 0 || x < min || x > max)
		usage_error(o, "%s '%s': want a whole number in %ld..%ld", opt, v, min, max);
	return (long)x;
}

static double
real_arg(struct opts *o, const char *opt, const char *v)
{
	double x;

	/* decimal only: strtod would take 0x10, infinity, blanks */
	if (strspn(v, "0123456789.eE+-") != strlen(v) ||
	    parse_double(v, &x) < 0 || x <= 0 || x > 1e6)
		usage_error(o, "%s '%s': want a positive number (at most 1e6)", opt, v);
	return x;
}

static void
set_alloc(struct opts *o, const char *v)
{
	const char *eq = strchr(v, '=');
	int i;

	for (i = 1; i < MR_ALLOC_N; i++)
		if (eq && (size_t)(eq - v) == strlen(mr_alloc_names[i]) &&
		    strncmp(v, mr_alloc_names[i], (size_t)(eq - v)) == 0)
			break;
	if (!eq || i == MR_ALLOC_N)
		usage_error(o, "--alloc '%s': want NAME=SONAME with NAME jemalloc, tcmalloc or mimalloc", v);
	if (!mr_alloc_valid_soname(eq + 1))
		usage_error(o, "--alloc '%s': bad library name '%s'", v, eq + 1);
	o->sonames[i] = eq + 1;
}

static void
set_axis(struct opts *o, const char *v)
{
	struct strbuf err = { 0 };

	o->axes = erealloc(o->axes, (size_t)(o->nax + 1) * sizeof *o->axes);
	if (mr_matrix_parse_axis(v, &o->axes[o->nax], &err) < 0) {
		char msg[1024];

		snprintf(msg, sizeof msg, "%s", err.s);
		sb_free(&err);
		usage_error(o, "%s", msg);
	}
	o->nax++;
}

/* An option of those with a choice of words or a syntax of their own. */
static void
set_word(struct opts *o, int bit, const char *v)
{
	double x;

	switch (bit) {
	case O_PROFILE:
		if (strcmp(v, "quick") == 0)
			o->quick = 1;
		else if (strcmp(v, "full") == 0)
			o->quick = 0;
		else
			usage_error(o, "--profile '%s': want quick or full", v);
		break;
	case O_ASLR:
		if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
			usage_error(o, "--aslr '%s': want on or off", v);
		o->aslr = strcmp(v, "on") == 0;
		break;
	case O_SHARD:
		if (mr_shard_parse(v, &o->shard_k, &o->shard_n) < 0)
			usage_error(o, "--shard '%s': want K/N, whole numbers with 1 <= K <= N <= %d (e.g. 2/4)",
				    v, MR_SHARD_MAX);
		break;
	case O_FORMAT:
		if ((o->format = mr_fmt_parse(v)) < 0)
			usage_error(o, "--format '%s': want human, tap, junit or json", v);
		break;
	case O_FAILON:
		if (parse_double(v, &x) < 0 || x < 0 || x > 1e6)
			usage_error(o, "--fail-on '%s': want a percentage (0 or more)", v);
		o->fail_on = x;
		break;
	}
}

/* Option d with value v ("" when it takes none), given as name. */
static void
set_option(struct opts *o, const struct option_def *d, const char *name, const char *v)
{
	o->given |= d->bit;
	if (strpbrk(v, "\t\n\r"))
		usage_error(o, "%s: a value with a tab or a newline cannot be recorded in env.tsv", name);
	/* what --resume needs to run the same matrix the same way */
	if (!(d->bit & (O_OUT | O_VERBOSE | O_RESUME | O_FORMAT | O_QUIET | O_YES |
			O_PLOTS | O_FAILON | O_JOBS | O_HELP | O_VERSION))) {
		char *a = d->has_arg ? esprintf("%s=%s", d->name, v) : estrdup(d->name);

		mr_resume_record_arg(&o->record, a);
		free(a);
	}
	switch (d->bit) {
	case O_AXIS: set_axis(o, v); break;
	case O_ALLOC: set_alloc(o, v); break;
	case O_REPEAT: o->repeat = num_arg(o, name, v, 1, 1000); break;
	case O_JOBS: o->jobs = num_arg(o, name, v, 1, MAX_JOBS); break;
	case O_OUT: o->out = v; break;
	case O_TIMEOUT: o->timeout_s = real_arg(o, name, v); break;
	case O_FACTOR: o->factor = real_arg(o, name, v); break;
	case O_INTERVAL: o->interval_ms = num_arg(o, name, v, 1, 60000); break;
	case O_CASES: o->cases_dir = v; break;
	case O_EXPECTED: o->expected_dir = v; break;
	case O_FROM: o->from = v; break;
	case O_MEMCAP: o->mem_cap_mib = num_arg(o, name, v, 1, MR_MATRIX_MAX_MIB); break;
	case O_RESUME: o->resume = v; break;
	case O_VERBOSE: o->verbose = 1; break;
	case O_QUIET: o->quiet = 1; break;
	case O_YES: o->yes = 1; break;
	case O_PLOTS: o->plots = v; break;
	case O_HELP: o->help = 1; break;
	case O_VERSION: o->version = 1; break;
	default: set_word(o, d->bit, v); break;
	}
}

static int cmd_list(const struct opts *o, const struct paths *p);
static int cmd_describe(const struct opts *o, const struct paths *p);
static int cmd_run(const struct opts *o, const struct paths *p);
static int cmd_check(const struct opts *o, const struct paths *p);
static int cmd_bless(const struct opts *o, const struct paths *p);
static int cmd_report(const struct opts *o, const struct paths *p);
static int cmd_compare(const struct opts *o, const struct paths *p);
static int cmd_trend(const struct opts *o, const struct paths *p);
static int cmd_merge(const struct opts *o, const struct paths *p);

static const struct command commands[] = {
	{ "list", cmd_list, O_CASES | O_VERBOSE, 0, 0, NULL, 0, 0, -1, 0, 0,
	  &mr_help_list },
	{ "describe", cmd_describe, O_CASES | O_AXIS | O_PROFILE | O_VERBOSE, 1, 1,
	  NULL, 0, 0, -1, 0, 0, &mr_help_describe },
	{ "run", cmd_run, O_RUN | O_QUIET | O_EXPECTED, 0, -1, NULL, 0, 0, -1, 0, 0,
	  &mr_help_run },
	{ "check", cmd_check, O_RUN | O_EXPECTED | O_FROM | O_FORMAT | O_QUIET, 0, -1,
	  NULL, 0, 1, -1, 0, 0, &mr_help_check },
	{ "bless", cmd_bless, O_RUN | O_EXPECTED | O_FROM | O_YES | O_QUIET, 0, -1,
	  NULL, 0, 1, -1, 2, 0, &mr_help_bless },
	{ "report", cmd_report, O_RUN | O_EXPECTED | O_FROM | O_PLOTS | O_QUIET, 0, -1,
	  NULL, 0, 0, -1, 0, 1, &mr_help_report },
	{ "compare", cmd_compare, O_OUT | O_PLOTS | O_FAILON | O_VERBOSE, 2, 2,
	  "compare needs two results directories, OLD and NEW", 0, 0, 0, 0, 0,
	  &mr_help_compare },
	{ "trend", cmd_trend, O_OUT | O_PLOTS | O_VERBOSE, 2, -1,
	  "trend needs two results directories or more", 0, 0, 0, 0, 0, &mr_help_trend },
	{ "merge", cmd_merge, O_OUT | O_VERBOSE, 1, -1,
	  "merge needs --out DIR and the shards' results directories", 1, 0, 1, 0, 0,
	  &mr_help_merge },
};
#define NCMD ((int)(sizeof commands / sizeof commands[0]))

static const struct command *
find_command(const char *name)
{
	int i;

	for (i = 0; i < NCMD; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* A positional argument: the command, or one of its names. */
static void
positional(struct opts *o, const char *a)
{
	if (o->cmd) {
		o->names[o->nnames++] = a;
		return;
	}
	if (!(o->cmd = find_command(a)))
		usage_error(o, "unknown command '%s'; commands: list, describe, run, check, bless, report, compare, trend, merge", a);
}

/* Whether getopt_long's value c is option i's. */
static int
is_opt(int c, int i)
{
	return c == OPT0 + i || (optab[i].abbr && c == optab[i].abbr[1]);
}

/* getopt_long's error c ('?' or ':') at argument arg: the message. */
static _Noreturn void
bad_option(struct opts *o, int c, const char *arg)
{
	struct strbuf b = { 0 };
	const char *name;
	size_t len;
	int i, n = 0;

	for (i = 0; optopt && i < NOPT; i++)
		if (is_opt(optopt, i)) {
			if (c == ':')
				usage_error(o, "%s needs a value", strncmp(arg, "--", 2) == 0 ||
					    !optab[i].abbr ? optab[i].name : optab[i].abbr);
			usage_error(o, "%s takes no value", optab[i].name);
		}
	if (optopt)
		usage_error(o, "unknown option '-%c'", optopt);
	/* getopt_long calls an ambiguous abbreviation unknown too */
	name = arg + 2;
	len = strcspn(name, "=");
	for (i = 0; len && i < NOPT; i++)
		if (strncmp(optab[i].name + 2, name, len) == 0)
			sb_printf(&b, "%s%s", n++ ? ", " : "", optab[i].name);
	if (n > 1) {
		char msg[512];

		snprintf(msg, sizeof msg, "%s", b.s);
		sb_free(&b);
		usage_error(o, "ambiguous option '%.*s': it could be %s", (int)len + 2, arg, msg);
	}
	sb_free(&b);
	usage_error(o, "unknown option '%s'", arg);
}

/* The name option i was given as: the short one when its value came in
 * the next argument (-j 2), else the long one (-j2, --jobs 2, --jobs=2). */
static const char *
given_as(int i, char **argv)
{
	if (optab[i].abbr && optarg && optind >= 2 && optarg == argv[optind - 1] &&
	    strncmp(argv[optind - 2], "--", 2) != 0)
		return optab[i].abbr;
	return optab[i].name;
}

/* Every argument of argv, in order: options (set_option) and positional
 * arguments (the command first), each the same wherever it stands. */
static void
scan_args(struct opts *o, int argc, char **argv)
{
	struct option lo[NOPT + 1];
	char letters[3 * NOPT + 4] = "-:";
	int i, c;

	memset(lo, 0, sizeof lo);
	for (i = 0; i < NOPT; i++) {
		lo[i].name = optab[i].name + 2;
		lo[i].has_arg = optab[i].has_arg ? required_argument : no_argument;
		lo[i].val = optab[i].abbr ? optab[i].abbr[1] : OPT0 + i;
		if (optab[i].abbr) {
			strncat(letters, optab[i].abbr + 1, 1);
			if (optab[i].has_arg)
				strcat(letters, ":");
		}
	}
	/* "-": positional arguments in order (1), whatever POSIXLY_CORRECT
	 * says; ":": a missing value is ':', and getopt prints nothing */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, letters, lo, NULL)) != -1) {
		if (c == 1) {
			positional(o, optarg);
			continue;
		}
		if (c == '?' || c == ':')
			bad_option(o, c, argv[optind - 1]);
		for (i = 0; i < NOPT && !is_opt(c, i); i++)
			;
		if (i < NOPT)
			set_option(o, &optab[i], given_as(i, argv), optarg ? optarg : "");
	}
	/* after "--": only positional arguments */
	for (; optind < argc; optind++)
		positional(o, argv[optind]);
}

/* The first option of bits in optab's order: its name. */
static const char *
first_option(int bits)
{
	int i;

	for (i = 0; i < NOPT && !(bits & optab[i].bit); i++)
		;
	return i < NOPT ? optab[i].name : "?";
}

/* What the command's table entry says of the options and arguments. */
static void
check_args(struct opts *o)
{
	const struct command *c = o->cmd;
	int i, extra;

	if (o->given & ~(c->allowed | O_HELP | O_VERSION))
		usage_error(o, "%s does not apply to %s",
			    first_option(o->given & ~(c->allowed | O_HELP | O_VERSION)), c->name);
	/* --cases is harmless with --from (nothing is run, so not needed) */
	extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES | O_FORMAT |
			     O_QUIET | O_YES | O_PLOTS | O_HELP | O_VERSION);
	if (o->from && extra)
		usage_error(o, "%s does not apply with --from (nothing is run)", first_option(extra));
	extra = o->given & ~(O_RESUME | O_VERBOSE | O_FORMAT | O_QUIET | O_YES | O_PLOTS |
			     O_JOBS | O_HELP | O_VERSION);
	if (o->resume && extra)
		usage_error(o, "%s cannot be given with --resume: it continues with the options %s/env.tsv recorded",
			    first_option(extra), o->resume);
	if (o->resume && o->nnames)
		usage_error(o, "case names cannot be given with --resume: it continues with the cases %s/env.tsv recorded",
			    o->resume);
	for (i = 0; i < o->nnames; i++)
		if (strpbrk(o->names[i], "\t\n\r"))
			usage_error(o, "a case name with a tab or a newline");
	if (c->needs && (o->nnames < c->min_names ||
			 (c->max_names >= 0 && o->nnames > c->max_names) ||
			 (c->needs_out && !o->out)))
		usage_error(o, "%s", c->needs);
	if (o->nnames < c->min_names)
		usage_error(o, "%s needs a case name", c->name);
	if (c->max_names >= 0 && o->nnames > c->max_names)
		usage_error(o, "%s takes %s", c->name,
			    c->max_names ? "one case name" : "no case names");
}

static void
parse_args(struct opts *o, int argc, char **argv)
{
	int i;

	o->quick = -1;
	o->repeat = DEFAULT_REPEAT;
	o->jobs = 1;
	o->factor = 1;
	o->interval_ms = DEFAULT_INTERVAL_MS;
	o->fail_on = -1;
	o->resume_lock = -1;
	o->names = ecalloc((size_t)argc + 1, sizeof *o->names);
	scan_args(o, argc, argv);
	if (o->help || o->version) {
		if (o->help && o->cmd)
			mr_help_command(o->cmd->help, o->cmd->allowed | O_HELP);
		else if (o->help)
			mr_help_global(stdout);
		else
			printf("memrepro %s (commit %s)\n", MEMREPRO_VERSION, MR_COMMIT);
		opts_free(o);
		exit(MR_OK);
	}
	if (!o->cmd) {
		mr_help_global(stderr);
		opts_free(o);
		exit(MR_USAGE);
	}
	check_args(o);
	if (o->quick < 0) {
		o->quick = o->cmd->quick;
		/* the profile the command chose, so a resume by another
		 * command keeps it */
		mr_resume_record_arg(&o->record, o->quick ? "--profile=quick" : "--profile=full");
	}
	if (o->nnames)
		mr_resume_record_arg(&o->record, "--");
	for (i = 0; i < o->nnames; i++)
		mr_resume_record_arg(&o->record, o->names[i]);
}

/* --resume DIR: the options DIR/env.tsv recorded replace the command
 * line's (only --verbose and the like are taken from it), parsed as if
 * given again. */
static void
resume_args(struct opts *o)
{
	struct opts n = { 0 };
	char **argv;
	int argc, lock;

	if (mr_resume_argv(o->resume, o->cmd->name, &lock, &argv, &argc) < 0) {
		opts_free(o);
		exit(MR_USAGE);
	}
	n.owned = argv;
	parse_args(&n, argc, argv);
	n.resume = o->resume;
	n.resume_lock = lock;
	n.out = o->resume;
	n.verbose |= o->verbose;
	n.quiet |= o->quiet;
	n.yes |= o->yes;
	n.format = o->format;
	n.plots = o->plots;
	n.jobs = o->jobs; /* not recorded: how many at once is the resume's choice */
	opts_free(o);
	*o = n;
}

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
	if (is_dir("expected"))
		return estrdup("expected");
	return esprintf("%s/../share/memrepro/expected", exe_dir);
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
cmd_list(const struct opts *o, const struct paths *p)
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
cmd_describe(const struct opts *o, const struct paths *p)
{
	struct mr_cases_desc *c;
	struct mr_matrix m;
	struct strbuf err = { 0 };
	int i, rc = MR_OK;

	if (mr_select_cases(p->cases_dir, o->names, o->nnames, &c) < 0)
		return MR_USAGE;
	if (mr_matrix_check_axes(c, 1, o->axes, o->nax, &err) < 0 ||
	    mr_matrix_build(c, o->axes, o->nax, o->quick, &m, &err) < 0) {
		weprintf("%s", err.s);
		sb_free(&err);
		mr_select_free(c, 1);
		return MR_USAGE;
	}
	printf("%s: %s\n", c->name, c->title);
	printf("source: %s\n", c->source);
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
	const struct opts *o;
	const struct paths *p;
	int (*cmp)(const struct mr_cmp_opts *co); /* check, bless: mr_check or
	                                             mr_bless */
};

/* check/bless options over the results in dir. */
static void
cmp_opts(struct mr_cmp_opts *co, const struct opts *o, const struct paths *p,
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
report(const struct opts *o, const struct paths *p, const char *dir,
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
	const struct opts *o = t->o;
	const struct paths *p = t->p;
	struct mr_session_opts so = { 0 };
	int i;

	so.cmd = o->cmd->name;
	so.cases_dir = p->cases_dir;
	so.expected_dir = p->expected_dir;
	so.self_exe = p->exe;
	so.names = o->names;
	so.nnames = o->nnames;
	so.axes = o->axes;
	so.nax = o->nax;
	so.quick = o->quick;
	so.repeat = o->repeat;
	so.out = o->out;
	so.timeout_s = o->timeout_s;
	so.factor = o->factor;
	so.interval_ms = o->interval_ms;
	so.verbose = o->verbose;
	so.quiet = o->quiet;
	for (i = 0; i < MR_ALLOC_N; i++)
		so.sonames[i] = o->sonames[i];
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
cmd_run(const struct opts *o, const struct paths *p)
{
	struct then t = { o, p, NULL };

	return session(&t, NULL);
}

/* check and bless: of the results --from names, or of a run first. */
static int
check_or_bless(const struct opts *o, const struct paths *p,
	       int (*cmp)(const struct mr_cmp_opts *co))
{
	struct then t = { o, p, cmp };

	if (!o->from)
		return session(&t, then_check);
	return then_check(&t, o->from, o->nnames ? o->names : NULL);
}

static int
cmd_check(const struct opts *o, const struct paths *p)
{
	return check_or_bless(o, p, mr_check);
}

static int
cmd_bless(const struct opts *o, const struct paths *p)
{
	return check_or_bless(o, p, mr_bless);
}

/* report DIR (or --from DIR): the results exist; no case names then. */
static int
report_dir(const struct opts *o, const struct paths *p, const char *dir)
{
	struct stat st;
	int extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES | O_PLOTS |
				 O_QUIET | O_HELP | O_VERSION);

	if (extra) {
		weprintf("%s does not apply to the report of an existing results directory (nothing is run)",
			 first_option(extra));
		return MR_USAGE;
	}
	if (stat(dir, &st) < 0) {
		weprintf("results directory %s:", dir);
		return MR_USAGE;
	}
	return report(o, p, dir, o->from && o->nnames ? o->names : NULL);
}

static int
cmd_report(const struct opts *o, const struct paths *p)
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
cmd_compare(const struct opts *o, const struct paths *p)
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
cmd_trend(const struct opts *o, const struct paths *p)
{
	struct mr_trend_opts t = { 0 };

	(void)p;
	t.dirs = o->names;
	t.ndirs = o->nnames;
	t.out_dir = o->out;
	t.plots_dir = o->plots;
	t.verbose = o->verbose;
	t.out = stdout;
	return mr_trend(&t);
}

static int
cmd_merge(const struct opts *o, const struct paths *p)
{
	(void)p;
	return mr_merge(o->out, (const char *const *)o->names, o->nnames);
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
readers(const struct opts *o)
{
	const struct command *c = o->cmd;

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
	struct opts o = { 0 };
	struct paths p;
	char *plots_dir;
	int rc;

	/* The allocator probe: this binary re-executed with LD_PRELOAD. */
	if (argc == 3 && strcmp(argv[1], "__probe-alloc") == 0)
		return mr_alloc_probe_main(argv[2]);
	parse_args(&o, argc, argv);
	if (o.resume)
		resume_args(&o);
	self_paths(&p.exe, &p.exe_dir);
	p.cases_dir = o.cases_dir ? estrdup(o.cases_dir) : default_cases_dir(p.exe_dir);
	p.expected_dir = o.expected_dir ? estrdup(o.expected_dir) :
			 default_expected_dir(p.exe_dir);
	plots_dir = o.plots ? NULL : mr_plot_default_dir(p.exe_dir);
	if (plots_dir)
		o.plots = plots_dir;
	mr_spawn_init();
	if ((rc = readers(&o)) == MR_OK)
		rc = o.cmd->run(&o, &p);
	fflush(stdout);
	free(p.exe);
	free(p.exe_dir);
	free(p.cases_dir);
	free(p.expected_dir);
	free(plots_dir);
	opts_free(&o);
	return rc;
}
