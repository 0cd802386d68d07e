/* select: the cases a command runs, by name or all, loaded.
 *
 * The names come from the command line: each must be a valid case name
 * and a case of the cases directory; a name given twice counts once.  No
 * names: every case found, in discovery (sorted) order.
 */
#ifndef MR_SELECT_H
#define MR_SELECT_H

#include "proto/cases.h"
#include "core/util.h"

/* Load the named cases of dir (names[0..nnames-1]; nnames 0: all of them)
 * into *out, an owned array (mr_select_free).  Returns how many, or -1
 * after printing every problem (bad names, unknown cases, bad describes);
 * *out is NULL then. */
int mr_select_cases(const char *dir, const char *const *names, int nnames,
		    struct mr_cases_desc **out);

/* Free what mr_select_cases stored: v[0..n-1], then v. */
void mr_select_free(struct mr_cases_desc *v, int n);

/* Print an error of mr_cases_load (its rc and err): a bad description (-2)
 * is input with a position, one line in the compiler form (docs/formats.md)
 * with no program name; other failures are the runner's own. */
void mr_select_load_error(int rc, const struct strbuf *err);

#endif
