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

/* One --axis option. */
struct mr_matrix_axis {
	char *key;    /* "allocator", "glibc.<ns>.<name>" or a case parameter */
	char **vals;  /* owned, as given (canonicalised per case later) */
	int nvals;
};

/* Parse "key=v1,v2" into *out.  Returns 0, or -1 with a message in err. */
int mr_matrix_parse_axis(const char *arg, struct mr_matrix_axis *out,
			 struct strbuf *err);
void mr_matrix_axis_free(struct mr_matrix_axis *a);

/* Check every option against the cases it will apply to: a key some case
 * knows (or allocator, or glibc.*), values each such case allows.  A case
 * without the key ignores the option.  A glibc.* key must be a tunable
 * glibc lists (mr_matrix_check_tunable, listed by the loader
 * mr_matrix_ldso names, run with --list-tunables).  Returns 0, or -1 with
 * a message naming the key or value and listing the valid ones in err. */
int mr_matrix_check_axes(const struct mr_cases_desc *cases, int ncases,
			 const struct mr_matrix_axis *ax, int nax,
			 struct strbuf *err);

/* The dynamic loader whose tunables are the valid glibc.* keys:
 * $MEMREPRO_LDSO, else the runner's own (its PT_INTERP, which the cases,
 * built by the same toolchain, have too), else NULL. */
const char *mr_matrix_ldso(void);

/* Whether val is a value glibc takes for tunable key, by listing: the
 * output of `ld.so --list-tunables` ("glibc.malloc.arena_max: 0x0 (min:
 * 0x1, max: 0xffffffffffffffff)" per line), or NULL where the loader
 * cannot list (glibc < 2.33): then only the glibc.malloc.* tunables of
 * glibc's manual up to 2.32 are known, and values are checked as numbers,
 * without bounds.  A number is read as glibc reads it (decimal, 0x hex, 0
 * octal, a sign; all of it); a numeric tunable's value must be within the
 * listed min and max; a string tunable takes any value.  Returns 0, or -1
 * with a message naming key (and val) in err. */
int mr_matrix_check_tunable(const char *listing, const char *key, const char *val,
			    struct strbuf *err);

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
	char *tunables;      /* GLIBC_TUNABLES value "k=v:k=v", or NULL */
	long pressure_mib;   /* the pressure axis: the memory cgroup's limit
	                        in MiB; 0: none (or not an axis) */
};

/* The largest pressure (and --mem-cap) in MiB: 1 TiB. */
#define MR_MATRIX_MAX_MIB 1048576

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

/* The case's argv for a config: path, then "--param" "k=v" for every
 * parameter of the case.  Owned, NULL-terminated; free with
 * mr_matrix_argv_free. */
char **mr_matrix_argv(const struct mr_cases_desc *c, const struct mr_matrix_cfg *cfg);
void mr_matrix_argv_free(char **argv);

#endif
