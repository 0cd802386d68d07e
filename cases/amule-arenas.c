/* amule-arenas: a REST daemon's handler pool keeps one request's peak per
 * pool thread in glibc's per-thread arenas; MALLOC_ARENA_MAX=2 halves it.
 *
 * Source: amule-org/amule#1095 (pull request, 2026-08-23), "cap glibc's
 * malloc arenas so a request's peak is not retained per pool thread",
 * amuleapi (the REST/SSE daemon that talks to amuled over EC), an 11,906-
 * file library, 16 concurrent GET /shared:
 *
 *                     VmHWM    RSS after   median latency
 *   without          281 MB     199 MB        1.53 s
 *   with (arenas 2)  166 MB      88 MB        1.56 s
 *
 * and amule-org/amule#1153 (2026-08-25), the trim that followed: the first
 * refresher tick decodes amuled's whole state, "a ~19 MB CECPacket/CECTag
 * tree over ~348k allocations" on a 12k-file library, freed when the tick
 * ends, "interleaved with the file snapshots that stay"; "Peak heap is ~40
 * MB but peak RSS is ~117 MB"; malloc_trim(0) once a minute hands the
 * fragmented free pages back.  (The rest of #1153's figures are not in the
 * stored copy of the thread.)
 *
 * In one sentence: every pool thread that serves a request gets an arena of
 * its own, the request's freed memory stays in that arena's heap, and since
 * requests are handed to pool threads in turn, one request after another
 * pins one arena after another; with two arenas the threads share, and the
 * next request reuses what the last one freed.
 *
 * Mechanism (glibc 2.36 malloc/arena.c and malloc.c; read, not copied).  A
 * thread's first malloc finds no arena in its thread_arena and calls
 * arena_get2: an arena of an exited thread from free_list, else a new one
 * (_int_new_arena: a 64 MiB heap, HEAP_MAX_SIZE, reserved PROT_NONE and
 * made read-write as it grows) while narenas is below the limit
 * (arena_max, else 8 x CPUs), else reused_arena, which walks the arena list
 * round-robin from main_arena, taking the first it can lock.  The thread
 * keeps that arena for life.  An idle pool thread never exits, so its
 * arena never reaches free_list.  Memory goes back from a non-main arena
 * only through heap_trim, from _int_free when a free leaves a chunk of at
 * least FASTBIN_CONSOLIDATION_THRESHOLD (64 KiB): it shrinks the top of
 * the arena's last heap down to the highest chunk still in use (and only
 * when the top exceeds trim_threshold, which rises to twice the mmap
 * threshold as that adapts to the large blocks freed).  Below that chunk
 * nothing is returned: the small chunks of the request sit in the tcache
 * (seven of each size, still in use as far as the arena knows) and in the
 * fastbins, which are merged only by malloc_consolidate (a large malloc or
 * free in the same arena, or malloc_trim).  So what stays resident is the
 * request's high-water mark in each arena it ran in: with arena_max unset
 * as many of them as there are pool threads (up to 8 x CPUs), with
 * arena_max=2 two.  malloc_trim(0) (mtrim, every arena) consolidates the
 * fastbins and madvise(MADV_DONTNEED)s the whole pages of every free chunk
 * in the bins: the fragmented space #1153 went after.  It does not shrink a
 * non-main arena's top chunk (mtrim calls systrim for main_arena only), so
 * a free top stays resident.
 *
 * Which chunk stays in use above the freed tree the report does not say
 * ("free pages below a live chunk stay mapped").  In the model it is the
 * body's: as it doubles, its first buffers (64 bytes to 1 KiB) are freed
 * into the thread's tcache, seven of each size, which the arena counts as
 * in use, and they lie just above the tree.  When the last buffer is freed
 * (from the heap, once the mmap threshold has adapted to the body's size;
 * the first request's large buffers are mmapped and their frees consolidate
 * nothing), the fastbins are consolidated and heap_trim shrinks the top
 * down to those chunks: the tree's pages below stay, in the bins.  Without
 * a body (body_b=0) nothing consolidates the fastbins at all and the tree
 * stays as well (by hand, default size: 388.0 MiB at served, 484.9 with
 * the body).
 *
 * What is modelled:
 *  - the refresher's first tick (#1153), on the main thread (the main
 *    arena): for each file an EC tag tree of MR_TAG_ALLOCS allocations
 *    averaging 55 bytes (#1153: ~19 MB over ~348k allocations for 12k
 *    files: 29 a file), interleaved with the file's snapshot, which stays
 *    (snapshot_b bytes; #1153's peak heap of ~40 MB less the ~19 MB tree,
 *    over 12k files: ~1,750 bytes); then the tree is freed (checkpoint
 *    refreshed);
 *  - the handler pool: pool threads, created idle before any request (as
 *    an HTTP server's pool is), waiting on a condition variable; requests
 *    are handed out in turn (request i to pool thread i mod pool: the
 *    order in which glibc's condition variable wakes its waiters, oldest
 *    first, made deterministic), in_flight at a time;
 *  - a GET /shared: decode the EC reply for every file into a tag tree
 *    (the same 29 allocations a file), render the JSON body from it
 *    (body_b bytes a file appended to a buffer that doubles, as a
 *    std::string does), free the tree (oldest tag first, as the
 *    std::list of CECTag children is destroyed), send the body (it is
 *    read), free it (checkpoint served, after every request: the report's
 *    VmHWM and "RSS after");
 *  - malloc_trim(0) once the requests are served (checkpoint trimmed,
 *    #1153's fix);
 *  - arena_max=2 is MALLOC_ARENA_MAX: mallopt(M_ARENA_MAX) first thing in
 *    main, before any thread exists (the same as the environment variable
 *    or the glibc.malloc.arena_max tunable; see thread-vsz.c).  Under
 *    another allocator it changes nothing.
 *
 * in_flight: the report ran 16 requests at once.  The model's default
 * runs them one at a time ("sequential requests are enough to pin one
 * arena after another", the report says), so that the figures do not
 * depend on how the machine schedules 16 threads.  With all 16 at once
 * most trees are alive at the same time whatever the arenas, and the two
 * settings come closer (by hand, default size, in_flight=16: 491.7 vs
 * 368.4 MiB at served, 1.3x, against 6.5x one at a time): the report's
 * VmHWM, 1.7x lower with two arenas, says its 16 requests were not all at
 * their peak together.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs: 16 arenas, so the
 * 16th pool thread shares one; `memrepro run amule-arenas --profile full`):
 * RSS at served 484.9 MiB without, 74.6 MiB with arena_max=2 (the report:
 * 199 and 88 MB); VmHWM 491.6 and 81.3 MiB (281 and 166 MB); after
 * malloc_trim(0) 141.7 and 51.5 MiB.  jemalloc, tcmalloc and mimalloc
 * ignore arena_max (jemalloc keeps 310-331 MB at served, its decay not due
 * yet; tcmalloc 83 MB; mimalloc 447-464 MB).
 *
 * Left out: amuled and the EC socket (the reply is decoded from nothing),
 * HTTP parsing and the connection's own buffers, the JSON library (the body
 * is bytes), the refresher's later ticks and the SSE stream, latency (the
 * report's 1.53 vs 1.56 s: time is not claimed), and the allocation fixes of
 * the rest of the report's series.
 *
 * No musl build: it calls glibc's malloc_trim, mallopt, which musl's libc lacks.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "files", "11906", "1000", "int:1..200000", NULL,
	  "files in the shared library (report: 11,906; #1153: 12k)" },
	{ "pool", "16", NULL, "int:1..256", NULL,
	  "handler pool threads, created idle before the first request" },
	{ "requests", "16", NULL, "int:0..4096", NULL,
	  "GET /shared requests, handed to the pool threads in turn (report: 16)" },
	{ "in_flight", "1", NULL, "int:1..256", NULL,
	  "requests served at once, at most pool (report: 16 concurrent; 1: one after another)" },
	{ "snapshot_b", "1750", NULL, "int:0..65536", NULL,
	  "bytes of a file's snapshot, which stays (#1153: ~40 MB peak heap - ~19 MB tree over 12k files)" },
	{ "body_b", "256", NULL, "int:0..65536", NULL,
	  "bytes of JSON a file adds to the response body" },
	{ "arena_max", "unset", NULL, "unset|1|2|4|8|16|256", "unset|2",
	  "MALLOC_ARENA_MAX, set with mallopt(M_ARENA_MAX) before any thread (glibc only; report: unset vs 2)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before anything is allocated" },
	{ "refreshed", "after the refresher's first tick: snapshots kept, its tag tree freed (#1153)" },
	{ "served", "after every request was served (the report's VmHWM and RSS after)" },
	{ "trimmed", "after malloc_trim(0) (#1153's fix)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "amule-arenas",
	.title = "A handler pool keeps a request's peak per thread's arena: MALLOC_ARENA_MAX=2 halves RSS",
	.source = "amule-org/amule#1095 (amuleapi, 2026): 11,906 files, 16 concurrent GET /shared, "
		  "VmHWM 281 MB / RSS after 199 MB without, 166 / 88 MB with MALLOC_ARENA_MAX=2; "
		  "#1153: ~19 MB tag tree over ~348k allocations, peak heap ~40 MB vs peak RSS ~117 MB",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "arenas",
};

/* A file's EC tag tree: 29 allocations (#1153: ~348k for 12k files) whose
 * sizes average 55 bytes (~19 MB / ~348k): tag nodes of 48 bytes and their
 * values (integers, hashes, names, paths).  Every size holds the link of
 * struct tag. */
#define MR_TAG_ALLOCS 29
static const unsigned short tag_sizes[MR_TAG_ALLOCS] = {
	48, 16, 48, 24, 48, 160, 48, 24, 48, 24, 48, 16, 48, 256, 48,
	24, 48, 64, 48, 16, 48, 80, 48, 16, 48, 24, 48, 128, 48,
};

/* An allocation of the tree, linked so that freeing it needs no array. */
struct tag {
	struct tag *next;
};

struct tree {
	struct tag *head;   /* the oldest: freed first */
	struct tag *tail;   /* the newest */
	size_t allocs;
	size_t bytes;
};

_Static_assert(sizeof(struct tag) <= 16, "every tag size holds the link");

static size_t files, snapshot_b, body_b;

/* malloc, or the case fails: never NULL. */
static void *xmalloc(size_t size, const char *what)
{
	void *p = malloc(size);

	if (p)
		return p;
	mr_fail("malloc(%zu) of %s:", size, what);
}

/* The value of arena_max, an enumeration of numbers besides unset. */
static int arena_max(void)
{
	return (int)strtol(mr_param("arena_max"), NULL, 10);
}

static void tree_add(struct tree *t, size_t size)
{
	struct tag *g = xmalloc(size, "a tag");

	memset(g, 0x5a, size);
	g->next = NULL;
	if (t->tail)
		t->tail->next = g;
	else
		t->head = g;
	t->tail = g;
	t->allocs++;
	t->bytes += size;
}

static void tree_add_file(struct tree *t)
{
	size_t i;

	for (i = 0; i < MR_TAG_ALLOCS; i++)
		tree_add(t, tag_sizes[i]);
}

static void tree_free(struct tree *t)
{
	struct tag *g = t->head, *next;

	while (g) {
		next = g->next;
		free(g);
		g = next;
	}
	t->head = t->tail = NULL;
}

/* The response body, grown as a std::string grows: doubling, copying. */
struct body {
	char *p;
	size_t len, cap;
};

static void body_append(struct body *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = xmalloc(cap, "the body");
		if (b->len)
			memcpy(p, b->p, b->len);
		free(b->p);
		b->p = p;
		b->cap = cap;
	}
	memset(b->p + b->len, '"', n);
	b->len += n;
}

/* GET /shared, on a pool thread. */
static void serve_shared(void)
{
	struct tree t = { 0 };
	struct body b = { 0 };
	size_t f;

	for (f = 0; f < files; f++)
		tree_add_file(&t);
	for (f = 0; f < files && body_b; f++)
		body_append(&b, body_b);
	tree_free(&t);
	mr_keep(b.p);      /* sent */
	free(b.p);
}

/* --- the handler pool -------------------------------------------------- */

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t work;     /* a request was handed to some thread */
	pthread_cond_t done;     /* a request was served */
	unsigned char *pending;  /* per thread: a request waits for it */
	size_t served;           /* requests served so far */
	int quit;
};

struct worker {
	struct pool *pool;
	size_t id;
	pthread_t th;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->pending[w->id] && !p->quit)
			pthread_cond_wait(&p->work, &p->lock);
		if (!p->pending[w->id])
			break;
		pthread_mutex_unlock(&p->lock);
		serve_shared();
		pthread_mutex_lock(&p->lock);
		p->pending[w->id] = 0;
		p->served++;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int main(int argc, char **argv)
{
	struct pool p = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			  PTHREAD_COND_INITIALIZER, NULL, 0, 0 };
	struct worker *w;
	struct tree refresh = { 0 };
	char **snapshots;
	size_t npool, requests, in_flight, i, f, next = 0;
	int trimmed;
	char line[512];
	int len;

	mr_case_init(&desc, argc, argv);
	files = (size_t)mr_param_int("files");
	npool = (size_t)mr_param_int("pool");
	requests = (size_t)mr_param_int("requests");
	in_flight = (size_t)mr_param_int("in_flight");
	snapshot_b = (size_t)mr_param_int("snapshot_b");
	body_b = (size_t)mr_param_int("body_b");
	if (in_flight > npool)
		mr_usage("in_flight=%zu is more than pool=%zu", in_flight, npool);
	if (!mr_param_is("arena_max", "unset") &&
	    mallopt(M_ARENA_MAX, arena_max()) != 1)
		mr_fail("mallopt(M_ARENA_MAX, %s) refused", mr_param("arena_max"));

	snapshots = calloc(files, sizeof *snapshots);
	w = calloc(npool, sizeof *w);
	p.pending = calloc(npool, 1);
	if (!snapshots || !w || !p.pending)
		mr_fail("calloc:");
	mr_checkpoint("start");

	/* The refresher's first tick: the whole state decoded, each file's
	 * snapshot kept between the tags that go. */
	for (f = 0; f < files; f++) {
		tree_add_file(&refresh);
		if (snapshot_b) {
			snapshots[f] = xmalloc(snapshot_b, "a snapshot");
			memset(snapshots[f], 0x33, snapshot_b);
		}
	}
	tree_free(&refresh);
	mr_checkpoint("refreshed");

	for (i = 0; i < npool; i++) {
		int err;

		w[i].pool = &p;
		w[i].id = i;
		if ((err = pthread_create(&w[i].th, NULL, worker_main, &w[i])) != 0) {
			errno = err;
			if (err == EAGAIN)
				mr_skip("pthread_create of pool thread %zu: EAGAIN (a limit of this machine)", i + 1);
			mr_fail("pthread_create of pool thread %zu:", i + 1);
		}
	}

	/* Requests in waves of in_flight, each handed to the next thread. */
	while (next < requests) {
		size_t wave = requests - next < in_flight ? requests - next : in_flight;
		size_t want;

		pthread_mutex_lock(&p.lock);
		want = p.served + wave;
		for (i = 0; i < wave; i++)
			p.pending[(next + i) % npool] = 1;
		pthread_cond_broadcast(&p.work);
		while (p.served < want)
			pthread_cond_wait(&p.done, &p.lock);
		pthread_mutex_unlock(&p.lock);
		next += wave;
	}
	mr_checkpoint("served");

	trimmed = malloc_trim(0);
	mr_checkpoint("trimmed");

	pthread_mutex_lock(&p.lock);
	p.quit = 1;
	pthread_cond_broadcast(&p.work);
	pthread_mutex_unlock(&p.lock);
	for (i = 0; i < npool; i++)
		pthread_join(w[i].th, NULL);
	if (p.served != requests)
		mr_fail("%zu of %zu requests served", p.served, requests);
	for (f = 0; f < files; f++)
		free(snapshots[f]);
	free(snapshots);
	free(p.pending);
	free(w);

	len = snprintf(line, sizeof line,
		       "amule-arenas: %zu files (%zu tag allocations, %zu bytes a request), %zu requests on %zu pool threads, "
		       "%zu at once, arena_max %s; malloc_trim returned %d\n",
		       files, refresh.allocs, refresh.bytes, requests, npool, in_flight,
		       mr_param("arena_max"), trimmed);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
