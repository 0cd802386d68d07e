/* args: the command line's options — see args.h. */
#include "args.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/suggest.h"
#include "out/format.h"
#include "matrix/cmdcase.h"
#include "matrix/regparse.h"
#include "session/resume.h"
#include "matrix/shard.h"

#define DEFAULT_REPEAT 3
#define MAX_JOBS 64
#define DEFAULT_INTERVAL_MS 10

/* The options: the order in which "does not apply" names the first. */
static const struct option_def {
	const char *name; /* "--long" */
	mr_optbits bit;
	int has_arg;
	const char *abbr; /* the short option ("-j"), NULL: none */
} optab[] = {
	{ "--axis", O_AXIS, 1, NULL },
	{ "--alloc", O_ALLOC, 1, NULL },
	{ "--allocators", O_ALLOCATORS, 1, NULL },
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
	{ "--no-charts", O_NOCHARTS, 0, NULL },
	{ "--name", O_NAME, 1, NULL },
	{ "--mark-every", O_MARKEVERY, 1, NULL },
	{ "--mark-on", O_MARKON, 1, NULL },
	{ "--checkpoints", O_CKPTNAMES, 1, NULL },
	{ "--lang", O_LANG, 1, NULL },
	{ "--claims", O_CLAIMS, 1, NULL },
	{ "--verbose", O_VERBOSE, 0, "-v" },
	{ "--help", O_HELP, 0, "-h" },
	{ "--version", O_VERSION, 0, NULL },
};
#define NOPT ((int)(sizeof optab / sizeof optab[0]))
/* getopt_long's value of a long option without a letter: OPT0 + index. */
#define OPT0 256

void
mr_args_free(struct mr_args *o)
{
	int i;

	for (i = 0; i < o->nax; i++)
		mr_matrix_axis_free(&o->axes[i]);
	free(o->axes);
	free(o->allocs);
	free(o->names);
	sb_free(&o->record);
	for (i = 0; o->owned && o->owned[i]; i++)
		free(o->owned[i]);
	free(o->owned);
	memset(o, 0, sizeof *o);
}

static _Noreturn void
usage_error(struct mr_args *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static _Noreturn void
usage_error(struct mr_args *o, const char *fmt, ...)
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
	mr_args_free(o);
	exit(MR_USAGE);
}

static long
num_arg(struct mr_args *o, const char *opt, const char *v, long min, long max)
{
	long long x;

	if (parse_ll(v, &x) < 0 || x < min || x > max)
		usage_error(o, "%s '%s': want a whole number in %ld..%ld", opt, v, min, max);
	return (long)x;
}

static double
real_arg(struct mr_args *o, const char *opt, const char *v)
{
	double x;

	/* decimal only: strtod would take 0x10, infinity, blanks */
	if (strspn(v, "0123456789.eE+-") != strlen(v) ||
	    parse_double(v, &x) < 0 || x <= 0 || x > 1e6)
		usage_error(o, "%s '%s': want a positive number (at most 1e6)", opt, v);
	return x;
}

/* --alloc NAME=PATH|SONAME: its syntax here; the name and the path are
 * checked against the registry once it is read (main). */
static void
set_alloc(struct mr_args *o, const char *v)
{
	const char *eq = strchr(v, '=');

	if (!eq || eq == v)
		usage_error(o, "--alloc '%s': want NAME=PATH or NAME=SONAME", v);
	if (!mr_alloc_valid_soname(eq + 1))
		usage_error(o, "--alloc '%s': bad library name '%s'", v, eq + 1);
	o->allocs = erealloc(o->allocs, (size_t)(o->nallocs + 1) * sizeof *o->allocs);
	o->allocs[o->nallocs++] = v;
}

static void
set_axis(struct mr_args *o, const char *v)
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
set_word(struct mr_args *o, mr_optbits bit, const char *v)
{
	double x;

	switch (bit) {
	case O_PROFILE:
		switch (mr_profile(v)) {
		case MR_PROFILE_QUICK:
			o->quick = 1;
			break;
		case MR_PROFILE_FULL:
			o->quick = 0;
			break;
		case MR_PROFILE_VERSIONS:
			o->quick = o->versions = 1;
			break;
		case MR_PROFILE_ORIGINALS:
			o->quick = 0, o->originals = 1;
			break;
		case MR_PROFILE_KERNELS:
			o->quick = o->kernels = 1;
			break;
		default:
			usage_error(o, "--profile '%s': want %s", v, mr_profile_list());
		}
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
		/* checked once the command is known (check_args): one of
		 * its own words (own_format) reads format_word */
		o->format_word = v;
		o->format = mr_fmt_parse(v);
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
set_option(struct mr_args *o, const struct option_def *d, const char *name, const char *v)
{
	o->given |= d->bit;
	if (strpbrk(v, "\t\n\r"))
		usage_error(o, "%s: a value with a tab or a newline cannot be recorded in " MR_FILE_ENV, name);
	/* what --resume needs to run the same matrix the same way */
	if (!(d->bit & (O_OUT | O_VERBOSE | O_RESUME | O_FORMAT | O_QUIET | O_YES |
			O_PLOTS | O_NOCHARTS | O_FAILON | O_JOBS | O_HELP | O_VERSION))) {
		char *a = d->has_arg ? esprintf("%s=%s", d->name, v) : estrdup(d->name);

		mr_resume_record_arg(&o->record, a);
		free(a);
	}
	switch (d->bit) {
	case O_AXIS: set_axis(o, v); break;
	case O_ALLOC: set_alloc(o, v); break;
	case O_ALLOCATORS: o->allocators = v; break;
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
	case O_NOCHARTS: o->no_charts = 1; break;
	case O_NAME: o->cmd_name = v; break; /* checked by matrix/cmdcase.c */
	case O_MARKEVERY: o->mark_every = v; break;
	case O_MARKON: o->mark_on = v; break;
	case O_CKPTNAMES: o->ckpt_names = v; break;
	case O_LANG: o->lang = v; break; /* checked by cmdnew.c */
	case O_CLAIMS: /* there: a misspelt one would judge nothing, and pass */
		if (access(v, R_OK) < 0)
			usage_error(o, "--claims %s: %s", v, strerror(errno));
		o->claims = v;
		break;
	case O_HELP: o->help = 1; break;
	case O_VERSION: o->version = 1; break;
	default: set_word(o, d->bit, v); break;
	}
}

static const struct mr_command *
find_command(const struct mr_args *o, const char *name)
{
	int i;

	for (i = 0; i < o->ncmds; i++)
		if (strcmp(o->cmds[i].name, name) == 0)
			return &o->cmds[i];
	return NULL;
}

/* "unknown command 'a'", the nearest command's name when one is near
 * (2 edits or fewer), and every command of the table. */
static _Noreturn void
unknown_command(struct mr_args *o, const char *a)
{
	struct strbuf b = { 0 };
	const char *best = NULL;
	char msg[1024];
	int bd = 3, i;

	for (i = 0; i < o->ncmds; i++) {
		int d = mr_edit_distance(a, o->cmds[i].name);

		if (d < bd) {
			bd = d;
			best = o->cmds[i].name;
		}
		sb_printf(&b, "%s%s", i ? ", " : "", o->cmds[i].name);
	}
	snprintf(msg, sizeof msg, "%s", b.s ? b.s : "");
	sb_free(&b);
	if (best)
		usage_error(o, "unknown command '%s'; did you mean '%s'? commands: %s", a, best, msg);
	usage_error(o, "unknown command '%s'; commands: %s", a, msg);
}

/* A positional argument: the command, or one of its names. */
static void
positional(struct mr_args *o, const char *a)
{
	if (o->cmd) {
		o->names[o->nnames++] = a;
		return;
	}
	if (!(o->cmd = find_command(o, a)))
		unknown_command(o, a);
}

/* Whether getopt_long's value c is option i's. */
static int
is_opt(int c, int i)
{
	return c == OPT0 + i || (optab[i].abbr && c == optab[i].abbr[1]);
}

/* getopt_long's error c ('?' or ':') at argument arg: the message. */
static _Noreturn void
bad_option(struct mr_args *o, int c, const char *arg)
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
scan_args(struct mr_args *o, int argc, char **argv)
{
	struct option lo[NOPT + 1];
	char letters[3 * NOPT + 4] = "-:";
	const char *last = NULL; /* the last option's value */
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
		last = optarg;
	}
	/* run [OPTIONS] -- CMD [ARGS...]: a command (matrix/cmdcase.h) */
	if (o->cmd && o->cmd->command && !o->recorded && optind > 0 && optind <= argc &&
	    strcmp(argv[optind - 1], "--") == 0 && argv[optind - 1] != last) {
		o->command = &argv[optind];
		o->ncommand = argc - optind;
		if (!o->ncommand)
			usage_error(o, "-- needs a command after it: memrepro run [OPTIONS] -- CMD [ARGS...]");
		return;
	}
	/* after "--": only positional arguments */
	for (; optind < argc; optind++)
		positional(o, argv[optind]);
}

/* The first option of bits in optab's order: its name. */
const char *
mr_args_first(mr_optbits bits)
{
	int i;

	for (i = 0; i < NOPT && !(bits & optab[i].bit); i++)
		;
	return i < NOPT ? optab[i].name : "?";
}

/* What the command's table entry says of the options and arguments. */
static void
check_args(struct mr_args *o)
{
	const struct mr_command *c = o->cmd;
	int i, extra;

	if ((o->given & (O_VERBOSE | O_QUIET)) == (O_VERBOSE | O_QUIET))
		usage_error(o, "--verbose and --quiet exclude each other: give one");
	if (o->given & ~(c->allowed | O_HELP | O_VERSION))
		usage_error(o, "%s does not apply to %s",
			    mr_args_first(o->given & ~(c->allowed | O_HELP | O_VERSION)), c->name);
	if ((o->given & O_FORMAT) && o->format < 0 && !c->own_format)
		usage_error(o, "--format '%s': want human, tap, junit or json", o->format_word);
	/* --cases is harmless with --from (nothing is run, so not needed) */
	extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES | O_FORMAT |
			     O_QUIET | O_YES | O_PLOTS | O_CLAIMS | O_HELP | O_VERSION);
	if (o->from && extra)
		usage_error(o, "%s does not apply with --from (nothing is run)", mr_args_first(extra));
	extra = o->given & ~(O_RESUME | O_VERBOSE | O_FORMAT | O_QUIET | O_YES | O_PLOTS |
			     O_JOBS | O_HELP | O_VERSION);
	if (o->resume && extra)
		usage_error(o, "%s cannot be given with --resume: it continues with the options %s/" MR_FILE_ENV " recorded",
			    mr_args_first(extra), o->resume);
	if (o->resume && o->nnames)
		usage_error(o, "case names cannot be given with --resume: it continues with the cases %s/" MR_FILE_ENV " recorded",
			    o->resume);
	if (o->recorded && (o->given & O_COMMAND))
		usage_error(o, "--resume: the runs of that directory were a command's (run -- CMD): run it again");
	if ((o->given & O_COMMAND) && !o->command)
		usage_error(o, "%s applies to a command only: memrepro run [OPTIONS] -- CMD [ARGS...]",
			    mr_args_first(o->given & O_COMMAND));
	if ((o->given & O_CLAIMS) && c->command && !o->command)
		usage_error(o, "--claims applies to a command only: memrepro run [OPTIONS] -- CMD [ARGS...]");
	if ((o->given & O_CLAIMS) && !c->command && (!o->from || o->nnames != 1))
		usage_error(o, "--claims FILE judges one case's results: %s --from DIR --claims FILE NAME",
			    c->name);
	if (o->command && o->nnames)
		usage_error(o, "case names and a command exclude each other: give the command after --, alone");
	if (o->command && o->resume)
		usage_error(o, "--resume does not continue a command's runs: run the command again");
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

int
mr_args_parse(struct mr_args *o, const struct mr_command *cmds, int ncmds,
	      int argc, char **argv)
{
	int i;

	o->cmds = cmds;
	o->ncmds = ncmds;
	o->quick = -1;
	o->repeat = DEFAULT_REPEAT;
	o->jobs = 1;
	o->factor = 1;
	o->interval_ms = DEFAULT_INTERVAL_MS;
	o->fail_on = -1;
	o->resume_lock = -1;
	o->names = ecalloc((size_t)argc + 1, sizeof *o->names);
	scan_args(o, argc, argv);
	if (o->help) {
		if (o->cmd)
			mr_help_command(o->cmd->help, o->cmd->allowed | O_HELP);
		else
			mr_help_global(stdout);
		mr_args_free(o);
		exit(MR_OK);
	}
	if (o->version)
		return 1;
	if (!o->cmd) {
		mr_help_global(stderr);
		mr_args_free(o);
		exit(MR_USAGE);
	}
	check_args(o);
	if (o->quick < 0) {
		char *a;

		o->quick = o->cmd->quick;
		/* the profile the command chose, so a resume by another
		 * command keeps it */
		a = esprintf("--profile=%s", mr_profiles[o->quick ? MR_PROFILE_QUICK : MR_PROFILE_FULL]);
		mr_resume_record_arg(&o->record, a);
		free(a);
	}
	if (o->command && !o->cmd_name) {
		/* its name: what says to --resume that these were a command's */
		char name[65], *a;

		mr_cmdcase_name(o->command[0], name, sizeof name);
		a = esprintf("--name=%s", name);
		mr_resume_record_arg(&o->record, a);
		free(a);
	}
	if (o->nnames)
		mr_resume_record_arg(&o->record, "--");
	for (i = 0; i < o->nnames; i++)
		mr_resume_record_arg(&o->record, o->names[i]);
	return 0;
}

void
mr_args_resume(struct mr_args *o)
{
	struct mr_args n = { 0 };
	char **argv;
	int argc, lock;

	if (mr_resume_argv(o->resume, o->cmd->name, &lock, &argv, &argc) < 0) {
		mr_args_free(o);
		exit(MR_USAGE);
	}
	n.owned = argv;
	n.recorded = 1;
	mr_args_parse(&n, o->cmds, o->ncmds, argc, argv);
	n.resume = o->resume;
	n.resume_lock = lock;
	n.out = o->resume;
	n.verbose |= o->verbose;
	n.quiet |= o->quiet;
	n.yes |= o->yes;
	n.format = o->format;
	n.plots = o->plots;
	n.jobs = o->jobs; /* not recorded: how many at once is the resume's choice */
	mr_args_free(o);
	*o = n;
}
