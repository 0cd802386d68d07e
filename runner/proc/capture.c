/* capture: run a helper, keep its output — see capture.h. */
#include "proc/capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "proc/cgroup.h"
#include "proc/child.h"
#include "proc/self.h"
#include "proc/tree.h"

int
mr_spawn_capture(char *const *argv, char *const *envp, long timeout_ms,
		 size_t max, int keep_stderr, struct strbuf *out, int *status)
{
	return mr_spawn_capture_in(NULL, argv, envp, timeout_ms, max, keep_stderr,
				   out, status);
}

int
mr_spawn_capture_in(const char *dir, char *const *argv, char *const *envp,
		    long timeout_ms, size_t max, int keep_stderr,
		    struct strbuf *out, int *status)
{
	uint64_t deadline = mr_now_ns() + (uint64_t)timeout_ms * 1000000u;
	int outp[2], errp[2], devnull, e, rc = 0, st = 0;
	struct mr_cgroup cg;
	struct rusage ru;
	pid_t pid, *tree;
	ssize_t n;

	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0)
		return -errno;
	if (pipe2(outp, O_CLOEXEC) < 0) {
		rc = -errno;
		close(devnull);
		return rc;
	}
	if (pipe2(errp, O_CLOEXEC) < 0) {
		rc = -errno;
		close(devnull);
		close(outp[0]);
		close(outp[1]);
		return rc;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(devnull);
		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		return rc;
	}
	if (pid == 0) {
		setpgid(0, 0);
		mr_child_signals();
		if (dup2(devnull, 0) < 0 || dup2(outp[1], 1) < 0 ||
		    (!keep_stderr && dup2(devnull, 2) < 0) ||
		    (keep_stderr == 2 && dup2(outp[1], 2) < 0))
			mr_child_fail(errp[1]);
		if (dir && chdir(dir) < 0)
			mr_child_fail(errp[1]);
		execve(argv[0], argv, envp);
		mr_child_fail(errp[1]);
	}
	setpgid(pid, pid);
	close(devnull);
	close(outp[1]);
	close(errp[1]);
	do
		n = read(errp[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	close(errp[0]);
	if (n == (ssize_t)sizeof e) {
		rc = -e;
		goto reap;
	}
	for (;;) {
		struct pollfd pfd = { outp[0], POLLIN, 0 };
		uint64_t now = mr_now_ns();
		char buf[4096];
		int r;

		if (mr_spawn_interrupted) {
			rc = -EINTR;
			break;
		}
		if (now >= deadline) {
			rc = -ETIMEDOUT;
			break;
		}
		r = poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = read(outp[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out->len + (size_t)n > max) {
			rc = -EFBIG;
			break;
		}
		sb_addn(out, buf, (size_t)n);
	}
	/* Output ended: give the process the rest of its time to exit (not
	 * reaped yet: its group stays ours to kill). */
	while (rc == 0 && !mr_tree_ended(pid)) {
		if (mr_spawn_interrupted)
			rc = -EINTR;
		else if (mr_now_ns() >= deadline)
			rc = -ETIMEDOUT;
		else
			usleep(1000);
	}
reap:
	close(outp[0]);
	/* whatever it left behind goes as a run's leftovers do */
	mr_cgroup_init(&cg);
	tree = emalloc(MR_TREE_MAX * sizeof *tree);
	mr_tree_end(pid, &cg, tree, &st, &ru);
	free(tree);
	*status = st;
	return rc;
}
