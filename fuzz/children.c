/* Fuzz target: /proc/PID/task/TID/children as lib/mr_proc.c parses it
 * (struct mr_pidlist_parser), fed in chunks whose sizes come from the
 * input, and read from a file by mr_proc_read_pids.  Both must agree with
 * a plain reference parse of the whole text (tests/unit/pidref.h, which
 * the unit test of the parser uses too), store exactly its pids (as
 * many as fit) and never a 0, a 1 or a pid out of range.
 *
 * Input: byte 0 = MMMMMKKK: K (0..7) chunk-size bytes follow (none: one
 * feed of it all), M (0..31) is the out array's size (31: 4096); each
 * chunk-size byte b is a chunk of b+1 bytes, used in turn; the rest is the
 * file's text. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mr_proc.h"
#include "../tests/unit/pidref.h"

#define OUT_MAX 4096
#define UNSET ((pid_t)-7)

/* out as the parser left it, against the reference's want. */
static void
check(int n, const pid_t *out, int max, int wn, const pid_t *want)
{
	int i, stored = n < max ? n : max;

	if (n != wn)
		abort();
	for (i = 0; i <= max; i++) {
		if (out[i] != UNSET && (out[i] < 2 || out[i] > MR_PID_MAX_LIMIT))
			abort();
		if (n >= 0 && i < stored && out[i] != want[i])
			abort();
		if (n >= 0 && i >= stored && out[i] != UNSET)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static pid_t out[OUT_MAX + 1], want[OUT_MAX];
	struct mr_pidlist_parser p;
	const uint8_t *sizes;
	const char *text, *path;
	size_t nsizes, len, off = 0, k = 0;
	int max, wn, n, i;

	if (size == 0)
		return 0;
	nsizes = data[0] & 7;
	max = (data[0] >> 3) == 31 ? OUT_MAX : data[0] >> 3;
	if (nsizes > size - 1)
		nsizes = size - 1;
	sizes = data + 1;
	text = (const char *)data + 1 + nsizes;
	len = size - 1 - nsizes;
	wn = pidref_parse(text, len, want, max);

	for (i = 0; i <= max; i++)
		out[i] = UNSET;
	mr_pidlist_init(&p, out, max);
	while (off < len) {
		size_t c = nsizes ? (size_t)sizes[k++ % nsizes] + 1 : len;

		if (c > len - off)
			c = len - off;
		mr_pidlist_feed(&p, text + off, c);
		off += c;
	}
	n = mr_pidlist_finish(&p);
	check(n, out, max, wn, want);

	path = fuzz_file((const uint8_t *)text, len);
	if (path) {
		for (i = 0; i <= max; i++)
			out[i] = UNSET;
		n = mr_proc_read_pids(path, out, max);
		check(n, out, max, wn, want);
	}
	return 0;
}
