/* jemalloc-retain-thp: small allocations grow, most are freed and purged,
 * then RSS climbs back to the whole of jemalloc's mappings: khugepaged
 * collapses every 2 MiB range that kept a page, under THP always.
 *
 * Source: facebook/jemalloc#46, "Noticing absurd RSS usage with
 * opt.retain=true on Linux 64-bit" (2025-10-02; closed), Asterisk on RHEL
 * 9 (kernel 5.14.0-427), jemalloc defaults (retain on, thp default), on
 * OpenShift nodes with /sys/kernel/mm/transparent_hugepage/enabled =
 * always.  Figures as printed (the RSS curves are screenshots):
 *   "tens of thousands of very small memory allocations (~900 bytes on
 *   average)"; memory grows during a load test, goes down as users log out
 *   and memory is freed, then goes back up until jemalloc's mmap'd regions
 *   are "100 %" resident (smaps and malloc_stats_print);
 *   opt.retain=false: the rise does not happen; thp:never,
 *   metadata_thp:disabled: "the RSS issue is fully gone"; THP madvise
 *   instead of always: gone too.  The reporter presumed khugepaged.
 *
 * In one sentence: jemalloc with opt.retain keeps its freed and purged
 * memory inside large, 2 MiB-aligned mappings; under THP always khugepaged
 * later collapses each 2 MiB range that still has a page in use into a
 * huge page, so the purged pages around the survivors come back, zeroed and
 * resident, until RSS is what jemalloc has mapped.
 *
 * Mechanism (jemalloc 5.3 src/extent.c extent_grow_retained and
 * extent_alloc_retained, src/extent_mmap.c, src/pages.c
 * pages_set_thp_state, src/exp_grow.c; Linux mm/khugepaged.c; read, not
 * copied).  With opt.retain (the default on 64-bit Linux) jemalloc grows
 * each arena's address space in a geometric series of mappings (2 MiB
 * first, then larger size classes), carves extents and slabs from them,
 * and never unmaps: a freed extent decays (dirty_decay_ms, 10 s; muzzy
 * decay 0 since 5.2) and is purged with MADV_DONTNEED, its pages gone but
 * its range kept ("retained").  Small objects live in slabs of a few
 * pages; after most objects are freed, a slab with one survivor stays, the
 * others are purged: RSS falls.  The mappings carry no advice with
 * opt.thp=default, so under THP always they are eligible, and khugepaged,
 * scanning every process's anonymous mappings in the background (4,096
 * pages every 10 s by default), collapses any aligned 2 MiB range with at
 * most max_ptes_none (511 of 512) empty entries: one page in use is
 * enough.  The new huge page copies the live pages and zero-fills the
 * rest: the purged pages become resident again, and jemalloc's stats
 * (resident) do not see it.  opt.thp=never makes jemalloc madvise its
 * extents MADV_NOHUGEPAGE (pages_set_thp_state; where the system mode is
 * not never), and its metadata's base blocks since jemalloc/jemalloc#1704
 * (5.3: with 5.2.1 one such 2 MiB block still collapses), which
 * khugepaged honours.  opt.retain=false
 * unmaps freed extents instead of purging them in place: the survivors'
 * ranges are broken by holes, and no 2 MiB range with a hole collapses.
 * THP madvise: khugepaged only scans MADV_HUGEPAGE mappings.
 * "hugepages", not "reservations": the retained address space costs
 * nothing until huge pages are made over it; it is the collapse that makes
 * the memory resident.
 *
 * What is modelled:
 *  - load: `objects` allocations of 450..1350 bytes (mean `bytes`, 900),
 *    each filled (sessions being set up);
 *  - logout: all but one in `keep_every` freed (sessions that end; the
 *    survivors are spread over the whole heap, as long-lived state is);
 *  - decayed: what the allocator returns of its own accord once its
 *    delay has passed, made immediate: jemalloc's decay by mallctl
 *    "arena.4096.purge" (every arena), tcmalloc's release by
 *    MallocExtension_ReleaseFreeMemory, mimalloc's purge by
 *    mi_collect(true), each looked up with dlsym; glibc returns nothing of
 *    its own accord below the heap's top (no call);
 *  - collapsed: one khugepaged pass over the process, done synchronously by
 *    the case: for every anonymous private writable mapping in
 *    /proc/self/maps (the heap included, the stack not), every aligned 2 MiB
 *    range inside it with at least 512 - max_ptes_none resident pages
 *    (mincore; max_ptes_none read from sysfs, 511 by default) is collapsed
 *    with madvise(MADV_COLLAPSE) (Linux 6.1+), which refuses ranges
 *    advised MADV_NOHUGEPAGE as khugepaged skips them.  What a THP-always
 *    machine's khugepaged does over minutes, independent of this machine's
 *    THP mode and of when khugepaged would have come by: the claims depend
 *    on this pass, never on the kernel's own khugepaged running within the
 *    case's time (with thp=always the allocators' regions are madvised and
 *    the kernel's khugepaged may collapse some of them earlier, on this
 *    machine in madvise mode: it can only make `decayed` higher).  A range
 *    the kernel cannot find a huge page for is counted as failed (summary
 *    line).  A kernel that refuses MADV_COLLAPSE outright (before 6.1, or
 *    without THP) skips the case: a probe on a mapping of its own, before
 *    the start checkpoint.
 *  - thp=always: the allocators' own switches (MALLOC_CONF thp:always,
 *    glibc.malloc.hugetlb=1, MIMALLOC_LARGE_OS_PAGES=1; lib/mr_thread.h):
 *    huge pages at fault time for the load as well.
 *  - `--axis jemalloc.thp=never` and `--axis jemalloc.retain=false` (the
 *    claims file adds both): the report's two fixes.
 *
 * Left out: Asterisk, its threads (one arena here, the report's had
 * several: each would show the same), time (khugepaged's pace, decay's
 * 10 s), and khugepaged's other limits (max_ptes_swap, max_ptes_shared:
 * nothing is swapped or shared here).
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_proc.h"
#include "mr_thread.h"
#include "mr_rand.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

static const struct mr_param params[] = {
	{ "objects", "100000", "20000", "int:100..5000000", NULL,
	  "small allocations live at the load's peak (report: tens of thousands)" },
	{ "bytes", "900", NULL, "int:16..16384", NULL,
	  "their mean size; each is 1/2 to 3/2 of it (report: ~900 bytes on average)" },
	{ "keep_every", "256", NULL, "int:1..1000000", NULL,
	  "one object in this many survives the logout, the others are freed" },
	{ "thp", "default", NULL, "default|always", "default|always",
	  "transparent huge pages: as the machine is, or madvised by the allocator (its own switch)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first allocation" },
	{ "load", "every object allocated and filled (the load test's peak)" },
	{ "logout", "all but one object in keep_every freed (users logged out)" },
	{ "decayed", "the allocator's own purge made immediate (jemalloc's decay)" },
	{ "collapsed", "after one khugepaged pass over the process (THP always's)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "jemalloc-retain-thp",
	.title = "Freed and purged, then resident again: khugepaged over jemalloc's retained mappings (THP always)",
	.source = "facebook/jemalloc#46 (2025, jemalloc defaults, RHEL 9, THP always): ~900-byte allocations; "
		  "RSS down as users log out, then back up to 100 % of jemalloc's mmap'd regions; "
		  "fixed by opt.retain=false, by thp:never, by THP madvise",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "hugepages",
};

#define HUGE_BYTES ((size_t)2 << 20)
#define HUGE_PAGES 512

static uint64_t rng = MR_RAND_SEED;

static uint64_t next_rand(void)
{
	return mr_xorshift64(&rng);
}

/* The allocator's own return of free memory, where it has one; returns its
 * name, or "none". */
static const char *allocator_purge(void)
{
	int (*ctl)(const char *, void *, size_t *, void *, size_t);
	void (*release)(void);
	void (*collect)(int);

	if ((*(void **)&ctl = dlsym(RTLD_DEFAULT, "mallctl"))) {
		if (ctl("arena.4096.purge", NULL, NULL, NULL, 0) != 0)
			mr_fail("mallctl arena.4096.purge failed");
		return "jemalloc decay";
	}
	if ((*(void **)&release = dlsym(RTLD_DEFAULT, "MallocExtension_ReleaseFreeMemory"))) {
		release();
		return "tcmalloc release";
	}
	if ((*(void **)&collect = dlsym(RTLD_DEFAULT, "mi_collect"))) {
		collect(1);
		return "mimalloc purge";
	}
	return "none";
}

/* --- one khugepaged pass ------------------------------------------------- */

struct pass {
	long collapsed; /* 2 MiB ranges made huge */
	long refused;   /* EINVAL: advised MADV_NOHUGEPAGE (or not THP-able) */
	long failed;    /* other errors: no huge page to be had */
	long skipped;   /* too few resident pages for khugepaged */
};

static char maps[1 << 20]; /* /proc/self/maps, read once per pass */

static int max_ptes_none(void)
{
	char buf[32];
	long v;

	if (mr_proc_read("/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none",
			 buf, sizeof buf) < 0)
		return HUGE_PAGES - 1;
	v = strtol(buf, NULL, 10);
	return v < 0 || v > HUGE_PAGES - 1 ? HUGE_PAGES - 1 : (int)v;
}

static void collapse_range(char *a, int need, struct pass *ps)
{
	static unsigned char vec[HUGE_PAGES];
	int i, resident = 0;

	if (mincore(a, HUGE_BYTES, vec) < 0) {
		ps->skipped++;
		return;
	}
	for (i = 0; i < HUGE_PAGES; i++)
		resident += vec[i] & 1;
	if (resident < need) {
		ps->skipped++;
		return;
	}
	if (madvise(a, HUGE_BYTES, MADV_COLLAPSE) == 0)
		ps->collapsed++;
	else if (errno == EINVAL)
		ps->refused++;
	else
		ps->failed++;
}

/* The next blank-separated field of a maps line, or NULL at its end. */
static char *field(char **p)
{
	char *f;

	while (**p == ' ')
		(*p)++;
	if (**p == 0 || **p == '\n')
		return NULL;
	f = *p;
	while (**p && **p != ' ' && **p != '\n')
		(*p)++;
	if (**p == ' ')
		*(*p)++ = 0;
	else if (**p == '\n')
		**p = 0; /* the caller moved past it already */
	return f;
}

/* Every anonymous, private, writable mapping but the stack: what
 * khugepaged scans.  Parsed by hand (no stdio while measured). */
static void khugepaged_pass(struct pass *ps)
{
	int need = HUGE_PAGES - max_ptes_none();
	long len = mr_proc_read("/proc/self/maps", maps, sizeof maps);
	char *line, *next;

	if (len < 0)
		mr_fail("read /proc/self/maps: %s", strerror((int)-len));
	for (line = maps; *line; line = next) {
		char *range, *perms, *inode, *path, *dash;
		uintptr_t start, end, a;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		range = field(&line);
		perms = field(&line);
		(void)field(&line); /* offset */
		(void)field(&line); /* device */
		inode = field(&line);
		path = field(&line);
		if (!range || !perms || !inode || strcmp(perms, "rw-p") || strcmp(inode, "0") ||
		    (path && strcmp(path, "[heap]")) || !(dash = strchr(range, '-')))
			continue;
		start = (uintptr_t)strtoull(range, NULL, 16);
		end = (uintptr_t)strtoull(dash + 1, NULL, 16);
		for (a = (start + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1);
		     a + HUGE_BYTES <= end; a += HUGE_BYTES)
			collapse_range((char *)a, need, ps);
	}
}

/* MADV_COLLAPSE on a range of its own with one page touched: skip the
 * case where the kernel refuses it (before Linux 6.1, or without THP);
 * ENOMEM or EAGAIN (no huge page to be had just now) do not skip. */
static void collapse_probe(void)
{
	char *p = mmap(NULL, 2 * HUGE_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;
	int err = 0;

	if (p == MAP_FAILED)
		mr_fail("mmap:");
	a = (char *)(((uintptr_t)p + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1));
	a[0] = 1;
	if (madvise(a, HUGE_BYTES, MADV_COLLAPSE) < 0)
		err = errno;
	munmap(p, 2 * HUGE_BYTES);
	if (err == EINVAL)
		mr_skip("madvise(MADV_COLLAPSE) refused (Linux 6.1+ with THP): no khugepaged pass to model");
}

/* The process's AnonHugePages (smaps_rollup), -1 when it cannot be read. */
static long smaps_huge_kb(void)
{
	struct mr_rollup r;

	return mr_proc_rollup(0, &r) < 0 ? -1 : (long)r.anon_huge_kb;
}

int main(int argc, char **argv)
{
	size_t n, mean, every, i, kept = 0;
	unsigned char **objs;
	struct pass ps = { 0 };
	const char *purge;
	char line[512];
	int len;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	n = (size_t)mr_param_int("objects");
	mean = (size_t)mr_param_int("bytes");
	every = (size_t)mr_param_int("keep_every");
	collapse_probe();
	if (!(objs = calloc(n, sizeof *objs)))
		mr_fail("calloc:");
	mr_checkpoint("start");

	for (i = 0; i < n; i++) {
		size_t sz = mean / 2 + (size_t)(next_rand() % (mean + 1));

		if (!(objs[i] = malloc(sz)))
			mr_fail("malloc of object %zu:", i + 1);
		memset(objs[i], (int)(i & 0x7f) | 1, sz);
		mr_keep(objs[i]);
	}
	mr_checkpoint("load");

	for (i = 0; i < n; i++) {
		if (i % every == every / 2) {
			kept++;
			continue;
		}
		free(objs[i]);
		objs[i] = NULL;
	}
	mr_checkpoint("logout");

	purge = allocator_purge();
	mr_checkpoint("decayed");

	khugepaged_pass(&ps);
	mr_checkpoint("collapsed");

	for (i = 0; i < n; i++)
		if (objs[i] && objs[i][0] != ((i & 0x7f) | 1))
			mr_fail("object %zu changed under the collapse", i);
	len = snprintf(line, sizeof line,
		       "jemalloc-retain-thp: %zu objects of ~%zu bytes, %zu kept, thp %s, purge: %s; "
		       "khugepaged pass: %ld ranges collapsed, %ld refused (MADV_NOHUGEPAGE), "
		       "%ld failed, %ld with too few pages; AnonHugePages %ld KiB\n",
		       n, mean, kept, mr_param("thp"), purge, ps.collapsed, ps.refused,
		       ps.failed, ps.skipped, smaps_huge_kb());
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	for (i = 0; i < n; i++)
		free(objs[i]);
	free(objs);
	return MR_EXIT_OK;
}
