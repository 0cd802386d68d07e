/* children: mr_proc_children against the pids fork returned.
 *
 * Usage: children N [SCANS]
 * Forks N children that block on a pipe (a third of them from a second
 * thread, whose own children file lists them), then lists its children
 * SCANS times (20 by default) with mr_proc_children and checks that each
 * child is listed exactly once and nothing else is.  Exit 0 when every
 * scan was exact, 1 (with what differed on stderr) otherwise, 2 on a
 * setup error.  It signals nobody: the children exit when the pipe's
 * write end closes (or after a minute, whatever happens to us).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mr_proc.h"

#define MAX_CHILDREN 4000
#define SHOW 8 /* differences reported per scan */

static pid_t kids[MAX_CHILDREN];
static int nkids;
static int gate[2]; /* children block reading gate[0] */
static int hold[2]; /* the second thread blocks reading hold[0] */
static int done[2]; /* the second thread says it has forked its share */

static pid_t spawn(void)
{
	pid_t p = fork();

	if (p == 0) {
		char c;

		alarm(60);
		close(gate[1]);
		close(hold[1]);
		close(done[0]);
		close(done[1]);
		while (read(gate[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	return p;
}

struct span {
	int from, to; /* fork kids[from..to) */
	int err;
};

static void *forker(void *arg)
{
	struct span *s = arg;
	int i;
	char c;

	for (i = s->from; i < s->to; i++)
		if ((kids[i] = spawn()) < 0)
			s->err = errno;
	c = 'd';
	if (write(done[1], &c, 1) != 1)
		s->err = errno;
	/* Stay alive: a thread's children move to another one when it ends. */
	while (read(hold[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* One scan: 0 when exact, else the number of differences (reported). */
static int scan(int k, pid_t self, const pid_t *sorted)
{
	static pid_t got[MAX_CHILDREN + 64];
	int n = mr_proc_children(self, got, MAX_CHILDREN + 64), i, j, bad = 0;

	if (n < 0) {
		fprintf(stderr, "scan %d: mr_proc_children: %s\n", k, strerror(-n));
		return 1;
	}
	if (n != nkids) {
		fprintf(stderr, "scan %d: %d pids listed, %d children\n", k, n, nkids);
		bad++;
	}
	if (n > MAX_CHILDREN + 64)
		n = MAX_CHILDREN + 64;
	qsort(got, (size_t)n, sizeof got[0], cmp_pid);
	for (i = j = 0; i < n || j < nkids;) {
		if (j == nkids || (i < n && got[i] < sorted[j])) {
			if (bad < SHOW)
				fprintf(stderr, "scan %d: pid %d listed, not a child\n", k, (int)got[i]);
			i++;
			bad++;
		} else if (i == n || got[i] > sorted[j]) {
			if (bad < SHOW)
				fprintf(stderr, "scan %d: child %d not listed\n", k, (int)sorted[j]);
			j++;
			bad++;
		} else {
			if (i + 1 < n && got[i + 1] == got[i]) {
				if (bad < SHOW)
					fprintf(stderr, "scan %d: pid %d listed twice\n", k, (int)got[i]);
				bad++;
				i++;
			}
			i++;
			j++;
		}
	}
	return bad;
}

/* A decimal argument 1..100000, or -1. */
static int number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return errno || end == s || *end || v < 1 || v > 100000 ? -1 : (int)v;
}

int main(int argc, char **argv)
{
	static pid_t sorted[MAX_CHILDREN];
	struct span s = { 0, 0, 0 };
	pthread_t th;
	int scans = argc > 2 ? number(argv[2]) : 20, k, i, bad = 0, failed = 0;

	nkids = argc > 1 ? number(argv[1]) : 0;
	if (argc < 2 || nkids < 1 || nkids > MAX_CHILDREN || scans < 1) {
		fprintf(stderr, "usage: children N(1..%d) [SCANS]\n", MAX_CHILDREN);
		return 2;
	}
	if (pipe(gate) < 0 || pipe(hold) < 0 || pipe(done) < 0) {
		perror("pipe");
		return 2;
	}
	s.from = nkids - nkids / 3;
	s.to = nkids;
	if (pthread_create(&th, NULL, forker, &s) != 0) {
		fprintf(stderr, "pthread_create failed\n");
		return 2;
	}
	for (i = 0; i < s.from; i++)
		if ((kids[i] = spawn()) < 0) {
			perror("fork");
			failed = 1;
			break;
		}
	/* Both forkers done before scanning: the list is then fixed (the
	 * pipe also orders the thread's writes to kids before our reads). */
	{
		char c;
		ssize_t r;

		while ((r = read(done[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (r != 1)
			failed = 1;
	}
	if (!failed && !s.err) {
		memcpy(sorted, kids, sizeof kids[0] * (size_t)nkids);
		qsort(sorted, (size_t)nkids, sizeof sorted[0], cmp_pid);
		for (k = 0; k < scans; k++)
			bad += scan(k, k % 2 ? getpid() : 0, sorted) != 0;
	}
	/* Release everyone, then reap: each child exits on EOF. */
	close(gate[1]);
	close(hold[1]);
	pthread_join(th, NULL);
	for (i = 0; i < nkids; i++)
		if (kids[i] > 0)
			waitpid(kids[i], NULL, 0);
	if (failed || s.err) {
		fprintf(stderr, "fork failed: %s\n", strerror(s.err ? s.err : errno));
		return 2;
	}
	if (bad) {
		printf("%d of %d scans of %d children were wrong\n", bad, scans, nkids);
		return 1;
	}
	printf("%d children listed exactly once each in %d scans\n", nkids, scans);
	return 0;
}
