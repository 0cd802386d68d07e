/* alloc-churn: a short-lived 10 MB (or 1 MB) buffer per event-loop tick —
 * zeroed ones cost glibc a memset each, jemalloc nothing.
 *
 * Source: seeds/003_0f012ec3c6ee0fb9.txt — Node.js issue "Why don't we use
 * jemalloc?" (2018, Node.js v10.7.0), testcases 4 and 5:
 *
 *   let i = 0;
 *   function tick() {
 *     const a = Buffer.alloc(1e7);      // testcase 5: Buffer.alloc(1e7, 1)
 *     if (i++ >= 1e4) return;
 *     setImmediate(tick);
 *   }
 *   tick();
 *
 * measured with /usr/bin/time -f '%M KiB, %e seconds' (peak RSS, wall):
 *
 *                      zeroed (4)              filled with 1s (5)
 *   1e4 x 1e7 glibc    129,576 KiB 11.41 s     139,060 KiB 14.38 s
 *             jemalloc  34,928 KiB  3.33 s     170,308 KiB 10.65 s
 *   1e5 x 1e6 glibc    109,196 KiB 11.51 s     105,120 KiB 12.25 s
 *             jemalloc  35,636 KiB  4.13 s     112,548 KiB 10.99 s
 *
 * (Node's own RSS is ~31 MiB: jemalloc's zeroed runs never had a buffer's
 * pages resident at all.)
 *
 * In one sentence: every buffer is garbage at once but V8 frees backing
 * stores in batches, so ten or so are allocated at a time; glibc serves
 * them from its heap, where calloc must memset every byte of a reused
 * chunk, while jemalloc zeroes a reused extent by giving its pages back to
 * the kernel (MADV_DONTNEED) and never touches them.
 *
 * Mechanism, glibc.  1e7 (and 1e6) bytes are above the initial mmap
 * threshold (128 KiB), so the first buffer is mmapped — and calloc skips
 * the memset of an mmapped chunk, the kernel's pages being zero.  But
 * freeing an mmapped chunk raises the dynamic threshold to its size (up to
 * DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB) and the trim threshold to twice that:
 * from the second buffer on, every one comes from the brk heap.  There
 * calloc clears what it takes from the bins, and skips only the part it
 * carves from freshly extended top (MORECORE_CLEARS).  Each GC frees a
 * batch of garbage below the newest buffers, which survive it: the next
 * ones reuse that free run, resident, and calloc memsets all of each —
 * 10 MB written per tick (the time) and the batch's worth of heap kept
 * resident (the peak RSS).  About once per cycle the top chunk is freed
 * with more than the trim threshold above it, the heap is trimmed and
 * re-extended (measured: 26 brk calls for 100 buffers in 12 cycles), and
 * one buffer comes untouched from fresh top — which is why glibc's peak
 * here is ~8 buffers' worth rather than 10.
 *
 * Filled buffers (malloc + fill) write every byte with any allocator;
 * glibc's reuse of resident heap memory then saves the page faults.
 * Measured here: `--axis glibc.malloc.mmap_threshold=131072` (a fixed
 * threshold turns the dynamic one off, every buffer is mmapped) brings
 * glibc's zeroed runs to jemalloc's peak RSS and time — see the claims file.
 *
 * Mechanism, jemalloc.  calloc of a large size class recycling an extent
 * that is not known to be zeroed "zeroes" it with pages_purge_forced
 * (madvise(MADV_DONTNEED)): the kernel gives zero pages on the next touch,
 * and a buffer nobody writes never becomes resident.  Sizes of 8 MiB and
 * more (opt.oversize_threshold, jemalloc >= 5.2) go to a dedicated arena
 * whose freed extents are purged at once.  Filled buffers: the reporter's
 * jemalloc 5.1 kept freed dirty extents for 10 s (dirty_decay_ms) — more
 * RSS than glibc (170 vs 139 MB), reuse without faults.  5.3 purges a freed
 * extent at once when it is, coalesced with its free neighbours, 8 MiB or
 * more: every 10 MB buffer and many 1 MB ones are faulted in afresh (more
 * page faults and time, less RSS).  MALLOC_CONF=dirty_decay_ms:-1 (no
 * purging) gives back the report's shape: see the claims file.
 *
 * The batches: V8 counts each backing store as external memory.  When the
 * total exceeds a soft limit (64 MiB, kExternalAllocationSoftLimit, over
 * the figure at the last mark-compact) V8 starts incremental marking; the
 * next allocations over the limit advance it, and with a heap as small as
 * this script's it completes within a tick or so, then the mark-compact
 * frees every backing store that was garbage when marking began — those
 * allocated meanwhile are allocated black and survive until the next
 * cycle.  So with 10 MB buffers a cycle starts at the 7th buffer past the
 * survivors and frees about 8, a peak of 10 live buffers (the report's
 * glibc 129,576 KiB = 31 MiB of Node + ten 9.5 MiB buffers); with 1 MB
 * buffers a peak of about 71.  mark_ticks sets how many allocations the
 * marking spans (1 by default; more makes bigger batches).
 *
 * What is modelled: Buffer.alloc(size) is Node's ArrayBuffer allocator
 * with zero fill, i.e. calloc(size, 1); Buffer.alloc(size, 1) is
 * createUnsafeBuffer (malloc, uninitialised) then a fill (memset to 1); the
 * buffer is garbage when the tick returns; V8's soft-limit cycle as above
 * (the figure at the last mark-compact, the limit 64 MiB over it, black
 * allocation), freeing on the main thread.  The count is the report's
 * total (1e11 bytes: 1e4 x 1e7 or 1e5 x 1e6) over size, so both sizes do
 * the same work.  One checkpoint, `end`, after the last tick (the report
 * read peak RSS and time at exit).
 *
 * Left out: Node and V8 (the ~31 MiB base and the ~0.3 ms a tick costs in
 * JS: the report's jemalloc 3.33 s is mostly that), scavenges (they also
 * free young backing stores, but new space fills far more slowly than the
 * external limit), V8's hard limit (max_old_generation_size / 2: never
 * reached by ~100 MB), and concurrent sweeping threads.  Times are
 * compared as ratios between configs of one run, never with the report's.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "size", "10000000", NULL, "int:4096..1000000000", "10000000|1000000",
	  "bytes per buffer (report: 1e7, and 1e6)" },
	{ "fill", "zero", NULL, "zero|ones", "zero|ones",
	  "Buffer.alloc(size): calloc (testcase 4) or Buffer.alloc(size, 1): malloc + fill with 1s (testcase 5)" },
	{ "total_mb", "100000", "1000", "int:1..10000000", NULL,
	  "bytes churned, in MB of 1e6 (report: 1e11 = 1e4 x 1e7 = 1e5 x 1e6); the count is total / size" },
	{ "count", "0", NULL, "int:0..100000000", NULL,
	  "buffers (ticks); 0: total_mb x 1e6 / size" },
	{ "soft_limit_mb", "64", NULL, "int:0..100000", NULL,
	  "V8's external-memory soft limit in MiB over the figure at the last mark-compact: past it incremental marking starts (kExternalAllocationSoftLimit)" },
	{ "mark_ticks", "1", NULL, "int:1..100000", NULL,
	  "allocations from the start of incremental marking to the mark-compact that frees the garbage" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "end", "after the last tick, before exit (the report: /usr/bin/time's peak RSS and time)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "alloc-churn",
	.title = "A 10 MB buffer per tick, freed in batches: calloc costs glibc a memset and RSS, jemalloc nothing",
	.source = "seeds/003_0f012ec3c6ee0fb9.txt (Node.js \"Why don't we use jemalloc?\", testcases 4 and 5): "
		  "1e4 x Buffer.alloc(1e7): glibc 129,576 KiB 11.41 s, jemalloc 34,928 KiB 3.33 s; "
		  "1e5 x 1e6: 109,196 KiB 11.51 s vs 35,636 KiB 4.13 s; filled with 1s: "
		  "139,060 KiB 14.38 s vs 170,308 KiB 10.65 s, 1e5 x 1e6 105,120 KiB 12.25 s vs 112,548 KiB 10.99 s",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 600,
	.mechanism = "zeroing",
};

/* A backing store V8 has not freed yet. */
struct store {
	unsigned char *data;
	int white;      /* garbage when the current marking began: freed by it */
};

struct heap {
	struct store *stores; /* not yet freed, oldest first */
	size_t nstores, cap;
	size_t size;
	int ones;               /* filled with 1s, else zeroed */
	uint64_t external;      /* bytes of stores not yet freed */
	uint64_t limit;         /* soft limit: external at last mark-compact + soft */
	uint64_t soft;
	long mark_left;         /* allocations until the mark-compact; 0: not marking */
	long mark_ticks;
	unsigned long cycles;   /* mark-compacts */
	size_t peak_stores;     /* most stores allocated at once */
	unsigned long checksum; /* bytes read back from every freed buffer */
};

static void store_free(struct heap *h, struct store *s)
{
	/* Read back what the buffer must hold: Node never reads, but the
	 * compiler must not drop the allocation, and we check the work. */
	unsigned want = h->ones ? 1 : 0;

	if (s->data[0] != want || s->data[h->size - 1] != want)
		mr_fail("a buffer does not hold its %s", h->ones ? "fill" : "zeroes");
	h->checksum += s->data[0] + s->data[h->size - 1] + 1;
	free(s->data);
	h->external -= h->size;
}

/* The mark-compact that ends a cycle: free the white stores. */
static void heap_mark_compact(struct heap *h)
{
	size_t i, j = 0;

	for (i = 0; i < h->nstores; i++) {
		if (h->stores[i].white)
			store_free(h, &h->stores[i]);
		else
			h->stores[j++] = h->stores[i];
	}
	h->nstores = j;
	h->limit = h->external + h->soft;
	h->cycles++;
}

/* Register a new backing store with V8's external-memory accounting; past
 * the soft limit this starts or advances incremental marking. */
static void heap_register(struct heap *h, unsigned char *p)
{
	size_t i;

	if (h->nstores == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct store *n = realloc(h->stores, cap * sizeof *n);

		if (!n)
			mr_fail("realloc:");
		h->stores = n;
		h->cap = cap;
	}
	h->stores[h->nstores++] = (struct store){ p, 0 };
	if (h->nstores > h->peak_stores)
		h->peak_stores = h->nstores;
	h->external += h->size;
	if (h->external <= h->limit)
		return;
	if (h->mark_left > 0) {
		if (--h->mark_left == 0)
			heap_mark_compact(h);
		return;
	}
	/* Start marking: whatever is garbage now (every store but the one
	 * being created) is white; stores allocated from now on are black. */
	for (i = 0; i + 1 < h->nstores; i++)
		h->stores[i].white = 1;
	h->mark_left = h->mark_ticks;
}

/* One tick: const a = Buffer.alloc(size[, 1]); — garbage once it returns. */
static void tick(struct heap *h)
{
	unsigned char *p;

	if (h->ones) {
		p = malloc(h->size); /* createUnsafeBuffer */
		if (!p)
			mr_fail("malloc(%zu):", h->size);
		heap_register(h, p);
		memset(p, 1, h->size); /* buf.fill(1) */
	} else {
		p = calloc(h->size, 1); /* zero-filled ArrayBuffer */
		if (!p)
			mr_fail("calloc(%zu, 1):", h->size);
		heap_register(h, p);
	}
	mr_keep(p);
}

int main(int argc, char **argv)
{
	struct heap h = { 0 };
	uint64_t count, i;
	char line[256];
	int n;

	mr_case_init(&desc, argc, argv);
	h.size = (size_t)mr_param_int("size");
	h.ones = mr_param_is("fill", "ones");
	h.soft = (uint64_t)mr_param_int("soft_limit_mb") * 1024 * 1024;
	h.limit = h.soft;
	h.mark_ticks = (long)mr_param_int("mark_ticks");
	count = (uint64_t)mr_param_int("count");
	if (count == 0)
		count = (uint64_t)mr_param_int("total_mb") * 1000000 / h.size;
	if (count == 0)
		mr_usage("total_mb=%lld is less than one buffer of size=%zu",
			 mr_param_int("total_mb"), h.size);

	for (i = 0; i < count; i++)
		tick(&h);
	mr_checkpoint("end");

	n = snprintf(line, sizeof line,
		     "alloc-churn: %llu x %zu bytes %s, %lu mark-compacts, "
		     "at most %zu buffers allocated at once\n",
		     (unsigned long long)count, h.size, h.ones ? "filled with 1s" : "zeroed",
		     h.cycles, h.peak_stores);
	if (n > 0)
		(void)!write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	/* The process exits with the last batch unfreed, as Node does. */
	mr_keep(&h.checksum);
	return MR_EXIT_OK;
}
