/* deflate-burst: 30,000 zlib deflate streams alive at once — jemalloc is no
 * better than glibc, and 5% bigger.
 *
 * Source: seeds/003_0f012ec3c6ee0fb9.txt — Node.js issue "Why don't we use
 * jemalloc?" (2018, Node.js v10.7.0), testcase 6 (from nodejs/node#8871,
 * where Ben Noordhuis had mentioned jemalloc):
 *
 *   const zlib = require('zlib');
 *   const payload = Buffer.from(JSON.stringify({ some: "data" }));
 *   for (let i = 0; i < 30000; ++i) zlib.deflate(payload, () => {});
 *
 *   glibc     3,022,496 KiB  5.88 s     (/usr/bin/time: peak RSS, wall)
 *   jemalloc  3,179,716 KiB  5.91 s     "No improvement in this case and a
 *                                        5% loss."
 *
 * In one sentence: each deflate stream owns ~262 KiB of zlib state, about
 * a third of it written at once, and all 30,000 are alive together before
 * the first callback runs, so the peak is the sum of the touched pages —
 * nothing an allocator can share or reuse, only lay out differently.
 *
 * Mechanism.  zlib.deflate() creates a Deflate stream, whose handle calls
 * deflateInit2(level -1 (6), Z_DEFLATED, windowBits 15, memLevel 8,
 * Z_DEFAULT_STRATEGY) at construction; zlib then allocates its state
 * (deflate_state, ~6 KiB), the window (2 x 32 KiB), prev (32 Ki x 2 B),
 * head (32 Ki x 2 B) and pending_buf (16 Ki x 4 B): four 64 KiB blocks and
 * one of ~6 KiB, ~262 KiB of address space.  deflateReset clears head (64
 * KiB written) and initialises the state; compressing 15 bytes then
 * writes a page or so of window, prev and pending_buf.  Node adds a 16 KiB
 * output buffer per stream (Buffer.allocUnsafe(16384), malloc'd, its first
 * page written).  So ~90 KiB of each stream is resident: 30,000 x 90 KiB is
 * the report's ~3 GB (less Node's ~31 MiB).  The streams are all created
 * by the synchronous loop; the deflate itself runs on libuv's threadpool
 * (4 threads), concurrently with the loop, and the callbacks, which end
 * the streams (deflateEnd frees the state), can only run once the loop has
 * returned to the event loop: every stream is alive at the end of the loop.
 * The allocator's only part: where the blocks go, and how many pages the
 * written parts of neighbouring blocks share.  glibc serves them from the
 * main arena's brk heap (64 KiB is below the 128 KiB mmap threshold; the
 * worker threads allocate nothing, so no thread arena is created: the VSZ
 * after the frees is the four thread stacks and no 64 MiB arena heap),
 * packed with 16-byte headers, so the written head of one block shares a
 * page with the written tail or header of the one before.  jemalloc 5 puts
 * each 64 KiB and 16 KiB block in its own large extent, one page bigger
 * and started at a random cache line of it (cache-oblivious layout): the
 * fully written 64 KiB head spans 17 pages, not 16 (measured by hand:
 * 17.08 pages per written 64 KiB malloc against glibc's 16.00), and the
 * first written page of every other block is a page of its own.
 * Measured: 1.47 more pages per stream (722,483 minor faults vs 678,385
 * for 30,000), the report's 5%.
 * The work is the same for both, hence the same time.
 *
 * Transparent huge pages are off for the case (prctl PR_SET_THP_DISABLE,
 * first thing in main; it covers the mappings the preloaded allocator
 * made before main too, since the kernel checks it at each fault).  The
 * report's +5% says its machine backed none of this heap with huge pages,
 * and THP is not what the report is about.  On a machine in THP `always`
 * mode jemalloc's extents sit in 2 MiB-aligned mappings that the kernel
 * would fault in as huge pages: measured (`memrepro check --profile
 * quick`, x86_64, glibc 2.36, Linux 6.18, 2 CPUs, THP always, before this
 * pin) jemalloc 901,484 KiB peak and 1,443 minor faults against glibc's
 * 272,700 KiB and 67,928: a figure of the kernel's setting, not of either
 * allocator's layout.  In madvise and never modes it changes nothing
 * (neither allocator madvises huge pages by default).
 *
 * What is modelled: the payload `{"some":"data"}` (15 bytes); per stream,
 * Node's handle (a small malloc'd struct holding the z_stream), deflateInit2
 * with Node's defaults (zlib's own zalloc: malloc; Node versions that
 * count zlib's memory wrap it, a size_t more per block), the 16 KiB
 * output buffer; a pool of `threads` worker threads (libuv's default
 * UV_THREADPOOL_SIZE is 4) started at the first queued work, as
 * uv_queue_work does, each taking streams off one queue and running
 * deflate(Z_FINISH) into the output buffer; then, on the main thread in completion order, the callbacks:
 * check the output, deflateEnd, free the buffer and the handle.
 * Checkpoints: `created` at the end of the synchronous loop (the peak;
 * the threadpool has been working through the queue meanwhile), `processed` once the threadpool
 * has finished all of them, `freed` after every callback.  Every output is
 * checked to be the same bytes, and one is inflated back to the payload.
 *
 * Left out: Node and V8 (~31 MiB, and the JS objects of each stream — a
 * few KiB of V8 heap each), the GC's lag in freeing the 16 KiB output
 * buffers (freed here with the stream), Buffer.concat of the output (a
 * slice of an 8 KiB pool), and the interleaving of callbacks with the
 * last work items (here they run after all are done: the peak is the same).
 *
 * No musl build: it links zlib, which Debian builds for glibc only.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <zlib.h>

static const struct mr_param params[] = {
	{ "streams", "30000", "3000", "int:1..1000000", NULL,
	  "zlib.deflate() calls in the synchronous loop (report: 30,000)" },
	{ "threads", "4", NULL, "int:1..128", NULL,
	  "threadpool size (libuv's UV_THREADPOOL_SIZE, 4 by default)" },
	{ "level", "-1", NULL, "int:-1..9", NULL,
	  "compression level (Node's default Z_DEFAULT_COMPRESSION, i.e. 6)" },
	{ "window_bits", "15", NULL, "int:9..15", NULL,
	  "deflateInit2 windowBits (Node's default 15: a 2 x 32 KiB window)" },
	{ "mem_level", "8", NULL, "int:1..9", NULL,
	  "deflateInit2 memLevel (Node's default 8: 64 KiB hash and pending buffers)" },
	{ "chunk_kb", "16", NULL, "int:1..1024", NULL,
	  "Node's output buffer per stream in KiB (zlib chunkSize, 16 KiB by default)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "created", "at the end of the synchronous loop: every stream initialised, its work queued" },
	{ "processed", "when the threadpool has compressed every stream, before the callbacks" },
	{ "freed", "after every callback: each stream ended (deflateEnd) and its buffers freed" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "deflate-burst",
	.title = "30,000 zlib deflate streams alive at once: jemalloc no better than glibc, 5% more",
	.source = "seeds/003_0f012ec3c6ee0fb9.txt (Node.js \"Why don't we use jemalloc?\", testcase 6, "
		  "from nodejs/node#8871): 30,000 x zlib.deflate({\"some\":\"data\"}); "
		  "glibc 3,022,496 KiB 5.88 s, jemalloc 3,179,716 KiB 5.91 s",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 300,
	.mechanism = "retention",
};

static const char payload[] = "{\"some\":\"data\"}"; /* JSON.stringify's */
#define PAYLOAD_LEN (sizeof payload - 1)

/* Node's ZCtx: the handle of one stream, with its work request. */
struct stream {
	z_stream strm;
	unsigned char *out;   /* Node's _outBuffer (Buffer.allocUnsafe(chunk)) */
	size_t out_size;
	size_t have;          /* bytes of output */
	int err;              /* deflate()'s result, from the worker */
	struct stream *next;  /* in the work queue, then in the done list */
};

/* libuv's threadpool, reduced to what this case does with it. */
static struct {
	pthread_mutex_t mtx;
	pthread_cond_t work;      /* queue not empty, or stop */
	pthread_cond_t done_cond; /* a stream was finished */
	struct stream *head, *tail; /* queued work, FIFO */
	struct stream *done;      /* finished, most recent first */
	size_t ndone;
	int stop;
	pthread_t *tids;
	int nthreads;
	int started;
} pool = {
	.mtx = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.done_cond = PTHREAD_COND_INITIALIZER,
};

/* The work: zlib's deflate, on a worker thread.  zlib allocates nothing
 * here, everything was allocated by deflateInit2 on the main thread. */
static void stream_work(struct stream *s)
{
	s->strm.next_in = (Bytef *)payload;
	s->strm.avail_in = (uInt)PAYLOAD_LEN;
	s->strm.next_out = s->out;
	s->strm.avail_out = (uInt)s->out_size;
	s->err = deflate(&s->strm, Z_FINISH);
	s->have = s->out_size - s->strm.avail_out;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pool.mtx);
	for (;;) {
		struct stream *s;

		while (!pool.head && !pool.stop)
			pthread_cond_wait(&pool.work, &pool.mtx);
		if (!pool.head)
			break;
		s = pool.head;
		pool.head = s->next;
		if (!pool.head)
			pool.tail = NULL;
		pthread_mutex_unlock(&pool.mtx);

		stream_work(s);

		pthread_mutex_lock(&pool.mtx);
		s->next = pool.done;
		pool.done = s;
		pool.ndone++;
		pthread_cond_signal(&pool.done_cond);
	}
	pthread_mutex_unlock(&pool.mtx);
	return NULL;
}

/* uv_queue_work: the pool starts with the first request. */
static void queue_work(struct stream *s)
{
	int i, err;

	if (!pool.started) {
		pool.started = 1;
		for (i = 0; i < pool.nthreads; i++) {
			err = pthread_create(&pool.tids[i], NULL, worker, NULL);
			if (err) {
				errno = err;
				mr_fail("pthread_create of worker %d:", i);
			}
		}
	}
	s->next = NULL;
	pthread_mutex_lock(&pool.mtx);
	if (pool.tail)
		pool.tail->next = s;
	else
		pool.head = s;
	pool.tail = s;
	pthread_cond_signal(&pool.work);
	pthread_mutex_unlock(&pool.mtx);
}

/* zlib.deflate(payload, cb) up to the point where the loop moves on: the
 * Deflate object with its handle and output buffer, deflateInit2, and the
 * write of the payload with Z_FINISH queued to the threadpool. */
static void deflate_start(int level, int window_bits, int mem_level, size_t chunk)
{
	struct stream *s = malloc(sizeof *s);
	int err;

	if (!s)
		mr_fail("malloc:");
	memset(&s->strm, 0, sizeof s->strm); /* zalloc, zfree, opaque: Z_NULL */
	err = deflateInit2(&s->strm, level, Z_DEFLATED, window_bits, mem_level,
			   Z_DEFAULT_STRATEGY);
	if (err == Z_MEM_ERROR)
		mr_fail("deflateInit2: out of memory");
	if (err != Z_OK)
		mr_fail("deflateInit2: %s (%d)", s->strm.msg ? s->strm.msg : "error", err);
	s->out_size = chunk;
	s->out = malloc(chunk);
	if (!s->out)
		mr_fail("malloc(%zu):", chunk);
	s->have = 0;
	s->err = Z_OK;
	queue_work(s);
}

int main(int argc, char **argv)
{
	static unsigned char first[1024]; /* the first stream's output */
	size_t nstreams, chunk, first_len = 0, i, n;
	int level, window_bits, mem_level;
	unsigned char back[64];
	uLongf back_len = sizeof back;
	struct stream *s, *next, *rev;
	char line[256];
	int len, err;

	mr_case_init(&desc, argc, argv);
	/* As the report's machine behaved: no huge pages (see the header). */
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) < 0)
		mr_fail("prctl(PR_SET_THP_DISABLE):");
	nstreams = (size_t)mr_param_int("streams");
	pool.nthreads = (int)mr_param_int("threads");
	level = (int)mr_param_int("level");
	window_bits = (int)mr_param_int("window_bits");
	mem_level = (int)mr_param_int("mem_level");
	chunk = (size_t)mr_param_int("chunk_kb") * 1024;
	if (zlibVersion()[0] != ZLIB_VERSION[0])
		mr_skip("zlib %s at run time, %s at build time", zlibVersion(), ZLIB_VERSION);
	pool.tids = calloc((size_t)pool.nthreads, sizeof *pool.tids);
	if (!pool.tids)
		mr_fail("calloc:");

	/* for (let i = 0; i < 30000; ++i) zlib.deflate(payload, () => {}); */
	for (i = 0; i < nstreams; i++)
		deflate_start(level, window_bits, mem_level, chunk);
	mr_checkpoint("created");

	pthread_mutex_lock(&pool.mtx);
	while (pool.ndone < nstreams)
		pthread_cond_wait(&pool.done_cond, &pool.mtx);
	s = pool.done;
	pool.done = NULL;
	pthread_mutex_unlock(&pool.mtx);
	mr_checkpoint("processed");

	/* The callbacks, oldest completion first: the done list is newest
	 * first, so reverse it. */
	for (rev = NULL; s; s = next) {
		next = s->next;
		s->next = rev;
		rev = s;
	}
	for (s = rev, n = 0; s; s = next, n++) {
		next = s->next;
		if (s->err != Z_STREAM_END)
			mr_fail("deflate: %d instead of Z_STREAM_END", s->err);
		if (n == 0) {
			if (s->have > sizeof first)
				mr_fail("deflate wrote %zu bytes for %zu", s->have, PAYLOAD_LEN);
			memcpy(first, s->out, s->have);
			first_len = s->have;
		} else if (s->have != first_len || memcmp(first, s->out, first_len) != 0) {
			mr_fail("stream %zu compressed the payload differently", n);
		}
		err = deflateEnd(&s->strm);
		if (err != Z_OK)
			mr_fail("deflateEnd: %d", err);
		free(s->out);
		free(s);
	}
	if (n != nstreams)
		mr_fail("%zu callbacks for %zu streams", n, nstreams);
	mr_checkpoint("freed");

	pthread_mutex_lock(&pool.mtx);
	pool.stop = 1;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.mtx);
	for (i = 0; i < (size_t)pool.nthreads; i++)
		pthread_join(pool.tids[i], NULL);

	err = uncompress(back, &back_len, first, first_len);
	if (err != Z_OK || back_len != PAYLOAD_LEN || memcmp(back, payload, PAYLOAD_LEN) != 0)
		mr_fail("the output does not inflate back to the payload (%d)", err);
	len = snprintf(line, sizeof line,
		       "deflate-burst: %zu streams (zlib %s), %d threads, "
		       "%zu bytes of output each\n",
		       nstreams, zlibVersion(), pool.nthreads, first_len);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	free(pool.tids);
	return MR_EXIT_OK;
}
