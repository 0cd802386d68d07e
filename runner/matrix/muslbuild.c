/* muslbuild: the musl build of a case — see muslbuild.h. */
#include "matrix/muslbuild.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safeio.h"
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
