/* log: a run's output into its log file — see log.h. */
#include "proc/log.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/drain.h"

/* What a log gives back when the disk fills, for the rows of the run. */
#define LOG_GIVE_BACK (256u << 10)

/* Keep n bytes of the case's output in the log, up to lg->max; the rest
 * (or all, once a write failed: a full disk) is counted and dropped, never
 * left in the pipe. */
static void
log_output(void *ctx, const char *buf, size_t n)
{
	struct mr_log *lg = ctx;
	size_t keep = 0;

	if (lg->tap) /* a command's --mark-on (proc/marks.h) */
		lg->tap(lg->tap_ctx, buf, n);
	if (!lg->error && lg->logged < lg->max)
		keep = n < lg->max - lg->logged ? n : (size_t)(lg->max - lg->logged);
	while (keep) {
		ssize_t w = write(lg->fd, buf, keep);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			lg->error = 1;
			lg->errnum = w < 0 ? errno : ENOSPC;
			/* A full disk: give back the log's last 256 KiB, so
			 * that the note below and the run's rows still fit. */
			if (lg->errnum == ENOSPC || lg->errnum == EDQUOT) {
				lg->logged = lg->logged > LOG_GIVE_BACK ? lg->logged - LOG_GIVE_BACK : 0;
				if (ftruncate(lg->fd, (off_t)lg->logged) == 0 &&
				    lseek(lg->fd, 0, SEEK_END) >= 0)
					lg->dropped += LOG_GIVE_BACK;
			}
			break;
		}
		lg->logged += (uint64_t)w;
		buf += w;
		keep -= (size_t)w;
		n -= (size_t)w;
	}
	lg->dropped += n;
}

/* Move what the output pipe holds now to the log, at most 256 KiB (a case
 * writing faster than we read must not keep us here).  Returns 0 at EOF,
 * 2 when the pipe is empty, 1 when it may hold more. */
int
mr_log_read(struct mr_log *lg, int fd)
{
	char buf[16384];

	return mr_drain(fd, buf, sizeof buf, 16, log_output, lg);
}

/* After the run: the rest of the output, and a note when some was
 * dropped.  Every writer is dead by now, so this ends; a writer that
 * somehow survived (EAGAIN) ends it too. */
void
mr_log_finish(struct mr_log *lg, int fd, int open)
{
	char note[160];
	int n;

	while (open && mr_log_read(lg, fd) == 1)
		;
	if (lg->error)
		n = snprintf(note, sizeof note,
			     "\n[memrepro: the log is cut short here: write: %s]\n",
			     strerror(lg->errnum));
	else if (lg->dropped)
		n = snprintf(note, sizeof note,
			     "\n[memrepro: the log stops at %u MiB: %llu more bytes of output were dropped]\n",
			     (unsigned)(lg->max >> 20), (unsigned long long)lg->dropped);
	else
		return;
	if (n > 0)
		(void)!write(lg->fd, note, (size_t)n);
}

