/* values: the figures of a results directory that check, bless, compare,
 * trend and report judge or show — the median's inputs of a reference
 * (claims.h's struct mr_ref) over the ok runs of a config, and why a
 * config has none.  Over a results directory read by results/read.h;
 * here rather than there because a reference and the figures that follow
 * an allocator's clock (baseline.h) are check's words.
 */
#ifndef MR_VALUES_H
#define MR_VALUES_H

#include "check/claims.h"
#include "results/read.h"

/* The checkpoint row of run r named name (seq 0: its last occurrence), or
 * NULL. */
const struct mr_rd_ck *mr_rd_ck_row(const struct mr_rd_case *k,
				    const struct mr_rd_run *r,
				    const char *name, long seq);

/* The values of ref over the ok runs of config ci that measured it (a
 * time only from runs that ran alone: overlap 0), sorted ascending, into a fresh *out.  Returns how many (0: *out is
 * still to be freed). */
int mr_rd_values(const struct mr_rd_case *k, int ci, const struct mr_ref *ref,
		 double **out);

/* Non-zero when the rest of the machine was busy during run r: it used
 * more than a quarter of one CPU over the run's lifetime (at least
 * MR_MACHINE_WINDOW_MS, the window a short run is watched over), beyond
 * what /proc/stat's clock ticks can tell apart (MR_RD_BUSY_SLACK_MS); or
 * over all the results' runs (mr_rd_run.session_share) more than
 * MR_RD_BUSY_SHARE of one.  The session's other runs (-j) are not "the
 * rest" (proc/board.h).  Its times are then not figures of the case.
 *
 * Why both: a CPU kept busy by a loop beside a -j 2 session on two CPUs
 * gets 0 to 1.2 of a CPU in a given run, depending on what it shares the
 * CPUs with, while an idle machine's runs read 0 to 0.9 (a tree's CPU the
 * board says late); over a quick check of the corpus the shares are 0.70
 * to 0.84 and 0.04 (bench/flaky.sh, 2 CPUs, 2026-12-06).  A run
 * judged busy on its own reading alone was judged so or not at random
 * from one check to the next. */
#define MR_RD_BUSY_SLACK_MS 30
#define MR_RD_BUSY_SHARE 0.25
int mr_rd_busy(const struct mr_rd_run *r);

/* Why run r was busy, for a reason's parentheses ("other programs used 970
 * ms of CPU in the 491 ms the run was watched").  Fresh string. */
char *mr_rd_busy_why(const struct mr_rd_run *r);

/* Why config ci has no value for ref ("skipped: libfoo not found",
 * "no checkpoint cleared recorded", ...).  Fresh string. */
char *mr_rd_nodata(const struct mr_rd_case *k, int ci, const struct mr_ref *ref);

/* The names of the checkpoints the ok runs of config ci recorded, in
 * order of first appearance, into a fresh array of pointers into k (the
 * strings are not copied).  Returns how many.  ci < 0: over every config
 * of the case. */
int mr_rd_ck_names(const struct mr_rd_case *k, int ci, const char ***names);

/* The figures compare and trend follow for config ci (ci < 0: any config
 * of the case): the run metrics wall_ms, user_ms, sys_ms, maxrss_kb and
 * minflt (not peak_rss_kb: a sampled peak misses short spikes, so it
 * wobbles), then at the last occurrence of each checkpoint
 * (mr_rd_ck_names) the metrics bless records (baseline.h).  A fresh array
 * into *refs (checkpoint names point into k); returns how many. */
int mr_rd_figures(const struct mr_rd_case *k, int ci, struct mr_ref **refs);

/* A reference's name, "rss_kb@cleared", "rss_kb@created#2" or "wall_ms".
 * Fresh string. */
char *mr_rd_ref_name(const struct mr_ref *ref);

#endif
