/* libc: the glibcs of the libc axis — see libc.h. */
#include "matrix/libc.h"

#include <fcntl.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "release/release.h"

static struct mr_libc *tab;
static int ntab;

int
mr_libc_cmp(const char *a, const char *b)
{
	return mr_dotted_cmp(a, b);
}

/* The host's glibc, "2.36". */
static const char *
host_version(void)
{
	return gnu_get_libc_version();
}

static int
resolve(struct mr_libc *l, struct strbuf *err)
{
	struct mr_release_pkg p = { 0 };
	struct strbuf why = { 0 };
	int rc;

	if (mr_libc_cmp(l->version, host_version()) == 0) {
		l->host = 1;
		return 0;
	}
	if (mr_libc_cmp(l->version, host_version()) < 0) {
		l->missing = esprintf("glibc %s is older than the host's %s, which the cases are built against (they need its GLIBC_2.34 symbols at least)",
				      l->version, host_version());
		return 0;
	}
	if (mr_release_init(NULL, &why) < 0) {
		l->missing = esprintf("glibc %s cannot be had: %s", l->version, why.s);
		sb_free(&why);
		return 0;
	}
	rc = mr_release_get_libc(l->version, &p, &why);
	if (rc == MR_REL_NOVERSION) {
		sb_printf(err, "--axis libc=%s: %s", l->version, why.s ? why.s : "no such version");
		sb_free(&why);
		return -1;
	}
	if (rc != MR_REL_OK) {
		l->missing = esprintf("glibc %s cannot be had: %s", l->version,
				      why.s ? why.s : "no reason given");
		sb_free(&why);
		return 0;
	}
	sb_free(&why);
	l->loader = mr_release_loader(&p);
	l->libdir = mr_release_libdir(&p);
	l->package = estrdup(p.package);
	l->release = estrdup(p.release);
	l->debver = estrdup(p.version);
	l->sha256 = estrdup(p.sha256);
	if (!l->loader || !l->libdir)
		l->missing = esprintf("glibc %s: %s %s has no %s", l->version, p.package, p.version,
				      l->loader ? "libc.so.6" : "ld-linux-x86-64.so.2");
	else if (strcmp(p.upstream, l->version) != 0)
		l->missing = esprintf("glibc %s: the release cache gave %s %s", l->version,
				      p.package, p.version);
	mr_release_pkg_free(&p);
	return 0;
}

int
mr_libc_prepare(const struct mr_matrix_axis *ax, int nax, struct strbuf *err)
{
	int a, j, rc = 0;

	mr_libc_free_all();
	for (a = 0; a < nax; a++) {
		if (strcmp(ax[a].key, "libc") != 0)
			continue;
		tab = ecalloc((size_t)ax[a].nvals, sizeof *tab);
		for (j = 0; rc == 0 && j < ax[a].nvals; j++) {
			tab[ntab].version = estrdup(ax[a].vals[j]);
			rc = resolve(&tab[ntab++], err);
		}
		break;
	}
	return rc;
}

const struct mr_libc *
mr_libc_find(const char *version)
{
	int i;

	for (i = 0; i < ntab; i++)
		if (strcmp(tab[i].version, version) == 0)
			return &tab[i];
	return NULL;
}

int
mr_libc_count(void)
{
	return ntab;
}

const struct mr_libc *
mr_libc_at(int i)
{
	return i >= 0 && i < ntab ? &tab[i] : NULL;
}

void
mr_libc_free_all(void)
{
	int i;

	for (i = 0; i < ntab; i++) {
		free(tab[i].version);
		free(tab[i].loader);
		free(tab[i].libdir);
		free(tab[i].package);
		free(tab[i].release);
		free(tab[i].debver);
		free(tab[i].sha256);
		free(tab[i].missing);
	}
	free(tab);
	tab = NULL;
	ntab = 0;
}

/* The interpreter line of the script at path ("#!/bin/bash -e"): the
 * interpreter into *interp and its one optional argument into *arg
 * (fresh, NULL: none), as the kernel splits it.  0, or -1 when path is
 * not a script (an ELF program, unreadable). */
static int
shebang(const char *path, char **interp, char **arg)
{
	char buf[256], *p, *e;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return -1;
	buf[n] = 0;
	if (!(e = strchr(buf, '\n')))
		return -1; /* longer than the kernel reads: not ours to guess */
	*e = 0;
	for (p = buf + 2; *p == ' ' || *p == '\t'; p++)
		;
	for (e = p; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (e == p)
		return -1;
	*interp = estrndup(p, (size_t)(e - p));
	for (; *e == ' ' || *e == '\t'; e++)
		;
	p = e + strlen(e);
	while (p > e && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	*arg = p > e ? estrndup(e, (size_t)(p - e)) : NULL;
	/* "#!/usr/bin/env NAME": NAME is the interpreter (env under the
	 * loader would start it under the host's glibc) */
	if (*arg && !strcmp(*interp + strlen(*interp) - (strlen(*interp) >= 4 ? 4 : 0), "/env") &&
	    !strchr(*arg, ' ') && (*arg)[0] != '-' && (p = mr_which(*arg))) {
		free(*interp);
		free(*arg);
		*interp = p;
		*arg = NULL;
	}
	return 0;
}

char **
mr_libc_argv(const struct mr_libc *l, char *const *argv, const char *alloc_path,
	     char *env[3])
{
	const char *slash = alloc_path ? strrchr(alloc_path, '/') : NULL;
	char **out, *lp, *exe = realpath(argv[0], NULL), *interp = NULL, *arg = NULL;
	int n = 0, i, script;

	for (i = 0; argv[i]; i++)
		;
	out = ecalloc((size_t)i + 9, sizeof *out);
	if (slash && slash != alloc_path)
		lp = esprintf("%s:%.*s", l->libdir, (int)(slash - alloc_path), alloc_path);
	else
		lp = estrdup(l->libdir);
	/* a script: the loader runs its interpreter (the loader takes ELF
	 * programs only), as the kernel would: INTERP [ARG] SCRIPT ARGS */
	script = exe && shebang(exe, &interp, &arg) == 0;
	out[n++] = estrdup(l->loader);
	out[n++] = estrdup("--library-path");
	out[n++] = lp;
	out[n++] = estrdup("--argv0");
	if (script) {
		out[n++] = estrdup(interp);
		out[n++] = interp;
		if (arg)
			out[n++] = arg;
		out[n++] = estrdup(argv[0]);
		free(exe);
	} else {
		out[n++] = estrdup(argv[0]);
		out[n++] = exe ? exe : estrdup(argv[0]);
	}
	for (i = 1; argv[i]; i++)
		out[n++] = estrdup(argv[i]);
	out[n] = NULL;
	env[0] = esprintf("MEMREPRO_LOADER=%s", l->loader);
	env[1] = esprintf("MEMREPRO_LIBRARY_PATH=%s", lp);
	env[2] = esprintf("MEMREPRO_CASE_EXE=%s", out[5]);
	return out;
}
