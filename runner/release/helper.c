/* helper: the bounded helper runner of the release sources — see
 * helper.h. */
#include "release/helper.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc/capture.h"

extern char **environ;

#define MAX_OUT (16u << 20)  /* a helper's output: apt-cache show of libc6 is ~10 kB */

long
mr_rel_timeout(long ms)
{
	const char *s = getenv("MEMREPRO_HELPER_TIMEOUT");
	long long v;

	if (s && parse_ll(s, &v) == 0 && v > 0 && v < 86400)
		return (long)v * 1000;
	return ms;
}

/* The first line of out that apt marks as an error ("E: "), else the
 * first it marks as a warning ("W: "), else its last line, into why: a
 * warning apt prints first (running unsandboxed) is not what failed. */
void
mr_rel_gist(const char *out, struct strbuf *why)
{
	const char *p, *nl, *last = NULL, *warn = NULL;
	size_t lastlen = 0, warnlen = 0;

	for (p = out; *p; p = *nl ? nl + 1 : nl) {
		size_t len;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		len = (size_t)(nl - p);
		if (len == 0)
			continue;
		last = p;
		lastlen = len;
		if (len > 3 && p[0] == 'E' && p[1] == ':' && p[2] == ' ') {
			sb_printf(why, "%.*s", (int)len, p);
			return;
		}
		if (!warn && len > 3 && p[0] == 'W' && p[1] == ':' && p[2] == ' ') {
			warn = p;
			warnlen = len;
		}
	}
	if (warn)
		sb_printf(why, "%.*s", (int)warnlen, warn);
	else if (last)
		sb_printf(why, "%.*s", (int)lastlen, last);
}

int
mr_rel_helper(const char *dir, const char *const *argv, const char *apt_config,
	      long timeout_ms, int with_stderr, struct strbuf *out, struct strbuf *why)
{
	char *exe = mr_which(argv[0]), **av, **envp;
	int n, i, j, st = 0, rc;

	if (!exe) {
		sb_printf(why, "%s: not found in PATH", argv[0]);
		return -1;
	}
	for (n = 0; argv[n]; n++)
		;
	av = ecalloc((size_t)n + 1, sizeof *av);
	av[0] = exe;
	for (i = 1; i < n; i++)
		av[i] = (char *)argv[i];
	for (n = 0; environ[n]; n++)
		;
	envp = ecalloc((size_t)n + 3, sizeof *envp);
	for (i = j = 0; i < n; i++)
		if (strncmp(environ[i], "APT_CONFIG=", 11) && strncmp(environ[i], "LC_ALL=", 7))
			envp[j++] = environ[i];
	envp[j++] = (char *)"LC_ALL=C";
	if (apt_config)
		envp[j++] = esprintf("APT_CONFIG=%s", apt_config);
	timeout_ms = mr_rel_timeout(timeout_ms);
	rc = mr_spawn_capture_in(dir, av, envp, timeout_ms, MAX_OUT, with_stderr ? 2 : 0,
				 out, &st);
	if (apt_config)
		free(envp[j - 1]);
	free(envp);
	free(av);
	free(exe);
	if (rc == -ETIMEDOUT) {
		sb_printf(why, "%s: timed out after %ld s (killed)", argv[0], timeout_ms / 1000);
		return -1;
	}
	if (rc < 0) {
		sb_printf(why, "%s: cannot run: %s", argv[0], strerror(-rc));
		return -1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		sb_printf(why, "%s: exit %d", argv[0], WEXITSTATUS(st));
	else
		sb_printf(why, "%s: killed by signal %d", argv[0], WTERMSIG(st));
	if (out->len) {
		sb_add(why, ": ");
		mr_rel_gist(out->s, why);
	}
	return -1;
}
