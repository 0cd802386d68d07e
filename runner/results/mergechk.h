/* mergechk: what merge checks of the shards' rows before it writes
 * anything: each shard's runs within its plan, each log one run's.
 *
 * A shard records its plan only as a hash and its share, shard.pairs
 * "MINE/ALL" (session/plan.c), so the rows are held to what that proves:
 * every (case, config) pair in one shard only (the plan gives each pair
 * one shard), at most MINE pairs in a shard, at most ALL in all.  The
 * repeats are held to env.tsv's repeat by the reader itself (read.h).
 */
#ifndef MR_MERGECHK_H
#define MR_MERGECHK_H

#include "results/read.h"

/* The shards R[0..n-1], read: 0, or -1 after printing
 * "DIR/runs.tsv:LINE: ..." for the first row outside its shard's plan, or
 * whose log is another row's too (merge would copy one file for two runs,
 * or one over the other). */
int mr_merge_check_rows(const struct mr_rd *R, int n);

/* A fresh directory beside out (".NAME.merging-XXXXXX", its parent made
 * when missing) for merge to write into and rename to out once whole;
 * NULL (printed) when it cannot be made.  Fresh string. */
char *mr_merge_tmp_beside(const char *out);

#endif
