/* source: where release packages come from — the apt source (private apt
 * trees, one per release) and the directory source (MEMREPRO_RELEASES) —
 * and the bounded helper runner both use.  Internal to release/. */
#ifndef MR_REL_SOURCE_H
#define MR_REL_SOURCE_H

#include "core/util.h"

/* Versions of one package one release offers (more than one only when a
 * directory source holds several). */
#define MR_REL_CAND_MAX 8

struct mr_rel_cand {
	char *version; /* Debian's */
	char *sha256;  /* the index's (apt), the file's (directory source) */
	char *path;    /* directory source: the .deb; apt: NULL */
};

struct mr_rel_index {
	int n;
	struct mr_rel_cand c[MR_REL_CAND_MAX];
};

/* Timeouts of the helpers, in ms (MEMREPRO_HELPER_TIMEOUT=SECONDS, when
 * set, replaces them all: tests of a hanging helper). */
#define MR_REL_T_QUERY 60000     /* apt-cache, dpkg-deb -f, indextargets */
#define MR_REL_T_UPDATE 300000   /* apt-get update */
#define MR_REL_T_DOWNLOAD 600000 /* apt-get download */
#define MR_REL_T_UNPACK 300000   /* dpkg-deb -x */

/* Run argv (argv[0] a command found in PATH, or a path) in dir (NULL:
 * ours) with our environment minus APT_CONFIG, plus LC_ALL=C and
 * apt_config (NULL: none), output (stdout, and stderr too when
 * with_stderr) into out.  Killed after timeout_ms.  0 when it exited 0;
 * -1 with why: "NAME: exit N: last lines of its output", "NAME: timed
 * out after N s (killed)", "NAME: cannot run: ...". */
int mr_rel_helper(const char *dir, const char *const *argv, const char *apt_config,
		  long timeout_ms, int with_stderr, struct strbuf *out, struct strbuf *why);

/* The versions release rel offers of package: 0 with ix filled (n 0: the
 * release has no such package); -1 with why when its index cannot be
 * had.  The apt source updates the release's lists when they are
 * missing or over a day old (at most once per process); a failed
 * update with lists already there falls back to them. */
int mr_rel_source_index(int rel, const char *package, struct mr_rel_index *ix,
			struct strbuf *why);
void mr_rel_index_free(struct mr_rel_index *ix);

/* Fetch candidate c of package from release rel into the directory
 * debdir (created): a fresh file, renamed into place.  0 with *deb (the
 * .deb's path, fresh) and its sha256 checked against c->sha256; -1 with
 * why. */
int mr_rel_source_fetch(int rel, const char *package, const struct mr_rel_cand *c,
			const char *debdir, char **deb, struct strbuf *why);

/* Releases-file data (release.c). */
const char *mr_rel_options(int rel); /* apt source options, "" none */
const char *mr_rel_keyring(void);

#endif
