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
#include "core/rmtree.h"
#include "proto/schema.h"

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

/* Where the index's answer for package of release rel is kept
 * (CACHE/apt/<release>/answers/<package>), fresh; NULL when package is
 * not a Debian package name (nothing but [a-z0-9+.-], a letter or digit
 * first). */
static char *
answer_path(int rel, const char *package)
{
	char *cache, *p;

	if (!package[0] || !strchr("abcdefghijklmnopqrstuvwxyz0123456789", package[0]) ||
	    strspn(package, "abcdefghijklmnopqrstuvwxyz0123456789+.-") != strlen(package))
		return NULL;
	cache = mr_release_cache_dir();
	p = esprintf("%s/apt/%s/answers/%s", cache, mr_release_name(rel), package);
	free(cache);
	return p;
}

/* Keep the apt index's answer ix (a line "VERSION SHA256" per
 * candidate) for a guest's runner, written only when it differs from the
 * kept one (each lookup asks); a failure only loses the copy. */
static void
keep_answer(int rel, const char *package, const struct mr_rel_index *ix)
{
	char *path = answer_path(rel, package), *dir;
	struct strbuf b = { 0 }, kept = { 0 };
	int i;

	if (!path)
		return;
	dir = esprintf("%.*s", (int)(strrchr(path, '/') - path), path);
	sb_add(&b, "");
	for (i = 0; i < ix->n; i++)
		sb_printf(&b, "%s %s\n", ix->c[i].version, ix->c[i].sha256);
	if (mr_rel_read_small(path, 64 * 1024, &kept) == 0 && kept.len == b.len &&
	    (!b.len || memcmp(kept.s, b.s, b.len) == 0))
		goto out;
	if (mkdir_p(dir) == 0)
		(void)mr_rel_write_file(path, b.s);
out:
	sb_free(&kept);
	sb_free(&b);
	free(dir);
	free(path);
}

/* The answer the host's index gave for package (keep_answer) into ix:
 * 1, or 0 when there is none. */
static int
kept_answer(int rel, const char *package, struct mr_rel_index *ix)
{
	char *path = answer_path(rel, package), *line, *next;
	struct strbuf b = { 0 };
	int got = path && mr_rel_read_small(path, 64 * 1024, &b) == 0;

	for (line = got ? b.s : NULL; line && *line && ix->n < MR_REL_CAND_MAX; line = next) {
		char *f[3];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (split(line, ' ', f, 3) == 2 && f[0][0] && strlen(f[1]) == 64) {
			ix->c[ix->n].version = estrdup(f[0]);
			ix->c[ix->n].sha256 = estrdup(f[1]);
			ix->c[ix->n].path = NULL;
			ix->n++;
		}
	}
	sb_free(&b);
	free(path);
	return got;
}

/* The cache source: what the host's index answered for package of
 * release rel (kept_answer), else the entries of it the cache holds
 * (their manifests' heads); verified on use, as every entry.  A guest's
 * runner (MEMREPRO_GUEST) has the host's cache read-only and no
 * network: what the host resolved and fetched before it booted is all
 * there is, and no apt tree can be locked or updated. */
static int
cache_index(int rel, const char *package, struct mr_rel_index *ix, struct strbuf *why)
{
	char *cache, *pkgs, **names;
	size_t plen = strlen(package);
	int n, i;

	if (kept_answer(rel, package, ix))
		return 0;
	cache = mr_release_cache_dir();
	pkgs = esprintf("%s/pkgs", cache);
	n = mr_rel_list_dir(pkgs, "", &names);
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
	const char *src = getenv("MEMREPRO_RELEASES"), *guest = getenv(MR_GUEST_ENV);

	ix->n = 0;
	if (src && *src)
		return mr_rel_dir_index(src, rel, package, ix, why);
	if (guest && *guest)
		return cache_index(rel, package, ix, why);
	if (mr_rel_apt_index(rel, package, ix, why) < 0)
		return -1;
	keep_answer(rel, package, ix);
	return 0;
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
	mr_rmtree(tmp);
	free(tmp);
	free(dir);
	return rc;
}
