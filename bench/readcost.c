/* readcost: what one sample costs as a process's mappings grow.
 *
 * Maps N pairs of regions, a stack and its guard page (alternating protections, so the kernel cannot merge
 * them, as the fiber case's stacks and guard pages), then times reading
 * /proc/self/statm and /proc/self/smaps_rollup, each R times.  Prints
 * "mappings statm_us smaps_rollup_us" for 0 and 2 x argv[1] mappings.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Mean microseconds of one whole read of path, over r reads. */
static double
cost(const char *path, int r)
{
	static char buf[1 << 16];
	double t0 = now_us();
	int i;

	for (i = 0; i < r; i++) {
		int fd = open(path, O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof buf) < 0) {
			perror(path);
			exit(1);
		}
		close(fd);
	}
	return (now_us() - t0) / r;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000, i, pg = sysconf(_SC_PAGESIZE);
	char *base;

	printf("mappings\tstatm_us\tsmaps_rollup_us\n");
	printf("0\t%.1f\t%.1f\n", cost("/proc/self/statm", 2000),
	       cost("/proc/self/smaps_rollup", 200));
	base = mmap(NULL, (size_t)(2 * n * pg), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < n; i++) {
		base[2 * i * pg] = 1; /* touched: a stack in use */
		if (mprotect(base + (2 * i + 1) * pg, (size_t)pg, PROT_NONE) < 0) {
			perror("mprotect");
			return 1;
		}
	}
	printf("%ld\t%.1f\t%.1f\n", 2 * n, cost("/proc/self/statm", 2000),
	       cost("/proc/self/smaps_rollup", 50));
	return 0;
}
