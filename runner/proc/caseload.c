/* caseload: a case's description, from running it with --describe — see
 * caseload.h. */
#include "proc/caseload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "proc/capture.h"
#include "proc/env.h"

/* A case that takes longer than this to describe itself is broken. */
#define DESCRIBE_TIMEOUT_MS 10000
#define DESCRIBE_MAX (1 << 20)

int
mr_cases_load(const char *dir, const char *name, struct mr_cases_desc *out,
	      struct strbuf *err)
{
	struct strbuf text = { 0 };
	char *path = esprintf("%s/%s", dir, name);
	char *argv[] = { path, "--describe", NULL };
	char **env = mr_spawn_env(NULL);
	char *origin = esprintf("%s --describe", path);
	int status = 0, rc;

	memset(out, 0, sizeof *out);
	rc = mr_spawn_capture(argv, env, DESCRIBE_TIMEOUT_MS, DESCRIBE_MAX, 1,
			      &text, &status);
	mr_spawn_env_free(env);
	if (rc == -ETIMEDOUT)
		sb_printf(err, "%s: gave no description within %d s", origin, DESCRIBE_TIMEOUT_MS / 1000);
	else if (rc == -EFBIG)
		sb_printf(err, "%s: description longer than %d bytes", origin, DESCRIBE_MAX);
	else if (rc == -EINTR)
		sb_printf(err, "%s: interrupted", origin);
	else if (rc < 0)
		sb_printf(err, "%s: cannot run: %s", origin, strerror(-rc));
	else if (WIFSIGNALED(status))
		sb_printf(err, "%s: killed by signal %d", origin, WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		sb_printf(err, "%s: exited with status %d", origin, WEXITSTATUS(status));
	else if (mr_cases_parse(name, origin, text.s ? text.s : "", text.len, out, err) == 0) {
		out->path = path;
		path = NULL;
	} else {
		rc = -2;
	}
	if (rc != -2)
		rc = out->path ? 0 : -1;
	free(path);
	sb_free(&text);
	free(origin);
	return rc;
}
