/* java-arenas: a JVM's hundred native threads each take a glibc arena of
 * their own, up to 8 per CPU, and each arena is a 64 MiB heap of VSZ;
 * MALLOC_ARENA_MAX=2 (or 4) takes gigabytes of VSZ off and little RSS.
 *
 * Sources (the text relied on is seeds/004_605864309165a247.txt):
 *  - canton-network/splice#316 (pull request, 2025-04-08), "Decrease memory
 *    footprint of JVM-based apps by setting MALLOC_ARENA_MAX": "the limit
 *    for number of arenas in glibc malloc is determined as 8 *
 *    num_of_cores (in our case it is the max arenas becomes 8 *16 = 128)";
 *    "Container limits are not respected"; "Each Arena allocates one heap
 *    of 64 MiB at the time of creation"; "JVM based software tends to
 *    create a lot of threads, at the same time it has it's own memory
 *    management so it doesn't call malloc frequently".
 *  - bigbluebutton/bigbluebutton#25309 (pull request, 2026-06-22), "Set
 *    MALLOC_ARENA_MAX=2 for bbb-web and bbb-apps-akka", the figures: bbb-web
 *    (a JVM) on 16 vCPU, "glibc default: 8 x 16 vCPU = 128 arenas", 90 s
 *    after each restart:
 *
 *                              RSS          VSZ          threads
 *      default (128 arenas)    863,916 kB   9,413,156 kB   104
 *      MALLOC_ARENA_MAX=2      800,216 kB   2,431,520 kB    99
 *      delta                   -63 MB (-7.5%)  -6,819 MB (-74%)
 *
 *  - SAP/SapMachine#2109 (2025-11-24): "Several of our users have reported
 *    issues with the default which is 8 * CPU count" (JDK-8193521); the fix
 *    adds -XX:GlibcMallocArenas, 1 by default; cloudfoundry/java-buildpack#320
 *    (2016) and #160 (2015), palantir/sls-packaging#284 (2018,
 *    MALLOC_ARENA_MAX=4: "a significant reduction in virtual memory usage")
 *    say the same without figures.
 *
 * In one sentence: every JVM thread that mallocs takes an arena of its own
 * while fewer than 8 x CPUs exist, glibc counting the machine's online CPUs
 * and not the container's share, and each arena maps a 64 MiB heap of which
 * it touches a few pages, so VSZ grows 64 MiB a thread up to the limit and
 * RSS hardly at all.
 *
 * Mechanism (glibc 2.36 malloc/arena.c, as thread-vsz.c describes it for
 * Ruby's threads; the arena counts the case prints bear it out).  A thread's first malloc calls
 * arena_get2: an arena from free_list (those of exited threads), else a
 * new one while narenas is below the limit (arena_max, else 8 x the online
 * CPUs, __get_nprocs: a cgroup's CPU quota is not seen, hence the splice
 * report's "Container limits are not respected"), else reused_arena, round
 * robin.  A new arena is created whatever the contention (the splice
 * report's "each time when malloc is called and all existing Arenas are
 * locked" is the reuse rule past the limit).  new_heap maps HEAP_MAX_SIZE
 * = 64 MiB PROT_NONE, aligned, and mprotects read-write only what is used:
 * 64 MiB of VSZ per arena, a few pages of RSS.  So a JVM's VSZ over the
 * default is about min(threads, 8 x CPUs) x 64 MiB: the report's 6,819 MB
 * is 101.6 heaps of 64 MiB, for ~100 of its 104 threads.
 *
 * What is modelled: `threads` native threads (the JVM's: compiler, GC,
 * application threads), created one after another with a stack_kb stack
 * (HotSpot's ThreadStackSize, 1 MiB on Linux x86_64), each making a few
 * native allocations of its own (thread_kb in 1 KiB pieces: thread-local
 * structures, its handle and resource areas' first chunks; not in the
 * report) and some transient work (transient_kb, 4 KiB pieces, freed),
 * then parking until the process exits, as a JVM's threads wait for work.
 * The limit is the tunable glibc.malloc.arena_max, which is what
 * MALLOC_ARENA_MAX sets (the claims' `axis` directive: 128, the report
 * machine's default; 4, sls-packaging's; 2, splice's and bbb's), so the
 * case sets nothing itself.  After the measurement the case counts glibc's
 * arenas (malloc_info's <heap nr=...> entries) and prints the count.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs; `build/memrepro run
 * java-arenas --profile quick`, medians of 3), VSZ / RSS at started:
 * arena_max=128 6,925,160 / 9,400 KiB (105 arenas), 4 306,456 / 4,292, 2
 * 175,792 / 4,188, the default (16 here) 1,092,524 / 4,980.  128 against
 * 2 is 6,749,368 KiB of VSZ, 103.0 heaps of 64 MiB (the report: 6,819 MB,
 * 101.6), and 5,212 KiB of RSS (the report: 63 MB).
 *
 * Left out: the JVM (its Java heap and code cache reservations: bbb-web's
 * 2.4 GB of VSZ with two arenas; the model's process starts at ~3 MB, so
 * compare the difference the limit makes, not totals), its metaspace and
 * class loading, JIT compilation (java-native-trim.c models a burst of it),
 * and the threads' later work.
 *
 * No musl build: it calls glibc's malloc_info, which musl's libc lacks.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "threads", "104", NULL, "int:1..4096", NULL,
	  "native threads, each mallocing and parked (report: bbb-web's 104 threads)" },
	{ "stack_kb", "1024", NULL, "int:64..65536", NULL,
	  "stack per thread in KiB (HotSpot's ThreadStackSize: 1 MiB on Linux x86_64)" },
	{ "thread_kb", "16", NULL, "int:0..65536", NULL,
	  "KiB a thread mallocs and keeps, in 1 KiB pieces (not in the report)" },
	{ "transient_kb", "64", NULL, "int:0..65536", NULL,
	  "KiB a thread mallocs and frees first, in 4 KiB pieces (not in the report)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first thread" },
	{ "started", "every thread created, its allocations made, parked (the report's 90 s after start)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "java-arenas",
	.title = "A JVM's native threads each take a glibc arena, 64 MiB of VSZ each, up to 8 x CPUs",
	.source = "canton-network/splice#316 (2025): 8 x 16 cores = 128 arenas, one 64 MiB heap each; "
		  "bigbluebutton/bigbluebutton#25309 (2026): bbb-web, 104 threads, 16 vCPU, "
		  "VSZ 9,413,156 kB -> 2,431,520 kB and RSS 863,916 -> 800,216 kB with MALLOC_ARENA_MAX=2; "
		  "SAP/SapMachine#2109, cloudfoundry/java-buildpack#320",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "arenas",
};

struct park {
	pthread_mutex_t lock;
	pthread_cond_t ready; /* a thread has made its allocations */
	pthread_cond_t go;    /* time to end */
	size_t started;
	int quit;
};

static size_t thread_kb, transient_kb;

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		mr_fail("malloc(%zu):", n);
	return p;
}

/* A JVM thread's start: its transient work, then what it keeps (a list of
 * 1 KiB pieces, freed when it ends). */
static void *thread_main(void *arg)
{
	struct park *pk = arg;
	void *transient[64];
	char *kept = NULL;
	size_t i, n;

	for (i = 0; i < transient_kb / 4; i += n) {
		size_t j;

		n = transient_kb / 4 - i < 64 ? transient_kb / 4 - i : 64;
		for (j = 0; j < n; j++) {
			transient[j] = xmalloc(4096);
			memset(transient[j], 0x11, 4096);
		}
		for (j = 0; j < n; j++)
			free(transient[j]);
	}
	for (i = 0; i < thread_kb; i++) {
		char *p = xmalloc(1024);

		memset(p, 0x22, 1024);
		*(char **)p = kept;
		kept = p;
	}
	pthread_mutex_lock(&pk->lock);
	pk->started++;
	pthread_cond_signal(&pk->ready);
	while (!pk->quit)
		pthread_cond_wait(&pk->go, &pk->lock);
	pthread_mutex_unlock(&pk->lock);
	while (kept) {
		char *next = *(char **)kept;

		mr_keep(kept);
		free(kept);
		kept = next;
	}
	return NULL;
}

/* glibc's arenas, counted from malloc_info's XML (one <heap nr=...> each);
 * -1 when it cannot be had.  Uses stdio and malloc: call after measuring. */
static long count_arenas(void)
{
	char *buf = NULL, *p;
	size_t len = 0;
	long n = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -1;
	if (malloc_info(0, f) != 0) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	for (p = buf; p && (p = strstr(p, "<heap nr=")); p++)
		n++;
	free(buf);
	return n;
}

int main(int argc, char **argv)
{
	struct park pk = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			   PTHREAD_COND_INITIALIZER, 0, 0 };
	pthread_attr_t attr;
	pthread_t *tids;
	size_t nthreads, i;
	long arenas;
	char line[256];
	int rc, len;

	mr_case_init(&desc, argc, argv);
	nthreads = (size_t)mr_param_int("threads");
	thread_kb = (size_t)mr_param_int("thread_kb");
	transient_kb = (size_t)mr_param_int("transient_kb");

	tids = calloc(nthreads, sizeof *tids);
	if (!tids)
		mr_fail("calloc:");
	if ((rc = pthread_attr_init(&attr)) ||
	    (rc = pthread_attr_setstacksize(&attr, (size_t)mr_param_int("stack_kb") * 1024))) {
		errno = rc;
		mr_fail("pthread_attr:");
	}
	mr_checkpoint("start");

	/* One after another, as a JVM starts its threads: each has made its
	 * first malloc (and so has its arena) before the next starts. */
	for (i = 0; i < nthreads; i++) {
		if ((rc = pthread_create(&tids[i], &attr, thread_main, &pk))) {
			errno = rc;
			if (rc == EAGAIN)
				mr_skip("pthread_create of thread %zu: EAGAIN (a limit of this machine)", i + 1);
			mr_fail("pthread_create of thread %zu:", i + 1);
		}
		pthread_mutex_lock(&pk.lock);
		while (pk.started < i + 1)
			pthread_cond_wait(&pk.ready, &pk.lock);
		pthread_mutex_unlock(&pk.lock);
	}
	mr_checkpoint("started");

	pthread_mutex_lock(&pk.lock);
	pk.quit = 1;
	pthread_cond_broadcast(&pk.go);
	pthread_mutex_unlock(&pk.lock);
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	pthread_attr_destroy(&attr);
	free(tids);

	arenas = count_arenas();
	len = snprintf(line, sizeof line,
		       "java-arenas: %zu threads, %zu KiB kept and %zu KiB transient each; "
		       "glibc arenas (malloc_info) %ld\n",
		       nthreads, thread_kb, transient_kb, arenas);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
