/* rtgo: go@W from Debian's golang-X.Y-go and golang-X.Y-src, and the
 * host's go — see runtime.h.  A Go original is compiled: the runtime is
 * the toolchain that builds it (rtgobuild.c), and the run executes the
 * program it built, no interpreter in front. */
#include "matrix/rtkind.h"

#include <errno.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix/allocrel.h"
#include "matrix/langs.h"
#include "matrix/libc.h"
#include "release/cache.h"
#include "release/releases.h"
#include "core/rmtree.h"

#define COPY_TIMEOUT_MS 120000 /* cp -rs of ~9,000 files on a busy machine */

/* Run argv (no shell); 0 when it exited 0. */
static int
run(char *const *argv)
{
	struct strbuf out = { 0 }, why = { 0 };
	int rc = mr_rt_probe(argv, &out, &why);

	sb_free(&out);
	sb_free(&why);
	return rc;
}

/* Fill dir (new) as a GOROOT: golang-X.Y-go (p) has usr/lib/go-X.Y/bin,
 * pkg, VERSION and a part of the sources (the generated zversion.go,
 * zbootstrap.go) in usr/share/go-X.Y/src; golang-X.Y-src (l) the rest of
 * usr/share/go-X.Y/src.  Debian joins them with usr/lib/go-X.Y/src ->
 * ../../share/go-X.Y/src in one file system; here each package has its
 * own root, so src is a tree of links to both (cp -rs).  0 or -1. */
static int
fill(const char *dir, const char *xy, const struct mr_release_pkg *p, const struct mr_release_pkg *l)
{
	static const char *const links[] = { "bin", "pkg", "VERSION" };
	char *lsrc = esprintf("%s/usr/share/go-%s/src", l->root, xy),
	     *psrc = esprintf("%s/usr/share/go-%s/src/.", p->root, xy),
	     *src = esprintf("%s/src", dir), *pdot = esprintf("%s/", src);
	char *cp1[] = { "/bin/cp", "-rs", lsrc, src, NULL }, *cp2[] = { "/bin/cp", "-rsf", psrc, pdot, NULL };
	int rc = 0;
	size_t i;

	for (i = 0; rc == 0 && i < sizeof links / sizeof *links; i++) {
		char *to = esprintf("%s/usr/lib/go-%s/%s", p->root, xy, links[i]),
		     *at = esprintf("%s/%s", dir, links[i]);

		rc = symlink(to, at);
		free(to);
		free(at);
	}
	if (rc == 0)
		rc = run(cp1);
	if (rc == 0 && access(psrc, F_OK) == 0)
		rc = run(cp2);
	free(lsrc);
	free(psrc);
	free(src);
	free(pdot);
	return rc;
}

/* The GOROOT of p and l in the cache (fresh): <cache>/goroot/<p's
 * package>_<version>, made once (in a temporary directory renamed into
 * place); NULL with why. */
static char *
goroot(const char *xy, const struct mr_release_pkg *p, const struct mr_release_pkg *l, struct strbuf *why)
{
	char *cache = mr_release_cache_dir(), *top = esprintf("%s/goroot", cache),
	     *dir = esprintf("%s/%s_%s", top, p->package, p->version),
	     *tmp = esprintf("%s.tmp.%ld", dir, (long)getpid()), *go = esprintf("%s/bin/go", dir);

	free(cache);
	if (access(go, X_OK) == 0)
		goto out;
	if (mkdir_p(top) < 0 || (mkdir(tmp, 0755) < 0 && errno != EEXIST)) {
		sb_printf(why, "%s: %s", top, strerror(errno));
	} else if (fill(tmp, xy, p, l) < 0) {
		sb_printf(why, "%s: the GOROOT of %s and %s cannot be made", tmp, p->package, l->package);
	} else if (rename(tmp, dir) < 0 && errno != EEXIST && errno != ENOTEMPTY) {
		sb_printf(why, "%s: %s", dir, strerror(errno));
	}
	mr_rmtree(tmp);
out:
	free(top);
	free(tmp);
	free(go);
	if (why->len) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* The toolchain of p and l: rt->exe is GOROOT/bin/go (the build sets
 * GOROOT to its directory's parent); no argv (the built program runs
 * alone).  Sets rt->missing when something is not there. */
static void
go_command(struct mr_runtime *rt, const char *xy, const struct mr_release_pkg *p,
	   const struct mr_release_pkg *l)
{
	struct strbuf why = { 0 };
	char *real = esprintf("%s/usr/lib/go-%s/bin/go", p->root, xy), *dir;
	const char *host = gnu_get_libc_version();

	rt->env = ecalloc(1, sizeof *rt->env);
	rt->argv = ecalloc(1, sizeof *rt->argv);
	if (access(real, X_OK) < 0) {
		rt->missing = esprintf("%s: %s %s (%s) has no usr/lib/go-%s/bin/go", rt->spec, p->package,
				       p->version, p->release, xy);
		goto out;
	}
	/* the go command runs on the host's glibc (and its compile and
	 * link, which it starts itself): no loader in front of them */
	rt->glibc_need = mr_allocrel_glibc_need(real);
	if (rt->glibc_need && mr_libc_cmp(rt->glibc_need, host) > 0) {
		rt->missing = esprintf("%s: %s %s (%s) needs glibc %s, the host has %s", rt->spec, p->package,
				       p->version, p->release, rt->glibc_need, host);
		goto out;
	}
	dir = goroot(xy, p, l, &why);
	if (!dir) {
		rt->missing = esprintf("%s cannot be had: %s", rt->spec, why.s);
		goto out;
	}
	rt->exe = esprintf("%s/bin/go", dir);
	rt->sha256 = mr_rt_sha(real);
	free(dir);
	if (!rt->sha256)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, real);
out:
	free(real);
	sb_free(&why);
}

const struct mr_rt_kind mr_rtgo_kind = { "golang-go", "golang-%s-go", "golang-%s-src", NULL, go_command };

void
mr_rtgo_host(struct mr_runtime *rt)
{
	const struct mr_lang *lang = mr_lang_find(rt->lang);
	char *exe = mr_rt_which(lang->host_exe), *argv[] = { exe, "version", NULL }, *v;
	struct strbuf out = { 0 }, why = { 0 };

	rt->env = ecalloc(1, sizeof *rt->env);
	rt->argv = ecalloc(1, sizeof *rt->argv);
	if (!exe) {
		rt->missing = esprintf("%s: no %s in PATH (install it, or name a version: %s)", rt->spec,
				       lang->host_exe, lang->example);
		return;
	}
	rt->exe = exe;
	rt->where = esprintf("host %s", exe);
	rt->sha256 = mr_rt_sha(exe);
	/* "go version go1.19.8 linux/amd64" */
	if (mr_rt_probe(argv, &out, &why) < 0) {
		rt->missing = esprintf("%s: %s does not run: %s", rt->spec, exe, why.s);
	} else if (!out.s || !(v = strstr(out.s, " go")) || !mr_rt_starts_xy(v + 3)) {
		rt->missing = esprintf("%s: %s version gave no version", rt->spec, exe);
	} else {
		v += 3;
		rt->version = estrndup(v, strcspn(v, " \r\n"));
	}
	if (!rt->missing && !rt->sha256)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, exe);
	sb_free(&out);
	sb_free(&why);
}
