/* read: reading a results directory (docs/formats.md, "Reading a results
 * directory").
 *
 * Every file is opened through safeio.h (never a symbolic link, only a
 * regular file, its size capped).  env.tsv, runs.tsv and checkpoints.tsv
 * are read whole and strictly (with tsv.h: the first problem is printed
 * as path:line:column and stops the reading) into cases, their configs,
 * runs and checkpoint rows; a figure out of its range (mr_rd_metric_num)
 * is such a problem.  The
 * series is not loaded (only plots need it, and gnuplot reads it).  Every
 * figure of a reference (check/values.h) is the median over the
 * ok runs of a config: check, bless, compare, trend and report all take
 * their figures from here, so they agree.  read.c loads and looks up,
 * check/values.h gives the figures of a reference (claims.h's struct mr_ref).
 */
#ifndef MR_READ_H
#define MR_READ_H

#include "core/hash.h"
#include "proto/schema.h"
#include "results/config.h"

/* A run's outcome: the schema's (proto/schema.h, enum mr_outcome), under
 * the names the readers of results use. */
#define MR_X_ENUM_RD(id, word) MR_RD_##id = MR_OUTCOME_##id,
enum mr_rd_outcome { MR_OUTCOME_TABLE(MR_X_ENUM_RD) MR_RD_NOUTCOMES = MR_NOUTCOMES };
#undef MR_X_ENUM_RD

/* The runs.tsv words of the outcomes, by enum mr_rd_outcome. */
#define mr_rd_outcomes mr_outcomes

/* Where a run ran: on the host, or in a guest under emulation (TCG) or
 * KVM (runs.tsv's accel column, run/guest.h). */
enum mr_rd_accel { MR_RD_HOST, MR_RD_TCG, MR_RD_KVM };

/* The least lifetime of runs (ms) over which a results directory's share
 * of the machine's other CPU (mr_rd_run.session_share) is taken: over
 * less, a few runs' clock ticks say little. */
#define MR_RD_SHARE_MIN_MS 10000

/* One row of runs.tsv. */
struct mr_rd_run {
	int cfg;                   /* index into the case's configs */
	long repeat;               /* 1..N */
	enum mr_rd_outcome outcome;
	char *detail;              /* "-" when none (owned, but for a
	                              "-": one static copy, mr_rd_free's
	                              to know) */
	char *log;                 /* relative to the results, NULL if none (owned) */
	long line;                 /* in runs.tsv */
	double m[MR_NRUN_METRICS]; /* NAN: not measured */
	long overlap;              /* other runs alive beside it (-j); its
	                              times are not figures when > 0 */
	long stopped_ms;           /* the runner stood still during it
	                              (stopped, suspended): its times are
	                              not figures when > 0 */
	long other_cpu_ms;         /* CPU the rest of the machine used
	                              during it; -1: not recorded.  Its
	                              times are not figures when the
	                              machine was busy (mr_rd_busy) */
	/* (other_cpu_ms: -1 too in older results' runs beside others, which
	 * counted theirs: mr_rd_share) */
	double session_share;      /* the rest of the machine's CPU over
	                              the results' ok runs that recorded it
	                              (a short one over the window it was
	                              watched; in older results only those
	                              that ran alone), as a share of one CPU
	                              (NAN: under MR_RD_SHARE_MIN_MS of
	                              them); the same in every run */
	char *machine;             /* what changed in the machine's settings
	                              (runs.tsv's machine column), NULL:
	                              nothing.  None of its figures is
	                              judged (owned) */
	enum mr_rd_accel accel;    /* where it ran (runs.tsv's accel
	                              column; host when the file has none):
	                              under TCG its times are not figures */
	int *ck;                   /* its rows in the case's ck[], in file order (owned) */
	int nck;
};

/* One row of checkpoints.tsv. */
struct mr_rd_ck {
	char *name;                 /* checkpoint name (into the case's
	                               ckname: one copy of each name) */
	long seq;                   /* occurrence, from 1 */
	int run;                    /* its run in the case's run[] */
	double m[MR_NCKPT_METRICS]; /* NAN: not measured */
};

/* What is known of a config of a case, beside its mr_config. */
struct mr_rd_cfg {
	char *label;   /* short form: only the keys that vary (owned) */
	int *run;      /* its runs in the case's run[] (owned) */
	int nrun;
	int nok, nskip, nfail;
};

struct mr_rd_case {
	char *name;             /* (owned) */
	struct mr_config *conf; /* its configs in order of appearance */
	struct mr_rd_cfg *cfg;  /* parallel to conf */
	int ncfg;
	struct mr_rd_run *run;  /* in runs.tsv order */
	int nrun;
	struct mr_rd_ck *ck;
	int nck;
	struct mr_hash cfgh;    /* conf[] by canonical string */
	struct mr_hash runh;    /* run[] by (config, repeat) */
	char **ckname;          /* the checkpoint names of ck[], each once
	                           (owned): 10^6 rows, a few names */
	int nckname;
	struct mr_hash cknh;    /* ckname[] by name */
};

struct mr_rd {
	char *dir;             /* as given (owned) */
	char **envk, **envv;   /* env.tsv, in file order (owned) */
	int nenv;
	const char *platform;  /* into envv */
	struct mr_rd_case *k;  /* cases in order of appearance in runs.tsv */
	int nk;
	struct mr_hash kh;     /* k[] by name */
	long repeat;           /* env.tsv's repeat: no run has a higher one;
	                          0 when not recorded */
};

struct mr_tsv;

/* Field col of the current row of a results file, a figure (the column
 * named by its metric; with dash_ok, "-" is not measured: NAN), into
 * *out: 0, or -1 after printing path:line:col.  No figure is negative; a
 * size (_kb) is at most 2^54 KiB (the 64-bit address space), a time (_ms)
 * 10^11 ms (three years), tree_nproc 4194304 (the kernel's most pids),
 * any other count 10^15. */
int mr_rd_metric_num(const struct mr_tsv *t, int col, int dash_ok, double *out);

/* dir + "/" + name, without doubled slashes.  Fresh string. */
char *mr_rd_path(const char *dir, const char *name);

/* Read the results directory dir into R, in time linear in its rows.
 * Returns 0, or -1 after printing the one problem (a missing file:
 * "DIR/runs.tsv: no such file (is DIR a results directory?)"; a repeat
 * beyond env.tsv's repeat; "interrupted by SIGINT" when the runner's
 * interrupt flag (proc/self.h) was set while reading).  Free R with
 * mr_rd_free in either case. */
int mr_rd_load(struct mr_rd *R, const char *dir);

void mr_rd_free(struct mr_rd *R);

/* Set every run's session_share from R's ok runs (mr_rd_load does). */
void mr_rd_share(struct mr_rd *R);

/* Non-zero when R's other_cpu_ms leave out the session's other runs
 * (env.tsv's other_cpu board, proc/board.h); older results' overlapped
 * runs counted each other. */
int mr_rd_board(const struct mr_rd *R);

/* Index case i of R, config i of k, run i of k (its cfg and repeat set)
 * for the lookups below: read.c's, as it adds them. */
void mr_rd_index_case(struct mr_rd *R, int i);
void mr_rd_index_cfg(struct mr_rd_case *k, int i);
void mr_rd_index_run(struct mr_rd_case *k, int i);

/* The env.tsv value of key, or NULL. */
const char *mr_rd_env(const struct mr_rd *R, const char *key);

/* The N of the first guest (env.tsv's guest.N.*, docs/kernels.md) whose
 * config has kernel=kernel; 0: none (guestenv.c). */
int mr_rd_guest(const struct mr_rd *R, const char *kernel);

/* env.tsv's guest.N.key, or NULL. */
const char *mr_rd_guest_env(const struct mr_rd *R, int n, const char *key);

/* A guest's platform: its baseline is expected/<platform>/, its rows
 * keyed by their config without the guest's pairs (mr_rd_plat_config). */
struct mr_rd_plat {
	int n;                /* guest.N */
	const char *frag;     /* its pairs, "kernel=6.12,kernel.thp=always" (into R) */
	const char *platform; /* its platform key (guest.N.platform), NULL:
	                         not recorded (results of an older memrepro) */
};

/* The guests of R's env.tsv into a fresh *out (free it); how many. */
int mr_rd_guest_plats(const struct mr_rd *R, struct mr_rd_plat **out);

/* The baseline key of config c on the platform of the guest of frag (NULL:
 * the host's): c without its kernel and kernel.* pairs, fresh; NULL when
 * c is not of that platform (another guest's, or a guest's for the
 * host). */
char *mr_rd_plat_config(const struct mr_config *c, const char *frag);

/* The case called name, or NULL. */
struct mr_rd_case *mr_rd_case(const struct mr_rd *R, const char *name);

/* Index of the config whose canonical string is str, or -1. */
int mr_rd_cfg(const struct mr_rd_case *k, const char *str);

/* The index in k->run of config cfg's run of that repeat, or -1. */
int mr_rd_run_of(const struct mr_rd_case *k, int cfg, long repeat);

/* The cases to look at, as indices into R->k, into a fresh *sel: those of
 * names (NULL-terminated, duplicates once) or every case when names is
 * NULL or empty.  Returns how many, or -1 after printing
 * "DIR/runs.tsv: no runs of case NAME" (*sel is then NULL). */
int mr_rd_select(const struct mr_rd *R, const char *const *names, int **sel);

#endif
