/* help: the usage and help texts — see help.h. */
#include "help.h"

#include "session/configs.h"
#include "guest/guest.h"

const struct mr_help mr_help_list = {
	"memrepro list [--cases DIR]",
	"List the cases found in the cases directory, one per line: name, axes\n"
	"(besides allocator) and title, tab-separated.  A case whose --describe output is bad is reported (naming the\n"
	"case, line and column) and the listing goes on; the status is then 2.\n"
	"\n"
	"Example:\n"
	"  memrepro list\n"
};

const struct mr_help mr_help_describe = {
	"memrepro describe [--axis KEY=V1,V2]... [--profile quick|full] CASE",
	"Show what a case says about itself (source, parameters, checkpoints)\n"
	"and the configs it would run under these options (profile: full).\n"
	"\n"
	"Example:\n"
	"  memrepro describe fiber-stacks --axis allocator=glibc,jemalloc\n"
};

const struct mr_help mr_help_run = {
	"memrepro run [OPTIONS] [CASE...]  |  memrepro run [OPTIONS] -- CMD [ARGS...]",
	"Run every case (or the named ones) under its matrix of configs, each\n"
	"--repeat times, and write a results directory (docs/formats.md).\n"
	"Profile: full unless --profile quick.  Progress goes to stdout.\n"
	"After --, any command is the case (docs/command.md): under every\n"
	"allocator this machine has unless --axis allocator= says, its marks\n"
	"(--mark-every, --mark-on, always \"exit\"), then a table of its figures\n"
	"and the differences against glibc beyond noise (progress to stderr);\n"
	"with --claims FILE or --expected DIR, the claims and baseline judged\n"
	"as check judges them (--format: their verdicts; the table to stderr).\n"
	"Status: 0 when every run was ok or skipped, 1 when one failed, crashed,\n"
	"timed out, could not exec or wrote bad records, or a claim or baseline\n"
	"row failed, 2 on bad usage/input.\n"
	"\n"
	"Example:\n"
	"  memrepro run fiber-stacks --axis madvise=free,dontneed --repeat 5\n"
	"  memrepro run --repeat 5 --mark-every 1s -- python3 -c 'x = [0] * 10**7'\n"
};

const struct mr_help mr_help_check = {
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
	"  memrepro check --format junit > junit.xml\n"
};

const struct mr_help mr_help_bless = {
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
	"  memrepro bless --from results/20250101-120000 --yes\n"
};

const struct mr_help mr_help_report = {
	"memrepro report [OPTIONS] [DIR | CASE...]",
	"Write DIR/report.md, a self-contained DIR/report.html and every chart\n"
	"(DIR/plots/*.png and *.svg) for the results directory DIR, without\n"
	"rerunning anything; with no DIR, first run the cases (every case, or\n"
	"the named ones; profile full unless --profile quick) into a new\n"
	"results directory, as run does.  A single argument that names an\n"
	"existing directory is DIR, as is one no case could be named (a path:\n"
	"it must exist); or say --from DIR.  Needs gnuplot.  Prints check's\n"
	"summary line.  Status as check's: 0 when everything held and the\n"
	"report and every chart were written, 1 on a regression or a failed\n"
	"run (the report is written all the same) or when something could not\n"
	"be written, 2 on bad usage/input.\n"
	"\n"
	"Examples:\n"
	"  memrepro report                  # run the default matrix, then report\n"
	"  memrepro report results/20250101-120000\n"
};

const struct mr_help mr_help_compare = {
	"memrepro compare [--fail-on PCT] [--out DIR] OLD NEW",
	"Compare two results directories (before and after an upgrade, two\n"
	"machines): per case, config, checkpoint and metric both measured, the\n"
	"medians, the change in percent and whether it is beyond the noise of\n"
	"the repeats (Mann-Whitney U, p < 0.05, where the repeats can reach it:\n"
	"4 vs 4, 3 vs 5 or more, else \"3 vs 3 repeats: not compared\"; never for\n"
	"a change below the metric's smallest change: memory 3 % and 1024 kB,\n"
	"time 10 % and 30 ms, counts 10 % and 100).  Prints first what the two\n"
	"sides ran under where it differs, then the changes beyond noise (--verbose:\n"
	"every row); writes DIR/compare.tsv and a chart per case (DIR: --out,\n"
	"default NEW/compare).  Status: 1 with --fail-on when a figure is worse\n"
	"beyond noise by more than PCT percent, else 0; 2 on bad usage/input.\n"
	"\n"
	"Example:\n"
	"  memrepro compare results/before results/after --fail-on 10\n"
};

const struct mr_help mr_help_trend = {
	"memrepro trend [--out DIR] [--expected DIR] DIR DIR...",
	"Follow figures over many results directories (a nightly history),\n"
	"ordered by the time each started: per case, config, checkpoint and\n"
	"metric the medians as a series, with its step changes found by binary\n"
	"segmentation of the medians (a step: the median shifts by more than\n"
	"3 x the repeats' range and the metric's smallest change, as compare's;\n"
	"only where the repeats on each side could tell one, as compare's).\n"
	"Prints what the directories ran under where it differs, then the steps\n"
	"(--verbose: every series); writes DIR/trend.tsv and a chart per case\n"
	"(DIR: --out, default ./trend, never one of the inputs): the\n"
	"case's key figure (expected/<case>.figures) and the figures that moved.\n"
	"Status: 0, 1 when a chart could not be drawn, 2 on bad usage/input.\n"
	"\n"
	"Example:\n"
	"  memrepro trend --out trend-2025 results/2025*\n"
};

const struct mr_help mr_help_export = {
	"memrepro export --format bmf|benchmark-action [--expected DIR] DIR",
	"Write the figures of results directory DIR as JSON on stdout for a\n"
	"benchmark-history service: per case, canonical config and figure (the\n"
	"ones bless records, and wall_ms of the runs that ran alone) the median\n"
	"over the ok repeats with their min and max.  bmf: Bencher Metric\n"
	"Format, one benchmark \"<case> <config>\" per config; benchmark-action:\n"
	"github-action-benchmark's customSmallerIsBetter array.\n"
	"Status: 0, 2 on bad usage/input.\n"
	"\n"
	"Example:\n"
	"  memrepro export --format bmf results/latest > bmf.json\n"
};

const struct mr_help mr_help_platforms = {
	"memrepro platforms [--expected DIR] [--format md|tsv|html|json] DIR...",
	"Where each claim holds: each DIR the results of one platform (its\n"
	"shards merged), checked as check --from DIR checks it, and the claims'\n"
	"verdicts laid side by side on stdout: one row per claim, one column per\n"
	"platform, rows where the platforms differ first.  Above it per platform\n"
	"its kernel, libc, allocator versions, THP, CPUs, start, commit (env.tsv)\n"
	"and its baseline's counts (or that it has none).  Format: md (default),\n"
	"tsv, html or json (docs/formats.md).  Status: 0 whatever the verdicts\n"
	"(check fails a regression), 2 on bad usage/input or two DIRs of one\n"
	"platform.\n"
	"\n"
	"Example:\n"
	"  memrepro platforms --format html merged/ubuntu-22.04 merged/ubuntu-24.04 > platforms.html\n"
};

const struct mr_help mr_help_corpus = {
	"memrepro corpus [--expected DIR] DIR...",
	"Write the corpus table (GitHub markdown, on stdout): per case and\n"
	"figure its report printed (expected/<case>.figures: a metric at a\n"
	"checkpoint, or of the whole run), the report's values per config\n"
	"beside the medians measured here for the configs that match (their\n"
	"median and range when several do), and the case's claim verdicts.\n"
	"A case is taken from the first results directory DIR that has it.\n"
	"The corpus table of docs/corpus.md is what this writes from docs/corpus/.\n"
	"Status: 0, 2 on bad usage/input.\n"
	"\n"
	"Example:\n"
	"  memrepro corpus docs/corpus/six docs/corpus/retained docs/corpus/churn\n"
};

const struct mr_help mr_help_merge = {
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
	"  memrepro merge --out results/nightly results/shard-*\n"
};

const struct mr_help mr_help_versions = {
	"memrepro versions [--allocators FILE] [--format human|json] [NAME...]",
	"What each Debian release (etc/releases: bullseye, bookworm, trixie,\n"
	"sid) has of each NAME (an allocator of the registry, or libc; all of\n"
	"them when none is named): a row per NAME and release with the\n"
	"package, Debian's version, the upstream version (what NAME@VERSION\n"
	"names) and whether the cache holds it verified (yes, no, corrupt).\n"
	"The packages come from the host's Debian mirror through a private apt\n"
	"configuration per release (lists updated when over a day old), or\n"
	"from MEMREPRO_RELEASES=DIR (DIR/RELEASE/*.deb, no network).\n"
	"--format json: one array of objects (name, release, package, version,\n"
	"upstream, cached, why), for scripts.\n"
	"Status: 0; 1 when a release's index cannot be had (its rows say why);\n"
	"2 for an unknown NAME.\n"
	"\n"
	"Examples:\n"
	"  memrepro versions\n"
	"  memrepro versions jemalloc libc --format json\n"
};

const struct mr_help mr_help_fetch = {
	"memrepro fetch [--allocators FILE] SPEC...",
	"Fetch packages of other releases into the cache\n"
	"(${XDG_CACHE_HOME:-~/.cache}/memrepro) and unpack them, no root\n"
	"needed.  SPEC is NAME@VERSION (the upstream version: the oldest\n"
	"release that has it) or NAME@RELEASE; NAME an allocator of the\n"
	"registry or libc.  Prints per SPEC the release, package and version,\n"
	"the .deb's sha256 (checked against apt's index), the unpacked tree and\n"
	"the library (for libc: the loader and its library directory).  A cache\n"
	"entry is verified (sha256 of the .deb and of every file unpacked)\n"
	"each time it is used, and fetched or unpacked again when it does not.\n"
	"Status: 0; 1 when one cannot be had (no network, no key, no such\n"
	"package: the reason is printed); 2 for a bad SPEC, an unknown NAME or a\n"
	"version no release has (the message names the versions there are).\n"
	"\n"
	"Examples:\n"
	"  memrepro fetch jemalloc@5.2.1 libc@2.41\n"
	"  memrepro fetch mimalloc@trixie\n"
};

const struct mr_help mr_help_new = {
	"memrepro new NAME [--lang c|node|ruby|python|sh] [--cases DIR] [--expected DIR]",
	"Write a case's skeleton that builds and runs as it is: DIR/NAME.c (the\n"
	"provenance header to fill, the describe table, a parameter, two\n"
	"checkpoints), NAME.claims with one claim that holds under every\n"
	"allocator and NAME.figures with one figure (in --expected DIR); with\n"
	"--lang node, ruby or python, the original (NAME.js, .rb, .py with its\n"
	"checkpoint helper) beside the C model; with sh, a shell program that\n"
	"speaks the protocol, run as a command.  Here --cases and --expected name\n"
	"the source directories (default ./cases and ./expected, made when\n"
	"missing).  An existing file is never overwritten.  Status: 0, 2 on a bad\n"
	"NAME or --lang or an existing file (named).\n"
	"\n"
	"Example:\n"
	"  memrepro new demo && make && build/memrepro check demo\n"
};

/* Option help, by option: a command's help lists the ones it takes. */
static const struct {
	mr_optbits bit;
	const char *text;
} options_help[] = {
	{ O_AXIS,
	  "  --axis KEY=V1[,V2...]  set the values of an axis, or fix a parameter\n"
	  "                         (repeatable, each KEY once).  KEY is\n"
	  "                         allocator (a name of the allocator registry;\n"
	  "                         default glibc,jemalloc,tcmalloc,mimalloc;\n"
	  "                         NAME@VERSION or NAME@RELEASE: jemalloc@5.2.1,\n"
	  "                         jemalloc@sid), libc (glibc versions:\n"
	  "                         2.36,2.41,2.43; other than the host's run\n"
	  "                         through that release's loader),\n"
	  "                         glibc.<namespace>.<tunable> (passed in\n"
	  "                         GLIBC_TUNABLES, part of the config),\n"
	  "                         NAME.<option> (an allocator's option, in its\n"
	  "                         configs only: jemalloc.dirty_decay_ms=-1 into\n"
	  "                         MALLOC_CONF, mimalloc.purge_delay=0 as\n"
	  "                         MIMALLOC_PURGE_DELAY), or a case\n"
	  "                         parameter (values must be allowed by each case\n"
	  "                         that has it; cases without it ignore it), or\n"
	  "                         pressure (none or MiB: run in a memory cgroup\n"
	  "                         limited to that size; off unless given), or\n"
	  "                         runtime (c: the model; node[@VERSION],\n"
	  "                         ruby[@VERSION], python[@VERSION], java[@VERSION]:\n"
	  "                         the report's own program beside it,\n"
	  "                         cases/<case>.js, .rb, .py or .java, under that\n"
	  "                         interpreter, the host's or fetched into the\n"
	  "                         cache: node@10.7.0, node@22, ruby@3.3,\n"
	  "                         python@3.11, java@17; go[@VERSION]: .go built\n"
	  "                         by that toolchain, go@1.19; redis[@VERSION]:\n"
	  "                         cases/<case>.redis driving that redis-server,\n"
	  "                         redis@7;\n"
	  "                         default " MR_CONFIGS_RUNTIMES ", those in PATH)\n" },
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
	  "                         alone (default 1); and only while their\n"
	  "                         expected peak memory fits in MemAvailable\n"
	  "                         (runs.tsv's waited says why one waited)\n" },
	{ O_ASLR,
	  "  --aslr on|off          address space randomization of the cases\n"
	  "                         (default off: where a mapping lands decides\n"
	  "                         whether THP or an allocator's 2 MiB alignment\n"
	  "                         costs a page more, run to run)\n" },
	{ O_ALLOC,
	  "  --alloc NAME=LIBRARY   load allocator NAME from LIBRARY (a soname the\n"
	  "                         loader finds, or a path), adding NAME to the\n"
	  "                         registry or replacing its library, e.g.\n"
	  "                         tcmalloc=libtcmalloc.so.4 (repeatable)\n" },
	{ O_ALLOCATORS,
	  "  --allocators FILE      more allocator registry entries, read after\n"
	  "                         etc/allocators and ~/.config/memrepro/allocators\n"
	  "                         (an entry replaces the one of its name; format:\n"
	  "                         docs/formats.md, Allocators)\n" },
	{ O_PROFILE,
	  "  --profile quick|full|versions|originals|kernels\n"
	  "                         parameter values: quick ones or the defaults\n"
	  "                         (default: full for run and describe, quick for\n"
	  "                         check and bless); versions: quick ones, under\n"
	  "                         every release's allocators and glibcs (each\n"
	  "                         allocator under its own release's glibc, glibc\n"
	  "                         under each), where no --axis allocator= or\n"
	  "                         libc= says otherwise; originals: the defaults,\n"
	  "                         each case's original on every runtime version\n"
	  "                         (runtime=" MR_CONFIGS_ORIGINALS ")\n"
	  "                         under glibc and jemalloc, beside its model;\n"
	  "                         kernels: quick ones, in guests of Debian's\n"
	  "                         kernels (kernel=" MR_GUEST_KERNELS ")\n"
	  "                         under kernel.thp=" MR_GUEST_THPS "\n"
	  "                         where no --axis says otherwise (docs/kernels.md)\n" },
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
	  "                         kselftest), junit (JUnit XML) or json;\n"
	  "                         platforms: md (default), tsv, html or json;\n"
	  "                         export: bmf or benchmark-action\n" },
	{ O_YES, "  -y, --yes              write the baselines without asking\n" },
	{ O_PLOTS,
	  "  --plots DIR            gnuplot scripts (default: <exe dir>/../plots in\n"
	  "                         the tree, else <exe dir>/../share/memrepro/plots)\n" },
	{ O_NOCHARTS, "  --no-charts            the table only: no chart drawn\n" },
	{ O_NAME,
	  "  --name NAME            run -- CMD: the case name its results go under\n"
	  "                         (default: the command's base name, made one)\n" },
	{ O_MARKEVERY,
	  "  --mark-every DURATION  run -- CMD: a checkpoint \"every\" so often (500ms,\n"
	  "                         5s, 2m), measured while it runs\n" },
	{ O_MARKON,
	  "  --mark-on REGEX        run -- CMD: a checkpoint \"match\" at each line of\n"
	  "                         its output the extended regex matches\n" },
	{ O_CKPTNAMES,
	  "  --checkpoints NAMES    run -- CMD: the checkpoints it sends on the protocol's\n"
	  "                         channel (fd 3, docs/originals.md), comma-separated\n" },
	{ O_LANG,
	  "  --lang c|node|ruby|python|sh\n"
	  "                         new: the skeleton's language (default c); node,\n"
	  "                         ruby, python: an original beside its C model\n" },
	{ O_CLAIMS,
	  "  --claims FILE          run -- CMD: judge these claims after the runs, as\n"
	  "                         check does (exit 1 when one fails); check --from\n"
	  "                         DIR NAME: these in place of NAME's (docs/command.md)\n" },
	{ O_FAILON,
	  "  --fail-on PCT          exit 1 when a figure is worse beyond the noise by\n"
	  "                         more than PCT percent\n" },
	{ O_QUIET, "  -q, --quiet            no progress, only what went wrong and the result\n" },
	{ O_VERBOSE, "  -v, --verbose          more detail (command lines, every verdict, a\n                         claim's expression beside its words)\n" },
	{ O_HELP, "  -h, --help             help (memrepro COMMAND --help for a command's)\n" },
	{ O_VERSION, "      --version          the version and the commit built from\n" },
	{ 0, NULL },
};

/* The commands, in the order --help lists them. */
static const struct mr_help *const all[] = {
	&mr_help_list,
	&mr_help_describe,
	&mr_help_run,
	&mr_help_check,
	&mr_help_bless,
	&mr_help_report,
	&mr_help_compare,
	&mr_help_trend,
	&mr_help_export,
	&mr_help_corpus,
	&mr_help_platforms,
	&mr_help_merge,
	&mr_help_versions,
	&mr_help_fetch,
	&mr_help_new,
	NULL,
};

void
mr_help_options(FILE *f, mr_optbits bits)
{
	int i;

	fprintf(f, "Options:\n");
	for (i = 0; options_help[i].text; i++)
		if (options_help[i].bit & bits)
			fputs(options_help[i].text, f);
}

void
mr_help_global(FILE *f)
{
	int i;

	fprintf(f, "usage: memrepro COMMAND [OPTIONS] [CASE...]\n\n"
		"Reproduce memory-behaviour reports and check them against\n"
		"expectations.\n\nCommands:\n");
	for (i = 0; all[i]; i++)
		fprintf(f, "  %s\n", all[i]->usage);
	fputc('\n', f);
	mr_help_options(f, ~0);
	fprintf(f, "\nExamples:\n"
		"  memrepro list\n"
		"  memrepro run --cases build/fixtures touch --repeat 2\n"
		"  memrepro check --profile quick\n");
}

void
mr_help_command(const struct mr_help *h, mr_optbits bits)
{
	printf("usage: %s\n\n%s\n", h->usage, h->text);
	mr_help_options(stdout, bits);
}
