/* lock: the lock of a private apt tree — see lock.h. */
#include "release/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "proc/self.h"

#define POLL_MS 50 /* between two tries of a held lock */

static long long
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int
mr_rel_lock(const char *path, long wait_ms, struct strbuf *why)
{
	/* no O_CLOEXEC: see lock.h */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
	long long deadline = now_ms() + wait_ms;
	struct stat st;

	if (fd < 0) {
		sb_printf(why, "lock %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		sb_printf(why, "lock %s: not a regular file", path);
		close(fd);
		return -1;
	}
	for (;;) {
		struct timespec pause = { 0, POLL_MS * 1000000L };

		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			sb_printf(why, "lock %s: %s", path, strerror(errno));
			break;
		}
		if (mr_spawn_interrupted) {
			sb_printf(why, "lock %s: interrupted while waiting for it", path);
			break;
		}
		if (now_ms() >= deadline) {
			sb_printf(why, "%s: held by another memrepro fetch for over %ld s: waited; "
				       "try again when it is done", path, wait_ms / 1000);
			break;
		}
		nanosleep(&pause, NULL);
	}
	close(fd);
	return -1;
}

void
mr_rel_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
