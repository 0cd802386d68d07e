/* arena-ratchet: tiles of 11 MB from a pool of threads — glibc's RSS climbs
 * by steps, one arena's high-water mark at a time, until the mmap threshold
 * is pinned or the arenas are capped.
 *
 * Source: samsoir/xearthlayer#227 ("Unbounded memory growth proportional
 * to tiles processed — OOM kill on long flights", August 2026, a Rust
 * X-Plane scenery streamer on glibc, 32 cores), with the two pull requests
 * that fixed it, #242 (mallopt(M_MMAP_THRESHOLD, 1 MiB), 2026-08-24) and
 * #244 (mallopt(M_ARENA_MAX, 4), 2026-08-26).  Figures as printed:
 *
 *   #242, a reproduction on glibc 2.44, one DDS tile = "11.17 MiB":
 *     round 0:  arena 1.6 MB, hblkhd 44.4 MB  (served by mmap)
 *     round 1:  arena 45.6 MB, hblkhd 0.4 MB  (served by the arena)
 *     round 2+: arena 45.6 MB, hblkhd 0.4 MB  (not returned on free)
 *   #242, "64 threads cycling 11 MiB buffers", anonymous resident retained:
 *     default 191.5 MB, MALLOC_ARENA_MAX=2 70.4 MB, threshold pinned to
 *     1 MiB 4.6 MB
 *   #227/#244, in flight (committed = RssAnon + VmSwap; "arena" is
 *   mallinfo2's): uncapped (256 arenas) "18 steps spread across 11 hours",
 *   arena 6,091 MB at the end with 1,002 MB live; ARENA_MAX=4: 3,916 MB
 *   "in the first six minutes, in six steps", then flat ("DRIFT=1 MB" over
 *   81,121 encodes); end state committed 11,580 MB uncapped vs 9,687 MB
 *   capped, arena 6,091 vs 4,038 MB.
 *
 * In one sentence: once one tile has been mmapped and freed, glibc serves
 * the next ones from arenas and keeps each arena's freed tiles resident,
 * so the process holds the sum of every arena's high-water mark, and a
 * burst busier than any before recruits fresh arenas: a new step.
 *
 * Mechanism (glibc 2.36 malloc/malloc.c and arena.c; read, not copied).
 * A request at or above mp_.mmap_threshold (128 KiB at start) is mmapped.
 * Freeing an mmapped chunk larger than the threshold (and at most
 * DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB on 64-bit) raises the threshold to its
 * size and the trim threshold to twice that (__libc_free): after one
 * 11,184,952-byte tile the threshold is 11,186,176 and every later tile is
 * carved from an arena.  A thread's first malloc attaches it to an arena
 * (arena_get2): one from the free list of arenas whose threads have exited
 * (get_free_list), else a new one (_int_new_arena, a 64 MiB heap) while
 * fewer than arena_max exist (8 x CPUs), else an existing one, round robin
 * (reused_arena).  Freeing a tile at the top of a non-main arena calls
 * heap_trim, which gives pages back only when the top chunk is at least
 * the trim threshold: one freed 11 MB tile (< 22 MB) stays resident, and
 * so does a freed tile below a live one.  A thread that exits leaves its
 * arena, memory and all, on the free list (__malloc_arena_thread_freeres),
 * where the next new thread finds it already resident.  So a burst of c
 * concurrent tiles costs nothing new while c arenas or fewer have held one,
 * and one tile per fresh arena beyond that: RSS after each burst is a
 * running maximum, a staircase.  mallopt(M_MMAP_THRESHOLD) fixes the
 * threshold (and turns off its adaptation: no_dyn_threshold), so every
 * tile is mmapped and munmapped on free.  mallopt(M_ARENA_MAX) caps the
 * arenas: once each has held its worst burst the sum cannot grow, and
 * threads sharing an arena pile tiles into one top chunk that, freed, is
 * above the trim threshold and trimmed; whatever sits below a live tile
 * at that moment stays.
 *
 * What is modelled: the tile pool as a thread pool whose threads come and
 * go between bursts (tokio's blocking pool lets an idle thread exit; the
 * next burst spawns fresh ones).  rounds bursts, each of c concurrent jobs,
 * c drawn from a fixed-seed generator between 1 and threads (so the same
 * schedule every run, its records rising by steps as in the flights); each
 * job is a thread of its own that mallocs one tile of tile_kb (the DDS
 * output, BC1 4096 x 4096 with mipmaps: 11,184,952 bytes = 10,923 KiB),
 * writes all of it (the encode), waits until every job of its burst holds
 * its tile (the busy moment), frees it and exits.  The jobs of a burst
 * take turns to malloc and to free, and exit in order: which arena a
 * thread gets once the cap is reached depends on which arena lock is free
 * at that instant (reused_arena tries each with trylock), and which freed
 * tile is on an arena's top decides what heap_trim gives back, so left to
 * the scheduler a capped run's RSS differs from run to run (quick: 11.8 to
 * 15.8 MiB at the last burst); in turns it is the same.  mmap_threshold and
 * arena_max are the two fixes, mallopt() first thing in main as #242 and
 * #244 do (glibc only; under another allocator they change nothing).
 *
 * The flights of #244 already had the threshold pinned (#242, shipped in
 * alpha.3): their tiles were mmapped, and what still ratcheted, 44.3 MB per
 * 1,000 encodes, were the allocations below 1 MiB, in the same arenas by
 * the same rule.  The model shows that rule with whole tiles, the unit
 * #242's own reproduction used.
 *
 * Left out: everything else a tile costs (256 JPEG chunks downloaded and
 * decoded, the 64 MiB RGBA canvas, mmapped at any threshold since it is
 * above 32 MiB), the memory cache (the flights' live data), the disk cache
 * and FUSE, and the pool's own queue.  The flights ran 205-581 threads
 * against 256 arenas on 32 cores; here glibc allows 8 x CPUs arenas (16 on
 * the reference machine), so the default run reaches its arena limit and
 * then shares, as the capped flight did.
 *
 * No musl build: it calls glibc's mallinfo2, mallopt, which musl's libc lacks.
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
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "tile_kb", "10923", "2048", "int:256..32767",
	  NULL, "size of a tile in KiB (report: a DDS tile, 11,184,952 bytes; below glibc's 32 MiB mmap threshold ceiling)" },
	{ "threads", "8", NULL, "int:1..256", NULL,
	  "most jobs at once in a burst; 8 stays below glibc's arena limit on any machine, as the report's 64 threads under its 256 arenas" },
	{ "rounds", "12", NULL, "int:2..1000", NULL,
	  "bursts, each of 1..threads concurrent jobs on fresh threads (fixed-seed schedule)" },
	{ "mmap_threshold", "unset", NULL, "unset|1024", "unset|1024",
	  "mallopt(M_MMAP_THRESHOLD) in KiB before any thread (report #242: pinned to 1 MiB); unset: glibc's dynamic threshold" },
	{ "arena_max", "unset", NULL, "unset|2|4", "unset|4",
	  "mallopt(M_ARENA_MAX) before any thread (report: MALLOC_ARENA_MAX=2, #244: 4); unset: 8 x CPUs" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first burst" },
	{ "round", "after each burst: every tile freed, every job's thread exited (the report's rounds, the flights' steps)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "arena-ratchet",
	.title = "11 MB tiles from a thread pool: glibc's RSS climbs by one arena's high-water mark at a time",
	.source = "samsoir/xearthlayer#227, #242, #244 (glibc, 2026): 64 threads cycling 11 MiB "
		  "buffers retain 191.5 MB, 70.4 MB with MALLOC_ARENA_MAX=2, 4.6 MB with the "
		  "mmap threshold pinned to 1 MiB; in flight the arena grew in 18 steps to "
		  "6,091 MB uncapped, in 6 steps to 3,916 MB and no further with ARENA_MAX=4",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "arenas",
};

static size_t tile_bytes;
static size_t page_bytes;

/* The turns of one burst of c jobs: job i mallocs at turn i and frees at
 * turn c + i, so every tile is live at turn c (the busy moment), and the
 * same tiles land in the same arenas and are freed in the same order
 * every run.  Left to the scheduler, which arena a capped thread gets
 * depends on which arena lock is free that instant (reused_arena), and
 * which freed tile is on an arena's top decides what is trimmed. */
static pthread_mutex_t turn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_cond = PTHREAD_COND_INITIALIZER;
static unsigned turn, burst;
static pthread_t ids[256];

/* The schedule's generator: the same bursts in every run (a 64-bit LCG,
 * Knuth's MMIX constants; the top bits are the best). */
static uint64_t lcg_state = 0x2276a3e5d0b1c4f9ULL;

static unsigned next_burst(unsigned most)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return 1 + (unsigned)((lcg_state >> 33) % most);
}

/* Wait until it is turn t (60 s at most: a job that never comes is a bug
 * or a machine in trouble, and the case says so). */
static void wait_turn(unsigned t)
{
	struct timespec deadline;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 60;
	pthread_mutex_lock(&turn_lock);
	while (turn != t && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&turn_cond, &turn_lock, &deadline);
	pthread_mutex_unlock(&turn_lock);
	if (turn != t)
		mr_fail("waited 60 s for turn %u of a burst of %u", t, burst);
}

static void next_turn(void)
{
	pthread_mutex_lock(&turn_lock);
	turn++;
	pthread_cond_broadcast(&turn_cond);
	pthread_mutex_unlock(&turn_lock);
}

/* One job: the DDS buffer of a tile, encoded (every byte written), held
 * until the whole burst holds its own, then freed; the thread exits after
 * the job before it has (it joins it), so that the arenas go back to
 * glibc's free list in job order. */
static void *job(void *arg)
{
	unsigned i = (unsigned)(uintptr_t)arg, c = burst;
	unsigned char *tile;
	size_t off;
	int rc;

	wait_turn(i);
	tile = malloc(tile_bytes);
	if (!tile)
		mr_fail("malloc of a %zu-byte tile:", tile_bytes);
	for (off = 0; off < tile_bytes; off += page_bytes)
		memset(tile + off, (int)(off / page_bytes) & 0xff,
		       tile_bytes - off < page_bytes ? tile_bytes - off : page_bytes);
	mr_keep(tile);
	next_turn();
	wait_turn(c + i);
	free(tile);
	next_turn();
	if (i > 0 && (rc = pthread_join(ids[i - 1], NULL)) != 0)
		mr_fail("pthread_join: %s", strerror(rc));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	unsigned threads, rounds, r, i, peak = 0, steps = 0;
	long page;
	int rc;
	struct mallinfo2 mi;
	char line[512];
	int len;

	mr_case_init(&desc, argc, argv);
	page = sysconf(_SC_PAGESIZE);
	page_bytes = page > 0 ? (size_t)page : 4096;
	tile_bytes = (size_t)mr_param_int("tile_kb") * 1024;
	threads = (unsigned)mr_param_int("threads");
	rounds = (unsigned)mr_param_int("rounds");

	/* The fixes, as #242 and #244 apply them: before any thread mallocs.
	 * (The values are mr_case_init's checked enumerations.) */
	if (!mr_param_is("mmap_threshold", "unset") &&
	    mallopt(M_MMAP_THRESHOLD, (int)strtol(mr_param("mmap_threshold"), NULL, 10) * 1024) != 1)
		mr_fail("mallopt(M_MMAP_THRESHOLD, %s KiB) refused", mr_param("mmap_threshold"));
	if (!mr_param_is("arena_max", "unset") &&
	    mallopt(M_ARENA_MAX, (int)strtol(mr_param("arena_max"), NULL, 10)) != 1)
		mr_fail("mallopt(M_ARENA_MAX, %s) refused", mr_param("arena_max"));

	/* Small stacks: the jobs need little, and the measure is the heap. */
	if ((rc = pthread_attr_init(&attr)) != 0 ||
	    (rc = pthread_attr_setstacksize(&attr, 256 * 1024)) != 0)
		mr_fail("pthread_attr: %s", strerror(rc));
	mr_checkpoint("start");

	for (r = 0; r < rounds; r++) {
		unsigned c = next_burst(threads);

		if (c > peak) {
			peak = c;
			steps++;
		}
		turn = 0;
		burst = c;
		for (i = 0; i < c; i++) {
			rc = pthread_create(&ids[i], &attr, job, (void *)(uintptr_t)i);
			if (rc == EAGAIN)
				mr_skip("pthread_create: %s (job %u of a burst of %u)",
					strerror(rc), i + 1, c);
			if (rc != 0)
				mr_fail("pthread_create: %s", strerror(rc));
		}
		/* Each job joins the one before it: the last one is ours. */
		if ((rc = pthread_join(ids[c - 1], NULL)) != 0)
			mr_fail("pthread_join: %s", strerror(rc));
		mr_checkpoint("round");
	}
	(void)pthread_attr_destroy(&attr);

	/* glibc's own view, as #242 printed it (empty under another allocator). */
	mi = mallinfo2();
	len = snprintf(line, sizeof line,
		       "arena-ratchet: %u bursts of 1..%u tiles of %zu KiB, mmap_threshold %s, "
		       "arena_max %s: busiest burst %u (%u records); glibc mallinfo2 arena %zu KiB, "
		       "hblkhd %zu KiB, free %zu KiB\n",
		       rounds, threads, tile_bytes / 1024, mr_param("mmap_threshold"),
		       mr_param("arena_max"), peak, steps, mi.arena / 1024, mi.hblkhd / 1024,
		       mi.fordblks / 1024);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
