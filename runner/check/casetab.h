/* casetab: what one command has read of each case, read once.
 *
 * A command's steps each want a case's --describe (the session's
 * matrices, check's checkpoint names, report's titles, corpus's groups)
 * and its claims file (the session's axis directives and timed plan,
 * check's claims).  Running a case binary and parsing a file again for
 * each step costs time and could see a file that changed in between: the
 * table keeps the first answer, success or failure, for the rest of the
 * command.  Lookups are by case name; a name not yet seen is described or
 * parsed on the spot.
 */
#ifndef MR_CASETAB_H
#define MR_CASETAB_H

#include "check/claims.h"
#include "core/util.h"
#include "proto/cases.h"

/* One case's entry. */
struct mr_casetab_case {
	char *name;                       /* (owned) */
	int described;                    /* desc_rc is known */
	int desc_rc;                      /* mr_cases_load's return */
	const struct mr_cases_desc *desc; /* when desc_rc is 0: borrowed
	                                     (mr_casetab_put) or own */
	struct mr_cases_desc *own;        /* the description it made (owned) */
	struct strbuf err;                /* why it could not describe */
	const char *claims_file;          /* the claims are read from here,
	                                     not expected_dir (borrowed;
	                                     mr_casetab_claims_file) */
	int parsed;                       /* claims_rc is known */
	int claims_rc;                    /* mr_claims_read's return */
	struct mr_claims claims;          /* (owned) */
};

struct mr_casetab {
	const char *cases_dir;    /* where the binaries are; NULL: none */
	const char *expected_dir; /* where the claims are; NULL: none */
	struct mr_casetab_case **v; /* in order of first lookup, each owned
	                               (what a lookup returns stays put) */
	int n, cap;
	struct mr_cases_desc **kept; /* arrays handed over (mr_casetab_keep) */
	int *nkept;                  /* their lengths */
	int nk;
};

/* An empty table over the directories (borrowed, NULL for none). */
void mr_casetab_init(struct mr_casetab *t, const char *cases_dir,
		     const char *expected_dir);

/* Free what t owns; borrowed descriptions are left alone. */
void mr_casetab_free(struct mr_casetab *t);

/* Enter a description made elsewhere (run/select.h's), borrowed: it must
 * outlive every lookup of its name.  An entry that already has one keeps
 * it. */
void mr_casetab_put(struct mr_casetab *t, const struct mr_cases_desc *d);

/* Hand over v[0..n-1], an owned array of descriptions (run/select.h's,
 * entered with mr_casetab_put): freed with the table, so that what was
 * entered outlives its maker. */
void mr_casetab_keep(struct mr_casetab *t, struct mr_cases_desc *v, int n);

/* The description of case name: the one entered or made before, else
 * cases_dir/name --describe now (mr_cases_load).  NULL when there is no
 * cases_dir, name is not a valid case name, or the case could not
 * describe itself; *rc (when not NULL) is then mr_cases_load's return
 * (or -1) and *err (when not NULL) its message, kept in the table. */
const struct mr_cases_desc *mr_casetab_desc(struct mr_casetab *t, const char *name,
					    int *rc, const struct strbuf **err);

/* Read the claims of case name from path (borrowed: it must outlive the
 * table) instead of expected_dir/name.claims: `run -- CMD --claims FILE`.
 * Called before the first lookup of its claims, which it would not
 * change. */
void mr_casetab_claims_file(struct mr_casetab *t, const char *name, const char *path);

/* The claims of case name, parsed from expected_dir/name.claims (or the
 * file mr_casetab_claims_file named) the first
 * time (mr_claims_read: its messages are printed then, once).  Returns
 * mr_claims_read's return, the same each time: 0 with *cs the claims;
 * -ENOENT (also without an expected_dir) or -1 with *cs empty.  *cs
 * belongs to the table. */
int mr_casetab_claims(struct mr_casetab *t, const char *name,
		      const struct mr_claims **cs);

#endif
