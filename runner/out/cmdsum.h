/* cmdsum: what the terminal shows first after a command's runs
 * (`memrepro run -- CMD`, docs/command.md).
 *
 * One table, a row per config: peak RSS (wait4's high-water mark), RSS at
 * end (the exit mark's), wall and CPU (user + sys) time, each the median
 * over the ok runs with its spread (half the range) when there are two or
 * more; then each figure of a config that differs from the glibc config
 * with the same other keys beyond noise (the rank test compare uses at
 * MR_ST_ALPHA, and a change of at least mr_st_min_change): or why none can
 * be called (too few repeats).
 */
#ifndef MR_CMDSUM_H
#define MR_CMDSUM_H

#include <stdio.h>

struct mr_rd;

/* Print the summary of case name's runs in the results R (read by the
 * caller) to f.  Returns 0, or -1 when R has no such case. */
int mr_cmdsum_print(FILE *f, const struct mr_rd *R, const char *name);

#endif
