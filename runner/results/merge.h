/* merge: join the results directories of the shards of one matrix
 * (run --shard K/N) into one results directory, on which check, compare
 * and report work as on a single run (docs/formats.md, "Shards").
 */
#ifndef MR_MERGE_H
#define MR_MERGE_H

/* Merge dirs[0..ndirs-1] into out (new or empty).  Every dir is read
 * strictly first; shards of different platforms, profiles, memrepro
 * versions, options or plans, a shard given twice or missing, and a
 * (case, config, repeat) in two shards are refused before anything is
 * written.  Returns MR_OK, MR_USAGE (refused, message printed) or
 * MR_FAILED (a write failed, printed). */
int mr_merge(const char *out, const char *const *dirs, int ndirs);

#endif
