/* treeend: mr_tree_end reaps the run's processes and no other child.
 *
 * Usage: treeend
 * Forks a child that exits 7 at once (not of the run: under -j, a worker
 * that has just finished, its waiter not yet back), waits until it is a
 * zombie without reaping it, then forks a "case" that sleeps and ends it
 * with mr_tree_end.  Exit 0 when the case was reaped killed and the other
 * child is still there for its own wait with its status 7; 1 (with what
 * differed on stderr) otherwise; 2 on a setup error.  It signals only its
 * own case (through mr_tree_end).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc/cgroup.h"
#include "proc/tree.h"

static pid_t buf[MR_TREE_MAX];

/* Wait (5 s at most) until child pid has ended, leaving it waitable. */
static int
ended(pid_t pid)
{
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < 5000; i++) {
		siginfo_t si;

		si.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == pid)
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

int
main(void)
{
	struct mr_cgroup cg;
	struct rusage ru;
	pid_t other, c, w;
	int st = 0, rc;

	if ((other = fork()) < 0)
		return perror("fork"), 2;
	if (other == 0)
		_exit(7);
	if (!ended(other))
		return fprintf(stderr, "treeend: the other child did not exit\n"), 2;
	if ((c = fork()) < 0)
		return perror("fork"), 2;
	if (c == 0) {
		setpgid(0, 0);
		alarm(60);
		pause();
		_exit(0);
	}
	setpgid(c, c);
	mr_cgroup_init(&cg);
	rc = mr_tree_end(c, &cg, buf, &st, &ru);
	if (rc != 0 || !WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
		return fprintf(stderr, "treeend: the case was not ended: rc %d, status %#x\n", rc, st), 1;
	st = 0;
	w = waitpid(other, &st, WNOHANG);
	if (w != other || !WIFEXITED(st) || WEXITSTATUS(st) != 7) {
		fprintf(stderr, "treeend: the other child was reaped by mr_tree_end (waitpid: %d, %s)\n",
			(int)w, w < 0 ? "no such child" : "status lost");
		return 1;
	}
	return 0;
}
