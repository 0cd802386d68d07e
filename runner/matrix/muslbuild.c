/* muslbuild: the musl build of a case — see muslbuild.h. */
#include "matrix/muslbuild.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safeio.h"
#include "proc/capture.h"
#include "core/util.h"

char *
mr_musl_case_path(const struct mr_cases_desc *c, char **why)
{
	const char *slash = strrchr(c->path, '/');
	char *dir = slash ? esprintf("%.*s/musl", (int)(slash - c->path), c->path) :
		    estrdup("musl");
	char *path = esprintf("%s/%s", dir, c->name), *skip, *nl;

	*why = NULL;
	if (access(path, X_OK) == 0) {
		free(dir);
		return path;
	}
	free(path);
	path = esprintf("%s.skip", c->name);
	skip = mr_sio_tail(dir, path, 1);
	free(path);
	if ((nl = strchr(skip, '\n')) != NULL)
		*nl = '\0';
	if (skip[0])
		*why = esprintf("%s has no musl build: %s", c->name, skip);
	else
		*why = esprintf("no musl build of %s in %s (make builds them where musl-gcc is: Debian package musl-tools)",
				c->name, dir);
	free(skip);
	free(dir);
	return NULL;
}

char *
mr_musl_version(void)
{
	char *argv[2] = { NULL, NULL }, *env[1] = { NULL }, *v, *ver = NULL;
	struct strbuf out = { 0 };
	glob_t g;
	int status;

	if (glob("/lib/ld-musl-*.so.1", 0, NULL, &g) != 0)
		return NULL;
	argv[0] = g.gl_pathv[0];
	if (mr_spawn_capture(argv, env, 5000, 4096, 2, &out, &status) == 0 && out.s &&
	    (v = strstr(out.s, "Version ")) != NULL)
		ver = estrndup(v + 8, strcspn(v + 8, " \n"));
	sb_free(&out);
	globfree(&g);
	return ver && *ver ? ver : (free(ver), NULL);
}
