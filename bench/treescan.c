/* treescan: what one sample's scan of a run's process tree costs.
 *
 * Makes a run's cgroups as the runner does (run/cgroup.h: the memory
 * cgroup, and the kill cgroup on the unified hierarchy where there is
 * one), starts N children that join them and wait, then times S calls of
 * mr_tree_case, the call each sample of the poll loop makes to list the
 * run's processes (run/tree.h: the cgroup's members, else every
 * descendant of the runner).  Prints one line:
 *
 *   children N  samples S  ns_per_sample X  via cgroup|walk
 *
 * Where no cgroup can be made (or MEMREPRO_CGROUP=0) it times the walk of
 * the descendants (the runner's fallback) and says so.  Linked with the runner's objects
 * (bench/treescan.sh builds and runs it).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/cgroup.h"
#include "run/env.h"
#include "run/tree.h"

static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* A child: joins the run's cgroups as a case does between fork and exec,
 * then waits for the end of the pipe (the parent closing it, or dying).
 * Without a cgroup it carries the runner's token instead, as a case does
 * (in the environment it was exec'd with: the walk's proof). */
static void
child(const struct mr_cgroup *cg, int rd)
{
	char c;

	if (cg->procs_fd >= 0 && write(cg->procs_fd, "0", 1) != 1)
		_exit(3);
	if (cg->kill_fd >= 0 && write(cg->kill_fd, "0", 1) != 1)
		_exit(3);
	if (!cg->v) {
		char *env[] = { (char *)mr_env_token(), NULL };

		if (dup2(rd, 0) < 0)
			_exit(3);
		execle("/bin/sh", "sh", "-c", "read x", (char *)NULL, env);
		_exit(127);
	}
	while (read(rd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, s = argc > 2 ? atoi(argv[2]) : 20000;
	struct mr_cgroup cg;
	char why[256];
	pid_t *buf = malloc(MR_TREE_MAX * sizeof *buf), *kids;
	int p[2], i, got = 0;
	double t0, t;

	if (!buf || n < 1 || n >= MR_TREE_MAX || s < 1 || pipe(p) < 0) {
		fprintf(stderr, "usage: treescan CHILDREN(1..%d) [SAMPLES]\n", MR_TREE_MAX - 1);
		return 2;
	}
	if (mr_cgroup_create(&cg, 0, 0, why, sizeof why) < 0)
		fprintf(stderr, "treescan: no memory cgroup (%s): timing the walk\n", why);
	else
		(void)mr_cgroup_create_kill(&cg);
	kids = calloc((size_t)n, sizeof *kids);
	fflush(NULL);
	for (i = 0; i < n; i++) {
		if ((kids[i] = fork()) == 0) {
			close(p[1]);
			child(&cg, p[0]);
		}
		if (kids[i] < 0) {
			perror("fork");
			return 1;
		}
	}
	close(p[0]);
	/* until every child has joined (bounded: 10 s) */
	for (i = 0; i < 10000; i++) {
		if ((got = mr_tree_case(getpgrp(), &cg, 0, buf) - 1) >= n)
			break;
		usleep(1000);
	}
	if (got < n) {
		fprintf(stderr, "treescan: %d of %d children seen\n", got, n);
		return 1;
	}
	t0 = now_ns();
	for (i = 0; i < s; i++)
		got = mr_tree_case(getpgrp(), &cg, 0, buf);
	t = now_ns() - t0;
	printf("children %d  samples %d  ns_per_sample %.0f  via %s\n", n, s, t / s,
	       cg.v ? "cgroup" : "walk");
	close(p[1]);
	for (i = 0; i < n; i++)
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
	mr_cgroup_remove(&cg);
	free(kids);
	free(buf);
	return got > n ? 0 : 1;
}
