/* source: where a release package comes from, the directory source
 * (dirsrc.h) or the apt source (apt.h), and its fetch — see source.h. */
#include "release/source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "release/apt.h"
#include "release/cache.h"
#include "release/dirsrc.h"
#include "release/files.h"
#include "release/releases.h"
#include "release/sha256.h"

void
mr_rel_index_free(struct mr_rel_index *ix)
{
	int i;

	for (i = 0; i < ix->n; i++) {
		free(ix->c[i].version);
		free(ix->c[i].sha256);
		free(ix->c[i].path);
	}
	ix->n = 0;
}

/* The cache source: the entries of package from release rel that the
 * cache holds (their manifests' heads; verified on use, as every
 * entry).  A guest's runner (MEMREPRO_GUEST) has the host's cache
 * read-only and no network: what the host fetched before it booted is
 * all there is, and no apt tree can be locked or updated. */
static int
cache_index(int rel, const char *package, struct mr_rel_index *ix, struct strbuf *why)
{
	char *cache = mr_release_cache_dir(), *pkgs = esprintf("%s/pkgs", cache), **names;
	size_t plen = strlen(package);
	int n = mr_rel_list_dir(pkgs, "", &names), i;

	if (n < 0 && n != -ENOENT)
		sb_printf(why, "the cache %s: %s", pkgs, strerror(-n));
	for (i = 0; i < n && ix->n < MR_REL_CAND_MAX; i++) {
		struct mr_rel_manifest m;
		char *entry;

		if (strncmp(names[i], package, plen) || names[i][plen] != '_')
			continue;
		entry = esprintf("%s/%s", pkgs, names[i]);
		if (mr_rel_entry_head(entry, &m) == 0) {
			if (!strcmp(m.package, package) && !strcmp(m.release, mr_release_name(rel))) {
				ix->c[ix->n].version = m.version;
				ix->c[ix->n].sha256 = m.sha256;
				ix->c[ix->n].path = NULL;
				ix->n++;
				m.version = m.sha256 = NULL;
			}
			mr_rel_manifest_free(&m);
		}
		free(entry);
	}
	mr_rel_free_names(names, n < 0 ? 0 : n);
	free(pkgs);
	free(cache);
	return n < 0 && n != -ENOENT ? -1 : 0;
}

int
mr_rel_source_index(int rel, const char *package, struct mr_rel_index *ix, struct strbuf *why)
{
	const char *src = getenv("MEMREPRO_RELEASES"), *guest = getenv("MEMREPRO_GUEST");

	ix->n = 0;
	if (src && *src)
		return mr_rel_dir_index(src, rel, package, ix, why);
	if (guest && *guest)
		return cache_index(rel, package, ix, why);
	return mr_rel_apt_index(rel, package, ix, why);
}

/* --- fetch ------------------------------------------------------------ */

/* Move the one .deb in tmp to debdir (its name kept): *deb, 0; or -1. */
static int
take_deb(const char *tmp, const char *debdir, const char *want_sha, char **deb,
	 struct strbuf *why)
{
	char **names, hex[65], *from, *to;
	int n = mr_rel_list_dir(tmp, ".deb", &names), e;

	if (n != 1) {
		sb_printf(why, "%s: %s .deb files after the download, not one", tmp,
			  n <= 0 ? "no" : "several");
		mr_rel_free_names(names, n < 0 ? 0 : n);
		return -1;
	}
	from = esprintf("%s/%s", tmp, names[0]);
	to = esprintf("%s/%s", debdir, names[0]);
	mr_rel_free_names(names, n);
	if ((e = mr_sha256_file(from, hex)) < 0) {
		sb_printf(why, "%s: %s", from, strerror(-e));
		goto fail;
	}
	if (want_sha && strcmp(hex, want_sha)) {
		sb_printf(why, "%s: sha256 %s, the index says %s", from, hex, want_sha);
		goto fail;
	}
	if (rename(from, to) < 0) {
		sb_printf(why, "rename %s to %s: %s", from, to, strerror(errno));
		goto fail;
	}
	free(from);
	*deb = to;
	return 0;
fail:
	unlink(from);
	free(from);
	free(to);
	return -1;
}

int
mr_rel_source_fetch(int rel, const char *package, const struct mr_rel_cand *c,
		    const char *debdir, char **deb, struct strbuf *why)
{
	static unsigned serial;
	char *dir = esprintf("%s/", debdir), *tmp = mr_rel_tmpname(dir, "tmp", serial++);
	int e, rc = -1;

	if ((e = mkdir_p(tmp)) < 0) {
		sb_printf(why, "cache %s: %s", tmp, strerror(-e));
		free(tmp);
		free(dir);
		return -1;
	}
	if (c->path) {
		char *base = strrchr(c->path, '/'), *to;

		to = esprintf("%s/%s", tmp, base ? base + 1 : c->path);
		if ((e = mr_rel_copy_file(c->path, to)) < 0)
			sb_printf(why, "copy %s to %s: %s", c->path, to, strerror(-e));
		free(to);
		if (e == 0)
			rc = take_deb(tmp, debdir, c->sha256, deb, why);
	} else if (mr_rel_apt_download(rel, package, c->version, tmp, why) == 0) {
		rc = take_deb(tmp, debdir, c->sha256, deb, why);
	}
	/* whatever is left in tmp goes (a partial download) */
	mr_rel_rmtree(tmp);
	free(tmp);
	free(dir);
	return rc;
}
