/* kernel: which kernel each release has, fetched — see kernel.h. */
#include "release/kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "release/files.h"
#include "release/helper.h"
#include "release/kextract.h"
#include "release/release.h"
#include "release/source.h"

#define META "linux-image-amd64"

/* One release's kernel, as its lists say. */
struct kcand {
	char *kver;    /* 6.12.117+deb13-amd64, NULL: none */
	char *version; /* Debian's version of the kernel's package */
	char *upstream;
	char *why;     /* the index cannot be had */
};

static void
kcand_free(struct kcand *c)
{
	free(c->kver);
	free(c->version);
	free(c->upstream);
	free(c->why);
	memset(c, 0, sizeof *c);
}

/* The Depends field of candidate c of the metapackage in release rel
 * (fresh), or NULL with why. */
static char *
meta_depends(int rel, const struct mr_rel_cand *c, struct strbuf *why)
{
	struct strbuf out = { 0 };
	char *dep = NULL, *conf = NULL, *spec = NULL;
	const char *p;
	int rc;

	if (c->path) {
		const char *argv[] = { "dpkg-deb", "-f", c->path, "Depends", NULL };

		rc = mr_rel_helper(NULL, argv, NULL, MR_REL_T_QUERY, 0, &out, why);
		if (rc == 0)
			dep = estrdup(out.s ? out.s : "");
	} else {
		char *cache = mr_release_cache_dir();
		const char *argv[] = { "apt-cache", "show", NULL, NULL };

		conf = esprintf("%s/apt/%s/apt.conf", cache, mr_release_name(rel));
		spec = esprintf("%s=%s", META, c->version);
		argv[2] = spec;
		free(cache);
		rc = mr_rel_helper(NULL, argv, conf, MR_REL_T_QUERY, 0, &out, why);
		for (p = out.s; rc == 0 && p && *p && !dep; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			dep = mr_rel_field(p, "Depends");
		if (rc == 0 && !dep)
			dep = estrdup("");
	}
	free(conf);
	free(spec);
	sb_free(&out);
	return dep;
}

/* The kernel named in the metapackage's dependencies: "linux-image-KVER
 * (= VERSION)" into c. */
static void
parse_depends(const char *dep, struct kcand *c)
{
	const char *p = strstr(dep, "linux-image-");

	while (p && (p != dep && p[-1] != ' ' && p[-1] != ','))
		p = strstr(p + 1, "linux-image-");
	if (!p)
		return;
	p += strlen("linux-image-");
	c->kver = estrndup(p, strcspn(p, " ,("));
	p += strcspn(p, "(,");
	if (*p == '(' && strncmp(p, "(= ", 3) == 0) {
		p += 3;
		c->version = estrndup(p, strcspn(p, ")"));
		c->upstream = mr_release_upstream(c->version);
	}
}

/* Release rel's kernel into c (c->kver NULL: the release has none). */
static void
release_kernel(int rel, struct kcand *c)
{
	struct mr_rel_index ix = { 0 };
	struct strbuf why = { 0 };
	char *dep;

	memset(c, 0, sizeof *c);
	if (mr_rel_source_index(rel, META, &ix, &why) < 0) {
		c->why = estrdup(why.len ? why.s : "index cannot be read");
	} else if (ix.n > 0) {
		if ((dep = meta_depends(rel, &ix.c[0], &why)) != NULL)
			parse_depends(dep, c);
		else
			c->why = estrdup(why.len ? why.s : "apt-cache show failed");
		free(dep);
		if (!c->why && (!c->kver || !c->version))
			c->why = esprintf("%s %s names no linux-image-* (= VERSION)", META,
					  ix.c[0].version);
	}
	mr_rel_index_free(&ix);
	sb_free(&why);
}

/* Whether want names candidate c of release rel: the release, the
 * upstream version or a prefix of whole components of it, or Debian's. */
static int
matches(const struct kcand *c, int rel, const char *want)
{
	size_t n = strlen(want);

	if (!c->kver)
		return 0;
	if (strcmp(want, mr_release_name(rel)) == 0 || strcmp(want, c->version) == 0)
		return 1;
	return strncmp(c->upstream, want, n) == 0 && (!c->upstream[n] || c->upstream[n] == '.');
}

/* Fetch package@version of release rel into *p: 0, or -1 with why. */
static int
get_pkg(int rel, const char *package, const char *version, struct mr_release_pkg *p,
	struct strbuf *why)
{
	const char *pkgs[MR_RELEASE_MAX] = { 0 };

	pkgs[rel] = package;
	return mr_release_get(pkgs, version, p, why) == MR_REL_OK ? 0 : -1;
}

/* The kernel's packages fetched; vmlinux and modules extracted. */
static int
fetch(int rel, const struct kcand *c, struct mr_kernel *k, struct strbuf *why)
{
	struct mr_release_pkg img = { 0 }, bin = { 0 }, mods = { 0 }, lbase = { 0 };
	const struct mr_release_pkg *kp = &img, *mp = &img;
	char *name = esprintf("linux-image-%s", c->kver);
	char *vmlinuz = NULL, *base;
	int rc = -1;

	if (get_pkg(rel, name, c->version, &img, why) < 0)
		goto out;
	base = esprintf("vmlinuz-%s", c->kver);
	vmlinuz = mr_release_find(&img, base);
	free(base);
	if (!vmlinuz) { /* sid: the image is empty, the kernel is elsewhere */
		free(name);
		name = esprintf("linux-binary-%s", c->kver);
		if (get_pkg(rel, name, c->version, &bin, why) < 0)
			goto out;
		free(name);
		name = esprintf("linux-modules-%s", c->kver);
		if (get_pkg(rel, name, c->version, &mods, why) < 0)
			goto out;
		free(name); /* modules.builtin */
		name = esprintf("linux-base-%s", c->kver);
		if (get_pkg(rel, name, c->version, &lbase, why) < 0)
			goto out;
		kp = &bin;
		mp = &mods;
		vmlinuz = mr_release_find(&bin, "vmlinuz");
		if (!vmlinuz) {
			sb_printf(why, "neither linux-image-%s nor linux-binary-%s holds a vmlinuz",
				  c->kver, c->kver);
			goto out;
		}
	}
	k->release = estrdup(mr_release_name(rel));
	k->package = estrdup(kp->package);
	k->version = estrdup(c->version);
	k->upstream = estrdup(c->upstream);
	k->kver = estrdup(c->kver);
	k->deb_sha256 = estrdup(kp->sha256);
	k->fetched = img.fetched || bin.fetched || mods.fetched;
	rc = mr_kextract(k, vmlinuz, mp->root, lbase.root, why);
out:
	free(name);
	free(vmlinuz);
	mr_release_pkg_free(&img);
	mr_release_pkg_free(&bin);
	mr_release_pkg_free(&mods);
	mr_release_pkg_free(&lbase);
	return rc;
}

int
mr_kernel_get(const char *want, struct mr_kernel *k, struct strbuf *why)
{
	struct kcand c[MR_RELEASE_MAX];
	struct strbuf have = { 0 };
	int i, n, rc = MR_REL_NOVERSION, chosen = -1;

	memset(k, 0, sizeof *k);
	if (mr_release_init(NULL, why) < 0)
		return MR_REL_CANNOT;
	n = mr_release_count();
	memset(c, 0, sizeof c);
	for (i = 0; i < n && chosen < 0; i++) {
		release_kernel(i, &c[i]);
		if (matches(&c[i], i, want))
			chosen = i;
		sb_printf(&have, "%s%s %s", have.len ? ", " : "", mr_release_name(i),
			  c[i].kver ? c[i].upstream : c[i].why ? "?" : "none");
	}
	if (chosen >= 0) {
		rc = fetch(chosen, &c[chosen], k, why) == 0 ? MR_REL_OK : MR_REL_CANNOT;
		if (rc != MR_REL_OK)
			mr_kernel_free(k);
	} else {
		for (i = 0; i < n && rc == MR_REL_NOVERSION; i++)
			if (c[i].why) {
				sb_printf(why, "%s: %s", mr_release_name(i), c[i].why);
				rc = MR_REL_CANNOT;
			}
		if (rc == MR_REL_NOVERSION)
			sb_printf(why, "no release has kernel %s (%s)", want, have.s);
	}
	for (i = 0; i < n; i++)
		kcand_free(&c[i]);
	sb_free(&have);
	return rc;
}

void
mr_kernel_free(struct mr_kernel *k)
{
	int i;

	free(k->release);
	free(k->package);
	free(k->version);
	free(k->upstream);
	free(k->kver);
	free(k->deb_sha256);
	free(k->vmlinux);
	free(k->vmlinux_sha256);
	for (i = 0; i < k->nmodules; i++)
		free(k->modules[i]);
	free(k->modules);
	memset(k, 0, sizeof *k);
}

int
mr_kernel_cmd_versions(int json)
{
	struct strbuf err = { 0 };
	int i, rc = MR_OK;

	if (mr_release_init(NULL, &err) < 0) {
		weprintf("%s", err.s);
		sb_free(&err);
		return MR_USAGE;
	}
	if (json)
		printf("[");
	else
		printf("%-14s %-9s %-34s %-22s %-10s %s\n", "NAME", "RELEASE", "PACKAGE", "VERSION",
		       "UPSTREAM", "CACHED");
	for (i = 0; i < mr_release_count(); i++) {
		struct kcand c;
		char *pkg;

		release_kernel(i, &c);
		if (c.why)
			rc = MR_FAILED;
		pkg = c.kver ? esprintf("linux-image-%s", c.kver) : NULL;
		if (json)
			printf("%s\n{\"name\":\"kernel\",\"release\":\"%s\",\"package\":%s%s%s,"
			       "\"version\":%s%s%s,\"upstream\":%s%s%s,\"cached\":\"%s\"}",
			       i ? "," : "", mr_release_name(i), pkg ? "\"" : "", pkg ? pkg : "null",
			       pkg ? "\"" : "", c.version ? "\"" : "", c.version ? c.version : "null",
			       c.version ? "\"" : "", c.upstream ? "\"" : "",
			       c.upstream ? c.upstream : "null", c.upstream ? "\"" : "",
			       c.kver && mr_kextract_cached(c.kver, c.version) ? "yes" : "no");
		else
			printf("%-14s %-9s %-34s %-22s %-10s %s%s%s%s\n", "kernel", mr_release_name(i),
			       pkg ? pkg : "-", c.version ? c.version : c.why ? "?" : "-",
			       c.upstream ? c.upstream : c.why ? "?" : "-",
			       c.kver && mr_kextract_cached(c.kver, c.version) ? "yes" : c.kver ? "no" : "-",
			       c.why ? "  (cannot be had: " : "", c.why ? c.why : "", c.why ? ")" : "");
		free(pkg);
		kcand_free(&c);
	}
	if (json)
		printf("\n]\n");
	return rc;
}

int
mr_kernel_cmd_fetch(const char *want)
{
	struct mr_kernel k;
	struct strbuf why = { 0 };
	int i, g = mr_kernel_get(want, &k, &why);

	if (g == MR_REL_NOVERSION) {
		weprintf("kernel@%s: %s", want, why.s);
		sb_free(&why);
		return MR_USAGE;
	}
	if (g != MR_REL_OK) {
		weprintf("kernel@%s cannot be had: %s", want, why.s);
		sb_free(&why);
		return MR_FAILED;
	}
	printf("kernel@%s: %s %s %s (%s)\n", k.upstream, k.release, k.package, k.version,
	       k.fetched ? "fetched" : "cached");
	printf("  kver    %s\n  sha256  %s\n  vmlinux %s\n  vmlinux_sha256 %s\n", k.kver,
	       k.deb_sha256, k.vmlinux, k.vmlinux_sha256);
	for (i = 0; i < k.nmodules; i++)
		printf("  module  %s\n", k.modules[i]);
	mr_kernel_free(&k);
	sb_free(&why);
	return MR_OK;
}
