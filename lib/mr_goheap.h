/* mr_goheap: a model of the Go runtime's page heap and of how it returns
 * free pages to the kernel, shared by the cases of golang/go's scavenger
 * reports (go-scavenger.c, go-scavenger-delay.c).
 *
 * What it stands for, after the Go runtime of 1.11-1.16 (runtime/malloc.go,
 * mheap.go, mpagealloc.go, mgcscavenge.go, mem_linux.go; read, not copied):
 *  - the heap is made of arenas of 64 MiB (heapArenaBytes on linux/amd64),
 *    each mapped read-write when the heap grows and aligned to its size,
 *    never unmapped;
 *  - memory is handed out in spans of whole 8 KiB pages (pageSize), taken
 *    first-fit from the lowest free address (the page allocator of 1.14);
 *    a span that reuses released pages is "sysUsed" (on Linux: whole huge
 *    pages inside it get MADV_HUGEPAGE back);
 *  - a span freed by the GC's sweep becomes free pages, still resident;
 *  - returning free pages ("scavenging", sysUnused) madvises them with
 *    the heap's advice, MADV_FREE (Go 1.12-1.15 on Linux >= 4.5) or
 *    MADV_DONTNEED (before 1.12, and from 1.16 or with
 *    GODEBUG=madvdontneed=1), after marking the huge pages at the ends of
 *    the range MADV_NOHUGEPAGE where they are not whole, so that
 *    khugepaged does not fault the released pages back in;
 *  - pages of an arena that were never handed out count as released, as
 *    Go counts newly mapped memory since 1.13 (golang/go#32012).
 * Which free pages are returned when is the cases' business (each Go
 * version's scavenger): mr_goheap_scavenge takes a budget and an age.
 *
 * Everything here runs while the case is measured: no stdio, no malloc.
 * The metadata of an arena is mmap'd beside it (5 bytes per page).
 * Errors end the case through mr_fail (an mmap or madvise that fails is
 * not a state the model can go on from).  Not thread-safe.
 */
#ifndef MR_GOHEAP_H
#define MR_GOHEAP_H

#include <stddef.h>
#include <stdint.h>

#define MR_GO_PAGE ((size_t)8192)                 /* runtime pageSize */
#define MR_GO_ARENA ((size_t)64 << 20)            /* heapArenaBytes */
#define MR_GO_ARENA_PAGES (MR_GO_ARENA / MR_GO_PAGE)
#define MR_GO_MAX_ARENAS 256                      /* 16 GiB of heap */

struct mr_goarena;

struct mr_goheap {
	struct mr_goarena *arenas[MR_GO_MAX_ARENAS]; /* in address order of creation */
	size_t narenas;
	int advice;            /* MADV_FREE or MADV_DONTNEED */
	size_t huge;           /* physHugePageSize: 0 when the kernel has no THP */
	int thp_always;        /* set by the caller: madvise new arenas MADV_HUGEPAGE,
	                          as THP always mode treats every mapping */
	uint64_t inuse_pages;  /* in spans (HeapInuse / 8 KiB) */
	uint64_t free_pages;   /* free and still resident (HeapIdle - HeapReleased) */
	uint64_t released_pages; /* free and returned, or never used (HeapReleased) */
	uint64_t madvise_calls;  /* sysUnused calls made */
	uint64_t fallbacks;      /* MADV_FREE refused (EINVAL): fell back to DONTNEED */
};

/* Set up an empty heap returning pages with advice (MADV_FREE or
 * MADV_DONTNEED).  Reads the huge page size as Go's osinit does
 * (/sys/kernel/mm/transparent_hugepage/hpage_pmd_size). */
void mr_goheap_init(struct mr_goheap *h, int advice);

/* A span of npages pages (>= 1), first-fit from the lowest address; a new
 * arena is mapped when none has room (npages must fit in one arena).
 * Never NULL. */
void *mr_goheap_alloc(struct mr_goheap *h, size_t npages);

/* The GC's sweep frees the span at p of npages pages at model time now
 * (seconds, kept per page: the age the old scavenger goes by). */
void mr_goheap_free(struct mr_goheap *h, void *p, size_t npages, uint32_t now);

/* Return free resident pages, from the highest address down, at most
 * max_pages of them (0: no limit), taking only runs of free pages none of
 * which was freed less than min_age seconds before now (0: any; a run is
 * as young as its youngest page, as a span coalesced in Go <= 1.12 took
 * the newest unusedsince).  Returns the pages returned. */
uint64_t mr_goheap_scavenge(struct mr_goheap *h, uint64_t max_pages, uint32_t now, uint32_t min_age);

/* HeapSys in bytes: all arenas mapped. */
uint64_t mr_goheap_sys(const struct mr_goheap *h);

#endif
