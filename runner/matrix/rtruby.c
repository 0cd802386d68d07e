/* rtruby: ruby@W from Debian's rubyX.Y and librubyX.Y — see runtime.h. */
#include "matrix/rtkind.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The ruby command line of p (rubyX.Y) and l (librubyX.Y): exe, RUBYLIB,
 * libruby, a loader when the host's glibc is too old.  Sets rt->missing
 * when something is not there. */
static void
ruby_command(struct mr_runtime *rt, const char *xy, const struct mr_release_pkg *p,
	     const struct mr_release_pkg *l)
{
	static const char *const flags[] = { "--disable-gems" };
	char *exename = esprintf("ruby%s", xy), *libname = esprintf("libruby-%s.so.%s", xy, xy),
	     *lib, *d1 = esprintf("%s/usr/lib/ruby/%s.0", l->root, xy),
	     *d2 = esprintf("%s/usr/lib/x86_64-linux-gnu/ruby/%s.0", l->root, xy), *slash;
	struct stat st;

	rt->env = ecalloc(3, sizeof *rt->env);
	rt->argv = ecalloc(MR_RT_ARGV_MAX, sizeof *rt->argv);
	rt->exe = mr_release_find(p, exename);
	lib = mr_release_find(l, libname);
	if (!rt->exe || !lib) {
		rt->missing = esprintf("%s: %s %s (%s) has no %s", rt->spec, rt->exe ? l->package : p->package,
				       p->version, p->release, rt->exe ? libname : exename);
		goto out;
	}
	if (stat(d1, &st) < 0 || !S_ISDIR(st.st_mode) || stat(d2, &st) < 0 || !S_ISDIR(st.st_mode)) {
		rt->missing = esprintf("%s: %s %s (%s) has no %s", rt->spec, l->package, l->version,
				       l->release, stat(d1, &st) < 0 ? d1 : d2);
		goto out;
	}
	rt->sha256 = mr_rt_sha(rt->exe);
	rt->lib_sha256 = mr_rt_sha(lib);
	slash = strrchr(lib, '/');
	rt->libpath = estrndup(lib, (size_t)(slash - lib));
	rt->env[0] = esprintf("RUBYLIB=%s:%s", d1, d2);
	mr_rt_command(rt, lib, p, flags, 1, 1);
	if (!rt->missing && (!rt->sha256 || !rt->lib_sha256))
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, rt->sha256 ? lib : rt->exe);
out:
	free(exename);
	free(libname);
	free(lib);
	free(d1);
	free(d2);
}

const struct mr_rt_kind mr_rtruby_kind = { "ruby", "ruby%s", "libruby%s", NULL, ruby_command };
