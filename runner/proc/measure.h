/* measure: the runner's figures at a checkpoint, for spawn.c's record
 * callbacks (not a public interface).
 *
 * Read while the case stands still waiting for its ack, once per record:
 * only what the record's row needs, nothing on the sampling interval.
 */
#ifndef MR_MEASURE_H
#define MR_MEASURE_H

#include <stddef.h>

#include "proto/record.h"
#include "proc/loop.h"

/* The runner's share of row (a record of r's case, its own figures
 * parsed): the case's smaps_rollup and status figures, the sums over its
 * tree, the cgroup's charge. */
void mr_measure_tree(struct mr_run *r, struct mr_record *row);

/* The figures a record of the name and seq alone did not carry (an
 * original's: docs/originals.md), read from /proc while the program
 * waits.  Returns 0, or -1 with why in why. */
int mr_measure_figures(const struct mr_run *r, struct mr_record *row, char *why, size_t size);

#endif
