/* export: a results directory's figures for benchmark-history services
 * (memrepro export --format bmf|benchmark-action DIR).
 *
 * Per (case, canonical config, figure) the median over the ok repeats,
 * with their min and max: the figures bless records (baseline.h's
 * mr_bless_run_metrics, mr_bless_ckpt_metrics at each checkpoint's last
 * occurrence, not a config's clock-bound ones) plus wall_ms from the runs
 * that ran alone (check/values.h's mr_rd_values decides).  A config with a
 * runtime (an original) has only wall_ms, as bless gives it only a cost
 * row.  Written as JSON on stdout in one of two formats (docs/formats.md,
 * "memrepro export"):
 *
 *  bmf               Bencher Metric Format: one benchmark "<case> <config>"
 *                    per config, one measure per figure
 *  benchmark-action  github-action-benchmark's customSmallerIsBetter: an
 *                    array of {name, unit, value, range, extra}
 */
#ifndef MR_EXPORT_H
#define MR_EXPORT_H

#include <stdio.h>

enum mr_export_fmt { MR_EXPORT_BMF, MR_EXPORT_ACTION };

struct mr_export_opts {
	const char *dir;          /* the results directory */
	enum mr_export_fmt format;
	FILE *out;                /* NULL: stdout */
};

/* The format called name ("bmf", "benchmark-action"), or -1. */
int mr_export_parse(const char *name);

/* Write o->dir's figures in o->format.  Returns MR_OK, or MR_USAGE on bad
 * input (printed as file:line:column; nothing written). */
int mr_export(const struct mr_export_opts *o);

#endif
