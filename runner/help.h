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

/* The options, one bit each: a command's table entry says which it takes.
 * 64 bits (mr_optbits): the 31 of an int ran out. */
typedef unsigned long long mr_optbits;
#define MR_OPT(n) ((mr_optbits)1 << (n))

#define O_AXIS MR_OPT(0)
#define O_PROFILE MR_OPT(1)
#define O_REPEAT MR_OPT(2)
#define O_OUT MR_OPT(3)
#define O_TIMEOUT MR_OPT(4)
#define O_FACTOR MR_OPT(5)
#define O_INTERVAL MR_OPT(6)
#define O_CASES MR_OPT(7)
#define O_EXPECTED MR_OPT(8)
#define O_FROM MR_OPT(9)
#define O_VERBOSE MR_OPT(10)
#define O_HELP MR_OPT(11)  /* only for listing the help option */
#define O_ALLOC MR_OPT(12)
#define O_FORMAT MR_OPT(13)
#define O_QUIET MR_OPT(14)
#define O_YES MR_OPT(15)
#define O_PLOTS MR_OPT(16)
#define O_FAILON MR_OPT(17)
#define O_VERSION MR_OPT(18)  /* only for listing the version option */
/* high bits: clear of options added below 1 << 20 */
#define O_MEMCAP MR_OPT(20)
#define O_RESUME MR_OPT(21)
#define O_SHARD MR_OPT(22)
#define O_JOBS MR_OPT(23)
#define O_ASLR MR_OPT(24)
#define O_ALLOCATORS MR_OPT(25)
#define O_NOCHARTS MR_OPT(26)
/* a command's (matrix/cmdcase.h): run -- CMD */
#define O_NAME MR_OPT(19)
#define O_MARKEVERY MR_OPT(27)
#define O_MARKON MR_OPT(28)
#define O_CKPTNAMES MR_OPT(29)
/* new: the language of the skeleton */
#define O_LANG MR_OPT(30)
#define O_CLAIMS MR_OPT(31)  /* run -- CMD, check --from DIR NAME */


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
	mr_help_fetch, mr_help_platforms, mr_help_new;

/* "Options:" and the help of each option whose bit is in bits, to f. */
void mr_help_options(FILE *f, mr_optbits bits);

/* memrepro --help (or no command): every command's usage, every option. */
void mr_help_global(FILE *f);

/* memrepro COMMAND --help, to stdout: h, then the options in bits. */
void mr_help_command(const struct mr_help *h, mr_optbits bits);

#endif
