/* fuzz_util: files for the readers that take a path — see fuzz.h. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int
put(int fd, const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

const char *
fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("memrepro-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			return NULL;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	return put(fd, data, size) < 0 ? NULL : path;
}

/* The directory is removed at exit with what is left in it. */
static char dir[64];

static void
cleanup(void)
{
	static const char *const names[] = { "env.tsv", "runs.tsv", "checkpoints.tsv", "series.tsv" };
	char p[128];
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

const char *
fuzz_dir_file(const char *name, const uint8_t *data, size_t size)
{
	char p[128];
	FILE *f;

	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/memrepro-fuzz.XXXXXX");
		if (!mkdtemp(dir))
			abort();
		atexit(cleanup);
	}
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (!data) {
		unlink(p);
		return dir;
	}
	f = fopen(p, "we");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	return dir;
}
