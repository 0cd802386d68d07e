/* mr_case: what every case shares — its description, its parameters, the
 * exit protocol, and the command line (--describe, --param k=v, --help).
 *
 * A case is a standalone program.  Its main() calls mr_case_init() first;
 * that parses the command line and exits on --describe, --help or a bad
 * parameter, so after it returns every parameter holds an allowed value.
 */
#ifndef MR_CASE_H
#define MR_CASE_H

#include "mr_exit.h"

/* One parameter.  allowed is either "v1|v2|..." (an enumeration) or
 * "int:MIN..MAX" (a decimal integer in that closed range). */
struct mr_param {
	const char *name;    /* mr_name_param (mr_schema.h): [a-z0-9_]+, not reserved */
	const char *def;     /* default: the report's own setting */
	const char *quick;   /* value in the quick profile; NULL means def */
	const char *allowed; /* enumeration or integer range, see above */
	const char *axis;    /* values of the default matrix ("free|dontneed"),
	                        NULL when the parameter is not an axis */
	const char *help;    /* one line */
};

struct mr_checkpoint_desc {
	const char *name; /* mr_name_checkpoint (mr_schema.h), as passed to mr_checkpoint() */
	const char *help; /* one line: when it is taken */
};

struct mr_case {
	const char *name;    /* file name without .c: mr_name_case (mr_schema.h) */
	const char *title;   /* one line */
	const char *source;  /* the report: seed file, bug number, its figures */
	const struct mr_param *params;              /* ends with {0} */
	const struct mr_checkpoint_desc *checkpoints; /* ends with {0} */
	unsigned timeout_s;  /* per-case timeout override; 0: runner default */
	const char *mechanism; /* what the report is about, one of MR_MECHANISMS;
	                          NULL for a test fixture */
};

/* The mechanisms a case can be filed under (the README's corpus table is
 * grouped by them): per-thread arenas; freed memory kept below the heap's
 * top; purging, decay and madvise advice; transparent huge pages; address
 * space reserved ahead of use; zero-filling (calloc, fresh pages). */
#define MR_MECHANISMS "arenas|retention|purging|hugepages|reservations|zeroing"

/* Parse argv; on --describe / --help print and exit 0; on a bad argument
 * print one message naming the parameter and its allowed values on stderr
 * and exit MR_EXIT_USAGE.  Also starts the case clock and sets up the
 * checkpoint channel (see mr_ckpt.h).  Call once, first thing in main.
 *
 * Arguments: --describe, --help (-h), --param NAME=VALUE (or
 * --param=NAME=VALUE), repeatable, each name at most once.  c and the
 * strings it points to must live as long as the process (static data).  A
 * description that breaks its own rules (a default outside the allowed
 * values, a tab in a help line) is a bug in the case: abort() with a message.
 * Uses stdio for its messages: that happens before anything is measured. */
void mr_case_init(const struct mr_case *c, int argc, char **argv);

/* The current value of a declared parameter (never NULL; aborts on an
 * undeclared name: that is a bug in the case). */
const char *mr_param(const char *name);

/* The value of an "int:" parameter. */
long long mr_param_int(const char *name);

/* Non-zero when the parameter's value equals value. */
int mr_param_is(const char *name, const char *value);

/* Print "<case>: <message>" on stderr and exit MR_EXIT_USAGE: for a
 * combination of parameters that each passed mr_case_init's checks but do
 * not fit together (frame_kb larger than the stack). */
_Noreturn void mr_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Print "skipped: <reason>" as the last stderr line and exit MR_EXIT_SKIP. */
_Noreturn void mr_skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Print "<case>: <message>" (": strerror" when fmt ends with ':') on stderr
 * and exit MR_EXIT_FAIL. */
_Noreturn void mr_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Non-zero when name is one of the checkpoints the case declared, or when
 * no case has been initialised (mr_checkpoint() uses it to catch a record
 * --describe did not announce). */
int mr_case_has_checkpoint(const char *name);

/* Write an allocation's bytes somewhere the compiler must assume is read,
 * so a malloc+memset+free sequence is not optimised away. */
void mr_keep(const void *p);

#endif
