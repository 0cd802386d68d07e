/* pidlist: the children-file parser and reader of lib/mr_proc.c tested at
 * every chunk boundary.
 *
 * Usage: pidlist chunks | edges | files DIR
 *   chunks  lists of pids of every length (1..7 digits) placed so that a
 *           chunk boundary falls at every position in and around a number,
 *           for chunk sizes 1..64 and around 128, 512, 1024 and 4096, fed
 *           to the parser in those chunks (and in random ones, and with a
 *           short out array); plus random strings of digits, separators
 *           and junk.  Each result is compared with the list the generator
 *           wrote and with a plain reference parse (strtoul over the whole
 *           string).
 *   edges   fixed inputs with their expected results: empty, separators
 *           only, no trailing separator, 0, 1, leading zeros, the largest
 *           pid and one more, overflow, junk bytes, the byte bound.
 *   files   the same lists written as files in DIR and read back with
 *           mr_proc_read_pids (its reads cut them every 512 bytes), and a
 *           missing file, a directory, /dev/zero, a FIFO with a writer.
 * Prints one line per check group; exit 0 when all hold, 1 (the first
 * failures described on stderr) otherwise, 2 on a usage or setup error.
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
#include "pidref.h"

#define MAXPIDS 8192
#define MAXTEXT 65536
#define UNSET ((pid_t)-7) /* what out holds where nothing was stored */

static int failures;
static long checks;

/* A tiny deterministic generator: every run tests the same inputs. */
static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : 0;
}

static void show(const char *s, size_t len)
{
	size_t i, shown = len < 120 ? len : 120;

	fputc('"', stderr);
	for (i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			fputs("\\n", stderr);
		else if (c < 32 || c > 126)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
	fprintf(stderr, "%s\" (%zu bytes)", shown < len ? "..." : "", len);
}

static void fail(const char *what, const char *s, size_t len, size_t chunk,
		 long got, long want)
{
	failures++;
	if (failures > 10)
		return;
	fprintf(stderr, "FAIL %s: ", what);
	show(s, len);
	fprintf(stderr, " in chunks of %zu: got %ld, want %ld\n", chunk, got, want);
}

/* The parser over s in chunks of size chunk (0: random sizes 1..600). */
static int feed_chunks(const char *s, size_t len, size_t chunk, pid_t *out, int max)
{
	struct mr_pidlist_parser p;
	size_t off = 0;

	mr_pidlist_init(&p, out, max);
	while (off < len) {
		size_t n = chunk ? chunk : 1 + rnd(600);

		if (n > len - off)
			n = len - off;
		mr_pidlist_feed(&p, s + off, n);
		off += n;
	}
	return mr_pidlist_finish(&p);
}

/* out[0..max+1) after a parse: whole in-range pids where it stored, UNSET
 * past them; on success exactly want[0..min(n, max)). */
static void check_out(const char *what, const char *s, size_t len, size_t chunk,
		      const pid_t *out, int max, int n, const pid_t *want)
{
	int i, stored = n < 0 ? max : (n < max ? n : max);

	for (i = 0; i < max + 1; i++) {
		if (i < stored && n >= 0 && out[i] != want[i]) {
			fail(what, s, len, chunk, out[i], want[i]);
			return;
		}
		if (i >= stored && n >= 0 && out[i] != UNSET) {
			fail("stored past the count", s, len, chunk, out[i], UNSET);
			return;
		}
		if (out[i] != UNSET && (out[i] < 2 || out[i] > MR_PID_MAX_LIMIT)) {
			fail("stored a pid out of range", s, len, chunk, out[i], 2);
			return;
		}
	}
}

/* Parse s in chunks and compare with want (count wn, or an error). */
static void expect(const char *what, const char *s, size_t len, size_t chunk,
		   int max, int wn, const pid_t *want)
{
	static pid_t out[MAXPIDS + 1];
	int i, n;

	for (i = 0; i < max + 1; i++)
		out[i] = UNSET;
	n = feed_chunks(s, len, chunk, out, max);
	checks++;
	if (n != wn) {
		fail(what, s, len, chunk, n, wn);
		return;
	}
	check_out(what, s, len, chunk, out, max, n, want);
}

/* Every chunk size the parser is fed with in "chunks". */
static size_t chunk_sizes[200];
static int nchunk_sizes;

static void init_chunk_sizes(void)
{
	static const size_t around[] = { 128, 512, 1024, 4096 };
	size_t i, c;

	for (c = 1; c <= 64; c++)
		chunk_sizes[nchunk_sizes++] = c;
	for (i = 0; i < sizeof around / sizeof around[0]; i++)
		for (c = around[i] - 2; c <= around[i] + 2; c++)
			chunk_sizes[nchunk_sizes++] = c;
}

/* A valid pid of d digits (1..7), its decimal form appended to buf. */
static size_t put_pid(char *buf, size_t len, int d, pid_t *v)
{
	static const uint32_t lo[] = { 0, 2, 10, 100, 1000, 10000, 100000, 1000000 };
	static const uint32_t hi[] = { 0, 9, 99, 999, 9999, 99999, 999999, MR_PID_MAX_LIMIT };
	uint32_t x;
	int r = (int)rnd(4);

	/* the ends of the range as often as the middle */
	x = r == 0 ? lo[d] : r == 1 ? hi[d] : lo[d] + rnd(hi[d] - lo[d] + 1);
	*v = (pid_t)x;
	return len + (size_t)sprintf(buf + len, "%u", x);
}

static char sep(void)
{
	return rnd(8) ? ' ' : '\n';
}

/* Pad buf with valid pids and separators to exactly len + pad bytes. */
static size_t put_pad(char *buf, size_t len, size_t pad, pid_t *want, int *wn)
{
	size_t end = len + pad;

	while (len < end) {
		size_t room = end - len;
		int d;

		if (room == 1) {
			buf[len++] = sep(); /* a run of separators */
			continue;
		}
		d = 1 + (int)rnd(room - 1 < 7 ? (uint32_t)(room - 1) : 7);
		len = put_pid(buf, len, d, &want[(*wn)++]);
		buf[len++] = sep();
	}
	return len;
}

/* One generated list: compare the parser in chunks of c, in random chunks
 * and with a short out array, and the reference, with what was written. */
static void check_list(const char *s, size_t len, size_t c, const pid_t *want, int wn)
{
	static pid_t ref[MAXPIDS];
	int rn = pidref_parse(s, len, ref, MAXPIDS), i;

	checks++;
	if (rn != wn) {
		fail("reference vs generator", s, len, 0, rn, wn);
		return;
	}
	for (i = 0; i < wn; i++)
		if (ref[i] != want[i]) {
			fail("reference pid vs generator", s, len, 0, ref[i], want[i]);
			return;
		}
	expect("pids in chunks", s, len, c, MAXPIDS, wn, want);
	expect("pids in random chunks", s, len, 0, MAXPIDS, wn, want);
	expect("pids with a short out", s, len, c, wn / 2, wn, want);
}

static void test_chunks(void)
{
	static char buf[MAXTEXT];
	static pid_t want[MAXPIDS];
	long before = checks;
	int f0 = failures, ci, d, r, lists = 0;
	size_t k;

	init_chunk_sizes();
	for (ci = 0; ci < nchunk_sizes; ci++) {
		size_t c = chunk_sizes[ci];

		for (d = 1; d <= 7; d++) {
			/* k: how far into the number (its digits, then its
			 * separator, then the next byte) the boundary falls;
			 * r: at the first boundary, or one further. */
			for (k = 0; k <= (size_t)d + 1; k++) {
				for (r = 0; r < 2; r++) {
					size_t start = c * (size_t)(1 + r);
					size_t len;
					int wn = 0, last;

					while (start < k)
						start += c;
					start -= k;
					len = put_pad(buf, 0, start, want, &wn);
					len = put_pid(buf, len, d, &want[wn++]);
					/* then a few more, the file ending with
					 * or without a separator */
					for (last = 0; last < 3; last++) {
						buf[len++] = sep();
						len = put_pid(buf, len, 1 + (int)rnd(7), &want[wn++]);
					}
					if (r == 0)
						buf[len++] = ' ';
					check_list(buf, len, c, want, wn);
					lists++;
				}
			}
		}
	}
	printf("%s chunks: %d lists, pids of 1..7 digits cut at every position by %d chunk sizes (%ld parses)\n",
	       failures == f0 ? "ok" : "FAIL", lists, nchunk_sizes, checks - before);
}

/* Random strings over digits, separators and an occasional junk byte,
 * every chunk size 1..len+1: the parser agrees with the reference. */
static void test_random(void)
{
	static const char junk[] = "x-+\t\r\0./:";
	static char buf[2048];
	static pid_t ref[MAXPIDS];
	long before = checks;
	int f0 = failures, t, valid = 0;

	for (t = 0; t < 400; t++) {
		size_t len = rnd(t < 300 ? 40 : 1200), i, c;
		int rn, bad = t % 4 == 0;

		for (i = 0; i < len; i++) {
			uint32_t x = rnd(100);
			int first = i == 0 || buf[i - 1] == ' ' || buf[i - 1] == '\n';

			if (bad && x == 0)
				buf[i] = junk[rnd(sizeof junk - 1)];
			else if (x < 25)
				buf[i] = sep();
			else if (first) /* a 0 or a leading zero now and then */
				buf[i] = (char)('0' + (rnd(50) ? 1 + rnd(9) : 0));
			else
				buf[i] = (char)('0' + rnd(10));
		}
		rn = pidref_parse(buf, len, ref, MAXPIDS);
		valid += rn >= 0;
		for (c = 1; c <= len + 1; c += (len > 100 && c > 20) ? 37 : 1)
			expect("random text", buf, len, c, MAXPIDS, rn, ref);
	}
	printf("%s random: 400 strings of digits, separators and junk (%d of them lists), against the reference (%ld parses)\n",
	       failures == f0 ? "ok" : "FAIL", valid, checks - before);
}

struct edge {
	const char *text;
	size_t len; /* 0: strlen */
	int n;      /* the count, or -EPROTO */
	pid_t pids[4];
};

static void test_edges(void)
{
	static const struct edge e[] = {
		{ "", 0, 0, { 0 } },
		{ " ", 0, 0, { 0 } },
		{ "\n", 0, 0, { 0 } },
		{ "  \n  ", 0, 0, { 0 } },
		{ "123", 0, 1, { 123 } },
		{ "123 ", 0, 1, { 123 } },
		{ " 123", 0, 1, { 123 } },
		{ "12  34\n", 0, 2, { 12, 34 } },
		{ "21623 ", 0, 1, { 21623 } },
		{ "6070 ", 0, 1, { 6070 } },
		{ "2 ", 0, 1, { 2 } },
		{ "4194304 ", 0, 1, { 4194304 } },
		{ "0", 0, -EPROTO, { 0 } },
		{ "0 ", 0, -EPROTO, { 0 } },
		{ "12 0 34 ", 0, -EPROTO, { 0 } },
		{ "1 ", 0, -EPROTO, { 0 } },
		{ "012 ", 0, -EPROTO, { 0 } },
		{ "00 ", 0, -EPROTO, { 0 } },
		{ "4194305 ", 0, -EPROTO, { 0 } },
		{ "10000000 ", 0, -EPROTO, { 0 } },
		{ "99999999999999999999999 ", 0, -EPROTO, { 0 } },
		{ "4294967298 ", 0, -EPROTO, { 0 } },
		{ "12a ", 0, -EPROTO, { 0 } },
		{ "12 a", 0, -EPROTO, { 0 } },
		{ "-5 ", 0, -EPROTO, { 0 } },
		{ "+5 ", 0, -EPROTO, { 0 } },
		{ "12\t34 ", 0, -EPROTO, { 0 } },
		{ "12\r\n", 0, -EPROTO, { 0 } },
		{ "12 \0 34 ", 8, -EPROTO, { 0 } },
		{ "12\0", 3, -EPROTO, { 0 } },
	};
	static char *big;
	struct mr_pidlist_parser p;
	pid_t out[4];
	long before = checks;
	size_t i, c, off;
	int f0 = failures, n;

	for (i = 0; i < sizeof e / sizeof e[0]; i++) {
		size_t len = e[i].len ? e[i].len : strlen(e[i].text);
		static pid_t ref[8];

		/* the reference agrees on each, so "random" may rely on it */
		n = pidref_parse(e[i].text, len, ref, 8);
		checks++;
		if (n != e[i].n)
			fail("reference on an edge", e[i].text, len, 0, n, e[i].n);
		for (c = 1; c <= len + 1; c++) {
			expect("edge", e[i].text, len, c, 4, e[i].n, e[i].pids);
			expect("edge, count only", e[i].text, len, c, 0, e[i].n, e[i].pids);
		}
	}
	/* A short out: the count is of the whole file, out holds the first. */
	{
		static const pid_t w[] = { 2, 3, 4 };

		expect("short out", "2 3 4 ", 6, 1, 2, 3, w);
	}
	/* Feeding goes on after an error without effect; finish repeats it. */
	mr_pidlist_init(&p, out, 4);
	mr_pidlist_feed(&p, "12 x", 4);
	n = mr_pidlist_feed(&p, " 34 ", 4);
	checks++;
	if (n != -EPROTO || mr_pidlist_finish(&p) != -EPROTO || p.count != 1)
		fail("sticky error", "12 x 34 ", 8, 4, n, -EPROTO);
	/* The byte bound: exactly MR_PIDLIST_MAX_BYTES separators are an
	 * empty list, one byte more is -EFBIG; junk before the bound is
	 * still -EPROTO; in any chunking. */
	big = malloc(MR_PIDLIST_MAX_BYTES + 1);
	if (!big)
		abort();
	memset(big, ' ', MR_PIDLIST_MAX_BYTES + 1);
	for (c = 4096; c <= 4097; c++) {
		int r0, r1, r2;

		r0 = feed_chunks(big, MR_PIDLIST_MAX_BYTES, c, NULL, 0);
		r1 = feed_chunks(big, MR_PIDLIST_MAX_BYTES + 1, c, NULL, 0);
		big[MR_PIDLIST_MAX_BYTES - 1] = 'x';
		r2 = feed_chunks(big, MR_PIDLIST_MAX_BYTES + 1, c, NULL, 0);
		big[MR_PIDLIST_MAX_BYTES - 1] = ' ';
		checks += 3;
		if (r0 != 0)
			fail("bound: exactly the most bytes", big, MR_PIDLIST_MAX_BYTES, c, r0, 0);
		if (r1 != -EFBIG)
			fail("bound: one byte more", big, MR_PIDLIST_MAX_BYTES + 1, c, r1, -EFBIG);
		if (r2 != -EPROTO)
			fail("bound: junk before it", big, MR_PIDLIST_MAX_BYTES + 1, c, r2, -EPROTO);
	}
	/* ... and in one feed of it all. */
	mr_pidlist_init(&p, NULL, 0);
	off = MR_PIDLIST_MAX_BYTES + 1;
	mr_pidlist_feed(&p, big, off);
	n = mr_pidlist_finish(&p);
	checks++;
	if (n != -EFBIG)
		fail("bound: one feed", big, off, off, n, -EFBIG);
	free(big);
	printf("%s edges: %zu fixed inputs in every chunking, a short out, a sticky error, the %zu-byte bound (%ld parses)\n",
	       failures == f0 ? "ok" : "FAIL", sizeof e / sizeof e[0],
	       (size_t)MR_PIDLIST_MAX_BYTES, checks - before);
}

static int write_file(const char *path, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < len) {
		ssize_t n = write(fd, s + off, len - off);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	return close(fd);
}

/* The reader over a file: its result and stored pids against want. */
static void expect_file(const char *what, const char *path, const char *s, size_t len,
			int max, int wn, const pid_t *want)
{
	static pid_t out[MAXPIDS + 1];
	int i, n;

	for (i = 0; i < max + 1; i++)
		out[i] = UNSET;
	n = mr_proc_read_pids(path, out, max);
	checks++;
	if (n != wn) {
		fail(what, s, len, 512, n, wn);
		return;
	}
	check_out(what, s, len, 512, out, max, n, want);
}

static int test_files(const char *dir)
{
	static char buf[MAXTEXT], path[4096];
	static pid_t want[MAXPIDS];
	long before = checks;
	int f0 = failures, d, files = 0, wfd;
	size_t k, m;

	snprintf(path, sizeof path, "%s/children", dir);
	/* Numbers of every length cut at every position by the reader's
	 * 512-byte reads, at the 1st, 2nd and 8th boundary. */
	for (m = 1; m <= 8; m += m == 2 ? 6 : 1) {
		for (d = 1; d <= 7; d++) {
			for (k = 0; k <= (size_t)d + 1; k++) {
				int wn = 0, end;

				for (end = 0; end < 2; end++) {
					size_t len;

					wn = 0;
					len = put_pad(buf, 0, 512 * m - k, want, &wn);
					len = put_pid(buf, len, d, &want[wn++]);
					if (end)
						buf[len++] = ' ';
					if (write_file(path, buf, len) < 0) {
						perror(path);
						return 2;
					}
					expect_file("file", path, buf, len, MAXPIDS, wn, want);
					expect_file("file, short out", path, buf, len, wn / 2, wn, want);
					files++;
				}
			}
		}
	}
	/* Garbage in a file: the whole file is refused, nothing wrong stored. */
	memcpy(buf, "12 34 56 0 78 ", 14);
	if (write_file(path, buf, 14) < 0)
		return 2;
	expect_file("file with a 0", path, buf, 14, MAXPIDS, -EPROTO, want);
	/* What is not a children file: refused, none hangs. */
	snprintf(path, sizeof path, "%s/missing", dir);
	expect_file("missing file", path, "", 0, 4, -ENOENT, want);
	expect_file("a directory", dir, "", 0, 4, -EISDIR, want);
	expect_file("/dev/zero", "/dev/zero", "", 0, 4, -EPROTO, want);
	snprintf(path, sizeof path, "%s/fifo", dir);
	if (mkfifo(path, 0600) < 0) {
		perror(path);
		return 2;
	}
	/* A writer holds it open and writes nothing: a blocking read would
	 * wait for ever. */
	wfd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (wfd < 0) {
		perror(path);
		return 2;
	}
	expect_file("a FIFO with a silent writer", path, "", 0, 4, -EAGAIN, want);
	close(wfd);
	unlink(path);
	snprintf(path, sizeof path, "%s/children", dir);
	unlink(path);
	printf("%s files: %d files with pids of 1..7 digits cut by 512-byte reads; a 0, missing, directory, /dev/zero, FIFO (%ld parses)\n",
	       failures == f0 ? "ok" : "FAIL", files, checks - before);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "chunks") == 0) {
		test_chunks();
		test_random();
	} else if (argc == 2 && strcmp(argv[1], "edges") == 0) {
		test_edges();
	} else if (argc == 3 && strcmp(argv[1], "files") == 0) {
		if (test_files(argv[2]))
			return 2;
	} else {
		fprintf(stderr, "usage: pidlist chunks | edges | files DIR\n");
		return 2;
	}
	if (failures) {
		printf("%d of %ld parses failed\n", failures, checks);
		return 1;
	}
	return 0;
}
