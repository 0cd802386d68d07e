/* kmod: the 9p modules of a kernel, in load order — see kmod.h. */
#include "release/kmod.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "release/files.h"
#include "release/runout.h"
#include "release/sha256.h"

#define MAXMOD 32

/* The modules found under the tree (nftw has no context argument). */
static struct {
	char *name[4096];
	char *path[4096];
	int n;
} found;

/* "a-b" and "a_b" are one module. */
static char *
norm(const char *s, size_t n)
{
	char *r = estrndup(s, n), *p;

	for (p = r; *p; p++)
		if (*p == '-')
			*p = '_';
	return r;
}

static int
visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base, *dot = strstr(base, ".ko");

	(void)st;
	if (type == FTW_F && dot && found.n < 4096 &&
	    (!dot[3] || strcmp(dot + 3, ".xz") == 0 || strcmp(dot + 3, ".zst") == 0)) {
		found.name[found.n] = norm(base, (size_t)(dot - base));
		found.path[found.n++] = estrdup(path);
	}
	return 0;
}

static void
found_free(void)
{
	while (found.n > 0) {
		found.n--;
		free(found.name[found.n]);
		free(found.path[found.n]);
	}
}

static const char *
find(const char *name)
{
	int i;

	for (i = 0; i < found.n; i++)
		if (strcmp(found.name[i], name) == 0)
			return found.path[i];
	return NULL;
}

/* Whether modules.builtin (its text) names the module. */
static int
builtin(const char *text, const char *name)
{
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		size_t n = strcspn(p, "\n");
		const char *b = memrchr(p, '/', n), *dot;
		char *nm;
		int same;

		b = b ? b + 1 : p;
		dot = strstr(b, ".ko");
		if (!dot || dot > p + n)
			continue;
		nm = norm(b, (size_t)(dot - b));
		same = strcmp(nm, name) == 0;
		free(nm);
		if (same)
			return 1;
	}
	return 0;
}

struct order {
	char *name[MAXMOD];
	char *file[MAXMOD]; /* decompressed, in dest */
	int n;
	const char *dest, *builtins;
};

/* The module's own depends= (its .modinfo), from the decompressed file. */
static char *
depends(const char *file)
{
	struct strbuf b = { 0 };
	char *r = NULL;
	size_t i;

	if (mr_rel_read_small(file, 64u << 20, &b) < 0)
		return NULL;
	for (i = 1; i + 8 < b.len && !r; i++)
		if (b.s[i - 1] == '\0' && memcmp(b.s + i, "depends=", 8) == 0)
			r = estrdup(b.s + i + 8);
	sb_free(&b);
	return r ? r : estrdup("");
}

/* Add name and, before it, what it depends on.  0, 1 (neither a module
 * nor built in), or -1 with why. */
static int
add(struct order *o, const char *name, int depth, struct strbuf *why)
{
	const char *src = find(name);
	char *out, *dep, *tok, *save = NULL;
	int i, rc;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->name[i], name) == 0)
			return 0;
	if (builtin(o->builtins, name))
		return 0;
	if (!src)
		return 1;
	if (depth > 16 || o->n >= MAXMOD) {
		sb_printf(why, "module %s: its dependencies go too deep", name);
		return -1;
	}
	out = esprintf("%s/modules/%s.ko.tmp", o->dest, name);
	{
		char *argv[] = { strstr(src, ".ko.xz") ? "xz" : strstr(src, ".ko.zst") ? "zstd" : "cat",
				 "-dc", (char *)src, NULL };

		if (strcmp(argv[0], "cat") == 0)
			argv[1] = (char *)src, argv[2] = NULL;
		if ((rc = mr_rel_run_out(argv, out, 120, why)) != 0) {
			if (rc > 0)
				sb_printf(why, "%s -dc %s: exit %d", argv[0], src, rc);
			free(out);
			return -1;
		}
	}
	dep = depends(out);
	for (tok = strtok_r(dep ? dep : "", ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *d = norm(tok, strlen(tok));

		rc = add(o, d, depth + 1, why);
		if (rc > 0)
			sb_printf(why, "module %s needs %s, which is neither a module nor built in",
				  name, d);
		free(d);
		if (rc != 0) {
			free(dep);
			free(out);
			return -1;
		}
	}
	free(dep);
	o->name[o->n] = estrdup(name);
	o->file[o->n++] = out;
	return 0;
}

/* The modules' directory of the tree holding file (fresh), or NULL. */
static char *
moddir(const char *root, const char *kver, const char *file)
{
	const char *pre[] = { "lib/modules", "usr/lib/modules" };
	struct stat st;
	int i;

	for (i = 0; i < 2; i++) {
		char *d = esprintf("%s/%s/%s", root, pre[i], kver);
		char *b = esprintf("%s/%s", d, file);
		int ok = stat(b, &st) == 0;

		free(b);
		if (ok)
			return d;
		free(d);
	}
	return NULL;
}

/* Each module into its place NN-NAME.ko, its line into man. */
static int
place(struct order *o, struct strbuf *man, struct strbuf *why)
{
	int i;

	for (i = 0; i < o->n; i++) {
		char *rel = esprintf("modules/%02d-%s.ko", i, o->name[i]);
		char *to = esprintf("%s/%s", o->dest, rel), hex[65];
		int bad = rename(o->file[i], to) < 0 || mr_sha256_file(to, hex) < 0;

		if (!bad)
			sb_printf(man, "module %s %s\n", rel, hex);
		else
			sb_printf(why, "%s: %s", to, strerror(errno));
		free(rel);
		free(to);
		if (bad)
			return -1;
	}
	return 0;
}

int
mr_kmod_extract(const char *modroot, const char *baseroot, const char *kver, const char *dest,
		struct strbuf *man, struct strbuf *why)
{
	struct order o = { .dest = dest };
	struct strbuf bi = { 0 };
	char *dir = moddir(modroot, kver, "kernel"), *want = estrdup(MR_KMOD_WANT), *tok, *save = NULL;
	char *bdir = moddir(baseroot ? baseroot : modroot, kver, "modules.builtin");
	char *mods = esprintf("%s/modules", dest), *kern;
	int rc = -1, i;

	if (!dir || !bdir) {
		sb_printf(why, "%s has no lib/modules/%s/%s", !dir ? modroot : baseroot ? baseroot : modroot,
			  kver, !dir ? "kernel" : "modules.builtin");
		goto out;
	}
	mr_rel_read_small((kern = esprintf("%s/modules.builtin", bdir)), 1u << 20, &bi);
	free(kern);
	o.builtins = bi.s ? bi.s : "";
	kern = esprintf("%s/kernel", dir);
	nftw(kern, visit, 16, FTW_PHYS);
	free(kern);
	if (mkdir(mods, 0755) < 0 && errno != EEXIST) {
		sb_printf(why, "%s: %s", mods, strerror(errno));
		goto out;
	}
	for (tok = strtok_r(want, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int r = add(&o, tok, 0, why);

		if (r < 0)
			goto out;
		char *word = esprintf(" %s ", tok);
		int needed = strstr(" " MR_KMOD_NEED " ", word) != NULL;

		free(word);
		if (r > 0 && needed) {
			sb_printf(why, "kernel %s has no module %s and does not build it in: no 9p",
				  kver, tok);
			goto out;
		}
	}
	rc = place(&o, man, why);
out:
	for (i = 0; i < o.n; i++) {
		free(o.name[i]);
		free(o.file[i]);
	}
	found_free();
	sb_free(&bi);
	free(dir);
	free(bdir);
	free(want);
	free(mods);
	return rc;
}
