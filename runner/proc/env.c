/* env: the environment of a case or a helper — see env.h. */
#include "proc/env.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "mr_schema.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define CKPT_EQ MR_ENV_CKPT_FD_VAR "="
#define ACK_EQ MR_ENV_ACK_FD_VAR "="

extern char **environ;

/* Does one of the n entries of list set the variable of entry e
 * ("NAME=...")? */
static int
has_var(const char *e, const char *const *list, size_t n)
{
	size_t len = strcspn(e, "="), i;

	for (i = 0; i < n && list && list[i]; i++)
		if (strncmp(list[i], e, len) == 0 && list[i][len] == '=')
			return 1;
	return 0;
}

char **
mr_spawn_env(const char *const *extra)
{
	size_t n = 0, i, k = 0;
	char **env;

	for (i = 0; environ && environ[i]; i++)
		n++;
	for (i = 0; extra && extra[i]; i++)
		n++;
	env = ecalloc(n + 2, sizeof *env);
	env[k++] = estrdup(mr_env_token());
	for (i = 0; environ && environ[i]; i++) {
		const char *e = environ[i];

		if (strncmp(e, "LD_PRELOAD=", 11) == 0 ||
		    strncmp(e, "GLIBC_TUNABLES=", 15) == 0 ||
		    strncmp(e, "MEMREPRO_", 9) == 0 || has_var(e, extra, (size_t)-1) ||
		    has_var(e, (const char *const *)env, k))
			continue;
		env[k++] = estrdup(e);
	}
	/* one entry per name, whatever extra holds: its first (the runner
	 * puts its own first) */
	for (i = 0; extra && extra[i]; i++)
		if (!has_var(extra[i], extra, i) && strncmp(extra[i], "MEMREPRO_RUN=", 13) != 0)
			env[k++] = estrdup(extra[i]);
	env[k] = NULL;
	return env;
}

void
mr_spawn_env_free(char **env)
{
	size_t i;

	for (i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

char **
mr_spawn_env_channel(char *const *envp, const char *tmpvar)
{
	size_t n = 0, i, k;
	char **env;

	while (envp[n])
		n++;
	env = ecalloc(n + 4, sizeof *env);
	for (i = k = 0; i < n; i++) /* the channel's are these alone */
		if (strncmp(envp[i], CKPT_EQ, sizeof CKPT_EQ - 1) != 0 &&
		    strncmp(envp[i], ACK_EQ, sizeof ACK_EQ - 1) != 0 &&
		    (!tmpvar || strncmp(envp[i], "TMPDIR=", 7) != 0))
			env[k++] = envp[i];
	env[k++] = CKPT_EQ STR(MR_ENV_CKPT_FD);
	env[k++] = ACK_EQ STR(MR_ENV_ACK_FD);
	if (tmpvar)
		env[k++] = (char *)tmpvar;
	env[k] = NULL;
	return env;
}

const char *
mr_env_token(void)
{
	static char token[40];

	if (!token[0]) {
		unsigned long long r;
		struct timespec ts;

		/* not a secret: only unlikely to be anyone else's */
		if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
			clock_gettime(CLOCK_REALTIME, &ts);
			r = (unsigned long long)ts.tv_nsec * 6364136223846793005ull ^
			    (unsigned long long)ts.tv_sec ^ (unsigned long long)getpid() << 32;
		}
		snprintf(token, sizeof token, "MEMREPRO_RUN=%016llx", r);
	}
	return token;
}

int
mr_env_has_token(pid_t pid)
{
	static char buf[128 << 10];
	const char *tok = mr_env_token(), *p, *end;
	size_t tl = strlen(tok), len = 0;
	char path[64];
	int fd;

	snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	while (len < sizeof buf) {
		ssize_t r = read(fd, buf + len, sizeof buf - len);

		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	for (p = buf, end = buf + len; p < end; p += strnlen(p, (size_t)(end - p)) + 1)
		if ((size_t)(end - p) > tl && memcmp(p, tok, tl) == 0 && p[tl] == '\0')
			return 1;
	return 0;
}
