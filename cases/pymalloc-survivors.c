/* pymalloc-survivors: millions of small objects, 99 % freed, 1 % left
 * scattered — the survivors pin pymalloc's arenas (and malloc's heap).
 *
 * Source: nt-nerdtechnic/Navide#23, "Backend retains 4.1 GB after 19 h:
 * 4012 pymalloc arenas (CPython 3.12, 1 MB each) never returned to the
 * OS" (2026-08-18; macOS arm64, a PyInstaller-bundled CPython 3.12).  The
 * report: "3.9 GB is 4012 retained 1 MB anonymous mappings" of a 4.1 GB
 * footprint.  The maintainer's reply the same day reproduced it ("same
 * workload, same machine"; footprint, MB):
 *
 *                                        pymalloc   PYTHONMALLOC=malloc
 *   peak, 4M live small objects            870.8         871.2
 *   after freeing 99%, 1% scattered        871.1         871.2
 *   after freeing everything                44.8         343.1
 *   churn benchmark                        1.62 s        2.14 s
 *
 * and "2,000,000 short-lived str/list allocations, 1,000 survivors:
 * arenas 3 -> 3, footprint 10.3M -> 10.8M" (short-lived churn reuses
 * pools).  The program itself is not in the thread: cases/
 * pymalloc-survivors.py is that workload as described.
 *
 * In one sentence: pymalloc returns an arena to the system only when every
 * pool in it is empty, and one live object keeps its pool and so its
 * arena, so one survivor in a hundred, scattered, keeps every arena; under
 * glibc malloc the same survivors sit between free chunks below the heap's
 * top, and glibc trims the heap only from its top.
 *
 * Mechanism (CPython Objects/obmalloc.c, 3.9 and 3.11-3.13, read, not
 * copied).  Requests of at most 512 bytes are pymalloc's: rounded up to a
 * 16-byte size class, served from a pool (4 KiB until 3.9, 16 KiB from
 * 3.10 on 64-bit; a 48-byte header, then blocks of one class) carved from
 * an arena (256 KiB until 3.9, 1 MiB from 3.10), which is one mmap.  A
 * freed block goes on its pool's free list; a pool whose last block is
 * freed goes back to its arena's list of free pools, still mapped and
 * resident (pymalloc never madvises); an arena whose pools are all free is
 * munmapped (3.9 on, bpo-37257: unless it is the only usable arena, kept
 * against thrashing).  New pools come from the usable arena with the
 * fewest free pools, so that the emptier ones can empty.  Objects created
 * one after the other fill pools and arenas in order; freeing 99 % of
 * them, every hundredth kept, leaves about one block in most pools (100
 * objects of 208 bytes span 1.3 pools of 16 KiB) and tens in every arena:
 * no arena empties, and RSS stays at the peak.  Freeing the rest empties
 * them all and gives them back.  Under PYTHONMALLOC=malloc every object is
 * a glibc malloc chunk of the main heap (brk); freed chunks between
 * survivors are binned, not returned (only malloc_trim would madvise
 * them), and after everything is freed the heap shrinks only down to the
 * highest chunk still in use: any allocation made after the objects and
 * kept (the interpreter's own: a frame, an I/O buffer, a dict) holds all
 * of it (measured with the real interpreter, below).
 *
 * What is modelled: `objects` objects of `size` bytes (a str of ~157
 * characters: the report's 870.8 MB for 4M objects and their list is
 * ~210 bytes each), written whole, their pointers in one array (the list:
 * malloc'd, large: mmap); then a new array of every `keep`-th (the
 * program's objs[::100]), the old array freed and the other objects freed
 * in creation order (`survivors`); then the survivors and their array
 * freed (`freed`).  alloc=pymalloc serves the objects from a model of
 * pymalloc's arenas and pools (arena_kb, pool_kb: 1024 and 16 are 3.10+,
 * 256 and 4 are 3.9's); alloc=malloc from malloc (the allocator axis's).
 * One late allocation is made after the objects and kept to the end, from
 * the same allocator (pymalloc: one more object; malloc: 64 bytes): the
 * interpreter's bookkeeping.  Under glibc it is what keeps the freed heap
 * (measured quick, a build without it: peak 23.5 MiB, freed 1.5 MiB, all
 * trimmed); the real interpreter keeps it all (below), so it stays.
 *
 * The sizes: the report's 4,000,000 objects (~840 MiB); quick 100,000
 * (~21 MiB).
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, THP madvise, 2 CPUs; RSS
 * MiB at peak / survivors / freed, the report's 4M objects, `memrepro run
 * --profile full --axis allocator=glibc --axis runtime=c,python@3.13`):
 * the model pymalloc 834.4 / 804.2 / 2.9, malloc 886.4 / 856.2 / 855.9;
 * the original on Debian's 3.13.5 pymalloc 841.4 / 811.2 / 10.6,
 * PYTHONMALLOC=malloc 833.3 / 803.1 / 802.8 (report 870.8 / 871.1 / 44.8
 * and 871.2 / 871.2 / 343.1).  On glibc, malloc keeps all of what the
 * report's macOS malloc kept 343.1 MB of.  Quick, in the claims.
 *
 * Left out: the report's real process (22 panes, 61 threads, 19 hours,
 * swapped out: a footprint of 4.1 GB, 41.6 MB resident), pymalloc's size
 * classes other than the objects' one (all objects are one size here),
 * the free-threaded build's mimalloc (3.13t), and the churn benchmark's
 * times.
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
	{ "objects", "4000000", "100000", "int:1000..100000000", NULL,
	  "small objects created and held (report: 4M live small objects)" },
	{ "keep", "100", NULL, "int:2..100000", NULL,
	  "one object in this many survives the first free (report: 1% scattered)" },
	{ "size", "208", NULL, "int:16..512", NULL,
	  "bytes of an object (a str of ~157 characters; pymalloc serves up to 512)" },
	{ "alloc", "pymalloc", NULL, "pymalloc|malloc", "pymalloc|malloc",
	  "the objects' allocator: pymalloc's arenas (CPython's default) or malloc (PYTHONMALLOC=malloc)" },
	{ "arena_kb", "1024", NULL, "int:64..65536", NULL,
	  "pymalloc's arena, one mmap (1 MiB from Python 3.10, 256 KiB before)" },
	{ "pool_kb", "16", NULL, "int:4..64", NULL,
	  "pymalloc's pool, blocks of one size class (16 KiB from Python 3.10, 4 KiB before)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "nothing allocated yet" },
	{ "peak", "every object created and held (report: 870.8 MB pymalloc, 871.2 malloc)" },
	{ "survivors", "all but one in keep freed, the survivors scattered (report: 871.1, 871.2)" },
	{ "freed", "every object freed (report: 44.8 pymalloc, 343.1 malloc)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "pymalloc-survivors",
	.title = "Small objects, 99% freed, 1% scattered survivors: pymalloc's arenas (and malloc's heap) stay pinned",
	.source = "nt-nerdtechnic/Navide#23 (CPython 3.12, 2026): 4,012 pymalloc arenas of 1 MB retained; "
		  "4M small objects 870.8 MB, 99% freed 871.1 MB, all freed 44.8 MB (PYTHONMALLOC=malloc 343.1 MB)",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "retention",
};

#define POOL_HEADER 48 /* obmalloc's struct pool_header on 64-bit */

/* A pool: a header's worth of bookkeeping kept beside it (the model's
 * state, not in the pool's pages, so that RSS is the blocks'). */
struct pool {
	char *base;       /* pool_kb, aligned to it */
	void *freelist;   /* freed blocks, linked through their first word */
	unsigned next;    /* blocks never handed out start here */
	unsigned used;    /* blocks in use */
};

struct arena {
	char *map;           /* the mmap; NULL once unmapped */
	struct pool *pools;  /* npools of them */
	unsigned npools, nfree; /* pools in it, pools wholly free (or never used) */
	unsigned carved;     /* pools handed out so far, in order */
};

static struct arena *arenas;
static size_t narenas, cap_arenas, arena_bytes, pool_bytes, block, per_pool;
static struct pool *cur; /* the pool serving the objects' size class */
static size_t live_arenas;

static struct arena *new_arena(void)
{
	struct arena *a;
	uintptr_t first;
	unsigned i;

	if (narenas == cap_arenas) {
		cap_arenas = cap_arenas ? 2 * cap_arenas : 64;
		arenas = realloc(arenas, cap_arenas * sizeof *arenas);
		if (!arenas)
			mr_fail("realloc:");
	}
	a = &arenas[narenas++];
	a->map = mmap(NULL, arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->map == MAP_FAILED)
		mr_fail("mmap of a %zu KiB arena:", arena_bytes >> 10);
	/* pools are aligned to their size: what the alignment wastes is lost */
	first = ((uintptr_t)a->map + pool_bytes - 1) & ~(uintptr_t)(pool_bytes - 1);
	a->npools = (unsigned)(((uintptr_t)a->map + arena_bytes - first) / pool_bytes);
	a->nfree = a->npools;
	a->carved = 0;
	a->pools = calloc(a->npools, sizeof *a->pools);
	if (!a->pools)
		mr_fail("calloc:");
	for (i = 0; i < a->npools; i++)
		a->pools[i].base = (char *)first + (size_t)i * pool_bytes;
	live_arenas++;
	return a;
}

/* A pool with a free block: the current one, else a free pool of the
 * usable arena with the fewest free pools (obmalloc's order), else a new
 * arena's first. */
static struct pool *pool_for_alloc(void)
{
	struct arena *best = NULL;
	size_t i;
	unsigned p;

	if (cur && (cur->freelist || cur->next < per_pool))
		return cur;
	for (i = 0; i < narenas; i++)
		if (arenas[i].map && arenas[i].nfree && (!best || arenas[i].nfree < best->nfree))
			best = &arenas[i];
	if (!best)
		best = new_arena();
	for (p = 0; p < best->npools; p++)
		if (best->pools[p].used == 0)
			break;
	best->nfree--;
	cur = &best->pools[p];
	cur->freelist = NULL;
	cur->next = 0;
	return cur;
}

static void *py_alloc(void)
{
	struct pool *p = pool_for_alloc();
	void *b;

	if (p->freelist) {
		b = p->freelist;
		p->freelist = *(void **)b;
	} else {
		b = p->base + POOL_HEADER + (size_t)p->next++ * block;
	}
	p->used++;
	return b;
}

static struct arena *arena_of(const char *b)
{
	size_t i;

	/* the model looks up; obmalloc reads the arena index from the pool's
	 * header (address_in_range) */
	for (i = narenas; i-- > 0;)
		if (arenas[i].map && b >= arenas[i].map && b < arenas[i].map + arena_bytes)
			return &arenas[i];
	mr_fail("a block %p in no arena", (const void *)b);
	return NULL;
}

static void py_free(void *b)
{
	struct arena *a = arena_of(b);
	struct pool *p = &a->pools[((uintptr_t)b - (uintptr_t)a->pools[0].base) / pool_bytes];

	*(void **)b = p->freelist;
	p->freelist = b;
	if (--p->used)
		return;
	/* the pool is empty: back to its arena; a wholly free arena is
	 * unmapped unless it is the only usable one (bpo-37257) */
	if (p == cur)
		cur = NULL;
	p->freelist = NULL;
	p->next = 0;
	if (++a->nfree == a->npools && live_arenas > 1) {
		if (munmap(a->map, arena_bytes) < 0)
			mr_fail("munmap:");
		free(a->pools);
		a->map = NULL;
		live_arenas--;
	}
}

static int pymalloc;

static void *obj_alloc(size_t n)
{
	void *p = pymalloc ? py_alloc() : malloc(n);

	if (!p)
		mr_fail("malloc(%zu):", n);
	return p;
}

static void obj_free(void *p)
{
	if (pymalloc)
		py_free(p);
	else
		free(p);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		mr_fail("malloc(%zu):", n);
	return p;
}

int main(int argc, char **argv)
{
	size_t n, keep, size, i, nkept, k;
	char **objs, **kept, *late, line[256];
	unsigned long sum = 0;
	int len;

	mr_case_init(&desc, argc, argv);
	n = (size_t)mr_param_int("objects");
	keep = (size_t)mr_param_int("keep");
	size = (size_t)mr_param_int("size");
	pymalloc = mr_param_is("alloc", "pymalloc");
	arena_bytes = (size_t)mr_param_int("arena_kb") << 10;
	pool_bytes = (size_t)mr_param_int("pool_kb") << 10;
	if (pool_bytes & (pool_bytes - 1) || pool_bytes * 2 > arena_bytes)
		mr_fail("pool_kb must be a power of two and at most half of arena_kb");
	block = (size + 15) & ~(size_t)15; /* obmalloc's 16-byte size classes */
	per_pool = (pool_bytes - POOL_HEADER) / block;
	mr_checkpoint("start");

	objs = xmalloc(n * sizeof *objs);
	for (i = 0; i < n; i++) {
		objs[i] = obj_alloc(size);
		memset(objs[i], 'a' + (int)(i % 26), size);
	}
	/* the interpreter's own allocation after the objects, kept */
	late = pymalloc ? obj_alloc(size) : xmalloc(64);
	memset(late, 'z', pymalloc ? size : 64);
	mr_checkpoint("peak");

	nkept = (n + keep - 1) / keep;
	kept = xmalloc(nkept * sizeof *kept);
	for (i = 0, k = 0; i < n; i += keep)
		kept[k++] = objs[i];
	for (i = 0; i < n; i++)
		if (i % keep)
			obj_free(objs[i]);
	free(objs);
	mr_checkpoint("survivors");

	for (k = 0; k < nkept; k++) {
		sum += (unsigned char)kept[k][size - 1];
		obj_free(kept[k]);
	}
	free(kept);
	mr_checkpoint("freed");

	len = snprintf(line, sizeof line,
		       "pymalloc-survivors: %zu objects of %zu bytes, 1 in %zu kept (checksum %lu), "
		       "alloc %s; arenas mapped: %zu of %zu, late %c\n",
		       n, size, keep, sum, mr_param("alloc"), pymalloc ? live_arenas : 0, narenas, late[0]);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	obj_free(late);
	return MR_EXIT_OK;
}
