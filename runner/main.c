/* memrepro: run the corpus of memory-behaviour reproductions.
 *
 * main: the command line, and the loop over cases x repeats x configs.
 * Everything else lives in its module: cases (discovery, --describe),
 * matrix (configs), alloc (allocators by soname), envfp (fingerprint),
 * spawn (one measured run), results (the TSV files), compare (verdicts).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "cases.h"
#include "compare.h"
#include "envfp.h"
#include "matrix.h"
#include "results.h"
#include "spawn.h"
#include "util.h"

#define DEFAULT_TIMEOUT_S 60
#define DEFAULT_REPEAT 3
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
};

#define O_RUN (O_AXIS | O_PROFILE | O_REPEAT | O_OUT | O_TIMEOUT | O_FACTOR | \
	       O_INTERVAL | O_CASES | O_VERBOSE | O_ALLOC)

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
	{ "run", O_RUN, 0, -1,
	  "memrepro run [OPTIONS] [CASE...]",
	  "Run every case (or the named ones) under its matrix of configs, each\n"
	  "--repeat times, and write a results directory (docs/formats.md).\n"
	  "Profile: full unless --profile quick.  Progress goes to stdout.\n"
	  "Status: 0 when every run was ok or skipped, 1 when one failed, crashed,\n"
	  "timed out, could not exec or wrote bad records, 2 on bad usage/input.\n"
	  "\n"
	  "Example:\n"
	  "  memrepro run fiber-stacks --axis madvise=free,dontneed --repeat 5\n" },
	{ "check", O_RUN | O_EXPECTED | O_FROM, 0, -1,
	  "memrepro check [OPTIONS] [--from RESULTS] [CASE...]",
	  "Run (profile: quick unless --profile full) and compare the results\n"
	  "with the claims and baselines in the expected directory; or, with\n"
	  "--from, compare an existing results directory without running.\n"
	  "Verdicts go to stdout, progress to stderr.  Status: 0 when everything\n"
	  "held, 1 on a regression or a failed run, 2 on bad usage/input.\n"
	  "\n"
	  "Examples:\n"
	  "  memrepro check\n"
	  "  memrepro check --from results/20250101-120000 fiber-stacks\n" },
	{ "bless", O_RUN | O_EXPECTED | O_FROM, 0, -1,
	  "memrepro bless [OPTIONS] [--from RESULTS] [CASE...]",
	  "Run (profile: quick unless --profile full), or take --from an existing\n"
	  "results directory, and write the baselines of this platform:\n"
	  "<expected>/<platform>/<case>.tsv.\n"
	  "\n"
	  "Example:\n"
	  "  memrepro bless fiber-stacks --repeat 5\n" },
	{ NULL, 0, 0, 0, NULL, NULL },
};

/* Option help, by option: a command's help lists the ones it takes. */
static const struct {
	int bit;
	const char *text;
} options_help[] = {
	{ O_AXIS,
	  "  --axis KEY=V1[,V2...]  set the values of an axis, or fix a parameter\n"
	  "                         (repeatable; the last one for a key wins).  KEY is\n"
	  "                         allocator (glibc|jemalloc|tcmalloc|mimalloc),\n"
	  "                         glibc.<namespace>.<tunable> (passed in\n"
	  "                         GLIBC_TUNABLES, part of the config), or a case\n"
	  "                         parameter (values must be allowed by each case\n"
	  "                         that has it; cases without it ignore it)\n" },
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
	  "                         results/<YYYYmmdd-HHMMSS>); must be new or empty\n" },
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
};

static void
opts_free(struct opts *o)
{
	int i;

	for (i = 0; i < o->nax; i++)
		mr_matrix_axis_free(&o->axes[i]);
	free(o->axes);
	free(o->names);
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

	if (parse_double(v, &x) < 0 || x <= 0 || x > 1e6)
		usage_error(o, "%s '%s': want a positive number", opt, v);
	return x;
}

static void
set_option(struct opts *o, const struct option_def *d, const char *v)
{
	struct strbuf err = { 0 };

	o->given |= d->bit;
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
	case O_VERBOSE:
		o->verbose = 1;
		break;
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
	o->factor = 1;
	o->interval_ms = DEFAULT_INTERVAL_MS;
	o->names = ecalloc((size_t)argc + 1, sizeof *o->names);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = "";
		const struct option_def *d;
		size_t len;

		if (only_names || a[0] != '-' || !a[1]) {
			if (!o->cmd) {
				o->cmd = find_command(a);
				if (!o->cmd) {
					usage_error(o, "unknown command '%s'; commands: list, describe, run, check, bless", a);
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
		int extra = o->given & ~(O_FROM | O_EXPECTED | O_VERBOSE | O_CASES);

		for (i = 0; optab[i].name; i++)
			if (extra & optab[i].bit)
				usage_error(o, "%s does not apply with --from (nothing is run)", optab[i].name);
	}
	if (o->nnames < o->cmd->min_names)
		usage_error(o, "%s needs a case name", o->cmd->name);
	if (o->cmd->max_names >= 0 && o->nnames > o->cmd->max_names)
		usage_error(o, "%s takes %s", o->cmd->name,
			    o->cmd->max_names ? "one case name" : "no case names");
	if (o->quick < 0)
		o->quick = strcmp(o->cmd->name, "check") == 0 || strcmp(o->cmd->name, "bless") == 0;
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

/* The last lines of a failed run's log, each prefixed "# " so that they
 * cannot be mistaken for the runner's own lines. */
static void
log_tail(FILE *out, const char *path)
{
	FILE *f = fopen(path, "re");
	char *lines[LOG_TAIL] = { 0 }, *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0, i;

	if (!f)
		return;
	while ((len = getline(&line, &cap, f)) >= 0) {
		ssize_t j;

		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		/* a case's junk must not drive the terminal */
		for (j = 0; j < len; j++)
			if ((unsigned char)line[j] < 0x20 && line[j] != '\t')
				line[j] = '?';
			else if (line[j] == 0x7f)
				line[j] = '?';
		free(lines[n % LOG_TAIL]);
		lines[n % LOG_TAIL] = estrdup(line);
		n++;
	}
	free(line);
	fclose(f);
	for (i = n > LOG_TAIL ? n - LOG_TAIL : 0; i < n; i++)
		fprintf(out, "# %s\n", lines[i % LOG_TAIL]);
	for (i = 0; i < LOG_TAIL; i++)
		free(lines[i]);
}

/* The state shared by the runs of one invocation. */
struct session {
	const struct opts *o;
	struct mr_results res;
	struct mr_alloc allocs[MR_ALLOC_N];
	FILE *progress;
	int failed;       /* some run failed */
	int interrupted;
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

/* One run of case c under config cf.  Returns 0, or -1 to stop (the
 * runner itself failed, or an interrupt). */
static int
run_one(struct session *s, const struct mr_cases_desc *c, const struct mr_matrix *m,
	const struct mr_matrix_cfg *cf, int repeat)
{
	const struct opts *o = s->o;
	const struct mr_alloc *a = &s->allocs[mr_alloc_index(cf->allocator)];
	struct mr_results_run row = { c->name, cf->canon, repeat, "skipped", a->missing, NULL, "-" };
	struct mr_spawn_req rq = { 0 };
	struct mr_spawn_res res;
	char *log, *abs, *extra[3] = { 0 }, **env, **argv, detail[512];
	int nx = 0, rc, i;

	(void)m;
	if (a->missing) {
		rc = mr_results_add(&s->res, &row);
		mr_results_progress(s->progress, &row, cf->shortc, (int)o->repeat);
		return rc;
	}
	log = mr_results_log(&s->res, c->name, cf->safe, repeat);
	if (!log)
		return -1;
	abs = esprintf("%s/%s", s->res.dir, log);
	if (strcmp(a->name, "glibc") != 0)
		extra[nx++] = esprintf("LD_PRELOAD=%s", a->path);
	if (cf->tunables)
		extra[nx++] = esprintf("GLIBC_TUNABLES=%s", cf->tunables);
	env = mr_spawn_env((const char *const *)extra);
	argv = mr_matrix_argv(c, cf);
	if (o->verbose) {
		fprintf(s->progress, "# exec:");
		for (i = 0; i < nx; i++)
			fprintf(s->progress, " %s", extra[i]);
		for (i = 0; argv[i]; i++)
			fprintf(s->progress, " %s", argv[i]);
		fprintf(s->progress, " > %s 2>&1\n", log);
	}
	rq.c = c;
	rq.argv = argv;
	rq.envp = env;
	rq.log_path = abs;
	rq.timeout_ms = timeout_ms(o, c);
	rq.interval_ms = (int)o->interval_ms;
	rc = mr_spawn_run(&rq, &res);
	if (rc == 0) {
		row.outcome = mr_spawn_describe(&res, rq.timeout_ms, abs, detail, sizeof detail);
		row.detail = detail;
		row.res = &res;
		row.log = log;
		rc = mr_results_add(&s->res, &row);
		mr_results_progress(s->progress, &row, cf->shortc, (int)o->repeat);
		if (failing(row.outcome)) {
			s->failed = 1;
			log_tail(s->progress, abs);
		}
	} else if (rc == -EINTR) {
		s->interrupted = 1;
	}
	mr_spawn_res_free(&res);
	mr_matrix_argv_free(argv);
	mr_spawn_env_free(env);
	for (i = 0; i < nx; i++)
		free(extra[i]);
	free(abs);
	free(log);
	return rc < 0 ? -1 : 0;
}

/* Run every case, repeats outermost so that slow drift of the machine
 * falls on every config alike.  Returns MR_OK, MR_FAILED or 130. */
static int
run_all(struct session *s, struct mr_cases_desc *cases, int ncases,
	struct mr_matrix *mats)
{
	int i, r, k;

	for (i = 0; i < ncases; i++)
		for (r = 1; r <= s->o->repeat; r++)
			for (k = 0; k < mats[i].n; k++)
				if (mr_spawn_interrupted ||
				    run_one(s, &cases[i], &mats[i], &mats[i].cfg[k], r) < 0)
					goto stop;
	return s->failed ? MR_FAILED : MR_OK;
stop:
	if (s->interrupted || mr_spawn_interrupted) {
		weprintf("interrupted; the runs that ended are in %s", s->res.dir);
		return 130;
	}
	return MR_FAILED;
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
	if (mr_results_open(&s.res, outdir) < 0) {
		free(outdir);
		rc = MR_USAGE;
		goto out;
	}
	free(outdir);
	mr_alloc_resolve(s.allocs, self_exe, o->sonames);
	er.profile = o->quick ? "quick" : "full";
	er.repeat = (int)o->repeat;
	er.interval_ms = (int)o->interval_ms;
	er.timeout_s = (o->timeout_s > 0 ? o->timeout_s : DEFAULT_TIMEOUT_S) * o->factor;
	mr_envfp_collect(&fp, &er, s.allocs);
	if (o->verbose)
		for (i = 0; i < fp.n; i++)
			fprintf(s.progress, "# %s: %s\n", fp.key[i], fp.val[i]);
	if (mr_results_env(&s.res, &fp) < 0)
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
		co.cases = names;
		co.verbose = o->verbose;
		co.out = stdout;
		if (strcmp(o->cmd->name, "check") == 0)
			crc = mr_check(&co);
		else if (strcmp(o->cmd->name, "bless") == 0)
			crc = mr_bless(&co);
		free(names);
		if (crc == MR_USAGE)
			rc = MR_USAGE;
		else if (crc != MR_OK)
			rc = MR_FAILED;
	}
	if (mr_results_close(&s.res) < 0 && rc == MR_OK)
		rc = MR_FAILED;
	mr_alloc_free(s.allocs);
out:
	sb_free(&err);
	for (i = 0; i < built; i++)
		mr_matrix_free(&mats[i]);
	free(mats);
	free_cases(cases, ncases);
	return rc;
}

static int
cmd_compare(const struct opts *o, const char *expected_dir)
{
	struct mr_cmp_opts co = { 0 };

	co.results_dir = o->from;
	co.expected_dir = expected_dir;
	co.cases = o->nnames ? o->names : NULL;
	co.verbose = o->verbose;
	co.out = stdout;
	return strcmp(o->cmd->name, "check") == 0 ? mr_check(&co) : mr_bless(&co);
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	char *exe, *exe_dir, *cases_dir, *expected_dir;
	int rc;

	/* The allocator probe: this binary re-executed with LD_PRELOAD. */
	if (argc == 3 && strcmp(argv[1], "__probe-alloc") == 0)
		return mr_alloc_probe_main(argv[2]);
	parse_args(&o, argc, argv);
	self_paths(&exe, &exe_dir);
	cases_dir = o.cases_dir ? estrdup(o.cases_dir) : default_cases_dir(exe_dir);
	expected_dir = o.expected_dir ? estrdup(o.expected_dir) : default_expected_dir(exe_dir);
	mr_spawn_init();
	if (strcmp(o.cmd->name, "list") == 0)
		rc = cmd_list(cases_dir);
	else if (strcmp(o.cmd->name, "describe") == 0)
		rc = cmd_describe(&o, cases_dir);
	else if (o.from)
		rc = cmd_compare(&o, expected_dir);
	else
		rc = cmd_run(&o, cases_dir, exe, expected_dir);
	fflush(stdout);
	free(exe);
	free(exe_dir);
	free(cases_dir);
	free(expected_dir);
	opts_free(&o);
	return rc;
}
