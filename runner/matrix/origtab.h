/* origtab: the originals and runtimes a session's configs name.
 *
 * A config with a runtime (the runtime axis, matrix/axes.h) runs the
 * report's own program beside the model: the case's original
 * (matrix/original.h) under that interpreter (matrix/runtime.h).  Each runtime
 * is resolved once (fetched into the cache when it must be), each
 * original's header read once, before any run.
 */
#ifndef MR_ORIGTAB_H
#define MR_ORIGTAB_H

#include "proto/cases.h"
#include "matrix/envfp.h"
#include "matrix/libc.h"
#include "matrix/matrix.h"
#include "matrix/original.h"
#include "matrix/runtime.h"

struct mr_origtab {
	struct mr_runtime *rt;      /* one per runtime value the configs name */
	int nrt;
	struct mr_original *orig;   /* one per (case, language) run */
	char **orig_case;           /* the case of orig[i] (not owned) */
	int norig;
};

/* Resolve every runtime the configs of mats (one per case) name and read
 * the header of each original they run.  Returns 0, or -1 when an
 * original's header is bad (printed as path:line:col). */
int mr_origtab_prepare(struct mr_origtab *t, const struct mr_cases_desc *cases,
		       int ncases, const struct mr_matrix *mats);

/* Config cf of case c runs an original (cf->runtime set): its argv (the
 * interpreter's, the program's) into *argv, with a libc of its own (l,
 * not the host's) through that libc's loader, and the variables the
 * runtime and the config's values set appended to env at *ne (room for
 * MR_ORIGTAB_ENV).  Returns NULL, or why the run is skipped (fresh). */
#define MR_ORIGTAB_ENV 16
char *mr_origtab_job(const struct mr_origtab *t, const struct mr_cases_desc *c,
		     const struct mr_matrix_cfg *cf, const struct mr_libc *l,
		     const char *preload, char ***argv, char **env, int *ne);

/* env.tsv: each runtime's version, where it came from, the sha256 of its
 * interpreter (and of its library), or why it is missing. */
void mr_origtab_env(const struct mr_origtab *t, struct mr_envfp *fp);

void mr_origtab_free(struct mr_origtab *t);

#endif
