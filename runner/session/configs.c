/* configs: the cases of a session and their matrices — see configs.h. */
#include "session/configs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/casetab.h"
#include "check/claims.h"
#include "core/tsv.h"
#include "core/util.h"
#include "matrix/allocrel.h"
#include "matrix/cmdcase.h"
#include "matrix/langs.h"
#include "matrix/libc.h"
#include "matrix/select.h"
#include "matrix/tunables.h"
#include "matrix/runtime.h"
#include "matrix/versions.h"

/* The configs the axis directives of case c's claims file add to its
 * matrix m (claims.h), for each directive whose key the axes ax (the
 * command line's) do not name: m built again with the directive's axis
 * beside ax, and the configs it has that m has not appended.  An option
 * of an allocator no config of m has adds nothing.  Returns 0, or -1
 * after printing "path:line:col: ..." (a bad directive). */
static int
claim_axes(struct mr_casetab *tab, const struct mr_cases_desc *c,
	   const struct mr_matrix_axis *ax, int nax, int quick, struct mr_matrix *m)
{
	const struct mr_claims *cs;
	int rc = 0, crc, d, i, k;

	crc = mr_casetab_claims(tab, c->name, &cs);
	if (crc == -ENOENT || (crc == 0 && cs->naxis == 0))
		return 0;
	if (crc < 0)
		return -1;
	for (d = 0; rc == 0 && d < cs->naxis; d++) {
		const struct mr_claims_axis *ca = &cs->axis[d];
		struct mr_matrix_axis *all = ecalloc((size_t)nax + 2, sizeof *all);
		struct strbuf err = { 0 };
		struct mr_matrix extra;
		const char *key = ca->key, *var;
		int on = 0;

		for (i = 0; i < nax && strcmp(ax[i].key, key) != 0; i++)
			;
		if (i < nax) { /* the command line's axis of it wins */
			free(all);
			continue;
		}
		for (k = 0; k < m->n; k++)
			on |= mr_matrix_option_key(key) == 0 ||
			      mr_matrix_option_applies(key, m->cfg[k].allocator);
		/* an allocator that is unknown or takes no options: said so */
		if (mr_matrix_option_key(key))
			on |= mr_matrix_option_var(key, mr_matrix_option_key(key), &var) ==
			      MR_MATRIX_OPT_NONE;
		for (i = 0; i < nax; i++)
			all[i] = ax[i];
		all[nax].key = ca->key;
		all[nax].vals = ca->val;
		all[nax].nvals = ca->nval;
		if (strncmp(key, "glibc.", 6) != 0 && !mr_matrix_option_key(key)) {
			sb_printf(&err, "axis %s: not an allocator option (jemalloc.dirty_decay_ms) or a glibc tunable (glibc.malloc.mmap_threshold)",
				  key);
			rc = -1;
		} else if (on && (mr_matrix_check_axes(c, 1, all, nax + 1, &err) < 0 ||
				  mr_matrix_build(c, all, nax + 1, quick, &extra, &err) < 0)) {
			rc = -1;
		} else if (on) {
			mr_matrix_merge(m, &extra, &key, 1);
		}
		if (rc < 0)
			mr_errat(cs->path, ca->line, ca->col, "%s",
				 strncmp(err.s, "--axis ", 7) == 0 ? err.s + 7 : err.s);
		sb_free(&err);
		free(all);
	}
	return rc;
}

/* What the configs of the session name, checked before anything runs:
 * some config at all, and each versioned runtime a config has one that
 * exists (matrix/runtime.h resolves it, as `fetch` does: a version npm or no
 * release has is a usage error, and so is a malformed one: node@abc;
 * one that cannot be fetched now is the runs' skip reason).  0, or -1 with the message in err. */
static int
check_selected(const struct mr_cases_desc *cases, int ncases, const struct mr_matrix *mats,
	       const struct mr_matrix_axis *ax, int nax, struct strbuf *err)
{
	int i, k, a, total = 0, rc = 0;

	for (i = 0; i < ncases; i++)
		total += mats[i].n;
	if (total == 0) {
		sb_add(err, "the axes select no config of ");
		for (i = 0; i < ncases; i++)
			sb_printf(err, "%s%s", i ? ", " : "", cases[i].name);
		for (a = 0; a < nax && strcmp(ax[a].key, MR_KEY_RUNTIME) != 0; a++)
			;
		if (a < nax) {
			sb_printf(err, " (--axis %s=", ax[a].key);
			for (k = 0; k < ax[a].nvals; k++)
				sb_printf(err, "%s%s", k ? "," : "", ax[a].vals[k]);
			sb_add(err, ": none of these cases has an original for it, CASE.js, CASE.rb, CASE.py or CASE.go beside its model; runtime c is the model)");
		}
		return -1;
	}
	for (i = 0; rc == 0 && i < ncases; i++) {
		for (k = 0; rc == 0 && k < mats[i].n; k++) {
			const char *spec = mats[i].cfg[k].runtime;
			struct mr_runtime rt;
			struct strbuf why = { 0 };

			if (!spec || !strchr(spec, '@'))
				continue; /* the host's */
			if (mr_runtime_get(spec, &rt, &why) < 0) {
				/* malformed (node@abc): no config of it could run */
				sb_printf(err, "--axis %s: %s", MR_KEY_RUNTIME, why.s ? why.s : spec);
				sb_free(&why);
				rc = -1;
				continue;
			}
			if (rt.unknown) {
				sb_printf(err, "--axis %s: %s", MR_KEY_RUNTIME, rt.missing);
				rc = -1;
			}
			mr_runtime_free(&rt);
		}
	}
	return rc;
}

/* Add axis key=vals (comma-separated) to *ax unless it is there. */
static void
add_axis(struct mr_matrix_axis **ax, int *nax, const char *key, const char *vals)
{
	struct mr_matrix_axis a;
	struct strbuf err = { 0 };
	char *arg;
	int i;

	for (i = 0; i < *nax; i++)
		if (strcmp((*ax)[i].key, key) == 0)
			return;
	arg = esprintf("%s=%s", key, vals);
	if (mr_matrix_parse_axis(arg, &a, &err) < 0)
		eprintf("%s", err.s); /* the values are ours */
	free(arg);
	*ax = erealloc(*ax, (size_t)(*nax + 1) * sizeof **ax);
	(*ax)[(*nax)++] = a;
}

void
mr_configs_default_axes(struct mr_matrix_axis **ax, int *nax, int originals)
{
	if (originals) {
		add_axis(ax, nax, MR_KEY_RUNTIME, MR_CONFIGS_ORIGINALS);
	} else {
		/* the host's interpreters of the default axis, those it has */
		struct strbuf v = { 0 };
		const struct mr_lang *l;

		sb_add(&v, MR_RUNTIME_MODEL);
		for (l = mr_langs; l->name; l++)
			if (l->default_axis && mr_runtime_on_host(l->name))
				sb_printf(&v, ",%s", l->name);
		add_axis(ax, nax, MR_KEY_RUNTIME, v.s);
		sb_free(&v);
	}
	if (originals)
		add_axis(ax, nax, "allocator", "glibc,jemalloc");
}

int
mr_configs_build(const struct mr_configs_opts *o, struct mr_cases_desc **cases,
		 int *ncases, struct mr_matrix **mats, int *built)
{
	struct mr_matrix_axis *axes = NULL, *given = NULL;
	struct mr_casetab *tab = o->tab;
	struct strbuf err = { 0 };
	int i, rc = 0, nax = o->nax;

	*ncases = o->command ? mr_cmdcase_select(o->command, cases) :
		  mr_select_cases(o->cases_dir, o->names, o->nnames, cases);
	if (*ncases < 0) {
		*ncases = 0;
		return -1;
	}
	for (i = 0; i < *ncases; i++) /* described once: the command's later steps ask the table */
		mr_casetab_put(tab, &(*cases)[i]);
	*mats = ecalloc((size_t)*ncases + 1, sizeof **mats);
	/* the versions profile: the releases' allocators and glibcs, where
	 * the command line names none */
	given = ecalloc((size_t)nax + 1, sizeof *given);
	for (i = 0; i < nax; i++)
		mr_matrix_axis_copy(&given[i], &o->axes[i]);
	if (o->versions && mr_versions_axes(&given, &nax, &err) < 0)
		rc = -1;
	if (o->command && rc == 0 && mr_cmdcase_axes(&given, &nax, o->self_exe, &err) < 0)
		rc = -1; /* a command: no runtime axis, its allocators */
	else if (!o->versions && !o->command)
		mr_configs_default_axes(&given, &nax, o->originals);
	if (rc == 0 && mr_matrix_check_axes(*cases, *ncases, given, nax, &err) < 0)
		rc = -1;
	/* jemalloc@sid made jemalloc@5.3.1 (fetched: the cache has it then) */
	if (rc == 0 && mr_allocrel_normalise(given, nax, &axes, &err) < 0)
		rc = -1;
	if (rc == 0) {
		/* the other glibcs: fetched, and their own tunables */
		rc = mr_libc_prepare(axes, nax, &err);
		for (i = 0; rc == 0 && i < mr_libc_count(); i++) {
			const struct mr_libc *l = mr_libc_at(i);

			if (!l->host && !l->missing &&
			    mr_matrix_check_tunables(axes, nax, l->loader, l->version, &err) < 0)
				rc = -1;
		}
	}
	if (rc == 0 && o->versions) {
		mr_versions_pair(axes, nax);
		mr_matrix_set_pairing(mr_versions_libc_for);
	}
	for (i = 0; rc == 0 && i < *ncases; i++, (*built)++)
		if (mr_matrix_build(&(*cases)[i], axes, nax, o->quick, &(*mats)[i], &err) < 0)
			rc = -1;
		else if (claim_axes(tab, &(*cases)[i], axes, nax, o->quick, &(*mats)[i]) < 0)
			rc = -2;
	if (rc == 0 && check_selected(*cases, *ncases, *mats, axes, nax, &err) < 0)
		rc = -1;
	mr_matrix_set_pairing(NULL);
	mr_versions_free();
	if (rc == -1)
		weprintf("%s", err.s);
	sb_free(&err);
	for (i = 0; i < nax; i++) {
		if (axes)
			mr_matrix_axis_free(&axes[i]);
		mr_matrix_axis_free(&given[i]);
	}
	free(axes);
	free(given);
	return rc;
}

