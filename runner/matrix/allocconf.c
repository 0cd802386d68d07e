/* allocconf: the configs' allocator options asked of the allocator — see
 * allocconf.h. */
#include "matrix/allocconf.h"

#include <stdlib.h>
#include <string.h>

#include "matrix/alloc.h"
#include "proc/capture.h"
#include "proc/env.h"

#define CONF_TIMEOUT_MS 10000

/* What jemalloc prints of an option it did not take (its conf.c). */
static const char *const refusals[] = { "Invalid conf pair", "Invalid conf value",
					"Conf value out of range", NULL };

/* The probe child under a's library with the options optenv: the first
 * line of its output (stdout and stderr) that refuses an option, fresh,
 * or NULL. */
static char *
ask(const struct mr_alloc *a, char *const *optenv, const char *self_exe)
{
	const char **extra;
	char *argv[] = { (char *)self_exe, "__probe-alloc", a->path, NULL };
	char **env, *line = NULL, *p;
	struct strbuf out = { 0 };
	int n = 0, i, status = 0;

	while (optenv[n])
		n++;
	extra = ecalloc((size_t)n + 2, sizeof *extra);
	extra[0] = esprintf("LD_PRELOAD=%s", a->path);
	for (i = 0; i < n; i++)
		extra[i + 1] = optenv[i];
	env = mr_spawn_env(extra);
	if (mr_spawn_capture(argv, env, CONF_TIMEOUT_MS, 65536, 2, &out, &status) == 0 && out.s)
		for (p = out.s; p && *p && !line; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			for (i = 0; refusals[i] && !line; i++) {
				char *hit = strstr(p, refusals[i]), *nl = strchr(p, '\n');

				if (hit && (!nl || hit < nl))
					line = nl ? estrndup(hit, (size_t)(nl - hit)) : estrdup(hit);
			}
	sb_free(&out);
	mr_spawn_env_free(env);
	free((char *)extra[0]);
	free(extra);
	return line;
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

int
mr_allocconf_check(const struct mr_alloc_tab *t, const struct mr_matrix *mats, int n,
		   const char *self_exe, struct strbuf *err)
{
	char **seen = NULL;
	int nseen = 0, i, k, j, rc = 0;

	for (i = 0; rc == 0 && i < n; i++) {
		for (k = 0; rc == 0 && k < mats[i].n; k++) {
			const struct mr_matrix_cfg *cf = &mats[i].cfg[k];
			const struct mr_alloc *a = cf->optenv && cf->optenv[0] ?
						   mr_alloc_find(t, cf->allocator) : NULL;
			char *key, *why;

			if (!a || !a->preload || a->missing || !a->path)
				continue;
			key = conf_key(cf);
			for (j = 0; j < nseen && strcmp(seen[j], key) != 0; j++)
				;
			if (j < nseen) {
				free(key);
				continue;
			}
			seen = erealloc(seen, (size_t)(nseen + 1) * sizeof *seen);
			seen[nseen++] = key;
			if ((why = ask(a, cf->optenv, self_exe)) != NULL) {
				sb_printf(err, "--axis %s options: %s%s%s refused them (%s): %s", a->name,
					  a->name, a->version ? " " : "", a->version ? a->version : "",
					  cf->optenv[0], why);
				free(why);
				rc = -1;
			}
		}
	}
	for (j = 0; j < nseen; j++)
		free(seen[j]);
	free(seen);
	return rc;
}
