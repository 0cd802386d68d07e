/* retained-buffers: retained 4 MiB buffers and zero-filled garbage — glibc's
 * RSS grows to gigabytes, jemalloc's stays flat.
 *
 * Source: seeds/003_0f012ec3c6ee0fb9.txt — Node.js issue "Why don't we use
 * jemalloc?" (2018, Node.js v10.7.0, x86_64 Linux), testcase 1 (after Node.js
 * #21967).  One tick per setImmediate, 10,000 ticks: each retains
 * Buffer.allocUnsafe(bs), bs = 4 MiB; at tick 5,000 the retained array is
 * emptied and from then on each tick also makes a Buffer.alloc(bs) it drops
 * at once.  RSS at the start of every 1,000th tick (MiB):
 *
 *   tick      1000  2000  3000  4000  5000  6000  7000  8000  9000  10000
 *   glibc     35.1  40.2  45.3  49.3  53.3   993  2233  3499  4793   5997
 *   jemalloc  36.6  42.6  48.2  52.4  56.8  58.9  62.8  66.9  71.2   75.5
 *
 * and "Buffer.alloc(bs - 10) seems to be fine here".
 *
 * In one sentence: glibc's dynamic mmap threshold moves 4 MiB requests into
 * the brk heap once the first 4 MiB mmapped chunk is freed, and there each
 * zero-filled garbage buffer that calloc had to memset is freed into a hole
 * that the next retained Buffer.allocUnsafe(bs) fits exactly, so retained
 * buffers the program never wrote keep 4 MiB of resident pages each.
 *
 * What the JavaScript does, tick by tick, in Node 10 (lib/buffer.js, src/
 * node.cc and util-inl.h, read, not copied):
 *  - Buffer.allocUnsafe(bs): bs >= Buffer.poolSize / 2 (4 KiB), so not the
 *    pool but a fresh ArrayBuffer made with the zero-fill toggle off:
 *    ArrayBufferAllocator::Allocate -> UncheckedMalloc -> realloc(NULL, bs)
 *    (GCC turns our realloc(NULL, n) into malloc(n): the same call).  Not
 *    written by the script: no page is touched by it.
 *  - Buffer.alloc(bs): new FastBuffer(bs) with the toggle on ->
 *    UncheckedCalloc -> calloc(bs, 1), dropped at once: garbage.
 *  - retained.length = 0 at tick 5,000 (after that tick's push) makes the
 *    5,000 retained buffers garbage; retained then grows again from 0.
 *  - console.log(RSS) at the start of ticks 1000, ..., 10000 (before that
 *    tick's allocations): the checkpoints tick-1000 ... tick-10000.
 *  - An ArrayBuffer's memory is freed (free()) when V8's GC finds its object
 *    dead.  V8 6.7 counts backing stores as external memory and, each time
 *    it has grown by kExternalAllocationSoftLimit (64 MB) since the last
 *    mark-compact, starts an incremental GC (Heap::ReportExternalMemory
 *    Pressure).  So garbage is freed in batches: here a GC is triggered once
 *    external memory has grown by gc_mb since the last one, and frees every
 *    garbage buffer gc_lag ticks later (the incremental marking).  Before
 *    the clear that is every 16 ticks (nothing to free); after it every 8
 *    ticks (4 MiB retained + 4 MiB garbage per tick), freeing 8 garbage
 *    buffers, and the first GC after the clear frees all 5,000 cleared ones.
 *    The RSS curve barely depends on these two (quick size, tick 10,000:
 *    gc_mb 2..16 and gc_lag 0..4 give 490..525 MiB).
 *
 * Mechanism, glibc 2.36 (malloc/malloc.c), verified as said below:
 *  1. Ticks 1..5,000: a 4 MiB request is above the initial mmap threshold
 *     (128 KiB), so each allocUnsafe is an mmap of its own (chunk size 4 MiB
 *     + 4 KiB) of which malloc writes only the header: one page per tick,
 *     4 KiB, 3.9 MiB per 1,000 ticks (report: 4-5 MiB).
 *  2. The first GC after the clear frees the 5,000 mmapped chunks.  free()
 *     of an mmapped chunk larger than the threshold raises mmap_threshold to
 *     that chunk's size (up to DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB) and
 *     trim_threshold to twice that: the threshold is now 4 MiB + 4 KiB
 *     (gdb on libc6-dbg: mp_.mmap_threshold = 266240 for 256 KiB buffers;
 *     by hand: after one such free malloc(4198376) comes from brk, 4198377
 *     from mmap), so both 4 MiB requests now come from the brk heap.
 *  3. In the heap, allocUnsafe(bs) and alloc(bs) both need a chunk of
 *     request2size(4 MiB) = 4 MiB + 16.  calloc clears what it returns
 *     unless the chunk is mmapped, or is carved from a top chunk that had to
 *     be grown for it: then only the part that was top before (anything the
 *     heap ever held counts, max_system_mem) is cleared, the freshly sbrk'd
 *     rest being zero already.  A garbage calloc that reuses a freed chunk
 *     therefore memsets (faults in) all 4 MiB of it.  Each batch of freed
 *     garbage chunks lies between retained ones, so they cannot coalesce
 *     (the last may merge into top); the next allocUnsafe(bs) takes one of
 *     them as an exact fit — with the pages calloc dirtied.  A retained
 *     buffer the script never wrote now holds up to 4 MiB of resident pages,
 *     and nothing gives them back: trimming only happens at the top.
 *     Traced (an LD_PRELOAD shim logging addresses): of the 4,992 retained
 *     heap buffers after the clear, 1,106 landed on a garbage chunk calloc
 *     had cleared whole (these are the >= 90 % resident ones mincore counts
 *     at the end), 1,664 on one it had cleared in part, 2,222 on fresh top.
 *  4. bs - 10: request2size(4 MiB - 10) = 4 MiB, 16 bytes less than the
 *     retained request's chunk, so a freed garbage chunk is never big enough
 *     for an allocUnsafe(bs): retained buffers come from the untouched top,
 *     and the garbage callocs recycle one another's chunks (none of the
 *     retained buffers is >= 90 % resident).  The edge is the chunk
 *     rounding, not the threshold: alloc_minus=7 grows like 0 (509 MiB at
 *     quick size), alloc_minus=8 stays like 10 (95 MiB).
 *  Checked with the runner's tunable: --axis glibc.malloc.mmap_threshold=
 *  131072 (a fixed threshold: no dynamic raise, every buffer mmapped, calloc
 *  of an mmapped chunk clears nothing, free unmaps) keeps RSS at 21 MiB for
 *  both sizes at tick 10,000.  A fixed 32 MiB threshold (everything in the
 *  heap from the start) gives 705 MiB vs 160 MiB for bs - 10.
 *
 * Other allocators (measured, not in the report): jemalloc 5.3 never touches
 * these buffers: its metadata is outside them, and a calloc served from a
 * reused dirty extent is zeroed by purging it with MADV_DONTNEED rather than
 * by memset (ehooks_default_zero_impl; strace at quick size: 2,544 such
 * madvise calls of 260 KiB), so RSS stays flat at about 24 MiB after the
 * clear.  tcmalloc 2.10 and mimalloc 2.0.9 clear the whole block in every
 * calloc (see calloc-fresh) and round bs and bs - 10 to the same block, so
 * about half the retained buffers land on a cleared one, for both sizes:
 * 11 GB / 10 GB at tick 10,000 with the report's sizes (mind the memory
 * when running the full profile).
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs; the report's sizes,
 * MiB at ticks 1000 / 5000 / 6000 / 8000 / 10000; glibc and jemalloc
 * medians of 3, tcmalloc and mimalloc one run):
 *   glibc            5.2 / 20.9 /   928 / 2,803 /  4,671  (bs - 10: 124)
 *   jemalloc         7.7 / 23.9 /  24.0 /  24.0 /   24.0
 *   tcmalloc        11.1 / 28.3 / 2,260 / 6,692 / 11,132
 *   mimalloc        11.3 / 49.3 / 2,169 / 6,497 / 10,027
 * A glibc run takes 13-24 s, nearly all of it system time faulting in
 * 4.6 GB (1.2 M minor faults); tcmalloc's and mimalloc's take 20-35 s and
 * peak at 11 GB.  The quick profile scales bs to 256 KiB and gc_mb with it
 * (the same 8-tick GC cycle; still above the 128 KiB initial threshold,
 * and the allocation trace is the same chunk for chunk): glibc 20.8 -> 509
 * MiB (bs - 10: 94), jemalloc 6.7 -> 6.7 MiB, tcmalloc and mimalloc ~710
 * MiB, each run under a second or two.
 *
 * Left out: Node and V8 themselves (the report's ~30 MiB at start, the JS
 * heap, the Buffer objects: our RSS starts at ~1.5 MiB, so claims compare
 * growth and ratios), V8's scavenges and the exact incremental-marking
 * schedule (modelled by gc_mb / gc_lag), V8 freeing dead backing stores on
 * a background thread (a free from another thread into the main arena
 * changes no chunk placement here), and V8's order of freeing within a
 * batch (we free in allocation order).
 *
 * No musl build: it calls glibc's mallinfo2, which musl's libc lacks.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "bs_kb", "4096", "256", "int:4..65536", NULL,
	  "size of every Buffer in KiB (report: bs = 4 MiB; quick: 256 KiB, still above glibc's 128 KiB initial mmap threshold)" },
	{ "alloc_minus", "0", NULL, "int:0..4096", "0|10",
	  "bytes the zero-filled Buffer.alloc is smaller than bs (report: bs - 10 \"seems to be fine\")" },
	{ "gc_mb", "64", "4", "int:1..65536", NULL,
	  "external memory in MiB allocated since the last GC that starts the next (V8's kExternalAllocationSoftLimit, 64 MB; quick: scaled with bs)" },
	{ "gc_lag", "1", NULL, "int:0..1000", NULL,
	  "ticks from a GC's start to the free of the garbage (incremental marking; 0: at once)" },
	{ 0 }
};

/* One per console.log of the report, in order: checkpoints[t / 1000 - 1]. */
static const struct mr_checkpoint_desc checkpoints[] = {
	{ "tick-1000", "console.log at the start of tick 1000 (999 buffers retained)" },
	{ "tick-2000", "at the start of tick 2000" },
	{ "tick-3000", "at the start of tick 3000" },
	{ "tick-4000", "at the start of tick 4000" },
	{ "tick-5000", "at the start of tick 5000, before its push and the clear" },
	{ "tick-6000", "at the start of tick 6000: 1000 ticks of retain + zero-filled garbage since the clear" },
	{ "tick-7000", "at the start of tick 7000" },
	{ "tick-8000", "at the start of tick 8000" },
	{ "tick-9000", "at the start of tick 9000" },
	{ "tick-10000", "at the start of tick 10000, the last" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "retained-buffers",
	.title = "Retained 4 MiB buffers and zero-filled garbage: glibc RSS grows to 6 GB, jemalloc stays at 75 MiB",
	.source = "seeds/003_0f012ec3c6ee0fb9.txt (Node.js \"Why don't we use jemalloc?\", testcase 1, "
		  "Node v10.7.0): RSS 35.1 -> 53.3 MiB over ticks 1000-5000, then 993 / 2,233 / 3,499 / "
		  "4,793 / 5,997 MiB at ticks 6000-10000 with glibc; 36.6 -> 56.8 -> 75.5 MiB with jemalloc; "
		  "Buffer.alloc(bs - 10) \"seems to be fine\"",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 180,
	.mechanism = "retention",
};

enum { TICKS = 10000, CLEAR_AT = 5000, LOG_EVERY = 1000 };

/* The JS array `retained`, and the dead buffers the GC has not freed yet.
 * Static, so that the malloc heap holds nothing but the buffers. */
static void *retained[TICKS], *garbage[TICKS];
static size_t nretained, ngarbage;

/* V8's external-memory trigger (see the header).  Between two GCs nothing
 * is freed, so the growth of external memory since the last GC is what
 * was allocated since: allocated - allocated_at_gc. */
static size_t allocated, allocated_at_gc, gc_bytes;
static long tick, gc_lag, gc_due = -1; /* tick at which garbage is freed */
static unsigned long nmalloc, ncalloc, nfree, ngc;

/* A mark-compact: every dead ArrayBuffer's backing store is freed. */
static void collect(void)
{
	size_t i;

	for (i = 0; i < ngarbage; i++) {
		free(garbage[i]);
		nfree++;
	}
	ngarbage = 0;
	ngc++;
	gc_due = -1;
	allocated_at_gc = allocated;
}

/* ArrayBufferTracker::RegisterNew -> AdjustAmountOfExternalAllocatedMemory:
 * past the limit, start a GC; it frees the garbage gc_lag ticks later. */
static void account(size_t n)
{
	allocated += n;
	if (gc_due < 0 && allocated - allocated_at_gc > gc_bytes) {
		gc_due = tick + gc_lag;
		if (gc_lag == 0)
			collect();
	}
}

/* Buffer.allocUnsafe(n), n >= poolSize / 2: UncheckedMalloc. */
static void *alloc_unsafe(size_t n)
{
	void *p = realloc(NULL, n);

	if (!p)
		mr_fail("malloc(%zu) at tick %ld:", n, tick);
	mr_keep(p);
	nmalloc++;
	account(n);
	return p;
}

/* Buffer.alloc(n): UncheckedCalloc. */
static void *alloc_zeroed(size_t n)
{
	void *p = calloc(n, 1);

	if (!p)
		mr_fail("calloc(%zu) at tick %ld:", n, tick);
	mr_keep(p);
	ncalloc++;
	account(n);
	return p;
}

int main(int argc, char **argv)
{
	static unsigned char vec[65536 / 4 + 2]; /* mincore of one buffer */
	size_t bs, abytes, page, i, res = 0, inheap = 0, hot = 0, cold = 0;
	char *brk0, *brk1, line[640];
	struct mallinfo2 mi;
	int cleared = 0, n;
	void *p;

	mr_case_init(&desc, argc, argv);
	page = (size_t)sysconf(_SC_PAGESIZE);
	bs = (size_t)mr_param_int("bs_kb") * 1024;
	if ((size_t)mr_param_int("alloc_minus") >= bs)
		mr_usage("alloc_minus=%lld must be less than bs_kb=%lld KiB",
			 mr_param_int("alloc_minus"), mr_param_int("bs_kb"));
	abytes = bs - (size_t)mr_param_int("alloc_minus");
	gc_bytes = (size_t)mr_param_int("gc_mb") << 20;
	gc_lag = (long)mr_param_int("gc_lag");
	if (bs / page + 2 > sizeof vec)
		mr_skip("page size %zu is too small for the residency count", page);
	brk0 = sbrk(0);

	for (tick = 1; tick <= TICKS; tick++) {
		/* The GC's finalization runs between ticks. */
		if (gc_due >= 0 && tick >= gc_due)
			collect();
		if (tick % LOG_EVERY == 0)
			mr_checkpoint(checkpoints[tick / LOG_EVERY - 1].name);
		p = alloc_unsafe(bs);
		retained[nretained++] = p;
		if (tick == CLEAR_AT) {
			/* retained.length = 0; flag = true; */
			for (i = 0; i < nretained; i++)
				garbage[ngarbage++] = retained[i];
			nretained = 0;
			cleared = 1;
		}
		if (cleared) {
			/* Buffer.alloc(bs): dead as soon as it is made.  (p is
			 * stored after the call: a GC inside it must not see it.) */
			p = alloc_zeroed(abytes);
			garbage[ngarbage++] = p;
		}
	}
	if (nmalloc != TICKS || ncalloc != TICKS - CLEAR_AT + 1 ||
	    nfree + ngarbage != CLEAR_AT + ncalloc || nretained != TICKS - CLEAR_AT)
		mr_fail("the work did not happen: %lu malloc, %lu calloc, %lu free, %zu retained",
			nmalloc, ncalloc, nfree, nretained);

	/* After the last checkpoint: how resident is each retained buffer the
	 * script never wrote, and where is it (brk heap or an mmap)? */
	brk1 = sbrk(0);
	for (i = 0; i < nretained; i++) {
		char *q = retained[i];
		uintptr_t a = (uintptr_t)q & ~(uintptr_t)(page - 1);
		size_t len = (size_t)((uintptr_t)q + bs - a), np = (len + page - 1) / page, j, r = 0;

		if (q >= brk0 && q < brk1)
			inheap++;
		if (mincore((void *)a, len, vec) < 0)
			mr_fail("mincore:");
		for (j = 0; j < np; j++)
			r += vec[j] & 1;
		res += r;
		if (r * 10 >= np * 9)
			hot++;
		else if (r * 10 <= np)
			cold++;
	}
	mi = mallinfo2(); /* glibc's own arena: empty under another allocator */
	n = snprintf(line, sizeof line,
		     "retained-buffers: bs=%zu alloc=%zu: %lu malloc, %lu calloc, %lu free in %lu GCs; "
		     "%zu retained: %zu in the brk heap, %zu MiB resident (%zu buffers >= 90 %%, "
		     "%zu <= 10 %%); glibc arena: heap %zu MiB, %zu mmapped chunks, %zu MiB free, "
		     "top %zu KiB\n",
		     bs, abytes, nmalloc, ncalloc, nfree, ngc, nretained, inheap,
		     res * page >> 20, hot, cold, mi.arena >> 20, mi.hblks,
		     mi.fordblks >> 20, mi.keepcost >> 10);
	if (n > 0)
		(void)!write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	return MR_EXIT_OK;
}
