/* releases: the releases file (etc/releases) and the cache directory —
 * see releases.h. */
#include "release/releases.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
	int done, rc;
	struct strbuf err;
	int n;
	char *name[MR_RELEASE_MAX];
	char *opts[MR_RELEASE_MAX];
	char *keyring;
} rels;

/* --- the releases file ---------------------------------------------- */

static char *
shipped_file(void)
{
	return mr_shipped_file("etc/releases", "releases");
}

static int
parse_releases(const char *path, struct strbuf *err)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	long ln = 0;

	if (!f) {
		sb_printf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		char *w[3] = { 0 }, *p = line, *nl = strchr(line, '\n');
		int nw = 0;

		ln++;
		if (!nl && !feof(f)) {
			sb_printf(err, "%s:%ld:1: line too long", path, ln);
			goto fail;
		}
		if (nl)
			*nl = '\0';
		while (nw < 3) {
			p += strspn(p, " \t");
			if (!*p || *p == '#')
				break;
			w[nw++] = p;
			if (nw == 3)
				break;
			p += strcspn(p, " \t");
			if (*p)
				*p++ = '\0';
		}
		if (nw == 0)
			continue;
		if (strcmp(w[0], "keyring") == 0 && nw == 2 && w[1][0] == '/') {
			free(rels.keyring);
			rels.keyring = estrdup(w[1]);
		} else if (strcmp(w[0], "release") == 0 && nw >= 2) {
			const char *c;

			for (c = w[1]; *c; c++)
				if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
					break;
			if (*c || mr_release_index(w[1]) >= 0 || rels.n == MR_RELEASE_MAX) {
				sb_printf(err, "%s:%ld:%ld: release '%s': %s", path, ln,
					  (long)(w[1] - line) + 1, w[1],
					  *c ? "want lower-case letters, digits and '-'" :
					  rels.n == MR_RELEASE_MAX ? "too many releases" : "given twice");
				goto fail;
			}
			rels.name[rels.n] = estrdup(w[1]);
			rels.opts[rels.n] = estrdup(nw == 3 ? w[2] : "");
			if (nw == 3 && strpbrk(w[2], "[]"))
				rels.opts[rels.n][0] = '\0';
			rels.n++;
		} else {
			sb_printf(err, "%s:%ld:%ld: want 'release NAME [APT-OPTIONS]' or 'keyring /PATH', got '%s'",
				  path, ln, (long)(w[0] - line) + 1, w[0]);
			goto fail;
		}
	}
	fclose(f);
	if (!rels.n) {
		sb_printf(err, "%s: names no release", path);
		return -1;
	}
	if (!rels.keyring)
		rels.keyring = estrdup("/usr/share/keyrings/debian-archive-keyring.gpg");
	return 0;
fail:
	fclose(f);
	return -1;
}

int
mr_release_init(const char *file, struct strbuf *err)
{
	if (!rels.done) {
		char *path = file ? estrdup(file) : shipped_file();

		rels.done = 1;
		rels.rc = parse_releases(path, &rels.err);
		free(path);
	}
	if (rels.rc < 0)
		sb_add(err, rels.err.s);
	return rels.rc;
}

int
mr_release_count(void)
{
	return rels.n;
}

const char *
mr_release_name(int i)
{
	return i >= 0 && i < rels.n ? rels.name[i] : NULL;
}

int
mr_release_index(const char *name)
{
	int i;

	for (i = 0; i < rels.n; i++)
		if (strcmp(rels.name[i], name) == 0)
			return i;
	return -1;
}

const char *
mr_rel_options(int rel)
{
	return rels.opts[rel];
}

const char *
mr_rel_keyring(void)
{
	return rels.keyring;
}

char *
mr_release_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	/* the XDG spec: a relative XDG_CACHE_HOME is to be ignored */
	if (x && x[0] == '/')
		return esprintf("%s/memrepro", x);
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(getuid());

		home = pw && pw->pw_dir ? pw->pw_dir : "/tmp";
	}
	return esprintf("%s/.cache/memrepro", home);
}
