/* axes: the --axis options, parsed and checked against the cases.
 *
 * An axis is "key=v1,v2": allocator, a case parameter, a glibc.* tunable
 * (GLIBC_TUNABLES), the runner's pressure, or an allocator's option
 * (NAME.key, see mr_matrix_option).  Parsing checks the spelling; checking
 * checks each key and value against the cases and the glibc that will run
 * them.
 */
#ifndef MR_AXES_H
#define MR_AXES_H

#include "proto/cases.h"
#include "proto/schema.h"
#include "core/util.h"
#include "matrix/axis.h"

/* The largest pressure (and --mem-cap) in MiB: 1 TiB. */
#define MR_MATRIX_MAX_MIB 1048576


/* Parse "key=v1,v2" into *out.  Returns 0, or -1 with a message in err. */
int mr_matrix_parse_axis(const char *arg, struct mr_matrix_axis *out,
			 struct strbuf *err);
void mr_matrix_axis_free(struct mr_matrix_axis *a);
/* A deep copy of a into *out. */
void mr_matrix_axis_copy(struct mr_matrix_axis *out, const struct mr_matrix_axis *a);

/* Check every option against the cases it will apply to: a key some case
 * knows (or allocator, or glibc.*), values each such case allows.  A case
 * without the key ignores the option.  A glibc.* key must be a tunable
 * glibc lists (tunables.h), checked here against the host's loader when
 * the host's glibc runs some config (the session checks every other glibc
 * of the libc axis); libc values must be versions; an allocator option
 * must be of an allocator that takes options and some config has.
 * Returns 0, or -1 with a message naming the key or value and listing the
 * valid ones in err. */
int mr_matrix_check_axes(const struct mr_cases_desc *cases, int ncases,
			 const struct mr_matrix_axis *ax, int nax,
			 struct strbuf *err);


/* How an allocator's options reach it (mr_matrix_option_var). */
enum {
	MR_MATRIX_OPT_NONE,  /* it takes none */
	MR_MATRIX_OPT_CONF,  /* one variable, "k:v,k:v" in key order, after
	                        what the runner inherited in it (jemalloc's
	                        MALLOC_CONF: later pairs win) */
	MR_MATRIX_OPT_ENV,   /* a variable per option: var prefix and the
	                        key upper-cased (MIMALLOC_PURGE_DELAY=0),
	                        replacing an inherited one */
};

/* An allocator's option axis key, "<allocator>.<option>" (the name
 * [a-z0-9_-]+, the option [a-z0-9_]+; glibc.* are tunables, not this): the length of the
 * allocator's name, or 0 when key is not one. */
size_t mr_matrix_option_key(const char *key);

/* How the options of the allocator named by name[0..len) travel: its
 * MR_MATRIX_OPT_* kind, and in *var the variable (CONF) or the prefix
 * (ENV); NONE with *var NULL for an allocator without options (or not
 * in the run's registry, mr_registry_current). */
int mr_matrix_option_var(const char *name, size_t len, const char **var);

/* Whether option axis key applies to a config whose allocator is the
 * spec allocator ("jemalloc.narenas" to "jemalloc" and "jemalloc@5.2.1"):
 * 1 or 0. */
int mr_matrix_option_applies(const char *key, const char *allocator);

/* The variable option axis key's values go into ("MALLOC_CONF",
 * "MIMALLOC_PURGE_DELAY"): owned, or NULL when key is not an option. */
char *mr_matrix_option_variable(const char *key);

/* Whether v is a value of the libc axis: a glibc version, MAJOR.MINOR
 * ("2.41"), 1 or 0. */
int mr_matrix_libc_version(const char *v);

/* The runtime axis (MR_KEY_RUNTIME, proto/schema.h): MR_RUNTIME_MODEL,
 * the model (the default), or the interpreter of the report's own program
 * beside it, node[@VERSION] or ruby[@VERSION] (docs/originals.md). */

/* The file extension of the original runtime value v runs ("js" for
 * node[@V], "rb" for ruby[@V]); NULL for the model or a bad value. */
const char *mr_matrix_runtime_ext(const char *v);

/* Whether case c has what runtime value v runs: the model always, an
 * original when the file c->path.EXT is there. */
int mr_matrix_has_original(const struct mr_cases_desc *c, const char *v);

/* A value of the pressure axis: "none" or MiB as a plain decimal in
 * 1..MR_MATRIX_MAX_MIB.  Returns the MiB (0 for none) or -1. */
long mr_matrix_pressure_value(const char *v);

#endif
