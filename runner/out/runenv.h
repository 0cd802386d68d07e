/* runenv: how results directories differ in what they ran under.
 *
 * compare and trend print it first, before any change they call: a
 * figure that moved between a run at -j 2 under THP always and one alone
 * under madvise says as much about the machine as about the code.  From
 * each directory's env.tsv (read through results/read.h), every key
 * whose value is not the same in all of them (a key one lacks shown as
 * "-"), leaving out those that name the run rather than what it ran
 * under (started, the cases run, the cases' and cgroups' paths); and the
 * runs that ran beside others (runs.tsv's overlap), counted.
 */
#ifndef MR_RUNENV_H
#define MR_RUNENV_H

#include <stdio.h>

#include "results/read.h"

/* Print on f "ran under:" then one line per differing key, "  KEY  OLD ->
 * NEW" for two directories (R[0], R[1]), "  KEY  1:V1 2:V2 ..." for more
 * (in R's order); or "  the same: N settings ...".  Returns how many keys
 * differ. */
int mr_runenv_print(FILE *f, struct mr_rd *const *R, int n);

#endif
