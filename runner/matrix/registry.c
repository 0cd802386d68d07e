/* registry: allocators by name — the run's registry, lookups and the
 * environment of options; the files are read by regparse.c.  See
 * registry.h and docs/formats.md, "Allocators". */
#include "matrix/registry.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/suggest.h"

static const struct mr_registry *current;

void
mr_registry_use(const struct mr_registry *r)
{
	current = r;
}

const struct mr_registry *
mr_registry_current(void)
{
	return current;
}

void
mr_registry_entry_free(struct mr_registry_entry *e)
{
	int i;

	free(e->name);
	free(e->library);
	free(e->package);
	for (i = 0; e->search && e->search[i]; i++)
		free(e->search[i]);
	free(e->search);
	free(e->opt.var);
	for (i = 0; i < e->nrel; i++) {
		free(e->rel[i].release);
		free(e->rel[i].package);
		free(e->rel[i].library);
	}
	free(e->rel);
	free(e->origin);
	memset(e, 0, sizeof *e);
}

void
mr_registry_free(struct mr_registry *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		mr_registry_entry_free(&r->e[i]);
	free(r->e);
	memset(r, 0, sizeof *r);
	if (current == r)
		current = NULL;
}

struct mr_registry_entry *
mr_registry_lookup(const struct mr_registry *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->e[i].name, name) == 0)
			return &r->e[i];
	return NULL;
}

const struct mr_registry_entry *
mr_registry_find(const struct mr_registry *r, const char *name)
{
	return r ? mr_registry_lookup(r, name) : NULL;
}

const struct mr_registry_entry *
mr_registry_find_spec(const struct mr_registry *r, const char *spec)
{
	const char *at = strchr(spec, '@');
	char *name = at ? estrndup(spec, (size_t)(at - spec)) : NULL;
	const struct mr_registry_entry *e = mr_registry_find(r, name ? name : spec);

	free(name);
	return e;
}

/* Put e (moved) into r: in the place of the entry of its name, or last. */
void
mr_registry_put(struct mr_registry *r, struct mr_registry_entry *e)
{
	struct mr_registry_entry *old = mr_registry_lookup(r, e->name);

	if (old) {
		mr_registry_entry_free(old);
		*old = *e;
	} else {
		r->e = erealloc(r->e, (size_t)(r->n + 1) * sizeof *r->e);
		r->e[r->n++] = *e;
	}
	memset(e, 0, sizeof *e);
}

static const struct mr_registry_release *
release_of(const struct mr_registry_entry *e, const char *release)
{
	int i;

	for (i = 0; release && i < e->nrel; i++)
		if (strcmp(e->rel[i].release, release) == 0)
			return &e->rel[i];
	return NULL;
}

const char *
mr_registry_package(const struct mr_registry_entry *e, const char *release)
{
	const struct mr_registry_release *rl = release_of(e, release);

	return rl && rl->package ? rl->package : e->package;
}

const char *
mr_registry_library(const struct mr_registry_entry *e, const char *release)
{
	const struct mr_registry_release *rl = release_of(e, release);

	return rl && rl->library ? rl->library : e->library;
}

const char *
mr_registry_library_unfit(const char *path)
{
	struct stat st;

	/* stat follows a link: a link to a library is fine */
	if (!strchr(path, '/') || stat(path, &st) < 0 || S_ISREG(st.st_mode))
		return NULL;
	if (S_ISFIFO(st.st_mode))
		return "not a regular file (a FIFO)";
	if (S_ISDIR(st.st_mode))
		return "not a regular file (a directory)";
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		return "not a regular file (a device)";
	if (S_ISSOCK(st.st_mode))
		return "not a regular file (a socket)";
	return "not a regular file";
}

void
mr_registry_unknown(const struct mr_registry *r, const char *name, struct strbuf *err)
{
	const char *best = NULL;
	int bd = 3, i;

	for (i = 0; r && i < r->n; i++) {
		int d = mr_edit_distance(name, r->e[i].name);

		if (d < bd) {
			bd = d;
			best = r->e[i].name;
		}
	}
	sb_printf(err, "unknown allocator '%s'", name);
	if (best)
		sb_printf(err, "; did you mean '%s'?", best);
	sb_add(err, r && r->n ? "; the registry has: " : "; the registry is empty");
	for (i = 0; r && i < r->n; i++)
		sb_printf(err, "%s%s", i ? ", " : "", r->e[i].name);
}

/* --- options --------------------------------------------------------- */

void
mr_registry_env_free(char **env)
{
	int i;

	for (i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

int
mr_registry_opt_env(const struct mr_registry_entry *e, const char *const *key,
		    const char *const *val, int n, char ***out, struct strbuf *err)
{
	struct strbuf b = { 0 };
	char **env;
	int i, ne = 0;

	*out = NULL;
	if (n == 0)
		return 0;
	if (e->opt.kind == MR_REG_OPT_NONE) {
		sb_printf(err, "%s.%s: allocator %s takes no options (registry %s: options none)",
			  e->name, key[0], e->name, e->origin);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *k;

		for (k = key[i]; *k; k++)
			if (!isalnum((unsigned char)*k) && *k != '_' && *k != '.')
				break;
		if (!key[i][0] || *k) {
			sb_printf(err, "%s.%s: bad option name: want letters, digits, '_' and '.'",
				  e->name, key[i]);
			return -1;
		}
		if ((e->opt.kind == MR_REG_OPT_CONF && strpbrk(val[i], ",:")) ||
		    (e->opt.kind == MR_REG_OPT_TUNABLES && strpbrk(val[i], ":=")) ||
		    strpbrk(val[i], "\n\t")) {
			sb_printf(err, "%s.%s: value '%s' cannot be passed in %s", e->name, key[i],
				  val[i], e->opt.kind == MR_REG_OPT_TUNABLES ? "GLIBC_TUNABLES" :
				  e->opt.var ? e->opt.var : "the environment");
			return -1;
		}
	}
	env = ecalloc((size_t)n + 1, sizeof *env);
	switch (e->opt.kind) {
	case MR_REG_OPT_CONF:
		sb_printf(&b, "%s=", e->opt.var);
		for (i = 0; i < n; i++)
			sb_printf(&b, "%s%s:%s", i ? "," : "", key[i], val[i]);
		env[ne++] = b.s;
		break;
	case MR_REG_OPT_TUNABLES:
		sb_add(&b, "GLIBC_TUNABLES=");
		for (i = 0; i < n; i++)
			sb_printf(&b, "%sglibc.%s=%s", i ? ":" : "", key[i], val[i]);
		env[ne++] = b.s;
		break;
	default:
		for (i = 0; i < n; i++) {
			char *s = esprintf("%s%s=%s", e->opt.var, key[i], val[i]), *c;

			for (c = s + strlen(e->opt.var); *c != '='; c++)
				*c = *c == '.' ? '_' : (char)toupper((unsigned char)*c);
			env[ne++] = s;
		}
		break;
	}
	*out = env;
	return 0;
}
