#include "out/outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

char *
mr_of_tmpname(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	int dl = slash ? (int)(slash - path + 1) : 0;

	if (!dot || dot == base)
		dot = base + strlen(base);
	return esprintf("%.*s.%.*s.%ld.tmp%s", dl, path, (int)(dot - base), base,
			(long)getpid(), dot);
}

FILE *
mr_of_create(const char *path, char **tmp)
{
	FILE *f;

	*tmp = mr_of_tmpname(path);
	f = mr_create_out(*tmp);
	if (!f) {
		weprintf("create %s:", *tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

int
mr_of_commit(FILE *f, char *tmp, const char *path)
{
	int bad = ferror(f) | (fclose(f) != 0);

	if (bad) {
		weprintf("write %s:", tmp);
	} else if (rename(tmp, path) < 0) {
		weprintf("rename %s to %s:", tmp, path);
		bad = 1;
	}
	if (bad) {
		unlink(tmp);
		unlink(path);
	}
	free(tmp);
	return bad ? -1 : 0;
}

/* p resolved: its longest existing prefix through realpath, then the
 * rest (not yet created, so free of links) component by component, "."
 * dropped and ".." taking one off.  Fresh string. */
static char *
resolve(const char *p)
{
	char *head = estrdup(p), *real = NULL;
	size_t n = strlen(head);
	struct strbuf b = {0};
	const char *s, *e;

	for (;;) {
		real = realpath(n ? head : ".", NULL);
		if (real || !n)
			break;
		while (n > 0 && head[n - 1] == '/')
			n--;
		while (n > 0 && head[n - 1] != '/')
			n--;
		head[n] = '\0';
	}
	free(head);
	sb_add(&b, real ? real : "");
	if (!real)
		n = 0;
	free(real);
	for (s = p + n; *s; s = *e ? e + 1 : e) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		if (e == s || (e - s == 1 && *s == '.'))
			continue;
		if (e - s == 2 && s[0] == '.' && s[1] == '.') {
			while (b.len > 0 && b.s[b.len - 1] != '/')
				b.len--;
			if (b.len > 0)
				b.len--;
			b.s[b.len] = '\0';
			continue;
		}
		sb_add(&b, "/");
		sb_addn(&b, s, (size_t)(e - s));
	}
	if (!b.len)
		sb_add(&b, "/");
	return b.s;
}

int
mr_of_inside(const char *out, const char *dir)
{
	char *o = resolve(out), *d = resolve(dir);
	size_t n = strlen(d);
	int in = !strncmp(o, d, n) && (o[n] == '\0' || o[n] == '/' || !strcmp(d, "/"));

	free(o);
	free(d);
	return in;
}

int
mr_of_check_out(const char *out, const char *const *dirs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (mr_of_inside(out, dirs[i])) {
			weprintf("--out %s is %s %s, one of the results read: the output goes in a directory of its own",
				 out, mr_of_inside(dirs[i], out) ? "the results directory" :
				 "inside the results directory", dirs[i]);
			return -1;
		}
	return 0;
}
