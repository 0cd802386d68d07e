/* axes: the --axis options, parsed and checked — see axes.h. */
#include "matrix/axes.h"

#include <gnu/libc-version.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix/langs.h"
#include "matrix/registry.h"
#include "matrix/tunables.h"

static int
in_set(const char *s, const char *set)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr(set, *s)))
			return 0;
	return 1;
}

/* glibc.<ns>.<name>[.<more>]: each part [a-z0-9_]+ */
static int
tunable_key(const char *k)
{
	const char *p;
	int parts = 0;

	if (strncmp(k, "glibc.", 6) != 0)
		return 0;
	for (p = k + 6; ; p++) {
		if (*p == '.' || !*p) {
			if (p[-1] == '.')
				return 0;
			parts++;
			if (!*p)
				break;
		} else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			     (*p >= 'A' && *p <= 'Z') || *p == '_')) {
			return 0;
		}
	}
	return parts >= 2;
}

/* NAME.option, NAME [a-z0-9_-]+ and option [a-z0-9_]+, NAME not glibc (its tunables are
 * glibc.<ns>.<name>): the length of NAME, or 0. */
size_t
mr_matrix_option_key(const char *k)
{
	const char *dot = strchr(k, '.'), *p;

	if (!dot || dot == k || !dot[1] || strchr(dot + 1, '.') ||
	    strncmp(k, "glibc.", 6) == 0)
		return 0;
	/* a registry name may have '-' (tcmalloc-full); an option not */
	for (p = k; *p; p++)
		if (p != dot && !((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
				  (*p == '-' && p < dot && p != k)))
			return 0;
	return (size_t)(dot - k);
}

/* How allocator name's options reach it: the "options" field of its
 * entry in the run's registry (etc/allocators). */
int
mr_matrix_option_var(const char *name, size_t len, const char **var)
{
	const struct mr_registry *r = mr_registry_current();
	const struct mr_registry_entry *e;
	char *n;

	*var = NULL;
	if (!r)
		return MR_MATRIX_OPT_NONE;
	n = estrndup(name, len);
	e = mr_registry_find(r, n);
	free(n);
	if (!e || !e->opt.var)
		return MR_MATRIX_OPT_NONE;
	*var = e->opt.var;
	return e->opt.kind == MR_REG_OPT_CONF ? MR_MATRIX_OPT_CONF :
	       e->opt.kind == MR_REG_OPT_ENV ? MR_MATRIX_OPT_ENV : MR_MATRIX_OPT_NONE;
}

int
mr_matrix_parse_axis(const char *arg, struct mr_matrix_axis *out, struct strbuf *err)
{
	const char *eq = strchr(arg, '=');
	char *vals, *s;
	int i;

	memset(out, 0, sizeof *out);
	if (!eq || eq == arg) {
		sb_printf(err, "--axis '%s': want key=value[,value...]", arg);
		return -1;
	}
	out->key = estrndup(arg, (size_t)(eq - arg));
	if (strncmp(out->key, "kernel.", 7) == 0 ? !in_set(out->key, "_.") /* guest/guest.c */ :
	    strncmp(out->key, "glibc.", 6) == 0 ? !tunable_key(out->key) :
	    strchr(out->key, '.') ? !mr_matrix_option_key(out->key) : !in_set(out->key, "_")) {
		sb_printf(err, "--axis '%s': bad key '%s' (want allocator, libc, glibc.<namespace>.<tunable>, <allocator>.<option> or a parameter [a-z0-9_]+)",
			  arg, out->key);
		goto bad;
	}
	vals = estrdup(eq + 1);
	for (s = vals;;) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = '\0';
		/* '@' only in an allocator or runtime spec, once: NAME@VERSION */
		if (!*s || !in_set(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_.-@") ||
		    (strchr(s, '@') && ((strcmp(out->key, "allocator") != 0 &&
					 strcmp(out->key, MR_KEY_RUNTIME) != 0) || s[0] == '@' ||
					!s[strcspn(s, "@") + 1] || strchr(strchr(s, '@') + 1, '@')))) {
			sb_printf(err, "--axis '%s': bad value '%s' (want [A-Za-z0-9_.-]+, or an allocator or runtime NAME@VERSION, separated by commas)", arg, s);
			free(vals);
			goto bad;
		}
		for (i = 0; i < out->nvals; i++) {
			if (strcmp(out->vals[i], s) == 0) {
				sb_printf(err, "--axis '%s': value '%s' given twice", arg, s);
				free(vals);
				goto bad;
			}
		}
		out->vals = erealloc(out->vals, (size_t)(out->nvals + 1) * sizeof *out->vals);
		out->vals[out->nvals++] = estrdup(s);
		if (!comma)
			break;
		s = comma + 1;
	}
	free(vals);
	return 0;
bad:
	mr_matrix_axis_free(out);
	return -1;
}

void
mr_matrix_axis_copy(struct mr_matrix_axis *out, const struct mr_matrix_axis *a)
{
	int i;

	out->key = estrdup(a->key);
	out->vals = ecalloc((size_t)a->nvals + 1, sizeof *out->vals);
	for (i = 0; i < a->nvals; i++)
		out->vals[i] = estrdup(a->vals[i]);
	out->nvals = a->nvals;
}

void
mr_matrix_axis_free(struct mr_matrix_axis *a)
{
	int i;

	free(a->key);
	for (i = 0; i < a->nvals; i++)
		free(a->vals[i]);
	free(a->vals);
	memset(a, 0, sizeof *a);
}

/* Every key a --axis could name for these cases, for messages. */
static void
valid_keys(const struct mr_cases_desc *cases, int ncases, struct strbuf *b)
{
	struct strbuf seen = { 0 };
	int i, j;

	sb_add(b, "allocator, libc, runtime, pressure, glibc.<namespace>.<tunable>, jemalloc.<option>, mimalloc.<option>, tcmalloc.<option>");
	sb_add(&seen, ",");
	for (i = 0; i < ncases; i++) {
		for (j = 0; j < cases[i].nparams; j++) {
			char *tag = esprintf(",%s,", cases[i].params[j].name);

			if (!strstr(seen.s, tag)) {
				sb_printf(b, ", %s", cases[i].params[j].name);
				sb_printf(&seen, "%s,", cases[i].params[j].name);
			}
			free(tag);
		}
	}
	sb_free(&seen);
}

char *
mr_matrix_option_variable(const char *key)
{
	size_t len = mr_matrix_option_key(key);
	const char *var;
	int kind = len ? mr_matrix_option_var(key, len, &var) : MR_MATRIX_OPT_NONE;
	char *v, *p;

	if (kind == MR_MATRIX_OPT_CONF)
		return estrdup(var);
	if (kind != MR_MATRIX_OPT_ENV)
		return NULL;
	v = esprintf("%s%s", var, key + len + 1);
	for (p = v + strlen(var); *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return v;
}

int
mr_matrix_libc_version(const char *v)
{
	size_t a = strspn(v, "0123456789"), b;

	if (!a || a > 3 || v[a] != '.')
		return 0;
	b = strspn(v + a + 1, "0123456789");
	return b && b <= 3 && !v[a + 1 + b];
}

/* A value of the pressure axis: "none" or MiB as a plain decimal in
 * 1..MR_MATRIX_MAX_MIB: see axes.h. */
long
mr_matrix_pressure_value(const char *v)
{
	long long x;

	if (strcmp(v, "none") == 0)
		return 0;
	if (!*v || strspn(v, "0123456789") != strlen(v) || parse_ll(v, &x) < 0 ||
	    x < 1 || x > MR_MATRIX_MAX_MIB)
		return -1;
	return (long)x;
}

/* Whether the host's glibc runs some config: no libc axis, or one that
 * names the host's version. */
static int
host_libc_used(const struct mr_matrix_axis *ax, int nax)
{
	int a, j;

	for (a = 0; a < nax; a++) {
		if (strcmp(ax[a].key, "libc") != 0)
			continue;
		for (j = 0; j < ax[a].nvals; j++)
			if (strcmp(ax[a].vals[j], gnu_get_libc_version()) == 0)
				return 1;
		return 0;
	}
	return 1;
}

/* Does allocator spec v ("jemalloc", "jemalloc@5.2.1") name the
 * allocator name[0..len)? */
static int
spec_is(const char *v, const char *name, size_t len)
{
	return strncmp(v, name, len) == 0 && (v[len] == '\0' || v[len] == '@');
}

int
mr_matrix_option_applies(const char *key, const char *allocator)
{
	size_t len = mr_matrix_option_key(key);

	return len && spec_is(allocator, key, len);
}

/* An allocator option axis: an allocator that takes options, on the
 * allocator axis, and values it can be given. */
static int
check_option(const struct mr_matrix_axis *o, const struct mr_matrix_axis *ax, int nax,
	     struct strbuf *err)
{
	size_t len = mr_matrix_option_key(o->key);
	const char *var;
	int kind = mr_matrix_option_var(o->key, len, &var), a, j, on = 0;

	if (kind == MR_MATRIX_OPT_NONE) {
		const struct mr_registry *r = mr_registry_current();
		char *name = estrndup(o->key, len);

		sb_printf(err, "--axis %s: ", o->key);
		if (!r || !mr_registry_find(r, name))
			mr_registry_unknown(r, name, err);
		else
			sb_printf(err, "allocator %s takes no options (its registry entry says options = none)",
				  name);
		free(name);
		return -1;
	}
	for (a = 0; a < nax; a++)
		if (strcmp(ax[a].key, "allocator") == 0)
			break;
	if (a == nax) {
		const struct mr_registry *r = mr_registry_current();

		for (j = 0; r && j < r->n; j++)
			on |= r->e[j].in_default_axis && spec_is(r->e[j].name, o->key, len);
	} else {
		for (j = 0; j < ax[a].nvals; j++)
			on |= spec_is(ax[a].vals[j], o->key, len);
	}
	if (!on) {
		sb_printf(err, "--axis %s: no config would have allocator %.*s (give it on --axis allocator)",
			  o->key, (int)len, o->key);
		return -1;
	}
	for (j = 0; j < o->nvals; j++) {
		/* jemalloc splits MALLOC_CONF at ',' and ':' */
		if (kind == MR_MATRIX_OPT_CONF && strpbrk(o->vals[j], ",:")) {
			sb_printf(err, "--axis %s: value '%s' cannot go into %s (it splits at ',' and ':')",
				  o->key, o->vals[j], var);
			return -1;
		}
	}
	return 0;
}

int
mr_matrix_check_axes(const struct mr_cases_desc *cases, int ncases,
		     const struct mr_matrix_axis *ax, int nax, struct strbuf *err)
{
	int a, i, j;

	for (a = 0; a < nax; a++) {
		for (i = 0; i < a; i++) {
			if (strcmp(ax[i].key, ax[a].key) == 0) {
				sb_printf(err, "--axis %s given twice: give all its values in one --axis %s=V1,V2",
					  ax[a].key, ax[a].key);
				return -1;
			}
		}
	}
	for (a = 0; a < nax; a++) {
		int known = 0;

		if (strcmp(ax[a].key, "pressure") == 0) {
			for (j = 0; j < ax[a].nvals; j++) {
				if (mr_matrix_pressure_value(ax[a].vals[j]) < 0) {
					sb_printf(err, "--axis pressure: bad value '%s'; want none or a memory limit in MiB (1..%d)",
						  ax[a].vals[j], MR_MATRIX_MAX_MIB);
					return -1;
				}
			}
			continue;
		}
		if (strcmp(ax[a].key, "allocator") == 0) {
			for (j = 0; j < ax[a].nvals; j++) {
				if (!mr_registry_find_spec(mr_registry_current(), ax[a].vals[j])) {
					sb_add(err, "--axis allocator: ");
					mr_registry_unknown(mr_registry_current(), ax[a].vals[j], err);
					return -1;
				}
			}
			continue;
		}
		if (strncmp(ax[a].key, "glibc.", 6) == 0)
			continue; /* check_tunables, below */
		if (strcmp(ax[a].key, MR_KEY_RUNTIME) == 0) {
			for (j = 0; j < ax[a].nvals; j++) {
				if (strcmp(ax[a].vals[j], MR_RUNTIME_MODEL) != 0 &&
				    !mr_matrix_runtime_ext(ax[a].vals[j])) {
					sb_printf(err, "--axis runtime: bad value '%s'; want c (the model), ",
						  ax[a].vals[j]);
					mr_langs_list(err, "%s[@VERSION]", ", ", " or ", 0);
					return -1;
				}
			}
			continue;
		}
		if (strcmp(ax[a].key, "libc") == 0) {
			for (j = 0; j < ax[a].nvals; j++) {
				if (!mr_matrix_libc_version(ax[a].vals[j])) {
					sb_printf(err, "--axis libc: bad value '%s'; want a glibc version such as 2.41",
						  ax[a].vals[j]);
					return -1;
				}
			}
			continue;
		}
		if (mr_matrix_option_key(ax[a].key)) {
			if (check_option(&ax[a], ax, nax, err) < 0)
				return -1;
			continue;
		}
		for (i = 0; i < ncases; i++) {
			const struct mr_cases_param *p = mr_cases_find_param(&cases[i], ax[a].key);

			if (!p)
				continue;
			known = 1;
			for (j = 0; j < ax[a].nvals; j++) {
				char *canon;

				if (mr_cases_canon_value(p, ax[a].vals[j], &canon) < 0) {
					sb_printf(err, "--axis %s: value '%s' is not allowed by case %s; allowed: %s",
						  ax[a].key, ax[a].vals[j], cases[i].name, p->allowed);
					return -1;
				}
				free(canon);
			}
		}
		if (!known) {
			sb_printf(err, "--axis: unknown key '%s'; valid keys: ", ax[a].key);
			valid_keys(cases, ncases, err);
			return -1;
		}
	}
	if (!host_libc_used(ax, nax))
		return 0; /* each other glibc: mr_matrix_check_tunables */
	return mr_matrix_check_tunables(ax, nax, mr_matrix_ldso(), gnu_get_libc_version(), err);
}


const char *
mr_matrix_runtime_ext(const char *v)
{
	const char *word;
	const struct mr_lang *l = mr_lang_of(v, &word);

	return l && (!word || *word) ? l->ext : NULL;
}

int
mr_matrix_has_original(const struct mr_cases_desc *c, const char *v)
{
	const char *ext = mr_matrix_runtime_ext(v);
	char *path;
	int ok;

	if (strcmp(v, MR_RUNTIME_MODEL) == 0)
		return 1;
	if (!ext)
		return 0;
	path = esprintf("%s.%s", c->path, ext);
	ok = access(path, R_OK) == 0;
	free(path);
	return ok;
}
