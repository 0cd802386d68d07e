/* describe: a run's outcome and its detail for runs.tsv — see spawn.h
 * (mr_spawn_describe). */
#include "proc/spawn.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "mr_exit.h"
#include "proc/child.h"

/* What the child sends when it could not join its memory cgroup. */
#define CGROUP_FAILED MR_CHILD_CGROUP_FAILED

/* The last non-empty line of the log (skip reasons live there), without a
 * "skipped: " prefix; tabs become spaces. */
static void
last_line(const char *path, char *dst, size_t size)
{
	char buf[4096];
	long len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t off;
	char *end, *start;

	dst[0] = '\0';
	if (fd < 0)
		return;
	off = lseek(fd, 0, SEEK_END);
	off = off > (off_t)sizeof buf - 1 ? off - (off_t)sizeof buf + 1 : 0;
	len = (long)pread(fd, buf, sizeof buf - 1, off);
	close(fd);
	if (len <= 0)
		return;
	buf[len] = '\0';
	end = buf + len;
	while (end > buf && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	start = end;
	while (start > buf && start[-1] != '\n')
		start--;
	if (strncmp(start, "skipped: ", 9) == 0)
		start += 9;
	snprintf(dst, size, "%s", start);
}

static void
clean_detail(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

enum mr_outcome
mr_spawn_describe(const struct mr_spawn_res *res, long timeout_ms,
		 const char *log_path, char *detail, size_t size)
{
	enum mr_outcome o = MR_OUTCOME_OK;
	const char *abbrev;
	size_t n;

	snprintf(detail, size, "-");
	switch (res->out.kind) {
	case MR_SPAWN_EXITED:
		switch (res->out.code) {
		case MR_EXIT_OK:
			break;
		case MR_EXIT_SKIP:
			o = MR_OUTCOME_SKIPPED;
			last_line(log_path, detail, size);
			if (!detail[0])
				snprintf(detail, size, "exit %d without a reason", res->out.code);
			break;
		case MR_EXIT_USAGE:
			/* A parameter combination the case refuses (mr_usage):
			 * its message is the last line of the log. */
			o = MR_OUTCOME_USAGE_ERROR;
			last_line(log_path, detail, size);
			if (!detail[0])
				snprintf(detail, size, "exit %d without a message", res->out.code);
			break;
		case MR_EXIT_EXEC:
			/* Not the case's own code: a loader or a shell that
			 * could not execute the program, saying why last. */
			o = MR_OUTCOME_EXEC_FAILED;
			n = (size_t)snprintf(detail, size, "exit %d: ", res->out.code);
			if (n < size)
				last_line(log_path, detail + n, size - n);
			if (n < size && !detail[n])
				snprintf(detail, size, "exit %d: not executed", res->out.code);
			break;
		default:
			o = MR_OUTCOME_FAILED;
			snprintf(detail, size, "exit %d", res->out.code);
			break;
		}
		break;
	case MR_SPAWN_SIGNALLED:
		o = MR_OUTCOME_CRASHED;
		abbrev = sigabbrev_np(res->out.code);
		if (abbrev)
			snprintf(detail, size, "SIG%s", abbrev);
		else
			snprintf(detail, size, "signal %d", res->out.code);
		break;
	case MR_SPAWN_TIMEOUT:
		o = MR_OUTCOME_TIMEOUT;
		n = (size_t)snprintf(detail, size, "timeout after %g s", (double)timeout_ms / 1000);
		/* Whose time ran out: a tenth of it or more spent waiting for
		 * the runner is named; the rest is the case's own. */
		if (res->nckpts && res->pause_ms * 10 >= (uint64_t)timeout_ms && n < size)
			snprintf(detail + n, size - n,
				 ": the case spent %.1f s of it waiting for the runner to measure %zu checkpoint%s",
				 (double)res->pause_ms / 1000, res->nckpts, res->nckpts == 1 ? "" : "s");
		break;
	case MR_SPAWN_EXEC_FAILED:
		o = MR_OUTCOME_EXEC_FAILED;
		if (res->out.code & CGROUP_FAILED)
			snprintf(detail, size, "joining its memory cgroup: %s",
				 strerror(res->out.code & ~CGROUP_FAILED));
		else
			snprintf(detail, size, "execve: %s", strerror(res->out.code));
		break;
	case MR_SPAWN_MEMCAP:
		o = MR_OUTCOME_MEMORY_CAP;
		if (res->memcap_sampled)
			snprintf(detail, size, "exceeded memory cap (%d MiB; sampled tree RSS, no memory cgroup)",
				 res->out.code);
		else
			snprintf(detail, size, "exceeded memory cap (%d MiB%s)", res->out.code,
				 res->memcap_pressure ? ", the pressure axis's limit" : "");
		break;
	case MR_SPAWN_BAD_OUTPUT:
		o = MR_OUTCOME_BAD_OUTPUT;
		snprintf(detail, size, "%s", res->bad_detail);
		break;
	}
	if (res->leftovers) {
		size_t len = strcmp(detail, "-") ? strlen(detail) : 0;

		snprintf(detail + len, size - len, "%skilled %d leftover process%s",
			 len ? "; " : "", res->leftovers, res->leftovers == 1 ? "" : "es");
	}
	if (res->unproved[0]) {
		size_t len = strcmp(detail, "-") ? strlen(detail) : 0;

		snprintf(detail + len, size - len, "%s%s left running: not provably this run's",
			 len ? "; " : "", res->unproved);
	}
	if (res->stopped_ms) {
		size_t len = strcmp(detail, "-") ? strlen(detail) : 0;

		snprintf(detail + len, size - len,
			 "%sthe runner stood still for %.1f s (stopped or suspended): its times are not measured",
			 len ? "; " : "", (double)res->stopped_ms / 1000);
	}
	if (res->log_errno) {
		size_t len = strcmp(detail, "-") ? strlen(detail) : 0;

		snprintf(detail + len, size - len, "%sthe log is cut short: %s", len ? "; " : "",
			 strerror(res->log_errno));
	}
	clean_detail(detail);
	if (!detail[0])
		snprintf(detail, size, "-");
	return o;
}
