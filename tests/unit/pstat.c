/* pstat: mr_proc_parse_stat and mr_proc_stat (lib/mr_proc.c, the one
 * reader of /proc/PID/stat the runner uses for a process's state, parent,
 * group, flags, faults, CPU time and start time).
 *
 * Usage: pstat
 *   Parses stat lines whose command name holds spaces and ')' (the fields
 *   start after the last ')'), a tpgid of -1 among the fields not read,
 *   a line with no newline; refuses a line cut before the start time, a
 *   field that is not a number where one is read, no ')' at all, a state
 *   not followed by a blank; reads its own /proc/self/stat and its
 *   parent's (state R, ppid getppid(), pgrp getpgrp()), and a pid that is
 *   gone is -ENOENT.
 * Prints one line per group; exit 0 when all hold, 1 otherwise (each
 * failure on stderr).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mr_proc.h"

static int failures, checks;

static void
expect(int ok, const char *what)
{
	checks++;
	if (!ok) {
		failures++;
		fprintf(stderr, "pstat: failed: %s\n", what);
	}
}

/* The fields of a real line, 3 to 52, after the command name. */
#define TAIL "S 41 42 42 34816 -1 4194560 1234 0 5 0 77 88 66 55 20 0 1 0 99999 " \
	"8708096 924 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 " \
	"0 0 0 0 0 0 0 0\n"

static void
parses(void)
{
	static const char *const names[] = { "(sh)", "(a b) (c)", "(x))", "())", NULL };
	char line[512];
	struct mr_pstat st;
	int i;

	for (i = 0; names[i]; i++) {
		memset(&st, 0, sizeof st);
		snprintf(line, sizeof line, "1234 %s " TAIL, names[i]);
		expect(mr_proc_parse_stat(line, strlen(line), &st) == 0, names[i]);
		expect(st.state == 'S' && st.ppid == 41 && st.pgrp == 42, "state, ppid, pgrp");
		expect(st.flags == 4194560 && st.minflt == 1234 && st.majflt == 5, "flags, faults");
		expect(st.utime == 77 && st.stime == 88 && st.start == 99999, "times, start");
		expect(st.cutime == 66 && st.cstime == 55, "the reaped children's times");
	}
	/* the start time is the last field read: a line that ends there */
	snprintf(line, sizeof line, "7 (k) R 1 7 7 0 -1 64 0 0 0 0 3 4 0 0 20 0 1 0 555");
	expect(mr_proc_parse_stat(line, strlen(line), &st) == 0 && st.start == 555 &&
	       st.state == 'R', "a line ending at the start time, no newline");
	printf("parses: %d checks\n", checks);
}

static void
refuses(void)
{
	static const char *const bad[] = {
		"1 (x) S 1 1 1 0 -1 64 0 0 0 0 3 4 0 0 20 0 1 0\n", /* cut before the start */
		"1 (x) S one 1 1 0 -1 64 0 0 0 0 3 4 0 0 20 0 1 0 5\n", /* ppid not a number */
		"1 (x) S 1 1 1 0 -1 64 0 0 0 0 -3 4 0 0 20 0 1 0 5\n", /* utime negative */
		"1 (x) S 1 1 1 0 -1 64 0 0 0 0 3 4 0 0 20 0 1 0 5x\n", /* start with a tail */
		"1 x S 1 1 1 0 -1 64 0 0 0 0 3 4 0 0 20 0 1 0 5\n", /* no ')' */
		"1 (x) SS 1 1 1 0 -1 64 0 0 0 0 3 4 0 0 20 0 1 0 5\n", /* a state of two */
		"1 (x)", "", NULL,
	};
	struct mr_pstat st;
	int i, before = checks;

	for (i = 0; bad[i]; i++)
		expect(mr_proc_parse_stat(bad[i], strlen(bad[i]), &st) == -EPROTO, bad[i]);
	printf("refuses: %d checks\n", checks - before);
}

static void
reads(void)
{
	struct mr_pstat st;
	int before = checks;

	expect(mr_proc_stat(0, &st) == 0 && st.state == 'R' && st.ppid == (long)getppid() &&
	       st.pgrp == (long)getpgrp() && st.start > 0, "its own stat");
	expect(mr_proc_stat(getppid(), &st) == 0 && st.start > 0, "its parent's stat");
	/* pid_max is at most 2^22: this pid is never a process */
	expect(mr_proc_stat(2147483647, &st) == -ENOENT, "a pid that is gone");
	printf("reads: %d checks\n", checks - before);
}

int
main(void)
{
	parses();
	refuses();
	reads();
	return failures ? 1 : 0;
}
