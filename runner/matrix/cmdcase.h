/* cmdcase: any command as a case (`memrepro run [OPTIONS] -- CMD [ARGS...]`,
 * docs/command.md).
 *
 * The command has no --describe: its description is made here.  One case,
 * named by --name or the command's base name made a case name; no
 * parameters (an --axis of another key than the environment's is refused,
 * exit 2); the checkpoints the program sends on the protocol's channel
 * (docs/originals.md) as --checkpoints names them, and the runner's own
 * marks (proc/marks.h).  Its argv is the command's, run with execve of the
 * path found as execvp finds it: never through a shell.  The allocator axis
 * where none is given: every allocator of the registry that this machine
 * has.
 */
#ifndef MR_CMDCASE_H
#define MR_CMDCASE_H

#include <regex.h>

#include "proto/cases.h"
#include "matrix/axis.h"
#include "proc/marks.h"

/* A command's default timeout, in s (a case's is the runner's default). */
#define MR_CMDCASE_TIMEOUT_S 600

/* What the command line says of the command. */
struct mr_cmdcase_opts {
	char *const *argv;       /* the command and its arguments; argc > 0 */
	int argc;
	const char *name;        /* --name, or NULL: the command's */
	const char *every;       /* --mark-every DURATION, or NULL */
	const char *on;          /* --mark-on REGEX (POSIX extended), or NULL */
	const char *ckpts;       /* --checkpoints NAME,..., or NULL */
};

struct mr_cmdcase {
	char **argv;             /* path, then the arguments; owned */
	char name[65];           /* the case name */
	char **ckpts;            /* the protocol's checkpoint names; owned */
	int nckpts;
	regex_t re;              /* --mark-on, compiled when marks.on */
	struct mr_marks marks;
};

/* The case name of command cmd (argv[0]) when --name gives none: its
 * base name, lower case, each run of other characters than [a-z0-9] one
 * '-', none at either end; "command" when nothing is left.  size > 1. */
void mr_cmdcase_name(const char *cmd, char *out, size_t size);

/* Check o and make *cc.  Returns 0, or -1 after printing what is wrong,
 * naming the option (a usage error: exit 2). */
int mr_cmdcase_init(struct mr_cmdcase *cc, const struct mr_cmdcase_opts *o);
void mr_cmdcase_free(struct mr_cmdcase *cc);

/* The command's description, as mr_cases_load would make it, into a fresh
 * array of one (*cases; free with mr_select_free).  Returns 1. */
int mr_cmdcase_select(const struct mr_cmdcase *cc, struct mr_cases_desc **cases);

/* The argv of a run: a fresh copy of cc's (mr_matrix_argv_free). */
char **mr_cmdcase_argv(const struct mr_cmdcase *cc);

/* The axes of a command's session, *ax (*nax of them, owned, grown): the
 * allocator axis where none is given, of every allocator of the current
 * registry that self_exe's probe finds here.  Returns 0, or -1 with why
 * in err (an axis a command cannot take: runtime, or a parameter). */
int mr_cmdcase_axes(struct mr_matrix_axis **ax, int *nax, const char *self_exe,
		    struct strbuf *err);

#endif
