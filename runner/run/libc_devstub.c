/* Stand-ins for release/release.h until its implementation is linked:
 * weak, so the real functions replace them.  They take libc6 from an
 * entry unpacked by hand into the cache (pkgs/libc6_<VERSION>-*), and
 * fetch nothing. */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "release/release.h"

#define WEAK __attribute__((weak))

WEAK int
mr_release_init(const char *file, struct strbuf *err)
{
	(void)file;
	(void)err;
	return 0;
}

WEAK char *
mr_release_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");

	return x && *x ? esprintf("%s/memrepro", x) : esprintf("%s/.cache/memrepro", h ? h : "/");
}

WEAK int
mr_release_get_libc(const char *want, struct mr_release_pkg *out, struct strbuf *why)
{
	char *cache = mr_release_cache_dir(), *pat = esprintf("%s/pkgs/libc6_%s-*", cache, want);
	glob_t g;
	int rc = MR_REL_CANNOT;

	memset(out, 0, sizeof *out);
	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
		const char *dir = g.gl_pathv[g.gl_pathc - 1];

		out->root = estrdup(dir);
		out->package = estrdup("libc6");
		out->version = estrdup(strchr(strrchr(dir, '/'), '_') + 1);
		out->upstream = estrdup(want);
		out->release = estrdup("-");
		out->sha256 = estrdup("-");
		rc = MR_REL_OK;
	} else {
		sb_printf(why, "no %s", pat);
	}
	if (rc == MR_REL_OK)
		globfree(&g);
	free(pat);
	free(cache);
	return rc;
}

static char *
find_in(const struct mr_release_pkg *p, const char *name, int dir)
{
	static const char *const sub[] = { "usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu" };
	size_t i;

	for (i = 0; i < 2; i++) {
		char *f = esprintf("%s/%s/%s", p->root, sub[i], name);

		if (access(f, R_OK) == 0) {
			if (dir)
				*strrchr(f, '/') = '\0';
			return f;
		}
		free(f);
	}
	return NULL;
}

WEAK char *
mr_release_loader(const struct mr_release_pkg *libc)
{
	return find_in(libc, "ld-linux-x86-64.so.2", 0);
}

WEAK char *
mr_release_libdir(const struct mr_release_pkg *libc)
{
	return find_in(libc, "libc.so.6", 1);
}

WEAK void
mr_release_pkg_free(struct mr_release_pkg *p)
{
	free(p->release);
	free(p->package);
	free(p->version);
	free(p->upstream);
	free(p->root);
	free(p->deb);
	free(p->sha256);
	memset(p, 0, sizeof *p);
}
