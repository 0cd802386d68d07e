/* matrix: the configs a case runs under.
 *
 * A case's matrix is the product of its dimensions: the allocator axis
 * (glibc, jemalloc, tcmalloc, mimalloc unless --axis allocator=... narrows
 * it), every parameter of the case (its axis values, or one fixed value:
 * the quick or the default one by profile), and any glibc.* tunable given
 * with --axis.  --axis key=v1,v2 replaces a dimension's values; each value
 * must be one the case allows; a key may be given once.  The runner's own
 * axis "pressure" (none, or a memory cgroup limit in MiB) is a dimension
 * only when given.  Configs are written canonically as in
 * docs/formats.md: every key=value sorted by key, joined by commas.
 */
#ifndef MR_MATRIX_H
#define MR_MATRIX_H

#include "proto/cases.h"
#include "core/util.h"
#include "matrix/axes.h"

struct mr_matrix_kv {
	char *key;
	char *val;
};

/* One config. */
struct mr_matrix_cfg {
	struct mr_matrix_kv *kv;    /* sorted by key; owned */
	int nkv;
	char *canon;         /* "allocator=glibc,fibers=10000,madvise=free" */
	char *shortc;        /* only the keys that vary; "" when none does */
	char *safe;          /* shortc as a file name ("default" when empty) */
	const char *allocator; /* the allocator value (points into kv) */
	const char *libc;    /* the libc axis' value (into kv), or NULL:
	                        the host's */
	char *tunables;      /* GLIBC_TUNABLES value "k=v:k=v", or NULL */
	char **optenv;       /* the allocator's options as the environment
	                        gives them ("MALLOC_CONF=dirty_decay_ms:-1"),
	                        NULL-terminated, or NULL; owned */
	long pressure_mib;   /* the pressure axis: the memory cgroup's limit
	                        in MiB; 0: none (or not an axis) */
	const char *runtime; /* the runtime axis' value (into kv): the
	                        original's interpreter ("node@20"); NULL:
	                        the model (runtime=c, no pair in kv) */
};

struct mr_matrix {
	struct mr_matrix_cfg *cfg; /* in product order, first key slowest */
	int n;
	int nvary;             /* how many keys vary */
};

/* Expand c's matrix under the options (already checked) and profile
 * (quick: non-axis parameters take their quick value).  Returns 0, or -1
 * with a message in err (a matrix over 100000 configs). */
int mr_matrix_build(const struct mr_cases_desc *c, const struct mr_matrix_axis *ax,
		    int nax, int quick, struct mr_matrix *m, struct strbuf *err);
void mr_matrix_free(struct mr_matrix *m);

/* Append to m the configs of extra (a matrix of the same case built with
 * the axes keys[0..nkeys-1] added) that m has not: the configs an axis
 * directive of the claims adds (claims.h).  m's configs are unchanged;
 * an added config's short name has the keys that vary in m and the keys
 * it has of keys[]; a glibc.malloc.* key is added to allocator=glibc's
 * configs only.  extra is emptied (its configs moved or freed). */
void mr_matrix_merge(struct mr_matrix *m, struct mr_matrix *extra,
		     const char *const *keys, int nkeys);

/* A pairing of allocators and glibcs (the versions profile, versions.h):
 * while set, a config whose allocator libc_for pairs with one value of
 * the libc axis is built only with that value.  NULL: none. */
void mr_matrix_set_pairing(const char *(*libc_for)(const char *allocator));

/* The case's argv for a config: path, then "--param" "k=v" for every
 * parameter of the case.  Owned, NULL-terminated; free with
 * mr_matrix_argv_free. */
char **mr_matrix_argv(const struct mr_cases_desc *c, const struct mr_matrix_cfg *cfg);
void mr_matrix_argv_free(char **argv);

#endif
