/* rtgobuild: a Go original built by its toolchain, once — see
 * runtime.h. */
#include "matrix/runtime.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc/capture.h"
#include "release/cache.h"
#include "release/files.h"
#include "release/releases.h"
#include "release/sha256.h"
#include "core/rmtree.h"


#define BUILD_TIMEOUT_MS 900000 /* the standard library compiled cold by
				   1.24 on a busy 2-core machine */
#define BUILD_OUT_MAX 65536

/* The build's environment: nothing of ours (GOFLAGS, GOPATH, a user's
 * go env file), the caches inside memrepro's, no network (GOPROXY=off),
 * no cgo (the host's glibc and C compiler play no part), the toolchain
 * named and no other (GOTOOLCHAIN=local: 1.21 would fetch the one a
 * go.mod asks for), telemetry off and HOME in the cache (1.23 writes its
 * counters under the user's config directory).  env[0..] fresh. */
static void
build_env(const struct mr_runtime *rt, const char *top, char **env)
{
	int n = 0;

	env[n++] = estrdup("PATH=/usr/bin:/bin");
	env[n++] = esprintf("HOME=%s/home", top);
	env[n++] = esprintf("XDG_CONFIG_HOME=%s/home/.config", top);
	env[n++] = esprintf("GOCACHE=%s/gocache", top);
	env[n++] = esprintf("GOPATH=%s/gopath", top);
	env[n++] = estrdup("CGO_ENABLED=0");
	env[n++] = estrdup("GOFLAGS=-mod=mod");
	env[n++] = estrdup("GOPROXY=off");
	env[n++] = estrdup("GO111MODULE=on");
	env[n++] = estrdup("GOTOOLCHAIN=local");
	env[n++] = estrdup("GOENV=off");
	env[n++] = estrdup("GOTELEMETRY=off");
	/* a release's toolchain: its GOROOT is where rtgo.c made it; the
	 * host's go knows its own */
	if (strncmp(rt->where, "host ", 5) != 0) {
		char *root = estrdup(rt->exe);

		*strrchr(root, '/') = '\0';
		*strrchr(root, '/') = '\0';
		env[n++] = esprintf("GOROOT=%s", root);
		free(root);
	}
	env[n] = NULL;
}

/* Build in dir (main.go, memrepro.go, go.mod there) into dir/name;
 * NULL, or why (fresh). */
static char *
build(const struct mr_runtime *rt, const char *top, const char *dir, const char *name)
{
	char *env[16], *out = esprintf("%s/%s", dir, name),
	     *argv[] = { rt->exe, "build", "-trimpath", "-o", out, ".", NULL }, *why = NULL;
	struct strbuf o = { 0 };
	int st = 0, rc, i;

	build_env(rt, top, env);
	rc = mr_spawn_capture_in(dir, argv, env, BUILD_TIMEOUT_MS, BUILD_OUT_MAX, 2, &o, &st);
	if (rc < 0)
		why = esprintf("%s: go build: %s", rt->spec, strerror(-rc));
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		why = esprintf("%s: go build failed (%s %d): %.600s", rt->spec,
			       WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
			       o.s ? o.s : "");
	for (i = 0; env[i]; i++)
		free(env[i]);
	sb_free(&o);
	free(out);
	return why;
}

/* dir made and filled with src as main.go, helper as memrepro.go and a
 * go.mod; 0 or -1. */
static int
prepare(const char *dir, const char *src, const char *helper)
{
	char *m = esprintf("%s/main.go", dir), *h = esprintf("%s/memrepro.go", dir),
	     *g = esprintf("%s/go.mod", dir);
	int rc = -1;

	if (mkdir(dir, 0755) == 0 && mr_rel_copy_file(src, m) == 0 &&
	    mr_rel_copy_file(helper, h) == 0 &&
	    mr_rel_write_file(g, "module memreproorig\n\ngo 1.15\n") == 0)
		rc = 0;
	free(m);
	free(h);
	free(g);
	return rc;
}

/* <cache>/gobuild/<toolchain>/<source>-<helper>: the toolchain's version
 * and its go's sha256, the sha256 of the original and of the helper. */
static char *
key_dir(const struct mr_runtime *rt, const char *top, const char *src, const char *helper, char **why)
{
	char s[65], h[65];

	if (mr_sha256_file(src, s) < 0 || mr_sha256_file(helper, h) < 0) {
		*why = esprintf("%s: %s cannot be read", rt->spec, access(src, R_OK) ? src : helper);
		return NULL;
	}
	return esprintf("%s/%s-%.16s/%.32s-%.16s", top, rt->version, rt->sha256, s, h);
}

char *
mr_runtime_go_build(const struct mr_runtime *rt, const char *src, char **bin)
{
	char *cache = mr_release_cache_dir(), *top = esprintf("%s/gobuild", cache), *d = estrdup(src),
	     *b = estrdup(src), *helper = esprintf("%s/../lib/memrepro.go", dirname(d)),
	     *name = estrdup(basename(b)), *why = NULL, *dir, *tmp, *parent;

	*bin = NULL;
	free(cache);
	if (strlen(name) > 3 && strcmp(name + strlen(name) - 3, ".go") == 0)
		name[strlen(name) - 3] = '\0';
	dir = key_dir(rt, top, src, helper, &why);
	if (!dir)
		goto out;
	*bin = esprintf("%s/%s", dir, name);
	if (access(*bin, X_OK) == 0)
		goto out;
	parent = estrdup(dir);
	*strrchr(parent, '/') = '\0';
	tmp = esprintf("%s.tmp.%ld", dir, (long)getpid());
	if (mkdir_p(parent) < 0 || prepare(tmp, src, helper) < 0)
		why = esprintf("%s: %s: %s", rt->spec, tmp, strerror(errno));
	else if (!(why = build(rt, top, tmp, name)) && rename(tmp, dir) < 0 && access(*bin, X_OK) < 0)
		why = esprintf("%s: %s: %s", rt->spec, dir, strerror(errno));
	mr_rmtree(tmp); /* the build's leftovers (the module cache's are read-only) */
	free(parent);
	free(tmp);
out:
	if (why) {
		free(*bin);
		*bin = NULL;
	}
	free(top);
	free(d);
	free(b);
	free(helper);
	free(name);
	free(dir);
	return why;
}
