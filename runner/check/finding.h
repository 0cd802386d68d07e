/* finding: what regressions that come together share.
 *
 * Thirty-three baseline rows of one case regressed under one allocator
 * are one finding, not thirty-three: the terminal and the report say
 * first what they have in common (the case, the config's keys, the
 * checkpoint, the metric), then list them.
 */
#ifndef MR_FINDING_H
#define MR_FINDING_H

#include "check/verdict.h"

/* What the regressed claims and baseline rows of vs share (of case ci
 * alone when ci >= 0, else of every case), as "31 regressed (1 claim, 30
 * baseline rows), all of case fiber-stacks, config allocator=jemalloc,
 * checkpoint cleared" (of the config, the keys that vary among the
 * case's configs; of case ci, not its name); a fresh string, or NULL when
 * there are fewer than two, or they share nothing. */
char *mr_finding(const struct mr_vds *vs, int ci);

#endif
