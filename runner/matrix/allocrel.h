/* allocrel: allocator specs that name a version, NAME@VERSION or
 * NAME@RELEASE, resolved through the registry and the release cache.
 *
 * The registry gives the package per release (etc/allocators), the
 * release cache (release/release.h) fetches and unpacks the oldest
 * release's package with that upstream version, and the library is the
 * registry's file name found in the unpacked tree.  A library built
 * against a newer glibc than a config's cannot load there (trixie's and
 * sid's builds call glibc 2.38's C23 strtol): the highest GLIBC_x.y its
 * ELF version needs (.gnu.version_r) says which glibc it needs, and a
 * config whose glibc is older skips it with the reason.
 */
#ifndef MR_ALLOCREL_H
#define MR_ALLOCREL_H

#include "core/util.h"
#include "matrix/alloctypes.h"
#include "matrix/axis.h"
#include "matrix/libc.h"

/* Fetch the library of a (entry set, spec "NAME@WANT") into the cache:
 * sets a->fetched_package, release, sha256, glibc_need and version (the
 * package's upstream version), and *lib to the library's absolute path
 * (fresh).  Returns 0, or -1 with a->missing set. */
int mr_allocrel_fetch(struct mr_alloc *a, const char *want, char **lib);

/* The highest GLIBC_x.y version the ELF file path needs ("2.38", fresh),
 * or NULL when it needs none or cannot be read. */
char *mr_allocrel_glibc_need(const char *path);

/* Copy of the allocator axis values of ax with NAME@RELEASE made
 * NAME@VERSION (that release's upstream version), into *out (nax of
 * them, free each with mr_matrix_axis_free, then the array).  Returns 0;
 * -1 with a message in err when a spec names a version (or release) no
 * release has: the message names the versions there are.  A version that
 * cannot be had now (offline) stays as given: its configs are skipped. */
int mr_allocrel_normalise(const struct mr_matrix_axis *ax, int nax,
			  struct mr_matrix_axis **out, struct strbuf *err);

/* The reason a config on glibc l (NULL: the host's) skips a, or NULL
 * when it can run: a's library needs a newer glibc (naming the release
 * glibc that would run it), or does not load under l's loader (probed
 * once per pair, self_exe re-executed through it).  Fresh string. */
char *mr_allocrel_skip(const struct mr_alloc *a, const struct mr_libc *l, const char *self_exe);

/* Forget the probes of mr_allocrel_skip (the end of a session). */
void mr_allocrel_free(void);

#endif
