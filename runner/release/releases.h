/* releases: the releases file — the Debian releases (bullseye, bookworm,
 * trixie, sid), oldest first, their apt source options and the archive
 * keyring — and the cache directory (release.h has the whole picture).
 */
#ifndef MR_RELEASES_H
#define MR_RELEASES_H

#include "core/util.h"

/* The most releases a releases file may name. */
#define MR_RELEASE_MAX 16

/* Read the releases file (once; later calls return the first result).
 * file NULL: the shipped one, found beside the runner (../etc/releases
 * in the build tree, ../share/memrepro/releases installed).  0, or -1
 * with "FILE:LINE:COL: ..." in err. */
int mr_release_init(const char *file, struct strbuf *err);

/* The releases, oldest first (after mr_release_init succeeded). */
int mr_release_count(void);
const char *mr_release_name(int i);
/* Index of the release called name, -1 when there is none. */
int mr_release_index(const char *name);

/* The cache directory (fresh string): $XDG_CACHE_HOME/memrepro, or
 * $HOME/.cache/memrepro. */
char *mr_release_cache_dir(void);

/* The apt source options of release rel ("" none), and the keyring. */
const char *mr_rel_options(int rel);
const char *mr_rel_keyring(void);

#endif
