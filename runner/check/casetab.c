/* casetab: each case described and its claims parsed once per command —
 * see casetab.h. */
#include "check/casetab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mr_schema.h"
#include "core/safeio.h"
#include "proc/caseload.h"

void
mr_casetab_init(struct mr_casetab *t, const char *cases_dir, const char *expected_dir)
{
	memset(t, 0, sizeof *t);
	t->cases_dir = cases_dir;
	t->expected_dir = expected_dir;
}

void
mr_casetab_free(struct mr_casetab *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		struct mr_casetab_case *e = t->v[i];

		if (e->own) {
			mr_cases_free(e->own);
			free(e->own);
		}
		sb_free(&e->err);
		if (e->parsed)
			mr_claims_free(&e->claims);
		free(e->name);
		free(e);
	}
	free(t->v);
	for (i = 0; i < t->nk; i++) {
		int j;

		for (j = 0; j < t->nkept[i]; j++)
			mr_cases_free(&t->kept[i][j]);
		free(t->kept[i]);
	}
	free(t->kept);
	free(t->nkept);
	memset(t, 0, sizeof *t);
}

/* The entry of name, made empty when there is none. */
static struct mr_casetab_case *
entry(struct mr_casetab *t, const char *name)
{
	struct mr_casetab_case *e;
	int i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i]->name, name) == 0)
			return t->v[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->v = erealloc(t->v, (size_t)t->cap * sizeof *t->v);
	}
	e = ecalloc(1, sizeof *e);
	e->name = estrdup(name);
	t->v[t->n++] = e;
	return e;
}

void
mr_casetab_put(struct mr_casetab *t, const struct mr_cases_desc *d)
{
	struct mr_casetab_case *e = entry(t, d->name);

	if (e->described && e->desc_rc == 0)
		return;
	sb_free(&e->err);
	e->described = 1;
	e->desc_rc = 0;
	e->desc = d;
}

void
mr_casetab_keep(struct mr_casetab *t, struct mr_cases_desc *v, int n)
{
	t->kept = erealloc(t->kept, (size_t)(t->nk + 1) * sizeof *t->kept);
	t->nkept = erealloc(t->nkept, (size_t)(t->nk + 1) * sizeof *t->nkept);
	t->kept[t->nk] = v;
	t->nkept[t->nk++] = n;
}

const struct mr_cases_desc *
mr_casetab_desc(struct mr_casetab *t, const char *name, int *rc,
		const struct strbuf **err)
{
	struct mr_casetab_case *e;

	/* a name from a results file: never a path out of cases_dir */
	if (!t->cases_dir || !mr_name_case(name)) {
		if (rc)
			*rc = -1;
		if (err)
			*err = NULL;
		return NULL;
	}
	e = entry(t, name);
	if (!e->described) {
		e->own = ecalloc(1, sizeof *e->own);
		e->desc_rc = mr_cases_load(t->cases_dir, name, e->own, &e->err);
		e->described = 1;
		if (e->desc_rc == 0)
			e->desc = e->own;
	}
	if (rc)
		*rc = e->desc_rc;
	if (err)
		*err = &e->err;
	return e->desc_rc == 0 ? e->desc : NULL;
}

void
mr_casetab_claims_file(struct mr_casetab *t, const char *name, const char *path)
{
	struct mr_casetab_case *e = entry(t, name);

	if (!e->parsed)
		e->claims_file = path;
}

int
mr_casetab_claims(struct mr_casetab *t, const char *name, const struct mr_claims **cs)
{
	struct mr_casetab_case *e = entry(t, name);

	if (!e->parsed) {
		if (e->claims_file) {
			e->claims_rc = mr_claims_read(e->claims_file, &e->claims);
		} else if (t->expected_dir) {
			char *dir = mr_sio_path(t->expected_dir, name);
			char *path = esprintf("%s.claims", dir);

			e->claims_rc = mr_claims_read(path, &e->claims);
			free(path);
			free(dir);
		} else {
			memset(&e->claims, 0, sizeof e->claims);
			e->claims_rc = -ENOENT;
		}
		e->parsed = 1;
	}
	*cs = &e->claims;
	return e->claims_rc;
}
