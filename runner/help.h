/* help: the usage and help texts of the command line.
 *
 * Each command's usage line and help (what it does, its status, an
 * example) and each option's help, by option bit: a command's --help lists
 * the options it takes.  main.c's command table points at the texts; this
 * file only prints.
 */
#ifndef MR_HELP_H
#define MR_HELP_H

#include <stdio.h>

/* The options, one bit each: a command's table entry says which it takes. */
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
	O_VERSION = 1 << 18, /* only for listing the version option */
	/* high bits: clear of options added below 1 << 20 */
	O_MEMCAP = 1 << 20,
	O_RESUME = 1 << 21,
	O_SHARD = 1 << 22,
	O_JOBS = 1 << 23,
	O_ASLR = 1 << 24,
	O_ALLOCATORS = 1 << 25,
	O_NOCHARTS = 1 << 26,
	/* a command's (matrix/cmdcase.h): run -- CMD */
	O_NAME = 1 << 19,
	O_MARKEVERY = 1 << 27,
	O_MARKON = 1 << 28,
	O_CKPTNAMES = 1 << 29,
	O_CLAIMS = 1 << 30,  /* run -- CMD, check --from DIR NAME */
};

/* The options only a command takes (memrepro run [OPTIONS] -- CMD). */
#define O_COMMAND (O_NAME | O_MARKEVERY | O_MARKON | O_CKPTNAMES)

/* The options of every command that runs cases. */
#define O_RUN (O_AXIS | O_PROFILE | O_REPEAT | O_OUT | O_TIMEOUT | O_FACTOR | \
	       O_INTERVAL | O_CASES | O_VERBOSE | O_ALLOC | O_MEMCAP | O_RESUME | \
	       O_SHARD | O_JOBS | O_ASLR | O_ALLOCATORS)

/* A command's texts. */
struct mr_help {
	const char *usage; /* "memrepro NAME [OPTIONS] ...", one line */
	const char *text;  /* what it does, its status, an example */
};

extern const struct mr_help mr_help_list, mr_help_describe, mr_help_run,
	mr_help_check, mr_help_bless, mr_help_report, mr_help_compare,
	mr_help_trend, mr_help_export, mr_help_corpus, mr_help_merge, mr_help_versions,
	mr_help_fetch, mr_help_platforms;

/* "Options:" and the help of each option whose bit is in bits, to f. */
void mr_help_options(FILE *f, int bits);

/* memrepro --help (or no command): every command's usage, every option. */
void mr_help_global(FILE *f);

/* memrepro COMMAND --help, to stdout: h, then the options in bits. */
void mr_help_command(const struct mr_help *h, int bits);

#endif
