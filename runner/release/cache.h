/* cache: entries pkgs/<Package>_<Version>/ of the release cache — the
 * unpacked tree and its manifest, made atomically and verified on use.
 * Internal to release/.
 *
 * The manifest, <entry>/.memrepro-manifest, is text, one fact a line,
 * tab-separated:
 *   release  <name>          package  <Package>      version  <Version>
 *   deb      <path of the .deb, relative to the cache directory>
 *   sha256   <the .deb's>
 *   file     <sha256>  <path inside the entry>   (every regular file)
 * Written last, inside the temporary tree, before the rename. */
#ifndef MR_REL_CACHE_H
#define MR_REL_CACHE_H

#include "core/util.h"

#define MR_REL_MANIFEST ".memrepro-manifest"

struct mr_rel_manifest {
	char *release, *package, *version;
	char *deb;    /* relative to the cache directory */
	char *sha256; /* of the .deb */
};

/* cache/pkgs/<Package>_<Version> (fresh); a ':' of the version (its
 * epoch) is written "%3a", as apt names the .deb, so the path can go in
 * a ':'-separated library path. */
char *mr_rel_entry_dir(const char *cache, const char *package, const char *version);

/* Outcomes of mr_rel_entry_verify. */
enum {
	MR_REL_ENTRY_OK = 0,
	MR_REL_ENTRY_TREE = 1, /* an unpacked file is missing or differs; the
	                          .deb verifies (unpack again) */
	MR_REL_ENTRY_DEB = 2,  /* the .deb is missing or differs */
	MR_REL_ENTRY_NONE = 3, /* no entry (no manifest, or not readable) */
};

/* Check entry (a directory from mr_rel_entry_dir) against its manifest,
 * read into *m (free with mr_rel_manifest_free; filled but for NONE).
 * why names the file that does not verify. */
int mr_rel_entry_verify(const char *cache, const char *entry, struct mr_rel_manifest *m,
			struct strbuf *why);

/* The head of entry's manifest (release, package, version, deb,
 * sha256) into *m, nothing hashed: 0, or -1 (no manifest, or one
 * without them). */
int mr_rel_entry_head(const char *entry, struct mr_rel_manifest *m);

/* Unpack the .deb m->deb (relative to cache) into entry with dpkg-deb
 * -x, through a temporary directory beside it and a rename; an entry
 * already there is replaced.  0, or -1 with why. */
int mr_rel_entry_unpack(const char *cache, const char *entry,
			const struct mr_rel_manifest *m, struct strbuf *why);

void mr_rel_manifest_free(struct mr_rel_manifest *m);

/* Remove from dir (pkgs/, debs/<release>/) the temporary trees and files
 * of fetches whose process is gone (killed midway). */
void mr_rel_sweep(const char *dir);

/* The name of a fetch's work directory beside base: "BASE.KIND-PID-pNS-N"
 * (KIND tmp or old; NS the inode of our pid namespace, 0 when /proc is
 * not ours), which mr_rel_sweep removes once that process is gone.
 * Fresh string. */
char *mr_rel_tmpname(const char *base, const char *kind, unsigned serial);

/* Remove path and everything under it, never following a link; 0 or
 * -errno of the first failure. */
/* Write text as the manifest of the entry made in tmp, then put tmp in
 * place of entry in one step: an older entry is exchanged with it (and
 * removed), or, where the file system cannot exchange, moved aside to
 * old first (the caller removes old).  Returns 0, or -1 with why. */
int mr_rel_entry_commit(const char *tmp, const char *entry, const char *old, const char *text,
			struct strbuf *why);

#endif
