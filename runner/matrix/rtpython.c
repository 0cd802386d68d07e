/* rtpython: python@W from Debian's pythonX.Y-minimal and
 * libpythonX.Y-minimal — see runtime.h. */
#include "matrix/rtkind.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* path is a regular file (not a link) that we can run / a directory. */
static int
is_exe(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int
is_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The python command line of p (pythonX.Y-minimal: the interpreter,
 * libpython linked in) and l (libpythonX.Y-minimal: the standard library
 * os, re, threading, subprocess... without the extension modules of
 * libpythonX.Y-stdlib): PYTHONHOME naming l's tree (the interpreter looks
 * for its library beside itself, and the cache has it elsewhere), -S (no
 * site: no user or host site-packages), a loader when the host's glibc is
 * too old.  Sets rt->missing when something is not there. */
static void
python_command(struct mr_runtime *rt, const char *xy, const struct mr_release_pkg *p,
	       const struct mr_release_pkg *l)
{
	static const char *const flags[] = { "-S" };
	char *exe = esprintf("%s/usr/bin/python%s", p->root, xy),
	     *os = esprintf("%s/usr/lib/python%s/os.py", l->root, xy),
	     *dir = esprintf("%s/usr/lib/python%s", l->root, xy);

	rt->env = ecalloc(3, sizeof *rt->env);
	rt->argv = ecalloc(MR_RT_ARGV_MAX, sizeof *rt->argv);
	if (!is_exe(exe)) {
		rt->missing = esprintf("%s: %s %s (%s) has no usr/bin/python%s", rt->spec, p->package,
				       p->version, p->release, xy);
		goto out;
	}
	if (!is_dir(dir) || access(os, R_OK) < 0) {
		rt->missing = esprintf("%s: %s %s (%s) has no %s", rt->spec, l->package, l->version,
				       l->release, is_dir(dir) ? os : dir);
		goto out;
	}
	rt->exe = exe;
	exe = NULL;
	rt->sha256 = mr_rt_sha(rt->exe);
	rt->env[0] = esprintf("PYTHONHOME=%s/usr", l->root);
	mr_rt_command(rt, NULL, p, flags, 1, 1);
	if (!rt->missing && !rt->sha256)
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, rt->exe);
out:
	free(exe);
	free(os);
	free(dir);
}

const struct mr_rt_kind mr_rtpython_kind = { "python3", "python%s-minimal", "libpython%s-minimal", NULL,
					    python_command };
