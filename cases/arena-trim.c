/* arena-trim: trees built on worker threads, dropped by the main thread —
 * glibc keeps them in the workers' arenas until malloc_trim(0).
 *
 * Source: zed-industries/zed#64336, "Return freed heap memory to the OS on
 * Linux" (pull request, 2026-09-16), after zed-industries/zed#59107
 * ("memory leak in rayon::iter::plumbing", where a maintainer's heaptrack
 * analysis found "nodes allocated on rayon worker threads and freed from
 * the main thread", kept in the allocating thread's glibc arena).  Zed is a
 * Rust program on glibc malloc.  Figures:
 *
 *   a live 38.9 GB Zed process: "~94% freed-but-retained";
 *   malloc_trim(0) alone "took it to 2.4 GB"            (#64336)
 *   one 80-minute agent session with the patch: "13 reclaim events,
 *   1,110 MiB returned"; single calls returned "3 MiB to 2.9 GB";
 *   with it and MALLOC_ARENA_MAX=2, swap "from 9.8 GB to ~70 MB"  (#64336)
 *   a live 8.1 GB process, 35 threads: 84 glibc arena heaps (64 MiB each)
 *   of 5,376 MB holding 4,793 MB of RSS; the main heap 1,878 MB, 1,462
 *   resident                                            (#59107)
 *
 * In one sentence: memory allocated on a worker thread lives in that
 * thread's arena, wherever it is freed, and glibc trims an arena only
 * from its top, on a free big enough, so trees the main thread dropped
 * stay resident in the idle workers' heaps, between the nodes that are
 * still alive, until malloc_trim walks every arena.
 *
 * Mechanism (glibc 2.36 malloc/arena.c and malloc.c, read, not copied).
 * A thread's first malloc attaches it to an arena: a new one while fewer
 * than arena_max exist (8 x CPUs on 64-bit), so each rayon worker gets
 * its own, whose memory comes from heaps mapped 64 MiB at a time
 * (HEAP_MAX_SIZE).  free() finds a chunk's arena from its address
 * (arena_for_chunk: a chunk outside the main heap belongs to the heap it
 * lies in) and returns the chunk there, whichever thread frees it: after
 * the freeing thread's own tcache (7 chunks per size), into the owning
 * arena's fastbins or bins, coalesced with its free neighbours.  Memory
 * goes back to the kernel on free only when the coalesced chunk reaches
 * 64 KiB (FASTBIN_CONSOLIDATION_THRESHOLD) and the arena's top chunk is
 * then at least trim_threshold: heap_trim drops whole heaps at the end
 * and shrinks the last one's top.  The free space between the trees the
 * main thread keeps is not top: no free can trim it.  Nor does anything
 * the main thread does later reach it: its own mallocs are served from
 * the main arena (a thread stays attached to its arena), never from a
 * worker's free chunks (checkpoint `rebuilt`), and the workers, idle,
 * never call malloc again.  malloc_trim(0) locks every arena in turn (mtrim):
 * it consolidates the fastbins, then madvises MADV_DONTNEED the whole
 * pages inside every free chunk of the unsorted bin and of the bins of
 * chunks of a page or more (glibc 2.8 on), and shrinks the main arena's
 * top; a non-main arena's top is left as it is (only heap_trim, from
 * free, shrinks it).  The freed trees lie between kept ones, so they are
 * binned chunks: their pages go, the address space (the 64 MiB heaps)
 * stays.
 *
 * What is modelled, after Zed's sum trees (crates/sum_tree, crates/rope:
 * read for their shape, not copied): `workers` threads (rayon's pool, one
 * per CPU of the report's 8-core machine), started together, each
 * building trees_per_worker trees of `items` items; an item is a tree
 * node of node_bytes (an internal sum-tree node: child pointers and their
 * summaries) and a text chunk of chunk_bytes (a rope chunk: up to 128
 * bytes of text and its length), malloc'd and written whole by the
 * worker.  The trees are handed to the main thread, which holds them all
 * (`holding`), then keeps one tree in `keep` (the snapshot still in use:
 * report, 2.4 of 38.9 GB stayed, 1 in 16) and drops the rest, node by node
 * (`dropped`); then it builds `rebuild` trees itself and holds them
 * (`rebuilt`: one worker's share by default), then calls malloc_trim(0)
 * when trim=trim0, as the PR's polling loop does (`trimmed`).  The workers stay alive and idle to the end, as a thread
 * pool's do, and are joined at exit.
 *
 * The sizes are not in the report (a 38.9 GB process is not a test): the
 * default, 8 workers x 800 trees x 64 items of 512 + 136 bytes (528 +
 * 144 bytes of chunks), holds ~264 MiB, each worker's ~33 MiB in one 64
 * MiB heap; quick, 4 x 100 trees, ~17 MiB.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs; RSS growth from
 * start, KiB, full / quick): holding +268,964 / +16,916; dropped +264,964
 * / +16,916 (98 and 100 % kept); rebuilt +298,564 / +21,112; after
 * malloc_trim(0) +53,964 / +6,144, which is what is alive (the kept
 * sixteenth and the rebuilt trees).  With MALLOC_ARENA_MAX=1 (the
 * workers allocate from the main arena) the same drop keeps as much,
 * but the rebuild reuses the freed chunks (+0 from dropped to rebuilt):
 * what the worker arenas add is that their free memory serves no other
 * thread, so RSS climbs with each batch of work on another thread.
 *
 * Other allocators keep the dropped trees too (measured, not in the
 * report): jemalloc returns a freed region to the arena that owns its
 * extent, whose dirty pages decay over 10 s, on later calls; mimalloc puts
 * a cross-thread free on the owning page's thread-free list, which only
 * the owning (idle) thread collects; tcmalloc moves freed objects through
 * the freeing thread's cache to central lists and releases page-heap
 * spans at its release rate.  malloc_trim is glibc's and walks glibc's
 * arenas only.  Whether another thread can reuse the freed memory
 * differs (checkpoint `rebuilt`, measured): tcmalloc's central lists
 * serve the main thread's new trees from the freed nodes, and so do
 * mimalloc 3's pages (quick: 3.0.1 +4 KiB, 3.6.0 +0), while
 * mimalloc 2.0.9 and glibc grow by the whole rebuild and jemalloc by
 * what the arena the main thread shares with a worker cannot give.
 *
 * Left out: Zed itself (its GPU buffers, its file-backed mappings: the
 * report's 38.9 GB is a whole editor; ours a C program's ~1.5 MiB before
 * the work, so compare growth), Arc reference counts and structural
 * sharing between tree versions (a kept tree here is whole), rayon's work
 * stealing (each worker builds its own trees: which thread allocated a
 * node is all that matters), and the PR's polling loop and its logging
 * gate (one trim here, where the loop would call it).
 *
 * No musl build: it calls glibc's malloc_trim, which musl's libc lacks.
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
	{ "workers", "8", "4", "int:1..256", NULL,
	  "worker threads building trees (rayon's pool; the report's machine had 8 cores)" },
	{ "trees", "800", "100", "int:1..1000000", NULL,
	  "trees each worker builds and hands to the main thread" },
	{ "items", "64", NULL, "int:1..1000000", NULL,
	  "items per tree, each a node and a text chunk" },
	{ "node_bytes", "512", NULL, "int:16..65536", NULL,
	  "bytes of a tree node (a sum-tree node: children and their summaries; not in the report)" },
	{ "chunk_bytes", "136", NULL, "int:0..65536", NULL,
	  "bytes of an item's text chunk (a rope chunk of up to 128 bytes and its length; 0: none)" },
	{ "keep", "16", NULL, "int:1..1000000", NULL,
	  "the main thread keeps one tree in this many and drops the rest (report: 2.4 of 38.9 GB stayed)" },
	{ "rebuild", "800", "100", "int:0..1000000", NULL,
	  "trees the main thread then builds itself and holds (default: one worker's share)" },
	{ "trim", "trim0", NULL, "none|trim0", "none|trim0",
	  "after the drop and the main thread's own work: nothing, or malloc_trim(0) (the PR)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "the workers started, nothing built yet" },
	{ "holding", "every tree built by the workers and held by the main thread" },
	{ "dropped", "the main thread dropped all but one tree in keep (the report's freed-but-retained state)" },
	{ "rebuilt", "after the main thread built `rebuild` trees of its own, held (from its own arena)" },
	{ "trimmed", "after malloc_trim(0), or at the same point without it (report: 38.9 GB -> 2.4 GB)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "arena-trim",
	.title = "Trees built on worker threads, dropped on the main thread: kept in the workers' arenas until malloc_trim(0)",
	.source = "zed-industries/zed#64336 (Rust on glibc, 2026; after zed#59107): a live 38.9 GB "
		  "process ~94% freed-but-retained, malloc_trim(0) took it to 2.4 GB; "
		  "84 arena heaps of 64 MiB holding 4,793 MB of an 8.1 GB RSS",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "retention",
};

/* One item of a tree: its node and its text chunk, linked. */
struct item {
	struct item *next;
	char *chunk;
	/* node_bytes in all, written whole */
};

/* The node's links fit the smallest node_bytes allowed (16). */
_Static_assert(sizeof(struct item) <= 16, "struct item outgrew node_bytes' minimum");

struct worker {
	pthread_t tid;
	size_t index;
	struct item **trees; /* trees built, handed to the main thread */
	int started;
};

static size_t nworkers, ntrees, nitems, node_bytes, chunk_bytes;
static pthread_barrier_t built, finish;

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		mr_fail("malloc(%zu):", n);
	return p;
}

/* A tree of nitems items, allocated and written by the calling thread. */
static struct item *build_tree(size_t w, size_t t)
{
	struct item *head = NULL;
	size_t i;

	for (i = 0; i < nitems; i++) {
		struct item *it = xmalloc(node_bytes);

		memset(it, (int)((w + t + i) & 0x7f), node_bytes);
		it->chunk = NULL;
		if (chunk_bytes) {
			it->chunk = xmalloc(chunk_bytes);
			memset(it->chunk, 'a' + (int)(i % 26), chunk_bytes);
		}
		it->next = head;
		head = it;
	}
	return head;
}

static void drop_tree(struct item *it)
{
	while (it) {
		struct item *next = it->next;

		free(it->chunk);
		free(it);
		it = next;
	}
}

static int wait_barrier(pthread_barrier_t *b)
{
	int rc = pthread_barrier_wait(b);

	return rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD ? 0 : rc;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t t;

	for (t = 0; t < ntrees; t++)
		w->trees[t] = build_tree(w->index, t);
	/* Idle from here on, as a pool's thread between jobs: no malloc. */
	if (wait_barrier(&built) || wait_barrier(&finish))
		abort();
	return NULL;
}

/* The main thread's own work after the drop: it builds trees itself,
 * from its own arena, and holds them. */
static struct item **rebuilt;
static size_t nrebuilt;

static void main_rebuild(void)
{
	size_t t;

	rebuilt = calloc(nrebuilt ? nrebuilt : 1, sizeof *rebuilt);
	if (!rebuilt)
		mr_fail("calloc:");
	for (t = 0; t < nrebuilt; t++)
		rebuilt[t] = build_tree(nworkers, t);
}

/* A sum over every kept tree, so that the writes are observable. */
static unsigned long checksum(const struct worker *ws, size_t nw, size_t keep)
{
	unsigned long sum = 0;
	size_t w, t;

	for (w = 0; w < nw; w++) {
		if (!ws[w].trees)
			continue;
		for (t = 0; t < ntrees; t += keep) {
			const struct item *it;

			for (it = ws[w].trees[t]; it; it = it->next)
				sum += (unsigned char)((const char *)it)[node_bytes - 1] +
				       (it->chunk ? (unsigned char)it->chunk[0] : 0);
		}
	}
	return sum;
}

int main(int argc, char **argv)
{
	struct worker *ws;
	size_t nw, keep, w, t, kept = 0;
	unsigned long sum;
	int rc, trimmed = -1;
	char line[256];
	int len;

	mr_case_init(&desc, argc, argv);
	nworkers = (size_t)mr_param_int("workers");
	ntrees = (size_t)mr_param_int("trees");
	nitems = (size_t)mr_param_int("items");
	node_bytes = (size_t)mr_param_int("node_bytes");
	chunk_bytes = (size_t)mr_param_int("chunk_bytes");
	keep = (size_t)mr_param_int("keep");
	nrebuilt = (size_t)mr_param_int("rebuild");

	/* A local copy of the count: no other thread can change it. */
	nw = nworkers;
	ws = calloc(nw, sizeof *ws);
	if (!ws)
		mr_fail("calloc:");
	for (w = 0; w < nw; w++) {
		ws[w].index = w;
		ws[w].trees = calloc(ntrees, sizeof *ws[w].trees);
		if (!ws[w].trees)
			mr_fail("calloc:");
	}
	if ((rc = pthread_barrier_init(&built, NULL, (unsigned)nw + 1)) ||
	    (rc = pthread_barrier_init(&finish, NULL, (unsigned)nw + 1))) {
		errno = rc;
		mr_fail("pthread_barrier_init:");
	}
	mr_checkpoint("start");

	for (w = 0; w < nw; w++) {
		if ((rc = pthread_create(&ws[w].tid, NULL, worker_main, &ws[w]))) {
			errno = rc;
			mr_fail("pthread_create of worker %zu:", w + 1);
		}
		ws[w].started = 1;
	}
	if (wait_barrier(&built))
		mr_fail("pthread_barrier_wait failed");
	sum = checksum(ws, nw, 1);
	mr_checkpoint("holding");

	for (w = 0; w < nw; w++)
		for (t = 0; t < ntrees; t++) {
			if (t % keep == 0) {
				kept++;
				continue;
			}
			drop_tree(ws[w].trees[t]);
			ws[w].trees[t] = NULL;
		}
	mr_checkpoint("dropped");

	main_rebuild();
	mr_checkpoint("rebuilt");

	if (mr_param_is("trim", "trim0"))
		trimmed = malloc_trim(0);
	mr_checkpoint("trimmed");

	if (checksum(ws, nw, keep) == 0 && sum != 0)
		mr_fail("the kept trees read back as nothing");
	if (wait_barrier(&finish))
		mr_fail("pthread_barrier_wait failed");
	for (w = 0; w < nw; w++) {
		if (ws[w].started && (rc = pthread_join(ws[w].tid, NULL))) {
			errno = rc;
			mr_fail("pthread_join of worker %zu:", w + 1);
		}
		for (t = 0; t < ntrees; t += keep)
			drop_tree(ws[w].trees[t]);
		free(ws[w].trees);
	}
	free(ws);
	for (t = 0; t < nrebuilt; t++)
		drop_tree(rebuilt[t]);
	free(rebuilt);
	pthread_barrier_destroy(&built);
	pthread_barrier_destroy(&finish);

	len = snprintf(line, sizeof line,
		       "arena-trim: %zu workers x %zu trees x %zu items of %zu + %zu bytes, "
		       "%zu trees kept, checksum %lu; trim %s (malloc_trim returned %d)\n",
		       nworkers, ntrees, nitems, node_bytes, chunk_bytes, kept, sum,
		       mr_param("trim"), trimmed);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
