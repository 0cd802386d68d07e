/* TEMPORARY host-only stub. */
#include "run/runtime.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/capture.h"

int mr_runtime_spec_check(const char *spec, struct strbuf *err) { (void)spec; (void)err; return 0; }
int mr_runtime_is_spec(const char *spec) { return strncmp(spec, "node", 4) == 0 || strncmp(spec, "ruby", 4) == 0; }

int
mr_runtime_get(const char *spec, struct mr_runtime *rt, struct strbuf *err)
{
	const char *lang = strncmp(spec, "node", 4) == 0 ? "node" : "ruby";
	const char *path = getenv("PATH");
	char *dirs = estrdup(path ? path : "/usr/bin"), *d, *save = NULL;

	(void)err;
	memset(rt, 0, sizeof *rt);
	rt->spec = estrdup(spec);
	rt->lang = estrdup(lang);
	rt->ext = estrdup(lang[0] == 'n' ? "js" : "rb");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = esprintf("%s/%s", d, lang);
		if (access(p, X_OK) == 0) { rt->exe = p; break; }
		free(p);
	}
	free(dirs);
	if (!rt->exe || strchr(spec, '@')) {
		rt->missing = esprintf("%s cannot be had (stub)", spec);
		return 0;
	}
	rt->argv = ecalloc(3, sizeof *rt->argv);
	rt->argv[0] = estrdup(rt->exe);
	if (lang[0] == 'r')
		rt->argv[1] = estrdup("--disable-gems");
	rt->env = ecalloc(1, sizeof *rt->env);
	rt->version = estrdup("host");
	rt->where = esprintf("host %s", rt->exe);
	return 0;
}

void
mr_runtime_free(struct mr_runtime *rt)
{
	int i;
	for (i = 0; rt->argv && rt->argv[i]; i++) free(rt->argv[i]);
	for (i = 0; rt->env && rt->env[i]; i++) free(rt->env[i]);
	free(rt->argv); free(rt->env);
	free(rt->spec); free(rt->lang); free(rt->ext); free(rt->version); free(rt->where);
	free(rt->exe); free(rt->sha256); free(rt->lib_sha256); free(rt->missing);
	memset(rt, 0, sizeof *rt);
}
