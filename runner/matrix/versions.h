/* versions: the versions profile (--profile versions), every release's
 * allocators and glibcs in one run, at the quick sizes.
 *
 * Where the command line gives no such axis, the profile adds two:
 *   allocator: glibc, then NAME@VERSION for every allocator of the
 *     default axis (registry.h) and every distinct upstream version its
 *     package has in the releases (release.h), oldest release first;
 *   libc: the host's glibc, and that of every release that is newer (an
 *     older one cannot run what the host built: libc.h).
 * and pairs them: glibc runs under every glibc of the libc axis, while
 * every other allocator runs under one, the oldest of the axis that is
 * at least the glibc of its own release (the release's stack: sid's
 * jemalloc under sid's glibc, bullseye's under the host's), so that
 * each allocator version is measured once rather than once per glibc.
 * A release whose index cannot be had adds nothing (a warning says why).
 */
#ifndef MR_VERSIONS_H
#define MR_VERSIONS_H

#include "core/util.h"
#include "matrix/axes.h"

struct mr_registry_entry;

/* pkgs[i]: the package of e in release i (NULL: none there), e NULL for
 * libc (libc6); mr_release_count() entries (release/release.h). */
void mr_versions_packages(const struct mr_registry_entry *e, const char **pkgs);

/* Append the profile's axes that *ax (*nax of them, reallocated) does not
 * have.  Returns 0, or -1 with a message in err when no release's index
 * can be had at all. */
int mr_versions_axes(struct mr_matrix_axis **ax, int *nax, struct strbuf *err);

/* The pairing: the libc axis value allocator runs under (a string of
 * libc's values), or NULL when it runs under each (glibc, an allocator
 * of no release, no libc axis).  Set by mr_versions_pair for the axes of
 * a session (normalised: NAME@VERSION). */
const char *mr_versions_libc_for(const char *allocator);
void mr_versions_pair(const struct mr_matrix_axis *ax, int nax);
void mr_versions_free(void);

#endif
