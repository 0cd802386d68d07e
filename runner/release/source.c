/* source: the apt and directory sources of release packages — see source.h. */
#include "release/source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "release/release.h"
#include "release/sha256.h"
#include "run/capture.h"

extern char **environ;

#define MAX_OUT (16u << 20)  /* a helper's output: apt-cache show of libc6 is ~10 kB */
#define MAX_DEBS 4096        /* .deb files read from one directory-source release */
#define LISTS_MAX_AGE 86400  /* seconds: older lists are updated first */

/* --- the helper runner ---------------------------------------------- */

/* name found in PATH (fresh), or NULL. */
static char *
which(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;

	if (strchr(name, '/'))
		return estrdup(name);
	if (!path || !*path)
		path = "/usr/bin:/bin";
	for (p = path; *p; p = *e ? e + 1 : e) {
		char *cand;

		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		cand = esprintf("%.*s/%s", (int)(e - p), p, name);
		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
	}
	return NULL;
}

static long
timeout_of(long ms)
{
	const char *s = getenv("MEMREPRO_HELPER_TIMEOUT");
	long long v;

	if (s && parse_ll(s, &v) == 0 && v > 0 && v < 86400)
		return (long)v * 1000;
	return ms;
}

/* The first line of out that apt marks as an error or warning ("E: ", "W: "),
 * the first, else its last line, into why. */
static void
gist(const char *out, struct strbuf *why)
{
	const char *p, *nl, *last = NULL;
	size_t lastlen = 0;
	int n = 0;

	for (p = out; *p; p = *nl ? nl + 1 : nl) {
		size_t len;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		len = (size_t)(nl - p);
		if (len == 0)
			continue;
		last = p;
		lastlen = len;
		if (n < 1 && len > 3 && (p[0] == 'E' || p[0] == 'W') && p[1] == ':' && p[2] == ' ')
			sb_printf(why, "%s%.*s", n++ ? "; " : "", (int)len, p);
	}
	if (n == 0 && last)
		sb_printf(why, "%.*s", (int)lastlen, last);
}

int
mr_rel_helper(const char *dir, const char *const *argv, const char *apt_config,
	      long timeout_ms, int with_stderr, struct strbuf *out, struct strbuf *why)
{
	char *exe = which(argv[0]), **av, **envp;
	int n, i, j, st = 0, rc;

	if (!exe) {
		sb_printf(why, "%s: not found in PATH", argv[0]);
		return -1;
	}
	for (n = 0; argv[n]; n++)
		;
	av = ecalloc((size_t)n + 1, sizeof *av);
	av[0] = exe;
	for (i = 1; i < n; i++)
		av[i] = (char *)argv[i];
	for (n = 0; environ[n]; n++)
		;
	envp = ecalloc((size_t)n + 3, sizeof *envp);
	for (i = j = 0; i < n; i++)
		if (strncmp(environ[i], "APT_CONFIG=", 11) && strncmp(environ[i], "LC_ALL=", 7))
			envp[j++] = environ[i];
	envp[j++] = (char *)"LC_ALL=C";
	if (apt_config)
		envp[j++] = esprintf("APT_CONFIG=%s", apt_config);
	timeout_ms = timeout_of(timeout_ms);
	rc = mr_spawn_capture_in(dir, av, envp, timeout_ms, MAX_OUT, with_stderr ? 2 : 0,
				 out, &st);
	if (apt_config)
		free(envp[j - 1]);
	free(envp);
	free(av);
	free(exe);
	if (rc == -ETIMEDOUT) {
		sb_printf(why, "%s: timed out after %ld s (killed)", argv[0], timeout_ms / 1000);
		return -1;
	}
	if (rc < 0) {
		sb_printf(why, "%s: cannot run: %s", argv[0], strerror(-rc));
		return -1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		sb_printf(why, "%s: exit %d", argv[0], WEXITSTATUS(st));
	else
		sb_printf(why, "%s: killed by signal %d", argv[0], WTERMSIG(st));
	if (out->len) {
		sb_add(why, ": ");
		gist(out->s, why);
	}
	return -1;
}

/* --- files ----------------------------------------------------------- */

/* Write text into path through a temporary file and a rename. */
static int
write_file(const char *path, const char *text)
{
	char *tmp = esprintf("%s.tmp%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644), e = 0;
	size_t len = strlen(text), off = 0;

	if (fd < 0) {
		e = errno;
		free(tmp);
		return -e;
	}
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : EIO;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e)
		unlink(tmp);
	free(tmp);
	return -e;
}

/* Read a small file whole (at most max bytes) into b; 0 or -errno. */
static int
read_small(const char *path, size_t max, struct strbuf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[4096];

	if (fd < 0)
		return -errno;
	while (b->len < max) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb_addn(b, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

/* Copy src to dst (created, not existing); 0 or -errno. */
static int
copy_file(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out, e = 0;
	char buf[65536];
	struct stat st;
	off_t done = 0;

	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(in);
		return -EINVAL;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (out < 0) {
		e = errno;
		close(in);
		return -e;
	}
	while (done < st.st_size) {
		ssize_t n = read(in, buf, sizeof buf), w, off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			break;
		}
		while (off < n) {
			w = write(out, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				e = w < 0 ? errno : EIO;
				break;
			}
			off += w;
		}
		if (e)
			break;
		done += n;
	}
	close(in);
	if (close(out) < 0 && !e)
		e = errno;
	return -e;
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir ending in suffix, sorted (at most MAX_DEBS), into
 * *names (always allocated: free with free_names(*names, n < 0 ? 0 : n));
 * their number or -errno. */
static int
list_dir(const char *dir, const char *suffix, char ***names)
{
	DIR *d;
	struct dirent *de;
	int n = 0;

	*names = ecalloc(MAX_DEBS, sizeof **names);
	if (!(d = opendir(dir)))
		return errno > 0 ? -errno : -EIO;
	while (n < MAX_DEBS && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.' && has_suffix(de->d_name, suffix))
			(*names)[n++] = estrdup(de->d_name);
	closedir(d);
	qsort(*names, (size_t)n, sizeof **names, cmp_str);
	return n;
}

static void
free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

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

/* "Field: value" lines of out: the value of field on line p (fresh), or
 * NULL. */
static char *
field(const char *line, const char *name)
{
	size_t n = strlen(name);
	const char *e;

	if (strncmp(line, name, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ')
		line++;
	e = strchr(line, '\n');
	return estrndup(line, e ? (size_t)(e - line) : strlen(line));
}

/* --- the directory source -------------------------------------------- */

static int
dir_index(const char *src, int rel, const char *package, struct mr_rel_index *ix,
	  struct strbuf *why)
{
	char *dir = esprintf("%s/%s", src, mr_release_name(rel)), **names;
	int n = list_dir(dir, ".deb", &names), i;

	if (n == -ENOENT) {
		free(names);
		free(dir);
		return 0; /* the release has nothing */
	}
	if (n < 0) {
		sb_printf(why, "MEMREPRO_RELEASES: %s: %s", dir, strerror(-n));
		free(names);
		free(dir);
		return -1;
	}
	for (i = 0; i < n && ix->n < MR_REL_CAND_MAX; i++) {
		char *deb = esprintf("%s/%s", dir, names[i]), *pkg = NULL, *ver = NULL, hex[65];
		const char *argv[] = { "dpkg-deb", "-f", deb, "Package", "Version", NULL };
		struct strbuf out = { 0 }, err = { 0 };
		const char *p;

		if (mr_rel_helper(NULL, argv, NULL, MR_REL_T_QUERY, 1, &out, &err) < 0) {
			sb_printf(why, "%s: %s", deb, err.s);
			sb_free(&out);
			sb_free(&err);
			free(deb);
			free_names(names, n);
			free(dir);
			return -1;
		}
		for (p = out.s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			if (!pkg)
				pkg = field(p, "Package");
			if (!ver)
				ver = field(p, "Version");
		}
		if (pkg && ver && strcmp(pkg, package) == 0 && mr_sha256_file(deb, hex) == 0) {
			ix->c[ix->n].version = ver;
			ix->c[ix->n].sha256 = estrdup(hex);
			ix->c[ix->n].path = deb;
			ix->n++;
			ver = NULL;
			deb = NULL;
		}
		free(pkg);
		free(ver);
		free(deb);
		sb_free(&out);
		sb_free(&err);
	}
	free_names(names, n);
	free(dir);
	return 0;
}

/* --- the apt source -------------------------------------------------- */

/* The host's codename (fresh; "" unknown), from /etc/os-release. */
static char *
host_codename(void)
{
	struct strbuf b = { 0 };
	const char *p;
	char *v = NULL;

	read_small("/etc/os-release", 65536, &b);
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
		return esprintf("%s%s", env, has_suffix(env, "/") ? "" : "/");
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
	found = esprintf("%s%s", best, has_suffix(best, "/") ? "" : "/");
	free(best);
	return estrdup(found);
}

/* Whether dir holds a Packages list. */
static int
has_lists(const char *dir)
{
	char **names;
	int n = list_dir(dir, "_Packages", &names);

	free_names(names, n < 0 ? 0 : n);
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

/* CACHE/apt/<release>/apt.conf, the tree made and its lists fresh: the
 * path (fresh), or NULL with why. */
static char *
apt_tree(int rel, struct strbuf *why)
{
	static unsigned char updated[64]; /* per release: once per process */
	static struct strbuf offline;     /* a "no network" failure seen */
	static const char *offline_rel;   /* for that release */
	static const char *const sub[] = { "etc/apt.conf.d", "etc/preferences.d",
		"etc/trusted.gpg.d", "etc/sources.list.d", "state/lists/partial",
		"cache/archives/partial", "log" };
	const char *name = mr_release_name(rel), *opts = mr_rel_options(rel);
	char *cache = mr_release_cache_dir(), *root = esprintf("%s/apt/%s", cache, name);
	char *conf = esprintf("%s/apt.conf", root), *p, *m, *stamp, *lists, *src;
	struct strbuf text = { 0 }, old = { 0 };
	struct stat st;
	size_t i;
	int fresh, recent, changed, e;

	free(cache);
	for (i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		p = esprintf("%s/%s", root, sub[i]);
		e = mkdir_p(p);
		free(p);
		if (e < 0) {
			sb_printf(why, "cache %s: %s", root, strerror(-e));
			goto fail;
		}
	}
	/* lists updated within the day, from the mirror that was asked for,
	 * serve without asking the host's apt for its mirror again (that takes
	 * seconds) */
	stamp = esprintf("%s/updated", root);
	lists = esprintf("%s/state/lists", root);
	src = esprintf("%s/etc/sources.list", root);
	{
		struct stat sst;

		/* and the sources not written since (by a failed update) */
		recent = has_lists(lists) && stat(stamp, &st) == 0 &&
			 time(NULL) - st.st_mtime < LISTS_MAX_AGE && stat(src, &sst) == 0 &&
			 (sst.st_mtime < st.st_mtime ||
			  (sst.st_mtime == st.st_mtime && sst.st_mtim.tv_nsec <= st.st_mtim.tv_nsec));
	}
	m = NULL;
	if (!recent || (getenv("MEMREPRO_MIRROR") && *getenv("MEMREPRO_MIRROR"))) {
		if (!(m = mirror(why))) {
			free(stamp);
			free(lists);
			free(src);
			goto fail;
		}
	}
	/* apt.conf rewritten each time, sources.list when the mirror moved */
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
	e = write_file(conf, text.s);
	sb_free(&text);
	p = esprintf("%s/state/status", root);
	if (!e && stat(p, &st) < 0)
		e = write_file(p, "");
	free(p);
	changed = 0;
	if (m) {
		sb_printf(&text, "deb [signed-by=%s%s%s] %s %s main\n", mr_rel_keyring(),
			  *opts ? " " : "", opts, m, name);
		free(m);
		read_small(src, 65536, &old);
		changed = !old.s || strcmp(old.s, text.s) != 0;
		if (!e && changed)
			e = write_file(src, text.s);
		sb_free(&text);
		sb_free(&old);
	}
	free(src);
	if (e < 0) {
		sb_printf(why, "cache %s: %s", root, strerror(-e));
		free(stamp);
		free(lists);
		goto fail;
	}
	/* lists: updated when missing, over a day old, or the source changed */
	fresh = recent && !changed;
	if (!fresh && offline.len && !has_lists(lists)) {
		/* the mirror did not answer for another release: not again */
		sb_printf(why, "%s (as for %s)", offline.s, offline_rel);
		free(stamp);
		free(lists);
		goto fail;
	}
	if (!fresh && !(rel < 64 && updated[rel])) {
		const char *argv[] = { "apt-get", "-q", "update", NULL };
		struct strbuf out = { 0 }, err = { 0 };
		int ok = mr_rel_helper(NULL, argv, conf, MR_REL_T_UPDATE, 1, &out, &err) == 0 &&
			 has_lists(lists) && !fetch_failed(out.s ? out.s : "");

		if (rel < 64)
			updated[rel] = 1;
		if (ok) {
			write_file(stamp, "");
		} else if (!has_lists(lists) || changed) {
			/* apt-get update exits 0 when it could not fetch at all;
			 * lists of another mirror do not match the sources */
			size_t at = why->len;

			classify(out.s ? out.s : "", why);
			if (strncmp(why->s + at, "no network: ", 12) == 0 && !offline.len) {
				sb_add(&offline, "no network: the mirror does not answer");
				offline_rel = name;
			}
			sb_add(why, "apt-get update failed: ");
			if (err.s)
				sb_add(why, err.s);
			else if (out.s)
				gist(out.s, why);
			else
				sb_add(why, "no Packages list fetched");
			sb_free(&out);
			sb_free(&err);
			free(stamp);
			free(lists);
			goto fail;
		}
		/* else: the update failed, the lists of before serve */
		sb_free(&out);
		sb_free(&err);
	}
	free(stamp);
	free(lists);
	free(root);
	return conf;
fail:
	free(root);
	free(conf);
	return NULL;
}

static int
apt_index(int rel, const char *package, struct mr_rel_index *ix, struct strbuf *why)
{
	char *conf = apt_tree(rel, why), *ver = NULL, *sha = NULL;
	const char *argv[] = { "apt-cache", "show", package, NULL };
	struct strbuf out = { 0 }, err = { 0 };
	const char *p;
	int rc = 0;

	if (!conf)
		return -1;
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

		if ((v = field(p, "Version"))) {
			free(ver);
			ver = v;
		} else if ((v = field(p, "SHA256"))) {
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
	return rc;
}

int
mr_rel_source_index(int rel, const char *package, struct mr_rel_index *ix, struct strbuf *why)
{
	const char *src = getenv("MEMREPRO_RELEASES");

	ix->n = 0;
	if (src && *src)
		return dir_index(src, rel, package, ix, why);
	return apt_index(rel, package, ix, why);
}

/* --- fetch ------------------------------------------------------------ */

/* Move the one .deb in tmp to debdir (its name kept): *deb, 0; or -1. */
static int
take_deb(const char *tmp, const char *debdir, const char *want_sha, char **deb,
	 struct strbuf *why)
{
	char **names, hex[65], *from, *to;
	int n = list_dir(tmp, ".deb", &names), e;

	if (n != 1) {
		sb_printf(why, "%s: %s .deb files after the download, not one", tmp,
			  n <= 0 ? "no" : "several");
		free_names(names, n < 0 ? 0 : n);
		return -1;
	}
	from = esprintf("%s/%s", tmp, names[0]);
	to = esprintf("%s/%s", debdir, names[0]);
	free_names(names, n);
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
	char *tmp = esprintf("%s/.tmp-%ld-%u", debdir, (long)getpid(), serial++), *conf = NULL;
	int e, rc = -1;

	if ((e = mkdir_p(tmp)) < 0) {
		sb_printf(why, "cache %s: %s", tmp, strerror(-e));
		free(tmp);
		return -1;
	}
	if (c->path) {
		char *base = strrchr(c->path, '/'), *to;

		to = esprintf("%s/%s", tmp, base ? base + 1 : c->path);
		if ((e = copy_file(c->path, to)) < 0)
			sb_printf(why, "copy %s to %s: %s", c->path, to, strerror(-e));
		free(to);
		if (e == 0)
			rc = take_deb(tmp, debdir, c->sha256, deb, why);
	} else if ((conf = apt_tree(rel, why))) {
		char *spec = esprintf("%s=%s", package, c->version);
		const char *argv[] = { "apt-get", "-q", "download", spec, NULL };
		struct strbuf out = { 0 }, err = { 0 };

		if (mr_rel_helper(tmp, argv, conf, MR_REL_T_DOWNLOAD, 1, &out, &err) < 0) {
			classify(out.s ? out.s : "", why);
			sb_printf(why, "apt-get download %s (%s): %s", spec, mr_release_name(rel),
				  err.s);
		} else {
			rc = take_deb(tmp, debdir, c->sha256, deb, why);
		}
		sb_free(&out);
		sb_free(&err);
		free(spec);
	}
	/* whatever is left in tmp goes (a partial download) */
	{
		char **names;
		int n = list_dir(tmp, "", &names), i;

		for (i = 0; i < n; i++) {
			char *f = esprintf("%s/%s", tmp, names[i]);

			unlink(f);
			free(f);
		}
		free_names(names, n < 0 ? 0 : n);
		rmdir(tmp);
	}
	free(conf);
	free(tmp);
	return rc;
}
