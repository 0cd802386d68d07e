/* rtmemo: the runtimes this process has resolved — see rtmemo.h. */
#include "matrix/rtmemo.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static struct mr_runtime *memo;
static int nmemo;

static char *
dup_or_null(const char *s)
{
	return s ? estrdup(s) : NULL;
}

static char **
dup_vec(char *const *v)
{
	int n = 0, i;
	char **out;

	while (v && v[n])
		n++;
	out = ecalloc((size_t)n + 1, sizeof *out);
	for (i = 0; i < n; i++)
		out[i] = estrdup(v[i]);
	return out;
}

static void
copy(struct mr_runtime *to, const struct mr_runtime *from)
{
	*to = *from; /* the flags; every string below made its own */
	to->spec = dup_or_null(from->spec);
	to->lang = dup_or_null(from->lang);
	to->ext = dup_or_null(from->ext);
	to->version = dup_or_null(from->version);
	to->where = dup_or_null(from->where);
	to->exe = dup_or_null(from->exe);
	to->sha256 = dup_or_null(from->sha256);
	to->lib_sha256 = dup_or_null(from->lib_sha256);
	to->argv = dup_vec(from->argv);
	to->env = dup_vec(from->env);
	to->missing = dup_or_null(from->missing);
	to->libpath = dup_or_null(from->libpath);
	to->glibc_need = dup_or_null(from->glibc_need);
	to->loader = dup_or_null(from->loader);
	to->libc_version = dup_or_null(from->libc_version);
	to->integrity = dup_or_null(from->integrity);
}

int
mr_rtmemo_get(const char *spec, struct mr_runtime *out)
{
	int i;

	for (i = 0; i < nmemo; i++) {
		if (strcmp(memo[i].spec, spec) == 0) {
			copy(out, &memo[i]);
			return 1;
		}
	}
	return 0;
}

void
mr_rtmemo_put(const struct mr_runtime *rt)
{
	int i;

	for (i = 0; rt->spec && i < nmemo; i++)
		if (strcmp(memo[i].spec, rt->spec) == 0)
			return;
	if (!rt->spec)
		return;
	memo = erealloc(memo, (size_t)(nmemo + 1) * sizeof *memo);
	copy(&memo[nmemo++], rt);
}
