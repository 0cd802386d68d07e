/* tunables: the glibc.* axes (GLIBC_TUNABLES) checked against the list a
 * glibc's own loader prints with --list-tunables, so that no config runs
 * glibc's default under the name of a setting glibc ignored.
 */
#ifndef MR_TUNABLES_H
#define MR_TUNABLES_H

#include "core/util.h"
#include "matrix/axis.h"

/* Every glibc.* axis checked against the tunables ldso (of glibc
 * version, for messages) lists, as mr_matrix_check_tunable does.  ldso
 * NULL: none to ask.  mr_matrix_check_axes does this for the host's
 * loader (when the host's glibc runs some config); the session for each
 * other glibc of the libc axis.  0, or -1 with the message in err. */
int mr_matrix_check_tunables(const struct mr_matrix_axis *ax, int nax, const char *ldso,
			     const char *version, struct strbuf *err);

/* The dynamic loader whose tunables are the valid glibc.* keys:
 * $MEMREPRO_LDSO, else the runner's own (its PT_INTERP, which the cases,
 * built by the same toolchain, have too), else NULL. */
const char *mr_matrix_ldso(void);

/* Whether val is a value glibc takes for tunable key, by listing: the
 * output of `ld.so --list-tunables` ("glibc.malloc.arena_max: 0x0 (min:
 * 0x1, max: 0xffffffffffffffff)" per line), or NULL where the loader
 * cannot list (glibc < 2.33): then only the glibc.malloc.* tunables of
 * glibc's manual up to 2.32 are known, and values are checked as numbers,
 * without bounds.  A number is read as glibc reads it (decimal, 0x hex, 0
 * octal, a sign; all of it); a numeric tunable's value must be within the
 * listed min and max, and not negative where glibc reads it unsigned (a
 * tunable listed in hexadecimal, or any without a listing); a string tunable takes any value.  Returns 0, or -1
 * with a message naming key (and val) in err. */
int mr_matrix_check_tunable(const char *listing, const char *key, const char *val,
			    struct strbuf *err);

#endif
