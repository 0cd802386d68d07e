/* thread-stacks-thp: Java threads with 2 MiB stacks (-Xss2m) started in
 * a burst under THP always: their stacks, adjacent and not yet guarded,
 * are one mapping that the kernel backs with huge pages, and when each
 * thread places its guard pages the huge pages split into small pages
 * that all stay resident: megabytes a thread where madvise or never
 * keep the few pages it touched.
 *
 * Sources (the text relied on is seeds/009_549fde075eb26fb3.txt):
 *  - openjdk/jdk#14919, "JDK-8312182: THPs cause huge RSS due to thread
 *    start timing issue" (tstuefe, 2023-07-18): "If Transparent Huge
 *    Pages are unconditionally enabled ... Java applications that use
 *    many threads may see a huge Resident Set Size"; its smaps: three new
 *    stacks "as one VMA", Size 6156 kB, AnonHugePages 6144 kB, then after
 *    the guards one thread's stack "Size: 2036 kB ... Rss: 2036 kB" ("all
 *    pages resident").  The fix lets glibc place a guard page of its own
 *    between stacks ("a VMA with different permission bits to separate
 *    two ajacent thread stacks").
 *  - openjdk/jdk11u-dev#2205 (tstuefe, 2023-10-23): "10000 threads with
 *    -Xss2m. If the machine has THP set to "madvise" or "never", this
 *    would cost 300-600MB RSS. With THP set to "always," it costs 2-3GB
 *    RSS, possibly a lot more since the problem depends on timing."
 *  - openjdk/jdk11u-dev#3223 (tstuefe, 2026-06-05): "Newer kernels have
 *    toned down khugepaged's aggressiveness ... the problem is
 *    non-existent in newer kernels (>=6). It still very much exists in
 *    RHEL 7 and 8"; tabata-d there (2026-06-08), RHEL 9.6, kernel 5.14.0,
 *    glibc 2.34, max_ptes_none 511, JDK 11.0.31 `-Xss2m`: "VmRSS:
 *    13053880 kB, Threads: 10020".
 *
 * Mechanism.  The JVM asks glibc for a stack of -Xss with no glibc guard
 * (it places its own, 16 KiB here, from the thread once it runs).
 * glibc mmaps each stack; the kernel places new anonymous mappings below
 * the last, and mappings with the same flags merge into one VMA.  Until
 * the threads place their guards, N stacks are one VMA of N x 2 MiB: a
 * fault on a thread's first page (glibc's thread descriptor at the top,
 * the thread's first frames), or khugepaged's scan in the window, finds
 * a whole PMD-aligned 2 MiB inside it and maps a huge page.  The guards
 * (mprotect PROT_NONE) split the VMA and the huge page into 512 small
 * pages, all present.  With a glibc guard page (the fix) the stacks are
 * separate VMAs of exactly 2 MiB, not 2 MiB-aligned (one page off), with
 * no aligned 2 MiB inside them.
 *
 * What Linux changed: since 6.7, commit c4608d1bf7c6 "mm: mmap: map
 * MAP_STACK to VM_NOHUGEPAGE" (glibc mmaps thread stacks with MAP_STACK)
 * keeps every glibc thread stack in small pages whatever the THP mode;
 * 6.8 aligned anonymous mappings of 2 MiB and more to 2 MiB
 * (efa7df3e3bb5, "mm: align larger anonymous mappings on THP
 * boundaries"), restricted to lengths that are multiples of it by
 * d4148aeab412 (6.12): a 2 MiB stack without a glibc guard is such a
 * length (on 6.18 here each stack starts on a 2 MiB boundary), and
 * would be one huge page on its first touch but for VM_NOHUGEPAGE.
 * khugepaged's max_ptes_none (511 by default) lets it collapse a range
 * with a single page present, as the report describes.  The claims on
 * THP always are made for kernels before 6.7 (qemu guests: `--axis
 * kernel=5.10,6.1 --axis kernel.thp=always`).
 *
 * What is modelled: `threads` threads created in a burst with stack_kb
 * stacks (pthread_attr_setstacksize; glibc guard 0, or a page with
 * mitigation=glibc-guard), each touching touch_kb of its stack (not in
 * the report: the report's madvise figure, 30-60 KB a thread, is the
 * whole JVM's per-thread cost); every thread waits until all are created
 * (checkpoint `created`), the window lasts settle_ms (khugepaged's
 * chance; 0 leaves only the fault path), then each mprotects the low
 * guard_kb of its stack PROT_NONE (`started`) and idles.
 *
 * Measured: see expected/thread-stacks-thp.claims.
 *
 * Left out: the JVM (its heap, metaspace, per-thread malloc), the
 * JDK-8303215 stack size of 2040K, khugepaged's own timing (scan_sleep,
 * pages_to_scan: the window is given, not raced).
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <alloca.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "threads", "1000", "200", "int:1..20000", NULL,
	  "threads started in a burst (report: 10,000; scaled down 10x)" },
	{ "stack_kb", "2048", NULL, "int:64..65536", NULL,
	  "each thread's stack (-Xss2m)" },
	{ "touch_kb", "16", NULL, "int:0..1024", NULL,
	  "KiB of its stack each thread writes (not in the report)" },
	{ "guard_kb", "16", NULL, "int:4..1024", NULL,
	  "the JVM's guard zone, mprotected by the thread at its start (#14919's smaps: 16 kB)" },
	{ "settle_ms", "0", NULL, "int:0..600000", NULL,
	  "the window between the burst and the guards (khugepaged's chance)" },
	{ "mitigation", "none", NULL, "none|glibc-guard", "none|glibc-guard",
	  "no glibc guard (the JVM's before the fix), or a glibc guard page between stacks (JDK-8312182)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first thread" },
	{ "created", "every thread created and its stack touched, no JVM guard placed yet" },
	{ "started", "every thread has placed its guard pages, idle" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "thread-stacks-thp",
	.title = "Java thread stacks started in a burst become huge pages under THP always and stay resident",
	.source = "openjdk/jdk#14919 (JDK-8312182, 2023); openjdk/jdk11u-dev#2205 (2023): "
		  "10000 threads at -Xss2m, 300-600MB RSS under madvise/never, 2-3GB under always; "
		  "jdk11u-dev#3223 (2026): gone on kernels >= 6",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "hugepages",
};

static pthread_barrier_t created, guarded, finish;
static size_t touch_b, guard_b;

static void must_wait(pthread_barrier_t *b)
{
	int rc = pthread_barrier_wait(b);

	if (rc != 0 && rc != PTHREAD_BARRIER_SERIAL_THREAD)
		abort();
}

/* A thread's stack's low end (above glibc's guard, if any), page
 * aligned.  Asked by the main thread: pthread_getattr_np mallocs, and a
 * thread's first malloc would make it an arena of its own. */
static uintptr_t stack_low(pthread_t t, long pg)
{
	pthread_attr_t a;
	void *addr;
	size_t size;

	if (pthread_getattr_np(t, &a) || pthread_attr_getstack(&a, &addr, &size))
		mr_fail("pthread_getattr_np failed");
	pthread_attr_destroy(&a);
	return ((uintptr_t)addr + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
}

static void *java_thread(void *arg)
{
	char *frames = touch_b ? alloca(touch_b) : NULL;
	const uintptr_t *low = arg;

	if (frames) {
		memset(frames, 0x4a, touch_b);
		mr_keep(frames);
	}
	must_wait(&created);
	/* The JVM's guard zone at the low end (os::create_stack_guard_pages),
	 * placed by the thread itself once it runs. */
	must_wait(&created);
	if (mprotect((void *)*low, guard_b, PROT_NONE))
		abort();
	must_wait(&guarded);
	must_wait(&finish);
	return NULL;
}

static void barrier_init(pthread_barrier_t *b, unsigned n)
{
	int rc = pthread_barrier_init(b, NULL, n);

	if (rc) {
		errno = rc;
		mr_fail("pthread_barrier_init:");
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* AnonHugePages of the process now, KiB (the summary line's). */
static long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char l[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(l, sizeof l, f))
		if (sscanf(l, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t *tids;
	uintptr_t *lows;
	size_t n, i;
	long pg = sysconf(_SC_PAGESIZE), huge_created, huge_started;
	int rc;

	mr_case_init(&desc, argc, argv);
	n = (size_t)mr_param_int("threads");
	touch_b = (size_t)mr_param_int("touch_kb") * 1024;
	guard_b = (size_t)mr_param_int("guard_kb") * 1024;
	if (touch_b + guard_b + 64 * 1024 > (size_t)mr_param_int("stack_kb") * 1024)
		mr_usage("touch_kb + guard_kb + 64 must fit in stack_kb");

	tids = calloc(n, sizeof *tids);
	lows = calloc(n, sizeof *lows);
	if (!tids || !lows)
		mr_fail("calloc:");
	barrier_init(&created, (unsigned)n + 1);
	barrier_init(&guarded, (unsigned)n + 1);
	barrier_init(&finish, (unsigned)n + 1);
	pthread_attr_init(&attr);
	if ((rc = pthread_attr_setstacksize(&attr, (size_t)mr_param_int("stack_kb") * 1024)) ||
	    (rc = pthread_attr_setguardsize(&attr, mr_param_is("mitigation", "glibc-guard") ? (size_t)pg : 0))) {
		errno = rc;
		mr_fail("pthread_attr_set:");
	}
	mr_checkpoint("start");

	for (i = 0; i < n; i++)
		if ((rc = pthread_create(&tids[i], &attr, java_thread, &lows[i]))) {
			errno = rc;
			mr_fail("pthread_create of thread %zu:", i + 1);
		}
	must_wait(&created);
	mr_checkpoint("created");
	huge_created = anon_huge_kb();
	for (i = 0; i < n; i++)
		lows[i] = stack_low(tids[i], pg);

	sleep_ms((long)mr_param_int("settle_ms"));
	must_wait(&created);
	must_wait(&guarded);
	mr_checkpoint("started");
	huge_started = anon_huge_kb();

	must_wait(&finish);
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	pthread_attr_destroy(&attr);
	free(tids);
	free(lows);
	printf("thread-stacks-thp: %zu threads x %lld KiB stacks, mitigation %s; "
	       "AnonHugePages %ld kB when created, %ld kB when started\n",
	       n, mr_param_int("stack_kb"), mr_param("mitigation"), huge_created, huge_started);
	return MR_EXIT_OK;
}
