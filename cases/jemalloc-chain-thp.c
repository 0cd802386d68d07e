/* jemalloc-chain-thp: 3,000 allocations of 1 MB take 6 GB of RSS with
 * jemalloc 4.2 under transparent huge pages, 3 GB without.
 *
 * Source: jemalloc/jemalloc#468, "200% external fragmentation on simple
 * chain of 1mb allocations." (2016-10-06), jemalloc 4.2.1 (opt.lg_chunk
 * 21: 2 MiB chunks), x86_64 Linux.  The report's program: 3000 times
 * malloc(1000000) and memset the block, then arena purge and
 * malloc_stats_print:
 *
 *   "3000 allocations of 1MB taking 6GB of RSS" (THP always)
 *   with THP never: the one jemalloc mapping Size 6,146,048 kB,
 *     Rss 2,977,568 kB, AnonHugePages 0 kB; VmRSS 2,978,244 kB,
 *     VmSize 6,154,784 kB
 *   jemalloc's stats, the same either way: Allocated 3,145,890,816,
 *     active 3,158,204,416, metadata 161,555,712, resident 3,319,599,104,
 *     mapped 6,293,553,152
 *   A maintainer asked "Possibly huge pages are used?"; the reporter
 *   confirmed that `echo never > .../transparent_hugepage/enabled` made
 *   RSS half.
 *
 * In one sentence: jemalloc 4 put each 1 MB block in a 2 MiB chunk of its
 * own, so half of every chunk was never touched; with THP always the
 * kernel backs the chunk's first touch with a whole 2 MiB huge page, and
 * the untouched half becomes resident too: RSS = mapped, twice the data.
 *
 * Mechanism (jemalloc 4.2 arena.c, chunk_mmap.c; read, not copied).  An
 * arena carves "large" runs (up to the chunk size) from 2 MiB chunks that
 * chunk_alloc_mmap maps 2 MiB-aligned (over-mapping and trimming when the
 * first mmap is not aligned).  A chunk starts with its header (arena_chunk_t
 * and its page map: map_bias pages; the report's metadata, 161,555,712 /
 * 3,000 = 53,852 bytes a chunk, is 13 pages).  1,000,000 bytes round up to
 * the 1 MiB size class, and the cache-oblivious large_pad adds a page:
 * 257 pages a run (the report's active, 3,158,204,416 = 3,000 x 1,052,672
 * + small runs).  512 - 13 - 257 = 242 pages are left: too few for a
 * second run, so each chunk holds one block and 1 MiB of nothing (mapped
 * 6,293,553,152 = 3,000 x 2 MiB + metadata chunks).  Without huge pages
 * those 242 pages are never touched and cost nothing (RSS 2,977,568 kB,
 * 992 kB a block).  With THP always the first touch of the chunk, aligned
 * and inside an eligible mapping, faults in a 2 MiB page: 6 GB.
 * jemalloc 5 replaced chunks with extents: a large allocation is an extent
 * of its size class plus the pad page (1 MiB + 4 KiB), carved one after
 * another from the same retained mappings (extent_alloc_retained,
 * extent_grow_retained), so consecutive blocks share their huge pages and
 * nothing but the pad's 48 KiB and the last huge page's tail is wasted.
 *
 * What is modelled:
 *  - layout=malloc: the report's program, under the allocator of the config:
 *    `count` times malloc(size) and memset it to 0 (the blocks are kept, as
 *    the report's leaked), then jemalloc's "arena.<all>.purge" when the
 *    allocator has mallctl (looked up with dlsym; jemalloc 5 spells "all
 *    arenas" 4096, 4.x narenas, as the report did).
 *  - layout=chunk: jemalloc 4.2's layout, with mmap directly (the allocator
 *    of the config is not used for it, so only glibc's configs run it, the
 *    others are skipped; only jemalloc 5.x can be run here): per block
 *    a 2 MiB chunk mapped 2 MiB-aligned, its header written (the first page
 *    and the first page of the page map: 2 of its 13 pages, which is what
 *    the report's RSS without THP leaves for the header: 2,977,568 kB /
 *    3,000 - 980 KiB of block = 3 pages with the pad), the run after the
 *    13 header pages, the block at a random cache-line offset in the run's
 *    first page (large_pad), memset to 0.
 *  - thp=always: huge pages for this memory as THP always gives them: the
 *    allocators' own switches (MALLOC_CONF thp:always, glibc's
 *    glibc.malloc.hugetlb=1, MIMALLOC_LARGE_OS_PAGES=1; see
 *    lib/mr_thread.h, fork-blowup.c), and with layout=chunk the case's own
 *    madvise(MADV_HUGEPAGE) on each chunk, since this machine is in madvise
 *    mode.  thp=default leaves the machine's mode: where it is "always",
 *    thp=default is thp=always (claims say which they need).
 *  - checkpoints: start, and allocated (after the loop and the purge: the
 *    report's malloc_stats_print and smaps).  The summary line gives
 *    AnonHugePages (smaps_rollup).
 *
 * Left out: jemalloc 4 itself (not packaged for any release memrepro can
 * fetch), its small runs and thread cache, and khugepaged (whatever it
 * collapses later only adds to what the fault-time huge pages show).
 * The report's sizes need 3 GB (6 GB with huge pages, layout=chunk): the
 * full profile must be run with -j 1 on a machine with that much free.
 * It took 528 s here (`memrepro run jemalloc-chain-thp --profile full
 * -j 1`, 30 runs, 18 skipped; peak RSS 6,145,500 KiB), 254 s of it the
 * three layout=chunk thp=always runs: the kernel zeroing 6 GB of fresh
 * huge pages (clear_page_erms in perf) ran at 60-100 MB/s on this VM,
 * where the same memory reused a moment later zeroes in about a second.
 * The quick profile (32 blocks) took 1.7 s in all.
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_proc.h"
#include "mr_thread.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "count", "3000", "32", "int:1..100000", NULL,
	  "allocations, each kept (report: 3000)" },
	{ "size", "1000000", NULL, "int:4096..4194304", NULL,
	  "bytes per allocation, memset to 0 (report: malloc(1000000))" },
	{ "layout", "malloc", NULL, "malloc|chunk", "malloc|chunk",
	  "malloc: the report's program under the allocator; chunk: jemalloc 4.2's layout, one 2 MiB chunk per block, with mmap" },
	{ "thp", "default", NULL, "default|always", "default|always",
	  "transparent huge pages: as the machine is, or madvised (allocator's switch; the case's own for chunks)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first allocation" },
	{ "allocated", "every block allocated and filled, arenas purged (the report's stats and smaps)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "jemalloc-chain-thp",
	.title = "3,000 blocks of 1 MB: 6 GB of RSS with jemalloc 4's 2 MiB chunks and THP, 3 GB without",
	.source = "jemalloc/jemalloc#468 (2016, jemalloc 4.2.1, lg_chunk 21): 3000 x malloc(1000000) "
		  "\"taking 6GB of RSS\" with THP; with THP never Rss 2,977,568 kB of a 6,146,048 kB "
		  "mapping; allocated 3,145,890,816, mapped 6,293,553,152",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "hugepages",
};

#define CHUNK_BYTES ((size_t)2 << 20) /* opt.lg_chunk 21 */
#define MAP_BIAS_PAGES 13              /* header pages, from the report's metadata */
#define HEADER_TOUCHED_PAGES 2         /* arena_chunk_t, the first page-map page */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* chunk_alloc_mmap: a CHUNK_BYTES mapping aligned to CHUNK_BYTES, by
 * over-mapping and trimming the ends. */
static char *chunk_map(void)
{
	char *p = mmap(NULL, 2 * CHUNK_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;
	size_t lead;

	if (p == MAP_FAILED)
		mr_fail("mmap of a chunk:");
	a = ((uintptr_t)p + CHUNK_BYTES - 1) & ~(uintptr_t)(CHUNK_BYTES - 1);
	lead = a - (uintptr_t)p;
	if (lead && munmap(p, lead) < 0)
		mr_fail("munmap:");
	if (munmap((char *)a + CHUNK_BYTES, CHUNK_BYTES - lead) < 0)
		mr_fail("munmap:");
	return (char *)a;
}

/* One block in a chunk of its own, as jemalloc 4.2 placed a 1 MiB run. */
static char *chunk_block(size_t size, int huge)
{
	long page = sysconf(_SC_PAGESIZE);
	char *c = chunk_map(), *run, *p;
	int i;

	if (huge && madvise(c, CHUNK_BYTES, MADV_HUGEPAGE) < 0)
		mr_fail("madvise(MADV_HUGEPAGE):");
	for (i = 0; i < HEADER_TOUCHED_PAGES; i++)
		c[(size_t)i * (size_t)page] = 1; /* arena_chunk_init */
	run = c + MAP_BIAS_PAGES * (size_t)page;
	p = run + (next_rand() % ((size_t)page / 64)) * 64; /* large_pad */
	memset(p, 0, size);
	return p;
}

/* Non-zero when an allocator other than glibc's serves malloc: one of
 * their own entry points is in the process. */
static int other_allocator(void)
{
	return dlsym(RTLD_DEFAULT, "mallctl") || dlsym(RTLD_DEFAULT, "tc_malloc") ||
	       dlsym(RTLD_DEFAULT, "mi_malloc");
}

/* The report's jemalloc_purge(): every arena's dirty pages, where the
 * allocator is jemalloc. */
static int arenas_purge(void)
{
	int (*ctl)(const char *, void *, size_t *, void *, size_t);

	*(void **)&ctl = dlsym(RTLD_DEFAULT, "mallctl");
	if (!ctl)
		return 0;
	return ctl("arena.4096.purge", NULL, NULL, NULL, 0) == 0 ? 1 : -1;
}

/* The process's AnonHugePages (smaps_rollup), -1 when it cannot be read. */
static long smaps_huge_kb(void)
{
	struct mr_rollup r;

	return mr_proc_rollup(0, &r) < 0 ? -1 : (long)r.anon_huge_kb;
}

int main(int argc, char **argv)
{
	size_t n, size, i;
	char **blocks;
	int chunk, huge, purged = 0;
	char line[512];
	int len;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	n = (size_t)mr_param_int("count");
	size = (size_t)mr_param_int("size");
	chunk = mr_param_is("layout", "chunk");
	huge = mr_param_is("thp", "always");
	if (chunk && size + (MAP_BIAS_PAGES + 1) * (size_t)sysconf(_SC_PAGESIZE) > CHUNK_BYTES)
		mr_usage("size=%zu does not fit a 2 MiB chunk after its header", size);
	if (chunk && other_allocator())
		mr_skip("layout=chunk maps its chunks itself, the allocator takes no part: run under glibc only");
	if (!(blocks = calloc(n, sizeof *blocks)))
		mr_fail("calloc:");
	mr_checkpoint("start");

	for (i = 0; i < n; i++) {
		if (chunk) {
			blocks[i] = chunk_block(size, huge);
		} else {
			if (!(blocks[i] = malloc(size)))
				mr_fail("malloc of block %zu:", i + 1);
			/* Between the two, so that the compiler cannot fold
			 * malloc+memset(0) into a calloc that touches nothing. */
			mr_keep(blocks[i]);
			memset(blocks[i], 0, size);
		}
		mr_keep(blocks[i]);
	}
	if (!chunk && (purged = arenas_purge()) < 0)
		mr_fail("mallctl arena.4096.purge failed");
	mr_checkpoint("allocated");

	len = snprintf(line, sizeof line,
		       "jemalloc-chain-thp: %zu blocks of %zu bytes, layout %s, thp %s, arenas purged: %s; "
		       "AnonHugePages %ld KiB\n",
		       n, size, mr_param("layout"), mr_param("thp"),
		       chunk ? "-" : purged ? "yes" : "no mallctl", smaps_huge_kb());
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	for (i = 0; i < n; i++) {
		if (!chunk)
			free(blocks[i]);
		else if (munmap((void *)((uintptr_t)blocks[i] & ~(uintptr_t)(CHUNK_BYTES - 1)),
				CHUNK_BYTES) < 0)
			mr_fail("munmap:");
	}
	free(blocks);
	return MR_EXIT_OK;
}
