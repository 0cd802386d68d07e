/* alloc: the allocators a run uses, each found and probed once.
 *
 * One entry per allocator spec the run's configs name ("jemalloc"), from
 * the allocator registry (registry.h): its library, the package that has
 * it.  No paths are hard-coded: the dynamic loader resolves each library
 * name as it would for the case, or the entry's search directories hold
 * it (scudo's versioned clang directory).  The probe runs in a child (the
 * runner's own process stays clean): the runner re-executes itself with
 * LD_PRELOAD=<library> and the hidden subcommand "__probe-alloc LIBRARY",
 * which takes the library's handle with dlopen(RTLD_NOLOAD), its full
 * path from dlinfo(RTLD_DI_LINKMAP) and its version from the library
 * itself (jemalloc's mallctl("version"), tcmalloc's tc_version(),
 * mimalloc's mi_version(), the "TBBmalloc: VERSION" string tbbmalloc
 * prints), falling back to the real path's ".so." suffix, then to the
 * last directory of the path named like a version (scudo's clang/14.0.6).
 * Preloading, not a plain dlopen, because jemalloc's initial-exec TLS
 * cannot be dlopen'ed ("cannot allocate memory in static TLS block") —
 * and it is exactly how the cases will load it.
 */
#ifndef MR_ALLOC_H
#define MR_ALLOC_H

#include "matrix/alloctypes.h"

/* Fill t with one entry per distinct spec of specs[0..n-1] (a spec names
 * a registry entry, then optionally "@VERSION"): glibc from the runner's
 * own libc, the others by a probe child each (self_exe: the runner's own
 * path, to re-execute).  Never fails: an allocator that cannot be used
 * gets its reason in missing ("libjemalloc.so.2 not found by the dynamic
 * loader (Debian package libjemalloc2)").  r outlives t. */
void mr_alloc_resolve(struct mr_alloc_tab *t, const struct mr_registry *r,
		      const char *const *specs, int n, const char *self_exe);

/* The entry of spec, or NULL. */
const struct mr_alloc *mr_alloc_find(const struct mr_alloc_tab *t, const char *spec);

void mr_alloc_free(struct mr_alloc_tab *t);

/* The hidden subcommand, run by the probe child: print
 * "path<TAB>version\n" for soname on stdout, or "error<TAB>msg\n".
 * Returns the exit status. */
int mr_alloc_probe_main(const char *soname);

#endif
