/* musl-chunks: a backup's worker threads chunking files into medium
 * buffers — musl's mallocng keeps the peak low, mimalloc's per-thread
 * pages hold several times more.
 *
 * Source: rustic-rs/rustic#1820, "musl builds: mallocng vs mimalloc"
 * (issue, 2026-08-01).  rustic (a Rust backup program) built for
 * aarch64-unknown-linux-musl runs on musl's mallocng; with mimalloc as
 * the global allocator instead, on 801 files / 227 MB:
 *
 *   speed: backup 0.79 s -> 0.52 s, incremental 268 ms -> 239 ms,
 *   `check --read-data` 252 ms -> 218 ms
 *   peak RSS 137 MB (mallocng) -> ~450 MB (mimalloc)
 *   under a container limit, three runs each:
 *     512 MB: mallocng OK, 137 MB; mimalloc OK, 435-465 MB;
 *             mimalloc + MIMALLOC_PURGE_DELAY=0 OK, 276-308 MB
 *     384 MB: mallocng OK 3/3; mimalloc OOM-killed (SIGKILL) 3/3;
 *             MIMALLOC_PURGE_DELAY=0 OK 3/3, 270-311 MB
 * mallocng's slowness with threads, the other side of the trade:
 * bram209/leptosfmt#191 (musl static 15-17 s wall, 414 s system on 32
 * cores, 7,008,862 futex calls per run, against 0.19 s with mimalloc),
 * sharkdp/fd#710 (fd -j24: 127.2 ms glibc, 1.047 s musl), openwrt#10752
 * (malloc/free slower in musl 1.2, mallocng, than in 1.1).
 *
 * In one sentence: mallocng gives a freed medium buffer's pages back at
 * once and serves every thread from one shared heap, so the peak follows
 * what is alive; mimalloc keeps each thread's freed pages in that
 * thread's heap until they are purged (after a delay), so with many
 * threads cycling medium buffers the peak is what all of them have
 * touched recently.
 *
 * Mechanism (as the allocators document themselves; the figures of
 * this machine below say how much of it shows here).  mallocng (musl
 * 1.2.1 on) serves small sizes from groups of equal slots under one
 * global lock and gives a large request its own mmap, unmapped on free;
 * a group whose slots are all free is given back: freed memory leaves the
 * process soon, whichever thread freed it.  mimalloc gives each thread
 * its own heap of pages inside segments; a freed page is purged (its
 * memory given back) only after a delay (MIMALLOC_PURGE_DELAY, the
 * report's knob), and a thread's free pages serve that thread only, so
 * the peak is the sum of what each thread touched within the delay.
 * glibc: per-thread arenas too; chunks under the mmap threshold (128 KiB
 * at first, raised as larger mmapped chunks are freed) stay in the arena
 * until its top can be trimmed.
 *
 * What is modelled (rustic's archiver: read the report, not the code):
 * `threads` workers (the backup's parallel file readers and packers),
 * each taking `chunks` chunks in turn; a chunk is a buffer of a size
 * drawn between chunk_min and chunk_max KiB (content-defined chunking
 * gives varied sizes), filled, then its "compressed" copy of half the
 * size (zstd's output), filled, then the chunk freed; `inflight`
 * compressed copies per worker are kept (a pack being assembled) and
 * the oldest freed as a new one comes.  Checkpoints: `start`, `done`
 * (every worker joined, everything freed).  The sizes are not in the
 * report; default 8 workers x 400 chunks of 64-1024 KiB; quick 8 x 20.
 *
 * The memory limit: run it under `--mem-cap MIB` (a cgroup's memory.max)
 * to see an allocator's peak killed; the claims compare peaks (maxrss_kb)
 * measured side by side, not a kill.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct mr_param params[] = {
	{ "threads", "8", NULL, "int:1..256", NULL,
	  "worker threads chunking at once (the backup's parallel readers)" },
	{ "chunks", "400", "20", "int:1..100000", NULL,
	  "chunks each worker allocates, fills and frees" },
	{ "chunk_min", "64", NULL, "int:1..65536", NULL,
	  "smallest chunk, KiB" },
	{ "chunk_max", "1024", NULL, "int:1..65536", NULL,
	  "largest chunk, KiB" },
	{ "inflight", "4", NULL, "int:0..64", NULL,
	  "compressed copies each worker keeps (a pack being assembled)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first worker" },
	{ "done", "every worker has chunked its share and been joined; all freed" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "musl-chunks",
	.title = "a backup's workers cycling medium buffers: the peak RSS of mallocng, mimalloc and glibc",
	.source = "rustic-rs/rustic#1820 (2026-08-01): peak RSS 137 MB on musl's mallocng, "
		  "~450 MB with mimalloc; under a 384 MB limit mimalloc OOM-killed 3/3, "
		  "270-311 MB with MIMALLOC_PURGE_DELAY=0",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "purging",
};

static size_t nchunks, cmin, cmax, ninflight;

/* A small xorshift per worker: the sizes differ by thread, the same run
 * to run. */
static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *
worker(void *arg)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL * ((uintptr_t)arg + 1);
	char *pack[64] = { 0 };
	size_t i, k = 0, sum = 0;

	for (i = 0; i < nchunks; i++) {
		size_t n = cmin + (size_t)(next(&seed) % (cmax - cmin + 1));
		char *chunk = malloc(n), *z;

		if (!chunk)
			return (void *)1;
		memset(chunk, (int)(i & 0x7f) | 1, n);
		z = malloc(n / 2);
		if (!z) {
			free(chunk);
			return (void *)1;
		}
		memcpy(z, chunk, n / 2);
		sum += (unsigned char)chunk[n - 1];
		mr_keep(chunk);
		free(chunk);
		if (ninflight) {
			free(pack[k]);
			pack[k] = z;
			k = (k + 1) % ninflight;
		} else {
			mr_keep(z);
			free(z);
		}
	}
	for (i = 0; i < ninflight; i++)
		free(pack[i]);
	return sum ? NULL : (void *)1;
}

int
main(int argc, char **argv)
{
	pthread_t ids[256];
	size_t n, i;
	int err, bad = 0;

	mr_case_init(&desc, argc, argv);
	n = (size_t)mr_param_int("threads");
	nchunks = (size_t)mr_param_int("chunks");
	cmin = (size_t)mr_param_int("chunk_min") * 1024;
	cmax = (size_t)mr_param_int("chunk_max") * 1024;
	ninflight = (size_t)mr_param_int("inflight");
	if (cmin > cmax)
		mr_usage("chunk_min=%zu KiB is above chunk_max=%zu KiB", cmin / 1024, cmax / 1024);

	mr_checkpoint("start");
	for (i = 0; i < n; i++)
		if ((err = pthread_create(&ids[i], NULL, worker, (void *)(uintptr_t)i)) != 0)
			mr_fail("pthread_create: worker %zu of %zu: %s", i + 1, n, strerror(err));
	for (i = 0; i < n; i++) {
		void *r;

		pthread_join(ids[i], &r);
		bad += r != NULL;
	}
	if (bad)
		mr_fail("%d of %zu workers could not allocate a chunk", bad, n);
	mr_checkpoint("done");
	return MR_EXIT_OK;
}
