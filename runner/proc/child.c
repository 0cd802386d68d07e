/* child: between fork and exec — see child.h. */
#include "proc/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "mr_exit.h"
#include "proc/env.h"

void
mr_child_signals(void)
{
	struct sigaction dfl = { 0 };
	sigset_t none;

	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	sigaction(SIGCONT, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

_Noreturn void
mr_child_fail(int errfd)
{
	int e = errno;
	ssize_t n = write(errfd, &e, sizeof e);

	(void)n;
	_exit(MR_EXIT_EXEC);
}

_Noreturn void
mr_child_exec(char *const *argv, char *const *env, pid_t parent,
	      const struct mr_child_fds *f)
{
	int fds[4] = { f->in, f->out, f->ckpt, f->ack }, errfd, i;

	setpgid(0, 0);
	mr_child_signals();
	/* Should the runner be killed outright, the case dies with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(MR_EXIT_EXEC);
	/* Lift every fd we need above the targets first, so no dup2 below
	 * closes one we still need (the error pipe included). */
	errfd = fcntl(f->err, F_DUPFD_CLOEXEC, 10);
	if (errfd < 0)
		_exit(MR_EXIT_EXEC);
	/* Join the run's cgroups before anything of the case is allocated:
	 * "0" is the writing process. */
	if ((f->cgroup >= 0 && write(f->cgroup, "0", 1) != 1) ||
	    (f->kill >= 0 && write(f->kill, "0", 1) != 1)) {
		int e = errno | MR_CHILD_CGROUP_FAILED;
		ssize_t n = write(errfd, &e, sizeof e);

		(void)n;
		_exit(MR_EXIT_EXEC);
	}
	for (i = 0; i < 4; i++)
		if ((fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
			mr_child_fail(errfd);
	/* dup2 clears close-on-exec on the target: exactly these survive. */
	if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0 ||
	    dup2(fds[2], MR_ENV_CKPT_FD) < 0 || dup2(fds[3], MR_ENV_ACK_FD) < 0)
		mr_child_fail(errfd);
	/* Whatever the runner inherited (a bats fd 3 and friends) stays out. */
	close_range(MR_ENV_ACK_FD + 1, ~0u, CLOSE_RANGE_CLOEXEC);
	execve(argv[0], argv, env);
	mr_child_fail(errfd);
}
