/* capture: running a helper (a case's --describe, a probe, gnuplot) and
 * keeping its output.
 *
 * Not a measured run: no sampling, no checkpoints, no cgroup of its own;
 * but bounded in time and output, and whatever it leaves behind is killed
 * and reaped as a run's leftovers are (proc/tree.h).
 */
#ifndef MR_CAPTURE_H
#define MR_CAPTURE_H

#include <stddef.h>

#include "core/util.h"

/* Run argv (no shell) with envp, stdin from /dev/null, stdout captured into
 * out (at most max bytes), stderr to /dev/null (keep_stderr 0), to ours
 * (1) or into out with stdout (2: gnuplot's messages).  Kills
 * the child's group after timeout_ms.  Returns 0 with the wait status in
 * *status; -ETIMEDOUT, -EFBIG (output over max), -EINTR, or -errno of a
 * failed exec (with the child reaped in every case). */
int mr_spawn_capture(char *const *argv, char *const *envp, long timeout_ms,
		     size_t max, int keep_stderr, struct strbuf *out,
		     int *status);

/* The same, the child working in dir (NULL: ours): `apt-get download`
 * writes into its working directory.  A failed chdir is reported as a
 * failed exec (-errno). */
int mr_spawn_capture_in(const char *dir, char *const *argv, char *const *envp,
			long timeout_ms, size_t max, int keep_stderr,
			struct strbuf *out, int *status);

#endif
