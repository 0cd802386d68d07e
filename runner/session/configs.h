/* configs: the cases of a session and their matrices.
 *
 * The cases selected by name; the axes of the command line, with the
 * versions profile's where it names none (versions.h: the releases'
 * allocators and glibcs, paired); allocator specs NAME@RELEASE made
 * NAME@VERSION and fetched, the libc axis' glibcs fetched and their own
 * tunables checked (allocrel.h, libc.h); each case's matrix, with the
 * configs the axis directives of its claims file add (claims.h:
 * "axis KEY=V,...", unless the command line gives an axis of KEY).
 */
#ifndef MR_CONFIGS_H
#define MR_CONFIGS_H

#include "proto/cases.h"
#include "matrix/matrix.h"

struct mr_casetab;

/* The runtime axis where --axis runtime= gives none: the model and the
 * host's interpreters, of these those in PATH (a case runs those it has
 * an original for). */
#define MR_CONFIGS_RUNTIMES "c,node,ruby"
/* The originals profile's (the defaults' sizes): the runtime versions
 * the reports were made on and those since (docs/originals.md): Node
 * 10.7.0 (seeds/003's) and the newest 20 and 22; Debian's Ruby 2.7
 * (bullseye), 3.1 (bookworm) and 3.3 (trixie); Python 3.9, 3.11, 3.13; Go 1.15, 1.19, 1.24; Redis
 * 6.0 (bullseye), 7.0 (bookworm), 8.0 (trixie); OpenJDK 11, 17, 21, 25. */
#define MR_CONFIGS_ORIGINALS "c,node@10.7.0,node@20,node@22,ruby@2.7,ruby@3.1,ruby@3.3,python@3.9,python@3.11,python@3.13,go@1.15,go@1.19,go@1.24,redis@6,redis@7,redis@8,java@11,java@17,java@21,java@25"

/* Add to *ax (nax of them, owned, grown) the runtime axis where none is
 * given: the model and the host's interpreters that are in PATH; in the originals
 * profile, every runtime version of MR_CONFIGS_ORIGINALS, and glibc and
 * jemalloc unless an allocator axis is given. */
void mr_configs_default_axes(struct mr_matrix_axis **ax, int *nax, int originals);

struct mr_cmdcase;

struct mr_configs_opts {
	const char *cases_dir;
	const char *const *names; /* the cases; nnames 0: all */
	int nnames;
	const struct mr_matrix_axis *axes; /* --axis */
	int nax;
	int quick;                /* the quick parameter values */
	int versions;             /* the versions profile */
	int originals;            /* the originals profile */
	const char *expected_dir; /* the claims files, or NULL */
	const struct mr_cmdcase *command; /* a command's session (matrix/cmdcase.h):
	                                     its case instead of cases_dir's */
	const char *self_exe;     /* the runner, for a command's allocator probe */
	struct mr_casetab *tab;   /* the command's table over cases_dir and
	                             expected_dir (check/casetab.h): the
	                             cases' descriptions are entered in it,
	                             their claims read through it (required) */
};

/* The cases (*cases, *ncases of them) and their matrices (*mats, *built
 * of them built).  Returns 0, or -1 after printing why (a bad axis; no
 * config of any case; a runtime version that does not exist, resolved as
 * `fetch` does; -2: a claims file's directive, printed as
 * path:line:col); what was made is stored
 * all the same, to be freed. */
int mr_configs_build(const struct mr_configs_opts *o, struct mr_cases_desc **cases,
		     int *ncases, struct mr_matrix **mats, int *built);

#endif
