/* memrepro: run the corpus of memory-behaviour reproductions.
 *
 * main: the command line, and the loop over cases x repeats x configs.
 * Everything else lives in its module: cases (discovery, --describe),
 * matrix (configs), alloc (allocators by soname), envfp (fingerprint),
 * spawn (one measured run), results (the TSV files), compare (verdicts),
 * format (how they are printed), term (progress and colour), report,
 * charts and plot (report.md/html and gnuplot), diff (compare OLD NEW),
 * trend (a history of results).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/alloc.h"
#include "check/baseline.h"
#include "proto/cases.h"
#include "run/cgroup.h"
#include "check/check.h"
#include "out/compare.h"
#include "run/envfp.h"
#include "run/matrix.h"
#include "results/merge.h"
#include "out/plot.h"
#include "out/report.h"
#include "results/write.h"
#include "run/schedule.h"
#include "run/shard.h"
#include "run/spawn.h"
#include "run/term.h"
#include "out/trend.h"
#include "core/util.h"

#define DEFAULT_TIMEOUT_S 60
#define DEFAULT_REPEAT 3
#define MAX_JOBS 64
#define DEFAULT_INTERVAL_MS 10
/* Timeouts are capped (a month) so that deadlines in ns cannot overflow. */
#define MAX_TIMEOUT_S (30 * 86400)
/* Lines of a failed run's log shown on the terminal. */
#define LOG_TAIL 10

enum {
	O_AXIS = 1 << 0,
	O_PROFILE = 1 << 1,
	O_REPEAT = 1 << 2,
	O_OUT = 1 << 3,
	O_TIMEOUT = 1 << 4,
	O_FACTOR = 1 << 5,
	O_INTERVAL = 1 << 6,
	O_CASES = 1 << 7,
	O_EXPECTED = 1 << 8,
	O_FROM = 1 << 9,
	O_VERBOSE = 1 << 10,
	O_HELP = 1 << 11,  /* only for listing the help option */
	O_ALLOC = 1 << 12,
	O_FORMAT = 1 << 13,
	O_QUIET = 1 << 14,
	O_YES = 1 << 15,
	O_PLOTS = 1 << 16,
	O_FAILON = 1 << 17,
	/* high bits: clear of options added below 1 << 20 */
	O_MEMCAP = 1 << 20,
	O_RESUME = 1 << 21,
	O_SHARD = 1 << 22,
	O_JOBS = 1 << 23,
	O_ASLR = 1 << 24,
};

#define O_RUN (O_AXIS | O_PROFILE | O_REPEAT | O_OUT | O_TIMEOUT | O_FACTOR | \
	       O_INTERVAL | O_CASES | O_VERBOSE | O_ALLOC | O_MEMCAP | O_RESUME | \
	       O_SHARD | O_JOBS | O_ASLR)

static const struct option_def {
	const char *name;
	int bit;
	int has_arg;
} optab[] = {
	{ "--axis", O_AXIS, 1 },
	{ "--alloc", O_ALLOC, 1 },
	{ "--profile", O_PROFILE, 1 },
	{ "--repeat", O_REPEAT, 1 },
	{ "--out", O_OUT, 1 },
	{ "--timeout", O_TIMEOUT, 1 },
	{ "--timeout-factor", O_FACTOR, 1 },
	{ "--interval", O_INTERVAL, 1 },
	{ "--cases", O_CASES, 1 },
	{ "--expected", O_EXPECTED, 1 },
	{ "--from", O_FROM, 1 },
	{ "--mem-cap", O_MEMCAP, 1 },
	{ "--resume", O_RESUME, 1 },
	{ "--shard", O_SHARD, 1 },
	{ "--jobs", O_JOBS, 1 },
	{ "--aslr", O_ASLR, 1 },
	{ "-j", O_JOBS, 1 },
	{ "--format", O_FORMAT, 1 },
	{ "--quiet", O_QUIET, 0 },
	{ "-q", O_QUIET, 0 },
	{ "--yes", O_YES, 0 },
	{ "-y", O_YES, 0 },
	{ "--plots", O_PLOTS, 1 },
	{ "--fail-on", O_FAILON, 1 },
	{ "--verbose", O_VERBOSE, 0 },
	{ "-v", O_VERBOSE, 0 },
	{ NULL, 0, 0 },
};

static const struct command {
	const char *name;
	int allowed;   /* option bits */
	int min_names; /* positional case names */
	int max_names; /* -1: any */
	const char *usage;
	const char *help;
} commands[] = {
	{ "list", O_CASES | O_VERBOSE, 0, 0,
	  "memrepro list [--cases DIR]",
	  "List the cases found in the cases directory, one per line: name, axes\n"
	  "(besides allocator) and title, tab-separated.  A case whose --describe output is bad is reported (naming the\n"
	  "case, line and column) and the listing goes on; the status is then 2.\n"
	  "\n"
	  "Example:\n"
	  "  memrepro list\n" },
	{ "describe", O_CASES | O_AXIS | O_PROFILE | O_VERBOSE, 1, 1,
	  "memrepro describe [--axis KEY=V1,V2]... [--profile quick|full] CASE",
	  "Show what a case says about itself (source, parameters, checkpoints)\n"
	  "and the configs it would run under these options (profile: full).\n"
	  "\n"
	  "Example:\n"
	  "  memrepro describe fiber-stacks --axis allocator=glibc,jemalloc\n" },
	{ "run", O_RUN | O_QUIET | O_EXPECTED, 0, -1,
	  "memrepro run [OPTIONS] [CASE...]",
	  "Run every case (or the named ones) under its matrix of configs, each\n"
	  "--repeat times, and write a results directory (docs/formats.md).\n"
	  "Profile: full unless --profile quick.  Progress goes to stdout.\n"
	  "Status: 0 when every run was ok or skipped, 1 when one failed, crashed,\n"
	  "timed out, could not exec or wrote bad records, 2 on bad usage/input.\n"
	  "\n"
	  "Example:\n"
	  "  memrepro run fiber-stacks --axis madvise=free,dontneed --repeat 5\n" },
	{ "check", O_RUN | O_EXPECTED | O_FROM | O_FORMAT | O_QUIET, 0, -1,
	  "memrepro check [OPTIONS] [--from RESULTS] [CASE...]",
	  "Run (profile: quick unless --profile full) and compare the results\n"
	  "with the claims and baselines in the expected directory; or, with\n"
	  "--from, compare an existing results directory without running.\n"
	  "Verdicts go to stdout (--format: human, tap, junit, json), progress\n"
	  "to stderr.  Status: 0 when everything held, 1 on a regression or a\n"
	  "failed run, 2 on bad usage/input.\n"
	  "\n"
	  "Examples:\n"
	  "  memrepro check\n"
	  "  memrepro check --from results/20250101-120000 fiber-stacks\n"
	  "  memrepro check --format junit > junit.xml\n" },
	{ "bless", O_RUN | O_EXPECTED | O_FROM | O_YES | O_QUIET, 0, -1,
	  "memrepro bless [OPTIONS] [--from RESULTS] [CASE...]",
	  "Run (profile: quick unless --profile full), or take --from an existing\n"
	  "results directory, and write the baselines of this platform:\n"
	  "<expected>/<platform>/<case>.tsv.  First shows what changes: rows whose\n"
	  "median moves beyond the old tolerance, new and gone rows (--verbose:\n"
	  "every new and gone row).  On a terminal it then asks; --yes writes\n"
	  "without asking; not on a terminal it writes (scripts, CI).  A baseline\n"
	  "whose rows would not change is left as it is.  Status: 1 when the\n"
	  "question was declined or a file could not be written.\n"
	  "\n"
	  "Examples:\n"
	  "  memrepro bless fiber-stacks --repeat 5\n"
	  "  memrepro bless --from results/20250101-120000 --yes\n" },
	{ "report", O_RUN | O_EXPECTED | O_FROM | O_PLOTS | O_QUIET, 0, -1,
	  "memrepro report [OPTIONS] [DIR | CASE...]",
	  "Write DIR/report.md, a self-contained DIR/report.html and every chart\n"
	  "(DIR/plots/*.png and *.svg) for the results directory DIR, without\n"
	  "rerunning anything; with no DIR, first run the cases (every case, or\n"
	  "the named ones; profile full unless --profile quick) into a new\n"
	  "results directory, as run does.  A single argument that names an\n"
	  "existing directory is DIR (or say --from DIR).  Needs gnuplot.\n"
	  "Status: 0 when the report and every chart were written (whatever the\n"
	  "verdicts), 1 when something could not be, 2 on bad usage/input.\n"
	  "\n"
	  "Examples:\n"
	  "  memrepro report                  # run the default matrix, then report\n"
	  "  memrepro report results/20250101-120000\n" },
	{ "compare", O_OUT | O_PLOTS | O_FAILON | O_VERBOSE, 2, 2,
	  "memrepro compare [--fail-on PCT] [--out DIR] OLD NEW",
	  "Compare two results directories (before and after an upgrade, two\n"
	  "machines): per case, config, checkpoint and metric both measured, the\n"
	  "medians, the change in percent and whether it is beyond the noise of\n"
	  "the repeats (Mann-Whitney U, p < 0.05, with 4 repeats or more on each\n"
	  "side; else non-overlapping ranges; never for a change below the\n"
	  "metric's smallest change: memory 3 % and 512 kB, time 10 % and 30 ms,\n"
	  "counts 10 % and 100).  Prints the changes beyond noise (--verbose:\n"
	  "every row); writes DIR/compare.tsv and a chart per case (DIR: --out,\n"
	  "default NEW/compare).  Status: 1 with --fail-on when a figure is worse\n"
	  "beyond noise by more than PCT percent, else 0; 2 on bad usage/input.\n"
	  "\n"
	  "Example:\n"
	  "  memrepro compare results/before results/after --fail-on 10\n" },
	{ "trend", O_OUT | O_PLOTS | O_VERBOSE, 2, -1,
	  "memrepro trend [--out DIR] DIR DIR...",
	  "Follow figures over many results directories (a nightly history),\n"
	  "ordered by the time each started: per case, config, checkpoint and\n"
	  "metric the medians as a series, with its step changes found by binary\n"
	  "segmentation of the medians (a step: the median shifts by more than\n"
	  "3 x the repeats' range and the metric's smallest change, as compare's).\n"
	  "Prints the steps (--verbose: every series); writes DIR/trend.tsv and\n"
	  "a chart per case (DIR: --out, default the newest results' trend/).\n"
	  "Status: 0, 1 when a chart could not be drawn, 2 on bad usage/input.\n"
	  "\n"
	  "Example:\n"
	  "  memrepro trend results/2025*\n" },
	{ "merge", O_OUT | O_VERBOSE, 0, -1,
	  "memrepro merge --out DIR SHARD_DIR...",
	  "Join the results directories of the shards of one run (run, check or\n"
	  "bless --shard K/N, every K of N) into one results directory DIR, on\n"
	  "which check --from, compare and report work as on a single run.\n"
	  "DIR/env.tsv is the first shard's, without shard and with merged_from;\n"
	  "the runs, checkpoints and series rows are joined and the logs copied.\n"
	  "Refused (status 2, nothing written): shards of different platforms,\n"
	  "profiles, memrepro versions, options or plans, a shard missing or\n"
	  "given twice, a (case, config, repeat) in two shards.\n"
	  "\n"
	  "Example:\n"
	  "  memrepro merge --out results/nightly results/shard-*\n" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

/* Option help, by option: a command's help lists the ones it takes. */
static const struct {
	int bit;
	const char *text;
} options_help[] = {
	{ O_AXIS,
	  "  --axis KEY=V1[,V2...]  set the values of an axis, or fix a parameter\n"
	  "                         (repeatable, each KEY once).  KEY is\n"
	  "                         allocator (glibc|jemalloc|tcmalloc|mimalloc),\n"
	  "                         glibc.<namespace>.<tunable> (passed in\n"
	  "                         GLIBC_TUNABLES, part of the config), or a case\n"
	  "                         parameter (values must be allowed by each case\n"
	  "                         that has it; cases without it ignore it), or\n"
	  "                         pressure (none or MiB: run in a memory cgroup\n"
	  "                         limited to that size; off unless given)\n" },
	{ O_MEMCAP,
	  "  --mem-cap MIB          cap each run's memory (its own memory cgroup; the\n"
	  "                         sampler kills past it where none can be made):\n"
	  "                         over it the outcome is memory-cap\n" },
	{ O_RESUME,
	  "  --resume DIR           continue the interrupted run whose results are in\n"
	  "                         DIR, with the options it recorded (no others)\n" },
	{ O_SHARD,
	  "  --shard K/N            run only shard K of N: the (case, config) pairs\n"
	  "                         split evenly by expected cost (a CI job each;\n"
	  "                         join the results with memrepro merge)\n" },
	{ O_JOBS,
	  "  -j, --jobs N           up to N runs at once, of those whose times no\n"
	  "                         claim or baseline compares; the others run\n"
	  "                         alone (default 1)\n" },
	{ O_ASLR,
	  "  --aslr on|off          address space randomization of the cases\n"
	  "                         (default off: where a mapping lands decides\n"
	  "                         whether THP or an allocator's 2 MiB alignment\n"
	  "                         costs a page more, run to run)\n" },
	{ O_ALLOC,
	  "  --alloc NAME=SONAME    load allocator NAME (jemalloc, tcmalloc, mimalloc)\n"
	  "                         from another library, e.g.\n"
	  "                         tcmalloc=libtcmalloc.so.4 (repeatable)\n" },
	{ O_PROFILE,
	  "  --profile quick|full   parameter values: quick ones or the defaults\n"
	  "                         (default: full for run and describe, quick for\n"
	  "                         check and bless)\n" },
	{ O_REPEAT, "  --repeat N             runs per config (default 3)\n" },
	{ O_OUT,
	  "  --out DIR              results directory (default\n"
	  "                         results/<YYYYmmdd-HHMMSS>); must be new or empty.\n"
	  "                         compare, trend: where the table and charts go\n" },
	{ O_TIMEOUT,
	  "  --timeout S            per-run timeout in seconds (default: the case's\n"
	  "                         own, else 60)\n" },
	{ O_FACTOR, "  --timeout-factor F     multiply every timeout (valgrind, sanitizers)\n" },
	{ O_INTERVAL, "  --interval MS          sampling interval (default 10)\n" },
	{ O_CASES,
	  "  --cases DIR            case binaries (default: <exe dir>/cases, else\n"
	  "                         <exe dir>/../libexec/memrepro/cases)\n" },
	{ O_EXPECTED,
	  "  --expected DIR         claims and baselines (default: ./expected if it\n"
	  "                         exists, else <exe dir>/../share/memrepro/expected)\n" },
	{ O_FROM, "  --from DIR             compare this results directory, do not run\n" },
	{ O_FORMAT,
	  "  --format FMT           verdicts as human (default), tap (TAP 13, as\n"
	  "                         kselftest), junit (JUnit XML) or json\n" },
	{ O_YES, "  -y, --yes              write the baselines without asking\n" },
	{ O_PLOTS,
	  "  --plots DIR            gnuplot scripts (default: <exe dir>/../plots in\n"
	  "                         the tree, else <exe dir>/../share/memrepro/plots)\n" },
	{ O_FAILON,
	  "  --fail-on PCT          exit 1 when a figure is worse beyond the noise by\n"
	  "                         more than PCT percent\n" },
	{ O_QUIET, "  -q, --quiet            no progress, only what went wrong and the result\n" },
	{ O_VERBOSE, "  -v, --verbose          more detail (command lines, every verdict)\n" },
	{ O_HELP, "  -h, --help             help (memrepro COMMAND --help for a command's)\n" },
	{ 0, NULL },
};

static void
print_options(FILE *f, int bits)
{
	int i;

	fprintf(f, "Options:\n");
	for (i = 0; options_help[i].text; i++)
		if (options_help[i].bit & bits)
			fputs(options_help[i].text, f);
}

static void
usage_global(FILE *f)
{
	const struct command *c;

	fprintf(f, "usage: memrepro COMMAND [OPTIONS] [CASE...]\n\n"
		"Reproduce memory-behaviour reports and check them against\n"
		"expectations.\n\nCommands:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "  %s\n", c->usage);
	fputc('\n', f);
	print_options(f, ~0);
	fprintf(f, "\nExamples:\n"
		"  memrepro list\n"
		"  memrepro run --cases build/fixtures touch --repeat 2\n"
		"  memrepro check --profile quick\n");
}

static void
usage_command(const struct command *c)
{
	printf("usage: %s\n\n%s\n", c->usage, c->help);
	print_options(stdout, c->allowed | O_HELP);
}

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
	int shard_k, shard_n;      /* --shard K/N; 0/0: none */
	long jobs;                 /* -j, --jobs: runs at once */
	int aslr;                  /* --aslr on: leave the cases' layout random */
	struct strbuf record;      /* the options that shape the results, as
	                              env.tsv's "options" records them */
	char **owned;              /* argument strings read back by --resume */
};

/* --resume DIR: the fd holding DIR's lock, taken before anything of DIR
 * is read (mr_results_lock), handed to mr_results_reopen; -1: none. */
static int resume_lock = -1;

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

/* Add one argument to the record: blanks separate arguments, so a blank
 * inside one is written \s and a backslash \\. */
static void
record_arg(struct strbuf *b, const char *a)
{
	if (b->len)
		sb_add(b, " ");
	for (; *a; a++) {
		if (*a == ' ')
			sb_add(b, "\\s");
		else if (*a == '\\')
			sb_add(b, "\\\\");
		else
			sb_addn(b, a, 1);
	}
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
		fprintf(stderr, "usage: %s\n(memrepro %s --help for more)\n", o->cmd->usage, o->cmd->name);
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
set_option(struct opts *o, const struct option_def *d, const char *v)
{
	struct strbuf err = { 0 };

	o->given |= d->bit;
	if (strpbrk(v, "\t\n\r"))
		usage_error(o, "%s: a value with a tab or a newline cannot be recorded in env.tsv", d->name);
	/* what --resume needs to run the same matrix the same way */
	if (!(d->bit & (O_OUT | O_VERBOSE | O_RESUME | O_FORMAT | O_QUIET | O_YES |
			O_PLOTS | O_FAILON | O_JOBS))) {
		char *a = d->has_arg ? esprintf("%s=%s", d->name, v) : estrdup(d->name);

		record_arg(&o->record, a);
		free(a);
	}
	switch (d->bit) {
	case O_AXIS:
		o->axes = erealloc(o->axes, (size_t)(o->nax + 1) * sizeof *o->axes);
		if (mr_matrix_parse_axis(v, &o->axes[o->nax], &err) < 0) {
			char msg[1024];

			snprintf(msg, sizeof msg, "%s", err.s);
			sb_free(&err);
			usage_error(o, "%s", msg);
		}
		o->nax++;
		break;
	case O_ALLOC: {
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
		break;
	}
	case O_PROFILE:
		if (strcmp(v, "quick") == 0)
			o->quick = 1;
		else if (strcmp(v, "full") == 0)
			o->quick = 0;
		else
			usage_error(o, "--profile '%s': want quick or full", v);
		break;
	case O_REPEAT:
		o->repeat = num_arg(o, d->name, v, 1, 1000);
		break;
	case O_JOBS:
		o->jobs = num_arg(o, d->name, v, 1, MAX_JOBS);
		break;
	case O_OUT:
		o->out = v;
		break;
	case O_TIMEOUT:
		o->timeout_s = real_arg(o, d->name, v);
		break;
	case O_FACTOR:
		o->factor = real_arg(o, d->name, v);
		break;
	case O_INTERVAL:
		o->interval_ms = num_arg(o, d->name, v, 1, 60000);
		break;
	case O_CASES:
		o->cases_dir = v;
		break;
	case O_EXPECTED:
		o->expected_dir = v;
		break;
	case O_FROM:
		o->from = v;
		break;
	case O_MEMCAP:
		o->mem_cap_mib = num_arg(o, d->name, v, 1, MR_MATRIX_MAX_MIB);
		break;
	case O_RESUME:
		o->resume = v;
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
	case O_VERBOSE:
		o->verbose = 1;
		break;
	case O_FORMAT:
		if ((o->format = mr_fmt_parse(v)) < 0)
			usage_error(o, "--format '%s': want human, tap, junit or json", v);
		break;
	case O_QUIET:
		o->quiet = 1;
		break;
	case O_YES:
		o->yes = 1;
		break;
	case O_PLOTS:
		o->plots = v;
		break;
	case O_FAILON: {
		double x;

		if (parse_double(v, &x) < 0 || x < 0 || x > 1e6)
			usage_error(o, "--fail-on '%s': want a percentage (0 or more)", v);
		o->fail_on = x;
		break;
	}
	}
}

static const struct command *
find_command(const char *name)
{
	const struct command *c;

	for (c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void
parse_args(struct opts *o, int argc, char **argv)
{
	int i, only_names = 0, help = 0;

	o->quick = -1;
	o->repeat = DEFAULT_REPEAT;
	o->jobs = 1;
	o->factor = 1;
	o->interval_ms = DEFAULT_INTERVAL_MS;
	o->fail_on = -1;
	o->names = ecalloc((size_t)argc + 1, sizeof *o->names);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = "";
		const struct option_def *d;
		size_t len;

		if (only_names || a[0] != '-' || !a[1]) {
			if (!o->cmd) {
				o->cmd = find_command(a);
				if (!o->cmd) {
					usage_error(o, "unknown command '%s'; commands: list, describe, run, check, bless, report, compare, trend, merge", a);
				}
			} else {
				o->names[o->nnames++] = a;
			}
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_names = 1;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			help = 1;
			continue;
		}
		if (a[1] == 'j' && isdigit((unsigned char)a[2])) {
			/* -j2, as make takes it */
			for (d = optab; d->bit != O_JOBS; d++)
				;
			set_option(o, d, a + 2);
			continue;
		}
		len = strcspn(a, "=");
		for (d = optab; d->name; d++)
			if (strlen(d->name) == len && strncmp(d->name, a, len) == 0)
				break;
		if (!d->name)
			usage_error(o, "unknown option '%s'", a);
		if (a[len] == '=') {
			if (!d->has_arg)
				usage_error(o, "%s takes no value", d->name);
			v = a + len + 1;
		} else if (d->has_arg) {
			if (i + 1 >= argc)
				usage_error(o, "%s needs a value", d->name);
			v = argv[++i];
		}
		set_option(o, d, v);
	}
	if (help) {
		if (o->cmd)
			usage_command(o->cmd);
		else
			usage_global(stdout);
		opts_free(o);
		exit(MR_OK);
	}
	if (!o->cmd) {
		usage_global(stderr);
		opts_free(o);
		exit(MR_USAGE);
	}
	for (i = 0; optab[i].name; i++)
		if ((o->given & optab[i].bit) && !(o->cmd->allowed & optab[i].bit))
			usage_error(o, "%s does not apply to %s", optab[i].name, o->cmd->name);
	if (o->from) {
		/* --cases is harmless (nothing is run, so it is not needed) */
		int extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES |
					 O_FORMAT | O_QUIET | O_YES | O_PLOTS);

		for (i = 0; optab[i].name; i++)
			if (extra & optab[i].bit)
				usage_error(o, "%s does not apply with --from (nothing is run)", optab[i].name);
	}
	if (o->resume) {
		int extra = o->given & ~(O_RESUME | O_VERBOSE | O_FORMAT | O_QUIET | O_YES |
					 O_PLOTS | O_JOBS);

		for (i = 0; optab[i].name; i++)
			if (extra & optab[i].bit)
				usage_error(o, "%s cannot be given with --resume: it continues with the options %s/env.tsv recorded",
					    optab[i].name, o->resume);
		if (o->nnames)
			usage_error(o, "case names cannot be given with --resume: it continues with the cases %s/env.tsv recorded",
				    o->resume);
	}
	for (i = 0; i < o->nnames; i++)
		if (strpbrk(o->names[i], "\t\n\r"))
			usage_error(o, "a case name with a tab or a newline");
	if (!strcmp(o->cmd->name, "compare") && o->nnames != 2)
		usage_error(o, "compare needs two results directories, OLD and NEW");
	if (!strcmp(o->cmd->name, "merge") && (!o->nnames || !o->out))
		usage_error(o, "merge needs --out DIR and the shards' results directories");
	if (!strcmp(o->cmd->name, "trend") && o->nnames < 2)
		usage_error(o, "trend needs two results directories or more");
	if (o->nnames < o->cmd->min_names)
		usage_error(o, "%s needs a case name", o->cmd->name);
	if (o->cmd->max_names >= 0 && o->nnames > o->cmd->max_names)
		usage_error(o, "%s takes %s", o->cmd->name,
			    o->cmd->max_names ? "one case name" : "no case names");
	if (o->quick < 0) {
		o->quick = strcmp(o->cmd->name, "check") == 0 || strcmp(o->cmd->name, "bless") == 0;
		/* the profile the command chose, so a resume by another
		 * command keeps it */
		record_arg(&o->record, o->quick ? "--profile=quick" : "--profile=full");
	}
	if (o->nnames)
		record_arg(&o->record, "--");
	for (i = 0; i < o->nnames; i++)
		record_arg(&o->record, o->names[i]);
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

/* --- case selection -------------------------------------------------- */

/* A bad description is input with a position: one line in the compiler
 * form (docs/formats.md), no program name.  Other failures are ours. */
static void
print_load_error(int rc, const struct strbuf *err)
{
	if (rc == -2)
		fprintf(stderr, "%s\n", err->s);
	else
		weprintf("%s", err->s);
}

/* The named cases (or all), loaded.  Returns how many, or -1 after
 * printing every problem (bad names, unknown cases, bad describes). */
static int
load_cases(const struct opts *o, const char *dir, struct mr_cases_desc **out)
{
	char **all = NULL;
	const char **want;
	int nall, nwant = 0, i, j, n = 0, bad = 0, rc;
	struct mr_cases_desc *v;

	*out = NULL;
	nall = mr_cases_discover(dir, &all);
	if (nall < 0) {
		errno = -nall;
		weprintf("cases directory %s:", dir);
		return -1;
	}
	want = ecalloc((size_t)(o->nnames ? o->nnames : nall) + 1, sizeof *want);
	if (o->nnames) {
		for (i = 0; i < o->nnames; i++) {
			const char *nm = o->names[i];
			int dup = 0;

			if (!mr_cases_valid_name(nm)) {
				weprintf("bad case name '%s' (want [a-z0-9][a-z0-9-]*)", nm);
				bad = 1;
				continue;
			}
			for (j = 0; j < nall && strcmp(all[j], nm) != 0; j++)
				;
			if (j == nall) {
				struct strbuf b = { 0 };

				for (j = 0; j < nall; j++)
					sb_printf(&b, "%s%s", j ? ", " : "", all[j]);
				weprintf("unknown case '%s'; cases in %s: %s", nm, dir,
					 nall ? b.s : "(none)");
				sb_free(&b);
				bad = 1;
				continue;
			}
			for (j = 0; j < nwant; j++)
				dup |= strcmp(want[j], nm) == 0;
			if (!dup)
				want[nwant++] = nm;
		}
	} else {
		for (i = 0; i < nall; i++)
			want[nwant++] = all[i];
		if (!nall) {
			weprintf("no cases in %s", dir);
			bad = 1;
		}
	}
	v = ecalloc((size_t)nwant + 1, sizeof *v);
	for (i = 0; !bad && i < nwant; i++) {
		struct strbuf err = { 0 };

		if ((rc = mr_cases_load(dir, want[i], &v[n], &err)) < 0) {
			print_load_error(rc, &err);
			bad = 1;
		} else {
			n++;
		}
		sb_free(&err);
	}
	free(want);
	mr_cases_free_names(all, nall);
	if (bad) {
		for (i = 0; i < n; i++)
			mr_cases_free(&v[i]);
		free(v);
		return -1;
	}
	*out = v;
	return n;
}

static void
free_cases(struct mr_cases_desc *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		mr_cases_free(&v[i]);
	free(v);
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
cmd_list(const char *dir)
{
	char **names;
	int n = mr_cases_discover(dir, &names), i, rc = MR_OK, lrc;

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
			print_load_error(lrc, &err);
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
cmd_describe(const struct opts *o, const char *dir)
{
	struct mr_cases_desc *c;
	struct mr_matrix m;
	struct strbuf err = { 0 };
	int i, rc = MR_OK;

	if (load_cases(o, dir, &c) < 0)
		return MR_USAGE;
	if (mr_matrix_check_axes(c, 1, o->axes, o->nax, &err) < 0 ||
	    mr_matrix_build(c, o->axes, o->nax, o->quick, &m, &err) < 0) {
		weprintf("%s", err.s);
		sb_free(&err);
		free_cases(c, 1);
		return MR_USAGE;
	}
	printf("%s: %s\n", c->name, c->title);
	printf("source: %s\n", c->source);
	printf("binary: %s\n", c->path);
	if (c->timeout_s)
		printf("timeout: %u s\n", c->timeout_s);
	else
		printf("timeout: runner default (%d s)\n", DEFAULT_TIMEOUT_S);
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
	free_cases(c, 1);
	return rc;
}

/* --- run ------------------------------------------------------------- */

static int
failing(const char *word)
{
	return strcmp(word, "ok") != 0 && strcmp(word, "skipped") != 0;
}

/* The state shared by the runs of one invocation. */
struct session {
	const struct opts *o;
	struct mr_results res;
	struct mr_alloc allocs[MR_ALLOC_N];
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
};

static long
timeout_ms(const struct opts *o, const struct mr_cases_desc *c)
{
	double s = o->timeout_s > 0 ? o->timeout_s :
		   c->timeout_s ? (double)c->timeout_s : DEFAULT_TIMEOUT_S;

	s *= o->factor;
	if (s > MAX_TIMEOUT_S)
		s = MAX_TIMEOUT_S;
	return s * 1000 < 1 ? 1 : (long)(s * 1000);
}

/* One run: what it needs, and when it ran. */
struct job {
	const struct mr_cases_desc *c;
	const struct mr_matrix_cfg *cf;
	int repeat;
	char *log, *abs;         /* relative to the results, and not */
	char *extra[3], **env, **argv;
	struct mr_spawn_req rq;
	struct mr_sched_worker w; /* -j: the worker running it */
	uint64_t t0, t1;         /* monotonic ns: started, ended (0: running) */
};

static void
job_free(struct job *j)
{
	int i;

	mr_matrix_argv_free(j->argv);
	mr_spawn_env_free(j->env);
	for (i = 0; i < 3; i++)
		free(j->extra[i]);
	free(j->abs);
	free(j->log);
	memset(j, 0, sizeof *j);
}

/* Get run j (c, cf and repeat set) ready to start.  Returns 0; 1 when its
 * allocator is missing (the run is recorded as skipped: nothing to start);
 * -1 to stop (the runner failed). */
static int
job_prepare(struct session *s, struct job *j)
{
	const struct opts *o = s->o;
	const struct mr_alloc *a = &s->allocs[mr_alloc_index(j->cf->allocator)];
	int nx = 0, i;

	if (a->missing) {
		struct mr_results_run row = { j->c->name, j->cf->canon, j->repeat, "skipped",
					      a->missing, NULL, "-", 0 };
		int rc = mr_results_add(&s->res, &row);

		mr_term_start(&s->term, j->c->name, j->cf->shortc, j->repeat, (int)o->repeat);
		mr_term_end(&s->term, &row, j->cf->shortc, (int)o->repeat, 0);
		return rc < 0 ? -1 : 1;
	}
	j->log = mr_results_log(&s->res, j->c->name, j->cf->safe, j->repeat);
	if (!j->log)
		return -1;
	j->abs = esprintf("%s/%s", s->res.dir, j->log);
	if (strcmp(a->name, "glibc") != 0)
		j->extra[nx++] = esprintf("LD_PRELOAD=%s", a->path);
	if (j->cf->tunables)
		j->extra[nx++] = esprintf("GLIBC_TUNABLES=%s", j->cf->tunables);
	j->env = mr_spawn_env((const char *const *)j->extra);
	j->argv = mr_matrix_argv(j->c, j->cf);
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
	mr_term_start(&s->term, j->c->name, j->cf->shortc, j->repeat, (int)o->repeat);
	return 0;
}

/* Record how run j went: rc and res from mr_spawn_run, overlap the runs
 * beside it.  Frees res.  Returns 0, or -1 to stop (the runner itself
 * failed, or an interrupt). */
static int
job_record(struct session *s, struct job *j, int rc, struct mr_spawn_res *res,
	   int overlap)
{
	const struct opts *o = s->o;
	struct mr_results_run row = { j->c->name, j->cf->canon, j->repeat, "skipped",
				      NULL, NULL, "-", overlap };
	char detail[512];

	if (rc == -ENOTSUP) {
		/* a pressure config where no memory cgroup can be made */
		snprintf(detail, sizeof detail, "pressure=%ld needs a memory cgroup: %s",
			 j->cf->pressure_mib, res->cgroup_why);
		row.detail = detail;
		rc = mr_results_add(&s->res, &row);
		mr_term_end(&s->term, &row, j->cf->shortc, (int)o->repeat, 0);
	} else if (rc == 0) {
		row.outcome = mr_spawn_describe(res, j->rq.timeout_ms, j->abs, detail,
						sizeof detail);
		row.detail = detail;
		row.res = res;
		row.log = j->log;
		rc = mr_results_add(&s->res, &row);
		mr_term_end(&s->term, &row, j->cf->shortc, (int)o->repeat,
			    failing(row.outcome));
		if (failing(row.outcome)) {
			s->failed = 1;
			mr_log_tail(s->progress, j->abs, LOG_TAIL, "# ");
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
	const struct mr_matrix_cfg *cf, int repeat)
{
	struct job j = { 0 };
	struct mr_spawn_res res;
	int rc;

	j.c = c;
	j.cf = cf;
	j.repeat = repeat;
	rc = job_prepare(s, &j);

	if (rc == 0)
		rc = job_record(s, &j, mr_spawn_run(&j.rq, &res), &res, 0);
	job_free(&j);
	return rc < 0 ? -1 : 0;
}

/* The runs that overlapped v[me] in time, among v[0..n-1] (started ones). */
static int
overlap(const struct job *v, int n, int me)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += i != me && v[i].t0 && v[i].t0 < v[me].t1 &&
		     (!v[i].t1 || v[i].t1 > v[me].t0);
	return k;
}

/* Run v[0..n-1] up to s->o->jobs at once, each in a worker.  On an
 * interrupt or a failure of the runner, starts no more, stops the running
 * ones and records what they got.  Returns 0, or -1 to stop. */
static int
run_side_by_side(struct session *s, struct job *v, int n)
{
	struct pollfd *pf = ecalloc((size_t)s->o->jobs, sizeof *pf);
	int *slot = ecalloc((size_t)s->o->jobs, sizeof *slot);
	int next = 0, running = 0, stop = 0, told = 0, i;

	mr_term_parallel(&s->term, 1);
	while ((next < n && !stop) || running) {
		int np = 0;

		if (mr_spawn_interrupted)
			stop = 1;
		if (stop && !told) {
			/* a signal to the runner alone: the workers pass it to
			 * their cases as it would have */
			for (i = 0; i < next; i++)
				if (v[i].w.pid)
					kill(v[i].w.pid, SIGTERM);
			told = 1;
		}
		while (!stop && running < s->o->jobs && next < n) {
			int rc = job_prepare(s, &v[next]);

			if (rc == 0 && mr_sched_start(&v[next].w, &v[next].rq) < 0)
				rc = -1;
			if (rc < 0) {
				stop = 1;
				break;
			}
			if (rc == 0) {
				v[next].t0 = mr_now_ns();
				running++;
			}
			next++;
		}
		for (i = 0; i < next; i++)
			if (v[i].w.pid && v[i].w.fd >= 0) {
				pf[np].fd = v[i].w.fd;
				pf[np].events = POLLIN;
				slot[np++] = i;
			}
		if (np && poll(pf, (nfds_t)np, 250) < 0 && errno != EINTR) {
			weprintf("poll:");
			stop = 1;
		}
		mr_term_tick(&s->term);
		for (i = 0; i < np; i++) {
			struct job *j = &v[slot[i]];
			struct mr_spawn_res res;
			int rc, e;

			if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			e = mr_sched_read(&j->w);
			if (e == 0)
				continue;
			if (e < 0) {
				errno = -e;
				weprintf("read from the worker of %s:", j->c->name);
				kill(j->w.pid, SIGKILL);
				close(j->w.fd);
				j->w.fd = -1;
			}
			j->t1 = mr_now_ns();
			running--;
			if (mr_sched_finish(&j->w, &rc, &res) < 0 || e < 0 ||
			    job_record(s, j, rc, &res, overlap(v, next, slot[i])) < 0)
				stop = 1;
		}
	}
	mr_term_parallel(&s->term, 0);
	for (i = 0; i < n; i++)
		job_free(&v[i]);
	free(pf);
	free(slot);
	return stop ? -1 : 0;
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
	int i, r, k, total = 0, nside = 0, pass;

	for (i = 0; i < ncases; i++)
		for (r = 1; r <= s->o->repeat; r++)
			for (k = 0; k < mats[i].n; k++)
				total += !(s->skip && s->skip[i][k]) &&
					 !mr_results_done_has(&s->done, cases[i].name,
							      mats[i].cfg[k].canon, r);
	mr_term_init(&s->term, s->progress, total, s->o->quiet);
	if (s->timed)
		side = ecalloc((size_t)total + 1, sizeof *side);
	/* pass 0 gathers the runs that may share the machine, pass 1 runs
	 * the others alone (every run, without -j) */
	for (pass = s->timed ? 0 : 1; pass < 2; pass++) {
		if (pass == 1 && nside) {
			int rc = run_side_by_side(s, side, nside);

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
					if ((s->skip && s->skip[i][k]) ||
					    mr_results_done_has(&s->done, cases[i].name,
								cf->canon, r))
						continue;
					if (pass == 0 && !s->timed[i][k]) {
						side[nside].c = &cases[i];
						side[nside].cf = cf;
						side[nside++].repeat = r;
					} else if (pass == 1 && (!s->timed || s->timed[i][k]) &&
						   run_one(s, &cases[i], cf, r) < 0) {
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

		weprintf("interrupted by SIG%s: the runs that ended are in %s; continue them with: memrepro %s --resume %s",
			 abbrev ? abbrev : "?", s->res.dir, s->o->cmd->name, s->res.dir);
		return 128 + sig;
	}
	return MR_FAILED;
}

/* -j: which configs of each case are timed (schedule.h), into s->timed.
 * Returns MR_OK, or MR_USAGE after printing what is wrong with the
 * expectations. */
static int
timed_plan(struct session *s, const struct mr_cases_desc *cases, int ncases,
	   const struct mr_matrix *mats, const char *expected_dir,
	   const char *platform)
{
	int i, k, rc = MR_OK;

	s->timed = ecalloc((size_t)ncases + 1, sizeof *s->timed);
	for (i = 0; i < ncases && rc == MR_OK; i++) {
		char *cpath = esprintf("%s/%s.claims", expected_dir, cases[i].name);
		char *bpath = platform ? esprintf("%s/%s/%s.tsv", expected_dir, platform,
						  cases[i].name) : NULL;
		struct mr_claims cs;
		int crc = mr_claims_read(cpath, &cs);

		s->timed[i] = ecalloc((size_t)mats[i].n + 1, 1);
		if (crc < 0 && crc != -ENOENT)
			rc = MR_USAGE;
		for (k = 0; k < mats[i].n && rc == MR_OK; k++) {
			int t = mr_sched_timed(&cs, bpath, mats[i].cfg[k].canon);

			if (t < 0)
				rc = MR_USAGE;
			s->timed[i][k] = t != 0;
		}
		mr_claims_free(&cs);
		free(cpath);
		free(bpath);
	}
	return rc;
}

/* The keys env.tsv adds for the run itself: what --resume needs to run
 * it on, and the memory cgroup the runs went to. */
static void
run_env_keys(struct mr_envfp *fp, const struct opts *o, const char *cases_dir,
	     const struct mr_cases_desc *cases, int ncases)
{
	const char *parent, *why;
	char *abs = realpath(cases_dir, NULL), buf[32], aslr[128];
	int v = mr_cgroup_probe(&parent, &why), i;
	struct strbuf names = { 0 };

	mr_envfp_add(fp, "options", o->record.s ? o->record.s : "");
	for (i = 0; i < ncases; i++)
		sb_printf(&names, "%s%s", i ? " " : "", cases[i].name);
	mr_envfp_add(fp, "cases", names.s ? names.s : "");
	sb_free(&names);
	mr_envfp_add(fp, "cases_dir", abs ? abs : cases_dir);
	free(abs);
	snprintf(buf, sizeof buf, "%ld", o->jobs);
	mr_envfp_add(fp, "jobs", buf);
	/* where a mapping lands decides whether THP backs it, or whether an
	 * allocator's 2 MiB alignment costs it a page more: thread-vsz
	 * (glibc, THP always) kept 13.3 or 15.3 MiB at "created" with ASLR,
	 * 13.30-13.32 MiB without, over 6 runs each (setarch -R) */
	if (mr_spawn_aslr(o->aslr, aslr, sizeof aslr) < 0 && !o->aslr)
		weprintf("address space randomization stays %s: figures that depend on where a mapping lands vary more",
			 aslr);
	mr_envfp_add(fp, "aslr", aslr);
	snprintf(buf, sizeof buf, "%ld", o->mem_cap_mib);
	mr_envfp_add(fp, "mem_cap_mib", o->mem_cap_mib ? buf : "-");
	mr_envfp_add(fp, "memory_cgroup", v == 2 ? "v2" : v == 1 ? "v1" : "none");
	mr_envfp_add(fp, v ? "memory_cgroup.parent" : "memory_cgroup.why", v ? parent : why);
	/* how the runs' trees were killed: through cgroup.kill, or top down */
	mr_envfp_add(fp, "kill_cgroup.parent", mr_cgroup_kill_parent() ? mr_cgroup_kill_parent() : "-");
}

/* Keys of env.tsv that may differ between a run and its resume. */
static int
resume_may_differ(const char *key)
{
	/* options: the resume's own are read from it (plus --cases).  Of the
	 * resource limits, RLIMIT_AS and RLIMIT_STACK change what a case
	 * measures (the stack limit is glibc's default thread stack size): a
	 * change of them refuses; the others only decide whether a case can
	 * run at all, and a run that cannot says so in its outcome. */
	return strcmp(key, "started") == 0 || strcmp(key, "cases_dir") == 0 ||
	       strcmp(key, "options") == 0 || strcmp(key, "jobs") == 0 ||
	       strcmp(key, "rlimit.nofile") == 0 || strcmp(key, "rlimit.nproc") == 0 ||
	       strcmp(key, "rlimit.memlock") == 0 ||
	       strncmp(key, "memory_cgroup.", 14) == 0 ||
	       strncmp(key, "kill_cgroup.", 12) == 0 || strncmp(key, "resumed.", 8) == 0;
}

/* --resume: the machine, its allocators and the options must be those the
 * interrupted run recorded, or the results would mix two setups.  Returns
 * MR_OK (a "resumed.N" key added), or MR_USAGE / MR_FAILED after saying
 * why. */
static int
resume_env(struct session *s, const struct mr_envfp *now)
{
	struct mr_envfp was;
	int i, n = 1, rc = MR_OK;
	char key[32], stamp[32];
	time_t t = time(NULL);
	struct tm tm;

	if (mr_results_read_env(s->res.dir, &was) < 0)
		return MR_USAGE;
	for (i = 0; rc == MR_OK && i < now->n; i++) {
		const char *v = mr_envfp_get(&was, now->key[i]);

		if (resume_may_differ(now->key[i]) || (v && strcmp(v, now->val[i]) == 0))
			continue;
		weprintf("--resume %s: %s was '%s' when the runs began, is '%s' now: refusing to mix the two (start a new run)",
			 s->res.dir, now->key[i], v ? v : "(not recorded)", now->val[i]);
		rc = MR_USAGE;
	}
	for (i = 0; rc == MR_OK && i < was.n; i++) {
		if (!resume_may_differ(was.key[i]) && !mr_envfp_get(now, was.key[i])) {
			weprintf("--resume %s: %s was '%s' when the runs began, is not known now: refusing to mix the two",
				 s->res.dir, was.key[i], was.val[i]);
			rc = MR_USAGE;
		}
		if (strncmp(was.key[i], "resumed.", 8) == 0)
			n++;
	}
	mr_envfp_free(&was);
	if (rc != MR_OK)
		return rc;
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(key, sizeof key, "resumed.%d", n);
	fprintf(s->progress, "resuming %s: %d run%s had ended\n", s->res.dir, s->done.n,
		s->done.n == 1 ? "" : "s");
	return mr_results_env_add(&s->res, key, stamp) < 0 ? MR_FAILED : MR_OK;
}

static int report(const struct opts *o, const char *dir, const char *cases_dir,
		  const char *expected_dir, const char *const *names);

/* The expected cost of each config of case c, into cost[]: the median
 * wall_ms its baseline records for the config, in its cost row (bless
 * writes them, baseline.h) or else in a hand-written wall_ms row; 0 where
 * it has neither (unknown).  Returns 0, or -1 on a bad baseline (printed). */
static int
shard_costs(const char *expected_dir, const char *platform,
	    const struct mr_cases_desc *c, const struct mr_matrix *m, double *cost)
{
	struct mr_baseline b;
	char *path = esprintf("%s/%s/%s.tsv", expected_dir, platform, c->name);
	int rc = mr_baseline_read(path, &b), i, k;

	free(path);
	memset(cost, 0, (size_t)m->n * sizeof *cost);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return -1;
	for (i = 0; i < b.nrow; i++) {
		if (b.row[i].checkpoint || strcmp(mr_bl_metric(&b.row[i]), "wall_ms") != 0)
			continue;
		for (k = 0; k < m->n; k++)
			if (strcmp(m->cfg[k].canon, b.row[i].config) == 0 && b.row[i].median > 0)
				cost[k] = b.row[i].median;
	}
	for (k = 0; k < m->n; k++) {
		const struct mr_bl_cost *bc = mr_baseline_cost(&b, m->cfg[k].canon);

		if (bc && bc->median > 0)
			cost[k] = bc->median;
	}
	mr_baseline_free(&b);
	return 0;
}

/* --shard K/N: split the (case, config) pairs (shard.h) and mark in
 * s->skip those of the other shards.  A pair's cost is its baseline's
 * wall_ms where known, else the mean of the known ones (1 when none is:
 * then the split is by count, round-robin over the pairs in case order).
 * Records shard, shard.plan, shard.pairs and shard.cost in fp.  Returns
 * MR_OK, or MR_USAGE after printing why. */
static int
shard_plan(struct session *s, const struct mr_cases_desc *cases, int ncases,
	   const struct mr_matrix *mats, const char *expected_dir,
	   struct mr_envfp *fp)
{
	const char *platform = mr_envfp_get(fp, "platform");
	double *cost, known = 0;
	int *bin, i, k, n = 0, p, nknown = 0, mine = 0;
	uint64_t h = MR_SHARD_HASH0;
	char buf[64];

	for (i = 0; i < ncases; i++)
		n += mats[i].n;
	cost = ecalloc((size_t)n + 1, sizeof *cost);
	bin = ecalloc((size_t)n + 1, sizeof *bin);
	for (i = 0, p = 0; i < ncases; p += mats[i].n, i++)
		if (platform && shard_costs(expected_dir, platform, &cases[i], &mats[i],
					    cost + p) < 0) {
			free(cost);
			free(bin);
			return MR_USAGE;
		}
	for (p = 0; p < n; p++)
		if (cost[p] > 0) {
			known += cost[p];
			nknown++;
		}
	for (p = 0; p < n; p++)
		if (cost[p] <= 0)
			cost[p] = nknown ? known / nknown : 1;
	mr_shard_plan(cost, n, s->o->shard_n, bin);
	s->skip = ecalloc((size_t)ncases + 1, sizeof *s->skip);
	for (i = 0, p = 0; i < ncases; i++) {
		s->skip[i] = ecalloc((size_t)mats[i].n + 1, 1);
		for (k = 0; k < mats[i].n; k++, p++) {
			s->skip[i][k] = bin[p] != s->o->shard_k;
			mine += !s->skip[i][k];
			h = mr_shard_hash(h, cases[i].name, mats[i].cfg[k].canon, bin[p]);
		}
	}
	snprintf(buf, sizeof buf, "%d/%d", s->o->shard_k, s->o->shard_n);
	mr_envfp_add(fp, "shard", buf);
	snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
	mr_envfp_add(fp, "shard.plan", buf);
	snprintf(buf, sizeof buf, "%d/%d", mine, n);
	mr_envfp_add(fp, "shard.pairs", buf);
	snprintf(buf, sizeof buf, "%s", !nknown ? "count" : nknown == n ? "baseline wall_ms" :
		 "baseline wall_ms, else their mean");
	mr_envfp_add(fp, "shard.cost", buf);
	free(cost);
	free(bin);
	return MR_OK;
}

static int
cmd_run(const struct opts *o, const char *cases_dir, const char *self_exe,
	const char *expected_dir)
{
	struct session s = { 0 };
	struct mr_cases_desc *cases;
	struct mr_matrix *mats;
	struct mr_envfp fp;
	struct mr_envfp_run er;
	struct strbuf err = { 0 };
	char *outdir;
	int ncases, i, rc = MR_OK, built = 0;
	int is_run = strcmp(o->cmd->name, "run") == 0;

	s.o = o;
	s.progress = is_run ? stdout : stderr;
	ncases = load_cases(o, cases_dir, &cases);
	if (ncases < 0)
		return MR_USAGE;
	mats = ecalloc((size_t)ncases + 1, sizeof *mats);
	if (mr_matrix_check_axes(cases, ncases, o->axes, o->nax, &err) < 0)
		rc = MR_USAGE;
	for (i = 0; rc == MR_OK && i < ncases; i++, built++)
		if (mr_matrix_build(&cases[i], o->axes, o->nax, o->quick, &mats[i], &err) < 0)
			rc = MR_USAGE;
	if (rc != MR_OK) {
		weprintf("%s", err.s);
		goto out;
	}
	outdir = o->out ? estrdup(o->out) : mr_results_default_dir();
	rc = o->resume ? mr_results_reopen(&s.res, outdir, resume_lock, &s.done) :
			 mr_results_open(&s.res, outdir);
	resume_lock = -1; /* s.res's now */
	if (rc < 0) {
		free(outdir);
		rc = MR_USAGE;
		goto out;
	}
	free(outdir);
	/* what runners killed outright (SIGKILL) could not clean up */
	mr_cgroup_sweep();
	mr_alloc_resolve(s.allocs, self_exe, o->sonames);
	er.profile = o->quick ? "quick" : "full";
	er.repeat = (int)o->repeat;
	er.interval_ms = (int)o->interval_ms;
	er.timeout_s = (o->timeout_s > 0 ? o->timeout_s : DEFAULT_TIMEOUT_S) * o->factor;
	mr_envfp_collect(&fp, &er, s.allocs);
	run_env_keys(&fp, o, cases_dir, cases, ncases);
	if (o->shard_n)
		rc = shard_plan(&s, cases, ncases, mats, expected_dir, &fp);
	if (rc == MR_OK && o->jobs > 1)
		rc = timed_plan(&s, cases, ncases, mats, expected_dir,
				mr_envfp_get(&fp, "platform"));
	if (rc == MR_OK && o->verbose)
		for (i = 0; i < fp.n; i++)
			fprintf(s.progress, "# %s: %s\n", fp.key[i], fp.val[i]);
	if (rc != MR_OK)
		;
	else if (o->resume)
		rc = resume_env(&s, &fp);
	else if (mr_results_env(&s.res, &fp) < 0)
		rc = MR_FAILED;
	mr_envfp_free(&fp);
	if (rc == MR_OK)
		rc = run_all(&s, cases, ncases, mats);
	fprintf(s.progress, "results: %s\n", s.res.dir);
	fflush(s.progress);
	if (rc == MR_OK || rc == MR_FAILED) {
		const char **names = ecalloc((size_t)ncases + 1, sizeof *names);
		struct mr_cmp_opts co = { 0 };
		int crc = MR_OK;

		for (i = 0; i < ncases; i++)
			names[i] = cases[i].name;
		co.results_dir = s.res.dir;
		co.expected_dir = expected_dir;
		co.cases_dir = cases_dir;
		co.cases = names;
		co.verbose = o->verbose;
		co.out = stdout;
		co.format = o->format;
		co.color = mr_term_color(stdout);
		co.yes = o->yes;
		co.interactive = isatty(0);
		if (strcmp(o->cmd->name, "check") == 0)
			crc = mr_check(&co);
		else if (strcmp(o->cmd->name, "bless") == 0)
			crc = mr_bless(&co);
		else if (strcmp(o->cmd->name, "report") == 0)
			crc = report(o, s.res.dir, cases_dir, expected_dir, names);
		free(names);
		if (crc == MR_USAGE)
			rc = MR_USAGE;
		else if (crc != MR_OK)
			rc = MR_FAILED;
	}
	if (mr_results_close(&s.res) < 0 && rc == MR_OK)
		rc = MR_FAILED;
	mr_results_done_free(&s.done);
	mr_alloc_free(s.allocs);
	for (i = 0; s.skip && i < ncases; i++)
		free(s.skip[i]);
	free(s.skip);
	for (i = 0; s.timed && i < ncases; i++)
		free(s.timed[i]);
	free(s.timed);
out:
	sb_free(&err);
	for (i = 0; i < built; i++)
		mr_matrix_free(&mats[i]);
	free(mats);
	free_cases(cases, ncases);
	return rc;
}

static int
cmd_compare(const struct opts *o, const char *expected_dir, const char *cases_dir)
{
	struct mr_cmp_opts co = { 0 };

	co.results_dir = o->from;
	co.expected_dir = expected_dir;
	co.cases_dir = cases_dir;
	co.cases = o->nnames ? o->names : NULL;
	co.verbose = o->verbose;
	co.out = stdout;
	co.format = o->format;
	co.color = mr_term_color(stdout);
	co.yes = o->yes;
	co.interactive = isatty(0);
	return strcmp(o->cmd->name, "check") == 0 ? mr_check(&co) : mr_bless(&co);
}

/* --- report, compare, trend ------------------------------------------ */

static int
report(const struct opts *o, const char *dir, const char *cases_dir,
       const char *expected_dir, const char *const *names)
{
	struct mr_report_opts ro = { 0 };

	ro.results_dir = dir;
	ro.expected_dir = expected_dir;
	ro.cases_dir = cases_dir;
	ro.plots_dir = o->plots;
	ro.cases = names;
	ro.verbose = o->verbose;
	ro.out = stdout;
	return mr_report(&ro);
}

/* report DIR (or --from DIR): the results exist; no case names then. */
static int
cmd_report_dir(const struct opts *o, const char *dir, const char *cases_dir,
	       const char *expected_dir)
{
	struct stat st;
	int i, extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES |
				    O_PLOTS | O_QUIET);

	for (i = 0; optab[i].name; i++) {
		if (extra & optab[i].bit) {
			weprintf("%s does not apply to the report of an existing results directory (nothing is run)",
				 optab[i].name);
			return MR_USAGE;
		}
	}
	if (stat(dir, &st) < 0) {
		weprintf("results directory %s:", dir);
		return MR_USAGE;
	}
	return report(o, dir, cases_dir, expected_dir,
		      o->from && o->nnames ? o->names : NULL);
}

static int
cmd_diff(const struct opts *o)
{
	struct mr_diff_opts d = { 0 };

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
cmd_trend(const struct opts *o)
{
	struct mr_trend_opts t = { 0 };

	t.dirs = o->names;
	t.ndirs = o->nnames;
	t.out_dir = o->out;
	t.plots_dir = o->plots;
	t.verbose = o->verbose;
	t.out = stdout;
	return mr_trend(&t);
}

/* --resume DIR: the options DIR/env.tsv recorded replace the command
 * line's (only --verbose is taken from it), parsed as if given again. */
static void
resume_args(struct opts *o)
{
	struct opts n = { 0 };
	struct mr_envfp fp;
	const char *rec, *cdir, *cnames;
	char **argv, *copy, *tok, *save = NULL;
	int argc = 0, named = 0;

	/* before anything is read: a runner writing DIR may be between two
	 * of its writes */
	if ((resume_lock = mr_results_lock(o->resume, "wait until it ends")) < 0 ||
	    mr_results_read_env(o->resume, &fp) < 0) {
		opts_free(o);
		exit(MR_USAGE);
	}
	rec = mr_envfp_get(&fp, "options");
	cnames = mr_envfp_get(&fp, "cases");
	if (!rec || !cnames) {
		weprintf("--resume %s: env.tsv records no options: not a run this memrepro can resume",
			 o->resume);
		mr_envfp_free(&fp);
		opts_free(o);
		exit(MR_USAGE);
	}
	cdir = mr_envfp_get(&fp, "cases_dir");
	argv = ecalloc(strlen(rec) + strlen(cnames) + 6, sizeof *argv);
	argv[argc++] = estrdup("memrepro");
	argv[argc++] = estrdup(o->cmd->name);
	if (cdir)
		argv[argc++] = esprintf("--cases=%s", cdir);
	copy = estrdup(strcmp(rec, "-") ? rec : "");
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *a = emalloc(strlen(tok) + 1), *d = a;

		for (; *tok; tok++) {
			if (tok[0] == '\\' && tok[1] == 's') {
				*d++ = ' ';
				tok++;
			} else if (tok[0] == '\\' && tok[1] == '\\') {
				*d++ = '\\';
				tok++;
			} else {
				*d++ = *tok;
			}
		}
		*d = '\0';
		if (cdir && strncmp(a, "--cases=", 8) == 0) {
			free(a); /* the resolved directory above wins */
			continue;
		}
		named |= strcmp(a, "--") == 0;
		argv[argc++] = a;
	}
	free(copy);
	/* Run without names, it ran every case found then: exactly those. */
	if (!named && strcmp(cnames, "-") != 0) {
		argv[argc++] = estrdup("--");
		copy = estrdup(cnames);
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			argv[argc++] = estrdup(tok);
		free(copy);
	}
	mr_envfp_free(&fp);
	n.owned = argv;
	parse_args(&n, argc, argv);
	n.resume = o->resume;
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
	const char *cmd = o->cmd->name;

	if (strcmp(cmd, "merge") == 0)
		return readers_check((const char *const *)o->names, o->nnames, 1);
	if (strcmp(cmd, "compare") == 0 || strcmp(cmd, "trend") == 0)
		return readers_check((const char *const *)o->names, o->nnames, 0);
	if (o->from)
		return readers_check(&o->from, 1, strcmp(cmd, "bless") == 0 ? 2 : 0);
	if (strcmp(cmd, "report") == 0 && o->nnames == 1 && is_dir(o->names[0]))
		return readers_check((const char *const *)o->names, 1, 0);
	return MR_OK;
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	char *exe, *exe_dir, *cases_dir, *expected_dir, *plots_dir;
	int rc;

	/* The allocator probe: this binary re-executed with LD_PRELOAD. */
	if (argc == 3 && strcmp(argv[1], "__probe-alloc") == 0)
		return mr_alloc_probe_main(argv[2]);
	parse_args(&o, argc, argv);
	if (o.resume)
		resume_args(&o);
	self_paths(&exe, &exe_dir);
	cases_dir = o.cases_dir ? estrdup(o.cases_dir) : default_cases_dir(exe_dir);
	expected_dir = o.expected_dir ? estrdup(o.expected_dir) : default_expected_dir(exe_dir);
	plots_dir = o.plots ? NULL : mr_plot_default_dir(exe_dir);
	if (plots_dir)
		o.plots = plots_dir;
	mr_spawn_init();
	if ((rc = readers(&o)) != MR_OK)
		;
	else if (strcmp(o.cmd->name, "list") == 0)
		rc = cmd_list(cases_dir);
	else if (strcmp(o.cmd->name, "describe") == 0)
		rc = cmd_describe(&o, cases_dir);
	else if (strcmp(o.cmd->name, "compare") == 0)
		rc = cmd_diff(&o);
	else if (strcmp(o.cmd->name, "trend") == 0)
		rc = cmd_trend(&o);
	else if (strcmp(o.cmd->name, "merge") == 0)
		rc = mr_merge(o.out, (const char *const *)o.names, o.nnames);
	else if (strcmp(o.cmd->name, "report") == 0 && o.from)
		rc = cmd_report_dir(&o, o.from, cases_dir, expected_dir);
	else if (strcmp(o.cmd->name, "report") == 0 && o.nnames == 1 &&
		 is_dir(o.names[0]))
		rc = cmd_report_dir(&o, o.names[0], cases_dir, expected_dir);
	else if (o.from)
		rc = cmd_compare(&o, expected_dir, cases_dir);
	else
		rc = cmd_run(&o, cases_dir, exe, expected_dir);
	fflush(stdout);
	free(exe);
	free(exe_dir);
	free(cases_dir);
	free(expected_dir);
	free(plots_dir);
	opts_free(&o);
	return rc;
}
