/* two-allocators-strand: memory a C extension freed to glibc stays in
 * glibc's heap, where free-threaded CPython's objects (mimalloc's) never
 * look: the objects take new memory from the OS and RSS doubles.
 *
 * Source: python/cpython#156159, "Increased memory usage in the
 * free-threaded build with C extensions" (open; seeds/010_*.txt), and
 * #135153 ("Increased memory usage with mimalloc").  The report's program
 * says what it shows in its docstring: phase 1 churns medium buffers
 * through glibc malloc/free ("a C extension stand-in"), "keeping one live
 * block at the top of the arena so glibc cannot trim -> ~STRAND_MB of
 * resident, free-but-retained arena space" (STRAND_MB=2048); phase 2
 * allocates PYOBJ_MB of long-lived Python objects above the 512-byte
 * obmalloc threshold: "GIL build: served by glibc, reuses the stranded
 * space -> RSS flat.  -t build: served by mimalloc, asks the OS for new
 * memory -> RSS +2 GB."  TRIM=1 calls malloc_trim(0) after phase 1.  The
 * stored copy of the thread read here has the program's opening only: the
 * buffer size, PYOBJ_MB's default and the printed results are not in it.
 *
 * In one sentence: two allocators in one process do not share what they
 * have freed, so the free-but-resident space of one is dead weight to the
 * other.
 *
 * Mechanism.  glibc returns freed heap memory to the OS only from the
 * heap's top (when the free top passes M_TRIM_THRESHOLD) or on
 * malloc_trim(0), which also madvises the free pages inside the heap; one
 * live block above the freed buffers keeps the top, and so all of them,
 * resident.  In the default build pymalloc serves objects of at most 512
 * bytes and hands larger ones to PyMem_RawMalloc, the system malloc: they
 * are carved from glibc's free chunks, the stranded space.  In the
 * free-threaded build (3.13t, 3.14t) every object comes from CPython's own
 * mimalloc, which takes its memory from the OS with mmap (segments, tim-one
 * on #135153: "the granularity at which they request/free RAM from/to the
 * OS") and cannot see glibc's free lists: the objects fault in new pages
 * beside the stranded ones.  malloc_trim(0) after phase 1 (the report's
 * TRIM=1) gives the stranded pages back first, so the objects' new pages
 * replace them instead of adding to them.  (PR #148940 is a different
 * matter: the free-threaded GC deferring collections by RSS, which
 * mimalloc's slow return makes misleading; it does not touch this.)
 *
 * What is modelled: `strand_mb` of `buffer_kb` buffers malloc'd and
 * written (glibc's heap; below the 128 KiB mmap threshold, as "medium"
 * buffers must be to land in it), then one small block malloc'd above
 * them and kept (the pin), then every buffer freed; trim=malloc_trim calls
 * malloc_trim(0) there.  Then `obj_mb` of `obj_b`-byte objects, written
 * whole and kept: objects=malloc from malloc (the GIL build),
 * objects=arena from memory the case maps itself in `chunk_mb` pieces and
 * hands out in order (an allocator of its own, as CPython's mimalloc is:
 * the allocator axis cannot reach it).  The malloc side is the allocator
 * axis's: the claims are glibc's; jemalloc and mimalloc preloaded purge
 * freed memory on their own clocks.
 *
 * The sizes: the report's 2048 MiB stranded and 2048 MiB of objects
 * ("+2 GB"); quick 64 and 64.  The buffer (64 KiB) and object (1 KiB)
 * sizes are the model's: the thread read here does not print them.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs, THP always; `memrepro
 * run two-allocators-strand --repeat 1 --axis allocator=glibc --axis
 * trim=none --axis runtime=c,python@3.13`, the report's sizes): RSS KiB at
 * stranded / objects, objects=malloc 2,099,068 / 2,147,708 (flat),
 * objects=arena 2,099,068 / 4,196,220 (+2 GiB); the original on 3.13.5
 * 1,680,244 / 2,252,280 and 1,681,128 / 4,416,736 (its header says why it
 * strands less).  Quick, and under the other allocators, in the claims.
 *
 * Left out: threads (the free-threaded build's point, not this report's),
 * mimalloc's own retention of what Python frees (#135153), the pymalloc
 * objects of at most 512 bytes, and the 3.15 change routing
 * PyMem_RawMalloc to mimalloc (#144914: C code calling malloc directly is
 * unchanged by it).
 *
 * No musl build: it calls glibc's malloc_trim and mallinfo2, which musl's
 * libc lacks.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "strand_mb", "2048", "64", "int:1..65536", NULL,
	  "MiB of medium buffers malloc'd, then freed below a kept block (report: STRAND_MB=2048)" },
	{ "buffer_kb", "64", NULL, "int:1..120", NULL,
	  "KiB of a buffer (below glibc's 128 KiB mmap threshold: in the heap)" },
	{ "obj_mb", "2048", "64", "int:1..65536", NULL,
	  "MiB of long-lived objects made in phase 2 (report: RSS +2 GB)" },
	{ "obj_b", "1024", NULL, "int:513..65536", NULL,
	  "bytes of an object (above the 512-byte obmalloc threshold)" },
	{ "objects", "arena", NULL, "malloc|arena", "malloc|arena",
	  "the objects' allocator: malloc (GIL build) or one with memory of its own (free-threaded: mimalloc)" },
	{ "trim", "none", NULL, "none|malloc_trim", "none|malloc_trim",
	  "nothing, or malloc_trim(0) after phase 1 (the report's TRIM=1)" },
	{ "chunk_mb", "64", NULL, "int:1..4096", NULL,
	  "MiB the objects' own allocator maps at a time (objects=arena)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "nothing allocated yet" },
	{ "churned", "every buffer malloc'd and written, the pin above them" },
	{ "stranded", "every buffer freed, the pin kept (trim=malloc_trim: after malloc_trim(0))" },
	{ "objects", "the objects made and kept (report: GIL build RSS flat, -t build +2 GB)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "two-allocators-strand",
	.title = "glibc's freed heap is stranded beside free-threaded CPython's mimalloc: objects take new memory",
	.source = "python/cpython#156159 (free-threaded build, C extensions): STRAND_MB=2048 freed to glibc "
		  "and kept; objects above 512 bytes reuse it in the GIL build (RSS flat), "
		  "mimalloc in the -t build asks the OS (RSS +2 GB); TRIM=1 malloc_trim(0); also #135153",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "retention",
};

/* The objects' own allocator: chunks mapped from the OS, handed out in
 * order, never given back (the objects live to the end). */
struct own {
	char *chunk;        /* the current chunk */
	size_t used, size;  /* bytes of it handed out, its size */
	size_t chunks;      /* chunks mapped */
};

static void *own_alloc(struct own *o, size_t n)
{
	void *p;

	if (!o->chunk || o->size - o->used < n) {
		o->chunk = mmap(NULL, o->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (o->chunk == MAP_FAILED)
			mr_fail("mmap of a %zu MiB chunk:", o->size >> 20);
		o->used = 0;
		o->chunks++;
	}
	p = o->chunk + o->used;
	o->used += (n + 15) & ~(size_t)15;
	return p;
}

/* Phase 1: the extension's buffers, the pin above them, all freed. */
static void *strand(size_t nbuf, size_t buf_b, int trim)
{
	void **bufs = malloc(nbuf * sizeof *bufs);
	void *pin;
	size_t i;

	if (!bufs)
		mr_fail("malloc of %zu pointers:", nbuf);
	for (i = 0; i < nbuf; i++) {
		if (!(bufs[i] = malloc(buf_b)))
			mr_fail("malloc of buffer %zu:", i + 1);
		memset(bufs[i], 0x5a, buf_b);
	}
	if (!(pin = malloc(64)))
		mr_fail("malloc of the pin:");
	memset(pin, 0x11, 64);
	mr_keep(pin);
	mr_checkpoint("churned");
	for (i = 0; i < nbuf; i++)
		free(bufs[i]);
	free(bufs);
	if (trim)
		malloc_trim(0);
	return pin;
}

int main(int argc, char **argv)
{
	struct own own = { NULL, 0, 0, 0 };
	struct mallinfo2 mi;
	size_t buf_b, nbuf, obj_b, nobj, i;
	void **objs, *pin;
	int arena, len;
	char line[512];

	mr_case_init(&desc, argc, argv);
	buf_b = (size_t)mr_param_int("buffer_kb") * 1024;
	nbuf = (size_t)mr_param_int("strand_mb") * 1024 * 1024 / buf_b;
	obj_b = (size_t)mr_param_int("obj_b");
	nobj = (size_t)mr_param_int("obj_mb") * 1024 * 1024 / obj_b;
	arena = mr_param_is("objects", "arena");
	own.size = (size_t)mr_param_int("chunk_mb") * 1024 * 1024;
	if (arena && obj_b > own.size)
		mr_usage("obj_b %zu is larger than chunk_mb", obj_b);
	mr_checkpoint("start");

	pin = strand(nbuf, buf_b, mr_param_is("trim", "malloc_trim"));
	mr_checkpoint("stranded");
	mi = mallinfo2();

	/* Phase 2: the long-lived objects; their list is the interpreter's,
	 * from malloc in both builds (large: its own mmap). */
	objs = malloc(nobj * sizeof *objs);
	if (!objs)
		mr_fail("malloc of %zu pointers:", nobj);
	for (i = 0; i < nobj; i++) {
		objs[i] = arena ? own_alloc(&own, obj_b) : malloc(obj_b);
		if (!objs[i])
			mr_fail("malloc of object %zu:", i + 1);
		memset(objs[i], 0x3c, obj_b);
	}
	mr_keep(objs[nobj - 1]);
	mr_checkpoint("objects");

	len = snprintf(line, sizeof line,
		       "two-allocators-strand: %zu buffers of %zu KiB freed below a pin (trim %s): "
		       "glibc arena %zu KiB, free %zu KiB; %zu objects of %zu bytes from %s (%zu chunks mapped)\n",
		       nbuf, buf_b / 1024, mr_param("trim"), mi.arena / 1024, mi.fordblks / 1024,
		       nobj, obj_b, arena ? "their own allocator" : "malloc", own.chunks);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	if (!arena)
		for (i = 0; i < nobj; i++)
			free(objs[i]);
	free(objs);
	free(pin);
	return MR_EXIT_OK;
}
