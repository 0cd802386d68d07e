/* shard: splitting a matrix's (case, config) pairs over N CI jobs.
 *
 * Every job computes the same plan from the same inputs (the cases, their
 * matrices and the baselines of the platform) and runs only the pairs of
 * its own shard, every repeat of them.  The split is greedy
 * longest-processing-time first: pairs by falling expected cost, each to
 * the shard with the least cost so far (ties: the lower shard, the earlier
 * pair), which keeps the largest shard within one pair's cost of the mean.
 */
#ifndef MR_SHARD_H
#define MR_SHARD_H

#include <stdint.h>

/* Parse "K/N" (1 <= K <= N <= MR_SHARD_MAX, decimal) into *k and *n.
 * Returns 0, or -1 (nothing printed). */
#define MR_SHARD_MAX 1000
int mr_shard_parse(const char *s, int *k, int *n);

/* Assign each of npair pairs, of expected cost cost[i] (> 0, any unit),
 * to a shard 1..nshard: bin[i].  Deterministic for the same input. */
void mr_shard_plan(const double *cost, int npair, int nshard, int *bin);

/* A fingerprint of a plan (FNV-1a over each pair's name and shard), so
 * that merge can refuse shards that were cut from different plans. */
uint64_t mr_shard_hash(uint64_t h, const char *casename, const char *config,
		       int bin);
#define MR_SHARD_HASH0 UINT64_C(14695981039346656037)

#endif
