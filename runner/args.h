/* args: the command line's options, parsed and checked.
 *
 * One table of options (long names, the short ones, which take a value);
 * getopt_long reads them in order wherever they stand, positional
 * arguments among them (the command first), so short options bundle
 * (-qv, -j2) and a long one may be abbreviated while unambiguous
 * (--rep).  Each value is checked as it is read, then what the command's
 * table entry (main.c) allows; a bad one is a message naming the option
 * and exit MR_USAGE.  The options that shape the results are recorded for
 * --resume (resume.h).
 */
#ifndef MR_ARGS_H
#define MR_ARGS_H

#include "help.h"
#include "matrix/matrix.h"
#include "core/util.h"

struct mr_args;
struct mr_paths;

/* A command: its handler, the options it takes, its arguments. */
struct mr_command {
	const char *name;
	int (*run)(const struct mr_args *o, const struct mr_paths *p);
	const struct mr_help *help;
	const char *needs; /* the error when the arguments (or --out, with
	                      needs_out) are not as wanted; NULL: generic */
	mr_optbits allowed;     /* option bits */
	int min_names;     /* positional arguments (case names, directories) */
	int max_names;     /* -1: any */
	int needs_out;
	int quick;         /* the quick profile unless --profile says */
	int reads;         /* its arguments are results directories that a
	                      runner may still write: -1 no, 0 warn, 1 refuse */
	int from_refuse;   /* --from DIR still being written: 2 refuse, 0 warn */
	int dir_arg;       /* one argument naming a directory is results */
	int own_format;    /* --format's words are the command's own: it
	                      reads format_word */
	int makes_expected; /* --expected DIR may be new (bless writes it);
	                      other commands refuse one that is not there */
	int command;       /* takes "-- CMD [ARGS...]" (matrix/cmdcase.h) */
};

/* Everything the command line says. */
struct mr_args {
	const struct mr_command *cmds; /* the table of commands */
	int ncmds;
	const struct mr_command *cmd;
	mr_optbits given;             /* option bits seen */
	struct mr_matrix_axis *axes;
	int nax;
	int quick;                 /* -1: the command's default */
	int versions;              /* --profile versions (quick sizes) */
	int originals;             /* --profile originals (the defaults) */
	int kernels;               /* --profile kernels (quick sizes, guest/guest.h) */
	long repeat;
	const char *out;
	double timeout_s;          /* 0: none given */
	double factor;
	long interval_ms;
	const char *cases_dir;
	const char *expected_dir;
	const char *from;
	int verbose;
	int no_charts;             /* --no-charts: tables only */
	const char **allocs;       /* --alloc NAME=PATH|SONAME, in order */
	int nallocs;
	const char *allocators;    /* --allocators FILE, or NULL */
	const char **names;        /* positional, NULL-terminated */
	int nnames;
	int format;                /* --format: enum mr_fmt */
	const char *format_word;   /* --format as given, or NULL */
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
	/* a command (matrix/cmdcase.h): what follows "--" of run, and its
	   options --name, --mark-every, --mark-on, --checkpoints, --claims
	   (NULL: not given) */
	char *const *command;
	int ncommand;
	const char *cmd_name, *mark_every, *mark_on, *ckpt_names;
	const char *lang;          /* new --lang, NULL: not given */
	const char *claims;        /* --claims FILE: the gate's claims */
	int recorded;              /* parsing env.tsv's options (--resume):
	                              "--" comes before case names there */
};

/* Where things are, from the options or the defaults (owned). */
struct mr_paths {
	char *exe, *exe_dir;
	char *cases_dir, *expected_dir;
};

/* Parse argv (argc of them) into a, for one of the ncmds commands of
 * cmds.  On --help prints it and exits MR_OK; on bad usage prints why and
 * exits MR_USAGE.  Returns 0, or 1 when --version was given (nothing but
 * the options' syntax checked then). */
int mr_args_parse(struct mr_args *a, const struct mr_command *cmds, int ncmds,
		  int argc, char **argv);

/* --resume DIR: the options DIR/env.tsv recorded replace a's (only
 * --verbose, --quiet, --yes, --format, --plots and -j are a's own),
 * parsed as if given again.  Exits MR_USAGE when they cannot be read. */
void mr_args_resume(struct mr_args *a);

/* The long name of the first option of bits, in the table's order. */
const char *mr_args_first(mr_optbits bits);

/* Free what a holds. */
void mr_args_free(struct mr_args *a);

#endif
