/* mimalloc-first-alloc: one 256-byte allocation, and mimalloc reserves tens
 * of MiB of address space (a GiB since its arenas).
 *
 * Source: microsoft/mimalloc#966, "mi_new(256) distribute 64M Virtual
 * Memory" (2024-11-28, closed).  A C++ program calls mi_new(256) once
 * under mimalloc 2.0.6 and spins; `top` shows "the VIRT increase 64M",
 * and the reporter, who runs "many robot process", asks whether the value
 * can be decreased.  The thread has no other figure (no RSS, no reply
 * with numbers).
 *
 * In one sentence: mimalloc takes its first memory from the OS as a whole
 * segment (v2) or arena (v2.1 on, v3), reserved up front and only touched
 * where blocks are, so one small allocation costs a process tens of MiB of
 * VSZ (a GiB from v2.1 on) and a few pages of RSS.
 *
 * Mechanism (mimalloc sources, read, not copied).
 *  - v2.0.x: small blocks live in 64 KiB pages inside segments owned by a
 *    thread, and a segment is allocated from the OS whole, aligned to its
 *    size (src/segment.c mi_segment_os_alloc, src/os.c
 *    mi_os_mem_alloc_aligned: an mmap at an aligned hint address, else an
 *    over-allocation trimmed on both sides).  The 2.0.x headers of the
 *    report's time set MI_SEGMENT_SHIFT to 10 + the 64 KiB slice shift:
 *    64 MiB, the report's "VIRT increase 64M".  By 2.0.9 (Debian's, the
 *    host's here) it is 9 + 16: a 32 MiB segment, measured as +32,768 KiB.
 *    The segment size is a compile-time constant: 2.0.x has no option to
 *    lower it (MIMALLOC_ARENA_RESERVE does not exist there and is ignored).
 *  - v2.1 and v3: segments (v2) or pages (v3) come from arenas, and the
 *    first allocation reserves one: mi_arena_reserve takes
 *    mi_option_arena_reserve (MIMALLOC_ARENA_RESERVE, default 1 GiB on
 *    64-bit), at least MI_ARENA_MIN_SIZE (32 MiB in 3.0.1; 3.6.0 also adds
 *    room for its meta-data), and grows it for later arenas.  Measured
 *    (`memrepro run mimalloc-first-alloc --axis
 *    allocator=mimalloc@3.0.1,mimalloc@3.6.0 --axis libc=2.43 --axis
 *    mimalloc.arena_reserve=1MiB,32MiB,256MiB`): +32,832, +32,832 and
 *    +262,208 KiB with 3.0.1, +65,600, +65,600 and +262,208 with 3.6.0.
 *    The arena is mapped read-write when the OS overcommits
 *    (mi_option_arena_eager_commit=2, the default, with MAP_NORESERVE: one
 *    rw-p mapping of 1 GiB in /proc/PID/maps), PROT_NONE and committed on
 *    demand otherwise; either way VSZ counts all of it and RSS only the
 *    touched pages.  MIMALLOC_ARENA_RESERVE=0 makes v3 take each page from
 *    the OS on its own (+128 KiB of VSZ with 3.0.1, +192 with 3.6.0),
 *    which is the answer to the report's question since v2.1.
 *  - mimalloc 3.6's allow_thp option (default on, not in 3.0.1) madvises its
 *    arenas MADV_HUGEPAGE (src/prim/unix/prim.c), so on a machine in THP
 *    madvise mode the first touched page of the arena is a 2 MiB huge page:
 *    RSS +2,068 KiB for one 256-byte block, against +188 with 3.0.1.
 *  - glibc serves the block from the main arena's brk heap (+132 KiB:
 *    the request rounded up with M_TOP_PAD's 128 KiB); jemalloc and tcmalloc
 *    set up their heaps in constructors that run before main, so their
 *    first allocation adds nothing (their start-up cost is already in the
 *    "start" checkpoint: 14 MiB of VSZ more than glibc's, their libraries
 *    included).
 *
 * What is modelled: the report's program in C: one malloc(size) (preloaded,
 * mimalloc's mi_malloc; mi_new is mi_malloc with C++'s out-of-memory
 * handling on top), written once so the compiler cannot drop it, with
 * a checkpoint before and after (the report's two looks at `top`).  Nothing
 * before the "start" checkpoint allocates: lib's argument parsing and the
 * checkpoint channel use no malloc, so the allocator's first allocation is
 * the block's.  thp=always re-executes the case with each allocator's own
 * switch for huge pages (lib/mr_thread.h: MIMALLOC_LARGE_OS_PAGES=1,
 * MALLOC_CONF=thp:always, glibc.malloc.hugetlb=1), since this machine is in
 * madvise mode: with it mimalloc 2.0.9 madvises its segment and the touched
 * part becomes a 2 MiB huge page.
 *
 * Left out: the C++ runtime (the report calls mi_new itself; linked
 * without mimalloc's malloc override, libstdc++'s own allocations at
 * start-up go to the C library and mi_new's is mimalloc's first, as the
 * case's malloc is here), the spinning main loop, and the many processes
 * (each pays the same).
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_proc.h"
#include "mr_thread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "size", "256", NULL, "int:1..16777216", NULL,
	  "bytes allocated once (report: mi_new(256))" },
	{ "thp", "default", NULL, "default|always", "default|always",
	  "transparent huge pages for the allocator's memory: as the machine is, or madvised by the allocator (THP=always)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first allocation (the report's first look at top)" },
	{ "allocated", "after one malloc(size), written (the report's VIRT +64M)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "mimalloc-first-alloc",
	.title = "One 256-byte allocation: mimalloc reserves a 64 MiB segment (2.0.6), a 1 GiB arena (v3)",
	.source = "microsoft/mimalloc#966 (2024-11-28): mi_new(256) in mimalloc 2.0.6, "
		  "top's VIRT +64M for one 256-byte allocation",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 30,
	.mechanism = "reservations",
};

int main(int argc, char **argv)
{
	struct mr_statm before, after;
	size_t size;
	char *p, line[256];
	int len;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	size = (size_t)mr_param_int("size");

	if (mr_proc_statm(0, &before) < 0)
		mr_fail("reading /proc/self/statm");
	mr_checkpoint("start");

	/* mi_new(256) */
	p = malloc(size);
	if (p)
		memset(p, 0x5a, size);
	else
		mr_fail("malloc(%zu) failed", size);
	mr_keep(p);
	if (mr_proc_statm(0, &after) < 0)
		mr_fail("reading /proc/self/statm");
	mr_checkpoint("allocated");

	len = snprintf(line, sizeof line,
		       "mimalloc-first-alloc: malloc(%zu) = %p, thp %s: VSZ %llu -> %llu KiB (%+lld), "
		       "RSS %llu -> %llu KiB (%+lld)\n",
		       size, (void *)p, mr_param("thp"),
		       (unsigned long long)before.vsz_kb, (unsigned long long)after.vsz_kb,
		       (long long)after.vsz_kb - (long long)before.vsz_kb,
		       (unsigned long long)before.rss_kb, (unsigned long long)after.rss_kb,
		       (long long)after.rss_kb - (long long)before.rss_kb);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	free(p);
	return MR_EXIT_OK;
}
