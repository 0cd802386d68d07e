/* baseline: the stored figures of one platform,
 * expected/<platform>/<case>.tsv (docs/formats.md).
 *
 * A baseline row is one (config, checkpoint, metric) with the median, the
 * spread and the tolerance blessed from a results directory; a later
 * median outside median +- tolerance is regressed (above) or improved
 * (below).
 *
 * A cost row (metric MR_BL_COST, checkpoint -, tolerance -) is no
 * expectation: it is the wall_ms of the blessed runs of a config, what a
 * run of it takes, for planning shards (shard.h).  Times drift with the
 * load of the machine, so nothing compares it: it is kept apart from the
 * rows, in cost[].
 */
#ifndef MR_BASELINE_H
#define MR_BASELINE_H

struct mr_bl_row {
	char *config;     /* canonical config (owned) */
	char *checkpoint; /* checkpoint name, NULL for a run metric (owned) */
	long seq;         /* occurrence of the checkpoint, 0: the last one */
	int ckpt;         /* 1: metric indexes mr_ckpt_metrics, 0: mr_run_metrics */
	int metric;       /* index of the metric */
	double median;    /* blessed median over the ok repeats */
	double min, max;  /* blessed spread */
	long n;           /* repeats the median is over */
	double tol;       /* absolute, in the metric's unit */
	long line;        /* line in the file (0 when not read from one) */
};

/* A cost row: wall_ms over the blessed runs of one config. */
struct mr_bl_cost {
	char *config;     /* canonical config (owned) */
	double median;    /* ms */
	double min, max;  /* ms */
	long n;           /* runs the median is over */
	long line;        /* line in the file (0 when not read from one) */
};

#define MR_BL_COST "cost_ms" /* the metric column of a cost row */

struct mr_baseline {
	char *path;              /* the file (owned) */
	char **key, **val;       /* "# key<TAB>value" header lines (owned) */
	int nkv;
	struct mr_bl_row *row;   /* rows, in file order (owned) */
	int nrow;
	struct mr_bl_cost *cost; /* cost rows, in file order (owned) */
	int ncost;
};

/* The metrics bless records: at the last occurrence of each checkpoint,
 * and of each run.  NULL-terminated. */
extern const char *const mr_bless_ckpt_metrics[];
extern const char *const mr_bless_run_metrics[];

struct mr_config;

/* Non-zero when the metric (by name) of config c depends on a clock as
 * much as on the work even on an idle machine (mimalloc's minflt, see
 * baseline.c): bless writes no row of it. */
int mr_bl_timed(const struct mr_config *c, const char *metric);

/* Non-zero when the metric of config c follows an allocator's clock
 * (mimalloc's and jemalloc's minflt): a run on a busy machine, which
 * lasts longer, does not measure it (check/values.c). */
int mr_bl_clocked(const struct mr_config *c, const char *metric);

/* Non-zero when the figures of the config canon (a canonical config
 * string; c, parsed) follow an allocator's clock (jemalloc's decay,
 * mimalloc's decommit delay, unless the config stops it): its runs are
 * watched over a window (proc/machine.h) so that their load is known, and
 * a busy machine's runs do not pin its baseline rows (check/values.c). */
int mr_bl_clocks(const char *canon);
int mr_bl_clocks_conf(const struct mr_config *c);

/* The tolerance bless gives a metric (by name) whose repeats had this
 * median, min and max: see the table in baseline.c. */
double mr_bl_tolerance(const char *metric, double median, double min,
		       double max);

/* The tolerance check judges row r with: the file's, or more where the
 * metric's figure moves with the machine beyond what its repeats show. */
double mr_bl_row_tol(const struct mr_bl_row *r);

/* Name of a row's metric. */
const char *mr_bl_metric(const struct mr_bl_row *r);

/* A row's checkpoint column: "-", "name" or "name#seq" (fresh string). */
char *mr_bl_checkpoint(const struct mr_bl_row *r);

/* Read a baseline.  Returns 0; -ENOENT when the file does not exist
 * (nothing printed); -1 on bad input (printed as path:line:col).  b is
 * filled only on 0; free it with mr_baseline_free. */
int mr_baseline_read(const char *path, struct mr_baseline *b);

/* Add a "# key<TAB>value" header line / a row / a cost row (copies every
 * string). */
void mr_baseline_kv(struct mr_baseline *b, const char *key, const char *val);
void mr_baseline_add(struct mr_baseline *b, const struct mr_bl_row *r);
void mr_baseline_add_cost(struct mr_baseline *b, const struct mr_bl_cost *c);

/* The cost row of config, or NULL. */
const struct mr_bl_cost *mr_baseline_cost(const struct mr_baseline *b,
					  const char *config);

/* Write b to path: header lines, the column names, the rows sorted by
 * (config, checkpoint, metric), then the cost rows by config.  Writes a temporary file in the same
 * directory and renames it over path, so a reader never sees half a
 * baseline.  Returns 0, or -1 after printing why. */
int mr_baseline_write(const struct mr_baseline *b, const char *path);

void mr_baseline_free(struct mr_baseline *b);

#endif
