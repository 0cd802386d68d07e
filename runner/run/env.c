/* env: the environment of a case or a helper — see env.h. */
#include "run/env.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define STR_(x) #x
#define STR(x) STR_(x)

extern char **environ;

char **
mr_spawn_env(const char *const *extra)
{
	size_t n = 0, i, k = 0;
	char **env;

	for (i = 0; environ && environ[i]; i++)
		n++;
	for (i = 0; extra && extra[i]; i++)
		n++;
	env = ecalloc(n + 1, sizeof *env);
	for (i = 0; environ && environ[i]; i++) {
		const char *e = environ[i];

		if (strncmp(e, "LD_PRELOAD=", 11) == 0 ||
		    strncmp(e, "GLIBC_TUNABLES=", 15) == 0 ||
		    strncmp(e, "MEMREPRO_", 9) == 0)
			continue;
		env[k++] = estrdup(e);
	}
	for (i = 0; extra && extra[i]; i++)
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
mr_spawn_env_channel(char *const *envp)
{
	size_t n = 0, i;
	char **env;

	while (envp[n])
		n++;
	env = ecalloc(n + 3, sizeof *env);
	for (i = 0; i < n; i++)
		env[i] = envp[i];
	env[n] = "MEMREPRO_CKPT_FD=" STR(MR_ENV_CKPT_FD);
	env[n + 1] = "MEMREPRO_ACK_FD=" STR(MR_ENV_ACK_FD);
	env[n + 2] = NULL;
	return env;
}
