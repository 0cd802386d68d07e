/* allocconf: the configs' allocator options asked of the allocator — see
 * allocconf.h. */
#include "matrix/allocconf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/alloc.h"
#include "matrix/axes.h"
#include "proc/capture.h"
#include "proc/env.h"

#define CONF_TIMEOUT_MS 10000

/* What jemalloc prints of an option it did not take (its conf.c). */
static const char *const refusals[] = { "Invalid conf pair", "Invalid conf value",
					"Conf value out of range", NULL };

/* mimalloc reads the MIMALLOC_<OPTION> variables it knows and no other;
 * verbose, it lists those it knows at start. */
#define MI_PREFIX "MIMALLOC_"
#define MI_VERBOSE MI_PREFIX "VERBOSE=1"
#define MI_LISTED "mimalloc: option '"

/* The first line of out that refuses an option, fresh, or NULL. */
static char *
jemalloc_refusal(const char *out)
{
	const char *p;
	int i;

	for (p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		for (i = 0; refusals[i]; i++) {
			const char *hit = strstr(p, refusals[i]), *nl = strchr(p, '\n');

			if (hit && (!nl || hit < nl))
				return nl ? estrndup(hit, (size_t)(nl - hit)) : estrdup(hit);
		}
	return NULL;
}

/* A MIMALLOC_ option of optenv that mimalloc's list in out does not
 * name: "no option 'KEY' (its options: ...)", fresh; NULL when each is
 * listed, or out lists none (a mimalloc that does not say). */
static char *
mimalloc_unknown(const char *out, char *const *optenv)
{
	struct strbuf b = { 0 };
	char *const *e;
	const char *p, *q;

	if (!strstr(out, MI_LISTED))
		return NULL;
	for (e = optenv; *e && !b.s; e++) {
		size_t n = strcspn(*e, "=") - strlen(MI_PREFIX), i;
		char *want;

		if (strncmp(*e, MI_PREFIX, strlen(MI_PREFIX)) != 0)
			continue;
		want = esprintf(MI_LISTED "%.*s'", (int)n, *e + strlen(MI_PREFIX));
		for (i = strlen(MI_LISTED); want[i] != '\''; i++)
			want[i] = (char)tolower((unsigned char)want[i]);
		if (!strstr(out, want)) {
			sb_printf(&b, "no option '%.*s' (its options: ", (int)n, want + strlen(MI_LISTED));
			for (p = strstr(out, MI_LISTED); p; p = strstr(q, MI_LISTED)) {
				p += strlen(MI_LISTED);
				q = p + strcspn(p, "'\n");
				sb_printf(&b, "%s%.*s", b.s[b.len - 1] == ' ' ? "" : ", ", (int)(q - p), p);
			}
			sb_add(&b, ")");
		}
		free(want);
	}
	return b.s;
}

/* The probe child under a's library with the options optenv (and
 * mimalloc's list of its options asked for): what it said against them,
 * fresh, or NULL. */
static char *
ask(const struct mr_alloc *a, char *const *optenv, const char *self_exe)
{
	const char **extra;
	char *argv[] = { (char *)self_exe, "__probe-alloc", a->path, NULL };
	char **env, *why = NULL;
	struct strbuf out = { 0 };
	int n = 0, i, status = 0;

	while (optenv[n])
		n++;
	extra = ecalloc((size_t)n + 3, sizeof *extra);
	extra[0] = esprintf("LD_PRELOAD=%s", a->path);
	for (i = 0; i < n; i++)
		extra[i + 1] = optenv[i];
	extra[n + 1] = MI_VERBOSE; /* after the options: one of them wins */
	env = mr_spawn_env(extra);
	if (mr_spawn_capture(argv, env, CONF_TIMEOUT_MS, 1 << 20, 2, &out, &status) == 0 && out.s &&
	    !(why = jemalloc_refusal(out.s)))
		why = mimalloc_unknown(out.s, optenv);
	sb_free(&out);
	mr_spawn_env_free(env);
	free((char *)extra[0]);
	free(extra);
	return why;
}

/* The option environment of cf as one string, to ask each once. */
static char *
conf_key(const struct mr_matrix_cfg *cf)
{
	struct strbuf b = { 0 };
	char *const *e;

	sb_add(&b, cf->allocator);
	for (e = cf->optenv; *e; e++)
		sb_printf(&b, "\n%s", *e);
	return b.s;
}

/* Whether every allocator option of cf is one of the axes ax (the
 * command line's; a claims file's axis directive may name an option some
 * versions lack on purpose, to show that it does nothing there). */
static int
options_given(const struct mr_matrix_cfg *cf, const struct mr_matrix_axis *ax, int nax)
{
	int i, j;

	for (i = 0; i < cf->nkv; i++) {
		if (!mr_matrix_option_key(cf->kv[i].key))
			continue;
		for (j = 0; j < nax && strcmp(ax[j].key, cf->kv[i].key) != 0; j++)
			;
		if (j == nax)
			return 0;
	}
	return 1;
}

/* What the configs of one allocator gave: a refusal, or some taken. */
struct verdict {
	const char *name; /* the registry's name: "jemalloc" */
	char *why;        /* the first refusal, or NULL */
	int taken;        /* some config's options were taken */
};

/* Ask a about cf's options unless an equal set was asked (seen), and
 * note the answer in the allocator's verdict of v. */
static void
ask_once(const struct mr_alloc *a, const struct mr_matrix_cfg *cf, const char *self_exe,
	 char ***seen, int *nseen, struct verdict **v, int *nv)
{
	char *key = conf_key(cf), *why;
	int j;

	for (j = 0; j < *nseen && strcmp((*seen)[j], key) != 0; j++)
		;
	if (j < *nseen) {
		free(key);
		return;
	}
	*seen = erealloc(*seen, (size_t)(*nseen + 1) * sizeof **seen);
	(*seen)[(*nseen)++] = key;
	for (j = 0; j < *nv && strcmp((*v)[j].name, a->name) != 0; j++)
		;
	if (j == *nv) {
		*v = erealloc(*v, (size_t)(*nv + 1) * sizeof **v);
		(*v)[(*nv)++] = (struct verdict){ a->name, NULL, 0 };
	}
	if (!(why = ask(a, cf->optenv, self_exe))) {
		(*v)[j].taken = 1;
		return;
	}
	if (!(*v)[j].why)
		(*v)[j].why = esprintf("%s%s%s does not take %s: %s", a->name, a->version ? " " : "",
				       a->version ? a->version : "", cf->optenv[0], why);
	free(why);
}

int
mr_allocconf_check(const struct mr_alloc_tab *t, const struct mr_matrix *mats, int n,
		   const struct mr_matrix_axis *ax, int nax, const char *self_exe,
		   struct strbuf *err)
{
	struct verdict *v = NULL;
	char **seen = NULL;
	int nseen = 0, nv = 0, i, k, rc = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < mats[i].n; k++) {
			const struct mr_matrix_cfg *cf = &mats[i].cfg[k];
			const struct mr_alloc *a = cf->optenv && cf->optenv[0] ?
						   mr_alloc_find(t, cf->allocator) : NULL;

			if (a && a->preload && !a->missing && a->path && options_given(cf, ax, nax))
				ask_once(a, cf, self_exe, &seen, &nseen, &v, &nv);
		}
	}
	/* one version that takes them is enough: a version without an
	 * option is a difference to measure, not a mistake */
	for (i = 0; i < nv; i++) {
		if (rc == 0 && v[i].why && !v[i].taken) {
			sb_printf(err, "--axis %s options: %s", v[i].name, v[i].why);
			rc = -1;
		}
		free(v[i].why);
	}
	free(v);
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	return rc;
}
