/* cases: finding case binaries and reading what they say about themselves.
 *
 * A case binary lives in the cases directory under a plain name
 * (mr_name_case of lib/mr_schema.h: never a path) and, run with
 * --describe, prints the description whose format docs/formats.md fixes.  The runner parses it strictly: an
 * unknown line kind, a missing field or a value its own "allowed" does not
 * admit is an error naming the case, line and column.
 */
#ifndef MR_CASES_H
#define MR_CASES_H

#include "core/util.h"
#include "mr_schema.h"

/* One parameter of a case, parsed from a "param" line. */
struct mr_cases_param {
	char *name;       /* [a-z0-9_]+ */
	char *def;        /* default value (canonical form) */
	char *quick;      /* value in the quick profile (canonical form) */
	char *allowed;    /* as printed: "a|b|c" or "int:MIN..MAX" */
	char *help;       /* one line */
	int is_int;       /* allowed is an integer range */
	long long min;    /* the range, when is_int */
	long long max;
	char **enums;     /* the enumeration, when !is_int; owned */
	int nenums;
	char **axis;      /* default axis values (canonical), NULL when not an axis */
	int naxis;
};

/* One checkpoint a case declares. */
struct mr_cases_ckpt {
	char *name;       /* [a-z0-9_-]+ */
	char *help;
};

/* What a case's --describe said, plus where the binary is. */
struct mr_cases_desc {
	char *name;       /* the binary's file name; equals the "name" line */
	char *path;       /* cases dir + "/" + name */
	char *title;
	char *source;
	unsigned timeout_s;            /* 0: the runner's default */
	char *mechanism;  /* one of MR_MECHANISMS (mr_case.h), or NULL: none said */
	struct mr_cases_param *params;  /* in describe order; owned */
	int nparams;
	struct mr_cases_ckpt *ckpts;    /* owned */
	int nckpts;
};

/* List the case binaries in dir: executable regular files (symlinks
 * followed) with a valid name; other entries are ignored.  Stores a sorted,
 * owned array of owned names in *names.  Returns how many, or -errno (the
 * directory cannot be read). */
int mr_cases_discover(const char *dir, char ***names);

/* Free an array from mr_cases_discover. */
void mr_cases_free_names(char **names, int n);

/* Parse describe text (len bytes) of the case called name; origin names it
 * in messages.  Returns 0 or -1 with "<origin>:LINE:COL: msg" in err.
 * Exposed for tests; mr_cases_load (proc/caseload.h) calls it. */
int mr_cases_parse(const char *name, const char *origin, const char *text,
		   size_t len, struct mr_cases_desc *out, struct strbuf *err);

/* Free what *c owns and zero it. */
void mr_cases_free(struct mr_cases_desc *c);

/* The parameter called name, or NULL. */
const struct mr_cases_param *mr_cases_find_param(const struct mr_cases_desc *c,
					   const char *name);

/* Non-zero when c declares the checkpoint called name. */
int mr_cases_has_ckpt(const struct mr_cases_desc *c, const char *name);

/* Check v against p's allowed values.  Returns 0 and a fresh canonical
 * form in *canon (integers without leading zeros or '+'), or -EINVAL. */
int mr_cases_canon_value(const struct mr_cases_param *p, const char *v,
			 char **canon);

#endif
