/* origtab: the originals and runtimes of a session — see origtab.h. */
#include "matrix/origtab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix/axes.h"
#include "proto/schema.h"

static const struct mr_runtime *
find_rt(const struct mr_origtab *t, const char *spec)
{
	int i;

	for (i = 0; i < t->nrt; i++)
		if (strcmp(t->rt[i].spec, spec) == 0)
			return &t->rt[i];
	return NULL;
}

static const struct mr_original *
find_orig(const struct mr_origtab *t, const char *name, const char *ext)
{
	size_t n = strlen(ext);
	int i;

	for (i = 0; i < t->norig; i++) {
		const char *p = t->orig[i].path;
		size_t l = strlen(p);

		if (strcmp(t->orig_case[i], name) == 0 && l > n && p[l - n - 1] == '.' &&
		    strcmp(p + l - n, ext) == 0)
			return &t->orig[i];
	}
	return NULL;
}

/* Read c's original for runtime spec, once. */
static int
add_orig(struct mr_origtab *t, const struct mr_cases_desc *c, const char *spec)
{
	const char *ext = mr_matrix_runtime_ext(spec);
	char *path;
	int rc;

	if (!ext || find_orig(t, c->name, ext))
		return 0;
	path = esprintf("%s.%s", c->path, ext);
	t->orig = erealloc(t->orig, (size_t)(t->norig + 1) * sizeof *t->orig);
	t->orig_case = erealloc(t->orig_case, (size_t)(t->norig + 1) * sizeof *t->orig_case);
	rc = mr_original_read(path, ext[0] == 'j' || ext[0] == 'g' ? "//" : "#", c, &t->orig[t->norig]);
	free(path);
	if (rc == -ENOENT)
		return 0; /* gone since the matrix saw it: skipped at the run */
	if (rc < 0)
		return -1;
	t->orig_case[t->norig++] = c->name;
	return 0;
}

int
mr_origtab_prepare(struct mr_origtab *t, const struct mr_cases_desc *cases,
		   int ncases, const struct mr_matrix *mats)
{
	struct strbuf err = { 0 };
	int i, k;

	memset(t, 0, sizeof *t);
	for (i = 0; i < ncases; i++) {
		for (k = 0; k < mats[i].n; k++) {
			const char *spec = mats[i].cfg[k].runtime;

			if (!spec)
				continue;
			if (add_orig(t, &cases[i], spec) < 0)
				return -1;
			if (find_rt(t, spec))
				continue;
			t->rt = erealloc(t->rt, (size_t)(t->nrt + 1) * sizeof *t->rt);
			if (mr_runtime_get(spec, &t->rt[t->nrt], &err) < 0) {
				/* checked with the axes: cannot happen here */
				memset(&t->rt[t->nrt], 0, sizeof *t->rt);
				t->rt[t->nrt].spec = estrdup(spec);
				t->rt[t->nrt].missing = esprintf("%s: %s", spec, err.s ? err.s : "bad runtime");
				sb_free(&err);
			}
			t->nrt++;
		}
	}
	return 0;
}

/* A Java original's class path: ../lib beside it holding the compiled
 * helper (fresh), NULL when it is not there. */
static char *
java_helper(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? esprintf("%.*s/../lib", (int)(slash - path), path) : estrdup("../lib"),
	     *cls = esprintf("%s/Memrepro.class", dir);
	char *real = access(cls, R_OK) == 0 ? realpath(dir, NULL) : NULL;

	free(cls);
	free(dir);
	return real;
}

char *
mr_origtab_job(const struct mr_origtab *t, const struct mr_cases_desc *c,
	       const struct mr_matrix_cfg *cf, const struct mr_libc *l,
	       const char *preload, char ***argv, char **env, int *ne)
{
	const struct mr_runtime *rt = find_rt(t, cf->runtime);
	const char *ext = mr_matrix_runtime_ext(cf->runtime);
	const struct mr_original *o = ext ? find_orig(t, c->name, ext) : NULL;
	char **av, *why, *bin = NULL, *cp = NULL;
	int n = 0, i;

	if (!rt || !o)
		return esprintf("case %s has no original for %s", c->name, cf->runtime);
	if (rt->missing)
		return estrdup(rt->missing);
	if ((why = mr_original_skip(o, c, cf->kv, cf->nkv)) != NULL)
		return why;
	if (l && !l->host && rt->own_loader)
		return esprintf("%s runs under its own release's glibc: the libc axis does not combine with it",
				rt->spec);
	/* go: the program built by the toolchain runs in the source's place */
	if (strcmp(rt->lang, "go") == 0 && (why = o->nflags ? esprintf("%s: a Go original takes no interpreter flags", o->path) :
					     mr_runtime_go_build(rt, o->path, &bin)) != NULL)
		return why;
	if (strcmp(ext, "java") == 0 && !(cp = java_helper(o->path)))
		return esprintf("%s needs the Java helper Memrepro.class beside it in ../lib, built by make where a javac is (lib/Memrepro.java)",
				o->path);
	for (i = 0; rt->argv[i]; i++)
		;
	av = ecalloc((size_t)i + (size_t)o->nflags + 4 + 2 * (size_t)o->nparams, sizeof *av);
	for (i = 0; rt->argv[i]; i++)
		av[n++] = estrdup(rt->argv[i]);
	if (cp) {
		av[n++] = estrdup("--class-path");
		av[n++] = cp;
	}
	for (i = 0; rt->env && rt->env[i] && i < MR_ORIGTAB_ENV - MR_ORIGINAL_MAX_ENV - 3; i++)
		env[(*ne)++] = estrdup(rt->env[i]);
	mr_original_args(o, cf->kv, cf->nkv, av, &n, env, ne);
	av[n] = NULL;
	if (bin) {
		free(av[0]);
		av[0] = bin;
	}
	if (l && !l->host) {
		char *lenv[3], **wrapped = mr_libc_argv(l, av, preload, lenv);

		mr_matrix_argv_free(av);
		av = wrapped;
		/* the loader's --library-path overrides LD_LIBRARY_PATH: the
		 * runtime's own libraries (libruby) go on it too */
		if (rt->libpath) {
			char *lp = esprintf("%s:%s", av[2], rt->libpath);

			free(av[2]);
			av[2] = lp;
			free(lenv[1]);
			lenv[1] = esprintf("MEMREPRO_LIBRARY_PATH=%s", lp);
		}
		for (i = 0; i < 3; i++)
			env[(*ne)++] = lenv[i];
	}
	*argv = av;
	return NULL;
}

void
mr_origtab_env(const struct mr_origtab *t, struct mr_envfp *fp)
{
	int i;

	for (i = 0; i < t->nrt; i++) {
		const struct mr_runtime *rt = &t->rt[i];
		const char *f[][2] = {
			{ "version", rt->missing ? NULL : rt->version },
			{ "where", rt->missing ? NULL : rt->where },
			{ "sha256", rt->missing ? NULL : rt->sha256 },
			{ "lib_sha256", rt->missing ? NULL : rt->lib_sha256 },
			{ "missing", rt->missing },
		};
		size_t k;

		for (k = 0; k < sizeof f / sizeof *f; k++) {
			char *key;

			if (!f[k][1])
				continue;
			key = esprintf(MR_ENVK_RUNTIME, rt->spec, f[k][0]);
			mr_envfp_add(fp, key, f[k][1]);
			free(key);
		}
	}
}

void
mr_origtab_free(struct mr_origtab *t)
{
	int i;

	for (i = 0; i < t->nrt; i++)
		mr_runtime_free(&t->rt[i]);
	for (i = 0; i < t->norig; i++)
		mr_original_free(&t->orig[i]);
	free(t->rt);
	free(t->orig);
	free(t->orig_case);
	memset(t, 0, sizeof *t);
}
