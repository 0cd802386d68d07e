/* alloc: resolve allocators by soname in a probe child — see alloc.h. */
#include "run/alloc.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "run/capture.h"
#include "run/env.h"
#include "core/util.h"

#define PROBE_TIMEOUT_MS 10000

const char *const mr_alloc_names[] = {
	"glibc", "jemalloc", "tcmalloc", "mimalloc", NULL
};

static const struct {
	const char *soname;
	const char *package;
} known[MR_ALLOC_N] = {
	{ "libc.so.6", "libc6" },
	{ "libjemalloc.so.2", "libjemalloc2" },
	{ "libtcmalloc_minimal.so.4", "libtcmalloc-minimal4" },
	{ "libmimalloc.so.2", "libmimalloc2.0" },
};

int
mr_alloc_index(const char *name)
{
	int i;

	for (i = 0; mr_alloc_names[i]; i++)
		if (strcmp(mr_alloc_names[i], name) == 0)
			return i;
	return -1;
}

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

/* The library's own idea of its version. */
static char *
lib_version(void *h)
{
	int (*mallctl)(const char *, void *, size_t *, void *, size_t);
	const char *(*tc_version)(int *, int *, const char **);
	int (*mi_version)(void);

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

		return esprintf("%d.%d.%d", v / 100, v / 10 % 10, v % 10);
	}
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
	clean(version);
	printf("ok\t%s\t%s\n", lm->l_name, version ? version : "-");
	free(version);
	return MR_OK;
}

/* Run the probe child for one allocator and record what it said. */
static void
probe(struct mr_alloc *a, const char *self_exe)
{
	char *pre = esprintf("LD_PRELOAD=%s", a->soname);
	const char *extra[] = { pre, NULL };
	char **env = mr_spawn_env(extra);
	char *argv[] = { (char *)self_exe, "__probe-alloc", (char *)a->soname, NULL };
	struct strbuf out = { 0 };
	char *f[4] = { 0 };
	int status = 0, rc, nf = 0;

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
		if (strstr(f[1], "cannot open shared object file") && a->package)
			a->missing = esprintf("%s not found by the dynamic loader (Debian package %s)",
					      a->soname, a->package);
		else if (strstr(f[1], "cannot open shared object file"))
			a->missing = esprintf("%s not found by the dynamic loader", a->soname);
		else
			a->missing = esprintf("%s: %s", a->soname, f[1]);
	} else if (WIFSIGNALED(status)) {
		a->missing = esprintf("%s: probe killed by signal %d", a->soname, WTERMSIG(status));
	} else {
		a->missing = esprintf("%s: probe failed (exit %d)", a->soname, WEXITSTATUS(status));
	}
	sb_free(&out);
}

int
mr_alloc_valid_soname(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s == ':' || *s == ' ' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

void
mr_alloc_resolve(struct mr_alloc *tab, const char *self_exe,
		 const char *const *sonames)
{
	struct link_map *lm = NULL;
	void *h;
	int i;

	for (i = 0; i < MR_ALLOC_N; i++) {
		memset(&tab[i], 0, sizeof tab[i]);
		tab[i].name = mr_alloc_names[i];
		tab[i].soname = known[i].soname;
		tab[i].package = known[i].package;
		if (i != MR_ALLOC_GLIBC && sonames && sonames[i]) {
			tab[i].soname = sonames[i];
			tab[i].package = NULL;
		}
	}
	/* glibc is already loaded here: NOLOAD only looks it up. */
	tab[MR_ALLOC_GLIBC].version = estrdup(gnu_get_libc_version());
	h = dlopen(known[MR_ALLOC_GLIBC].soname, RTLD_LAZY | RTLD_NOLOAD);
	if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name[0])
		tab[MR_ALLOC_GLIBC].path = estrdup(lm->l_name);
	if (h)
		dlclose(h);
	for (i = 1; i < MR_ALLOC_N; i++)
		probe(&tab[i], self_exe);
}

void
mr_alloc_free(struct mr_alloc *tab)
{
	int i;

	for (i = 0; i < MR_ALLOC_N; i++) {
		free(tab[i].path);
		free(tab[i].version);
		free(tab[i].missing);
		tab[i].path = tab[i].version = tab[i].missing = NULL;
	}
}
