/* python-worker-arenas: a Python web worker's 8 pool threads each serve
 * requests from a glibc arena of their own; each request's objects are
 * freed but for a few small survivors, and the idle worker keeps every
 * arena's high-water mark: one request's worth per thread.
 *
 * Source: goauthentik/authentik#25683, "2026.8.1 server memory: glibc
 * arena retention plus a ~1.7 GiB transient spike when browsing the admin
 * UI (OOM)" (thekoma, 2026-09-02; the text relied on is
 * seeds/008_bf1798111e133789.txt).  "A gunicorn web worker that handled
 * one burst keeps the memory afterwards.  An idle worker, serving no
 * traffic, sat at:
 *     Rss: 2110844 kB  Private_Dirty: 2002740 kB  Anonymous: 2090156 kB
 *     threads: 8"
 * on Debian trixie's glibc 2.41 with no MALLOC_* tuning; the
 * DjangoUvicornWorker "runs blocking DB work in an 8-thread
 * ThreadPoolExecutor".  "Setting MALLOC_ARENA_MAX=2 and
 * MALLOC_TRIM_THRESHOLD_=131072 on the server (and worker) cut the
 * post-burst retention from ~2 GiB to ~640 MiB and dropped idle baseline
 * from ~850 MiB to ~480 MiB."  A later comment (2026-09-09) retracts a
 * different claim, a floor after an admin session that "never returns":
 * gunicorn's max_requests (1000) recycled the workers, and the memory went
 * with them (3700 -> 533 MiB).  A worker keeps what its arenas hold for
 * as long as it lives.
 *
 * In one sentence: glibc gives each thread that mallocs an arena of its
 * own (up to 8 x CPUs), an arena keeps the freed chunks that lie below its
 * last live chunk, so each pool thread's arena holds the largest request
 * it served, and capping the arenas at 2 makes the threads share two
 * arenas whose freed chunks the next requests reuse.
 *
 * Mechanism (glibc 2.36 malloc/arena.c and malloc.c, read, not copied;
 * the report's 2.41 measured alike, below).  A thread's first malloc
 * attaches it to an arena: a new one (arena_get2 -> _int_new_arena, a
 * 64 MiB heap reserved, the part in use committed) while there are
 * fewer than arena_max (M_ARENA_MAX, MALLOC_ARENA_MAX,
 * glibc.malloc.arena_max; default 8 x the CPUs online on 64-bit), else
 * an existing one, round robin (reuse_arena), the main arena among them;
 * the thread keeps it.  CPython serves objects
 * above 512 bytes (a row's str, bytes, the list of a query's rows) with
 * PyMem_RawMalloc, that is malloc, from the thread that creates them.  A
 * free returns memory to the kernel only from an arena's top (systrim for
 * the main arena, heap_trim for the others) once the free top passes
 * trim_threshold; the chunks freed below a live one coalesce and stay, in
 * the bins, resident.  A request that leaves one small object behind for
 * every few dozen (a cached query, a session, a connection's state: the
 * report does not say what) keeps its whole span: its thread's arena
 * holds it until the next request of that thread reuses it.  With 8
 * arenas for 8 threads, 8 requests' worth stay; with 2 arenas, the
 * threads alternate between the main arena and one other, each request
 * reuses the chunks the one before it in that arena freed, and 2 requests'
 * worth stay.  MALLOC_TRIM_THRESHOLD_=131072 is glibc's default value:
 * setting it only stops glibc from raising the thresholds when an mmapped
 * chunk is freed (here the per-request list, 8 bytes per object: 1 MiB at
 * the report's size), so it changes little; the cap does the work
 * (measured below, and claimed).
 *
 * What is modelled: `threads` pool threads, started at once (each mallocs
 * its cache list at start, which attaches its arena, as a Python thread's
 * own state does); `rounds` x `threads` requests served one at a time, the
 * next request by the next thread in turn (a burst spread over the pool;
 * the report does not say how the requests overlapped: see "Left out").  A
 * request mallocs its objects list (8 bytes each), then request_mb of
 * objects of chunk_b bytes, writes them, and after every keep-th object a
 * survivor of survivor_b bytes that goes on its thread's cache list; then
 * frees the objects and the list.  The first request, its objects live, is
 * the checkpoint `held` (one request's worth); after the last, the worker
 * idles idle_ms (`idle`).  The case prints glibc's arena count
 * (malloc_info) and the survivors' bytes.
 *
 * The sizes: the report's ~2 GiB across 8 threads is 256 MiB a thread:
 * request_mb 256, 2 rounds (16 requests); quick 4 MiB and 2 rounds.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, 2 CPUs, THP always: the host
 * during a CI run), RSS growth from start, KiB.  Quick (`build/memrepro
 * check --profile quick --axis allocator=glibc python-worker-arenas`,
 * medians of 3): held +4,276 (one request); idle untuned +34,752 (8.1
 * requests), glibc.malloc.arena_max=2 +9,844 (2.3), trim_threshold=131072
 * alone +34,752, both (`--axis glibc.malloc.arena_max=2 --axis
 * glibc.malloc.trim_threshold=131072`, one run) +9,844.  glibc counts 9
 * arenas untuned, 2 capped.  Under the report's glibc 2.41 (`--axis
 * libc=2.41`, one run) +34,752 / +9,852 / +34,752.  The report's sizes
 * (`--profile full --axis allocator=glibc --axis runtime=c --repeat 1`):
 * idle RSS 2,170.1 MiB untuned, 617.4 capped, 2,162.1 with the threshold
 * alone (report: Rss 2,110,844 kB, ~640 MiB).  The untuned figure is the
 * report's by construction (request_mb is its ~2 GiB over 8 threads); the
 * capped one is the mechanism's.  Other allocators, quick, idle: jemalloc
 * 5.3.0 +33,172 (its own arenas, 4 x CPUs, and 10 s of decay against 200
 * ms of idle), tcmalloc 2.10 +14,096 (central free lists that every
 * thread reuses), mimalloc 2.0.9 +34,624 (a heap per thread).  Under THP
 * madvise and never: not measured here (the host was always).
 *
 * Left out: Django, uvicorn and gunicorn (the worker's code and its ~480
 * to ~850 MiB baseline), requests that overlap in time (concurrent
 * requests share the peak: with all 8 live at once the cap keeps as much,
 * and the report's burst was surely partly concurrent), the admin UI's
 * transient spike (the report's second behaviour), worker recycling
 * (max_requests), and the objects' mix of sizes (all are chunk_b bytes).
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static const struct mr_param params[] = {
	{ "threads", "8", NULL, "int:1..256", NULL,
	  "the worker's pool threads (report: an 8-thread ThreadPoolExecutor)" },
	{ "rounds", "2", NULL, "int:1..1000",  NULL,
	  "requests each thread serves, in turn with the others (the report's burst)" },
	{ "request_mb", "256", "4", "int:1..65536", NULL,
	  "MiB of objects a request allocates and frees (report: ~2 GiB held by 8 threads)" },
	{ "chunk_b", "2048", NULL, "int:520..65536", NULL,
	  "bytes of an object: above pymalloc's 512, so malloc's (not in the report)" },
	{ "keep", "32", NULL, "int:1..1000000", NULL,
	  "a survivor after one object in this many (not in the report)" },
	{ "survivor_b", "1024", NULL, "int:0..65536", NULL,
	  "bytes of a survivor, kept on its thread's cache list; 0: none survive" },
	{ "idle_ms", "1000", "200", "int:0..600000", NULL,
	  "how long the worker idles after the burst" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "the pool threads started, each attached to its arena, no request served" },
	{ "held", "the first request's objects allocated and live (one request's worth)" },
	{ "idle", "every request served and its objects freed, idle_ms later (report: Rss 2110844 kB)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "python-worker-arenas",
	.title = "A Python worker's pool threads each keep a request's worth in their own glibc arena; MALLOC_ARENA_MAX=2 shares them",
	.source = "goauthentik/authentik#25683 (2026, glibc 2.41): an idle worker with 8 threads at Rss 2110844 kB; "
		  "MALLOC_ARENA_MAX=2 and MALLOC_TRIM_THRESHOLD_=131072 cut post-burst retention from ~2 GiB to ~640 MiB",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "arenas",
};

/* A pool thread: its index and its cache of survivors. */
struct worker {
	pthread_t tid;
	size_t idx;
	void **cache;   /* survivors, kept to the end */
	size_t ncache;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t moved = PTHREAD_COND_INITIALIZER;
static size_t turn;    /* the request being served; starts when go is set */
static size_t started; /* threads attached to their arena */
static int go, done;    /* the burst may start; the worker is shutting down */
static size_t nthreads, rounds, nobj, chunk_b, keep, survivor_b;

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		mr_fail("malloc(%zu):", n);
	return p;
}

/* One request: the objects and their list, the survivors kept. */
static void serve(struct worker *w, int first)
{
	void **objs = xmalloc(nobj * sizeof *objs);
	size_t i;

	for (i = 0; i < nobj; i++) {
		objs[i] = xmalloc(chunk_b);
		memset(objs[i], 'a' + (int)(i % 26), chunk_b);
		if (survivor_b && i % keep == keep - 1) {
			void *s = xmalloc(survivor_b);

			memset(s, 's', survivor_b);
			w->cache[w->ncache++] = s;
		}
	}
	if (first)
		mr_checkpoint("held");
	for (i = 0; i < nobj; i++) {
		mr_keep(objs[i]);
		free(objs[i]);
	}
	free(objs);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t r, req;

	/* the thread's own state: its first malloc attaches its arena */
	w->cache = xmalloc((rounds * (nobj / keep) + 1) * sizeof *w->cache);
	pthread_mutex_lock(&lock);
	started++;
	pthread_cond_broadcast(&moved);
	for (r = 0; r < rounds; r++) {
		req = r * nthreads + w->idx;
		while (!go || turn != req)
			pthread_cond_wait(&moved, &lock);
		pthread_mutex_unlock(&lock);
		serve(w, req == 0);
		pthread_mutex_lock(&lock);
		turn++;
		pthread_cond_broadcast(&moved);
	}
	/* idle in the pool, as the executor's threads wait for work */
	while (!done)
		pthread_cond_wait(&moved, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* glibc's arenas, counted from malloc_info's XML (one <heap nr=...> each);
 * -1 when it cannot be had (not glibc).  Uses stdio and malloc: call after
 * measuring. */
static long count_arenas(void)
{
#ifdef __GLIBC__
	char *buf = NULL, *p;
	size_t len = 0;
	long n = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -1;
	if (malloc_info(0, f) != 0) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	for (p = buf; p && (p = strstr(p, "<heap nr=")); p++)
		n++;
	free(buf);
	return n;
#else
	return -1;
#endif
}

static void idle(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	struct worker *ws;
	size_t i, k, kept = 0;
	int rc, len;
	char line[256];

	mr_case_init(&desc, argc, argv);
	nthreads = (size_t)mr_param_int("threads");
	rounds = (size_t)mr_param_int("rounds");
	chunk_b = (size_t)mr_param_int("chunk_b");
	keep = (size_t)mr_param_int("keep");
	survivor_b = (size_t)mr_param_int("survivor_b");
	nobj = (size_t)mr_param_int("request_mb") * 1024 * 1024 / chunk_b;
	if (nobj == 0)
		mr_usage("request_mb is smaller than one object of chunk_b bytes");

	ws = calloc(nthreads, sizeof *ws);
	if (!ws)
		mr_fail("calloc:");
	for (i = 0; i < nthreads; i++) {
		ws[i].idx = i;
		if ((rc = pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]))) {
			errno = rc;
			mr_fail("pthread_create of pool thread %zu:", i + 1);
		}
	}
	pthread_mutex_lock(&lock);
	while (started < nthreads)
		pthread_cond_wait(&moved, &lock);
	pthread_mutex_unlock(&lock);
	mr_checkpoint("start");

	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_broadcast(&moved);
	while (turn < rounds * nthreads)
		pthread_cond_wait(&moved, &lock);
	pthread_mutex_unlock(&lock);
	idle((long)mr_param_int("idle_ms"));
	mr_checkpoint("idle");

	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&moved);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < nthreads; i++) {
		pthread_join(ws[i].tid, NULL);
		kept += ws[i].ncache;
	}
	len = snprintf(line, sizeof line,
		       "python-worker-arenas: %zu threads x %zu requests of %zu objects of %zu bytes; "
		       "%zu survivors of %zu bytes kept; glibc arenas (malloc_info) %ld\n",
		       nthreads, rounds, nobj, chunk_b, kept, survivor_b, count_arenas());
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	for (i = 0; i < nthreads; i++) {
		for (k = 0; k < ws[i].ncache; k++)
			free(ws[i].cache[k]);
		free(ws[i].cache);
	}
	free(ws);
	return MR_EXIT_OK;
}
