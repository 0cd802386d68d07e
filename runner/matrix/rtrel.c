/* rtrel: the runtimes from Debian's releases, their common part — see
 * rtkind.h. */
#include "matrix/rtkind.h"

#include <gnu/libc-version.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/allocrel.h"
#include "matrix/libc.h"

/* The X.Y of w for kind k (fresh), NULL when it has none. */
static char *
kind_xy(const struct mr_rt_kind *k, const char *w)
{
	if (k->xy)
		return k->xy(w);
	return mr_rt_starts_xy(w) ? mr_rt_xy(w) : NULL;
}

char *
mr_rt_kind_pkg(const struct mr_rt_kind *k, const char *up)
{
	char *xy = kind_xy(k, up), *p = xy ? esprintf(k->exe, xy) : NULL;

	free(xy);
	return p;
}

/* The releases' X.Y of kind k (its metapackage's upstream version), into
 * xy[i] (fresh or NULL); only release only when >= 0.  The reasons of
 * releases whose lists cannot be had into failed. */
static void
versions(const struct mr_rt_kind *k, int only, char **xy, struct strbuf *failed)
{
	int n = mr_release_count(), i;
	const char **pkgs = ecalloc((size_t)n + 1, sizeof *pkgs);
	struct mr_release_avail *av = ecalloc((size_t)n + 1, sizeof *av);

	for (i = 0; i < n; i++)
		pkgs[i] = only < 0 || i == only ? k->meta : NULL;
	mr_release_list(pkgs, av);
	for (i = 0; i < n; i++) {
		xy[i] = av[i].upstream ? kind_xy(k, av[i].upstream) : NULL;
		if (av[i].why)
			sb_printf(failed, "%s%s: %s", failed->len ? "; " : "", av[i].release, av[i].why);
	}
	mr_release_avail_free(av, n);
	free(av);
	free(pkgs);
}

/* Whether release X.Y xy is want: equal, or want a major X alone (redis@7)
 * and xy X.Y. */
static int
same_xy(const char *xy, const char *want)
{
	size_t n = strlen(want);

	return strcmp(xy, want) == 0 ||
	       (strspn(want, "0123456789") == n && strncmp(xy, want, n) == 0 && xy[n] == '.');
}

/* The length of word's Debian epoch ("5:" of 5:7.0.15-1), 0 when none. */
static size_t
epoch(const char *word)
{
	size_t n = strspn(word, "0123456789");

	return n && word[n] == ':' ? n + 1 : 0;
}

/* Which X.Y and release word names: *xy (fresh) and the releases that
 * have it (have[i]); 0, or -1 with rt->missing. */
static int
pick(struct mr_runtime *rt, const struct mr_rt_kind *k, const char *word, char **xy, int *have)
{
	int n = mr_release_count(), rel = mr_release_index(word), i, any = 0;
	char **xys = ecalloc((size_t)n + 1, sizeof *xys), *want = NULL;
	struct strbuf failed = { 0 }, list = { 0 };

	*xy = NULL;
	versions(k, rel, xys, &failed);
	if (rel >= 0)
		want = xys[rel] ? estrdup(xys[rel]) : NULL;
	else if (!(want = kind_xy(k, word + epoch(word))) &&
		 strspn(word, "0123456789") == strlen(word)) /* redis@7 */
		want = estrdup(word);
	for (i = 0; i < n; i++) {
		have[i] = want && xys[i] && same_xy(xys[i], want);
		any |= have[i];
		if (xys[i])
			sb_printf(&list, "%s%s %s", list.len ? ", " : "", mr_release_name(i), xys[i]);
	}
	if (!any) {
		if (failed.len && list.len) {
			rt->missing = esprintf("%s cannot be had: %s (the others have %s %s)", rt->spec,
					       failed.s, rt->lang, list.s);
		} else if (failed.len) {
			rt->missing = esprintf("%s cannot be had: %s", rt->spec, failed.s);
		} else if (rel >= 0) {
			rt->missing = esprintf("%s: %s has no %s", rt->spec, word, rt->lang);
			rt->unknown = 1;
		} else {
			rt->missing = esprintf("%s: no release has %s %s (%s)", rt->spec, rt->lang, word,
					       list.len ? list.s : "none has it");
			rt->unknown = 1;
		}
	}
	*xy = any ? want : NULL;
	if (!any)
		free(want);
	for (i = 0; i < n; i++)
		free(xys[i]);
	free(xys);
	sb_free(&failed);
	sb_free(&list);
	return any ? 0 : -1;
}

int
mr_rt_release_pkgs(struct mr_runtime *rt, const struct mr_rt_kind *k, const char *word,
		   char **xy, struct mr_release_pkg *p, struct mr_release_pkg *l)
{
	int have[MR_RELEASE_MAX] = { 0 }, i, got, rc = -1;
	const char *pkgs[MR_RELEASE_MAX] = { 0 }, *want = word;
	struct strbuf why = { 0 };
	char *pname = NULL, *lname = NULL;

	memset(p, 0, sizeof *p);
	memset(l, 0, sizeof *l);
	*xy = NULL;
	if (mr_release_init(NULL, &why) < 0) {
		rt->missing = esprintf("%s cannot be had: %s", rt->spec, why.s);
		goto out;
	}
	if (pick(rt, k, word, xy, have) < 0)
		goto out;
	pname = esprintf(k->exe, *xy);
	lname = k->lib ? esprintf(k->lib, *xy) : NULL;
	for (i = 0; i < mr_release_count(); i++)
		pkgs[i] = have[i] ? pname : NULL;
	/* X.Y: the oldest release with it; a full version: the oldest with
	 * that; a release: its own */
	if (strcmp(word, *xy) == 0)
		for (i = 0; i < mr_release_count(); i++)
			if (have[i]) {
				want = mr_release_name(i);
				break;
			}
	got = mr_release_get(pkgs, want, p, &why);
	if (got != MR_REL_OK) {
		rt->unknown = got == MR_REL_NOVERSION;
		rt->missing = got == MR_REL_NOVERSION ? esprintf("%s: %s", rt->spec, why.s) :
			      esprintf("%s cannot be had: %s", rt->spec, why.s ? why.s : "no reason given");
		goto out;
	}
	sb_free(&why);
	memset(pkgs, 0, sizeof pkgs);
	pkgs[mr_release_index(p->release)] = lname;
	got = lname ? mr_release_get(pkgs, p->version, l, &why) : MR_REL_OK;
	if (got != MR_REL_OK) {
		rt->missing = esprintf("%s cannot be had: %s %s (%s): %s", rt->spec, lname, p->version,
				       p->release, why.s ? why.s : "no reason given");
		goto out;
	}
	rt->version = estrdup(p->upstream);
	rt->where = esprintf("%s %s %s", p->release, p->package, p->version);
	rt->fetched = p->fetched || l->fetched;
	rc = 0;
out:
	if (rc < 0) {
		free(*xy);
		*xy = NULL;
	}
	sb_free(&why);
	free(pname);
	free(lname);
	return rc;
}

/* The highest GLIBC_ of rt->exe and lib into rt->glibc_need. */
static void
glibc_need(struct mr_runtime *rt, const char *lib)
{
	char *need = mr_allocrel_glibc_need(rt->exe);

	rt->glibc_need = lib ? mr_allocrel_glibc_need(lib) : NULL;
	if (need && (!rt->glibc_need || mr_libc_cmp(need, rt->glibc_need) > 0)) {
		free(rt->glibc_need);
		rt->glibc_need = need;
	} else {
		free(need);
	}
}

/* own_loader: rt->argv from that release's loader; 0, or -1 with
 * rt->missing. */
static int
loader(struct mr_runtime *rt, const struct mr_release_pkg *p, const char *host)
{
	struct mr_release_pkg c;
	struct strbuf why = { 0 };
	char *libdir;
	int n = 0;

	/* that release's glibc, through its loader; --library-path, not
	 * LD_LIBRARY_PATH, so that the script's children (ps, free: host
	 * programs) keep the host's libc */
	if (mr_release_get_libc(p->release, &c, &why) != MR_REL_OK) {
		rt->missing = esprintf("%s needs glibc %s (GLIBC_%s), the host has %s, and %s's libc6 cannot be had: %s",
				       rt->spec, rt->glibc_need, rt->glibc_need, host, p->release,
				       why.s ? why.s : "no reason given");
		sb_free(&why);
		return -1;
	}
	sb_free(&why);
	rt->loader = mr_release_loader(&c);
	libdir = mr_release_libdir(&c);
	rt->libc_version = estrdup(c.upstream);
	if (!rt->loader || !libdir || mr_libc_cmp(c.upstream, rt->glibc_need) < 0) {
		rt->missing = esprintf("%s needs glibc %s (GLIBC_%s), and %s %s (%s) %s", rt->spec,
				       rt->glibc_need, rt->glibc_need, c.package, c.version, c.release,
				       !rt->loader || !libdir ? "has no loader" : "is older");
		free(libdir);
		mr_release_pkg_free(&c);
		return -1;
	}
	rt->own_loader = 1;
	rt->argv[n++] = estrdup(rt->loader);
	rt->argv[n++] = estrdup("--library-path");
	rt->argv[n++] = rt->libpath ? esprintf("%s:%s", libdir, rt->libpath) : estrdup(libdir);
	rt->argv[n++] = estrdup("--argv0");
	rt->argv[n++] = estrdup(rt->exe);
	free(libdir);
	mr_release_pkg_free(&c);
	return 0;
}

void
mr_rt_command(struct mr_runtime *rt, const char *lib, const struct mr_release_pkg *p,
	      const char *const *flags, int nflags, int slot)
{
	const char *host = gnu_get_libc_version();
	int n, i;

	if (!rt->env)
		rt->env = ecalloc(3, sizeof *rt->env);
	if (!rt->argv)
		rt->argv = ecalloc(MR_RT_ARGV_MAX, sizeof *rt->argv);
	glibc_need(rt, lib);
	if (rt->glibc_need && mr_libc_cmp(rt->glibc_need, host) > 0) {
		if (loader(rt, p, host) < 0)
			return;
	} else if (rt->libpath) {
		rt->env[slot] = esprintf("LD_LIBRARY_PATH=%s", rt->libpath);
	}
	for (n = 0; rt->argv[n]; n++)
		;
	rt->argv[n++] = estrdup(rt->exe);
	for (i = 0; i < nflags && n < MR_RT_ARGV_MAX - 1; i++)
		rt->argv[n++] = estrdup(flags[i]);
}

void
mr_rt_release(struct mr_runtime *rt, const struct mr_rt_kind *k, const char *word)
{
	struct mr_release_pkg p, l;
	char *xy;

	if (mr_rt_release_pkgs(rt, k, word, &xy, &p, &l) == 0)
		k->command(rt, xy, &p, &l);
	mr_release_pkg_free(&p);
	mr_release_pkg_free(&l);
	free(xy);
}
