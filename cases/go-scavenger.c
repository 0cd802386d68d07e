/* go-scavenger: Go 1.12-1.15 returned its free heap with MADV_FREE, so RSS
 * did not fall until memory ran short; Go 1.16 went back to MADV_DONTNEED.
 *
 * Source: golang/go#42330, "runtime: default to MADV_DONTNEED on Linux"
 * (Austin Clements, 2020-11-02; Go 1.16), which undid golang/go#28466's
 * trade-off (2018-10-29: Go 1.12 "switched from MADV_DONTNEED to
 * MADV_FREE", with GODEBUG=madvdontneed=1 as the way back) and cites the
 * reports it caused.  Their figures (#42330 and #28466 have none of their
 * own):
 *   golang/go#37585 (2020-02-29, a comment measuring the program
 *   with ps, top and the sum of smaps' LazyFree): Go 1.11 "before alloc"
 *   ps rss 1544 (KB), LazyFree 0; "In 1.11, RSS declines significantly
 *   after FreeOSMemory"; "In 1.13 and 1.14, after 5 minutes RSS is still
 *   high while LazyFree has climbed to almost the same value as RSS
 *   (>300MB), and the subsequent FreeOSMemory does not seem to have
 *   material impact".
 *   golang/go#39779 (2020-06-23, Go 1.14.1, Linux 4.14): "RSS keeps ~740M"
 *   while MemStats says HeapIdle = 685.4375 MiB, HeapReleased = 685.2421875
 *   MiB, HeapInuse = 17 MiB, Sys = 734.56 MiB.
 *
 * In one sentence: the runtime had given nearly all of its idle heap back
 * (HeapReleased ~ HeapIdle), yet RSS stayed at its peak, because pages
 * given back with MADV_FREE stay mapped and counted until the kernel needs
 * memory; with MADV_DONTNEED they leave RSS at once.
 *
 * Mechanism.  The Go heap is never unmapped: free pages are returned by
 * sysUnused (runtime/mem_linux.go), madvise(MADV_FREE) when the kernel has
 * it (Go 1.12-1.15), else or with GODEBUG=madvdontneed=1 (the default from
 * 1.16) madvise(MADV_DONTNEED).  MADV_FREE only moves the pages to the
 * lazy-free list: RSS, top's RES, a container's usage all still count
 * them (smaps shows them as LazyFree), and the kernel drops them only
 * under memory pressure (a write before that takes them back without a
 * fault).  MADV_DONTNEED unmaps them: RSS falls, and the next use faults in
 * zeroed pages.  Who returns the pages (runtime/mgcscavenge.go): the
 * background scavenger, soft-capped at a share of the mutator's time
 * (scavengePercent), brings the heap's retained memory down to its goal,
 * 10 % (retainExtraPercent) over what the heap will need by the next GC;
 * debug.FreeOSMemory forces a GC and returns every free page.  Both go
 * through sysUnused, so with MADV_FREE neither changes RSS: the report's
 * FreeOSMemory "does not seem to have material impact".
 *
 * What is modelled (lib/mr_goheap.c: arenas of 64 MiB, 8 KiB pages, spans,
 * sysUnused with its MADV_NOHUGEPAGE on partial huge pages at the ends):
 *  - start: an empty heap ("before alloc");
 *  - a burst: alloc_mb MiB of objects of object_kb each, every one a span
 *    of its own (objects over 32 KiB are "large" in Go), written whole
 *    ("after alloc");
 *  - the GC finds them all dead and the sweep frees their spans: the pages
 *    are idle and still resident ("collected");
 *  - the background scavenger returns free pages, from the top of the
 *    heap down, until what the heap retains is within 10 % of what is in
 *    use: here everything, nothing stays live ("scavenged": the report's
 *    "after 5 minutes", by which time the paced scavenger was done);
 *  - debug.FreeOSMemory: a GC, then every free page returned ("freed");
 *  - with work_mb > 0: work_mb MiB written outside the Go heap (cgo, or a
 *    neighbour in the same container), the memory pressure under which
 *    the lazily freed pages are reclaimed when the runner's pressure axis
 *    puts the run in a memory cgroup ("worked").
 *  madvise=free is Go 1.12-1.15's default (madvdontneed=0), dontneed Go
 *  1.16 on, Go <= 1.11, or GODEBUG=madvdontneed=1.
 *
 * Huge pages.  The heap is mapped by the case, so the allocator axis
 * changes nothing here, and so does the machine's THP mode for the claims:
 * the freed ranges are whole aligned arenas, and the kernel lazily frees
 * (MADV_FREE) or zaps (MADV_DONTNEED) a huge page covered whole as it does
 * small pages.  thp=always (not an axis) madvises the arenas
 * MADV_HUGEPAGE, as a machine in THP always mode would have them, to
 * check that by hand.
 *
 * The reports' program on Go's own runtime is cases/go-scavenger.go
 * (runtime=go@1.15, go@1.19, go@1.24: each Debian release's toolchain
 * builds it): 1.15 keeps the freed heap in RSS as LazyFree, 1.19 and 1.24
 * return it (expected/go-scavenger.claims, the original's part).
 *
 * Left out: the pacing of the scavenger (the report waited
 * five minutes; here it runs to its goal at once, go-scavenger-delay.c is
 * about the time), the heap-growth scavenger, size classes and mcentral
 * (small objects share spans; freeing them frees pages the same way once
 * a span is empty), the rest of the runtime (stacks, metadata: the
 * report's 1544 KB before the allocation, #39779's 17 MiB in use).
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_goheap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "madvise", "free", NULL, "free|dontneed", "free|dontneed",
	  "how sysUnused returns pages: MADV_FREE (Go 1.12-1.15), MADV_DONTNEED (Go 1.16 on, GODEBUG=madvdontneed=1)" },
	/* quick: 48 MiB keeps every claim's ratio (they are ratios of the
	 * burst, which dwarfs the process's own 1-2 MiB) in a fifth of the
	 * time */
	{ "alloc_mb", "320", "48", "int:1..8192", NULL,
	  "MiB allocated in the burst and freed (report: RSS and LazyFree >300MB after 5 minutes)" },
	{ "object_kb", "64", NULL, "int:8..65536", NULL,
	  "size of each object in KiB, a span each (not in the report: any large object size)" },
	{ "work_mb", "0", NULL, "int:0..65536", NULL,
	  "MiB written outside the Go heap after FreeOSMemory, as memory pressure (report: 0)" },
	{ "thp", "default", NULL, "default|always", NULL,
	  "transparent huge pages for the heap: as the machine is, or madvised (THP always)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "an empty heap (the report's \"before alloc\")" },
	{ "allocated", "after the burst, every object written (\"after alloc\")" },
	{ "collected", "after the GC swept them: idle, not yet returned" },
	{ "scavenged", "after the background scavenger returned the idle heap (\"after 5 minutes\")" },
	{ "freed", "after debug.FreeOSMemory (\"after FreeOSMemory\")" },
	{ "worked", "after writing work_mb MiB outside the heap (only with work_mb > 0)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "go-scavenger",
	.title = "Go 1.12-1.15 scavenged with MADV_FREE: RSS stays until memory pressure",
	.source = "golang/go#42330 (Go 1.16 back to MADV_DONTNEED; cf. #28466, madvdontneed=1), "
		  "figures of #37585: Go 1.13/1.14 RSS still high after 5 minutes, LazyFree almost "
		  "the RSS (>300MB), FreeOSMemory no material impact, Go 1.11 RSS declines; "
		  "#39779: RSS ~740M with HeapReleased 685.24 of HeapIdle 685.44 MiB",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "purging",
};

/* The background scavenger's goal (mgcscavenge.go): retain at most
 * (100 + retainExtraPercent) % of what is in use, the heap goal's ratio to
 * the last one taken as 1 (the heap has stopped changing). */
#define RETAIN_EXTRA_PERCENT 10

static void scavenge_to_goal(struct mr_goheap *h)
{
	uint64_t goal = h->inuse_pages * (100 + RETAIN_EXTRA_PERCENT) / 100;
	uint64_t retained = h->inuse_pages + h->free_pages;

	if (retained > goal)
		(void)mr_goheap_scavenge(h, retained - goal, 0, 0);
}

static void say(const char *what, const struct mr_goheap *h)
{
	char line[320];
	int n = snprintf(line, sizeof line,
			 "go-scavenger: %s: HeapSys %llu MiB, HeapInuse %llu, HeapIdle %llu, "
			 "HeapReleased %llu (madvise calls %llu)\n", what,
			 (unsigned long long)(mr_goheap_sys(h) >> 20),
			 (unsigned long long)(h->inuse_pages * MR_GO_PAGE >> 20),
			 (unsigned long long)((h->free_pages + h->released_pages) * MR_GO_PAGE >> 20),
			 (unsigned long long)(h->released_pages * MR_GO_PAGE >> 20),
			 (unsigned long long)h->madvise_calls);

	if (n > 0)
		(void)!write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

int main(int argc, char **argv)
{
	struct mr_goheap heap;
	size_t obj_pages, nobj, i, roots_len;
	void **roots;
	int advice;

	mr_case_init(&desc, argc, argv);
	obj_pages = ((size_t)mr_param_int("object_kb") * 1024 + MR_GO_PAGE - 1) / MR_GO_PAGE;
	if (obj_pages > MR_GO_ARENA_PAGES)
		mr_usage("object_kb=%lld is larger than an arena (%zu KiB)",
			 mr_param_int("object_kb"), MR_GO_ARENA >> 10);
	nobj = ((size_t)mr_param_int("alloc_mb") << 20) / (obj_pages * MR_GO_PAGE);
	if (nobj == 0)
		mr_usage("alloc_mb=%lld holds no object of object_kb=%lld",
			 mr_param_int("alloc_mb"), mr_param_int("object_kb"));

	advice = mr_param_is("madvise", "free") ? MADV_FREE : MADV_DONTNEED;
	mr_goheap_init(&heap, advice);
	heap.thp_always = mr_param_is("thp", "always");
	/* The roots: the program's slice of objects, outside the heap. */
	roots_len = nobj * sizeof *roots;
	roots = mmap(NULL, roots_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (roots == MAP_FAILED)
		mr_fail("mmap of %zu roots:", nobj);
	mr_checkpoint("start");

	for (i = 0; i < nobj; i++) {
		roots[i] = mr_goheap_alloc(&heap, obj_pages);
		memset(roots[i], (int)(i % 251) + 1, obj_pages * MR_GO_PAGE);
	}
	mr_keep(roots[nobj - 1]);
	mr_checkpoint("allocated");
	say("allocated", &heap);

	/* runtime.GC(): nothing is reachable, the sweep frees every span. */
	for (i = 0; i < nobj; i++) {
		mr_goheap_free(&heap, roots[i], obj_pages, 0);
		roots[i] = NULL;
	}
	mr_checkpoint("collected");

	scavenge_to_goal(&heap);
	mr_checkpoint("scavenged");
	say("scavenged", &heap);

	/* debug.FreeOSMemory: a GC (nothing more to free), then scavenge all. */
	(void)mr_goheap_scavenge(&heap, 0, 0, 0);
	mr_checkpoint("freed");
	if (heap.fallbacks)
		say("MADV_FREE refused by this kernel: fell back to MADV_DONTNEED", &heap);

	if (mr_param_int("work_mb") > 0) {
		size_t len = (size_t)mr_param_int("work_mb") << 20;
		char *work = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (work == MAP_FAILED)
			mr_fail("mmap of %zu MiB of work:", len >> 20);
		memset(work, 0x5a, len);
		mr_keep(work);
		mr_checkpoint("worked");
		munmap(work, len);
	}
	munmap(roots, roots_len);
	return MR_EXIT_OK;
}
