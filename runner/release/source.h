/* source: where release packages come from — the apt source (apt.h:
 * private apt trees, one per release) or the directory source (dirsrc.h:
 * MEMREPRO_RELEASES) — and the fetch of one into the cache.  Internal to
 * release/. */
#ifndef MR_REL_SOURCE_H
#define MR_REL_SOURCE_H

#include "core/util.h"
#include "release/index.h"

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

#endif
