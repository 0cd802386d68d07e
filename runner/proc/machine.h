/* machine: the machine's memory-relevant settings and its other CPU load,
 * read before and after every run.
 *
 * A run's figures mean what env.tsv says only if the machine stayed as
 * env.tsv says while it ran: another job switching THP from madvise to
 * always halfway through a session turns every later run's RSS into
 * another platform's.  So the session reads a snapshot once (its values
 * go into env.tsv), and every run reads one before it starts and one
 * after it ends: a run that saw other than env.tsv says, or during which
 * a setting changed, carries the change in runs.tsv's machine column and
 * is not judged (check/values.c).  A snapshot is a handful of small
 * reads of /sys and /proc (about 30 files, tens of microseconds).
 *
 * The CPU the rest of the machine used during a run (all CPUs' busy time
 * from /proc/stat, less the case's own rusage and the runner's) goes into
 * runs.tsv's other_cpu_ms: a run's times are not the case's when the
 * machine was busy (check/values.c says when).
 */
#ifndef MR_MACHINE_H
#define MR_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proto/schema.h"

/* The settings, as env.tsv keys: X(ID, key).  Each is read from a file of
 * /sys or /proc (machine.c says which); "-" when the kernel has none. */
#define MR_MACHINE_TABLE(X)                                                 \
	X(THP, MR_ENVK_THP)                   /* THP enabled */             \
	X(THP_DEFRAG, MR_ENVK_THP_DEFRAG)                                   \
	X(THP_SHMEM, "thp_shmem")                                           \
	X(THP_SIZES, "thp_sizes")             /* mTHP: sizes not "never" */ \
	X(THP_SHRINK, "thp_shrink_underused") /* 6.12's THP shrinker */     \
	X(THP_ZERO_PAGE, "thp_zero_page")                                   \
	X(KH_DEFRAG, "khugepaged_defrag")                                   \
	X(KH_PTES_NONE, "khugepaged_max_ptes_none")                         \
	X(KH_PTES_SWAP, "khugepaged_max_ptes_swap")                         \
	X(KH_PTES_SHARED, "khugepaged_max_ptes_shared")                     \
	X(KH_PAGES, "khugepaged_pages_to_scan")                             \
	X(KH_SCAN_MS, "khugepaged_scan_sleep_ms")                           \
	X(KH_ALLOC_MS, "khugepaged_alloc_sleep_ms")                         \
	X(OVERCOMMIT, "overcommit")                                         \
	X(OVERCOMMIT_RATIO, "overcommit_ratio")                             \
	X(MAX_MAP_COUNT, "max_map_count")     /* mappings per process */    \
	X(SWAPPINESS, "swappiness")                                         \
	X(SWAP_KB, "swap_kb")                 /* SwapTotal */               \
	X(ZSWAP, "zswap")                                                   \
	X(KSM, "ksm")                                                       \
	X(NUMA_BALANCING, "numa_balancing")                                 \
	X(CPUS_ONLINE, "cpus_online")                                       \
	X(CG_MEMORY_MAX, "cgroup_memory_max") /* the runner's cgroups: the  \
	                                         least over its ancestors */ \
	X(CG_MEMORY_HIGH, "cgroup_memory_high")                             \
	X(CG_SWAP_MAX, "cgroup_swap_max")                                   \
	X(CG_CPU_MAX, "cgroup_cpu_max")

#define MR_X_ENUM_MACHINE(id, key) MR_MACHINE_##id,
enum mr_machine_key { MR_MACHINE_TABLE(MR_X_ENUM_MACHINE) MR_MACHINE_NKEYS };
#undef MR_X_ENUM_MACHINE

/* The env.tsv key of each setting, by enum mr_machine_key. */
extern const char *const mr_machine_keys[MR_MACHINE_NKEYS];

/* The longest value kept; a longer one is cut (and compares as cut). */
#define MR_MACHINE_VAL 96

/* One reading of the settings. */
struct mr_machine {
	char val[MR_MACHINE_NKEYS][MR_MACHINE_VAL]; /* "-": none */
};

/* For the tests: a directory that stands for "/" when the settings are
 * read (its sys/kernel/mm/... and proc/sys/...), so that a test can change
 * "the machine" under a run without changing the machine.  Recorded in
 * env.tsv (machine_root) when set. */
#define MR_MACHINE_ROOT_ENV "MEMREPRO_MACHINE_ROOT"

/* Read the settings into m.  Never fails: what cannot be read is "-".
 * Called before and after a run, never inside the case. */
void mr_machine_read(struct mr_machine *m);

/* The settings that differ from a to b, as "thp madvise -> always, swap_kb
 * 0 -> 1048572" into out[0..size-1] ("" when none).  Returns how many
 * differ. */
int mr_machine_diff(const struct mr_machine *a, const struct mr_machine *b,
		    char *out, size_t size);

/* The CPU time in ms all CPUs spent busy since boot (/proc/stat), or
 * UINT64_MAX when it cannot be read. */
uint64_t mr_machine_cpu_ms(void);

/* The CPU time in ms this process and the children it reaped have used
 * (user + system). */
uint64_t mr_machine_self_ms(void);

/* A run whose load matters (its times are compared, or a figure that
 * counts an allocator's clock: check/baseline.h) and that ends sooner is
 * watched this long: /proc/stat counts in ticks of 10 ms per CPU, so over
 * a 35 ms run a CPU kept busy by another program and an idle one read
 * alike (bench/flaky.sh: the same check judged such runs busy or not at
 * random).  The results readers judge a run's load over max(its life,
 * this) (check/values.c). */
#define MR_MACHINE_WINDOW_MS 150

/* What a run watches: the readings before it starts. */
struct mr_machine_watch {
	struct mr_machine before;
	uint64_t cpu_ms, self_ms;
	uint64_t others_ms; /* what the session's other runs had used
	                       (proc/board.h) */
	uint64_t t0;        /* when the watch began, ns */
	int window;         /* watch at least MR_MACHINE_WINDOW_MS */
	uint64_t next_say;  /* when the run next says its CPU, ns */
	long hz;            /* clock ticks a second */
	long long stalls;   /* in a kernel guest (MR_GUEST_ENV): its direct
	                       reclaims so far (/proc/vmstat allocstall*),
	                       else -1 */
};

/* Take the readings before a run; window: its load matters (watched at
 * least MR_MACHINE_WINDOW_MS). */
void mr_machine_begin(struct mr_machine_watch *w, int window);

/* How often a run says its CPU on the session's board (proc/board.h): at
 * every sample (so every --interval, when that is longer).  What a run has not said yet counts as the machine's in
 * the runs beside it, up to this long of each of its CPUs: at 40 ms, 14
 * runs of one idle quick check read 69-443 ms of "other" CPU beside other
 * runs, enough to be judged busy (bench/flaky.sh, 2026-12-06). */
#define MR_MACHINE_SAY_MS 10

/* At a sample of the run (tree[1..n-1] its processes, proc/tree.h's
 * mr_tree_case; now in ns): at most every MR_MACHINE_SAY_MS, say on the
 * session's board the CPU the run has used so far. */
void mr_machine_tick(struct mr_machine_watch *w, const pid_t *tree, int n,
		     uint64_t now);

/* After the run (the case reaped): what changed into out[0..size-1] (""
 * when nothing), "KEY A -> B before the run" when the reading before it
 * was not expect's (NULL: not compared), else "KEY A -> B during the
 * run"; in a kernel guest whose kernel reclaimed memory directly while
 * the run ran, "allocstall A -> B (the guest's memory ran short) during
 * the run": a guest too small for the run, whose memory figures say so
 * and not what the kernel does (a THP fault falls back to small pages);
 * and the CPU the rest of the machine used while it ran into
 * *other_ms, this process's and its reaped children's (the case, the
 * run's orphans) taken off (UINT64_MAX when /proc/stat could not be
 * read), and the CPU the session's other runs said on its board
 * (proc/board.h).  When the watch asked for a window, it first waits
 * until MR_MACHINE_WINDOW_MS have passed since it began. */
void mr_machine_end(const struct mr_machine_watch *w,
		    const struct mr_machine *expect, char *out, size_t size,
		    uint64_t *other_ms);

#endif
