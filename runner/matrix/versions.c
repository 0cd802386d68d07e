/* versions: the versions profile's axes and pairing — see versions.h. */
#include "matrix/versions.h"

#include <gnu/libc-version.h>
#include <stdlib.h>
#include <string.h>

#include "proto/schema.h"
#include "release/release.h"
#include "matrix/libc.h"
#include "matrix/registry.h"

void
mr_versions_packages(const struct mr_registry_entry *e, const char **pkgs)
{
	int i;

	for (i = 0; i < mr_release_count(); i++)
		pkgs[i] = e ? mr_registry_package(e, mr_release_name(i)) : "libc6";
}

static const struct mr_matrix_axis *
find(const struct mr_matrix_axis *ax, int nax, const char *key)
{
	int i;

	for (i = 0; i < nax; i++)
		if (strcmp(ax[i].key, key) == 0)
			return &ax[i];
	return NULL;
}

static int
has(const struct mr_matrix_axis *a, const char *v)
{
	int i;

	for (i = 0; i < a->nvals; i++)
		if (strcmp(a->vals[i], v) == 0)
			return 1;
	return 0;
}

static void
add(struct mr_matrix_axis *a, char *v)
{
	if (has(a, v)) {
		free(v);
		return;
	}
	a->vals = erealloc(a->vals, (size_t)(a->nvals + 2) * sizeof *a->vals);
	a->vals[a->nvals++] = v;
	a->vals[a->nvals] = NULL;
}

/* Every release's version of e's package (e NULL: libc6) into av[]. */
static void
list(const struct mr_registry_entry *e, struct mr_release_avail *av)
{
	int n = mr_release_count();
	const char **pkgs = ecalloc((size_t)n + 1, sizeof *pkgs);

	mr_versions_packages(e, pkgs);
	mr_release_list(pkgs, av);
	free(pkgs);
}

/* The first reason a release's index could not be had, or NULL. */
static const char *
unknown(const struct mr_release_avail *av, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (av[i].why)
			return av[i].why;
	return NULL;
}

int
mr_versions_axes(struct mr_matrix_axis **ax, int *nax, struct strbuf *err)
{
	const struct mr_registry *r = mr_registry_current();
	int want_alloc = !find(*ax, *nax, "allocator"), want_libc = !find(*ax, *nax, "libc");
	struct mr_matrix_axis al = { 0 }, lc = { 0 };
	struct mr_release_avail *av;
	struct strbuf why = { 0 };
	int n, i, j, known = 0;

	if (!want_alloc && !want_libc)
		return 0;
	if (mr_release_init(NULL, &why) < 0) {
		sb_printf(err, "--profile versions: %s", why.s);
		sb_free(&why);
		return -1;
	}
	n = mr_release_count();
	av = ecalloc((size_t)n + 1, sizeof *av);
	list(NULL, av);
	/* the host's own first: it may be no release's (another distribution) */
	add(&lc, estrdup(gnu_get_libc_version()));
	for (i = 0; i < n; i++) {
		if (av[i].upstream && mr_libc_cmp(av[i].upstream, gnu_get_libc_version()) >= 0) {
			add(&lc, estrdup(av[i].upstream));
			known = 1;
		}
	}
	if (unknown(av, n))
		weprintf("--profile versions: some releases are left out: %s", unknown(av, n));
	mr_release_avail_free(av, n);
	add(&al, estrdup(MR_ALLOC_GLIBC));
	for (j = 0; r && j < r->n; j++) {
		const struct mr_registry_entry *e = &r->e[j];

		if (!e->in_default_axis || !e->preload || !e->package)
			continue;
		list(e, av);
		for (i = 0; i < n; i++)
			if (av[i].upstream) {
				add(&al, esprintf("%s@%s", e->name, av[i].upstream));
				known = 1;
			}
		mr_release_avail_free(av, n);
	}
	free(av);
	if (!known) {
		sb_printf(err, "--profile versions: no release's index can be had, so there are no versions to run");
		mr_matrix_axis_free(&al);
		mr_matrix_axis_free(&lc);
		return -1;
	}
	al.key = estrdup("allocator");
	lc.key = estrdup("libc");
	*ax = erealloc(*ax, (size_t)(*nax + 2) * sizeof **ax);
	if (want_alloc)
		(*ax)[(*nax)++] = al;
	else
		mr_matrix_axis_free(&al);
	if (want_libc && lc.nvals)
		(*ax)[(*nax)++] = lc;
	else
		mr_matrix_axis_free(&lc);
	return 0;
}

/* The pairing of the session: allocator value -> libc value. */
static struct pair {
	char *alloc;
	const char *libc; /* into the session's libc axis, or NULL */
} *pairs;
static int npairs;

/* The glibc of release `rel`'s libc6 ("2.41"), fresh, or NULL. */
static char *
release_glibc(int rel)
{
	int n = mr_release_count();
	struct mr_release_avail *av = ecalloc((size_t)n + 1, sizeof *av);
	char *g;

	list(NULL, av);
	g = av[rel].upstream ? estrdup(av[rel].upstream) : NULL;
	mr_release_avail_free(av, n);
	free(av);
	return g;
}

/* The oldest release whose package of spec's allocator has spec's
 * version, or -1. */
static int
release_of(const char *spec)
{
	const char *at = strchr(spec, '@');
	const struct mr_registry_entry *e = mr_registry_find_spec(mr_registry_current(), spec);
	int n = mr_release_count(), i, rel = -1;
	struct mr_release_avail *av;

	if (!at || !e || n <= 0)
		return -1;
	av = ecalloc((size_t)n + 1, sizeof *av);
	list(e, av);
	for (i = 0; i < n && rel < 0; i++)
		if (av[i].upstream && strcmp(av[i].upstream, at + 1) == 0)
			rel = i;
	mr_release_avail_free(av, n);
	free(av);
	return rel;
}

/* The oldest value of the libc axis that is at least g, else NULL. */
static const char *
oldest_from(const struct mr_matrix_axis *lc, const char *g)
{
	const char *best = NULL;
	int i;

	for (i = 0; i < lc->nvals; i++)
		if (mr_libc_cmp(lc->vals[i], g) >= 0 &&
		    (!best || mr_libc_cmp(lc->vals[i], best) < 0))
			best = lc->vals[i];
	return best;
}

void
mr_versions_pair(const struct mr_matrix_axis *ax, int nax)
{
	const struct mr_matrix_axis *al = find(ax, nax, "allocator"), *lc = find(ax, nax, "libc");
	int i;

	mr_versions_free();
	if (!al || !lc || !lc->nvals)
		return;
	pairs = ecalloc((size_t)al->nvals + 1, sizeof *pairs);
	for (i = 0; i < al->nvals; i++) {
		const char *v = al->vals[i];
		const struct mr_registry_entry *e = mr_registry_find_spec(mr_registry_current(), v);
		struct pair *p = &pairs[npairs++];
		int rel;
		char *g;

		p->alloc = estrdup(v);
		if (!e || !e->preload)
			continue; /* glibc: under every glibc */
		rel = release_of(v);
		/* the host's own library, or one of no release: the host's
		 * glibc, or the oldest of the axis */
		g = rel >= 0 ? release_glibc(rel) : estrdup(gnu_get_libc_version());
		if (g)
			p->libc = oldest_from(lc, g);
		if (!p->libc)
			p->libc = oldest_from(lc, "0");
		free(g);
	}
}

const char *
mr_versions_libc_for(const char *allocator)
{
	int i;

	for (i = 0; allocator && i < npairs; i++)
		if (strcmp(pairs[i].alloc, allocator) == 0)
			return pairs[i].libc;
	return NULL;
}

void
mr_versions_free(void)
{
	int i;

	for (i = 0; i < npairs; i++)
		free(pairs[i].alloc);
	free(pairs);
	pairs = NULL;
	npairs = 0;
}
