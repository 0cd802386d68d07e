/* runtime: TEMPORARY host-only stub (replaced by the runtimes branch). */
#ifndef MR_RUNTIME_H
#define MR_RUNTIME_H

#include "core/util.h"

struct mr_runtime {
	char *spec, *lang, *ext, *version, *where, *exe, *sha256, *lib_sha256;
	char **argv, **env;
	int own_loader;
	char *missing;
};

int mr_runtime_spec_check(const char *spec, struct strbuf *err);
int mr_runtime_get(const char *spec, struct mr_runtime *rt, struct strbuf *err);
void mr_runtime_free(struct mr_runtime *rt);
int mr_runtime_is_spec(const char *spec);

#endif
