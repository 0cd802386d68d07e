/* Fuzz target: the allocator registry (runner/matrix/registry.c), parsed
 * whole as a registry file read after the shipped one (an entry replaces
 * one of its name), then every entry asked for its package and library in
 * a release and for the environment of an option. */
#include <stdlib.h>
#include <string.h>

#include "matrix/regparse.h"
#include "fuzz.h"

static const char shipped[] =
	"[glibc]\nlibrary = libc.so.6\npackage = libc6\noptions = tunables\npreload = no\ndefault = yes\n"
	"[jemalloc]\nlibrary = libjemalloc.so.2\noptions = conf MALLOC_CONF\ndefault = yes\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const key[] = { "a.b", "c" }, *const val[] = { "-1", "x" };
	struct mr_registry r = { 0 };
	struct strbuf err = { 0 };
	char *text;
	int i;

	/* the file reader refuses a NUL byte before parsing */
	if (memchr(data, '\0', size))
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (mr_registry_parse(&r, "shipped", shipped, &err) == 0 &&
	    mr_registry_parse(&r, "fuzz", text, &err) == 0) {
		for (i = 0; i < r.n; i++) {
			char **env = NULL;

			(void)mr_registry_package(&r.e[i], "trixie");
			(void)mr_registry_library(&r.e[i], "sid");
			if (mr_registry_opt_env(&r.e[i], key, val, 2, &env, &err) == 0)
				mr_registry_env_free(env);
		}
		(void)mr_registry_find_spec(&r, "jemalloc@5.2.1");
		sb_free(&err);
		mr_registry_unknown(&r, "jemaloc", &err);
		(void)mr_registry_set(&r, "mine=libmine.so.1", &err);
	}
	sb_free(&err);
	mr_registry_free(&r);
	free(text);
	return 0;
}
