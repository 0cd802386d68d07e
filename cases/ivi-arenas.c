/* ivi-arenas: each restart of a Flutter shell brings a burst of worker
 * threads; with glibc's default arena limit RSS grows ~35 MB a restart,
 * with M_ARENA_MAX 4 or 2 about what the restart really keeps.
 *
 * Source: toyota-connected/ivi-homescreen#610 (pull request, 2026-09-19),
 * "shell: bound glibc's malloc arenas at startup": mallopt(M_ARENA_MAX, 4)
 * in main() before any thread, unless MALLOC_ARENA_MAX is set.  Measured on
 * the "fluorite" platform view (a threaded renderer and a job system),
 * restarting the Dart isolate 8 times per run, RSS before -> after and per
 * restart:
 *
 *   default                        381 -> 733 MB   +35 MB
 *   mallopt(M_ARENA_MAX, 4)        368 -> 473 MB   +13 MB
 *   MALLOC_ARENA_MAX=2             365 -> 435 MB   +8.8 MB
 *   MALLOC_ARENA_MAX=256           377 -> 631 MB   +31.6 MB
 *   plain Flutter app, no view     152 -> 249 MB   +12 MB  ("the floor")
 *
 * on a 32-thread machine (the report: "256 on a 32-thread machine"), so its
 * default is 256 arenas.  The author's flutter/flutter#135525 shows the
 * engine's io.worker pool with one thread per hardware thread there.
 *
 * In one sentence: a restart's new threads each take an arena of their own
 * while fewer than the limit exist, each arena keeps the high-water mark of
 * the work done in it below what stays, and with a limit of 4 or 2 the new
 * threads share arenas whose free space the last restart left.
 *
 * Mechanism (glibc 2.36 malloc/arena.c; read, not copied; thread-vsz.c and
 * amule-arenas.c say more).  A thread's first malloc calls arena_get2,
 * which takes, in order: an arena from free_list (arenas whose threads have
 * all exited: __malloc_arena_thread_freeres puts it there at thread exit);
 * a new arena while narenas is below the limit (arena_max, else 8 x CPUs);
 * else reused_arena, round-robin over all arenas.  An arena never goes back
 * to the system, and what is freed in it is returned only from the top of
 * its heap (heap_trim), never below a chunk still in use.  (The pull
 * request has glibc make a new heap "whenever it finds every existing arena
 * contended"; in 2.36 a thread picks its arena once, at its first malloc,
 * contended or not, and again only when an allocation fails there:
 * arena_get_retry.)
 *
 * So whether restarts ratchet depends on when the old threads end, which
 * the report does not say; the `ended` parameter chooses:
 *  - before: the old burst's threads have exited before the new burst
 *    starts; their arenas are on free_list and the new threads take them,
 *    free space and all: RSS grows by what the restarts keep, whatever the
 *    limit;
 *  - next (the default): the new burst comes up while the old one is still
 *    winding down, and the old one ends after it; the new threads find
 *    free_list holding the arenas of the burst before (ended at the last
 *    restart), so the arenas in use settle at two bursts' worth after the
 *    first restart;
 *  - never: the bursts' threads stay parked until the process exits (an
 *    engine or plugin that does not join its workers): every restart takes
 *    fresh arenas until the limit; with the report's 256 and 32 threads
 *    that is the launch and seven restarts (the eighth finds them made).
 * Only `never` makes the default grow by the same amount every restart, as
 * the report's table shows.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs; `memrepro run
 * ivi-arenas --profile full`, medians of 3), RSS launched -> after 8
 * restarts: ended=never, 256 arenas 37.5 -> 305.8 MiB (+33.5 a restart;
 * the report's default +35, its 256 +31.6), 4 arenas 19.4 -> 141.1 (+15.2;
 * the report +13), 2 arenas 18.5 -> 139.8 (+15.2; the report +8.8);
 * ended=next, 256 arenas 37.5 -> 179.4: +36.1 at the first restart, then
 * +15.1 a restart, as 4 and 2 do.  By hand, ended=before: 256 37.5 ->
 * 158.2, 4 19.9 -> 139.4.  The floor and work_kb come from the report, so
 * the steps' sizes are the report's by construction; what the model shows
 * is which settings and lifetimes make them.
 *
 * What is modelled:
 *  - a launch and `restarts` restarts; each brings a burst of `threads`
 *    threads (the job system's workers, one per hardware thread of the
 *    report's 32-thread machine) that come up together: all are created,
 *    then each does its work, and the burst is done when every one is;
 *  - a worker's work: work_kb KiB of transient blocks (512 B to 32 KiB,
 *    below the mmap threshold), interleaved with its share of what the
 *    restart keeps (floor_kb / threads, in 4 KiB pieces that are never
 *    freed: the Dart VM's cost per restart in a debug engine, the report's
 *    "floor" of +12 MB); then the transient blocks are freed;
 *  - work_kb: the report's default row less its floor, over a burst:
 *    (35 - 12) MB / 32 threads = 736 KiB;
 *  - arena_max is MALLOC_ARENA_MAX (unset: 8 x CPUs, 16 on the reference
 *    machine; 256: the report machine's default and its override row; 4:
 *    the pull request's mallopt; 2), set with mallopt(M_ARENA_MAX) first in
 *    main, before any thread.  Under another allocator it changes nothing.
 *
 * Checkpoints: launched (after the first burst; the report's first RSS)
 * and restart, once a restart (burst done and, with ended=next, the
 * previous burst joined; the eighth is the report's last RSS).
 *
 * Left out: the Flutter engine, the Dart VM and the renderer (their own
 * 150-380 MB; compare growth, not totals), GPU memory, the engine's other
 * pools and the order in which a real burst's threads first call malloc.
 *
 * No musl build: it calls glibc's mallopt, which musl's libc lacks.
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
	{ "restarts", "8", "4", "int:0..64", NULL,
	  "isolate restarts after the launch (report: 8 per run)" },
	{ "threads", "32", "4", "int:1..1024", NULL,
	  "worker threads each restart brings up together (report's machine: 32 hardware threads)" },
	{ "work_kb", "736", NULL, "int:0..1048576", NULL,
	  "KiB of transient work per worker and restart (report: (35 - 12) MB / 32 threads)" },
	{ "floor_kb", "12288", "1536", "int:0..1048576", NULL,
	  "KiB a restart keeps, shared by its workers (report: the plain app's +12 MB a restart)" },
	{ "ended", "next", NULL, "before|next|never", "next|never",
	  "when a burst's threads end: before the next burst, after it came up, or never" },
	{ "arena_max", "unset", NULL, "unset|1|2|4|8|16|256", "256|4|2",
	  "MALLOC_ARENA_MAX, set with mallopt(M_ARENA_MAX) before any thread (glibc only)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "launched", "after the launch's burst of workers did its work (the report's first RSS)" },
	{ "restart", "after each restart's burst did its work (and, with ended=next, the one before ended)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "ivi-arenas",
	.title = "A burst of worker threads per restart: RSS +35 MB a restart with glibc's default arenas, +13 with 4",
	.source = "toyota-connected/ivi-homescreen#610 (2026): 8 isolate restarts, RSS 381 -> 733 MB "
		  "(+35 MB a restart) default, 368 -> 473 (+13) M_ARENA_MAX 4, 365 -> 435 (+8.8) 2, "
		  "377 -> 631 (+31.6) 256; plain app 152 -> 249 (+12)",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "arenas",
};

enum { PIECE = 4096 };
/* Transient block sizes, in turn: all below the 128 KiB mmap threshold. */
static const size_t block_sizes[] = { 512, 2048, 8192, 32768, 1024, 16384 };
#define NBLOCK_SIZES (sizeof block_sizes / sizeof block_sizes[0])

struct burst;

struct worker {
	struct burst *burst;
	pthread_t th;
	size_t kept;     /* bytes of floor it keeps */
};

/* The workers of one launch or restart. */
struct burst {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t n;
	size_t done;     /* workers whose work is done */
	int stop;        /* time to end */
	struct worker *w;
	size_t floor_each, work;
};

/* A transient block or a kept piece, linked so that freeing needs no
 * array. */
struct block {
	struct block *next;
};

/* What the restarts keep: freed only at exit, after the last checkpoint. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static struct block *kept_list;

/* calloc, or the case fails: never NULL. */
static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (p)
		return p;
	mr_fail("calloc(%zu, %zu):", n, size);
}

static void *alloc_filled(size_t size, int c)
{
	struct block *blk = malloc(size);

	if (blk) {
		memset(blk, c, size);
		return blk;
	}
	mr_fail("malloc(%zu):", size);
}

/* The value of arena_max, an enumeration of numbers besides unset. */
static int arena_max(void)
{
	return (int)strtol(mr_param("arena_max"), NULL, 10);
}

/* The worker's work: transient blocks, its share of the floor spread
 * evenly between them (after block i, ceil(pieces * (i + 1) / nblocks)
 * pieces in all), then the transient blocks freed. */
static void work(struct burst *b, struct worker *w)
{
	struct block *head = NULL, *mine = NULL, *last = NULL, *blk;
	size_t nblocks = 0, sum = 0, pieces, i, made = 0;

	while (sum < b->work)
		sum += block_sizes[nblocks++ % NBLOCK_SIZES];
	pieces = (b->floor_each + PIECE - 1) / PIECE;
	for (i = 0; i < nblocks || made < pieces; i++) {
		size_t due = nblocks ? (pieces * (i + 1) + nblocks - 1) / nblocks : pieces;

		if (i < nblocks) {
			blk = alloc_filled(block_sizes[i % NBLOCK_SIZES], 0x77);
			blk->next = head;
			head = blk;
		}
		for (; made < due && made < pieces; made++) {
			blk = alloc_filled(PIECE, 0x11);
			blk->next = mine;
			mine = blk;
			if (!last)
				last = blk;
		}
	}
	while (head) {
		blk = head->next;
		free(head);
		head = blk;
	}
	w->kept = made * PIECE;
	if (last) {
		pthread_mutex_lock(&kept_lock);
		last->next = kept_list;
		kept_list = mine;
		pthread_mutex_unlock(&kept_lock);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct burst *b = w->burst;

	work(b, w);
	pthread_mutex_lock(&b->lock);
	b->done++;
	pthread_cond_broadcast(&b->cond);
	while (!b->stop)
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

static struct burst *burst_start(size_t n, size_t floor_kb, size_t work_kb)
{
	struct burst *b = xcalloc(1, sizeof *b);
	size_t i;

	b->w = xcalloc(n, sizeof *b->w);
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->cond, NULL);
	b->n = n;
	b->floor_each = floor_kb * 1024 / n;
	b->work = work_kb * 1024;
	for (i = 0; i < n; i++) {
		int err;

		b->w[i].burst = b;
		if ((err = pthread_create(&b->w[i].th, NULL, worker_main, &b->w[i])) != 0) {
			errno = err;
			if (err == EAGAIN)
				mr_skip("pthread_create of worker %zu: EAGAIN (a limit of this machine)", i + 1);
			mr_fail("pthread_create of worker %zu:", i + 1);
		}
	}
	return b;
}

static void burst_wait(struct burst *b)
{
	pthread_mutex_lock(&b->lock);
	while (b->done < b->n)
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
}

/* End the burst's threads and join them; returns the bytes they kept. */
static size_t burst_end(struct burst *b)
{
	size_t i, kept = 0;

	pthread_mutex_lock(&b->lock);
	b->stop = 1;
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->lock);
	for (i = 0; i < b->n; i++) {
		pthread_join(b->w[i].th, NULL);
		kept += b->w[i].kept;
	}
	pthread_cond_destroy(&b->cond);
	pthread_mutex_destroy(&b->lock);
	free(b->w);
	free(b);
	return kept;
}

int main(int argc, char **argv)
{
	struct burst **bursts;
	size_t restarts, threads, work_kb, floor_kb, r, live = 0, kept = 0;
	int never, before;
	char line[512];
	int len;

	mr_case_init(&desc, argc, argv);
	restarts = (size_t)mr_param_int("restarts");
	threads = (size_t)mr_param_int("threads");
	work_kb = (size_t)mr_param_int("work_kb");
	floor_kb = (size_t)mr_param_int("floor_kb");
	never = mr_param_is("ended", "never");
	before = mr_param_is("ended", "before");
	if (!mr_param_is("arena_max", "unset") &&
	    mallopt(M_ARENA_MAX, arena_max()) != 1)
		mr_fail("mallopt(M_ARENA_MAX, %s) refused", mr_param("arena_max"));
	bursts = xcalloc(restarts + 1, sizeof *bursts);

	for (r = 0; r <= restarts; r++) {
		/* ended=before: the old isolate's workers are gone first. */
		if (before && r > 0) {
			kept += burst_end(bursts[r - 1]);
			bursts[r - 1] = NULL;
			live--;
		}
		bursts[r] = burst_start(threads, floor_kb, work_kb);
		live++;
		burst_wait(bursts[r]);
		/* ended=next: they wind down once the new ones run. */
		if (!before && !never && r > 0) {
			kept += burst_end(bursts[r - 1]);
			bursts[r - 1] = NULL;
			live--;
		}
		mr_checkpoint(r == 0 ? "launched" : "restart");
	}

	for (r = 0; r <= restarts; r++)
		if (bursts[r])
			kept += burst_end(bursts[r]);
	free(bursts);
	while (kept_list) {
		struct block *next = kept_list->next;

		free(kept_list);
		kept_list = next;
	}
	if (kept < (restarts + 1) * (floor_kb * 1024 / threads) * threads)
		mr_fail("the workers kept %zu bytes, less than their floor", kept);

	len = snprintf(line, sizeof line,
		       "ivi-arenas: launch + %zu restarts of %zu workers (%zu KiB of work each, %zu KiB kept a restart), "
		       "ended %s, arena_max %s: %zu bursts alive at the end, %zu KiB kept in all\n",
		       restarts, threads, work_kb, floor_kb, mr_param("ended"), mr_param("arena_max"),
		       live, kept / 1024);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
