/* java-native-trim: a JVM's burst of native mallocs (JIT compiler arenas)
 * is freed, and glibc keeps it resident; the JVM's periodic trimmer
 * (-XX:TrimNativeHeapInterval) calls malloc_trim(0) and hands it back.
 *
 * Sources (the text relied on is seeds/005_59ab9d739a5f88ed.txt):
 *  - openjdk/jdk#14781, "JDK-8293114: JVM should trim the native heap"
 *    (pull request, tstuefe, 2023-07-06): "This RFE adds the option to trim
 *    the Glibc heap periodically.  This can recover a significant memory
 *    footprint if the VM process suffers from high-but-rare malloc spikes";
 *    "Temporary malloc spikes often carry over as permanent RSS increase";
 *    "Since it is freed memory, it won't appear in NMT; it is just a part
 *    of RSS".  A product switch since JDK-8325496 (openjdk/jdk#17799).
 *  - redhat-developer/vscode-java#3395, "Enable JVM Heap trimming by
 *    default" (2023-11-20; -XX:TrimNativeHeapInterval=5000 proposed), where
 *    tstuefe (2023-11-24) shows, for the Java language server before its
 *    first trim:
 *        C-Heap outstanding allocations: 46526K, retained: 2104565K
 *    ("outstanding" is what the process has allocated from the C heap,
 *    "retained" what it freed and glibc keeps: 45 times as much), and
 *    franz1981 there: "after >5 seconds, the JIT arenas can free some
 *    memory back to the OS".
 *  - openjdk/jdk#10085 (2022), zhengyu123's SPECjvm2008 table of the same
 *    two figures, e.g. Compiler 106,387K outstanding / 271,692K retained,
 *    Derby 55,389K / 186,954K; and openjdk/jdk#8553 (JDK-8286198): the
 *    retained figure comes from glibc's bookkeeping, which "does not
 *    follow glibc trims".
 *
 * In one sentence: compiler threads allocate their arenas' chunks in
 * their own glibc arenas, interleaved with the little that outlives the
 * compilation, so when the chunks are freed they are free chunks below
 * each arena's top that no free can trim, and they stay resident until
 * malloc_trim(0) madvises their pages away.
 *
 * Mechanism (glibc 2.36 malloc/malloc.c and arena.c, as arena-trim.c and
 * trim-refault.c describe them).  Each thread that mallocs
 * gets an arena of its own (up to 8 x CPUs).  free() returns memory to the
 * kernel only from an arena's top (systrim for the main arena, heap_trim
 * for the others) once the top reaches trim_threshold; a chunk freed
 * between two live ones coalesces with its free neighbours into a free
 * chunk that stays in the bins, its pages resident.  malloc_trim(0) walks
 * every arena and madvises MADV_DONTNEED the whole pages inside every free
 * chunk of a page or more: RSS falls, glibc's bookkeeping (mallinfo2's
 * fordblks, the JVM's "retained") does not.  The JVM's trimmer
 * (NativeHeapTrimmer; backported to 21 and 17: openjdk/jdk21u#13,
 * openjdk/jdk17u-dev#2244) is a thread that calls
 * malloc_trim every TrimNativeHeapInterval ms, suspended during some VM
 * operations.
 *
 * What is modelled: `compilers` compiler threads, each compiling a share
 * of spike_mb: its arena's chunks are 32 KiB mallocs (the size of a
 * compiler arena's chunk is not in the reports: 32 KiB is assumed),
 * written, and
 * after each a survivor of survivor_b bytes that stays (the compiled
 * method's metadata, a symbol: not in the report; 736 bytes make the
 * survivors 2.2 % of the burst, the report's 46,526K against 2,104,565K).
 * The burst is held (checkpoint `spike`), then every chunk is freed
 * (`freed`: the report's state "before the very first trim"); the
 * compiler threads then idle.  With trim=periodic a trimmer thread, started
 * with the VM and suspended during the burst as the JVM suspends it during
 * safepoints, calls malloc_trim(0) every interval_ms; the case waits until
 * it has trimmed once after the burst (checkpoint `idle`).  With
 * trim=none it waits two intervals.  The case prints glibc's outstanding
 * and retained figures at `freed` and `idle`, as the JVM's VM.info does
 * (mallinfo2: uordblks + hblkhd, and fordblks).
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs; `build/memrepro run
 * java-native-trim --profile full --axis allocator=glibc --repeat 1`), RSS
 * growth from start: spike +268,532 KiB, freed +268,532 (all kept), idle
 * +268,592 without a trimmer (its own run) and +39,156 (15 %) after its first trim;
 * glibc's figures at freed: outstanding 6,159K, retained 262,276K (43 x;
 * the report 45 x), the same after the trim.  Quick (2 threads, 16 MiB):
 * +16,868 -> +2,532 KiB.  jemalloc, tcmalloc and mimalloc keep the burst
 * through the quick profile's 200 ms of idle (expected/java-native-trim.claims).
 *
 * Left out: the JVM (its Java heap, metaspace and code cache are mmapped
 * by the JVM itself, not malloc'd: what the report's NMT shows), the
 * compilations themselves (a chunk is written, not used), the trimmer's
 * suspension by later safepoints, and the cost of a trim (time is not
 * claimed).  mallinfo2 is glibc's: under another allocator its figures are
 * those of glibc's unused heap.
 *
 * No musl build: it calls glibc's mallinfo2, malloc_trim, which musl's libc lacks.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "compilers", "4", "2", "int:1..256", NULL,
	  "JIT compiler threads, each with its own arena (not in the report)" },
	{ "spike_mb", "256", "16", "int:1..65536", NULL,
	  "MiB of compiler arena chunks malloc'd in the burst (report: 2,104,565K retained)" },
	{ "survivor_b", "736", NULL, "int:0..65536", NULL,
	  "bytes kept after each 32 KiB chunk (736: 2.2 %, the report's outstanding/retained)" },
	{ "interval_ms", "5000", "100", "int:1..600000", NULL,
	  "the trimmer's interval (-XX:TrimNativeHeapInterval; vscode-java#3395: 5000)" },
	{ "trim", "periodic", NULL, "none|periodic", "none|periodic",
	  "no trimmer, or malloc_trim(0) every interval_ms from a thread of its own (JDK-8293114)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "the compiler threads and the trimmer started, nothing compiled" },
	{ "spike", "every chunk of the burst malloc'd and held" },
	{ "freed", "every chunk freed, the survivors kept (before the first trim)" },
	{ "idle", "after the trimmer's first trim since the burst, or two intervals without one" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "java-native-trim",
	.title = "A JVM's freed native burst stays resident under glibc until its periodic trimmer runs",
	.source = "openjdk/jdk#14781 (JDK-8293114, 2023): trim the glibc heap periodically; "
		  "redhat-developer/vscode-java#3395 (2023): TrimNativeHeapInterval=5000, "
		  "C-Heap outstanding allocations: 46526K, retained: 2104565K",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "retention",
};

#define CHUNK_BYTES (32 * 1024)

/* The trimmer: a thread of its own, suspended while a count is held. */
struct trimmer {
	pthread_mutex_t lock;
	pthread_cond_t wake;    /* resumed, or time to end */
	pthread_cond_t trimmed; /* a trim was done */
	unsigned long trims;    /* trims done */
	int suspended;          /* suspend count */
	int quit;
	long interval_ms;
};

/* A compiler thread: its chunks (the burst) and its survivors. */
struct compiler {
	pthread_t tid;
	void **chunks;
	void **survivors;
	size_t n;
};

static pthread_barrier_t built, release, finish;
static size_t survivor_b;

static int wait_barrier(pthread_barrier_t *b)
{
	int rc = pthread_barrier_wait(b);

	return rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD ? 0 : rc;
}

static void deadline_in(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void *trimmer_main(void *arg)
{
	struct trimmer *t = arg;
	struct timespec next;

	pthread_mutex_lock(&t->lock);
	while (!t->quit) {
		deadline_in(&next, t->interval_ms);
		while (!t->quit &&
		       pthread_cond_timedwait(&t->wake, &t->lock, &next) != ETIMEDOUT)
			;
		if (t->quit)
			break;
		if (t->suspended)
			continue;
		pthread_mutex_unlock(&t->lock);
		malloc_trim(0);
		pthread_mutex_lock(&t->lock);
		t->trims++;
		pthread_cond_broadcast(&t->trimmed);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static void *compiler_main(void *arg)
{
	struct compiler *c = arg;
	size_t i;

	for (i = 0; i < c->n; i++) {
		c->chunks[i] = malloc(CHUNK_BYTES);
		c->survivors[i] = survivor_b ? malloc(survivor_b) : NULL;
		if (!c->chunks[i] || (survivor_b && !c->survivors[i]))
			abort();
		memset(c->chunks[i], 0x5c, CHUNK_BYTES);
		if (survivor_b)
			memset(c->survivors[i], 0x3a, survivor_b);
	}
	/* The compilations end: the main thread measures the spike, then
	 * releases them and each thread frees its own arena's chunks. */
	if (wait_barrier(&built) || wait_barrier(&release))
		abort();
	for (i = 0; i < c->n; i++) {
		free(c->chunks[i]);
		c->chunks[i] = NULL;
	}
	/* Idle from here on, as a compiler thread waiting for work. */
	if (wait_barrier(&built) || wait_barrier(&finish))
		abort();
	for (i = 0; i < c->n; i++)
		free(c->survivors[i]);
	return NULL;
}

/* glibc's figures, as VM.info prints them, in KiB. */
static void heap_figures(size_t *outstanding, size_t *retained)
{
	struct mallinfo2 mi = mallinfo2();

	*outstanding = (mi.uordblks + mi.hblkhd) / 1024;
	*retained = mi.fordblks / 1024;
}

static void barrier_init(pthread_barrier_t *b, unsigned n)
{
	int rc = pthread_barrier_init(b, NULL, n);

	if (rc) {
		errno = rc;
		mr_fail("pthread_barrier_init:");
	}
}

static void start_threads(struct compiler *cs, size_t nc, size_t per)
{
	size_t i;
	int rc;

	for (i = 0; i < nc; i++) {
		cs[i].n = per;
		cs[i].chunks = calloc(per ? per : 1, sizeof *cs[i].chunks);
		cs[i].survivors = calloc(per ? per : 1, sizeof *cs[i].survivors);
		if (!cs[i].chunks || !cs[i].survivors)
			mr_fail("calloc:");
	}
	for (i = 0; i < nc; i++)
		if ((rc = pthread_create(&cs[i].tid, NULL, compiler_main, &cs[i]))) {
			errno = rc;
			mr_fail("pthread_create of compiler thread %zu:", i + 1);
		}
}

/* Wait after the burst: for a trim (trim=periodic), else two intervals. */
static void wait_idle(struct trimmer *t, int periodic)
{
	struct timespec ts = { t->interval_ms * 2 / 1000, (t->interval_ms * 2 % 1000) * 1000000L };
	unsigned long before;

	if (!periodic) {
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		return;
	}
	pthread_mutex_lock(&t->lock);
	before = t->trims;
	t->suspended--;
	pthread_cond_broadcast(&t->wake);
	while (t->trims == before)
		pthread_cond_wait(&t->trimmed, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

int main(int argc, char **argv)
{
	struct trimmer t = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			     PTHREAD_COND_INITIALIZER, 0, 0, 0, 0 };
	struct compiler *cs;
	pthread_t trimmer_tid;
	size_t nc, per, i, out_freed, ret_freed, out_idle, ret_idle;
	int periodic, rc, len;
	char line[512];

	mr_case_init(&desc, argc, argv);
	nc = (size_t)mr_param_int("compilers");
	per = (size_t)mr_param_int("spike_mb") * 1024 * 1024 / CHUNK_BYTES / nc;
	survivor_b = (size_t)mr_param_int("survivor_b");
	t.interval_ms = (long)mr_param_int("interval_ms");
	periodic = mr_param_is("trim", "periodic");

	cs = calloc(nc, sizeof *cs);
	if (!cs)
		mr_fail("calloc:");
	barrier_init(&built, (unsigned)nc + 1);
	barrier_init(&release, (unsigned)nc + 1);
	barrier_init(&finish, (unsigned)nc + 1);
	/* The trimmer starts with the VM, suspended until the burst is over
	 * (the JVM suspends it during safepoints). */
	t.suspended = 1;
	if (periodic && (rc = pthread_create(&trimmer_tid, NULL, trimmer_main, &t))) {
		errno = rc;
		mr_fail("pthread_create of the trimmer:");
	}
	mr_checkpoint("start");

	start_threads(cs, nc, per);
	if (wait_barrier(&built))
		mr_fail("pthread_barrier_wait failed");
	mr_checkpoint("spike");

	if (wait_barrier(&release) || wait_barrier(&built))
		mr_fail("pthread_barrier_wait failed");
	mr_checkpoint("freed");
	heap_figures(&out_freed, &ret_freed);

	wait_idle(&t, periodic);
	mr_checkpoint("idle");
	heap_figures(&out_idle, &ret_idle);

	if (wait_barrier(&finish))
		mr_fail("pthread_barrier_wait failed");
	for (i = 0; i < nc; i++) {
		pthread_join(cs[i].tid, NULL);
		free(cs[i].chunks);
		free(cs[i].survivors);
	}
	if (periodic) {
		pthread_mutex_lock(&t.lock);
		t.quit = 1;
		pthread_cond_broadcast(&t.wake);
		pthread_mutex_unlock(&t.lock);
		pthread_join(trimmer_tid, NULL);
	}
	free(cs);
	pthread_barrier_destroy(&built);
	pthread_barrier_destroy(&release);
	pthread_barrier_destroy(&finish);

	len = snprintf(line, sizeof line,
		       "java-native-trim: %zu compiler threads x %zu chunks of 32 KiB + %zu bytes kept; trim %s "
		       "(%lu trims); glibc C-Heap outstanding allocations: %zuK, retained: %zuK when freed; "
		       "%zuK, %zuK when idle\n",
		       nc, per, survivor_b, mr_param("trim"), t.trims,
		       out_freed, ret_freed, out_idle, ret_idle);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
