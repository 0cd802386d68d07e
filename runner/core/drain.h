/* drain: what a non-blocking pipe holds now, read in bounded rounds.
 *
 * The runner reads a case's pipes (its output, its checkpoint records)
 * between samples: a writer faster than the runner must not keep it from
 * sampling, so each call reads at most a few buffers' worth.
 */
#ifndef MR_DRAIN_H
#define MR_DRAIN_H

#include <stddef.h>

/* Read fd (non-blocking) into buf (size bytes) at most rounds times (a
 * read cut by a signal is tried again, and counts), handing each read's
 * bytes to sink(ctx, buf, n), and stops after a read that did not fill
 * buf (it emptied the pipe: poll says when there is more).  Returns 0 at
 * EOF, 2 when the pipe is empty (EAGAIN; a read error counts as empty), 1
 * when it may hold more. */
int mr_drain(int fd, char *buf, size_t size, int rounds,
	     void (*sink)(void *ctx, const char *p, size_t n), void *ctx);

#endif
