/* mimalloc-maps: with mimalloc's arena_eager_commit=0, each partial commit
 * of an arena splits its reserved mapping; concurrent workers leave more
 * mappings (the report: thousands, toward vm.max_map_count).
 *
 * Source (the text relied on is seeds/006_be99c594b24e76c9.txt):
 * DeusData/codebase-memory-mcp#1666, "fix(mem): restore mimalloc's Linux
 * arena-commit default (#1654)" (pull request, 2026-08-16): the indexer
 * had set arena_eager_commit to 0; "With lazy arena commit, mimalloc
 * commits sub-ranges via mprotect(PROT_READ|PROT_WRITE) over a PROT_NONE
 * reservation, and each partial commit splits the reserved VMA."
 * Measured on its Go corpus (Linux arm64):
 *
 *                                  mimalloc mappings   peak RSS
 *   v0.9.0, any worker count                  10       13.73 GB
 *   v0.10.5, 1 worker                        999        4.11 GB
 *   v0.10.5, 4 workers                     8,460       15.99 GB
 *   v0.10.5, 18 workers        11,965 (peak ~22k)      18.87 GB
 *
 * "The count tracks concurrency, not corpus size"; at vm.max_map_count
 * "mmap fails for any size" (#1654: "unable to allocate memory (10240
 * bytes)" with 246 GB free, max_map_count 65530).  mimalloc's own default
 * is 2, "eager-commit if overcommit is enabled".
 *
 * In one sentence: an arena reserved PROT_NONE and committed piecewise by
 * mprotect becomes one mapping per committed run, and workers that take
 * and give back slices in their own order leave runs and holes
 * interleaved, so the mappings grow with the concurrency.
 *
 * Mechanism (mimalloc 3.x: src/prim/unix/prim.c read, not copied; the
 * arena's side from its options' documentation and the counts measured).  mimalloc reserves arenas of arena_reserve (1 GiB on 64-bit)
 * and hands out 64 KiB slices to the threads' pages.  With
 * arena_eager_commit=0 the reservation is mmap'd PROT_NONE and a range is
 * committed when a page first takes it: _mi_prim_commit mprotects it
 * read-write, and the kernel splits the mapping at both ends of the range
 * unless it joins a read-write neighbour.  The threads' pages start at
 * different places of the arena (inferred from the counts, which grow
 * with the workers: not read in mimalloc's source), so each worker
 * leaves committed runs with never-committed holes between them: the
 * mappings grow with the workers and with the memory they touch.  A purge
 * (_mi_prim_decommit) madvises MADV_DONTNEED and, in a release build,
 * leaves the range read-write (PROT_NONE again only in debug and secure
 * builds), so it does not split further.  With the default (2, and
 * overcommit on) the arena is mapped read-write at once: one mapping,
 * whatever the threads do.  mimalloc 2.0.x has no such option (its
 * segments are mmap'd one by one, read-write).
 *
 * What is modelled, after an indexer's extraction workers (tree-sitter
 * parsing and SQLite inserts: read about, not copied): `workers` threads
 * each index files/workers files; a file is a parse tree of `nodes` nodes
 * of 32 to 256 bytes and a few source and page buffers of 4 to 64 KiB,
 * written; at the file's end the tree and buffers are freed but one node
 * in keep_every stays (the index: symbols and edges, held to the end).
 * The checkpoint `indexed` is taken when every worker is done; the case
 * counts its mappings (/proc/self/maps lines) at each checkpoint and
 * prints them, until the runner records the count itself.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, THP madvise, 2 CPUs; `build/
 * memrepro run mimalloc-maps --profile quick --axis
 * allocator=mimalloc,mimalloc@3.0.1,mimalloc@3.6.0`, medians of 3),
 * mappings at start -> indexed, 1 / 4 / 18 workers: mimalloc 3.0.1 and
 * 3.6.0 by default 33 -> 33, 39 -> 39, 67 -> 67; with
 * arena_eager_commit=0 3.0.1 +2, +9, +29, 3.6.0 +1, +4, +14; mimalloc
 * 2.0.9 +2, +8, +37 either way; full (2,304 files, `docs/corpus/
 * mimalloc-maps`, first repeat): 3.0.1 lazy +16, +20, +36, 3.6.0 lazy +4,
 * +9, +16, eager +0.  The count grows with the memory touched
 * too: by hand, 2,304 files keeping one node in 2 and 16 buffers of up to
 * 4 MiB, 3.0.1 lazy 1 worker +57 mappings for 367 MiB of RSS, 18 workers
 * +86 for 439 MiB (the report: 999 for 4.11 GB, 11,965 for 18.87 GB).
 * RSS is no higher with the lazy commit; with the eager one mimalloc 3.6.0
 * backs its read-write arena with huge pages (allow_thp): 116,748 against
 * 34,836 KiB at 18 workers, the same as lazy with MIMALLOC_ALLOW_THP=0.
 *
 * Left out: the indexer itself (tree-sitter, SQLite), its corpus (sizes
 * are made up: the report gives none), arm64's 64 KiB pages (the report's
 * machine; the model runs on the host's), and the kernel's limit: the
 * model stays far below vm.max_map_count.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "workers", "18", "4", "int:1..256", "1|4|18",
	  "extraction workers at once (report: 1, 4 and 18)" },
	{ "files", "2304", "288", "int:1..10000000", NULL,
	  "files indexed, shared among the workers (not in the report)" },
	{ "nodes", "2000", NULL, "int:1..1000000", NULL,
	  "parse tree nodes of 32 to 256 bytes per file (not in the report)" },
	{ "buffers", "4", NULL, "int:0..1024", NULL,
	  "source and page buffers of 4 to 64 KiB per file (not in the report)" },
	{ "buffer_max_kb", "1024", NULL, "int:4..1048576", NULL,
	  "largest source or page buffer in KiB, sizes drawn log-uniform from 4 KiB (not in the report)" },
	{ "keep_every", "16", NULL, "int:1..1000000", NULL,
	  "one node in this many stays after its file (the index; not in the report)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "the workers started, nothing indexed" },
	{ "indexed", "every file indexed, what the index keeps held (the report's mapping count)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "mimalloc-maps",
	.title = "mimalloc with arena_eager_commit=0: each partial commit splits the arena's mapping",
	.source = "DeusData/codebase-memory-mcp#1666 (2026): arena_eager_commit=0, mimalloc mappings "
		  "10 (v0.9.0) vs 999 with 1 worker, 8,460 with 4, 11,965 (peak ~22k) with 18",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "reservations",
};

struct node {
	struct node *next;
};

struct worker {
	pthread_t tid;
	size_t first, count;  /* files [first, first + count) */
	struct node *kept;    /* the index: nodes that outlive their file */
	size_t nkept;
};

static size_t nodes, buffers, keep_every, buffer_max;
static pthread_barrier_t go, done, finish;

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

/* A fixed-seed generator: the sizes are the same from run to run. */
static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void index_file(struct worker *w, size_t file)
{
	uint32_t seed = (uint32_t)file * 2654435761u + 1;
	struct node *tree = NULL;
	void *buf[1024];
	size_t i;

	for (i = 0; i < buffers; i++) {
		size_t n = 4096;

		/* log-uniform: double from 4 KiB a random number of times */
		while (n * 2 <= buffer_max && next_rand(&seed) % 2)
			n *= 2;
		n += next_rand(&seed) % n;
		if (n > buffer_max)
			n = buffer_max;

		buf[i] = xmalloc(n);
		memset(buf[i], 0x42, n);
	}
	for (i = 0; i < nodes; i++) {
		size_t n = 32 + next_rand(&seed) % 225;
		struct node *nd = xmalloc(n);

		memset(nd, 0x17, n);
		if (i % keep_every == 0) {
			nd->next = w->kept;
			w->kept = nd;
			w->nkept++;
		} else {
			nd->next = tree;
			tree = nd;
		}
	}
	while (tree) {
		struct node *next = tree->next;

		free(tree);
		tree = next;
	}
	for (i = 0; i < buffers; i++) {
		mr_keep(buf[i]);
		free(buf[i]);
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
	size_t f;

	if (wait_barrier(&go))
		abort();
	for (f = w->first; f < w->first + w->count; f++)
		index_file(w, f);
	if (wait_barrier(&done) || wait_barrier(&finish))
		abort();
	while (w->kept) {
		struct node *next = w->kept->next;

		free(w->kept);
		w->kept = next;
	}
	return NULL;
}

/* Lines of /proc/self/maps: the process's mappings.  No malloc, no stdio
 * (it runs between measurements); -1 when it cannot be read. */
static long count_maps(void)
{
	static char buf[65536];
	long lines = 0;
	ssize_t n;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		ssize_t i;

		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	close(fd);
	return n < 0 ? -1 : lines;
}

static void barrier_init(pthread_barrier_t *b, unsigned n)
{
	int rc = pthread_barrier_init(b, NULL, n);

	if (rc) {
		errno = rc;
		mr_fail("pthread_barrier_init:");
	}
}

int main(int argc, char **argv)
{
	struct worker *ws;
	size_t nw, files, i, kept = 0;
	long maps_start, maps_indexed;
	char line[256];
	int rc, len;

	mr_case_init(&desc, argc, argv);
	nw = (size_t)mr_param_int("workers");
	files = (size_t)mr_param_int("files");
	nodes = (size_t)mr_param_int("nodes");
	buffers = (size_t)mr_param_int("buffers");
	keep_every = (size_t)mr_param_int("keep_every");
	buffer_max = (size_t)mr_param_int("buffer_max_kb") * 1024;

	ws = calloc(nw, sizeof *ws);
	if (!ws)
		mr_fail("calloc:");
	barrier_init(&go, (unsigned)nw + 1);
	barrier_init(&done, (unsigned)nw + 1);
	barrier_init(&finish, (unsigned)nw + 1);
	for (i = 0; i < nw; i++) {
		ws[i].first = files * i / nw;
		ws[i].count = files * (i + 1) / nw - ws[i].first;
		if ((rc = pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]))) {
			errno = rc;
			mr_fail("pthread_create of worker %zu:", i + 1);
		}
	}
	maps_start = count_maps();
	mr_checkpoint("start");

	if (wait_barrier(&go) || wait_barrier(&done))
		mr_fail("pthread_barrier_wait failed");
	maps_indexed = count_maps();
	mr_checkpoint("indexed");

	if (wait_barrier(&finish))
		mr_fail("pthread_barrier_wait failed");
	for (i = 0; i < nw; i++) {
		pthread_join(ws[i].tid, NULL);
		kept += ws[i].nkept;
	}
	free(ws);
	pthread_barrier_destroy(&go);
	pthread_barrier_destroy(&done);
	pthread_barrier_destroy(&finish);

	len = snprintf(line, sizeof line,
		       "mimalloc-maps: %zu workers, %zu files of %zu nodes and %zu buffers, %zu nodes kept; "
		       "mappings %ld at start, %ld indexed\n",
		       nw, files, nodes, buffers, kept, maps_start, maps_indexed);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
