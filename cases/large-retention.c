/* large-retention: 100 MB buffers, allocated, dropped and allocated again —
 * glibc returns them to the kernel at once, jemalloc 5.1 kept them.
 *
 * Source: seeds/003_0f012ec3c6ee0fb9.txt — Node.js issue "Why don't we use
 * jemalloc?" (2018, Node.js v10.7.0), testcase 3 ("jemalloc consumes more
 * memory"):
 *
 *   function foo() {
 *     let a;
 *     for (let i = 0; i < 5; i++) a = Buffer.alloc(1e8, 1);
 *     console.log(RSS);
 *   }
 *   foo(); foo(); gc(); gc(); console.log(RSS); foo(); console.log(Time);
 *
 *   RSS (MiB)   foo #1   foo #2   after gc()   foo #3   time
 *   glibc        506.8    508.0       31.2      507.9    0.774 s
 *   jemalloc     507.9    604.4      604.6      604.6    0.350 s
 *
 * In one sentence: glibc serves a 100 MB buffer with its own mmap and
 * munmaps it on free, so RSS follows the live buffers but every buffer is
 * faulted in afresh, while the reporter's jemalloc kept freed extents dirty
 * for reuse (RSS stays at its high-water mark, reuse costs no page faults).
 *
 * Mechanism.  glibc: 1e8 bytes is above the mmap threshold even at its
 * dynamic maximum (DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB on 64-bit), so
 * malloc mmaps a fresh mapping and free munmaps it: RSS drops as soon as a
 * buffer is freed, and filling the next one faults in 24,415 zeroed pages
 * (the kernel zeroes them, then the fill writes them again).  jemalloc 5.0
 * and 5.1 (the reporter's /usr/lib/libjemalloc.so in 2018) carved a large
 * allocation from an arena and, on free, kept its extent dirty with
 * dirty_decay_ms 10 s: a second of runtime purges nearly nothing, so the
 * next 100 MB comes back with its pages resident — no faults (hence 0.35
 * vs 0.77 s) and no drop in RSS after gc() (604 MiB stay).  jemalloc 5.2
 * changed that: a freed dirty extent that is, once coalesced with its
 * free neighbours, at least opt.oversize_threshold (8 MiB) is purged at
 * once (extent_record's "shortcut to purge the oversize extent eagerly"),
 * unless a decay time is -1; requests above that size also go to a
 * dedicated arena with zero decay times.  So this machine's jemalloc 5.3
 * behaves like glibc here: RSS back to a few MiB after gc(), every buffer
 * faulted in afresh.  Measured by hand: MALLOC_CONF=dirty_decay_ms:-1
 * (nothing purged, as 5.1 within a second) brings back the report's
 * jemalloc figures (480 / 576 / 576 / 576 MiB, 40% of glibc's page
 * faults, 0.58 s against glibc's ~1.2 s), MALLOC_CONF=oversize_threshold:0
 * does not.  tcmalloc, which
 * keeps freed spans, shows the report's jemalloc figures as they are.
 *
 * Why 604 MiB and not 508: the report's RSS after foo #2 is six buffers.
 * That fixes when V8 freed the garbage buffers: not during foo #1 (all five
 * resident when it prints), but during foo #2's first allocation (one more,
 * then reuse of the five freed extents).  V8 (6.7, Node 10) counts each
 * ArrayBuffer's backing store as external memory and, on each new one,
 * compares the total with two limits: above a soft limit (64 MiB over the
 * figure at the last mark-compact) it only *starts* incremental marking,
 * which a synchronous script that never gives V8 idle time does not finish
 * before the next print (the figures show nothing freed in foo #1); above
 * the hard limit (max_old_generation_size / 2 over the figure at the last
 * mark-compact) it runs a full, atomic GC right there, inside the
 * allocation, before the buffer is filled.  Only a hard limit from 5e8 to
 * 6e8 bytes (477 to 572 MiB) makes foo #2's first allocation (6e8 bytes
 * external) the GC point and no other, which is the schedule the report's
 * figures show; 512 MiB is V8's rule for a 1 GiB old generation.  The
 * hard limit is a parameter: hard_limit_mb=0 makes every allocation
 * collect the garbage before it (an eager GC), a large one makes nothing
 * collected before gc().
 *
 * What is modelled: Buffer.alloc(size, fill) with a fill is Node's
 * createUnsafeBuffer (the ArrayBuffer allocator's malloc, uninitialised,
 * not calloc) then a fill (memset to 1); each backing store is counted as
 * V8 external memory when it is registered, after the malloc and before
 * the fill; foo's `a` is its only reference, so the previous buffer is
 * garbage once the next one is assigned and all of foo's are once foo
 * returns; the hard-limit GC and gc() free every backing store that is
 * garbage at that moment (free() on the main thread), gc(); gc() resets the
 * figure at the last mark-compact to what is left (nothing).  The report's
 * four prints are the checkpoints: `foo` (3 times) and `gc`.
 *
 * Left out: Node and V8 themselves (their ~31 MiB of RSS: compare figures
 * above that base, or ratios), the incremental marking the soft limit
 * starts (the report's figures show it freeing nothing), concurrent
 * sweeping (V8 may free backing stores on a background thread: glibc's
 * munmap and jemalloc's purge do not care which thread frees), and the
 * JS objects (a few hundred bytes each).  Times: the report's 0.77 / 0.35 s
 * include the allocations only; ours include process start (~1 ms), so
 * they are compared as ratios between allocators run side by side.
 *
 * Transparent huge pages are off for the case (prctl PR_SET_THP_DISABLE,
 * first thing in main).  The report's 0.77 s against 0.35 s is the cost
 * of faulting every 100 MB in 4 KiB pages; in THP `always` mode glibc's
 * fresh 100 MB mmaps fault in 2 MiB at a time and that cost, which reuse
 * saves, nearly vanishes: measured (`memrepro check --profile quick`,
 * x86_64, glibc 2.36, Linux 6.18, 2 CPUs, THP always, before this pin)
 * glibc 114 and 136 ms of CPU in two checks against 533 and 553 in
 * madvise mode, and tcmalloc's reuse 0.66 and 0.95 of it instead of
 * 0.44-0.46.  A figure of the kernel's setting, not of what the allocators
 * keep; in madvise and never modes the pin changes nothing (no allocator
 * here madvises huge pages by default).
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static const struct mr_param params[] = {
	/* Quick: half the report's buffers and half its hard limit, the same
	 * schedule at half the cost; 50 MB is still above glibc's largest
	 * dynamic mmap threshold (32 MiB), so glibc still mmaps each one. */
	{ "size", "100000000", "50000000", "int:4096..1000000000", NULL,
	  "bytes per buffer (report: Buffer.alloc(1e8, 1))" },
	{ "allocs", "5", NULL, "int:1..1000", NULL,
	  "buffers each foo() allocates, keeping only the last (report: 5)" },
	{ "calls", "2", NULL, "int:1..100", NULL,
	  "foo() calls before gc(); gc() (report: 2; one more follows)" },
	{ "hard_limit_mb", "512", "256", "int:0..1000000", NULL,
	  "V8's external-memory hard limit in MiB: a full GC when external memory exceeds the figure at the last GC by more (report's figures: 477..572; 0: collect at every allocation)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "foo", "at the end of each foo() (report: console.log of RSS), before its buffers are garbage" },
	{ "gc", "after gc(); gc(): every buffer freed" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "large-retention",
	.title = "100 MB buffers dropped and reallocated: glibc returns them at once, jemalloc 5.1 kept 604 MiB",
	.source = "seeds/003_0f012ec3c6ee0fb9.txt (Node.js \"Why don't we use jemalloc?\", testcase 3): "
		  "5 x Buffer.alloc(1e8, 1) per foo(), foo(); foo(); gc(); gc(); foo(); "
		  "RSS glibc 506.8 / 508.0 / 31.2 / 507.9 MiB in 0.774 s, "
		  "jemalloc 507.9 / 604.4 / 604.6 / 604.6 MiB in 0.350 s",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "purging",
};

/* A backing store V8 knows of and has not freed yet. */
struct store {
	unsigned char *data;
	int reachable; /* referenced by a live JS value (foo's `a`) */
};

/* The part of V8's heap this case needs: its backing stores and the
 * external-memory accounting that decides when a GC frees them. */
struct heap {
	struct store *stores;
	size_t nstores, cap;
	size_t size;          /* bytes of each store */
	uint64_t external;    /* bytes of stores not yet freed */
	uint64_t at_last_mc;  /* external right after the last full GC */
	uint64_t hard_limit;  /* bytes */
	unsigned long gcs;    /* full GCs run, hard-limit ones and gc() */
	unsigned long freed;  /* stores freed */
};

/* A full GC: free the backing store of every unreachable buffer. */
static void heap_full_gc(struct heap *h)
{
	size_t i, j = 0;

	for (i = 0; i < h->nstores; i++) {
		struct store *s = &h->stores[i];

		if (s->reachable) {
			h->stores[j++] = *s;
			continue;
		}
		/* The fill must have happened: read it back before freeing. */
		if (s->data[0] != 1 || s->data[h->size / 2] != 1 || s->data[h->size - 1] != 1)
			mr_fail("a buffer does not hold its fill");
		free(s->data);
		h->external -= h->size;
		h->freed++;
	}
	h->nstores = j;
	h->at_last_mc = h->external;
	h->gcs++;
}

/* Buffer.alloc(size, 1): createUnsafeBuffer (malloc, registered as external
 * memory: the hard limit may run a GC here), then the fill.  The buffer
 * stays reachable until unreference(). */
static unsigned char *buffer_alloc_filled(struct heap *h)
{
	unsigned char *p = malloc(h->size);
	struct store *s;

	if (!p)
		mr_fail("malloc(%zu):", h->size);
	if (h->nstores == h->cap)
		mr_fail("more live buffers than planned (%zu)", h->cap);
	s = &h->stores[h->nstores++];
	s->data = p;
	s->reachable = 1; /* on the stack while it is being created */
	h->external += h->size;
	if (h->external > h->at_last_mc + h->hard_limit)
		heap_full_gc(h);
	memset(p, 1, h->size);
	mr_keep(p);
	return p;
}

/* Drop the reference foo's `a` holds. */
static void unreference(struct heap *h, const unsigned char *p)
{
	size_t i;

	for (i = 0; i < h->nstores; i++)
		if (h->stores[i].data == p)
			h->stores[i].reachable = 0;
}

static void foo(struct heap *h, long allocs)
{
	unsigned char *a = NULL;
	long i;

	for (i = 0; i < allocs; i++) {
		unsigned char *next = buffer_alloc_filled(h);

		if (a)
			unreference(h, a);
		a = next;
	}
	mr_checkpoint("foo");
	unreference(h, a); /* foo returns: its last buffer is garbage too */
}

int main(int argc, char **argv)
{
	struct heap h = { 0 };
	long allocs, calls, i;
	unsigned long long t_us;
	char line[256];
	int n;

	mr_case_init(&desc, argc, argv);
	/* 4 KiB page faults, as the report's times had (see the header). */
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) < 0)
		mr_fail("prctl(PR_SET_THP_DISABLE):");
	h.size = (size_t)mr_param_int("size");
	allocs = mr_param_int("allocs");
	calls = mr_param_int("calls");
	h.hard_limit = (uint64_t)mr_param_int("hard_limit_mb") * 1024 * 1024;
	/* At most every buffer of every call is garbage at once. */
	h.cap = (size_t)(allocs * (calls + 1));
	h.stores = calloc(h.cap, sizeof *h.stores);
	if (!h.stores)
		mr_fail("calloc:");

	for (i = 0; i < calls; i++)
		foo(&h, allocs);
	heap_full_gc(&h); /* gc(); gc(): the second finds nothing more */
	heap_full_gc(&h);
	if (h.nstores != 0 || h.external != 0)
		mr_fail("gc() left %zu buffers", h.nstores);
	mr_checkpoint("gc");
	foo(&h, allocs);
	t_us = mr_ckpt_elapsed_us();

	n = snprintf(line, sizeof line,
		     "large-retention: %ld x %ld + %ld buffers of %zu bytes, "
		     "%lu freed by %lu full GCs, time %llu.%03llu s\n",
		     calls, allocs, allocs, h.size, h.freed, h.gcs,
		     t_us / 1000000, t_us / 1000 % 1000);
	if (n > 0)
		(void)!write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	return MR_EXIT_OK;
}
