/* jemalloc-thp-threads: 100 sleeping Ruby threads under transparent huge
 * pages: RSS 11-42 MB with glibc, 181-283 MB with jemalloc 3.6 and 4.5;
 * with THP never 11-17 MB for all.
 *
 * Source: jemalloc/jemalloc#1674 (GitHub, 2019-11-07), "jemalloc consuming
 * high RSS during Thread creation when THP was set as always": Ruby 2.5.1
 * and 2.6.3, `100.times { Thread.new { sleep 10 } }; sleep 1`, then `ps -o
 * rss` of the process (KB, printed as MB):
 *
 *   THP always:  glibc     11 MB (Ruby 2.5.1)   42 MB (2.6.3)
 *                jemalloc 3.6.0   181 MB        215 MB
 *                jemalloc 4.5.0   250 MB        283 MB
 *   THP never:   glibc     11 MB                15 MB
 *                jemalloc 3.6.0    12 MB        16 MB
 *                jemalloc 4.5.0    12 MB        17 MB
 *
 * and `MALLOC_CONF=thp:never` refused by 3.6/4.5 ("Invalid conf value:
 * thp:never": the option came with 5.1).  Beside it jemalloc/jemalloc#1127
 * (2018-02-03), the same behaviour without figures of its own beyond one
 * ratio: an application with "~1000" threads on jemalloc 5.0 whose "RSS is
 * 50% higher than what jemalloc itself reports (based on
 * malloc_stats_print's `mapped` stat)", gone with THP off; it led to
 * opt.thp (jemalloc/jemalloc#1134, in 5.1.0: always / never / default).
 * #1674 is the case modelled: it has a program, two THP settings and the
 * allocators side by side; #1127 is one more measurement of it (its ratio
 * is on the case's summary line, see below).
 *
 * In one sentence: every Ruby thread mallocs a 1 MiB VM stack and touches
 * its first and last page; jemalloc carves these from large, 2 MiB-aligned
 * mappings, so under THP always each touch faults in a whole 2 MiB huge
 * page and the sleeping threads' VM stacks become resident, while glibc
 * mmaps each one alone (never eligible) and nothing changes with THP never.
 *
 * Mechanism.  A Ruby 2.x thread (vm.c th_init, thread.c thread_create_core)
 * mallocs its VM stack (RUBY_VM_THREAD_VM_STACK_SIZE, 128 Ki words = 1 MiB)
 * and pushes the first control frame at its top and the first values at
 * its bottom: two pages touched of 256.  jemalloc 3/4 serve a 1 MiB request
 * as a "large" run inside a chunk (4 MiB in 3.x, 2 MiB in 4.x; chunks are
 * naturally aligned, src/chunk_mmap.c); jemalloc 5 as a large extent
 * carved from the arena's retained address space, which it grows in
 * aligned steps (src/extent.c extent_grow_retained; pages_map in
 * src/pages.c aligns to the request).  With THP always the kernel backs
 * the first touch of any 2 MiB-aligned range of an eligible anonymous
 * mapping with a huge page: the VM stacks sit back to back in such ranges,
 * so two touches per stack make all of them resident.  glibc's malloc
 * serves 1 MiB above its mmap threshold with an mmap of its own, 1 MiB + 4
 * KiB, between the threads' stacks and their guard pages: no 2 MiB-aligned
 * range fits, nothing becomes huge.  THP never (or jemalloc's opt.thp=never
 * since 5.1, which madvises its mappings MADV_NOHUGEPAGE in
 * pages_set_thp_state) leaves 4 KiB pages: two a stack.  jemalloc's own
 * metadata (base.c: a base per arena, mapped in blocks) and each thread's
 * tcache add a few huge pages more per arena under THP always: with
 * thp=never on a THP-always machine they stayed huge until 5.3.0
 * (jemalloc/jemalloc#1704, base_map did not apply opt.thp).
 * #1127's "RSS above mapped": jemalloc's `mapped` counts the extents it has
 * handed out and its metadata, not the retained address space around them;
 * a huge page that covers both makes resident what `mapped` does not count.
 * On a THP-always machine the threads' own stacks (glibc's, outside
 * jemalloc) can also become huge pages where their mappings hold an
 * aligned 2 MiB range (8 MiB default stacks do; Ruby's 1 MiB ones do not).
 *
 * What is modelled: Ruby 2.5/2.6's threads as lib/mr_thread.c models them
 * (after 2.1/2.2, the same steps for memory: a calloc'd thread struct, a
 * malloc'd 1 MiB VM stack touched at both ends, a 16 KiB sigaltstack,
 * pthread_create with a 1 MiB machine stack; the new thread's
 * pthread_getattr_np, its first malloc, which gives it jemalloc's tcache
 * and arena; then it sleeps), `threads` of them, then `sleep 1`
 * (settle_ms), then the checkpoint the report's `ps -o rss` stands for.
 * THP: this machine's setting is what it is (madvise here); thp=always has
 * each allocator madvise its own memory MADV_HUGEPAGE (MALLOC_CONF
 * thp:always,metadata_thp:always, glibc.malloc.hugetlb=1,
 * MIMALLOC_LARGE_OS_PAGES=1; lib/mr_thread.h), which is what THP always
 * does to that memory; thp=default on a madvise or never machine is the
 * report's THP never for the allocators' memory.  The claims' axis
 * jemalloc.thp=never is the option the reporter could not use.
 * The summary line gives the process's AnonHugePages and, under jemalloc
 * (found with dlsym), its stats.mapped, stats.resident and stats.retained
 * after an epoch refresh, and the RSS over `mapped` (#1127's figure: with
 * vm_stack_kb=0, 100 threads and thp=always 1.52 here, 0.28 without huge
 * pages; tests/jemalloc-thp-threads.bats).
 *
 * Left out: the interpreter (its ~10 MB of RSS at start, in the report's
 * figures and not in ours: the report printed no figure before the
 * threads), its GC and heap pages, the GVL and the timer thread; Ruby 2.6's
 * larger glibc figure under THP always (42 MB vs 11 with 2.5.1) would be
 * the interpreter's own heap in huge pages, which the report does not show
 * and the model does not have.  The threads are joinable and joined after
 * the measurement (Ruby's are detached and die with the process), so that
 * nothing is left at exit.  jemalloc 3.6 and 4.5 are not available here
 * (5.2.1, 5.3.0, 5.3.1 are): the claims say what 5.x does.
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_proc.h"
#include "mr_thread.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "threads", "100", "4", "int:1..20000", NULL,
	  "sleeping threads created (report: 100.times { Thread.new { sleep 10 } })" },
	{ "stack_kb", "1024", NULL, "int:0..65536", NULL,
	  "machine stack per thread in KiB (Ruby: 1 MiB); 0: libc default (RLIMIT_STACK)" },
	{ "vm_stack_kb", "1024", NULL, "int:0..65536", NULL,
	  "VM stack malloc'd per thread in KiB (RUBY_VM_THREAD_VM_STACK_SIZE, 1 MiB on 64-bit); 0: none" },
	{ "settle_ms", "1000", "0", "int:0..60000", NULL,
	  "wait after the last thread sleeps, before the checkpoint (report: sleep 1)" },
	{ "thp", "default", NULL, "default|always", "default|always",
	  "transparent huge pages for the allocator's memory: as the machine is, or madvised by the allocator (THP always)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first thread" },
	{ "created", "every thread created and asleep, then sleep 1 (the report's ps -o rss)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "jemalloc-thp-threads",
	.title = "100 sleeping threads under THP always: 11-42 MB with glibc, 181-283 MB with jemalloc",
	.source = "jemalloc/jemalloc#1674 (2019, Ruby 2.5.1/2.6.3, 100 threads): ps rss with "
		  "THP always glibc 11/42 MB, jemalloc 3.6.0 181/215 MB, 4.5.0 250/283 MB; "
		  "THP never 11/15, 12/16, 12/17 MB; jemalloc/jemalloc#1127 (2018, jemalloc 5, "
		  "~1000 threads): RSS 50% above jemalloc's mapped",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "hugepages",
};

/* The "Key:   N kB" figure of a /proc/self file, or -1. */
static long self_kb(const char *file, const char *key)
{
	char buf[4096];
	const char *p;
	size_t klen = strlen(key);

	if (mr_proc_read(file, buf, sizeof buf) < 0)
		return -1;
	for (p = buf; (p = strstr(p, key)) != NULL; p += klen)
		if (p == buf || p[-1] == '\n')
			return strtol(p + klen, NULL, 10);
	return -1;
}

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);

/* A size_t statistic of jemalloc's, in KiB, or -1. */
static long je_stat_kb(mallctl_fn ctl, const char *name)
{
	size_t v, len = sizeof v;

	if (ctl(name, &v, &len, NULL, 0) != 0)
		return -1;
	return (long)(v / 1024);
}

/* jemalloc's own view (#1127 compared RSS with `mapped`): appended to line,
 * or nothing when the process does not run on jemalloc. */
static void je_stats(char *line, size_t size, long rss_kb)
{
	mallctl_fn ctl = (mallctl_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mallctl");
	uint64_t epoch = 1;
	size_t elen = sizeof epoch;
	unsigned narenas = 0;
	size_t nlen = sizeof narenas;
	long mapped, resident, retained;
	size_t used = strlen(line);

	if (!ctl || ctl("epoch", &epoch, &elen, &epoch, sizeof epoch) != 0)
		return;
	mapped = je_stat_kb(ctl, "stats.mapped");
	resident = je_stat_kb(ctl, "stats.resident");
	retained = je_stat_kb(ctl, "stats.retained");
	if (ctl("arenas.narenas", &narenas, &nlen, NULL, 0) != 0)
		narenas = 0;
	if (mapped <= 0 || used >= size)
		return;
	snprintf(line + used, size - used,
		 "; jemalloc: %u arenas, mapped %ld KiB, resident %ld KiB, retained %ld KiB, "
		 "RSS / mapped %.2f",
		 narenas, mapped, resident, retained, (double)rss_kb / (double)mapped);
}

int main(int argc, char **argv)
{
	struct mr_thread_set ts;
	size_t n, stack, vm;
	struct timespec settle;
	long rss_kb, huge_kb;
	char line[768];
	int len;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	/* thp=always appends thp:always to MALLOC_CONF, and jemalloc takes
	 * the last of a key: with jemalloc.thp=never before it, the run
	 * would be thp=always's under another name. */
	if (mr_param_is("thp", "always") && getenv("MALLOC_CONF") &&
	    strstr(getenv("MALLOC_CONF"), "thp:never"))
		mr_skip("thp=always overrides MALLOC_CONF's thp:never (jemalloc takes the last): the same run as thp=always");
	n = (size_t)mr_param_int("threads");
	stack = (size_t)mr_param_int("stack_kb") * 1024;
	vm = (size_t)mr_param_int("vm_stack_kb") * 1024;
	if (stack && stack < (size_t)PTHREAD_STACK_MIN)
		mr_usage("stack_kb=%lld is below PTHREAD_STACK_MIN (%d bytes)",
			 mr_param_int("stack_kb"), (int)PTHREAD_STACK_MIN);

	/* Joinable, unlike Ruby's (which sleep until the process exits): they
	 * are woken and joined after the measurement, so that nothing of them
	 * is left at exit. */
	mr_thread_prepare(&ts, n, stack, vm, 0);
	mr_checkpoint("start");

	/* number.times { |i| Thread.new { sleep 10 } }; sleep 1 */
	mr_thread_create_all(&ts);
	settle.tv_sec = mr_param_int("settle_ms") / 1000;
	settle.tv_nsec = mr_param_int("settle_ms") % 1000 * 1000000L;
	while (nanosleep(&settle, &settle) < 0 && errno == EINTR)
		;
	mr_checkpoint("created");

	rss_kb = self_kb("/proc/self/status", "VmRSS:");
	huge_kb = self_kb("/proc/self/smaps_rollup", "AnonHugePages:");
	len = snprintf(line, sizeof line,
		       "jemalloc-thp-threads: %zu threads, VM stack %zu KiB, thp %s: RSS %ld KiB, "
		       "AnonHugePages %ld KiB",
		       n, vm / 1024, mr_param("thp"), rss_kb, huge_kb);
	if (len > 0 && (size_t)len < sizeof line)
		je_stats(line, sizeof line, rss_kb);
	len = (int)strlen(line);
	if (len + 1 < (int)sizeof line) {
		line[len++] = '\n';
		(void)!write(1, line, (size_t)len);
	}
	mr_thread_stop_all(&ts);
	mr_thread_free_all(&ts);
	return MR_EXIT_OK;
}
