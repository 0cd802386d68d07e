/* registry: the allocators a run can name, read from files.
 *
 * An allocator is a name ("jemalloc"), a preload library, the Debian
 * package that has it (and how both are spelt in other releases), how its
 * options reach a case, and whether it is in the default allocator axis.
 * Nothing of that is in the code: the shipped file etc/allocators holds
 * the entries, a user's ${XDG_CONFIG_HOME:-~/.config}/memrepro/allocators
 * and --allocators FILE add or replace entries by name, and --alloc
 * NAME=PATH|SONAME sets one library.  The format is docs/formats.md,
 * "Allocators"; regparse.h reads the files and --alloc.
 *
 * A run has one registry (main loads it after the options): the matrix
 * (names in --axis allocator=, the default axis), the allocator table and
 * the release fetcher read it through mr_registry_current().
 */
#ifndef MR_REGISTRY_H
#define MR_REGISTRY_H

#include "core/util.h"

/* How NAME.key=value axes reach a case. */
struct mr_registry_opt {
	enum {
		MR_REG_OPT_NONE,     /* the allocator takes no options */
		MR_REG_OPT_CONF,     /* one variable var="MALLOC_CONF", "k:v,k:v" */
		MR_REG_OPT_ENV,      /* one variable per key: var="MIMALLOC_" is a
		                        prefix, the key upper-cased after it */
		MR_REG_OPT_TUNABLES  /* GLIBC_TUNABLES=glibc.<key>=v:... (glibc) */
	} kind;
	char *var;                   /* owned; NULL for NONE and TUNABLES */
};

/* A release's own spelling of the package or library (NULL: the entry's). */
struct mr_registry_release {
	char *release;   /* "trixie" */
	char *package;   /* "libtcmalloc-minimal4t64", or NULL */
	char *library;   /* "libmimalloc.so.3", or NULL */
};

struct mr_registry_entry {
	char *name;          /* "jemalloc": [a-z0-9][a-z0-9_-]* */
	char *library;       /* preload file name ("libjemalloc.so.2"), or an
	                        absolute path (from --alloc PATH) */
	char *package;       /* Debian package, or NULL (an --alloc addition) */
	char **search;       /* host directories (glob patterns) holding the
	                        library off the loader's path, NULL-terminated;
	                        NULL when none (the loader finds it) */
	int preload;         /* 0: the C library itself (glibc): nothing is
	                        preloaded; 1: LD_PRELOAD the library */
	int in_default_axis; /* in the allocator axis when --axis allocator=
	                        is not given */
	int build_musl;      /* "build = musl": the allocator is musl's libc
	                        (mallocng), linked into a second build of each
	                        case (CASES/musl/NAME); library is musl's
	                        libc.a, nothing is preloaded */
	struct mr_registry_opt opt;
	struct mr_registry_release *rel; /* per-release overrides */
	int nrel;
	char *origin;        /* "FILE:LINE" of its definition, or "--alloc" */
};

struct mr_registry {
	struct mr_registry_entry *e; /* in definition order (an entry that
	                                replaces another takes its place) */
	int n;
};

/* The entry called name (no "@VERSION"), or NULL. */
const struct mr_registry_entry *mr_registry_find(const struct mr_registry *r,
						 const char *name);

/* The entry an allocator spec names: "jemalloc" or "jemalloc@5.2.1" (the
 * part before '@'), or NULL. */
const struct mr_registry_entry *mr_registry_find_spec(const struct mr_registry *r,
						      const char *spec);

/* Unknown name: "unknown allocator 'X'[; did you mean 'Y'?]; the registry
 * has: a, b, c" into err. */
void mr_registry_unknown(const struct mr_registry *r, const char *name,
			 struct strbuf *err);

/* The package and library of e in a release (NULL: the host's, i.e. the
 * entry's own fields).  The package may be NULL (--alloc additions). */
const char *mr_registry_package(const struct mr_registry_entry *e, const char *release);
const char *mr_registry_library(const struct mr_registry_entry *e, const char *release);

/* Why the library at path (a path, with '/') cannot be preloaded without
 * opening it: "not a regular file (a FIFO)" (a FIFO or a device would
 * block or act when the loader opens it), or NULL when it is a regular
 * file or does not exist (the loader says so).  Static string. */
const char *mr_registry_library_unfit(const char *path);

/* The environment that carries n options key[i]=val[i] (keys without the
 * "NAME." prefix, in key order) to e's allocator: a NULL-terminated array
 * of fresh "VAR=VALUE" strings (free with mr_registry_env_free), e.g.
 * { "MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:0", NULL }.  Returns 0,
 * or -1 with a message in err (the entry takes no options; a key or value
 * that cannot travel so: ':' or ',' in a MALLOC_CONF value). */
int mr_registry_opt_env(const struct mr_registry_entry *e, const char *const *key,
			const char *const *val, int n, char ***out, struct strbuf *err);
void mr_registry_env_free(char **env);

void mr_registry_free(struct mr_registry *r);

/* For regparse.c, which fills r: free one entry's fields; the entry
 * called name, or NULL; put e (moved, zeroed) into r, in the place of
 * the entry of its name, or last. */
void mr_registry_entry_free(struct mr_registry_entry *e);
struct mr_registry_entry *mr_registry_lookup(const struct mr_registry *r, const char *name);
void mr_registry_put(struct mr_registry *r, struct mr_registry_entry *e);

/* The run's registry: set once by main after loading; NULL before. */
void mr_registry_use(const struct mr_registry *r);
const struct mr_registry *mr_registry_current(void);

#endif
