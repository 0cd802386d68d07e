/* mr_goheap: the Go runtime's page heap, see mr_goheap.h. */
#include "mr_goheap.h"

#include "mr_case.h"
#include "mr_proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { PG_UNUSED, PG_INUSE, PG_FREE, PG_RELEASED };

struct mr_goarena {
	char *base;                              /* MR_GO_ARENA aligned */
	uint8_t state[MR_GO_ARENA_PAGES];        /* PG_* per page */
	uint32_t freed_at[MR_GO_ARENA_PAGES];    /* model seconds, PG_FREE pages */
};

/* Where the next search for free pages starts: no free page lies below
 * (Go's pageAlloc.searchAddr). */
static size_t search_arena, search_page;

void mr_goheap_init(struct mr_goheap *h, int advice)
{
	char buf[64];

	memset(h, 0, sizeof *h);
	h->advice = advice;
	search_arena = search_page = 0;
	if (mr_proc_read("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", buf, sizeof buf) > 0) {
		unsigned long v = strtoul(buf, NULL, 10);

		/* a power of two, larger than a page, as Go checks */
		if (v > MR_GO_PAGE && (v & (v - 1)) == 0)
			h->huge = v;
	}
}

uint64_t mr_goheap_sys(const struct mr_goheap *h)
{
	return (uint64_t)h->narenas * MR_GO_ARENA;
}

static void arena_grow(struct mr_goheap *h)
{
	struct mr_goarena *a;
	char *want = NULL, *r, *base;
	size_t i, at;

	if (h->narenas == MR_GO_MAX_ARENAS)
		mr_fail("the heap model has no room for arena %d (%zu MiB)",
			MR_GO_MAX_ARENAS + 1, (size_t)MR_GO_MAX_ARENAS * (MR_GO_ARENA >> 20));
	a = mmap(NULL, sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		mr_fail("mmap of arena metadata:");
	/* Go asks for the address after its last arena (its arena hints);
	 * reserve twice the size to align it, then map the aligned part. */
	if (h->narenas)
		want = h->arenas[h->narenas - 1]->base + MR_GO_ARENA;
	r = mmap(want, 2 * MR_GO_ARENA, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		mr_fail("mmap of a %zu MiB arena reservation:", 2 * MR_GO_ARENA >> 20);
	base = (char *)(((uintptr_t)r + MR_GO_ARENA - 1) & ~(uintptr_t)(MR_GO_ARENA - 1));
	if (base > r)
		munmap(r, (size_t)(base - r));
	if (base + MR_GO_ARENA < r + 2 * MR_GO_ARENA)
		munmap(base + MR_GO_ARENA, (size_t)(r + 2 * MR_GO_ARENA - (base + MR_GO_ARENA)));
	/* sysMap */
	if (mmap(base, MR_GO_ARENA, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		mr_fail("mmap of arena %zu:", h->narenas + 1);
	if (h->thp_always && madvise(base, MR_GO_ARENA, MADV_HUGEPAGE) < 0)
		mr_fail("madvise(MADV_HUGEPAGE) of arena %zu:", h->narenas + 1);
	a->base = base;
	/* keep the arenas in address order */
	for (at = 0; at < h->narenas && h->arenas[at]->base < base; at++)
		;
	for (i = h->narenas; i > at; i--)
		h->arenas[i] = h->arenas[i - 1];
	h->arenas[at] = a;
	h->narenas++;
	h->released_pages += MR_GO_ARENA_PAGES;
	if (at <= search_arena) {
		search_arena = at;
		search_page = 0;
	}
}

/* sysUsed: released pages come back into a span.  Linux's sysHugePage:
 * whole huge pages inside get MADV_HUGEPAGE again. */
static void sys_used(const struct mr_goheap *h, char *p, size_t len)
{
	uintptr_t beg, end;

	if (!h->huge)
		return;
	beg = ((uintptr_t)p + h->huge - 1) & ~(uintptr_t)(h->huge - 1);
	end = ((uintptr_t)p + len) & ~(uintptr_t)(h->huge - 1);
	if (beg < end)
		(void)madvise((void *)beg, end - beg, MADV_HUGEPAGE);
}

/* sysUnused, as mem_linux.go of Go 1.12-1.16 does it. */
static void sys_unused(struct mr_goheap *h, char *p, size_t len)
{
	if (h->huge) {
		uintptr_t mask = ~(uintptr_t)(h->huge - 1), head = 0, tail = 0;

		if ((uintptr_t)p & ~mask)
			head = (uintptr_t)p & mask;
		if (((uintptr_t)p + len) & ~mask)
			tail = ((uintptr_t)p + len - 1) & mask;
		/* errors ignored, as Go does (EINVAL when already set) */
		if (head && head + h->huge == tail) {
			(void)madvise((void *)head, 2 * h->huge, MADV_NOHUGEPAGE);
		} else {
			if (head)
				(void)madvise((void *)head, h->huge, MADV_NOHUGEPAGE);
			if (tail && tail != head)
				(void)madvise((void *)tail, h->huge, MADV_NOHUGEPAGE);
		}
	}
	h->madvise_calls++;
	if (madvise(p, len, h->advice) == 0)
		return;
	if (h->advice == MADV_FREE && errno == EINVAL) {
		/* Linux < 4.5: Go falls back to MADV_DONTNEED for good. */
		h->advice = MADV_DONTNEED;
		h->fallbacks++;
		if (madvise(p, len, MADV_DONTNEED) == 0)
			return;
	}
	mr_fail("madvise of %zu KiB of free heap:", len >> 10);
}

void *mr_goheap_alloc(struct mr_goheap *h, size_t npages)
{
	size_t ai, i, k, run, first, reused;

	if (npages == 0 || npages > MR_GO_ARENA_PAGES)
		abort(); /* a bug in the case */
	for (;;) {
		int dense = 1; /* every page from the search start so far in use */

		for (ai = search_arena; ai < h->narenas; ai++) {
			struct mr_goarena *a = h->arenas[ai];

			i = ai == search_arena ? search_page : 0;
			for (run = 0; i < MR_GO_ARENA_PAGES; i++) {
				if (a->state[i] == PG_INUSE) {
					if (dense) {
						search_arena = ai;
						search_page = i + 1;
					}
					run = 0;
					continue;
				}
				dense = 0;
				if (++run == npages)
					break;
			}
			if (run < npages)
				continue;
			first = i + 1 - npages;
			for (k = first, reused = 0; k <= i; k++) {
				if (a->state[k] == PG_FREE)
					h->free_pages--;
				else
					h->released_pages--;
				reused += a->state[k] == PG_RELEASED;
				a->state[k] = PG_INUSE;
			}
			h->inuse_pages += npages;
			if (reused)
				sys_used(h, a->base + first * MR_GO_PAGE, npages * MR_GO_PAGE);
			if (search_arena == ai && search_page == first)
				search_page = i + 1;
			return a->base + first * MR_GO_PAGE;
		}
		arena_grow(h);
	}
}

void mr_goheap_free(struct mr_goheap *h, void *p, size_t npages, uint32_t now)
{
	size_t ai, first, k;

	for (ai = 0; ai < h->narenas; ai++)
		if ((char *)p >= h->arenas[ai]->base &&
		    (char *)p < h->arenas[ai]->base + MR_GO_ARENA)
			break;
	if (ai == h->narenas)
		abort();
	first = (size_t)((char *)p - h->arenas[ai]->base) / MR_GO_PAGE;
	if (first + npages > MR_GO_ARENA_PAGES)
		abort();
	for (k = first; k < first + npages; k++) {
		if (h->arenas[ai]->state[k] != PG_INUSE)
			abort(); /* a double free in the case */
		h->arenas[ai]->state[k] = PG_FREE;
		h->arenas[ai]->freed_at[k] = now;
	}
	h->inuse_pages -= npages;
	h->free_pages += npages;
	if (ai < search_arena || (ai == search_arena && first < search_page)) {
		search_arena = ai;
		search_page = first;
	}
}

uint64_t mr_goheap_scavenge(struct mr_goheap *h, uint64_t max_pages, uint32_t now, uint32_t min_age)
{
	uint64_t done = 0;
	size_t ai;

	for (ai = h->narenas; ai-- > 0;) {
		struct mr_goarena *a = h->arenas[ai];
		size_t end = MR_GO_ARENA_PAGES;

		while (end > 0) {
			size_t beg, k, n;
			uint32_t youngest = 0;

			if (a->state[end - 1] != PG_FREE) {
				end--;
				continue;
			}
			for (beg = end; beg > 0 && a->state[beg - 1] == PG_FREE; beg--)
				if (a->freed_at[beg - 1] > youngest)
					youngest = a->freed_at[beg - 1];
			if (min_age && (now < youngest || now - youngest < min_age)) {
				end = beg;
				continue;
			}
			n = end - beg;
			if (max_pages && n > max_pages - done)
				n = (size_t)(max_pages - done);
			/* from the top of the run down */
			sys_unused(h, a->base + (end - n) * MR_GO_PAGE, n * MR_GO_PAGE);
			for (k = end - n; k < end; k++)
				a->state[k] = PG_RELEASED;
			h->free_pages -= n;
			h->released_pages += n;
			done += n;
			if (max_pages && done == max_pages)
				return done;
			end = beg;
		}
	}
	return done;
}
