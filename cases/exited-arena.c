/* exited-arena: a parallel pass leaves its worker's freed memory resident in
 * the arena the exited thread had, and the main thread's next pass adds to
 * it: max RSS rises by about a worker's share.
 *
 * Source: YosysHQ/yosys#5664, "Parallelize `opt_clean` pass" (merged),
 * the comment of 2026-03-06 that tracked down a regression of the run's
 * maximum RSS, "384.73 MB -> 449.09 MB", with 2 threads: an `opt_clean` on
 * a module of 113K cells, whose threads allocate and free "about 60MB,
 * summed over all threads ... about 30MB per thread"; glibc gives the
 * extra thread an arena of its own, "about 30MB of memory is allocated to
 * the off-main-thread's arena, which becomes part of the process RSS";
 * the thread exits and "that thread's arena is not released! It's put on
 * an internal glibc free list"; the run's maximum comes later, in an
 * `opt_dff` that allocates "several tens of megabytes" on the main thread.
 *
 * In one sentence: memory a worker thread freed stays in its arena after
 * the thread exits, where the main thread never allocates, so the main
 * thread's next peak stands on top of it.
 *
 * Mechanism (glibc 2.36 malloc/arena.c and malloc.c; read, not copied).
 * The worker's first malloc attaches it to a new arena (arena_get2 ->
 * _int_new_arena: a 64 MiB heap of its own).  Its small objects, freed,
 * go to the thread cache (7 per size), then to the fastbins (chunks up to
 * 128 bytes: not coalesced, still marked in use) or, larger, coalesce with
 * free neighbours.  Fastbin chunks scattered among the others keep the
 * free space in pieces, none of 64 KiB (FASTBIN_CONSOLIDATION_THRESHOLD),
 * so no free calls malloc_consolidate or heap_trim; the arena's next
 * malloc of 1 KiB or more would consolidate it (_int_malloc), and none
 * comes.  The worker returns, its thread cache is flushed into the arena
 * (tcache_thread_shutdown), and the arena goes on the free list with
 * everything in it (__malloc_arena_thread_freeres): nothing trims or
 * unmaps an arena there.  At the report's size malloc_info shows the
 * exited worker's arena holding 100,863 fastbin chunks (8.4 MB) and 56,820
 * free chunks (26.7 MB) in 35 MB of heap.  The main thread allocates from
 * main_arena, so its next pass takes fresh pages and peaks at its own
 * work plus what the worker left; with one thread the same objects were
 * main_arena's, and the next pass's first large malloc consolidates them
 * for reuse.  A thread that needs an arena later takes this one first
 * (get_free_list) and reuses what is there.  malloc_trim(0) does not help:
 * it consolidates every arena and gives back the pages of the free chunks
 * in its bins (mtrim), but trims only main_arena's top chunk, and
 * consolidation has merged the worker's free space into its arena's top.
 * MALLOC_ARENA_MAX=1 makes every thread share main_arena.  glibc 2.43
 * (sid) no longer keeps it: measured, the rise at opt_dff is gone there
 * (it is there on 2.41); which change of 2.42 or 2.43 is not verified.
 *
 * What is modelled: the passes of the report's 2-thread run.  opt_clean:
 * the main thread and threads - 1 workers each take a shard of the module,
 * work_mb / threads of small objects (cell records, signal vectors, hash
 * entries: 16-256 bytes from a fixed-seed generator, every byte written),
 * each linked to the next, and an index of them (a pointer table sized to
 * the shard: 1.8 MB at the report's size, mmapped); every shard built
 * (a barrier: the order of one thread's free and another's allocation of
 * its index decided, through glibc's dynamic mmap threshold, whether a
 * worker's share was kept, in 4 of 12 quick runs not), each thread drops
 * its index, then its objects in the order made; the workers are joined
 * and gone.  opt_dff: the main thread does the same with dff_mb
 * (the run's peak) and frees it.  Then a second opt_clean, as a synthesis
 * script runs many.  remedy: none (the report), trim (malloc_trim(0)
 * after each parallel pass) or arena_max1 (mallopt(M_ARENA_MAX, 1) before
 * any thread); not an axis (`--axis remedy=none,trim,arena_max1` runs
 * them): with arena_max1 the two threads allocate from one arena at once,
 * and what opt_clean leaves there depends on how they interleave (quick:
 * 1.7 or 7.5 MiB of RSS at opt_clean, run to run), which no baseline can
 * hold.  dff_mb (80) is ours: the report says "several tens of
 * megabytes", and the model needs opt_dff's peak above opt_clean's (60)
 * for it to be the run's maximum, as the report's was.  The quick sizes
 * (6 and 8 MiB) keep each index above 128 KiB, mmapped: an index in the
 * arena, freed, would be a free of 64 KiB or more, which consolidates and
 * trims the arena.
 *
 * Left out: the design itself (most of the report's 384.73 MB: a base the
 * model does not need, since what compares is the difference), what
 * opt_clean computes, yosys's thread pool (its workers are created per
 * pass and exit, as here), and the other passes of the script.
 *
 * No musl build: it calls glibc's malloc_trim, mallopt, which musl's libc lacks.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "threads", "2", NULL, "int:1..64", "1|2",
	  "threads of the parallel pass, the main thread among them (report: 2; 1 is the serial pass before the change)" },
	{ "work_mb", "60", "6", "int:1..4096", NULL,
	  "MiB of small objects opt_clean allocates and frees, summed over its threads (report: about 60MB)" },
	{ "dff_mb", "80", "8", "int:1..4096", NULL,
	  "MiB of small objects opt_dff allocates on the main thread afterwards (report: several tens of megabytes)" },
	{ "remedy", "none", NULL, "none|trim|arena_max1", NULL,
	  "none; malloc_trim(0) after each parallel pass; or mallopt(M_ARENA_MAX, 1) before any thread" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first pass" },
	{ "opt_clean", "the parallel pass done: its objects freed, its workers exited" },
	{ "opt_dff", "the main thread's next pass at its peak (the report's max RSS)" },
	{ "again", "opt_dff's objects freed, then a second parallel opt_clean done" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "exited-arena",
	.title = "A parallel pass's exited worker leaves its freed memory in its arena: max RSS +1 share",
	.source = "YosysHQ/yosys#5664 (2026-03-06): max RSS 384.73 MB -> 449.09 MB with a "
		  "2-thread opt_clean; about 30 MB per thread left in the exited thread's arena, "
		  "which glibc puts on its free list",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "arenas",
};

/* The objects of one shard, each linking to the next (its first word), and
 * the pass's index of them: a table of pointers, as a pass's hash index. */
struct shard {
	uint64_t seed;   /* the generator's state: the same objects every run */
	size_t bytes;    /* how much to allocate */
	void **index;    /* the objects, in the order made */
	void *first;     /* the same, as a list through the objects */
	size_t n;        /* how many */
};

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static size_t object_size(uint64_t *seed)
{
	return 16 + (size_t)(lcg(seed) % 241);
}

/* A pass over one shard: its index first (sized to the shard, counted
 * from the same generator), then the objects, each written whole as a
 * constructor does.  The index is the pass's one large allocation: in an
 * arena holding fastbin chunks, a request of 1 KiB or more consolidates
 * them first (_int_malloc), which is how a pass reuses what the one
 * before it freed. */
static void shard_pass(struct shard *sh)
{
	uint64_t seed = sh->seed;
	size_t n = 0, used = 0;
	void **link = &sh->first;

	do {
		used += object_size(&seed);
		n++;
	} while (used < sh->bytes);
	sh->index = malloc(n * sizeof *sh->index);
	if (!sh->index)
		mr_fail("malloc of an index of %zu objects:", n);
	for (sh->n = 0; sh->n < n; sh->n++) {
		size_t size = object_size(&sh->seed);
		unsigned char *p = malloc(size);

		if (!p)
			mr_fail("malloc of %zu bytes:", size);
		else
			memset(p, (int)(sh->n & 0xff), size);
		*link = p;
		link = (void **)p;
		sh->index[sh->n] = p;
	}
	*link = NULL;
	mr_keep(sh->index);
}

/* The pass drops its index, then its objects in the order made.  (Were
 * the index freed last, one below 128 KiB, in the arena, would be a free
 * of 64 KiB or more: that consolidates and trims the arena.) */
static void shard_free(struct shard *sh)
{
	void *p = sh->first, *next;

	free(sh->index);
	while (p) {
		next = *(void **)p;
		free(p);
		p = next;
	}
	sh->index = NULL;
	sh->first = NULL;
	sh->n = 0;
}

/* Every shard is built before any is dropped.  glibc's mmap threshold is
 * one for the process and rises to the size of an mmapped chunk freed (the
 * dynamic threshold): were one thread's index freed before another's was
 * allocated, the second would come from its arena, and its free there, a
 * chunk of 64 KiB or more, would consolidate and trim that arena; which
 * thread got there first decided whether a worker's share stayed (4 of 12
 * quick runs lost it).  The pass's phases, all built then all dropped, make
 * the order the same in every run. */
static pthread_barrier_t built;

static void *worker(void *arg)
{
	struct shard *sh = arg;
	int rc;

	shard_pass(sh);
	rc = pthread_barrier_wait(&built);
	if (rc != 0 && rc != PTHREAD_BARRIER_SERIAL_THREAD)
		mr_fail("pthread_barrier_wait: %s", strerror(rc));
	shard_free(sh);
	return NULL;
}

/* opt_clean over nthreads shards: the main thread takes the first. */
static void parallel_pass(unsigned nthreads, size_t bytes, uint64_t seed)
{
	pthread_t ids[64];
	struct shard sh[64] = { { 0 } };
	unsigned i;
	int rc;

	for (i = 0; i < nthreads; i++) {
		sh[i].seed = seed + i;
		sh[i].bytes = bytes / nthreads;
		sh[i].index = NULL;
		sh[i].first = NULL;
		sh[i].n = 0;
	}
	if ((rc = pthread_barrier_init(&built, NULL, nthreads)) != 0)
		mr_fail("pthread_barrier_init: %s", strerror(rc));
	for (i = 1; i < nthreads; i++) {
		rc = pthread_create(&ids[i], NULL, worker, &sh[i]);
		if (rc == EAGAIN)
			mr_skip("pthread_create: %s", strerror(rc));
		if (rc != 0)
			mr_fail("pthread_create: %s", strerror(rc));
	}
	worker(&sh[0]);
	for (i = 1; i < nthreads; i++)
		if ((rc = pthread_join(ids[i], NULL)) != 0)
			mr_fail("pthread_join: %s", strerror(rc));
	(void)pthread_barrier_destroy(&built);
	if (mr_param_is("remedy", "trim"))
		(void)malloc_trim(0);
}

int main(int argc, char **argv)
{
	unsigned nthreads;
	size_t work, dff;
	struct shard main_pass = { 0 };
	char line[256];
	int len;

	mr_case_init(&desc, argc, argv);
	nthreads = (unsigned)mr_param_int("threads");
	work = (size_t)mr_param_int("work_mb") << 20;
	dff = (size_t)mr_param_int("dff_mb") << 20;
	if (mr_param_is("remedy", "arena_max1") && mallopt(M_ARENA_MAX, 1) != 1)
		mr_fail("mallopt(M_ARENA_MAX, 1) refused");
	mr_checkpoint("start");

	parallel_pass(nthreads, work, 5664);
	mr_checkpoint("opt_clean");

	main_pass.seed = 113000;
	main_pass.bytes = dff;
	shard_pass(&main_pass);
	mr_checkpoint("opt_dff");
	shard_free(&main_pass);

	parallel_pass(nthreads, work, 5664 + 64);
	mr_checkpoint("again");

	len = snprintf(line, sizeof line,
		       "exited-arena: %u threads, opt_clean %zu MiB, opt_dff %zu MiB, remedy %s\n",
		       nthreads, work >> 20, dff >> 20, mr_param("remedy"));
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
