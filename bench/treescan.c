/* treescan: what one sample's scan of a run's process tree costs.
 *
 * Makes a run's cgroups as the runner does (proc/cgroup.h: the memory
 * cgroup, and the kill cgroup on the unified hierarchy where there is
 * one) and starts a case as the runner does: a child that joins them,
 * then is exec'd with the runner's token in its environment (proc/env.h).
 * The case forks N-1 children (N processes in all, which the cgroups list
 * in the order they were forked), and all wait.  Then S calls of
 * mr_tree_case are timed: the call each sample of the poll loop makes to
 * list the run's processes (proc/tree.h: the cgroup's members, else every
 * descendant of the runner).  Prints one line:
 *
 *   children N  samples S  ns_per_sample X  via cgroup|walk  user_ns U  sys_ns K
 *
 * X the wall time of one scan; U and K its user and system CPU time
 * (what the runner's own code costs, and what the kernel's).  Where no
 * cgroup can be made (or MEMREPRO_CGROUP=0) it times the walk of the
 * descendants, the runner's fallback, and says so.  Linked with the
 * runner's objects: bench/treescan.sh builds and runs it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc/cgroup.h"
#include "proc/env.h"
#include "proc/tree.h"

/* The process's user and system CPU time, ns. */
static void
cpu_ns(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec * 1e9 + (double)ru.ru_utime.tv_usec * 1e3;
	*sys = (double)ru.ru_stime.tv_sec * 1e9 + (double)ru.ru_stime.tv_usec * 1e3;
}

static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Wait for the end of fd 0 (the runner closing the pipe, or dying). */
static void
wait_eof(void)
{
	char c;

	while (read(0, &c, 1) < 0 && errno == EINTR)
		;
}

/* The case ("treescan --case N", the pipe on fd 0): N-1 children that
 * wait as it does, then reaped. */
static int
the_case(int n)
{
	int i;

	for (i = 1; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			wait_eof();
			_exit(0);
		}
		if (p < 0)
			return 1;
	}
	wait_eof();
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, s = argc > 2 ? atoi(argv[2]) : 20000;
	struct mr_cgroup cg;
	char why[256], nbuf[16];
	pid_t *buf = malloc(MR_TREE_MAX * sizeof *buf), kid;
	int p[2], i, got = 0, st;
	double t0, t, u0, s0, u, sy;

	if (argc == 3 && strcmp(argv[1], "--case") == 0)
		return the_case(atoi(argv[2]));
	if (!buf || n < 1 || n >= MR_TREE_MAX || s < 1 || pipe(p) < 0) {
		fprintf(stderr, "usage: treescan CHILDREN(1..%d) [SAMPLES]\n", MR_TREE_MAX - 1);
		return 2;
	}
	if (mr_cgroup_create(&cg, 0, 0, why, sizeof why) < 0)
		fprintf(stderr, "treescan: no memory cgroup (%s): timing the walk\n", why);
	else
		(void)mr_cgroup_create_kill(&cg);
	snprintf(nbuf, sizeof nbuf, "%d", n);
	(void)mr_env_token(); /* made here, once: the child's is the same */
	fflush(NULL);
	if ((kid = fork()) == 0) {
		char *args[] = { argv[0], "--case", nbuf, NULL };
		char *env[] = { (char *)mr_env_token(), NULL };

		/* joins as a case does between fork and exec */
		if ((cg.procs_fd >= 0 && write(cg.procs_fd, "0", 1) != 1) ||
		    (cg.kill_fd >= 0 && write(cg.kill_fd, "0", 1) != 1) || dup2(p[0], 0) < 0)
			_exit(3);
		close(p[1]);
		execve("/proc/self/exe", args, env);
		_exit(127);
	}
	if (kid < 0) {
		perror("fork");
		return 1;
	}
	close(p[0]);
	/* until every process has started (bounded: 10 s) */
	for (i = 0; i < 10000; i++) {
		if ((got = mr_tree_case(kid, &cg, 0, buf) - 1) >= n)
			break;
		usleep(1000);
	}
	if (got < n) {
		fprintf(stderr, "treescan: %d of %d processes seen\n", got, n);
		return 1;
	}
	cpu_ns(&u0, &s0);
	t0 = now_ns();
	for (i = 0; i < s; i++)
		got = mr_tree_case(kid, &cg, 0, buf);
	t = now_ns() - t0;
	cpu_ns(&u, &sy);
	printf("children %d  samples %d  ns_per_sample %.0f  via %s  user_ns %.0f  sys_ns %.0f\n",
	       n, s, t / s, cg.v ? "cgroup" : "walk", (u - u0) / s, (sy - s0) / s);
	close(p[1]);
	while (waitpid(kid, &st, 0) < 0 && errno == EINTR)
		;
	mr_cgroup_remove(&cg);
	free(buf);
	return got == n + 1 ? 0 : 1;
}
