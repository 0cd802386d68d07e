/* libc: the glibcs of the libc axis, and how a case runs under one.
 *
 * --axis libc=2.36,2.41,2.43: the value the host has (gnu_get_libc_version)
 * is the host's own loader, nothing changes; another version is libc6 of
 * the oldest Debian release that has it, from the release cache
 * (release/release.h), and the case runs through that release's loader:
 *   LOADER --library-path LIBDIR[:ALLOCATOR_DIR] --argv0 CASE CASE ARGS...
 * with the allocator in LD_PRELOAD (an absolute path) and MEMREPRO_LOADER,
 * MEMREPRO_LIBRARY_PATH, MEMREPRO_CASE_EXE in its environment, so that a
 * case re-executing itself (thp=always, lib/mr_thread.c) stays on that
 * glibc.  The process is the case's all the same (the loader maps it and
 * jumps to it: one pid, one exec), so sampling, checkpoints, the process
 * tree and cgroups see nothing different; only /proc/PID/exe names the
 * loader.  Only libc6 comes from the release: the loader still finds the
 * host's libstdc++, libgcc_s and zlib, which a newer glibc runs
 * (docs/releases.md, section 4).  An older glibc than the host's cannot
 * run what the host built (every such binary needs GLIBC_2.34 symbols):
 * its configs are skipped with the reason, and nothing is fetched.
 */
#ifndef MR_LIBC_H
#define MR_LIBC_H

#include "core/util.h"
#include "matrix/axis.h"

struct mr_libc {
	char *version;  /* the axis value: "2.41" */
	int host;       /* 1: the host's glibc (its own loader) */
	char *loader;   /* the release's ld-linux-x86-64.so.2 (absolute) */
	char *libdir;   /* the directory of its libc.so.6: --library-path */
	char *package, *release, *debver, *sha256; /* where it came from */
	char *missing;  /* why its configs are skipped, or NULL */
};

/* Resolve every value of the libc axis among ax (fetching into the
 * cache: this may take seconds), once per run; no libc axis, nothing.
 * A glibc that cannot be had now (offline) gets its reason in missing:
 * its configs are skipped.  Returns 0, or -1 with a message in err for a
 * version no release has (naming those there are). */
int mr_libc_prepare(const struct mr_matrix_axis *ax, int nax, struct strbuf *err);

/* The resolved libc of axis value version, or NULL (not prepared). */
const struct mr_libc *mr_libc_find(const char *version);

/* The resolved libcs (mr_libc_count of them), in axis order. */
int mr_libc_count(void);
const struct mr_libc *mr_libc_at(int i);

void mr_libc_free_all(void);

/* Compare glibc versions "2.9" < "2.36": <0, 0, >0. */
int mr_libc_cmp(const char *a, const char *b);

/* The argv of a case run under l: a fresh, NULL-terminated array of fresh
 * strings (free with mr_matrix_argv_free) holding the loader, its options
 * and then argv (the case's own, argv[0] its path); alloc_path the
 * preloaded allocator (its directory joins the library path) or NULL.
 * Into *env, three fresh "MEMREPRO_LOADER=..." style strings. */
char **mr_libc_argv(const struct mr_libc *l, char *const *argv, const char *alloc_path,
		    char *env[3]);

#endif
