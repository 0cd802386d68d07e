/* rtkind: what the kinds of runtime share (runtime.c: specs, the host's,
 * node; rtrel.c: the kinds from Debian's releases; rtruby.c, rtpython.c,
 * rtgo.c, rtredis.c, rtjava.c; langs.c: the table that names them).
 * Internal to matrix/runtime*.c and langs.c: callers use runtime.h.
 *
 * Not for measured code: this mallocs, forks and writes files.
 */
#ifndef MR_RTKIND_H
#define MR_RTKIND_H

#include "core/util.h"
#include "matrix/rttypes.h"
#include "release/release.h"

#define MR_RT_WORD_MAX 64 /* a version word after '@' */
#define MR_RT_ARGV_MAX 12 /* a runtime's argv before the script, NULL included */

/* name found in PATH as an executable regular file: its absolute path
 * (links resolved, fresh), or NULL. */
char *mr_rt_which(const char *name);

/* The sha256 of path in hex (fresh), NULL when it cannot be read. */
char *mr_rt_sha(const char *path);

/* A fresh NULL-terminated vector of copies of the n strings. */
char **mr_rt_vec(const char *const *s, int n);

/* Whether w starts with X.Y (two numbers, then the end or . - + ~). */
int mr_rt_starts_xy(const char *w);

/* "X.Y" of a word that mr_rt_starts_xy (fresh). */
char *mr_rt_xy(const char *word);

/* Run argv (our environment), its stdout into out; 0 when it exited 0,
 * else -1 with why. */
int mr_rt_probe(char *const *argv, struct strbuf *out, struct strbuf *why);

/* A release kind: Debian's interpreter package, the X.Y of each release
 * read from a metapackage's upstream version (its language: rt->lang). */
struct mr_rt_kind {
	const char *meta; /* the metapackage whose version is the X.Y: "ruby",
	                     "python3" */
	const char *exe;  /* the interpreter's package, a printf format of X.Y:
	                     "ruby%s", "python%s-minimal" */
	const char *lib;  /* its library package, same release and version:
	                     "libruby%s", "libpython%s-minimal"; NULL: none
	                     (l is left empty) */
	char *(*xy)(const char *w); /* the X.Y of a version or word (fresh),
	                     NULL when it has none; NULL: mr_rt_xy of a word
	                     that mr_rt_starts_xy (java: N of 1.N and N.x) */
	void (*command)(struct mr_runtime *rt, const char *xy, const struct mr_release_pkg *p,
			const struct mr_release_pkg *l); /* rt's command line from
	                     p and l (xy their X.Y): rt filled, or rt->missing */
};

/* Kind k's interpreter package (k->exe) for the X.Y of its metapackage's
 * upstream version up (fresh), NULL when up has none. */
char *mr_rt_kind_pkg(const struct mr_rt_kind *k, const char *up);

/* Resolve rt->spec's word (X.Y, a version, a Debian version, a release)
 * for kind k: the interpreter package into p and the library package
 * into l (empty when k has none; free both with mr_release_pkg_free), *xy (fresh) its X.Y.
 * Sets rt->version, where, fetched; 0, or -1 with rt->missing (and
 * rt->unknown when nothing has that version: the versions there are
 * named). */
int mr_rt_release_pkgs(struct mr_runtime *rt, const struct mr_rt_kind *k, const char *word,
		       char **xy, struct mr_release_pkg *p, struct mr_release_pkg *l);

/* The command line of rt->exe (set, with rt->libpath when the
 * interpreter has its own library directory) from release package p:
 * rt->glibc_need from the ELF version needs of the exe and of lib (NULL:
 * none); when newer than the host's glibc, p's release's loader in front
 * (own_loader, --library-path <libc6>[:libpath] --argv0 exe), else exe as
 * it is and LD_LIBRARY_PATH=libpath in env[slot] when libpath is set;
 * then the nflags flags.  rt->argv and rt->env allocated (env with room
 * for 3).  Sets rt->missing when the loader cannot be had. */
void mr_rt_command(struct mr_runtime *rt, const char *lib, const struct mr_release_pkg *p,
		   const char *const *flags, int nflags, int slot);

/* rt->spec's word resolved for kind k (mr_rt_release_pkgs), fetched,
 * and its command line made (k->command): rt filled, or rt->missing set. */
void mr_rt_release(struct mr_runtime *rt, const struct mr_rt_kind *k, const char *word);

/* The release kinds (rtruby.c, rtpython.c, rtgo.c, rtredis.c, rtjava.c). */
extern const struct mr_rt_kind mr_rtruby_kind, mr_rtpython_kind, mr_rtgo_kind, mr_rtredis_kind,
	mr_rtjava_kind;

/* node@word from npm (runtime.c): rt filled, or rt->missing set. */
void mr_rt_node_npm(struct mr_runtime *rt, const char *word);

/* The host's go (rtgo.c): `go` in PATH, its version from `go version`. */
void mr_rtgo_host(struct mr_runtime *rt);

/* redis: the host's redis-server in PATH, run by the same driver. */
void mr_rtredis_host(struct mr_runtime *rt);

#endif
