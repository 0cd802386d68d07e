/* env: the environment a case or a helper is run with.
 *
 * The runner's own minus what would change the run (an LD_PRELOAD, glibc
 * tunables, MEMREPRO_*), plus what the config asks for; a case's run adds
 * where its checkpoint channel is.
 */
#ifndef MR_ENV_H
#define MR_ENV_H

#include <sys/types.h>

/* The fds the case finds its checkpoint channel on (MEMREPRO_CKPT_FD: it
 * writes records, MEMREPRO_ACK_FD: it reads acks): fixed, so a case run by
 * hand can be given them too. */
#define MR_ENV_CKPT_FD 3
#define MR_ENV_ACK_FD 4

/* A NULL-terminated, owned environment: the runner's token first (see
 * mr_env_token), then the runner's own minus LD_PRELOAD, GLIBC_TUNABLES and
 * MEMREPRO_* and any variable extra sets, plus extra (NULL-terminated
 * "K=V" strings, may be NULL).  One entry per name: of an inherited name
 * given twice the first (getenv's), of one extra gives twice the first
 * (callers put the runner's own first); the token is not replaced.
 * Free with mr_spawn_env_free. */
char **mr_spawn_env(const char *const *extra);
void mr_spawn_env_free(char **env);

/* The environment of a case's run: envp (from mr_spawn_env) without any
 * MEMREPRO_CKPT_FD or MEMREPRO_ACK_FD, plus the channel's own; and when
 * tmpvar ("TMPDIR=<the run's scratch>", proc/scratch.h) is given, that
 * instead of envp's TMPDIR.  The array is fresh (free it with free); its
 * strings are envp's, tmpvar or static. */
char **mr_spawn_env_channel(char *const *envp, const char *tmpvar);

/* "MEMREPRO_RUN=<64 random bits>": made once per runner (its workers share
 * it), put into the environment of everything it starts.  Only those
 * processes and their descendants carry it (/proc/PID/environ), so it tells
 * an orphan of the run from the orphan of a job the runner inherited from
 * the shell that exec'd it. */
const char *mr_env_token(void);

/* Does /proc/PID/environ hold the token, as an entry of its own (the
 * first 128 KiB of it)?  1 or 0. */
int mr_env_has_token(pid_t pid);

#endif
