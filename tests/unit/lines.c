/* lines: mr_proc_count_lines (lib/mr_proc.c, the reader of the mapping
 * count) tested at every chunk boundary.
 *
 * Usage: lines DIR
 *   Files written in DIR and counted, each against a plain reference
 *   count of the same bytes: empty, one newline, text without a final
 *   newline; newlines placed at every offset from -3 to +3 around the
 *   first three chunk boundaries (MR_PROC_LINES_CHUNK), with and without a
 *   final newline; lines of random lengths (1..300 bytes) over 40 chunks;
 *   the bound: exactly max lines holds, max + 1 (a whole line or a last one
 *   without its newline) is -EFBIG; a missing file is -ENOENT, a FIFO
 *   without a writer does not block.
 * Prints one line per check group; exit 0 when all hold, 1 (the failures
 * described on stderr) otherwise, 2 on a usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mr_proc.h"

#define MAXTEXT (48 * MR_PROC_LINES_CHUNK)

static int failures;
static long checks;
static char path[4096];
static char text[MAXTEXT];

/* The reference: newlines, and a last line without one. */
static uint64_t
ref_count(const char *s, size_t len)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += s[i] == '\n';
	return n + (len && s[len - 1] != '\n');
}

static void
put(const char *s, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, s, len) != (ssize_t)len || close(fd) < 0) {
		perror(path);
		exit(2);
	}
}

/* s[0..len) written and counted with bound max: want rc, and (rc 0) the
 * reference count. */
static void
check(const char *what, const char *s, size_t len, uint64_t max, int want_rc)
{
	uint64_t got = 7777, want = ref_count(s, len);
	int rc;

	put(s, len);
	rc = mr_proc_count_lines(path, max, &got);
	checks++;
	if (rc != want_rc || (rc == 0 && got != want)) {
		if (failures++ < 10)
			fprintf(stderr, "%s (%zu bytes, max %llu): rc %d lines %llu, want rc %d lines %llu\n",
				what, len, (unsigned long long)max, rc, (unsigned long long)got,
				want_rc, (unsigned long long)want);
	}
}

/* A newline at every offset -3..+3 around chunk boundaries 1..3, the rest
 * 'x', with and without a last newline. */
static void
edges(void)
{
	size_t k, len;
	int d, last;

	for (k = 1; k <= 3; k++)
		for (d = -3; d <= 3; d++)
			for (len = k * MR_PROC_LINES_CHUNK - 4; len <= k * MR_PROC_LINES_CHUNK + 4; len++)
				for (last = 0; last < 2; last++) {
					size_t at = (size_t)((long)(k * MR_PROC_LINES_CHUNK) + d);

					memset(text, 'x', len);
					if (at < len)
						text[at] = '\n';
					if (last)
						text[len - 1] = '\n';
					check("edge", text, len, MR_MAPS_MAX, 0);
				}
	printf("edges: %ld checks\n", checks);
}

static void
randoms(void)
{
	size_t len = 0;
	long before = checks;
	int round;

	srand(26);
	for (round = 0; round < 20; round++) {
		len = 0;
		while (len < 40 * MR_PROC_LINES_CHUNK) {
			size_t n = 1 + (size_t)rand() % 300, i;

			for (i = 0; i + 1 < n; i++)
				text[len + i] = (char)('a' + rand() % 26);
			text[len + n - 1] = '\n';
			len += n;
		}
		check("random", text, len - (size_t)(round % 2) * 2, MR_MAPS_MAX, 0);
	}
	printf("random lines: %ld checks\n", checks - before);
}

static void
bounds(void)
{
	long before = checks;
	uint64_t got;
	int rc;

	check("empty", "", 0, MR_MAPS_MAX, 0);
	check("one newline", "\n", 1, MR_MAPS_MAX, 0);
	check("no final newline", "a\nb", 3, MR_MAPS_MAX, 0);
	check("max lines", "a\nb\nc\n", 6, 3, 0);
	check("max + 1 lines", "a\nb\nc\nd\n", 8, 3, -EFBIG);
	check("max + a last line without newline", "a\nb\nc\nd", 7, 3, -EFBIG);
	memset(text, '\n', 3 * MR_PROC_LINES_CHUNK);
	check("past max in a later chunk", text, 3 * MR_PROC_LINES_CHUNK,
	      2 * MR_PROC_LINES_CHUNK, -EFBIG);
	checks++;
	if ((rc = mr_proc_count_lines("/nonexistent/maps", 10, &got)) != -ENOENT) {
		failures++;
		fprintf(stderr, "missing file: rc %d, want -ENOENT\n", rc);
	}
	unlink(path);
	checks++;
	if (mkfifo(path, 0600) < 0 || (rc = mr_proc_count_lines(path, 10, &got)) != 0 || got != 0) {
		failures++;
		fprintf(stderr, "fifo without a writer: rc %d lines %llu\n", rc,
			(unsigned long long)got);
	}
	unlink(path);
	printf("bounds: %ld checks\n", checks - before);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: lines DIR\n");
		return 2;
	}
	snprintf(path, sizeof path, "%s/lines.txt", argv[1]);
	edges();
	randoms();
	bounds();
	if (failures)
		fprintf(stderr, "%d of %ld checks failed\n", failures, checks);
	return failures ? 1 : 0;
}
