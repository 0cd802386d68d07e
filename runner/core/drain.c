/* drain: reading a pipe in bounded rounds — see drain.h. */
#include "core/drain.h"

#include <errno.h>
#include <sys/types.h>
#include <unistd.h>

int
mr_drain(int fd, char *buf, size_t size, int rounds,
	 void (*sink)(void *ctx, const char *p, size_t n), void *ctx)
{
	int i;

	for (i = 0; i < rounds; i++) {
		ssize_t n = read(fd, buf, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 2; /* EAGAIN: all read */
		if (n == 0)
			return 0;
		sink(ctx, buf, (size_t)n);
		/* A pipe gives what it holds, up to size: a short read
		 * emptied it, and one more read would only say EAGAIN (a
		 * syscall per checkpoint record). */
		if ((size_t)n < size)
			return 1;
	}
	return 1;
}
