/* log: a run's output (the case's stdout and stderr) into its log file.
 *
 * Bounded: past max bytes the runner goes on draining the output pipe (so
 * the case never blocks on a full pipe) but drops what it reads, and a
 * failed write (a full disk) drops the rest; the log then ends with a note
 * saying so.
 */
#ifndef MR_LOG_H
#define MR_LOG_H

#include <stddef.h>
#include <stdint.h>

struct mr_log {
	int fd;             /* the log file */
	uint64_t max;       /* the most bytes kept */
	uint64_t logged;    /* bytes written to it */
	int error;          /* writing failed (disk full): drop the rest */
	int errnum;         /* why writing failed, or 0 */
	uint64_t dropped;   /* output bytes not kept: past max, or lost to a
	                       failed write */
	/* a command's --mark-on (proc/marks.h): sees every byte read, kept
	   or not; NULL: none */
	void (*tap)(void *ctx, const char *buf, size_t n);
	void *tap_ctx;
};

/* Move what the output pipe fd (non-blocking) holds now to the log, at
 * most 256 KiB (a case writing faster than we read must not keep us
 * here).  Returns 0 at EOF, 2 when the pipe is empty, 1 when it may hold
 * more. */
int mr_log_read(struct mr_log *lg, int fd);

/* After the run: the rest of the output (when the pipe is still open),
 * and a note when some was dropped.  Every writer is dead by now, so this
 * ends; a writer that somehow survived (EAGAIN) ends it too. */
void mr_log_finish(struct mr_log *lg, int fd, int open);

#endif
