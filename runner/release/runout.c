/* runout: a decompressor run into a file — see runout.h. */
#include "release/runout.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mr_exit.h"

int
mr_rel_run_out(char *const *argv, const char *out, long timeout_s, struct strbuf *why)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), st = 0;
	uint64_t end = mr_now_ns() + (uint64_t)timeout_s * 1000000000u;
	pid_t pid, w;

	if (fd < 0) {
		sb_printf(why, "%s: %s", out, strerror(errno));
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		sb_printf(why, "fork: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		dup2(nul, 0);
		dup2(fd, 1);
		execvp(argv[0], argv);
		_exit(MR_EXIT_EXEC);
	}
	close(fd);
	while ((w = waitpid(pid, &st, WNOHANG)) == 0) {
		struct timespec ts = { 0, 20000000 };

		if (mr_now_ns() > end) {
			kill(pid, SIGKILL); /* our child, not yet reaped */
			waitpid(pid, &st, 0);
			sb_printf(why, "%s: timed out after %ld s (killed)", argv[0], timeout_s);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	if (w < 0 || !WIFEXITED(st)) {
		sb_printf(why, "%s: %s", argv[0], w < 0 ? strerror(errno) : "killed by a signal");
		return -1;
	}
	if (WEXITSTATUS(st) == MR_EXIT_EXEC) {
		sb_printf(why, "%s: cannot run it (is it installed?)", argv[0]);
		return -1;
	}
	return WEXITSTATUS(st);
}
