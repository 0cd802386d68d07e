/* calloc-fresh: 10,000 kept zero-filled 100 kB buffers — glibc's calloc
 * touches 70 % of them, jemalloc's none.
 *
 * Source: seeds/003_0f012ec3c6ee0fb9.txt — Node.js issue "Why don't we use
 * jemalloc?" (2018, Node.js v10.7.0, x86_64 Linux), testcase 2:
 *
 *   const arr = [];
 *   for (let i = 0; i < 1e4; i++) arr.push(Buffer.alloc(1e5));
 *   console.log(RSS)        ->  "Normal — 697 MiB, jemalloc — 37 MiB"
 *
 * In one sentence: glibc's calloc only trusts the bytes sbrk returned in the
 * very call that grew the heap, so it memsets the 128 KiB of padding the
 * heap grew by the call before, touching about 70 % of 954 MiB of zeroed
 * buffers that nobody writes, while jemalloc hands out fresh, untouched
 * zero pages.
 *
 * What Node 10 does (lib/buffer.js, src/node.cc, src/util-inl.h; read, not
 * copied): Buffer.alloc(size) without a fill is new FastBuffer(size) with
 * the zero-fill toggle on, so V8 asks ArrayBufferAllocator::Allocate, which
 * calls node::UncheckedCalloc -> calloc(size, 1).  Node does not memset
 * itself.  zero=calloc models that; zero=memset (malloc then memset, what an
 * allocator without a calloc of its own would do) is there to show which one
 * the report's figures fit: only calloc explains jemalloc's 37 MiB (with
 * memset jemalloc touches everything: 999 MiB here).  GCC folds malloc +
 * memset(0) into calloc, so the memset mode puts a barrier between them.
 *
 * Mechanism, glibc 2.36 (malloc/malloc.c __libc_calloc, sysmalloc):
 * 100,000 bytes is below the mmap threshold (128 KiB), so each buffer is a
 * chunk of request2size(100000) = 100,016 bytes carved from the top of the
 * brk heap.  calloc must clear it, except what it knows is fresh: when the
 * chunk is the old top and is larger than it (sysmalloc had to grow the
 * heap for this very call), it clears only the old top's bytes, the rest
 * having just come from sbrk (MORECORE_CLEARS); in every other case it
 * clears the whole chunk.  sysmalloc grows the heap by the request plus
 * M_TOP_PAD (128 KiB) minus the old top, page-rounded, so after a growth
 * the top holds ~128 KiB of fresh pages no one has touched; the next calloc
 * fits in it, so it clears 100 kB of fresh zero pages (faulting them in);
 * the one after finds ~30 KiB of top, grows the heap and clears only those.
 * Every other call grows the heap (measured: 5,001 of 10,000), and about
 * 71 % of the pages end up resident (mincore: 179,961 of 254,100).
 * Verified by moving M_TOP_PAD with the runner's tunable axis
 * (--axis glibc.malloc.top_pad=...): 0 -> every call grows the heap and
 * clears only the old top's crumbs: 79.6 MiB; 131072 (default) -> 665.6;
 * 1 MiB -> 917.5; 64 MiB -> 954.3 MiB, as much as memset.  (A simulation of
 * the rule above predicts 55 / 653 / 914 / 953 MiB.)
 *
 * Other allocators (measured): jemalloc 5.3 puts 100,000 bytes in its 112
 * KiB large size class, carved from freshly mapped extents it knows are
 * zero, with its metadata elsewhere: calloc touches nothing (+3.5 MiB).
 * tcmalloc 2.10 and mimalloc 2.0.9 clear the whole size-class block in
 * calloc even on fresh memory: 1,023 / 1,097 MiB, more than malloc +
 * memset of 100,000 bytes (984 / 980 MiB).
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs; count=10000, medians of
 * 3), RSS at "filled" (from ~1.3 MiB at start):
 *   glibc     calloc 665.6 MiB   memset 955.2 MiB
 *   jemalloc  calloc   7.0 MiB   memset 999.3 MiB
 * Node started at ~30 MiB (the report's jemalloc run: 37 MiB in all), so
 * the report's glibc growth is ~665 MiB: what calloc gives here.  The quick
 * profile keeps 2,000 buffers (glibc 134 vs 192 MiB, jemalloc 4.2 MiB).
 *
 * Left out: Node and V8 themselves (their ~30 MiB, the JS array and Buffer
 * objects; V8's GCs, which run every 64 MB of external memory but find
 * nothing to free here).
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "count", "10000", "2000", "int:1..100000", NULL,
	  "buffers allocated and kept (report: 1e4)" },
	{ "size", "100000", NULL, "int:1..16777216", NULL,
	  "bytes per buffer (report: 1e5)" },
	{ "zero", "calloc", NULL, "calloc|memset", "calloc|memset",
	  "how a buffer is zero-filled: calloc(size, 1) as Node 10's ArrayBuffer allocator does, or malloc + memset" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the loop: the process's own RSS" },
	{ "filled", "after the loop, every buffer kept: the report's console.log" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "calloc-fresh",
	.title = "10,000 kept zero-filled 100 kB buffers: glibc's calloc touches 697 MiB, jemalloc's 37 MiB",
	.source = "seeds/003_0f012ec3c6ee0fb9.txt (Node.js \"Why don't we use jemalloc?\", testcase 2, "
		  "Node v10.7.0): for (1e4) arr.push(Buffer.alloc(1e5)); RSS 697 MiB with glibc, "
		  "37 MiB with jemalloc",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "zeroing",
};

/* The JS array arr (static: the malloc heap holds only the buffers), and
 * the mincore vector of one buffer. */
static void *kept[100000];
static unsigned char vec[16777216 / 4096 + 2];

int main(int argc, char **argv)
{
	size_t count, size, i, page, grew = 0, res = 0, pages = 0;
	int use_calloc, n;
	char *brk_before, line[512];

	mr_case_init(&desc, argc, argv);
	page = (size_t)sysconf(_SC_PAGESIZE);
	count = (size_t)mr_param_int("count");
	size = (size_t)mr_param_int("size");
	use_calloc = mr_param_is("zero", "calloc");
	if (size / page + 2 > sizeof vec)
		mr_skip("page size %zu is too small for the residency count", page);

	mr_checkpoint("start");
	for (i = 0; i < count; i++) {
		void *p;

		brk_before = sbrk(0); /* glibc's sbrk(0): no system call */
		if (use_calloc) {
			p = calloc(size, 1);
		} else {
			p = malloc(size);
			/* Without the barrier GCC folds malloc + memset(0)
			 * into calloc, and this mode would measure calloc. */
			mr_keep(p);
			if (p)
				memset(p, 0, size);
		}
		if (!p)
			mr_fail("allocating buffer %zu of %zu bytes:", i, size);
		mr_keep(p);
		kept[i] = p;
		if ((char *)sbrk(0) != brk_before)
			grew++;
	}
	mr_checkpoint("filled");

	/* After the last checkpoint: how much of the buffers is resident. */
	for (i = 0; i < count; i++) {
		uintptr_t a = (uintptr_t)kept[i] & ~(page - 1);
		size_t len = (uintptr_t)kept[i] + size - a, np = (len + page - 1) / page, j;

		if (mincore((void *)a, len, vec) < 0)
			mr_fail("mincore:");
		for (j = 0; j < np; j++)
			res += vec[j] & 1;
		pages += np;
	}
	n = snprintf(line, sizeof line,
		     "calloc-fresh: %zu x %zu bytes by %s: %zu of %zu pages resident; "
		     "the brk heap grew in %zu allocations (glibc's heap; 0 under an mmap-only allocator)\n",
		     count, size, use_calloc ? "calloc" : "malloc+memset", res, pages, grew);
	if (n > 0)
		(void)!write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	return MR_EXIT_OK;
}
