/* cmdversions: the commands `memrepro versions` and `memrepro fetch` (main.c
 * hands them their arguments).
 *
 * A NAME is an allocator of the registry (matrix/registry.h: its package per
 * release) or "libc" (package libc6 in every release).  A SPEC is
 * NAME@VERSION (an upstream version, release.h's words, or Debian's full
 * version) or NAME@RELEASE.
 */
#ifndef MR_CMDVERSIONS_H
#define MR_CMDVERSIONS_H

#include "matrix/registry.h"

/* versions: a row per NAME and release (every NAME of the registry with
 * a package, and libc, when names is empty): package, Debian version,
 * upstream version, whether cached.  json: one JSON array instead of the
 * table.  MR_OK; MR_FAILED when some release's index cannot be had (its
 * rows say why); MR_USAGE for an unknown NAME. */
int mr_release_cmd_versions(const struct mr_registry *r, const char *const *names, int n,
			    int json);

/* fetch: each SPEC into the cache; a line per SPEC (release, package,
 * version, sha256, the unpacked tree and the library or loader in it).
 * MR_OK; MR_FAILED when one cannot be had (the reason on stderr);
 * MR_USAGE for a bad SPEC, an unknown NAME or a version no release has
 * (the message names the versions there are). */
int mr_release_cmd_fetch(const struct mr_registry *r, const char *const *specs, int n);

#endif
