/* dirsrc: the directory source (MEMREPRO_RELEASES=DIR): the .deb files
 * of DIR/<release> are the archive, read with `dpkg-deb -f` (no apt, no
 * network).  Internal to release/. */
#ifndef MR_REL_DIRSRC_H
#define MR_REL_DIRSRC_H

#include "core/util.h"
#include "release/index.h"

/* The versions src/<release rel> holds of package, appended to ix (each
 * with its .deb's path and sha256): 0 (none: a release without a
 * directory has nothing), or -1 with why. */
int mr_rel_dir_index(const char *src, int rel, const char *package, struct mr_rel_index *ix,
		     struct strbuf *why);

#endif
