/* schema: the names of the results files and of the checkpoint records,
 * each written once (docs/formats.md).
 *
 * Every metric, every column of runs.tsv, checkpoints.tsv and series.tsv,
 * every key of a checkpoint record and every outcome word is a row of one
 * table below.  The writers (results/write.c, proc/spawn.c) and the readers
 * (results/read.c, check/) take them from here, so they cannot drift
 * apart.  The tables are X-macros: each row X(ID, "name", ...) becomes an
 * enum constant here and a string of the arrays in schema.c.
 */
#ifndef MR_PROTO_SCHEMA_H
#define MR_PROTO_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "mr_schema.h"

/* --- metrics ------------------------------------------------------------ */

/* A figure that was not measured (no memory cgroup, say): "-" in the
 * results files. */
#define MR_NOT_MEASURED UINT64_MAX

/* The runtime axis (docs/originals.md): its key, and the value of the
 * model, "c" (a config of the model has no runtime pair, so its name,
 * baseline and claims are as without the axis). */
#define MR_KEY_RUNTIME "runtime"
#define MR_RUNTIME_MODEL "c"

/* The allocator that is the C library's own malloc: etc/allocators' entry
 * that preloads nothing (run/regparse.c holds the registry to it), the
 * reference the charts and the matrix put first. */
#define MR_ALLOC_GLIBC "glibc"

/* The run metrics: a run's figures, the columns of runs.tsv a claim may
 * name without @checkpoint, in column order.  X(ID, name) */
#define MR_RUN_METRIC_TABLE(X)                                             \
	X(WALL_MS, "wall_ms")           /* elapsed, pause_ms excluded */    \
	X(PAUSE_MS, "pause_ms")         /* stood still at checkpoints */    \
	X(USER_MS, "user_ms")           /* wait4's rusage */                \
	X(SYS_MS, "sys_ms")                                                 \
	X(MAXRSS_KB, "maxrss_kb")                                           \
	X(MINFLT, "minflt")                                                 \
	X(MAJFLT, "majflt")                                                 \
	X(PEAK_RSS_KB, "peak_rss_kb")   /* sampled */                       \
	X(PEAK_TREE_RSS_KB, "peak_tree_rss_kb")                             \
	X(CGROUP_PEAK_KB, "cgroup_peak_kb")

/* How a checkpoint record (case -> runner) carries a checkpoint metric. */
enum mr_rec {
	MR_REC_MUST,   /* every record carries it: what only the case knows
	                  cheaply (its clock, its rusage, statm) */
	MR_REC_RUNNER, /* a key the runner accepts and ignores: it reads the
	                  figure of the case itself while the case waits for
	                  its ack */
	MR_REC_NONE,   /* not a key of a record: the runner's own figure */
};

/* The checkpoint metrics: the columns of checkpoints.tsv a claim may name
 * with @checkpoint, in column order, each with its record key (lib's
 * mr_schema.h: the record's clock is t_us, the table's t_ms).  The metrics with a record
 * key come first.  X(ID, name, record key, enum mr_rec) */
#define MR_CKPT_METRIC_TABLE(X)                                             \
	X(T_MS, "t_ms", MR_RECKEY_T_US, MR_REC_MUST)                                   \
	X(RSS_KB, "rss_kb", MR_RECKEY_RSS_KB, MR_REC_MUST)                             \
	X(VSZ_KB, "vsz_kb", MR_RECKEY_VSZ_KB, MR_REC_MUST)                             \
	X(PSS_KB, "pss_kb", MR_RECKEY_PSS_KB, MR_REC_RUNNER)                           \
	X(PRIVATE_CLEAN_KB, "private_clean_kb", MR_RECKEY_PRIVATE_CLEAN_KB, MR_REC_RUNNER) \
	X(PRIVATE_DIRTY_KB, "private_dirty_kb", MR_RECKEY_PRIVATE_DIRTY_KB, MR_REC_RUNNER) \
	X(SHARED_DIRTY_KB, "shared_dirty_kb", MR_RECKEY_SHARED_DIRTY_KB, MR_REC_RUNNER) \
	X(ANON_KB, "anon_kb", MR_RECKEY_ANON_KB, MR_REC_RUNNER)                        \
	X(ANON_HUGE_KB, "anon_huge_kb", MR_RECKEY_ANON_HUGE_KB, MR_REC_RUNNER)         \
	X(LAZYFREE_KB, "lazyfree_kb", MR_RECKEY_LAZYFREE_KB, MR_REC_RUNNER)            \
	X(SWAP_KB, "swap_kb", MR_RECKEY_SWAP_KB, MR_REC_RUNNER)                        \
	X(HWM_KB, "hwm_kb", MR_RECKEY_HWM_KB, MR_REC_RUNNER)                           \
	X(MAPS, "maps", MR_RECKEY_MAPS, MR_REC_RUNNER) /* lines of maps */             \
	X(USER_MS, "user_ms", MR_RECKEY_USER_MS, MR_REC_MUST)                          \
	X(SYS_MS, "sys_ms", MR_RECKEY_SYS_MS, MR_REC_MUST)                             \
	X(MINFLT, "minflt", MR_RECKEY_MINFLT, MR_REC_MUST)                             \
	X(MAJFLT, "majflt", MR_RECKEY_MAJFLT, MR_REC_MUST)                             \
	X(TREE_RSS_KB, "tree_rss_kb", NULL, MR_REC_NONE)                               \
	X(TREE_PSS_KB, "tree_pss_kb", NULL, MR_REC_NONE)                               \
	X(TREE_PRIVATE_DIRTY_KB, "tree_private_dirty_kb", NULL, MR_REC_NONE)           \
	X(TREE_NPROC, "tree_nproc", NULL, MR_REC_NONE)                                 \
	X(CGROUP_KB, "cgroup_kb", NULL, MR_REC_NONE)

#define MR_X_ENUM_RM(id, name) MR_RM_##id,
enum mr_run_metric { MR_RUN_METRIC_TABLE(MR_X_ENUM_RM) MR_NRUN_METRICS };
#undef MR_X_ENUM_RM

#define MR_X_ENUM_CK(id, name, key, rec) MR_CK_##id,
enum mr_ckpt_metric { MR_CKPT_METRIC_TABLE(MR_X_ENUM_CK) MR_NCKPT_METRICS };
#undef MR_X_ENUM_CK

#define MR_X_NKEYS(id, name, key, rec) + ((rec) != MR_REC_NONE)
#define MR_X_MUST(id, name, key, rec) | ((rec) == MR_REC_MUST ? 1ul << MR_CK_##id : 0ul)
enum {
	/* The checkpoint metrics with a record key: mr_ckpt_metrics[0..n-1]. */
	MR_NCKPT_KEYS = 0 MR_CKPT_METRIC_TABLE(MR_X_NKEYS),
};
/* The checkpoint metrics every record must carry, bit i for metric i. */
#define MR_CKPT_KEYS_MUST (0ul MR_CKPT_METRIC_TABLE(MR_X_MUST))

/* Names by enum mr_run_metric and enum mr_ckpt_metric. */
extern const char *const mr_run_metrics[MR_NRUN_METRICS];
extern const char *const mr_ckpt_metrics[MR_NCKPT_METRICS];
/* The record key of each checkpoint metric; NULL for MR_REC_NONE. */
extern const char *const mr_ckpt_keys[MR_NCKPT_METRICS];

/* Index of name in mr_run_metrics / mr_ckpt_metrics, or -1. */
int mr_run_metric(const char *name);
int mr_ckpt_metric(const char *name);

/* The unit of a metric, by its name's suffix: _kb a size in KiB, _ms a
 * time in milliseconds, anything else a count. */
enum mr_unit { MR_UNIT_COUNT, MR_UNIT_KB, MR_UNIT_MS };
enum mr_unit mr_metric_unit(const char *name);

/* Non-zero when metric (of mr_ckpt_metrics when ckpt, else of
 * mr_run_metrics) is a time (_ms): a figure that moves with the load of
 * the machine, unlike the memory ones. */
int mr_metric_is_time(int ckpt, int metric);

/* --- the columns of the results files ------------------------------------ */

/* runs.tsv: one row per run.  X(ID, name) */
#define MR_RUNS_COL_TABLE(X)                                               \
	X(CASE, "case")                                                     \
	X(CONFIG, "config")                                                 \
	X(REPEAT, "repeat")                                                 \
	X(OUTCOME, "outcome")                                               \
	X(DETAIL, "detail")                                                 \
	MR_RUN_METRIC_TABLE(X)                                              \
	X(SAMPLES, "samples")                                               \
	X(OVERLAP, "overlap")                                               \
	X(STOPPED_MS, "stopped_ms")                                         \
	X(WAITED, "waited")                                                 \
	X(OTHER_CPU_MS, "other_cpu_ms") /* the rest of the machine's CPU */ \
	X(MACHINE, "machine")         /* a setting changed (proc/machine.h) */ \
	X(ACCEL, "accel")             /* host, or a guest's tcg or kvm */   \
	X(LOG, "log")

/* checkpoints.tsv: one row per checkpoint record of a run; the metric
 * columns are MR_CKPT_METRIC_TABLE's.  X(ID, name) */
#define MR_CKPTS_LEAD_TABLE(X)                                             \
	X(CASE, "case")                                                     \
	X(CONFIG, "config")                                                 \
	X(REPEAT, "repeat")                                                 \
	X(CHECKPOINT, "checkpoint")                                         \
	X(SEQ, "seq")

/* series.tsv: one row per sample of a run.  X(ID, name) */
#define MR_SERIES_COL_TABLE(X)                                             \
	X(CASE, "case")                                                     \
	X(CONFIG, "config")                                                 \
	X(REPEAT, "repeat")                                                 \
	X(T_MS, "t_ms")               /* since the fork */                  \
	X(RSS_KB, "rss_kb")           /* of the case process */             \
	X(VSZ_KB, "vsz_kb")                                                 \
	X(TREE_RSS_KB, "tree_rss_kb") /* the case and its descendants */    \
	X(TREE_NPROC, "tree_nproc")                                         \
	X(CGROUP_KB, "cgroup_kb")

#define MR_X_ENUM_RUNS(id, name) MR_RUNS_##id,
enum mr_runs_col { MR_RUNS_COL_TABLE(MR_X_ENUM_RUNS) MR_RUNS_NCOLS };
#undef MR_X_ENUM_RUNS

#define MR_X_ENUM_CKPTS(id, name) MR_CKPTS_##id,
#define MR_X_ENUM_CKPTS_M(id, name, key, rec) MR_CKPTS_##id,
enum mr_ckpts_col {
	MR_CKPTS_LEAD_TABLE(MR_X_ENUM_CKPTS)
	MR_CKPT_METRIC_TABLE(MR_X_ENUM_CKPTS_M)
	MR_CKPTS_NCOLS
};
#undef MR_X_ENUM_CKPTS
#undef MR_X_ENUM_CKPTS_M

#define MR_X_ENUM_SERIES(id, name) MR_SERIES_##id,
enum mr_series_col { MR_SERIES_COL_TABLE(MR_X_ENUM_SERIES) MR_SERIES_NCOLS };
#undef MR_X_ENUM_SERIES

/* The column of run metric m in runs.tsv, of checkpoint metric m in
 * checkpoints.tsv. */
#define MR_RUNS_METRIC_COL(m) ((int)MR_RUNS_WALL_MS + (int)(m))
#define MR_CKPTS_METRIC_COL(m) ((int)MR_CKPTS_T_MS + (int)(m))

/* Column names by enum mr_runs_col, mr_ckpts_col, mr_series_col. */
extern const char *const mr_runs_cols[MR_RUNS_NCOLS];
extern const char *const mr_ckpts_cols[MR_CKPTS_NCOLS];
extern const char *const mr_series_cols[MR_SERIES_NCOLS];

/* --- env.tsv -------------------------------------------------------------- */

/* The keys of the environment's fingerprint (run/envfp.c writes them;
 * the report, corpus, trend, merge and resume read them). */
#define MR_ENVK_PLATFORM "platform"
#define MR_ENVK_KERNEL "kernel"
#define MR_ENVK_LIBC "libc"
#define MR_ENVK_ARCH "arch"
#define MR_ENVK_CPUS "cpus"
#define MR_ENVK_CPU_MODEL "cpu_model"
#define MR_ENVK_MEM_TOTAL_KB "mem_total_kb"
#define MR_ENVK_MACHINE_ROOT "machine_root"
#define MR_ENVK_MEMREPRO_VERSION "memrepro_version"
#define MR_ENVK_COMMIT "commit"
#define MR_ENVK_PROFILE "profile"
#define MR_ENVK_REPEAT "repeat"
#define MR_ENVK_INTERVAL_MS "interval_ms"
#define MR_ENVK_TIMEOUT_S "timeout_s"
#define MR_ENVK_STARTED "started"
/* "board": runs.tsv's other_cpu_ms leaves out the session's other runs
 * (proc/board.h); absent in older results, whose overlapped runs count
 * each other */
#define MR_ENVK_OTHER_CPU "other_cpu"
#define MR_OTHER_CPU_BOARD "board"
/* The machine's THP settings (proc/machine.h's table has every setting;
 * these two are read by name: the platform, the claims' thp, the
 * report) */
#define MR_ENVK_THP "thp"
#define MR_ENVK_THP_DEFRAG "thp_defrag"

/* The session's own (session/session.c writes them; resume, merge and
 * the report read them) */
#define MR_ENVK_OPTIONS "options"     /* the command line, as --resume replays it */
#define MR_ENVK_CASES "cases"
#define MR_ENVK_CASES_DIR "cases_dir"
#define MR_ENVK_JOBS "jobs"
#define MR_ENVK_ASLR "aslr"
#define MR_ENVK_MEM_CAP_MIB "mem_cap_mib"
#define MR_ENVK_MEMORY_CGROUP "memory_cgroup"
#define MR_ENVK_MEMORY_CGROUP_ "memory_cgroup." /* .parent, or .why */
#define MR_ENVK_KILL_CGROUP_ "kill_cgroup."     /* .parent */
#define MR_ENVK_RESUMED_ "resumed."             /* resumed.N: each --resume */

/* The runner's limits (matrix/envfp.c) */
#define MR_ENVK_RLIMIT_AS "rlimit.as"
#define MR_ENVK_RLIMIT_STACK "rlimit.stack"
#define MR_ENVK_RLIMIT_NOFILE "rlimit.nofile"
#define MR_ENVK_RLIMIT_NPROC "rlimit.nproc"
#define MR_ENVK_RLIMIT_MEMLOCK "rlimit.memlock"

/* A shard's (session/plan.c; results/merge.c checks and drops them) */
#define MR_ENVK_SHARD "shard"
#define MR_ENVK_SHARD_PLAN "shard.plan"
#define MR_ENVK_SHARD_PAIRS "shard.pairs"
#define MR_ENVK_SHARD_COST "shard.cost"

/* Per allocator spec, glibc version and runtime spec: printf formats of
 * the name (matrix/envfp.c and origtab.c write them; check, the report,
 * platforms and upgrade read them) */
#define MR_ENVK_ALLOC_VERSION "allocator.%s.version"
#define MR_ENVK_ALLOC_MISSING "allocator.%s.missing"
#define MR_ENVK_ALLOC_SONAME "allocator.%s.soname"
#define MR_ENVK_ALLOC_PATH "allocator.%s.path"
#define MR_ENVK_ALLOC_PACKAGE "allocator.%s.package"
#define MR_ENVK_ALLOC_RELEASE "allocator.%s.release"
#define MR_ENVK_ALLOC_SHA256 "allocator.%s.sha256"
#define MR_ENVK_ALLOC_GLIBC_NEED "allocator.%s.glibc_need"
#define MR_ENVK_LIBC_MISSING "libc.%s.missing"
#define MR_ENVK_LIBC_PACKAGE "libc.%s.package"
#define MR_ENVK_LIBC_RELEASE "libc.%s.release"
#define MR_ENVK_LIBC_VERSION "libc.%s.version"
#define MR_ENVK_LIBC_LOADER "libc.%s.loader"
#define MR_ENVK_LIBC_SHA256 "libc.%s.sha256"
#define MR_ENVK_RUNTIME "runtime.%s.%s" /* spec, then version, where, sha256 */
#define MR_ENVK_RUNTIME_VERSION "runtime.%s.version"

/* A kernel guest's: "guest.N." and one of MR_GUESTK_* (guest/guestrun.c
 * writes them, results/guestenv.c reads them) */
#define MR_ENVK_GUEST "guest.%d.%s"
#define MR_GUESTK_CONFIG "config"
#define MR_GUESTK_KERNEL "kernel"
#define MR_GUESTK_PACKAGE "package"
#define MR_GUESTK_RELEASE "release"
#define MR_GUESTK_VMLINUX_SHA256 "vmlinux_sha256"
#define MR_GUESTK_DEB_SHA256 "deb_sha256"
#define MR_GUESTK_ACCEL "accel"
#define MR_GUESTK_ACCEL_WHY "accel_why"
#define MR_GUESTK_MEM_WHY "mem_why"
#define MR_GUESTK_MEM_MIB "mem_mib"
#define MR_GUESTK_CPUS "cpus"
#define MR_GUESTK_UNAME "uname"
#define MR_GUESTK_THP "thp"
#define MR_GUESTK_THP_DEFRAG "thp_defrag"
#define MR_GUESTK_PLATFORM "platform"
#define MR_GUESTK_WALL_S "wall_s"
#define MR_GUESTK_END "end"

/* Set (to 1) in a kernel guest's runner by its run.sh (guest/guestrun.c):
 * the host's cache read-only (release/source.c), the guest's memory
 * watched under each run (proc/machine.c). */
#define MR_GUEST_ENV "MEMREPRO_GUEST"

/* --- the files of a results directory ----------------------------------- */

/* docs/formats.md: written by results/write.c, read by results/read.c. */
#define MR_FILE_ENV "env.tsv"                 /* key value: the environment */
#define MR_FILE_RUNS "runs.tsv"               /* MR_RUNS_COL_TABLE */
#define MR_FILE_CKPTS "checkpoints.tsv"       /* MR_CKPTS_LEAD_TABLE, metrics */
#define MR_FILE_SERIES "series.tsv"           /* MR_SERIES_COL_TABLE */

/* --- outcomes ------------------------------------------------------------ */

/* The outcome of a run, runs.tsv's outcome column.  X(ID, word) */
#define MR_OUTCOME_TABLE(X)                                                \
	X(OK, "ok")                   /* exit 0 */                          \
	X(FAILED, "failed")           /* exit status of no other outcome */ \
	X(CRASHED, "crashed")         /* killed by a signal */              \
	X(TIMEOUT, "timeout")         /* killed at the deadline */          \
	X(EXEC_FAILED, "exec-failed") /* execve failed, or exit 127 */      \
	X(SKIPPED, "skipped")         /* exit MR_EXIT_SKIP, or never run */ \
	X(BAD_OUTPUT, "bad-output")   /* a bad checkpoint record */         \
	X(MEMORY_CAP, "memory-cap")   /* over its memory limit */           \
	X(USAGE_ERROR, "usage-error") /* exit MR_EXIT_USAGE */

#define MR_X_ENUM_OUTCOME(id, word) MR_OUTCOME_##id,
enum mr_outcome { MR_OUTCOME_TABLE(MR_X_ENUM_OUTCOME) MR_NOUTCOMES };
#undef MR_X_ENUM_OUTCOME

/* Words by enum mr_outcome. */
extern const char *const mr_outcomes[MR_NOUTCOMES];

/* The outcome whose word is word, or -1. */
int mr_outcome(const char *word);

/* The words joined by ", ": "ok, failed, ...", for messages. */
const char *mr_outcome_list(void);

/* --- profiles ----------------------------------------------------------- */

/* The profiles (--profile, env.tsv's profile).  X(ID, word) */
#define MR_PROFILE_TABLE(X)                                                \
	X(QUICK, "quick")         /* small sizes: every case's quick values */ \
	X(FULL, "full")           /* the reports' own sizes */              \
	X(VERSIONS, "versions")   /* quick, under every release's versions */ \
	X(ORIGINALS, "originals") /* full, the reports' own programs too */ \
	X(KERNELS, "kernels")     /* quick, under other kernels (run/guest.h) */

#define MR_X_ENUM_PROFILE(id, word) MR_PROFILE_##id,
enum mr_profile { MR_PROFILE_TABLE(MR_X_ENUM_PROFILE) MR_NPROFILES };
#undef MR_X_ENUM_PROFILE

/* Words by enum mr_profile. */
extern const char *const mr_profiles[MR_NPROFILES];

/* The profile whose word is word, or -1. */
int mr_profile(const char *word);

/* The words joined by ", " and " or " ("quick, full, ... or kernels"),
 * for messages. */
const char *mr_profile_list(void);

/* The profile the options' flags say: versions, originals or kernels
 * when set (they imply quick or not quick), else quick or full. */
enum mr_profile mr_profile_of(int quick, int versions, int originals, int kernels);

#endif
