/* rtjava: java@W from Debian's openjdk-N-jre-headless — see runtime.h. */
#include "matrix/rtkind.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* N of a java version or word: "1.17" (default-jre-headless's upstream
 * version), "17", "17.0.15+6", "17.0.15+6-1~deb12u1"; NULL when w is none. */
static char *
major(const char *w)
{
	size_t n;

	if (strncmp(w, "1.", 2) == 0 && w[2] >= '0' && w[2] <= '9')
		w += 2;
	n = strspn(w, "0123456789");
	if (!n || n > 3 || !(w[n] == '\0' || strchr(".+-~", w[n])))
		return NULL;
	return estrndup(w, n);
}

/* --- absolute links ---------------------------------------------------- */

static const char *link_root; /* nftw's callback: the package's root */
static int link_bad;          /* a link that could not be rewritten */

/* A link of the JDK's home to /etc/java-N-openjdk/... (lib/jvm.cfg, the
 * conf files: the package ships them under its own etc/) made relative,
 * into the package's own tree; where the host has no such java the
 * absolute link dangles and the launcher stops ("could not open
 * lib/jvm.cfg").  Regular files are left alone: the manifest still holds. */
static int
relink(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	char target[4096], *inside, *rel, *tmp;
	struct strbuf up = { 0 };
	const char *p;
	struct stat t;
	ssize_t n;

	(void)st;
	(void)ftw;
	if (flag != FTW_SL && flag != FTW_SLN)
		return 0;
	n = readlink(path, target, sizeof target - 1);
	if (n <= 0 || target[0] != '/')
		return 0;
	target[n] = '\0';
	inside = esprintf("%s%s", link_root, target);
	if (lstat(inside, &t) < 0) {
		free(inside);
		return 0; /* not the package's: left as it is */
	}
	free(inside);
	for (p = path + strlen(link_root) + 1; (p = strchr(p, '/')); p++)
		sb_add(&up, "../");
	rel = esprintf("%s%s", up.s ? up.s : "", target + 1);
	tmp = esprintf("%s.mr-link", path);
	unlink(tmp);
	if (symlink(rel, tmp) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		link_bad = 1;
	}
	free(rel);
	free(tmp);
	sb_free(&up);
	return 0;
}

/* --- the command line --------------------------------------------------- */

static int
is_exe(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The java command line of p (openjdk-N-jre-headless): its home's
 * bin/java, libjvm's glibc needs, its links into /etc made its own, a
 * loader when the host's glibc is too old.  Sets rt->missing when
 * something is not there. */
static void
java_command(struct mr_runtime *rt, const char *n, const struct mr_release_pkg *p,
	     const struct mr_release_pkg *l)
{
	char *home = esprintf("%s/usr/lib/jvm/java-%s-openjdk-amd64", p->root, n),
	     *exe = esprintf("%s/bin/java", home), *jvm = esprintf("%s/lib/server/libjvm.so", home),
	     *cfg = esprintf("%s/lib/jvm.cfg", home);

	(void)l; /* none: the JRE is one package */
	rt->env = ecalloc(3, sizeof *rt->env);
	rt->argv = ecalloc(MR_RT_ARGV_MAX, sizeof *rt->argv);
	if (!is_exe(exe) || access(jvm, R_OK) < 0) {
		rt->missing = esprintf("%s: %s %s (%s) has no %s", rt->spec, p->package, p->version,
				       p->release, is_exe(exe) ? jvm : exe);
		goto out;
	}
	link_root = p->root;
	link_bad = 0;
	if (nftw(home, relink, 16, FTW_PHYS) < 0 || link_bad || access(cfg, R_OK) < 0) {
		rt->missing = esprintf("%s: %s %s (%s): %s cannot be read (its links into /etc could not be made the package's own)",
				       rt->spec, p->package, p->version, p->release, cfg);
		goto out;
	}
	rt->exe = exe;
	exe = NULL;
	rt->sha256 = mr_rt_sha(rt->exe);
	rt->lib_sha256 = mr_rt_sha(jvm);
	mr_rt_command(rt, jvm, p, NULL, 0, 0);
	if (!rt->missing && (!rt->sha256 || !rt->lib_sha256))
		rt->missing = esprintf("%s: %s cannot be read", rt->spec, rt->sha256 ? jvm : rt->exe);
out:
	free(home);
	free(exe);
	free(jvm);
	free(cfg);
}

/* The release's default java names N (default-jre-headless 2:1.17-74 is
 * 17); the package is the headless JRE, which in Debian carries every
 * module of the JDK's image, jdk.compiler too: `java Prog.java` runs with
 * it alone, and has no library package beside it. */
const struct mr_rt_kind mr_rtjava_kind = { "default-jre-headless", "openjdk-%s-jre-headless", NULL, major,
					   java_command };
