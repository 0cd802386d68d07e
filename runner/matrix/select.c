/* select: the cases a command runs — see select.h. */
#include "matrix/select.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "proc/caseload.h"

void
mr_select_load_error(int rc, const struct strbuf *err)
{
	if (rc == -2)
		fprintf(stderr, "%s\n", err->s);
	else
		weprintf("%s", err->s);
}

/* The names wanted, into want[] (names[] or all[], no name twice).
 * Returns how many, or -1 after printing every bad or unknown name. */
static int
wanted(const char *dir, char **all, int nall, const char *const *names,
       int nnames, const char **want)
{
	int i, j, nwant = 0, bad = 0;

	if (!nnames) {
		for (i = 0; i < nall; i++)
			want[nwant++] = all[i];
		if (!nall)
			weprintf("no cases in %s", dir);
		return nall ? nwant : -1;
	}
	for (i = 0; i < nnames; i++) {
		const char *nm = names[i];
		int dup = 0;

		if (!mr_name_case(nm)) {
			weprintf("bad case name '%s' (want [a-z0-9][a-z0-9-]*)", nm);
			bad = 1;
			continue;
		}
		for (j = 0; j < nall && strcmp(all[j], nm) != 0; j++)
			;
		if (j == nall) {
			struct strbuf b = { 0 };
			const char *best = NULL;
			int bd = 3;

			for (j = 0; j < nall; j++) {
				int d = mr_edit_distance(nm, all[j]);

				if (d < bd) {
					bd = d;
					best = all[j];
				}
				sb_printf(&b, "%s%s", j ? ", " : "", all[j]);
			}
			if (best)
				weprintf("unknown case '%s'; did you mean '%s'? cases in %s: %s", nm,
					 best, dir, b.s);
			else
				weprintf("unknown case '%s'; cases in %s: %s", nm, dir,
					 nall ? b.s : "(none)");
			sb_free(&b);
			bad = 1;
			continue;
		}
		for (j = 0; j < nwant; j++)
			dup |= strcmp(want[j], nm) == 0;
		if (!dup)
			want[nwant++] = nm;
	}
	return bad ? -1 : nwant;
}

int
mr_select_cases(const char *dir, const char *const *names, int nnames,
		struct mr_cases_desc **out)
{
	char **all = NULL;
	const char **want;
	int nall, nwant, i, n = 0, bad = 0, rc;
	struct mr_cases_desc *v;

	*out = NULL;
	nall = mr_cases_discover(dir, &all);
	if (nall < 0) {
		errno = -nall;
		weprintf("cases directory %s:", dir);
		return -1;
	}
	want = ecalloc((size_t)(nnames ? nnames : nall) + 1, sizeof *want);
	nwant = wanted(dir, all, nall, names, nnames, want);
	bad = nwant < 0;
	v = ecalloc((size_t)(bad ? 0 : nwant) + 1, sizeof *v);
	for (i = 0; !bad && i < nwant; i++) {
		struct strbuf err = { 0 };

		if ((rc = mr_cases_load(dir, want[i], &v[n], &err)) < 0) {
			mr_select_load_error(rc, &err);
			bad = 1;
		} else {
			n++;
		}
		sb_free(&err);
	}
	free(want);
	mr_cases_free_names(all, nall);
	if (bad) {
		mr_select_free(v, n);
		return -1;
	}
	*out = v;
	return n;
}

void
mr_select_free(struct mr_cases_desc *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		mr_cases_free(&v[i]);
	free(v);
}
