/* go-thp-scavenge: Go's scavenger returns small pieces of each huge page of
 * a sparse heap; unless the runtime marks them MADV_NOHUGEPAGE, khugepaged
 * (max_ptes_none 511) collapses each 2 MiB back into a whole huge page and
 * the returned memory is resident again.
 *
 * Source: seeds/011_13fcd62e2e38dfee.txt (read 2026-12-06): golang/go#64332 (2023-11-22,
 * "runtime: excessive memory use between 1.21.0 -> 1.21.1 due to hugepages
 * and the linux/amd64 `max_ptes_none` default of 512"), golang/go#61718
 * (2023-08-02, MADV_HUGEPAGE stalls, 100+ ms of direct reclaim, bisected
 * to the 1.21 change that marked the heap MADV_HUGEPAGE), golang/go#64342
 * (2023-11-22, BiogoKrishna ~20 % slower from 1.20 to 1.21 once the
 * marks were rolled back) and golang/go#55328 (2022-09-21: the scavenger
 * returns 64 KiB at a time, so sysUnusedOS's MADV_NOHUGEPAGE heuristic
 * never fires).  Figures the threads give: huge pages "were only forced by
 * the runtime between Go 1.21.0 and Go 1.21.3 (inclusive). Go 1.21.4 no
 * longer adjusts huge page settings at all" (#64332); the reporter's go1.19
 * MemStats HeapInuse 842,268,672, HeapIdle 517,931,008, HeapReleased
 * 372,064,256 B, and an RSS of "just 3GB" beside Sys 8GB (#64332); 1.37
 * GiB under Go 1.20 "a result of ... the old MADV_HUGEPAGE/MADV_NOHUGEPAGE
 * behavior and the scavenger creating holes (which are then filled)"
 * (#61718).  The threads print no program and no RSS per version side by
 * side: the claims are the mechanism's, bounded by the heap's own size.
 *
 * Mechanism.  The scavenger (runtime/mgcscavenge.go) returns free pages
 * of the heap with MADV_DONTNEED (Go >= 1.16), a few 8 KiB pages at a time
 * between the objects that stay live.  Inside a huge page that splits the
 * PMD and frees the 4 KiB pages: RSS falls.  khugepaged scans the
 * mappings it may use (THP always; madvise with MADV_HUGEPAGE) and
 * collapses any 2 MiB range with at most max_ptes_none absent pages into a
 * new huge page, allocating the absent ones: with the default 511 a single
 * live 4 KiB page is enough, and the range is resident whole again.  Go
 * 1.21.0 marked dense heap chunks MADV_HUGEPAGE and the chunks it
 * scavenged MADV_NOHUGEPAGE, which khugepaged respects; Go 1.21.1 dropped
 * the marks (for MADV_COLLAPSE, itself gone in 1.21.4) because of
 * #61718's stalls, and the holes its scavenger makes are refilled: the
 * 1.21.0 -> 1.21.1 regression.  The thread's workaround is max_ptes_none
 * 0 (the Go GC guide says so too).
 *
 * What is modelled:
 *  - a heap of heap_mb MiB, 2 MiB aligned (as Go's 64 MiB arenas are), in
 *    8 KiB Go pages, every page written ("allocated"); go=1.21.0 marks it
 *    MADV_HUGEPAGE first, go=1.21.4 leaves it to the machine's THP mode;
 *  - a GC that leaves live_pct % of each 2 MiB's pages live, spread evenly
 *    (long-lived objects scattered through the heap, as the thread
 *    supposes of the reporter's service);
 *  - the scavenger returning every free run between live pages with
 *    MADV_DONTNEED, each 2 MiB first marked MADV_NOHUGEPAGE under
 *    go=1.21.0 ("scavenged");
 *  - khugepaged=collapse: khugepaged's pass over the heap at max_ptes_none
 *    511, done here deterministically by madvise(MADV_COLLAPSE) on each
 *    2 MiB (Linux >= 6.1; it ignores max_ptes_none as if 511, and refuses
 *    MADV_NOHUGEPAGE ranges as khugepaged does).  The real khugepaged
 *    scans every 10 s, 4096 pages a pass: minutes for a heap, which is
 *    why it stands in.  MADV_COLLAPSE also works under THP never, where
 *    khugepaged would not run: the case shows what a machine with THP
 *    always (or madvise with a MADV_HUGEPAGE heap) and max_ptes_none 511
 *    does.  khugepaged=off is no pass: max_ptes_none 0, THP never, or
 *    before khugepaged comes by ("collapsed").
 *
 * The model's heap on Go's own runtime is cases/go-thp-scavenge.go
 * (runtime=go@1.19, go@1.24): 1.19's returned ranges refuse the collapse
 * (MADV_NOHUGEPAGE), 1.24's are refilled (expected/go-thp-scavenge.claims).
 *
 * Left out: the page allocator, the GC's pacing and the scavenger's
 * (go-scavenger.c and go-scavenger-delay.c have them), 1.21's density
 * heuristic (here each 2 MiB is equally sparse), Go 1.21.1-1.21.3's own
 * MADV_COLLAPSE of dense chunks, the runtime's metadata, and the stalls of
 * #61718 (a matter of time under memory pressure, not of RSS).
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define HUGE ((size_t)2 << 20)
#define GO_PAGE ((size_t)8192)
#define PAGES_PER_HUGE (HUGE / GO_PAGE)

static const struct mr_param params[] = {
	{ "go", "1.21.4", NULL, "1.21.0|1.21.4", "1.21.0|1.21.4",
	  "the runtime's huge page marks: 1.21.0 (heap MADV_HUGEPAGE, scavenged chunks MADV_NOHUGEPAGE), 1.21.4 (none; 1.21.1-1.21.3 likewise for scavenged memory)" },
	{ "khugepaged", "collapse", NULL, "collapse|off", "collapse|off",
	  "collapse: khugepaged's pass at max_ptes_none 511, by MADV_COLLAPSE; off: none (max_ptes_none 0, THP never)" },
	/* quick: 32 MiB, 16 huge pages, keeps every claim's ratio */
	{ "heap_mb", "256", "32", "int:2..16384", NULL,
	  "MiB of heap, a multiple of 2 (report: HeapInuse 842 MB, HeapIdle 518 MB under go1.19)" },
	{ "live_pct", "10", NULL, "int:1..90", NULL,
	  "percent of each 2 MiB's 8 KiB pages left live by the GC, spread evenly (not in the report)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "the heap mapped, not yet touched" },
	{ "allocated", "every page of the heap written" },
	{ "scavenged", "the GC kept live_pct %, the scavenger returned the rest with MADV_DONTNEED" },
	{ "collapsed", "after khugepaged's pass (MADV_COLLAPSE of each 2 MiB), or none" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "go-thp-scavenge",
	.title = "Go 1.21.1+ scavenges inside huge pages that khugepaged (max_ptes_none 511) refills",
	.source = "seeds/011: golang/go#64332 (1.21.0 -> 1.21.1, max_ptes_none; huge pages forced "
		  "only in 1.21.0-1.21.3), #61718 (MADV_HUGEPAGE stalls 100+ ms; 1.37 GiB under 1.20, "
		  "scavenger holes then filled), #64342, #55328 (64 KiB scavenges)",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "hugepages",
};

/* Page i of a 2 MiB range stays live: live_pct of them, evenly spread. */
static int page_live(size_t i, long long pct)
{
	return (long long)(i * (size_t)pct % 100) < pct;
}

/* Exit skipped unless this kernel has MADV_COLLAPSE: probed on a range
 * of its own (EINVAL there means the advice is unknown). */
static void need_collapse(void)
{
	char *m = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p;

	if (m == MAP_FAILED)
		mr_fail("mmap of the MADV_COLLAPSE probe:");
	p = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	p[0] = 1;
	if (madvise(p, HUGE, MADV_COLLAPSE) != 0 && errno == EINVAL)
		mr_skip("madvise(MADV_COLLAPSE) refused (EINVAL): Linux < 6.1 or no THP; it stands in for khugepaged");
	munmap(m, 2 * HUGE);
}

/* The scavenger: every free run between live pages of [p, p + HUGE). */
static size_t scavenge_huge(char *p, long long pct, int mark)
{
	size_t i = 0, runs = 0;

	if (mark && madvise(p, HUGE, MADV_NOHUGEPAGE) != 0)
		mr_fail("madvise(MADV_NOHUGEPAGE):");
	while (i < PAGES_PER_HUGE) {
		size_t j = i;

		if (page_live(i, pct)) {
			i++;
			continue;
		}
		while (j < PAGES_PER_HUGE && !page_live(j, pct))
			j++;
		if (madvise(p + i * GO_PAGE, (j - i) * GO_PAGE, MADV_DONTNEED) != 0)
			mr_fail("madvise(MADV_DONTNEED):");
		runs++;
		i = j;
	}
	return runs;
}

/* khugepaged's pass over one 2 MiB: 1 when it is a huge page again.
 * EAGAIN (no free huge page at that moment: the kernel compacts and
 * retries as khugepaged would at its next scan) is tried again twice;
 * EINVAL is a range marked MADV_NOHUGEPAGE. */
static int collapse_huge(char *p)
{
	int tries;

	for (tries = 0; tries < 3; tries++) {
		if (madvise(p, HUGE, MADV_COLLAPSE) == 0)
			return 1;
		if (errno != EAGAIN)
			return 0;
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t len, nhuge, h, runs = 0, collapsed = 0;
	long long pct;
	int marks;
	char *map, *heap;
	char line[256];
	int n;

	mr_case_init(&desc, argc, argv);
	if (mr_param_int("heap_mb") % 2)
		mr_usage("heap_mb=%lld is not a multiple of 2 (whole huge pages)", mr_param_int("heap_mb"));
	len = (size_t)mr_param_int("heap_mb") << 20;
	nhuge = len / HUGE;
	pct = mr_param_int("live_pct");
	marks = mr_param_is("go", "1.21.0");
	if (mr_param_is("khugepaged", "collapse"))
		need_collapse();

	map = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		mr_fail("mmap of a %zu MiB heap:", len >> 20);
	heap = (char *)(((uintptr_t)map + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (marks && madvise(heap, len, MADV_HUGEPAGE) != 0)
		mr_fail("madvise(MADV_HUGEPAGE):");
	mr_checkpoint("start");

	memset(heap, 0x5a, len);
	mr_keep(heap);
	mr_checkpoint("allocated");

	for (h = 0; h < nhuge; h++)
		runs += scavenge_huge(heap + h * HUGE, pct, marks);
	mr_checkpoint("scavenged");

	if (mr_param_is("khugepaged", "collapse"))
		for (h = 0; h < nhuge; h++)
			collapsed += collapse_huge(heap + h * HUGE);
	mr_checkpoint("collapsed");

	n = snprintf(line, sizeof line,
		     "go-thp-scavenge: go=%s: %zu MiB heap, %lld %% live: %zu runs returned, "
		     "%zu of %zu huge pages collapsed back\n", mr_param("go"), len >> 20, pct,
		     runs, collapsed, nhuge);
	if (n > 0)
		(void)!write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	munmap(map, len + HUGE);
	return MR_EXIT_OK;
}
