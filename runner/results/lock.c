/* lock: the lock of a results directory — see lock.h. */
#include "results/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

/* The pid a lock file names, or 0 (none, or one being written). */
static long
lock_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	long long pid;

	if (n <= 1 || buf[n - 1] != '\n')
		return 0;
	buf[n - 1] = '\0';
	if (strspn(buf, "0123456789") != (size_t)(n - 1) || parse_ll(buf, &pid) < 0 ||
	    pid <= 0 || pid > INT32_MAX)
		return 0;
	return (long)pid;
}

/* Open dir's lock file, created (create) or only if it exists.  It must be
 * a regular file of one link: the directory may come from elsewhere, and
 * the runner writes its pid into it.  Returns the fd (close-on-exec), or
 * -1, with a message printed when create (else quietly). */
static int
lock_open(const char *dir, int create)
{
	char *path = esprintf("%s/%s", dir, MR_RESULTS_LOCK);
	int fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW |
		      O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0644);
	struct stat st;

	if (fd < 0) {
		if (!create)
			;
		else if (errno == ELOOP)
			weprintf("results directory %s: %s is a symbolic link: refusing it", dir, path);
		else if (errno == ENOENT || errno == ENOTDIR)
			weprintf("results directory %s:", dir);
		else
			weprintf("results directory %s: lock %s:", dir, path);
		free(path);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		if (create)
			weprintf("results directory %s: %s is not a regular file of its own (one link): refusing it",
				 dir, path);
		close(fd);
		free(path);
		errno = EPERM;
		return -1;
	}
	free(path);
	return fd;
}

void
mr_results_say_busy(const char *dir, long pid, const char *advice)
{
	if (pid)
		weprintf("results directory %s is being written by another memrepro (pid %ld): %s",
			 dir, pid, advice);
	else
		weprintf("results directory %s is being written by another memrepro: %s", dir, advice);
}

/* flock without blocking, again after a signal (a few times: bounded). */
static int
try_flock(int fd, int op)
{
	int i, rc = -1;

	for (i = 0; i < 8; i++)
		if ((rc = flock(fd, op | LOCK_NB)) == 0 || errno != EINTR)
			break;
	return rc;
}

int
mr_results_lock(const char *dir, const char *advice)
{
	int fd = lock_open(dir, 1);
	char buf[32];
	int len;

	if (fd < 0)
		return -1;
	if (try_flock(fd, LOCK_EX) < 0) {
		int held = errno == EWOULDBLOCK;

		if (!held)
			weprintf("results directory %s: lock %s/%s:", dir, dir, MR_RESULTS_LOCK);
		else
			mr_results_say_busy(dir, lock_pid(fd), advice);
		close(fd);
		return -1;
	}
	/* who holds it, for the message above; the lock itself is the flock */
	len = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)len, 0) != len)
		weprintf("results directory %s: write %s/%s:", dir, dir, MR_RESULTS_LOCK);
	return fd;
}

int
mr_results_busy(const char *dir, long *pid)
{
	int fd = lock_open(dir, 0), busy = 0;

	*pid = 0;
	/* none, or not a regular file: no runner of ours made it */
	if (fd < 0)
		return 0;
	if (try_flock(fd, LOCK_SH) < 0 && errno == EWOULDBLOCK) {
		busy = 1;
		*pid = lock_pid(fd);
	}
	close(fd); /* and with it the shared lock */
	return busy;
}
