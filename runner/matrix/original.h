/* original: the header of a report's own program beside its model
 * (cases/<case>.js, cases/<case>.rb), docs/originals.md.
 *
 * Among the first MR_ORIGINAL_HEAD lines, comment lines ("//" in
 * JavaScript, "#" in Ruby) that start "memrepro:" declare how the program
 * runs under a config of its model:
 *   params P...     the model's parameters it takes, as --param P=V
 *   ignores P...    the model's parameters that model the runtime itself:
 *                   not passed, any value
 *   flags F...      interpreter options before the script
 *   env P=V VAR=X   the environment the parameter value P=V sets
 * A config with any other parameter at a value other than the model's
 * default is not the original's: its runs are skipped with the reason.
 */
#ifndef MR_ORIGINAL_H
#define MR_ORIGINAL_H

#include "core/util.h"
#include "proto/cases.h"
#include "matrix/matrix.h"

#define MR_ORIGINAL_HEAD 60      /* lines read for directives */
#define MR_ORIGINAL_MAX (1u << 20) /* the largest program read */
#define MR_ORIGINAL_MAX_ENV 8    /* env lines */

struct mr_original_env {
	char *param, *value; /* the parameter value (canonical) */
	char *assign;        /* "VAR=X" */
};

struct mr_original {
	char *path;
	char **params, **ignores, **flags; /* NULL-terminated, owned */
	int nparams, nignores, nflags;
	struct mr_original_env *env;
	int nenv;
};

/* Read the header of path (comment: "//" or "#") for case c.  Returns 0;
 * -ENOENT when there is no such file (nothing printed); -1 when the file
 * is bad (printed as path:line:col: why). */
int mr_original_read(const char *path, const char *comment,
		     const struct mr_cases_desc *c, struct mr_original *o);
void mr_original_free(struct mr_original *o);

/* Why config (kv[0..nkv-1], sorted pairs as the matrix has them) is not
 * one the original can run: a fresh "cases/x.js takes no parameter P
 * (P=V here, default D)", or NULL when it can. */

char *mr_original_skip(const struct mr_original *o, const struct mr_cases_desc *c,
		       const struct mr_matrix_kv *kv, int nkv);

/* The program's arguments after the interpreter's own: flags, the script,
 * then --param P=V for each parameter it takes; appended to argv at *n
 * (room for o->nflags + 1 + 2 * o->nparams).  And the environment the
 * config's values set, appended to env at *ne (room for o->nenv). */
void mr_original_args(const struct mr_original *o, const struct mr_matrix_kv *kv, int nkv,
		      char **argv, int *n, char **env, int *ne);

#endif
