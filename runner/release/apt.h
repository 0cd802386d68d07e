/* apt: the apt source: one private apt tree per release under
 * CACHE/apt/<release> (its own apt.conf, sources list, lists, status and
 * cache; the host's apt configuration is not read), the mirror taken
 * from $MEMREPRO_MIRROR or the host's `apt-get indextargets`, the lists
 * updated when missing or over a day old (at most once per process).
 * Internal to release/. */
#ifndef MR_REL_APT_H
#define MR_REL_APT_H

#include "core/util.h"
#include "release/index.h"

/* The versions release rel's index has of package, into ix (each with
 * the index's sha256): 0 (n 0: no such package), or -1 with why when the
 * index cannot be had. */
int mr_rel_apt_index(int rel, const char *package, struct mr_rel_index *ix, struct strbuf *why);

/* apt-get download of package=version from release rel into the
 * directory dir: 0, or -1 with why (worded by the kind of failure:
 * "no network: ", "no key: "). */
int mr_rel_apt_download(int rel, const char *package, const char *version, const char *dir,
			struct strbuf *why);

#endif
