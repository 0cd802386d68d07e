/* mimalloc-threads: 10,000 threads that each allocate 1000 bytes: mimalloc
 * 2.x gives every thread a segment of its own: 32 MiB of address space and
 * 54 KiB more real memory than glibc's threads, apiece.
 *
 * Source: microsoft/mimalloc#1107, "too much mem cost when create a lot of
 * thread?" (2025-06-28, open, no reply).  On Windows 10 the reporter
 * creates 10,000 detached std::threads, each of which does mi_malloc(1000),
 * memsets the block, sleeps 30 s and frees it, while main waits in
 * getchar(); the same program with the CRT's malloc is the comparison.
 * The figures are two Task Manager screenshots ("malloc test", "mimalloc
 * test") that the stored thread does not carry as text: the words are
 * "create 10000 threads and each alloc 1000B, use too much memory".
 *
 * In one sentence: each thread's first allocation makes mimalloc 2.x
 * reserve a whole segment for that thread and write its header, so 10,000
 * threads holding 1000 bytes each cost gigabytes of VSZ and hundreds of
 * MiB of RSS, where glibc's threads share a few arenas; mimalloc 3 carves
 * every thread's pages from one shared arena instead.
 *
 * Mechanism (mimalloc sources, read, not copied).
 *  - v2.0.x (2.0.9 here, the host's): a thread's first malloc initialises
 *    its heap (mi_thread_data_t, a heap and its thread-local data, taken
 *    from the OS in src/init.c and cached for reuse) and asks its own
 *    segment list for a page: segments belong to one thread
 *    (src/segment.c, tld->segments), so the thread gets a fresh 32 MiB
 *    segment (mi_segment_os_alloc, 32 MiB-aligned).  As the thread's first
 *    segment it is not committed eagerly (mi_option_eager_commit_delay=1):
 *    /proc/PID/maps shows 1 MiB read-write and 31 MiB PROT_NONE per
 *    thread.  Initialising it writes the segment header (a slice entry
 *    per 64 KiB of the segment, tens of KiB), and the block goes in a
 *    64 KiB page of which the first OS page is touched.  Measured: +33.0
 *    MiB of VSZ and +64 KiB of RSS a thread (thread stack included),
 *    against +1.1 MiB and +10 KiB with glibc.  When a thread frees its
 *    block and exits, its empty segment goes to the segment cache
 *    (src/segment-cache.c, up to MI_CACHE_MAX = 1,024 segments), where it
 *    stays reserved, its memory decommitted after the purge delay: after
 *    the threads have gone, 1,024 x 32 MiB = 32 GiB of VSZ remain.
 *  - v3 (3.0.1, 3.6.0): a thread has a theap of its own, but its pages come
 *    from the arenas the whole process shares (src/arena.c), 64 KiB slices
 *    of one 1 GiB reservation: no address space per thread, 20 KiB of RSS
 *    a thread with 3.0.1.  3.6.0's allow_thp (default on) madvises the
 *    arena MADV_HUGEPAGE, and on a machine in THP madvise or always mode
 *    the threads' adjacent pages fault in as 2 MiB huge pages: 831,832 KiB
 *    of RSS for 10,000 threads here, and a 25.8 s run against 3.0.1's
 *    1.6 s (the huge pages' zeroing).
 *  - glibc: up to 8 x CPUs arenas (64 MiB heaps each) shared by all
 *    threads; jemalloc: 4 x CPUs arenas and a thread cache per thread;
 *    tcmalloc: a thread cache per thread, from one page heap.
 *  - On Windows (the report) mimalloc 2 reserves and commits segments the
 *    same way (VirtualAlloc MEM_RESERVE, then MEM_COMMIT as needed); Task
 *    Manager's memory column is the private working set, the counterpart
 *    of RSS here.
 *
 * What is modelled: the report's program in C, LD_PRELOAD choosing the
 * allocator: main creates `threads` threads with a stack of stack_kb (1
 * MiB, a Windows thread's default reservation; 0 leaves glibc's default,
 * RLIMIT_STACK, 8 MiB on most machines: 80 GiB of stacks at 10,000, each
 * large enough for a huge page at its top where THP is always), each of which
 * mallocs `bytes` bytes, memsets them to 0x11 and waits: its 30 s sleep,
 * here a wait for main's word so that the checkpoint sees every thread
 * alive whatever the machine's speed ("created": the report's
 * screenshots).  Then main wakes them, each frees its block and returns,
 * and main joins them ("exited": what is left after the 30 s, main in
 * getchar()).  Joined, not detached: joining makes the end certain.
 * thp=always (a parameter, not an axis of the matrix: see the claims)
 * re-executes the case with each allocator's own switch for huge pages
 * (lib/mr_thread.h), since this machine is in madvise mode.
 *
 * Left out: Windows itself (its heap as the comparison: glibc stands for
 * it; commit charge), the sleeps' timing (30 s here is a condition
 * variable), and getchar().
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_proc.h"
#include "mr_thread.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The longest any wait of the case may take: well inside the timeout. */
#define WAIT_S 100

static const struct mr_param params[] = {
	{ "threads", "10000", "250", "int:1..30000", NULL,
	  "threads created, each allocating and holding one block (report: 10 * 1000)" },
	{ "bytes", "1000", NULL, "int:1..1048576", NULL,
	  "bytes each thread mallocs and memsets (report: my_malloc(1000))" },
	{ "stack_kb", "1024", NULL, "int:0..65536", NULL,
	  "stack per thread in KiB (1 MiB: a Windows thread's default); 0: glibc's default (RLIMIT_STACK)" },
	/* Not an axis: jemalloc's thp=always runs take 0.2-1.2 s at quick
	 * size, and THP does not change mimalloc's figures (claims' comments) */
	{ "thp", "default", NULL, "default|always", NULL,
	  "transparent huge pages for the allocator's memory: as the machine is, or madvised by the allocator (THP=always)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first thread" },
	{ "created", "every thread has allocated and written its block and waits (the report's screenshots, during the 30 s sleep)" },
	{ "exited", "every thread has freed its block and exited, joined (after the 30 s)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "mimalloc-threads",
	.title = "10,000 threads each holding 1000 bytes: mimalloc 2 reserves a 32 MiB segment per thread",
	.source = "microsoft/mimalloc#1107 (2025-06-28, Windows 10): 10,000 threads each "
		  "mi_malloc(1000) + memset, sleep 30 s: \"use too much memory\" against malloc "
		  "(figures in screenshots only)",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "reservations",
};

/* What the threads share.  lock guards ready and go. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t ready_cond; /* signalled by each thread once its block is written */
	pthread_cond_t go_cond;    /* broadcast by main: time to free and go */
	size_t ready;              /* threads whose block is written */
	int go;                    /* set by main after "created" */
	size_t bytes;              /* each thread's block */
	struct timespec deadline;  /* on CLOCK_MONOTONIC, the two conditions'
	                              clock: no wait goes past it */
	char **blocks;             /* blocks[i]: thread i's block, NULL once freed */
} shared = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/* ptrs[i] = my_malloc(1000); memset(ptrs[i], 0x11, 1000); sleep; my_free. */
static void *thread_main(void *arg)
{
	size_t i = (size_t)(uintptr_t)arg;
	char *p = malloc(shared.bytes);
	int timed_out = 0;

	if (p) {
		memset(p, 0x11, shared.bytes);
		mr_keep(p);
	}
	pthread_mutex_lock(&shared.lock);
	shared.blocks[i] = p;
	shared.ready++;
	pthread_cond_signal(&shared.ready_cond);
	while (!shared.go && !timed_out)
		timed_out = pthread_cond_timedwait(&shared.go_cond, &shared.lock,
						   &shared.deadline) == ETIMEDOUT;
	shared.blocks[i] = NULL;
	pthread_mutex_unlock(&shared.lock);
	free(p);
	return NULL;
}

int main(int argc, char **argv)
{
	struct mr_statm st[3];
	pthread_attr_t attr;
	pthread_condattr_t cattr;
	pthread_t *ids;
	size_t n, i, stack, missing = 0;
	char line[512];
	int err, len;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	n = (size_t)mr_param_int("threads");
	shared.bytes = (size_t)mr_param_int("bytes");
	stack = (size_t)mr_param_int("stack_kb") * 1024;
	if (stack && stack < (size_t)PTHREAD_STACK_MIN)
		mr_usage("stack_kb=%lld is below PTHREAD_STACK_MIN (%d bytes)",
			 mr_param_int("stack_kb"), (int)PTHREAD_STACK_MIN);

	/* The tables first, so that "start" has them and the threads only
	 * add their own. */
	ids = calloc(n, sizeof *ids);
	shared.blocks = calloc(n, sizeof *shared.blocks);
	if (!ids || !shared.blocks)
		mr_fail("calloc of the tables for %zu threads failed", n);
	if ((err = pthread_attr_init(&attr)) ||
	    (stack && (err = pthread_attr_setstacksize(&attr, stack))))
		mr_fail("pthread attributes: %s", strerror(err));
	if ((err = pthread_condattr_init(&cattr)) ||
	    (err = pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC)) ||
	    (err = pthread_cond_init(&shared.ready_cond, &cattr)) ||
	    (err = pthread_cond_init(&shared.go_cond, &cattr)))
		mr_fail("condition variables on CLOCK_MONOTONIC: %s", strerror(err));
	pthread_condattr_destroy(&cattr);
	clock_gettime(CLOCK_MONOTONIC, &shared.deadline);
	shared.deadline.tv_sec += WAIT_S;

	if (mr_proc_statm(0, &st[0]) < 0)
		mr_fail("reading /proc/self/statm");
	mr_checkpoint("start");

	for (i = 0; i < n; i++) {
		err = pthread_create(&ids[i], &attr, thread_main, (void *)(uintptr_t)i);
		if (err == EAGAIN)
			mr_skip("pthread_create: thread %zu of %zu: %s (a limit of this machine: ulimit -u or -v, kernel.threads-max, vm.max_map_count)",
				i + 1, n, strerror(err));
		if (err)
			mr_fail("pthread_create: thread %zu of %zu: %s", i + 1, n, strerror(err));
	}
	pthread_mutex_lock(&shared.lock);
	while (shared.ready < n)
		if (pthread_cond_timedwait(&shared.ready_cond, &shared.lock,
					   &shared.deadline) == ETIMEDOUT)
			break;
	if (shared.ready < n) {
		pthread_mutex_unlock(&shared.lock);
		mr_fail("only %zu of %zu threads had written their block after %d s", shared.ready, n, WAIT_S);
	}
	for (i = 0; i < n; i++)
		missing += !shared.blocks[i];
	pthread_mutex_unlock(&shared.lock);
	if (missing)
		mr_fail("malloc(%zu) failed in %zu of %zu threads", shared.bytes, missing, n);
	if (mr_proc_statm(0, &st[1]) < 0)
		mr_fail("reading /proc/self/statm");
	mr_checkpoint("created");

	/* The 30 s are over: every thread frees its block and returns. */
	pthread_mutex_lock(&shared.lock);
	shared.go = 1;
	pthread_cond_broadcast(&shared.go_cond);
	pthread_mutex_unlock(&shared.lock);
	for (i = 0; i < n; i++)
		if ((err = pthread_join(ids[i], NULL)))
			mr_fail("pthread_join: thread %zu: %s", i + 1, strerror(err));
	if (mr_proc_statm(0, &st[2]) < 0)
		mr_fail("reading /proc/self/statm");
	mr_checkpoint("exited");

	len = snprintf(line, sizeof line,
		       "mimalloc-threads: %zu threads x %zu bytes, stack %zu KiB%s, thp %s: "
		       "VSZ %llu -> %llu -> %llu KiB, RSS %llu -> %llu -> %llu KiB (start, created, exited)\n",
		       n, shared.bytes, stack / 1024, stack ? "" : " (libc default)", mr_param("thp"),
		       (unsigned long long)st[0].vsz_kb, (unsigned long long)st[1].vsz_kb,
		       (unsigned long long)st[2].vsz_kb, (unsigned long long)st[0].rss_kb,
		       (unsigned long long)st[1].rss_kb, (unsigned long long)st[2].rss_kb);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	pthread_attr_destroy(&attr);
	free(shared.blocks);
	free(ids);
	return MR_EXIT_OK;
}
