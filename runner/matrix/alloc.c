/* alloc: resolve allocators by soname in a probe child — see alloc.h. */
#include "matrix/alloc.h"

#include <dlfcn.h>
#include <errno.h>
#include <glob.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "matrix/allocrel.h"
#include "proc/capture.h"
#include "matrix/libc.h"
#include "matrix/muslbuild.h"
#include "proc/env.h"
#include "matrix/registry.h"
#include "matrix/regparse.h"
#include "core/util.h"

#define PROBE_TIMEOUT_MS 10000

/* "libmimalloc.so.2.0" -> "2.0": what the file name says, when the
 * library cannot tell. */
static char *
suffix_version(const char *path)
{
	char real[PATH_MAX];
	const char *so;

	if (!realpath(path, real))
		return NULL;
	so = strstr(strrchr(real, '/') ? strrchr(real, '/') : real, ".so.");
	return so && so[4] ? estrdup(so + 4) : NULL;
}

/* "/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.scudo..." ->
 * "14.0.6": the last directory named like a version (digits and dots,
 * starting with a digit). */
static char *
dir_version(const char *path)
{
	char real[PATH_MAX];
	const char *s, *best = NULL;
	size_t blen = 0;

	if (!realpath(path, real))
		return NULL;
	for (s = real; (s = strchr(s, '/')) != NULL; s++) {
		size_t n = strcspn(s + 1, "/");

		if (s[1 + n] == '/' && n && s[1] >= '0' && s[1] <= '9' &&
		    strspn(s + 1, "0123456789.") == n) {
			best = s + 1;
			blen = n;
		}
	}
	return best ? estrndup(best, blen) : NULL;
}

/* The version tbbmalloc would print with TBB_VERSION=1: the string
 * "TBBmalloc: VERSION\t\t2021.8" in the library defining scalable_malloc
 * (no call returns it). */
static char *
tbb_version(void *scalable_malloc)
{
	static const char tag[] = "TBBmalloc: VERSION";
	char *buf, *v = NULL;
	const char *at;
	size_t n, cap = 8 << 20;
	Dl_info di;
	FILE *f;

	if (!dladdr(scalable_malloc, &di) || !di.dli_fname || !(f = fopen(di.dli_fname, "rb")))
		return NULL;
	buf = emalloc(cap);
	n = fread(buf, 1, cap, f);
	fclose(f);
	at = memmem(buf, n, tag, sizeof tag - 1);
	if (at) {
		const char *e = buf + n;
		size_t len;

		for (at += sizeof tag - 1; at < e && (*at == ' ' || *at == '\t'); at++)
			;
		for (len = 0; at + len < e && ((at[len] >= '0' && at[len] <= '9') || at[len] == '.'); len++)
			;
		if (len)
			v = estrndup(at, len);
	}
	free(buf);
	return v;
}

/* The library's own idea of its version. */
static char *
lib_version(void *h)
{
	int (*mallctl)(const char *, void *, size_t *, void *, size_t);
	const char *(*tc_version)(int *, int *, const char **);
	int (*mi_version)(void);
	void *scalable_malloc = dlsym(h, "scalable_malloc");

	*(void **)&mallctl = dlsym(h, "mallctl");
	*(void **)&tc_version = dlsym(h, "tc_version");
	*(void **)&mi_version = dlsym(h, "mi_version");
	if (mallctl) {
		const char *v = NULL;
		size_t sz = sizeof v;

		if (mallctl("version", &v, &sz, NULL, 0) == 0 && v)
			return estrdup(v);
	}
	if (tc_version) {
		int maj, min;
		const char *patch, *v = tc_version(&maj, &min, &patch);

		if (v) {
			/* "gperftools 2.10": the number is what varies */
			const char *sp = strrchr(v, ' ');

			return estrdup(sp ? sp + 1 : v);
		}
	}
	if (mi_version) {
		int v = mi_version(); /* 209 is 2.0.9 */

		if (v >= 10000) /* 3.x: 30600 is 3.6.0 */
			return esprintf("%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
		return esprintf("%d.%d.%d", v / 100, v / 10 % 10, v % 10);
	}
	if (scalable_malloc)
		return tbb_version(scalable_malloc);
	return NULL;
}

static void
clean(char *s)
{
	for (; s && *s; s++)
		if (*s == '\t' || *s == '\n')
			*s = ' ';
}

int
mr_alloc_probe_main(const char *soname)
{
	struct link_map *lm = NULL;
	char *version;
	void *h;

	if (!mr_alloc_valid_soname(soname)) {
		printf("error\tnot a library name: %s\n", soname);
		return MR_USAGE;
	}
	/* Preloaded by our parent: take that handle.  If the preload did
	 * not happen, a plain dlopen gives the loader's reason. */
	h = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		char *msg = estrdup(dlerror());

		clean(msg);
		printf("error\t%s\n", msg);
		free(msg);
		return MR_FAILED;
	}
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) < 0 || !lm || !lm->l_name[0]) {
		printf("error\tdlinfo: %s\n", dlerror());
		return MR_FAILED;
	}
	version = lib_version(h);
	if (!version)
		version = suffix_version(lm->l_name);
	if (!version)
		version = dir_version(lm->l_name);
	clean(version);
	printf("ok\t%s\t%s\n", lm->l_name, version ? version : "-");
	/* out before anything an exit handler prints (a sanitizer's report
	 * of the loader's own allocations, when run through a loader) */
	fflush(stdout);
	free(version);
	return MR_OK;
}

/* "libfoo.so.1 not found by the dynamic loader[ nor in DIRS] (Debian
 * package libfoo1)", or for a path "PATH: no such file"; for build =
 * musl, "libc.a not found in DIRS, so no case has a musl build (...)". */
static char *
not_found(const struct mr_alloc *a)
{
	const char *const *d = a->entry ? (const char *const *)a->entry->search : NULL;
	struct strbuf b = { 0 };
	int musl = a->entry && a->entry->build_musl;

	if (strchr(a->soname, '/'))
		return esprintf("%s: cannot be loaded: no such file", a->soname);
	sb_printf(&b, musl ? "%s not found" : "%s not found by the dynamic loader", a->soname);
	for (; d && *d; d++)
		sb_printf(&b, "%s%s", d == (const char *const *)a->entry->search ?
			  (musl ? " in " : " nor in ") : ", ", *d);
	if (musl)
		sb_add(&b, ", so no case has a musl build");
	if (a->package)
		sb_printf(&b, " (Debian package %s)", a->package);
	return b.s;
}

/* The library in the entry's search directories: the highest version of
 * the matches of DIR/LIBRARY, or NULL.  Fresh string. */
static char *
search_dirs(const struct mr_alloc *a)
{
	char *best = NULL;
	int i;

	if (!a->entry || !a->entry->search || strchr(a->soname, '/'))
		return NULL;
	for (i = 0; a->entry->search[i]; i++) {
		char *pat = esprintf("%s/%s", a->entry->search[i], a->soname);
		glob_t g;
		size_t k;

		if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
			for (k = 0; k < g.gl_pathc; k++)
				if (!best || strverscmp(g.gl_pathv[k], best) > 0) {
					free(best);
					best = estrdup(g.gl_pathv[k]);
				}
		globfree(&g);
		free(pat);
	}
	return best;
}

/* Run the probe child for one allocator and record what it said. */
static void
probe(struct mr_alloc *a, const char *lib, const char *self_exe)
{
	char *pre = esprintf("LD_PRELOAD=%s", lib);
	const char *extra[] = { pre, NULL };
	char **env = mr_spawn_env(extra);
	char *argv[] = { (char *)self_exe, "__probe-alloc", (char *)lib, NULL };
	struct strbuf out = { 0 };
	char *f[4] = { 0 };
	int status = 0, rc, nf = 0;
	const char *unfit = mr_registry_library_unfit(lib);

	if (unfit) {
		/* the probe's loader would block on it until its timeout */
		a->missing = esprintf("%s: %s", lib, unfit);
		mr_spawn_env_free(env);
		free(pre);
		return;
	}
	/* stderr to /dev/null: ld.so complains there about a missing
	 * preload, and we report it our way. */
	rc = mr_spawn_capture(argv, env, PROBE_TIMEOUT_MS, 65536, 0, &out, &status);
	mr_spawn_env_free(env);
	free(pre);
	if (out.s) {
		char *nl = strchr(out.s, '\n');

		if (nl)
			*nl = '\0';
		nf = split(out.s, '\t', f, 3);
	}
	if (rc < 0) {
		a->missing = esprintf("%s: probe failed: %s", a->soname, strerror(-rc));
	} else if (nf == 3 && strcmp(f[0], "ok") == 0 && f[1][0] == '/') {
		a->path = estrdup(f[1]);
		if (strcmp(f[2], "-") != 0)
			a->version = estrdup(f[2]);
	} else if (nf == 2 && strcmp(f[0], "error") == 0) {
		if (strstr(f[1], "cannot open shared object file"))
			a->missing = not_found(a);
		else
			a->missing = esprintf("%s: %s", a->soname, f[1]);
	} else if (WIFSIGNALED(status)) {
		a->missing = esprintf("%s: probe killed by signal %d", a->soname, WTERMSIG(status));
	} else {
		a->missing = esprintf("%s: probe failed (exit %d)", a->soname, WEXITSTATUS(status));
	}
	sb_free(&out);
}

/* A spec naming a version ("jemalloc@5.2.1"): its library comes from
 * another release's package (allocrel.h).  Probed (it must load) where
 * the host's glibc can load it; one that needs a newer glibc is used by
 * the configs of such a glibc only (mr_allocrel_skip). */
static void
resolve_release(struct mr_alloc *a, const char *want, const char *self_exe)
{
	char *lib;

	if (mr_allocrel_fetch(a, want, &lib) < 0)
		return;
	if (!a->glibc_need || mr_libc_cmp(a->glibc_need, gnu_get_libc_version()) <= 0) {
		free(a->version);
		a->version = NULL;
		probe(a, lib, self_exe);
		free(lib);
	} else {
		a->path = lib;
	}
}

static void
resolve_one(struct mr_alloc *a, const struct mr_registry *r, const char *spec,
	    const char *self_exe)
{
	const char *at = strchr(spec, '@');
	char *name = at ? estrndup(spec, (size_t)(at - spec)) : estrdup(spec);
	struct link_map *lm = NULL;
	char *found;
	void *h;

	memset(a, 0, sizeof *a);
	a->spec = estrdup(spec);
	a->entry = mr_registry_find(r, name);
	free(name);
	if (!a->entry) {
		struct strbuf b = { 0 };

		mr_registry_unknown(r, spec, &b);
		a->name = a->spec;
		a->soname = estrdup("-");
		a->missing = b.s;
		return;
	}
	a->name = a->entry->name;
	a->preload = a->entry->preload;
	a->soname = estrdup(a->entry->library);
	a->package = a->entry->package;
	if (at) {
		resolve_release(a, at + 1, self_exe);
		return;
	}
	if (a->entry->build_musl) {
		/* musl's libc.a, linked into the cases' musl builds: present
		   or not; each case's build is looked for when it runs */
		a->path = search_dirs(a);
		if (!a->path)
			a->missing = not_found(a);
		else
			a->version = mr_musl_version();
		return;
	}
	if (!a->preload) {
		/* the C library: already loaded here, NOLOAD only looks it up */
		a->version = estrdup(gnu_get_libc_version());
		h = dlopen(a->soname, RTLD_LAZY | RTLD_NOLOAD);
		if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name[0])
			a->path = estrdup(lm->l_name);
		if (h)
			dlclose(h);
		return;
	}
	found = search_dirs(a);
	probe(a, found ? found : a->soname, self_exe);
	free(found);
}

void
mr_alloc_resolve(struct mr_alloc_tab *t, const struct mr_registry *r,
		 const char *const *specs, int n, const char *self_exe)
{
	int i;

	memset(t, 0, sizeof *t);
	t->a = ecalloc((size_t)n + 1, sizeof *t->a);
	for (i = 0; i < n; i++)
		if (!mr_alloc_find(t, specs[i]))
			resolve_one(&t->a[t->n++], r, specs[i], self_exe);
}

const struct mr_alloc *
mr_alloc_find(const struct mr_alloc_tab *t, const char *spec)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->a[i].spec, spec) == 0)
			return &t->a[i];
	return NULL;
}

void
mr_alloc_free(struct mr_alloc_tab *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		free(t->a[i].spec);
		free(t->a[i].soname);
		free(t->a[i].path);
		free(t->a[i].version);
		free(t->a[i].missing);
		free(t->a[i].fetched_package);
		free(t->a[i].release);
		free(t->a[i].pkg_version);
		free(t->a[i].sha256);
		free(t->a[i].glibc_need);
	}
	free(t->a);
	memset(t, 0, sizeof *t);
}
