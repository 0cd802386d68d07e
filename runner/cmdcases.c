/* cmdcases: list and describe, the commands about the cases themselves
 * — see cmds.h. */
#include "cmds.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "proc/caseload.h"
#include "proto/cases.h"
#include "proto/schema.h"
#include "session/configs.h"
#include "matrix/select.h"
#include "session/session.h"
#include "core/util.h"

/* "name<TAB>axes<TAB>title"; axes "mode=a|b|c madvise=free|none" or "-". */
static void
list_line(const struct mr_cases_desc *c)
{
	int i, j, n = 0;

	printf("%s\t", c->name);
	for (i = 0; i < c->nparams; i++) {
		const struct mr_cases_param *p = &c->params[i];

		if (!p->axis)
			continue;
		printf("%s%s=", n++ ? " " : "", p->name);
		for (j = 0; j < p->naxis; j++)
			printf("%s%s", j ? "|" : "", p->axis[j]);
	}
	printf("%s\t%s\n", n ? "" : "-", c->title);
}

int
mr_cmd_list(const struct mr_args *o, const struct mr_paths *p)
{
	const char *dir = p->cases_dir;
	char **names;
	int n = mr_cases_discover(dir, &names), i, rc = MR_OK, lrc;

	(void)o;

	if (n < 0) {
		errno = -n;
		weprintf("cases directory %s:", dir);
		return MR_USAGE;
	}
	for (i = 0; i < n; i++) {
		struct mr_cases_desc c;
		struct strbuf err = { 0 };

		if ((lrc = mr_cases_load(dir, names[i], &c, &err)) < 0) {
			fflush(stdout);
			mr_select_load_error(lrc, &err);
			rc = MR_USAGE;
		} else {
			list_line(&c);
			mr_cases_free(&c);
		}
		sb_free(&err);
	}
	mr_cases_free_names(names, n);
	return rc;
}

int
mr_cmd_describe(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_cases_desc *c;
	struct mr_matrix m;
	struct mr_matrix_axis *ax = ecalloc((size_t)o->nax + 1, sizeof *ax);
	struct strbuf err = { 0 };
	int i, rc = MR_OK, nax = o->nax;

	if (mr_select_cases(p->cases_dir, o->names, o->nnames, &c) < 0) {
		free(ax);
		return MR_USAGE;
	}
	/* the runtime axis as run would have it (its default) */
	for (i = 0; i < o->nax; i++)
		mr_matrix_axis_copy(&ax[i], &o->axes[i]);
	mr_configs_default_axes(&ax, &nax, o->originals);
	rc = mr_matrix_check_axes(c, 1, ax, nax, &err) < 0 ||
	     mr_matrix_build(c, ax, nax, o->quick, &m, &err) < 0 ? MR_USAGE : MR_OK;
	for (i = 0; i < nax; i++)
		mr_matrix_axis_free(&ax[i]);
	free(ax);
	if (rc != MR_OK) {
		weprintf("%s", err.s);
		sb_free(&err);
		mr_select_free(c, 1);
		return MR_USAGE;
	}
	printf("%s: %s\n", c->name, c->title);
	printf("source: %s\n", c->source);
	if (c->mechanism)
		printf("mechanism: %s\n", c->mechanism);
	printf("binary: %s\n", c->path);
	if (c->timeout_s)
		printf("timeout: %u s\n", c->timeout_s);
	else
		printf("timeout: runner default (%d s)\n", MR_SESSION_DEFAULT_TIMEOUT_S);
	printf("parameters:\n");
	for (i = 0; i < c->nparams; i++) {
		const struct mr_cases_param *p = &c->params[i];

		printf("  %s: %s\n    default %s, quick %s, allowed %s", p->name, p->help,
		       p->def, p->quick, p->allowed);
		if (p->axis) {
			int j;

			printf(", axis ");
			for (j = 0; j < p->naxis; j++)
				printf("%s%s", j ? "|" : "", p->axis[j]);
		}
		printf("\n");
	}
	if (!c->nparams)
		printf("  (none)\n");
	printf("checkpoints:\n");
	for (i = 0; i < c->nckpts; i++)
		printf("  %s: %s\n", c->ckpts[i].name, c->ckpts[i].help);
	if (!c->nckpts)
		printf("  (none)\n");
	printf("matrix (profile %s): %d config%s\n",
	       mr_profiles[mr_profile_of(o->quick, o->versions, o->originals, o->kernels)],
	       m.n, m.n == 1 ? "" : "s");
	for (i = 0; i < m.n; i++)
		printf("  %s\n", m.cfg[i].canon);
	mr_matrix_free(&m);
	mr_select_free(c, 1);
	return rc;
}
