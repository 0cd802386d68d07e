/* rtredis: redis@W, Debian's redis-server — see runtime.h.
 *
 * The original (cases/<case>.redis) is a Python driver run by the host's
 * python3 (the `python` runtime, -S); it starts redis-server as its child
 * and drives it over a unix socket.  What is recorded is redis-server:
 * Debian's redis-tools ships the one binary (usr/bin/redis-check-rdb, which
 * is the server when its argv[0] is not redis-check-*), redis-server the
 * link to it.  It links libjemalloc2 and liblzf1 (bullseye's also
 * libssl1.1 and Lua's): those it names (DT_NEEDED) come from its release
 * too, so that its allocator is its release's.  The driver learns the server's command from
 * MEMREPRO_REDIS_SERVER (the binary), MEMREPRO_REDIS_LIBPATH (its
 * libraries, with the loader's libc directory first when it has one) and
 * MEMREPRO_REDIS_LOADER (its release's loader when the host's glibc is
 * older than it needs).
 */
#include "matrix/rtkind.h"

#include <gnu/libc-version.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix/allocrel.h"
#include "matrix/elfneed.h"
#include "matrix/langs.h"
#include "matrix/libc.h"
#include "matrix/runtime.h"

/* The libraries fetched beside it, those the binary needs (DT_NEEDED):
 * package and soname, whose directory goes on the library path; the C++
 * runtime only when the server runs through its release's loader (the
 * host's is older than that release's). */
static const struct {
	const char *pkg, *soname;
	int loader;
} deps[] = {
	{ "libjemalloc2", "libjemalloc.so.2", 0 },
	{ "liblzf1", "liblzf.so.1", 0 },
	{ "libssl1.1", "libssl.so.1.1", 0 },
	{ "liblua5.1-0", "liblua5.1.so.0", 0 },
	{ "lua-cjson", "liblua5.1-cjson.so.0", 0 },
	{ "lua-bitop", "liblua5.1-bitop.so.0", 0 },
	{ "libstdc++6", "libstdc++.so.6", 1 },
	{ "libgcc-s1", "libgcc_s.so.1", 1 },
};
#define NDEPS (sizeof deps / sizeof *deps)

/* rt->libpath: the directories of the deps from p's release; 0, or -1
 * with rt->missing. */
static int
libpath(struct mr_runtime *rt, const struct mr_release_pkg *p, int loader)
{
	int rel = mr_release_index(p->release), cxx = mr_elf_needs(rt->exe, "libstdc++.so.6");
	struct strbuf lp = { 0 };
	size_t d;

	for (d = 0; d < NDEPS; d++) {
		const char *pkgs[MR_RELEASE_MAX] = { 0 };
		struct mr_release_pkg q;
		struct strbuf why = { 0 };
		char *so, *slash;

		if (deps[d].loader ? !(loader && cxx) : !mr_elf_needs(rt->exe, deps[d].soname))
			continue;
		pkgs[rel] = deps[d].pkg;
		if (mr_release_get(pkgs, p->release, &q, &why) != MR_REL_OK) {
			rt->missing = esprintf("%s cannot be had: %s (%s): %s", rt->spec, deps[d].pkg,
					       p->release, why.s ? why.s : "no reason given");
			sb_free(&why);
			sb_free(&lp);
			return -1;
		}
		sb_free(&why);
		rt->fetched |= q.fetched;
		so = mr_release_find(&q, deps[d].soname);
		if (!so) {
			rt->missing = esprintf("%s: %s %s (%s) has no %s", rt->spec, q.package, q.version,
					       q.release, deps[d].soname);
			mr_release_pkg_free(&q);
			sb_free(&lp);
			return -1;
		}
		slash = strrchr(so, '/');
		*slash = '\0';
		if (!lp.s || !strstr(lp.s, so))
			sb_printf(&lp, "%s%s", lp.len ? ":" : "", so);
		free(so);
		mr_release_pkg_free(&q);
	}
	rt->libpath = lp.s;
	return 0;
}

/* The driver's command line: the host's python3 -S; the server's in the
 * environment (the header). */
static void
driver(struct mr_runtime *rt)
{
	struct mr_runtime py;
	struct strbuf err = { 0 };
	char **server = rt->argv;
	int n = 0, i;

	rt->argv = NULL;
	for (i = 0; rt->env && rt->env[i]; i++)
		free(rt->env[i]);
	free(rt->env);
	rt->env = ecalloc(4, sizeof *rt->env);
	rt->env[n++] = esprintf("MEMREPRO_REDIS_SERVER=%s", rt->exe);
	if (rt->own_loader) { /* server: loader --library-path DIRS --argv0 ... */
		rt->env[n++] = esprintf("MEMREPRO_REDIS_LOADER=%s", server[0]);
		rt->env[n++] = esprintf("MEMREPRO_REDIS_LIBPATH=%s", server[2]);
	} else if (rt->libpath) {
		rt->env[n++] = esprintf("MEMREPRO_REDIS_LIBPATH=%s", rt->libpath);
	}
	for (i = 0; server && server[i]; i++)
		free(server[i]);
	free(server);
	if (mr_runtime_get("python", &py, &err) < 0 || py.missing) {
		if (!rt->missing)
			rt->missing = esprintf("%s: its driver needs the host's python3: %s", rt->spec,
					       py.missing ? py.missing : err.s);
	} else {
		rt->argv = mr_rt_vec((const char *const *)py.argv, 2);
	}
	mr_runtime_free(&py);
	sb_free(&err);
}

/* The server of p (redis-tools): usr/bin/redis-check-rdb. */
static void
server(struct mr_runtime *rt, const struct mr_release_pkg *p)
{
	char *exe = esprintf("%s/usr/bin/redis-check-rdb", p->root), *need;
	struct stat st;
	int loader;

	if (lstat(exe, &st) < 0 || !S_ISREG(st.st_mode) || access(exe, X_OK) < 0) {
		rt->missing = esprintf("%s: %s %s (%s) has no usr/bin/redis-check-rdb", rt->spec,
				       p->package, p->version, p->release);
		free(exe);
		return;
	}
	rt->exe = exe;
	rt->sha256 = mr_rt_sha(exe);
	need = mr_allocrel_glibc_need(exe);
	loader = need && mr_libc_cmp(need, gnu_get_libc_version()) > 0;
	free(need);
	if (libpath(rt, p, loader) < 0)
		return;
	mr_rt_command(rt, NULL, p, NULL, 0, 0);
	if (!rt->missing && !rt->sha256)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, rt->exe);
}

/* The server of p, then the driver that runs it. */
static void
redis_command(struct mr_runtime *rt, const char *xy, const struct mr_release_pkg *p,
	      const struct mr_release_pkg *l)
{
	(void)xy;
	(void)l;
	server(rt, p);
	if (!rt->missing)
		driver(rt);
}

const struct mr_rt_kind mr_rtredis_kind = { "redis-server", "redis-tools", "redis-server", NULL, redis_command };

/* "Redis server v=7.0.15 sha=..." -> "7.0.15" (fresh), NULL when not. */
static char *
host_version(const char *s)
{
	const char *v = s ? strstr(s, " v=") : NULL;
	size_t n;

	if (!v)
		return NULL;
	v += 3;
	n = strspn(v, "0123456789.");
	return n && n <= MR_RT_WORD_MAX && mr_rt_starts_xy(v) ? estrndup(v, n) : NULL;
}

void
mr_rtredis_host(struct mr_runtime *rt)
{
	const struct mr_lang *lang = mr_lang_find(rt->lang);
	char *exe = mr_rt_which(lang->host_exe), *argv[3];
	struct strbuf out = { 0 }, why = { 0 };

	if (!exe) {
		rt->missing = esprintf("%s: no %s in PATH (install it, or name a version: %s)", rt->spec,
				       lang->host_exe, lang->example);
		return;
	}
	rt->exe = exe;
	rt->where = esprintf("host %s", exe);
	rt->sha256 = mr_rt_sha(exe);
	argv[0] = exe;
	argv[1] = (char *)"--version";
	argv[2] = NULL;
	if (mr_rt_probe(argv, &out, &why) < 0)
		rt->missing = esprintf("%s: %s does not run: %s", rt->spec, exe, why.s);
	else if (!(rt->version = host_version(out.s)))
		rt->missing = esprintf("%s: %s gave no version", rt->spec, exe);
	else if (!rt->sha256)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, exe);
	sb_free(&out);
	sb_free(&why);
	if (!rt->missing)
		driver(rt);
}
