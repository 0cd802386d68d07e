/* release: packages of other Debian releases, fetched without root into a
 * per-user cache, unpacked and verified.
 *
 * The releases (bullseye, bookworm, trixie, sid) and their apt source
 * options are a shipped data file (etc/releases, installed as
 * $(SHAREDIR)/releases).  A package comes from one of two sources:
 *   - apt (the default): one private apt tree per release under
 *     CACHE/apt/<release> (its own sources list, lists, status and
 *     cache; the host's apt configuration is not read), the mirror taken
 *     from the host's `apt-get indextargets`, signatures checked by apt
 *     against the host's Debian archive keyring; `apt-get update` when
 *     the lists are missing or older than a day; `apt-get download`;
 *   - a directory (MEMREPRO_RELEASES=DIR): the .deb files of DIR/<release> are the
 *     archive, read with `dpkg-deb -f` (no apt, no network: tests and
 *     machines without network).
 * The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/memrepro:
 *   debs/<release>/<file>.deb        the fetched package
 *   pkgs/<Package>_<Version>/        its unpacked tree (dpkg-deb -x), with
 *   pkgs/<Package>_<Version>/.memrepro-manifest
 *                                    sha256 of the .deb and of every
 *                                    regular file unpacked
 * An entry is unpacked into a temporary directory, the manifest written
 * into it, then renamed into place: a tree without a manifest is never
 * taken as complete.  Every use verifies the entry against its manifest;
 * one that does not verify is unpacked again from its .deb, or fetched
 * again when the .deb itself is bad.
 *
 * Helpers (apt-get, apt-cache, dpkg-deb) run by execve with an argv, no
 * shell, each bounded by a timeout (proc/capture.h).
 *
 * Not for measured code: this mallocs, forks and writes files.
 */
#ifndef MR_RELEASE_H
#define MR_RELEASE_H

#include "core/util.h"
#include "release/releases.h"

/* Outcomes of mr_release_get and friends. */
enum {
	MR_REL_OK = 0,
	MR_REL_CANNOT = 1,   /* cannot be had: offline, no key, no such
	                        package, a helper failed; the why says which */
	MR_REL_NOVERSION = 2 /* no release has that version (or release):
	                        the why names the versions there are */
};

/* Debian version -> upstream version (fresh string): the epoch ("1:")
 * and the Debian revision (from the last '-') removed; when "+really" is
 * in it, what follows it (the version really packaged); then cut at the
 * first '+' or '~', and a trailing ".dfsg" or ".ds" removed:
 *   5.2.1-3 -> 5.2.1, 2.0.9+ds-2 -> 2.0.9, 2.36-9+deb12u14 -> 2.36,
 *   1:1.3.dfsg+really1.3.1-1 -> 1.3.1, 1:16.0.6-15~deb11u2 -> 16.0.6. */
char *mr_release_upstream(const char *debver);

/* One release's version of a package (a row of `memrepro versions`). */
struct mr_release_avail {
	const char *release; /* the release's name (not owned) */
	char *package;       /* the package asked for there, NULL: the
	                        release has none */
	char *version;       /* Debian's version, NULL when unknown */
	char *upstream;      /* mr_release_upstream(version) */
	int cached;          /* 1: a verified entry is in the cache */
	char *why;           /* why the version is unknown (cannot be had),
	                        NULL otherwise */
};

/* Every release's version of a package.  pkg_by_release[i] names the
 * package in release i (NULL: none there), mr_release_count() of them.
 * Fills out[0..count-1] (free with mr_release_avail_free).  Needs the
 * index of each release (an apt update on first use); a release whose
 * index cannot be had gets its why. */
void mr_release_list(const char *const *pkg_by_release, struct mr_release_avail *out);
void mr_release_avail_free(struct mr_release_avail *a, int n);

/* A package in the cache, unpacked and verified. */
struct mr_release_pkg {
	char *release;  /* where it came from */
	char *package;  /* Debian package name */
	char *version;  /* Debian's version */
	char *upstream; /* mr_release_upstream(version) */
	char *root;     /* the unpacked tree (absolute) */
	char *deb;      /* the cached .deb (absolute) */
	char *sha256;   /* of the .deb: computed here, equal to apt's */
	int fetched;    /* 1: fetched or unpacked now; 0: the cache had it */
};

/* Get a package into the cache: fetch when not cached (or not verifying)
 * and unpack.  want is an upstream version (the oldest release whose
 * package has it), a full Debian version, or a release's name (that
 * release's package).  pkg_by_release as for mr_release_list.  Returns
 * MR_REL_OK with *out filled (free with mr_release_pkg_free);
 * MR_REL_CANNOT with why ("cannot be had" reasons: "no network: ...",
 * "apt-get update for sid failed: ...", "trixie has no package X"),
 * MR_REL_NOVERSION with why naming the versions each release has
 * ("no release has version 9.9 (bullseye 5.2.1, bookworm 5.3.0, ...)").
 * why gets no "cannot be had" prefix: the caller words it. */
int mr_release_get(const char *const *pkg_by_release, const char *want,
		   struct mr_release_pkg *out, struct strbuf *why);

/* libc: package libc6 in every release.  Same as mr_release_get. */
int mr_release_get_libc(const char *want, struct mr_release_pkg *out, struct strbuf *why);

/* A file called filename (a base name: "libjemalloc.so.2",
 * "ld-linux-x86-64.so.2") in p's tree, symbolic links resolved inside
 * the tree (an absolute link target is taken relative to the root, as
 * bullseye's and bookworm's lib64/ld-linux-x86-64.so.2 need), never
 * leaving it.  When several match, the one under an x86_64-linux-gnu
 * directory, then the first by path.  Returns the real file's absolute
 * path (fresh), or NULL when there is none (or its links leave the tree
 * or loop). */
char *mr_release_find(const struct mr_release_pkg *p, const char *filename);

/* The loader of an unpacked libc6 (mr_release_find of
 * "ld-linux-x86-64.so.2"), and the directory holding its libc.so.6 (the
 * --library-path).  Fresh strings, NULL when missing. */
char *mr_release_loader(const struct mr_release_pkg *libc);
char *mr_release_libdir(const struct mr_release_pkg *libc);

void mr_release_pkg_free(struct mr_release_pkg *p);

#endif
