/* allocrel: allocators of other releases — see allocrel.h. */
#include "matrix/allocrel.h"

#include <elf.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "release/release.h"
#include "proc/capture.h"
#include "proc/env.h"
#include "matrix/elfneed.h"
#include "matrix/libc.h"
#include "matrix/matrix.h"
#include "matrix/registry.h"

/* The package of entry e in each release, for release.h (fresh array of
 * borrowed strings). */
static const char **
packages(const struct mr_registry_entry *e)
{
	int n = mr_release_count(), i;
	const char **p = ecalloc((size_t)n + 1, sizeof *p);

	for (i = 0; i < n; i++)
		p[i] = mr_registry_package(e, mr_release_name(i));
	return p;
}

/* The greater of the versions best and "GLIBC_x.y" name (x.y), in best. */
static void
take_glibc(const char *name, char **best)
{
	const char *v = name + 6;

	if (strncmp(name, "GLIBC_", 6) != 0 || *v < '0' || *v > '9')
		return; /* GLIBC_PRIVATE and others */
	if (!*best || mr_libc_cmp(v, *best) > 0) {
		free(*best);
		*best = estrdup(v);
	}
}

/* The verneed section vn (size n, strings str of size ns, count entries):
 * every Vernaux name into best.  Bounded by the section: each step moves
 * forward (the offsets are unsigned), and counts are capped. */
static int
walk_verneed(const char *vn, uint64_t n, const char *str, uint64_t ns, uint64_t count,
	     void *arg)
{
	char **best = arg;
	uint64_t off = 0, i, j;

	for (i = 0; i < count && off + sizeof(Elf64_Verneed) <= n; i++) {
		Elf64_Verneed need;
		uint64_t aux;

		memcpy(&need, vn + off, sizeof need);
		aux = off + need.vn_aux;
		for (j = 0; j < need.vn_cnt && aux + sizeof(Elf64_Vernaux) <= n; j++) {
			Elf64_Vernaux a;

			memcpy(&a, vn + aux, sizeof a);
			if (a.vna_name < ns && memchr(str + a.vna_name, '\0', (size_t)(ns - a.vna_name)))
				take_glibc(str + a.vna_name, best);
			if (!a.vna_next)
				break;
			aux += a.vna_next;
		}
		if (!need.vn_next)
			break;
		off += need.vn_next;
	}
	return 0; /* every verneed section */
}

char *
mr_allocrel_glibc_need(const char *path)
{
	char *best = NULL;

	mr_elf_sections(path, SHT_GNU_verneed, walk_verneed, &best);
	return best;
}

int
mr_allocrel_fetch(struct mr_alloc *a, const char *want, char **lib)
{
	struct mr_release_pkg p = { 0 };
	struct strbuf why = { 0 };
	const char **pkgs;
	const char *file;
	int rc;

	*lib = NULL;
	if (mr_release_init(NULL, &why) < 0) {
		a->missing = esprintf("%s cannot be had: %s", a->spec, why.s);
		sb_free(&why);
		return -1;
	}
	pkgs = packages(a->entry);
	rc = mr_release_get(pkgs, want, &p, &why);
	free(pkgs);
	if (rc != MR_REL_OK) {
		a->missing = esprintf("%s cannot be had: %s", a->spec, why.s ? why.s : "no reason given");
		sb_free(&why);
		return -1;
	}
	sb_free(&why);
	file = mr_registry_library(a->entry, p.release);
	free(a->soname);
	a->soname = estrdup(file);
	a->fetched_package = estrdup(p.package);
	a->package = a->fetched_package;
	a->release = estrdup(p.release);
	a->sha256 = estrdup(p.sha256);
	a->pkg_version = estrdup(p.version);
	*lib = mr_release_find(&p, file);
	if (!*lib)
		a->missing = esprintf("%s: %s %s (%s) has no %s", a->spec, p.package, p.version,
				      p.release, file);
	else
		a->glibc_need = mr_allocrel_glibc_need(*lib);
	a->version = estrdup(p.upstream);
	mr_release_pkg_free(&p);
	return *lib ? 0 : -1;
}

int
mr_allocrel_normalise(const struct mr_matrix_axis *ax, int nax, struct mr_matrix_axis **out,
		      struct strbuf *err)
{
	const struct mr_registry *r = mr_registry_current();
	int a, j, rc = 0;

	*out = ecalloc((size_t)nax + 1, sizeof **out);
	for (a = 0; a < nax; a++) {
		struct mr_matrix_axis *o = &(*out)[a];

		o->key = estrdup(ax[a].key);
		o->vals = ecalloc((size_t)ax[a].nvals + 1, sizeof *o->vals);
		for (j = 0; j < ax[a].nvals; j++, o->nvals++) {
			const char *v = ax[a].vals[j], *at = strchr(v, '@');
			const struct mr_registry_entry *e = r ? mr_registry_find_spec(r, v) : NULL;
			struct mr_release_pkg p = { 0 };
			struct strbuf why = { 0 };
			const char **pkgs;
			int got;

			o->vals[j] = estrdup(v);
			if (rc || strcmp(ax[a].key, "allocator") != 0 || !at || !e)
				continue;
			if (mr_release_init(NULL, &why) < 0) {
				sb_printf(err, "--axis allocator: %s: %s", v, why.s);
				sb_free(&why);
				rc = -1;
				continue;
			}
			pkgs = packages(e);
			got = mr_release_get(pkgs, at + 1, &p, &why);
			free(pkgs);
			if (got == MR_REL_NOVERSION) {
				sb_printf(err, "--axis allocator: %s: %s", v, why.s);
				rc = -1;
			} else if (got == MR_REL_OK && mr_release_index(at + 1) >= 0) {
				free(o->vals[j]);
				o->vals[j] = esprintf("%.*s@%s", (int)(at - v), v, p.upstream);
			}
			if (got == MR_REL_OK)
				mr_release_pkg_free(&p);
			sb_free(&why);
		}
	}
	return rc;
}

/* The oldest glibc of the releases that is need or newer ("2.41"), or
 * NULL when none is known.  Fresh. */
static char *
glibc_for(const char *need)
{
	int n = mr_release_count(), i;
	const char **pkgs = ecalloc((size_t)n + 1, sizeof *pkgs);
	struct mr_release_avail *av = ecalloc((size_t)n + 1, sizeof *av);
	char *best = NULL;

	for (i = 0; i < n; i++)
		pkgs[i] = "libc6";
	mr_release_list(pkgs, av);
	for (i = 0; i < n; i++)
		if (av[i].upstream && mr_libc_cmp(av[i].upstream, need) >= 0 &&
		    (!best || mr_libc_cmp(av[i].upstream, best) < 0)) {
			free(best);
			best = estrdup(av[i].upstream);
		}
	mr_release_avail_free(av, n);
	free(av);
	free(pkgs);
	return best;
}

/* One allocator probed under one other glibc: NULL reason, it loads. */
struct pair {
	const struct mr_alloc *a;
	const struct mr_libc *l;
	char *why;
};

static struct pair *pairs;
static int npairs;

#define PROBE_TIMEOUT_MS 10000

/* Does a's library load under l's loader?  The runner re-executed through
 * that loader with the library preloaded (the probe of alloc.h): a
 * preload the loader refuses is otherwise only a warning on stderr, and
 * the case would run on the C library's malloc.  NULL, or the reason
 * (fresh). */
static char *
probe_under(const struct mr_alloc *a, const struct mr_libc *l, const char *self_exe)
{
	char *pre = esprintf("LD_PRELOAD=%s", a->path), *args[] = { (char *)self_exe,
		(char *)"__probe-alloc", a->path, NULL }, **argv, *env3[3], *why = NULL;
	const char *extra[] = { pre, NULL };
	char **env = mr_spawn_env(extra);
	struct strbuf out = { 0 };
	int status = 0, rc, i;

	argv = mr_libc_argv(l, args, a->path, env3);
	for (i = 0; i < 3; i++)
		free(env3[i]);
	/* stderr too: the loader says there why it refused the preload */
	rc = mr_spawn_capture(argv, env, PROBE_TIMEOUT_MS, 65536, 2, &out, &status);
	if (rc < 0) {
		why = esprintf("%s under glibc %s: probe failed: %s", a->spec, l->version, strerror(-rc));
	} else if (!out.s || strncmp(out.s, "ok\t", 3) != 0) {
		const char *m = out.s && *out.s ? out.s : NULL;

		if (m && strncmp(m, "error\t", 6) == 0)
			m += 6;
		if (m)
			why = esprintf("%s does not load under glibc %s: %.*s", a->spec, l->version,
				       (int)strcspn(m, "\n"), m);
		else
			why = esprintf("%s does not load under glibc %s (the probe said nothing, %s %d)",
				       a->spec, l->version, WIFSIGNALED(status) ? "signal" : "exit",
				       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
	sb_free(&out);
	mr_spawn_env_free(env);
	mr_matrix_argv_free(argv);
	free(pre);
	return why;
}

char *
mr_allocrel_skip(const struct mr_alloc *a, const struct mr_libc *l, const char *self_exe)
{
	static char *need_cache, *run_cache;
	const char *on = l && !l->host ? l->version : gnu_get_libc_version();
	int i;

	if (a->glibc_need && mr_libc_cmp(a->glibc_need, on) > 0) {
		if (!need_cache || strcmp(need_cache, a->glibc_need) != 0) {
			free(need_cache);
			free(run_cache);
			need_cache = estrdup(a->glibc_need);
			run_cache = glibc_for(a->glibc_need);
		}
		if (run_cache)
			return esprintf("%s (%s %s of %s) needs glibc %s (GLIBC_%s), this config's is %s: run it with --axis libc=%s",
					a->spec, a->package, a->pkg_version, a->release, a->glibc_need,
					a->glibc_need, on, run_cache);
		return esprintf("%s (%s %s of %s) needs glibc %s (GLIBC_%s), this config's is %s: run it with --axis libc=<a glibc of %s or later>",
				a->spec, a->package, a->pkg_version, a->release, a->glibc_need,
				a->glibc_need, on, a->glibc_need);
	}
	if (!l || l->host || l->missing || a->missing || !a->preload || !a->path)
		return NULL;
	for (i = 0; i < npairs; i++)
		if (pairs[i].a == a && pairs[i].l == l)
			return pairs[i].why ? estrdup(pairs[i].why) : NULL;
	pairs = erealloc(pairs, (size_t)(npairs + 1) * sizeof *pairs);
	pairs[npairs].a = a;
	pairs[npairs].l = l;
	pairs[npairs].why = probe_under(a, l, self_exe);
	npairs++;
	return pairs[npairs - 1].why ? estrdup(pairs[npairs - 1].why) : NULL;
}

void
mr_allocrel_free(void)
{
	int i;

	for (i = 0; i < npairs; i++)
		free(pairs[i].why);
	free(pairs);
	pairs = NULL;
	npairs = 0;
}
