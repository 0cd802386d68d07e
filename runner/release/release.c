/* release: version words, getting a package into the cache and finding
 * files in it — see release.h (the releases file: releases.c). */
#include "release/release.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "release/cache.h"
#include "release/source.h"

#define MAX_LINKS 40      /* symbolic links followed in one lookup */
#define MAX_MATCHES 64    /* files of one name in a tree */


/* --- version words --------------------------------------------------- */

char *
mr_release_upstream(const char *debver)
{
	const char *s = debver, *colon = strchr(debver, ':'), *dash, *really;
	char *u;
	size_t n;

	if (colon && colon > s && strspn(s, "0123456789") == (size_t)(colon - s))
		s = colon + 1;
	dash = strrchr(s, '-');
	u = estrndup(s, dash ? (size_t)(dash - s) : strlen(s));
	if ((really = strstr(u, "+really"))) {
		char *r = estrdup(really + 7);

		free(u);
		u = r;
	}
	u[strcspn(u, "+~")] = '\0';
	n = strlen(u);
	if (n > 5 && strcmp(u + n - 5, ".dfsg") == 0)
		u[n - 5] = '\0';
	else if (n > 3 && strcmp(u + n - 3, ".ds") == 0)
		u[n - 3] = '\0';
	return u;
}

/* --- the versions of each release ------------------------------------ */

void
mr_release_avail_free(struct mr_release_avail *a, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(a[i].package);
		free(a[i].version);
		free(a[i].upstream);
		free(a[i].why);
	}
	memset(a, 0, (size_t)n * sizeof *a);
}

void
mr_release_list(const char *const *pkg_by_release, struct mr_release_avail *out)
{
	char *cache = mr_release_cache_dir();
	int i;

	for (i = 0; i < mr_release_count(); i++) {
		struct mr_release_avail *a = &out[i];
		struct mr_rel_index ix = { 0 };
		struct strbuf why = { 0 };

		memset(a, 0, sizeof *a);
		a->release = mr_release_name(i);
		if (!pkg_by_release[i])
			continue;
		a->package = estrdup(pkg_by_release[i]);
		if (mr_rel_source_index(i, pkg_by_release[i], &ix, &why) < 0) {
			a->why = estrdup(why.s ? why.s : "index cannot be read");
		} else if (ix.n) {
			struct mr_rel_manifest m;
			struct strbuf vwhy = { 0 };
			char *entry = mr_rel_entry_dir(cache, a->package, ix.c[0].version);
			int v = mr_rel_entry_verify(cache, entry, &m, &vwhy);

			a->version = estrdup(ix.c[0].version);
			a->upstream = mr_release_upstream(a->version);
			a->cached = v == MR_REL_ENTRY_OK ? 1 : v == MR_REL_ENTRY_NONE ? 0 : -1;
			mr_rel_manifest_free(&m);
			sb_free(&vwhy);
			free(entry);
		}
		mr_rel_index_free(&ix);
		sb_free(&why);
	}
	free(cache);
}

/* --- getting one ------------------------------------------------------ */

void
mr_release_pkg_free(struct mr_release_pkg *p)
{
	free(p->release);
	free(p->package);
	free(p->version);
	free(p->upstream);
	free(p->root);
	free(p->deb);
	free(p->sha256);
	memset(p, 0, sizeof *p);
}

static char *
absolute(const char *path)
{
	char *r = realpath(path, NULL);

	return r ? r : estrdup(path);
}

/* Candidate c of pkg in release rel, into the cache (fetched, unpacked,
 * verified). */
static int
use(const char *cache, int rel, const char *pkg, const struct mr_rel_cand *c,
    struct mr_release_pkg *out, struct strbuf *why)
{
	char *entry = mr_rel_entry_dir(cache, pkg, c->version);
	struct mr_rel_manifest m;
	struct strbuf bad = { 0 };
	int v = mr_rel_entry_verify(cache, entry, &m, &bad), fetched = 0, rc = MR_REL_CANNOT;

	if (v == MR_REL_ENTRY_OK && strcmp(m.sha256, c->sha256)) {
		sb_printf(&bad, "%s/%s: sha256 %s, the index says %s", cache, m.deb, m.sha256,
			  c->sha256);
		v = MR_REL_ENTRY_DEB;
	}
	{
		/* what killed fetches left goes first (also beside an entry
		 * that verifies: a fetch killed just after putting it in place
		 * leaves the older one) */
		char *pkgs = esprintf("%s/pkgs", cache), *debs = esprintf("%s/debs/%s", cache,
									  mr_release_name(rel));

		mr_rel_sweep(pkgs);
		mr_rel_sweep(debs);
		free(pkgs);
		free(debs);
	}
	if (v == MR_REL_ENTRY_DEB || v == MR_REL_ENTRY_NONE) {
		char *debdir = esprintf("%s/debs/%s", cache, mr_release_name(rel)), *deb = NULL;
		struct strbuf fwhy = { 0 };

		mr_rel_manifest_free(&m);
		if (mr_rel_source_fetch(rel, pkg, c, debdir, &deb, &fwhy) < 0) {
			if (v == MR_REL_ENTRY_DEB)
				sb_printf(why, "the cache entry does not verify (%s) and cannot be fetched again: %s",
					  bad.s, fwhy.s);
			else
				sb_add(why, fwhy.s);
			sb_free(&fwhy);
			free(debdir);
			goto out;
		}
		sb_free(&fwhy);
		m.release = estrdup(mr_release_name(rel));
		m.package = estrdup(pkg);
		m.version = estrdup(c->version);
		m.deb = estrdup(deb + strlen(cache) + 1);
		m.sha256 = estrdup(c->sha256);
		free(deb);
		free(debdir);
		v = MR_REL_ENTRY_TREE;
	}
	if (v == MR_REL_ENTRY_TREE) {
		size_t at = why->len;

		fetched = 1;
		if (bad.len)
			sb_printf(why, "the cache entry does not verify (%s) and cannot be unpacked again: ",
				  bad.s);
		if (mr_rel_entry_unpack(cache, entry, &m, why) < 0)
			goto out;
		why->len = at; /* unpacked: nothing to say */
		if (why->s)
			why->s[at] = '\0';
		mr_rel_manifest_free(&m);
		sb_free(&bad);
		if (mr_rel_entry_verify(cache, entry, &m, &bad) != MR_REL_ENTRY_OK) {
			sb_printf(why, "just unpacked, does not verify: %s", bad.s ? bad.s : entry);
			goto out;
		}
	}
	out->release = estrdup(m.release);
	out->package = estrdup(m.package);
	out->version = estrdup(m.version);
	out->upstream = mr_release_upstream(m.version);
	out->root = absolute(entry);
	{
		char *deb = esprintf("%s/%s", cache, m.deb);

		out->deb = absolute(deb);
		free(deb);
	}
	out->sha256 = estrdup(m.sha256);
	out->fetched = fetched;
	rc = MR_REL_OK;
out:
	mr_rel_manifest_free(&m);
	sb_free(&bad);
	free(entry);
	return rc;
}

/* Whether candidate c answers want (a release's index wantrel, or a
 * version). */
static int
matches(const struct mr_rel_cand *c, int rel, int wantrel, const char *want)
{
	char *u;
	int ok;

	if (wantrel >= 0)
		return rel == wantrel;
	u = mr_release_upstream(c->version);
	ok = strcmp(u, want) == 0 || strcmp(c->version, want) == 0;
	free(u);
	return ok;
}

int
mr_release_get(const char *const *pkg_by_release, const char *want,
	       struct mr_release_pkg *out, struct strbuf *why)
{
	struct mr_rel_index ix[MR_RELEASE_MAX];
	struct strbuf iwhy[MR_RELEASE_MAX];
	int wantrel, i, j, rc = -1, nfailed = 0, nhave = 0, pass;
	char *cache;

	memset(out, 0, sizeof *out);
	if (mr_release_init(NULL, why) < 0)
		return MR_REL_CANNOT;
	memset(ix, 0, sizeof ix);
	memset(iwhy, 0, sizeof iwhy);
	cache = mr_release_cache_dir();
	wantrel = mr_release_index(want);
	/* pass 0: the release asked for only; pass 1: all (a version, or
	 * naming what there is) */
	for (pass = wantrel >= 0 ? 0 : 1; pass < 2 && rc < 0; pass++) {
		for (i = 0; i < mr_release_count() && rc < 0; i++) {
			if (!pkg_by_release[i] || (pass == 0 && i != wantrel) || ix[i].n ||
			    iwhy[i].len)
				continue;
			if (mr_rel_source_index(i, pkg_by_release[i], &ix[i], &iwhy[i]) < 0) {
				if (!iwhy[i].len)
					sb_add(&iwhy[i], "index cannot be read");
				if (pass == 0) {
					sb_printf(why, "%s: %s", mr_release_name(i), iwhy[i].s);
					rc = MR_REL_CANNOT;
				}
				continue;
			}
			for (j = 0; j < ix[i].n && rc < 0; j++)
				if (matches(&ix[i].c[j], i, wantrel, want))
					rc = use(cache, i, pkg_by_release[i], &ix[i].c[j], out, why);
		}
		if (pass == 0 && rc < 0 && !why->len)
			sb_printf(why, "%s has none", want);
	}
	if (rc < 0) {
		struct strbuf have = { 0 }, failed = { 0 };

		for (i = 0; i < mr_release_count(); i++) {
			if (iwhy[i].len) {
				sb_printf(&failed, "%s%s: %s", nfailed++ ? "; " : "", mr_release_name(i),
					  iwhy[i].s);
				continue;
			}
			for (j = 0; j < ix[i].n; j++) {
				char *u = mr_release_upstream(ix[i].c[j].version);

				sb_printf(&have, "%s%s %s", nhave++ ? ", " : "", mr_release_name(i), u);
				free(u);
			}
		}
		if (why->len && (nfailed || !nhave))
			sb_add(why, "; ");
		if (nfailed) {
			/* the version may be in a release that cannot be read */
			sb_printf(why, "%s%s%s%s", failed.s, nhave ? " (the others have " : "",
				  nhave ? have.s : "", nhave ? ")" : "");
			rc = MR_REL_CANNOT;
		} else if (!nhave) {
			sb_add(why, "no release has the package (");
			for (i = j = 0; i < mr_release_count(); i++)
				if (pkg_by_release[i])
					sb_printf(why, "%s%s %s", j++ ? ", " : "", mr_release_name(i),
						  pkg_by_release[i]);
			sb_add(why, j ? ")" : "none named)");
			rc = MR_REL_CANNOT;
		} else {
			if (wantrel < 0)
				sb_printf(why, "no release has version %s", want);
			sb_printf(why, " (%s)", have.s);
			rc = MR_REL_NOVERSION;
		}
		sb_free(&have);
		sb_free(&failed);
	}
	for (i = 0; i < mr_release_count(); i++) {
		mr_rel_index_free(&ix[i]);
		sb_free(&iwhy[i]);
	}
	free(cache);
	return rc;
}

int
mr_release_get_libc(const char *want, struct mr_release_pkg *out, struct strbuf *why)
{
	const char *pkgs[MR_RELEASE_MAX] = { 0 };
	int i;

	if (mr_release_init(NULL, why) < 0)
		return MR_REL_CANNOT;
	for (i = 0; i < mr_release_count(); i++)
		pkgs[i] = "libc6";
	return mr_release_get(pkgs, want, out, why);
}

/* --- files in a tree --------------------------------------------------- */

/* root/rel with every symbolic link resolved inside root (an absolute
 * target taken from root, ".." never above it): the real file's path
 * (fresh), or NULL. */
static char *
resolve(const char *root, const char *rel)
{
	struct strbuf cur = { 0 }, rest = { 0 };
	char *result = NULL;
	int hops = 0;

	sb_add(&cur, "");
	sb_add(&rest, rel);
	while (rest.len) {
		char *slash = strchr(rest.s, '/'), *comp, *full, target[PATH_MAX];
		struct stat st;
		ssize_t n;

		comp = estrndup(rest.s, slash ? (size_t)(slash - rest.s) : rest.len);
		{
			char *tail = estrdup(slash ? slash + 1 : "");

			sb_free(&rest);
			sb_add(&rest, tail);
			free(tail);
		}
		if (!comp[0] || strcmp(comp, ".") == 0) {
			free(comp);
			continue;
		}
		if (strcmp(comp, "..") == 0) {
			char *last = strrchr(cur.s, '/');

			cur.len = last ? (size_t)(last - cur.s) : 0;
			cur.s[cur.len] = '\0';
			free(comp);
			continue;
		}
		full = esprintf("%s%s/%s", root, cur.s, comp);
		if (lstat(full, &st) < 0) {
			free(full);
			free(comp);
			goto out;
		}
		if (S_ISLNK(st.st_mode)) {
			char *tail;

			n = readlink(full, target, sizeof target - 1);
			free(full);
			free(comp);
			if (n <= 0 || ++hops > MAX_LINKS)
				goto out;
			target[n] = '\0';
			if (target[0] == '/') {
				cur.len = 0;
				cur.s[0] = '\0';
			}
			tail = esprintf("%s%s%s", target, rest.len ? "/" : "", rest.s);
			sb_free(&rest);
			sb_add(&rest, tail);
			free(tail);
			continue;
		}
		free(full);
		sb_printf(&cur, "/%s", comp);
		free(comp);
	}
	{
		char *full = esprintf("%s%s", root, cur.s);
		struct stat st;

		if (lstat(full, &st) == 0 && S_ISREG(st.st_mode))
			result = full;
		else
			free(full);
	}
out:
	sb_free(&cur);
	sb_free(&rest);
	return result;
}

static struct {
	const char *name;
	size_t rootlen;
	char *match[MAX_MATCHES];
	int n;
} finding;

static int
find_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	if ((type == FTW_F || type == FTW_SL) && strcmp(path + f->base, finding.name) == 0 &&
	    finding.n < MAX_MATCHES)
		finding.match[finding.n++] = estrdup(path + finding.rootlen);
	return 0;
}

/* Under a multiarch directory first, then by path. */
static int
cmp_match(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int mx = strstr(x, "/x86_64-linux-gnu/") != NULL, my = strstr(y, "/x86_64-linux-gnu/") != NULL;

	if (mx != my)
		return my - mx;
	return strcmp(x, y);
}

char *
mr_release_find(const struct mr_release_pkg *p, const char *filename)
{
	char *found = NULL;
	int i;

	if (!p->root || strchr(filename, '/') || strcmp(filename, MR_REL_MANIFEST) == 0)
		return NULL;
	finding.name = filename;
	finding.rootlen = strlen(p->root);
	finding.n = 0;
	nftw(p->root, find_one, 16, FTW_PHYS);
	qsort(finding.match, (size_t)finding.n, sizeof finding.match[0], cmp_match);
	for (i = 0; i < finding.n; i++) {
		if (!found)
			found = resolve(p->root, finding.match[i]);
		free(finding.match[i]);
	}
	finding.n = 0;
	return found;
}

char *
mr_release_loader(const struct mr_release_pkg *libc)
{
	return mr_release_find(libc, "ld-linux-x86-64.so.2");
}

char *
mr_release_libdir(const struct mr_release_pkg *libc)
{
	char *f = mr_release_find(libc, "libc.so.6"), *slash;

	if (f && (slash = strrchr(f, '/')))
		*slash = '\0';
	return f;
}
