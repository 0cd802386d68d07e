/* matrix: expand a case's dimensions into canonical configs. */
#include "matrix/matrix.h"

#include <stdlib.h>
#include <string.h>

#include "proto/schema.h"
#include "matrix/registry.h"

/* A matrix larger than this is a typo in --axis, not an experiment. */
#define MATRIX_MAX 100000

/* One dimension of the product. */
struct dim {
	const char *key;
	char **vals;   /* owned copies, canonical */
	int nvals;
};

static const struct mr_matrix_axis *
find_axis(const struct mr_matrix_axis *ax, int nax, const char *key)
{
	const struct mr_matrix_axis *hit = NULL;
	int i;

	for (i = 0; i < nax; i++) /* the last one given wins */
		if (strcmp(ax[i].key, key) == 0)
			hit = &ax[i];
	return hit;
}

static void
dim_add(struct dim *d, char *v)
{
	int i;

	for (i = 0; i < d->nvals; i++) {
		if (strcmp(d->vals[i], v) == 0) { /* "01" and "1" are one value */
			free(v);
			return;
		}
	}
	d->vals = erealloc(d->vals, (size_t)(d->nvals + 1) * sizeof *d->vals);
	d->vals[d->nvals++] = v;
}

static int
cmp_dim(const void *a, const void *b)
{
	return strcmp(((const struct dim *)a)->key, ((const struct dim *)b)->key);
}

/* The file-name form of a short config: '=' -> '-', ',' -> '+'.  Keys
 * have no '-' and values no '+', so distinct configs stay distinct. */
static char *
safe_name(const char *shortc, int index)
{
	char *s, *p;

	if (!*shortc)
		return estrdup("default");
	if (strlen(shortc) > 200)
		return esprintf("long.%d", index + 1);
	s = estrdup(shortc);
	for (p = s; *p; p++) {
		if (*p == '=')
			*p = '-';
		else if (*p == ',')
			*p = '+';
	}
	return s;
}

/* "MALLOC_CONF=<inherited>,k:v,k:v" for the CONF options of allocator
 * alloc among kv, "MIMALLOC_K=v" for each ENV one: into env[*n]. */
static void
option_env(const struct mr_matrix_kv *kv, int nkv, char **env, int *n)
{
	struct strbuf conf = { 0 };
	const char *var = NULL, *cvar = NULL, *old;
	int i;

	for (i = 0; i < nkv; i++) {
		size_t len = mr_matrix_option_key(kv[i].key);
		int kind = len ? mr_matrix_option_var(kv[i].key, len, &var) : MR_MATRIX_OPT_NONE;
		char *name;

		if (kind == MR_MATRIX_OPT_CONF) {
			if (!conf.len && (old = getenv(var)) && *old)
				sb_printf(&conf, "%s", old);
			sb_printf(&conf, "%s%s:%s", conf.len ? "," : "", kv[i].key + len + 1, kv[i].val);
			cvar = var;
		} else if (kind == MR_MATRIX_OPT_ENV) {
			name = mr_matrix_option_variable(kv[i].key);
			env[(*n)++] = esprintf("%s=%s", name, kv[i].val);
			free(name);
		}
	}
	if (cvar) {
		env[(*n)++] = esprintf("%s=%s", cvar, conf.s);
		sb_free(&conf);
	}
}

static const char *(*pairing)(const char *allocator);

void
mr_matrix_set_pairing(const char *(*libc_for)(const char *allocator))
{
	pairing = libc_for;
}

/* Whether an original (runtime value rt) runs under allocator alloc
 * when no --axis allocator= names the allocators: under the two the
 * reports compare, glibc and jemalloc (any version), as the models run
 * under every allocator of the registry's default axis. */
static int
original_allocator(const char *rt, const char *alloc, int alloc_given)
{
	if (alloc_given || !rt || !alloc || !strcmp(rt, MR_RUNTIME_MODEL))
		return 1;
	return !strcmp(alloc, MR_ALLOC_GLIBC) || !strncmp(alloc, "jemalloc", 8);
}

/* Config cf of the dimensions' values idx: -1 when it is a copy of an
 * earlier one (an option of another allocator than cf's, at other than
 * its first value), left out by the pairing, or an original's under an
 * allocator it does not run under, else 0. */
static int
make_cfg(const struct dim *d, int nd, const int *idx, int index, int alloc_given,
	 struct mr_matrix_cfg *cf)
{
	struct strbuf canon = { 0 }, shortc = { 0 }, tun = { 0 };
	const char *alloc = NULL, *libc = NULL, *rt = NULL, *want;
	int i, n = 0, nenv = 0;

	for (i = 0; i < nd; i++) {
		if (strcmp(d[i].key, "allocator") == 0)
			alloc = d[i].vals[idx[i]];
		if (strcmp(d[i].key, "libc") == 0)
			libc = d[i].vals[idx[i]];
		if (strcmp(d[i].key, MR_KEY_RUNTIME) == 0)
			rt = d[i].vals[idx[i]];
	}
	if (!original_allocator(rt, alloc, alloc_given))
		return -1;
	for (i = 0; i < nd; i++)
		if (mr_matrix_option_key(d[i].key) && !mr_matrix_option_applies(d[i].key, alloc) &&
		    idx[i] != 0)
			return -1;
	if (pairing && libc && (want = pairing(alloc)) != NULL && strcmp(want, libc) != 0)
		return -1;
	memset(cf, 0, sizeof *cf);
	cf->kv = ecalloc((size_t)nd, sizeof *cf->kv);
	for (i = 0; i < nd; i++) {
		const char *kk = d[i].key, *vv = d[i].vals[idx[i]];

		if (mr_matrix_option_key(kk) && !mr_matrix_option_applies(kk, alloc))
			continue;
		if (strcmp(kk, MR_KEY_RUNTIME) == 0 && strcmp(vv, MR_RUNTIME_MODEL) == 0)
			continue; /* the model: the config as without the axis */
		cf->kv[n].key = estrdup(kk);
		cf->kv[n].val = estrdup(vv);
		vv = cf->kv[n].val;
		sb_printf(&canon, "%s%s=%s", n ? "," : "", kk, vv);
		if (d[i].nvals > 1)
			sb_printf(&shortc, "%s%s=%s", shortc.len ? "," : "", kk, vv);
		if (strncmp(kk, "glibc.", 6) == 0)
			sb_printf(&tun, "%s%s=%s", tun.len ? ":" : "", kk, vv);
		if (mr_matrix_option_key(kk))
			nenv++;
		if (strcmp(kk, "allocator") == 0)
			cf->allocator = vv;
		if (strcmp(kk, "libc") == 0)
			cf->libc = vv;
		if (strcmp(kk, "pressure") == 0)
			cf->pressure_mib = mr_matrix_pressure_value(vv);
		if (strcmp(kk, MR_KEY_RUNTIME) == 0)
			cf->runtime = vv;
		n++;
	}
	cf->nkv = n;
	if (nenv) {
		int ne = 0;

		cf->optenv = ecalloc((size_t)nenv + 1, sizeof *cf->optenv);
		option_env(cf->kv, cf->nkv, cf->optenv, &ne);
	}
	cf->canon = canon.s;
	cf->shortc = shortc.s ? shortc.s : estrdup("");
	cf->tunables = tun.s;
	cf->safe = safe_name(cf->shortc, index);
	return 0;
}

int
mr_matrix_build(const struct mr_cases_desc *c, const struct mr_matrix_axis *ax,
		int nax, int quick, struct mr_matrix *m, struct strbuf *err)
{
	struct dim *d = ecalloc((size_t)c->nparams + (size_t)nax + 2, sizeof *d);
	const struct mr_matrix_axis *o;
	int nd = 0, i, j, rc = 0, *idx = NULL;
	long total = 1, k;

	memset(m, 0, sizeof *m);
	d[nd].key = "allocator";
	if ((o = find_axis(ax, nax, "allocator")) != NULL)
		for (j = 0; j < o->nvals; j++)
			dim_add(&d[nd], estrdup(o->vals[j]));
	else
		for (j = 0; mr_registry_current() && j < mr_registry_current()->n; j++)
			if (mr_registry_current()->e[j].in_default_axis)
				dim_add(&d[nd], estrdup(mr_registry_current()->e[j].name));
	nd++;
	for (i = 0; i < c->nparams; i++) {
		const struct mr_cases_param *p = &c->params[i];

		d[nd].key = p->name;
		if ((o = find_axis(ax, nax, p->name)) != NULL) {
			for (j = 0; j < o->nvals; j++) {
				char *v;

				if (mr_cases_canon_value(p, o->vals[j], &v) < 0) {
					sb_printf(err, "--axis %s: value '%s' is not allowed by case %s; allowed: %s",
						  p->name, o->vals[j], c->name, p->allowed);
					rc = -1;
					goto out;
				}
				dim_add(&d[nd], v);
			}
		} else if (p->axis) {
			for (j = 0; j < p->naxis; j++)
				dim_add(&d[nd], estrdup(p->axis[j]));
		} else {
			dim_add(&d[nd], estrdup(quick ? p->quick : p->def));
		}
		nd++;
	}
	for (i = 0; i < nax; i++) {
		if ((strncmp(ax[i].key, "glibc.", 6) != 0 && !mr_matrix_option_key(ax[i].key) &&
		     strcmp(ax[i].key, "libc") != 0 && strcmp(ax[i].key, MR_KEY_RUNTIME) != 0) ||
		    find_axis(ax, nax, ax[i].key) != &ax[i])
			continue;
		d[nd].key = ax[i].key;
		for (j = 0; j < ax[i].nvals; j++)
			/* a runtime the case has no original for: no config */
			if (strcmp(ax[i].key, MR_KEY_RUNTIME) != 0 ||
			    mr_matrix_has_original(c, ax[i].vals[j]))
				dim_add(&d[nd], estrdup(ax[i].vals[j]));
		nd++;
	}
	if ((o = find_axis(ax, nax, "pressure")) != NULL) {
		d[nd].key = "pressure";
		for (j = 0; j < o->nvals; j++) {
			long mib = mr_matrix_pressure_value(o->vals[j]);

			if (mib < 0) {
				sb_printf(err, "--axis pressure: bad value '%s'", o->vals[j]);
				rc = -1;
				goto out;
			}
			dim_add(&d[nd], mib ? esprintf("%ld", mib) : estrdup("none"));
		}
		nd++;
	}
	qsort(d, (size_t)nd, sizeof *d, cmp_dim);
	for (i = 0; i < nd; i++) {
		total *= d[i].nvals;
		if (total > MATRIX_MAX) {
			sb_printf(err, "case %s: the matrix has more than %d configs", c->name, MATRIX_MAX);
			rc = -1;
			goto out;
		}
		if (d[i].nvals > 1)
			m->nvary++;
	}
	m->cfg = ecalloc((size_t)total, sizeof *m->cfg);
	idx = ecalloc((size_t)nd, sizeof *idx);
	for (k = 0; k < total; k++) {
		struct mr_matrix_cfg *cf = &m->cfg[m->n];
		long rest = k;

		/* first key slowest: index digits from the last dimension */
		for (i = nd - 1; i >= 0; i--) {
			idx[i] = (int)(rest % d[i].nvals);
			rest /= d[i].nvals;
		}
		if (make_cfg(d, nd, idx, m->n, find_axis(ax, nax, "allocator") != NULL, cf) == 0)
			m->n++;
	}
out:
	for (i = 0; i < nd; i++) {
		for (j = 0; j < d[i].nvals; j++)
			free(d[i].vals[j]);
		free(d[i].vals);
	}
	free(d);
	free(idx);
	if (rc)
		mr_matrix_free(m);
	return rc;
}

static void
cfg_free(struct mr_matrix_cfg *cf)
{
	int i;

	for (i = 0; i < cf->nkv; i++) {
		free(cf->kv[i].key);
		free(cf->kv[i].val);
	}
	free(cf->kv);
	free(cf->canon);
	free(cf->shortc);
	free(cf->safe);
	free(cf->tunables);
	for (i = 0; cf->optenv && cf->optenv[i]; i++)
		free(cf->optenv[i]);
	free(cf->optenv);
}

void
mr_matrix_free(struct mr_matrix *m)
{
	int k;

	for (k = 0; k < m->n; k++)
		cfg_free(&m->cfg[k]);
	free(m->cfg);
	memset(m, 0, sizeof *m);
}

/* The value of key in cf, or NULL. */
static const char *
cfg_get(const struct mr_matrix_cfg *cf, const char *key)
{
	int i;

	for (i = 0; i < cf->nkv; i++)
		if (strcmp(cf->kv[i].key, key) == 0)
			return cf->kv[i].val;
	return NULL;
}

/* Whether key varies among the first n configs of m: one of them has
 * another value than the first, or lacks it where the first has it. */
static int
varies_in(const struct mr_matrix *m, int n, const char *key)
{
	const char *v0 = cfg_get(&m->cfg[0], key), *v;
	int k;

	for (k = 1; k < n; k++) {
		v = cfg_get(&m->cfg[k], key);
		if (v != v0 && (!v || !v0 || strcmp(v, v0) != 0))
			return 1;
	}
	return 0;
}

/* Whether cf has one of keys that is a tunable of glibc's malloc
 * (glibc.malloc.*) under another allocator: the tunable reaches glibc's
 * malloc only, so the config would measure what the one without it does. */
static int
malloc_tunable_elsewhere(const struct mr_matrix_cfg *cf, const char *const *keys, int nkeys)
{
	int k;

	if (!cf->allocator || strcmp(cf->allocator, MR_ALLOC_GLIBC) == 0)
		return 0;
	for (k = 0; k < nkeys; k++)
		if (strncmp(keys[k], "glibc.malloc.", 13) == 0)
			return 1;
	return 0;
}

void
mr_matrix_merge(struct mr_matrix *m, struct mr_matrix *extra,
		const char *const *keys, int nkeys)
{
	int k, j, i, n0 = m->n, added = 0;

	m->cfg = erealloc(m->cfg, (size_t)(m->n + extra->n + 1) * sizeof *m->cfg);
	for (k = 0; k < extra->n; k++) {
		struct mr_matrix_cfg *cf = &extra->cfg[k];
		struct strbuf shortc = { 0 };

		for (j = 0; j < m->n && strcmp(m->cfg[j].canon, cf->canon) != 0; j++)
			;
		if (j < m->n || malloc_tunable_elsewhere(cf, keys, nkeys)) {
			/* a config the directive's key does not apply to */
			cfg_free(cf);
			continue;
		}
		for (i = 0; i < cf->nkv; i++) {
			int kk, named = 0;

			for (kk = 0; kk < nkeys; kk++)
				named |= strcmp(keys[kk], cf->kv[i].key) == 0;
			if (named || (n0 > 0 && varies_in(m, n0, cf->kv[i].key)))
				sb_printf(&shortc, "%s%s=%s", shortc.len ? "," : "",
					  cf->kv[i].key, cf->kv[i].val);
		}
		free(cf->shortc);
		free(cf->safe);
		cf->shortc = shortc.s ? shortc.s : estrdup("");
		cf->safe = safe_name(cf->shortc, m->n);
		m->cfg[m->n++] = *cf;
		added++;
	}
	if (added)
		m->nvary += nkeys;
	free(extra->cfg);
	memset(extra, 0, sizeof *extra);
}

char **
mr_matrix_argv(const struct mr_cases_desc *c, const struct mr_matrix_cfg *cfg)
{
	char **argv = ecalloc(2 * (size_t)c->nparams + 2, sizeof *argv);
	int n = 0, i, j;

	argv[n++] = estrdup(c->path);
	for (i = 0; i < c->nparams; i++) {
		for (j = 0; j < cfg->nkv; j++) {
			if (strcmp(cfg->kv[j].key, c->params[i].name) == 0) {
				argv[n++] = estrdup("--param");
				argv[n++] = esprintf("%s=%s", cfg->kv[j].key, cfg->kv[j].val);
				break;
			}
		}
	}
	argv[n] = NULL;
	return argv;
}

void
mr_matrix_argv_free(char **argv)
{
	int i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
