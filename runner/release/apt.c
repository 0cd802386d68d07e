/* apt: the apt source of release packages, one private apt tree per
 * release — see apt.h. */
#include "release/apt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "release/files.h"
#include "release/helper.h"
#include "release/lock.h"
#include "release/releases.h"

#define LISTS_MAX_AGE 86400  /* seconds: older lists are updated first */

/* The host's codename (fresh; "" unknown), from /etc/os-release. */
static char *
host_codename(void)
{
	struct strbuf b = { 0 };
	const char *p;
	char *v = NULL;

	mr_rel_read_small("/etc/os-release", 65536, &b);
	for (p = b.s; p && *p && !v; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, "VERSION_CODENAME=", 17) == 0) {
			const char *e = strchr(p, '\n');

			p += 17;
			v = estrndup(p, e ? (size_t)(e - p) : strlen(p));
		}
	sb_free(&b);
	return v ? v : estrdup("");
}

/* The Debian mirror (fresh, ending in '/'), or NULL with why: $MEMREPRO_MIRROR,
 * else the host apt's own, from `apt-get indextargets` (the index for
 * the host's codename, else any Debian one). */
static char *
mirror(struct strbuf *why)
{
	static char *found;
	static struct strbuf failed;
	const char *env = getenv("MEMREPRO_MIRROR");
	const char *argv[] = { "apt-get", "indextargets", "--format",
			       "$(REPO_URI) $(RELEASE) $(ORIGIN)", "Identifier: Packages", NULL };
	struct strbuf out = { 0 }, err = { 0 };
	char *code, *any = NULL, *best = NULL;
	const char *p;

	if (env && *env)
		return esprintf("%s%s", env, mr_rel_has_suffix(env, "/") ? "" : "/");
	if (found)
		return estrdup(found);
	if (failed.s) {
		sb_add(why, failed.s);
		return NULL;
	}
	if (mr_rel_helper(NULL, argv, NULL, MR_REL_T_QUERY, 0, &out, &err) < 0) {
		sb_printf(&failed, "no mirror: %s", err.s);
		sb_add(why, failed.s);
		sb_free(&out);
		sb_free(&err);
		return NULL;
	}
	code = host_codename();
	for (p = out.s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char uri[1024], rel[256], origin[256];

		if (sscanf(p, "%1023s %255s %255s", uri, rel, origin) != 3 ||
		    strcmp(origin, "Debian"))
			continue;
		if (!best && *code && strcmp(rel, code) == 0)
			best = estrdup(uri);
		if (!any && !strchr(rel, '-'))
			any = estrdup(uri);
	}
	free(code);
	sb_free(&out);
	sb_free(&err);
	if (!best)
		best = any;
	else
		free(any);
	if (!best) {
		sb_add(&failed, "no mirror: the host's apt configuration names no Debian archive "
				"(apt-get indextargets); set MEMREPRO_MIRROR or MEMREPRO_RELEASES");
		sb_add(why, failed.s);
		return NULL;
	}
	found = esprintf("%s%s", best, mr_rel_has_suffix(best, "/") ? "" : "/");
	free(best);
	return estrdup(found);
}

/* Whether dir holds a Packages list. */
static int
has_lists(const char *dir)
{
	char **names;
	int n = mr_rel_list_dir(dir, "_Packages", &names);

	mr_rel_free_names(names, n < 0 ? 0 : n);
	return n > 0;
}

/* Word the failure of an update: what kind of failure it looks like. */
static void
classify(const char *out, struct strbuf *why)
{
	if (strstr(out, "NO_PUBKEY") || strstr(out, "is not signed") ||
	    strstr(out, "signatures couldn't be verified"))
		sb_add(why, "no key: ");
	else if (strstr(out, "is expired"))
		sb_add(why, "expired index: ");
	else if (strstr(out, "Could not resolve") || strstr(out, "Could not connect") ||
		 strstr(out, "Temporary failure resolving") || strstr(out, "Connection refused") ||
		 strstr(out, "Connection failed") || strstr(out, "Network is unreachable") ||
		 strstr(out, "timed out"))
		sb_add(why, "no network: ");
}

/* Whether apt-get update's output tells of an index it could not fetch
 * (it exits 0 then, and keeps the lists it had). */
static int
fetch_failed(const char *out)
{
	return strncmp(out, "Err:", 4) == 0 || strstr(out, "\nErr:") ||
	       strstr(out, "Failed to fetch") || strstr(out, "Some index files failed");
}

/* Per release, whether its lists were updated (once per process), and a
 * "no network" failure seen and for which release: the mirror that did
 * not answer for one release is not asked again for another. */
static unsigned char updated[64];
static struct strbuf update_failed[64]; /* why the update of each failed */
static struct strbuf offline;
static const char *offline_rel;

/* The directories of the apt tree root: 0, or -1 with why. */
static int
apt_dirs(const char *root, struct strbuf *why)
{
	static const char *const sub[] = { "etc/apt.conf.d", "etc/preferences.d",
		"etc/trusted.gpg.d", "etc/sources.list.d", "state/lists/partial",
		"cache/archives/partial", "log" };
	size_t i;

	for (i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		char *p = esprintf("%s/%s", root, sub[i]);
		int e = mkdir_p(p);

		free(p);
		if (e < 0) {
			sb_printf(why, "cache %s: %s", root, strerror(-e));
			return -1;
		}
	}
	return 0;
}

/* Whether the lists were updated within the day (stamp), and the sources
 * src not written since (by a failed update): lists from the mirror that
 * was asked for serve without asking the host's apt for its mirror again
 * (that takes seconds). */
static int
lists_recent(const char *lists, const char *stamp, const char *src)
{
	struct stat st, sst;

	return has_lists(lists) && stat(stamp, &st) == 0 &&
	       time(NULL) - st.st_mtime < LISTS_MAX_AGE && stat(src, &sst) == 0 &&
	       (sst.st_mtime < st.st_mtime ||
		(sst.st_mtime == st.st_mtime && sst.st_mtim.tv_nsec <= st.st_mtim.tv_nsec));
}

/* The tree's apt.conf (conf), rewritten each time, and an empty status
 * file when there is none: 0 or -errno. */
static int
write_conf(const char *root, const char *conf)
{
	struct strbuf text = { 0 };
	struct stat st;
	char *p;
	int e;

	sb_printf(&text,
		  "Dir::Etc \"%s/etc\";\n"
		  "Dir::Etc::sourcelist \"sources.list\";\n"
		  "Dir::Etc::sourceparts \"sources.list.d\";\n"
		  "Dir::Etc::main \"/dev/null\";\n"
		  "Dir::Etc::parts \"apt.conf.d\";\n"
		  "Dir::Etc::preferences \"/dev/null\";\n"
		  "Dir::Etc::preferencesparts \"preferences.d\";\n"
		  "Dir::Etc::trusted \"/dev/null\";\n"
		  "Dir::Etc::trustedparts \"trusted.gpg.d\";\n"
		  "Dir::State \"%s/state\";\n"
		  "Dir::State::status \"%s/state/status\";\n"
		  "Dir::Cache \"%s/cache\";\n"
		  "Dir::Cache::srcpkgcache \"\";\n"
		  "Dir::Log \"%s/log\";\n"
		  "APT::Architecture \"amd64\";\n"
		  "APT::Architectures { \"amd64\"; };\n"
		  "Acquire::Languages \"none\";\n"
		  "Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled \"false\";\n"
		  "Acquire::IndexTargets::deb::DEP-11::DefaultEnabled \"false\";\n"
		  "Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled \"false\";\n"
		  "Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled \"false\";\n"
		  "Acquire::IndexTargets::deb::DEP-11-icons-hidpi::DefaultEnabled \"false\";\n",
		  root, root, root, root, root);
	e = mr_rel_write_file(conf, text.s);
	sb_free(&text);
	p = esprintf("%s/state/status", root);
	if (!e && stat(p, &st) < 0)
		e = mr_rel_write_file(p, "");
	free(p);
	return e;
}

/* The sources list src of release rel for mirror m, written when it
 * differs (*changed): 0 or -errno. */
static int
write_sources(int rel, const char *src, const char *m, int *changed)
{
	const char *opts = mr_rel_options(rel);
	struct strbuf text = { 0 }, old = { 0 };
	int e = 0;

	sb_printf(&text, "deb [signed-by=%s%s%s] %s %s main\n", mr_rel_keyring(),
		  *opts ? " " : "", opts, m, mr_release_name(rel));
	mr_rel_read_small(src, 65536, &old);
	*changed = !old.s || strcmp(old.s, text.s) != 0;
	if (*changed)
		e = mr_rel_write_file(src, text.s);
	sb_free(&text);
	sb_free(&old);
	return e;
}

/* apt-get update of release rel's tree (conf, its lists and stamp): 0
 * when its lists serve (updated, or the update failed and the lists of
 * before match the sources, changed 0); -1 with why, worded by the kind
 * of failure. */
static int
update_lists(int rel, const char *conf, const char *lists, const char *stamp, int changed,
	     struct strbuf *why)
{
	const char *argv[] = { "apt-get", "-q", "update", NULL };
	struct strbuf out = { 0 }, err = { 0 };
	int ok = mr_rel_helper(NULL, argv, conf, MR_REL_T_UPDATE, 1, &out, &err) == 0 &&
		 has_lists(lists) && !fetch_failed(out.s ? out.s : "");
	int rc = 0;

	if (rel < 64)
		updated[rel] = 1;
	if (ok) {
		mr_rel_write_file(stamp, "");
	} else if (!has_lists(lists) || changed) {
		/* apt-get update exits 0 when it could not fetch at all;
		 * lists of another mirror do not match the sources */
		struct strbuf kind = { 0 };
		size_t at = why->len;

		/* a failure the classifier does not know gives no kind: the
		 * error of apt's own says what it was */
		classify(out.s ? out.s : "", &kind);
		if (kind.s && strcmp(kind.s, "no network: ") == 0 && !offline.len) {
			sb_add(&offline, "no network: the mirror does not answer");
			offline_rel = mr_release_name(rel);
		}
		if (kind.s)
			sb_add(why, kind.s);
		sb_free(&kind);
		sb_add(why, "apt-get update failed: ");
		if (err.s)
			sb_add(why, err.s);
		else if (out.s)
			mr_rel_gist(out.s, why);
		else
			sb_add(why, "no Packages list fetched");
		if (rel < 64)
			sb_add(&update_failed[rel], why->s + at);
		rc = -1;
	}
	/* else: the update failed, the lists of before serve */
	sb_free(&out);
	sb_free(&err);
	return rc;
}

/* CACHE/apt/<release>/apt.conf, the tree made and its lists fresh: the
 * path (fresh), or NULL with why.  The lists are updated when missing,
 * over a day old, or the source changed. */
static char *
apt_tree(int rel, struct strbuf *why)
{
	char *cache = mr_release_cache_dir();
	char *root = esprintf("%s/apt/%s", cache, mr_release_name(rel));
	char *conf = esprintf("%s/apt.conf", root), *stamp = esprintf("%s/updated", root);
	char *lists = esprintf("%s/state/lists", root);
	char *src = esprintf("%s/etc/sources.list", root), *m = NULL;
	const char *env = getenv("MEMREPRO_MIRROR");
	int recent, fresh, changed = 0, e, ok = 0;

	free(cache);
	if (apt_dirs(root, why) < 0)
		goto out;
	recent = lists_recent(lists, stamp, src);
	if ((!recent || (env && *env)) && !(m = mirror(why)))
		goto out;
	e = write_conf(root, conf);
	if (!e && m)
		e = write_sources(rel, src, m, &changed);
	if (e < 0) {
		sb_printf(why, "cache %s: %s", root, strerror(-e));
		goto out;
	}
	fresh = recent && !changed;
	if (!fresh && offline.len && !has_lists(lists)) {
		/* the mirror did not answer for another release: not again */
		sb_printf(why, "%s (as for %s)", offline.s, offline_rel);
		goto out;
	}
	if (!fresh && rel < 64 && updated[rel] && update_failed[rel].len) {
		/* failed before in this process: the same reason, not lists
		 * that would say the package does not exist */
		sb_add(why, update_failed[rel].s);
		goto out;
	}
	if (!fresh && !(rel < 64 && updated[rel]) &&
	    update_lists(rel, conf, lists, stamp, changed, why) < 0)
		goto out;
	ok = 1;
out:
	free(m);
	free(stamp);
	free(lists);
	free(src);
	free(root);
	if (!ok) {
		free(conf);
		return NULL;
	}
	return conf;
}

/* The lock of release rel's apt tree (lock.h), waited for as long as
 * one holder's update and download may take: its descriptor, or -1
 * with why. */
static int
lock_tree(int rel, struct strbuf *why)
{
	char *cache = mr_release_cache_dir();
	char *root = esprintf("%s/apt/%s", cache, mr_release_name(rel));
	char *path = esprintf("%s/lock", root);
	int e = mkdir_p(root), fd = -1;

	if (e < 0)
		sb_printf(why, "cache %s: %s", root, strerror(-e));
	else
		fd = mr_rel_lock(path, mr_rel_timeout(MR_REL_T_UPDATE + MR_REL_T_DOWNLOAD), why);
	free(path);
	free(root);
	free(cache);
	return fd;
}

int
mr_rel_apt_index(int rel, const char *package, struct mr_rel_index *ix, struct strbuf *why)
{
	int lock = lock_tree(rel, why);
	char *conf = lock < 0 ? NULL : apt_tree(rel, why), *ver = NULL, *sha = NULL;
	const char *argv[] = { "apt-cache", "show", package, NULL };
	struct strbuf out = { 0 }, err = { 0 };
	const char *p;
	int rc = 0;

	if (!conf) {
		mr_rel_unlock(lock);
		return -1;
	}
	if (mr_rel_helper(NULL, argv, conf, MR_REL_T_QUERY, 1, &out, &err) < 0) {
		if (!out.s || !strstr(out.s, "No packages found")) {
			sb_printf(why, "%s", err.s);
			rc = -1;
		}
		goto out;
	}
	/* stanzas: Version and SHA256 of each (a blank line between) */
	for (p = out.s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char *v;

		if ((v = mr_rel_field(p, "Version"))) {
			free(ver);
			ver = v;
		} else if ((v = mr_rel_field(p, "SHA256"))) {
			free(sha);
			sha = v;
		}
		if (ver && sha && ix->n < MR_REL_CAND_MAX) {
			ix->c[ix->n].version = ver;
			ix->c[ix->n].sha256 = sha;
			ix->c[ix->n].path = NULL;
			ix->n++;
			ver = sha = NULL;
		}
	}
out:
	free(ver);
	free(sha);
	sb_free(&out);
	sb_free(&err);
	free(conf);
	mr_rel_unlock(lock);
	return rc;
}

int
mr_rel_apt_download(int rel, const char *package, const char *version, const char *dir,
		    struct strbuf *why)
{
	int lock = lock_tree(rel, why);
	char *conf = lock < 0 ? NULL : apt_tree(rel, why), *spec;
	struct strbuf out = { 0 }, err = { 0 };
	int rc = 0;

	if (!conf) {
		mr_rel_unlock(lock);
		return -1;
	}
	spec = esprintf("%s=%s", package, version);
	{
		const char *argv[] = { "apt-get", "-q", "download", spec, NULL };

		if (mr_rel_helper(dir, argv, conf, MR_REL_T_DOWNLOAD, 1, &out, &err) < 0) {
			classify(out.s ? out.s : "", why);
			sb_printf(why, "apt-get download %s (%s): %s", spec,
				  mr_release_name(rel), err.s);
			rc = -1;
		}
	}
	sb_free(&out);
	sb_free(&err);
	free(spec);
	free(conf);
	mr_rel_unlock(lock);
	return rc;
}
