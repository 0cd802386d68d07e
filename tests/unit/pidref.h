/* pidref: the plain reference parse of a children file, shared by the
 * test of lib/mr_proc.c's pid-list parser (tests/unit/pidlist.c) and its
 * fuzz target (fuzz/children.c).
 *
 * The whole text at once, with strtoul: the grammar mr_proc.h states,
 * written the plain way and independently of the parser under test (which
 * streams, in chunks, without a copy).  Include it once per program.
 */
#ifndef MR_PIDREF_H
#define MR_PIDREF_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "mr_proc.h"

/* The pids of s[0..len), as many as fit into out[0..max); returns how
 * many it lists, -EPROTO (junk, a 0, a 1, a leading zero, a pid out of
 * range) or -EFBIG (more than MR_PIDLIST_MAX_BYTES). */
static int
pidref_parse(const char *s, size_t len, pid_t *out, int max)
{
	char *copy, *end;
	size_t i = 0;
	int count = 0;

	if (len > MR_PIDLIST_MAX_BYTES)
		return -EFBIG;
	copy = malloc(len + 1);
	if (!copy)
		abort();
	memcpy(copy, s, len);
	copy[len] = '\0';
	while (i < len) {
		unsigned long v;

		if (copy[i] == ' ' || copy[i] == '\n') {
			i++;
			continue;
		}
		/* strtoul would take a sign or blanks: only digits may start. */
		if (copy[i] < '1' || copy[i] > '9')
			break; /* junk, or 0, or a leading zero */
		errno = 0;
		v = strtoul(copy + i, &end, 10);
		if (errno == ERANGE || v < 2 || v > MR_PID_MAX_LIMIT)
			break;
		if ((size_t)(end - copy) < len && *end != ' ' && *end != '\n')
			break; /* junk (an embedded NUL too) right after it */
		if (count < max)
			out[count] = (pid_t)v;
		count++;
		i = (size_t)(end - copy);
	}
	free(copy);
	return i < len ? -EPROTO : count;
}

#endif
