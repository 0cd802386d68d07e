/* jemalloc-thp-modes: Discourse's allocation pattern (allocator_bench:
 * ten million short Ruby strings, 600,000 kept) under each transparent
 * huge page setting; jemalloc 4 used more RSS than 3.6, and THP was why.
 *
 * Source: jemalloc/jemalloc#524 (GitHub, 2016-12-07), "jemalloc 4 line is
 * consuming much more RSS for us than 3.6": Discourse saw "enormous memory
 * spikes" on jemalloc 4.3.1 and wrote a benchmark of its general access
 * pattern (SamSaffron/allocator_bench, stress_mem.rb: read, not copied);
 * jasone (2016-12-08) found that "transparent huge pages and jemalloc don't
 * currently play well together" and ran it under each setting of
 * /sys/kernel/mm/transparent_hugepage/enabled (Ruby 2.3.1, MALLOC_CONF
 * lg_dirty_mult:6,lg_chunk:21,purge:decay,decay_time:0 to take unused dirty
 * pages out of the figures).  Its "always" table opens (RSS in KB as ps
 * prints it, duration in seconds):
 *
 *   built-in (glibc)  mem 175276  duration 5.69
 *   Hoard 3.12        mem 190864  duration 5.24
 *   lockless 1.3      mem 197880  duration 3.44
 *   tcmalloc 2.5      mem 171676  duration 4.06
 *   jemalloc 3.0.0    mem 171012  duration 3.95
 *   jemalloc 3.1.0    mem 170872  duration 3.87
 *
 * (the rest of that table, its jemalloc 3.x/4.x rows and the madvise and
 * never tables, is not in the copy of the thread read here).  The
 * benchmark's README (Ruby 2.3.3, MALLOC_CONF unset, THP setting not
 * given): built-in 177816 KB 5.46 s, tcmalloc 2.5 171492 KB 4.09 s,
 * jemalloc 3.6.0 176984 KB 4.39 s, 4.3.0 230164 KB 7.38 s, 4.3.1 186060 KB
 * 4.10 s, 4.4.0 182524 KB 4.14 s.
 *
 * In one sentence: a heap of ~600,000 long-lived small strings interleaved
 * with millions of short-lived ones leaves every page of the allocator
 * partly used; with huge pages each touched 2 MiB is resident whole and
 * purging the free 4 KiB pages between the live ones no longer gives
 * memory back, so an allocator that spreads over more address space (as
 * jemalloc 4's chunk and run layout did) pays for it in RSS.
 *
 * Mechanism.  jemalloc 3/4 carve small objects from runs inside naturally
 * aligned chunks (4 MiB in 3.x, 2 MiB with lg_chunk:21 in 4.x) and purge
 * unused dirty pages with madvise(MADV_DONTNEED); under THP always every
 * chunk starts as huge pages, and purging 4 KiB pages in them makes the
 * kernel split them, after which khugepaged may collapse the range into a
 * huge page again (its default max_ptes_none lets it fill 511 absent pages
 * of 512), so freed memory comes back resident (jemalloc/jemalloc#243,
 * #541: 4.4.0 marks a chunk MADV_NOHUGEPAGE at its first purge; 5.1 gave
 * opt.thp).  jemalloc 5 (here: 5.2.1, 5.3.0, 5.3.1) has no chunks: slabs
 * and extents come from each arena's retained address space, in 4 KiB pages
 * unless opt.thp=always (or the kernel's always) makes them huge; dirty
 * extents decay over dirty_decay_ms (10 s) to muzzy and are purged.
 * glibc's malloc keeps everything below its heap's top in place (in-band
 * free lists), tcmalloc 2.x returns spans to the OS page by page
 * (TCMALLOC_RELEASE_RATE), mimalloc resets free pages of its segments.
 *
 * What is modelled, after Ruby 2.3 (string.c str_new / rb_str_times:
 * strings up to RSTRING_EMBED_LEN_MAX = 23 bytes live inside their 40-byte
 * object slot, longer ones get a malloc'd buffer of length + 1; gc.c: slots
 * in heap pages of 16 KiB, aligned, 408 slots each, from posix_memalign; a
 * collection when no slot is free, or when the bytes malloc'd since the
 * last one pass malloc_limit, 16 MiB growing to 32; the heap grown by 1.8x
 * when less than 20 % of the slots are free after one; array.c: arrays
 * doubled with realloc):
 *  - stress(allocate, retain, chunk_size), the benchmark's only work: at
 *    each step a coin (0.5) picks between a string of random length 0..99
 *    appended to the current chunk and one kept in a global array until the
 *    end, until `retain` are kept and `allocate` made; a chunk grown past
 *    chunk_size entries is dropped for a new one, its strings garbage for
 *    the next collection (which frees their buffers and their slots);
 *  - then the report's `ps -o rss` (checkpoint done), and the time it took.
 * thp=always has each allocator madvise its own memory MADV_HUGEPAGE
 * (lib/mr_thread.h, as the cases of seed 001 do), which is what the
 * kernel's always does to it; thp=default on this madvise machine is what
 * madvise and never did in 2016, when no allocator of the table asked for
 * huge pages (jemalloc 4.4 only marked purged chunks MADV_NOHUGEPAGE).
 * The claims' axis jemalloc.dirty_decay_ms=0 is the thread's decay_time:0.
 *
 * Left out: the interpreter itself (its ~10 MB at start, which the
 * report's figures hold and ours do not), Ruby's generational GC (every
 * collection here is full: the garbage chunks die young either way), the
 * Float and Integer immediates, Hoard and lockless, and khugepaged (its
 * scans every 10 s collapse ranges long after a run of a few seconds; the
 * report's runs were of 4-6 s too).  jemalloc 3 and 4 are not available
 * here: what they did is in the claims as reported.
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_thread.h"
#include "mr_rand.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "allocate", "10000000", "400000", "int:1..100000000", NULL,
	  "short-lived strings made (report: stress(10_000_000, 600_000, 200_000))" },
	{ "retain", "600000", "24000", "int:0..10000000", NULL,
	  "strings kept until the end" },
	{ "chunk", "200000", "8000", "int:1..10000000", NULL,
	  "entries of a chunk, dropped for a new one when it grows past them" },
	{ "thp", "default", NULL, "default|always", "default|always",
	  "transparent huge pages for the allocator's memory: as the machine is, or madvised by the allocator (THP always)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first string" },
	{ "done", "stress() returned (the report's ps -o rss)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "jemalloc-thp-modes",
	.title = "Discourse's strings benchmark per THP setting: jemalloc 4 above 3.6 and glibc",
	.source = "jemalloc/jemalloc#524 (2016, Ruby 2.3, allocator_bench stress_mem.rb): THP always "
		  "glibc 175276 KB 5.69 s, tcmalloc 2.5 171676 KB, jemalloc 3.0.0 171012 KB 3.95 s; "
		  "README: jemalloc 3.6.0 176984 KB, 4.3.1 186060 KB, glibc 177816 KB",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "hugepages",
};

/* --- Ruby 2.3's object heap, as far as memory goes ----------------------- */

#define SLOT_BYTES 40          /* sizeof(RVALUE) on 64-bit */
#define PAGE_ALIGN (16 * 1024) /* HEAP_PAGE_ALIGN */
/* HEAP_PAGE_SIZE: the alignment less what malloc needs for itself. */
#define PAGE_BYTES (PAGE_ALIGN - 5 * sizeof(size_t))
#define PAGE_SLOTS (PAGE_BYTES / SLOT_BYTES) /* 408 */
#define EMBED_MAX 23           /* RSTRING_EMBED_LEN_MAX */
#define MALLOC_LIMIT_MIN (16u << 20)
#define MALLOC_LIMIT_MAX (32u << 20)
#define MAX_LEN 100            /* MAX_STRING_SIZE */

/* A String object in its slot: its buffer when longer than EMBED_MAX,
 * else the bytes in place; a free slot links to the next free one. */
struct rstring {
	union {
		struct rstring *next_free;
		char *ptr;
	} as;
	uint32_t len;
	uint32_t live;
	char embed[SLOT_BYTES - 16];
};
_Static_assert(sizeof(struct rstring) == SLOT_BYTES, "a slot is an RVALUE");

/* A Ruby Array of strings: a malloc'd buffer, doubled with realloc. */
struct rarray {
	struct rstring **ptr;
	size_t len, capa;
};

static struct {
	void **pages;            /* heap page bodies, posix_memalign'd */
	size_t npages, cap_pages;
	struct rstring *free;    /* free slots */
	size_t free_slots;
	size_t malloc_increase;  /* bytes malloc'd since the last collection */
	size_t malloc_limit;
	struct rarray *dead;     /* dropped chunks, garbage until collected */
	size_t ndead, cap_dead;
	size_t collections, freed_bytes;
} heap = { .malloc_limit = MALLOC_LIMIT_MIN };

static uint64_t rng = 0x2545f4914f6cdd1dull;

/* Random.rand: a double in [0, 1). */
static double rand01(void)
{
	return (double)(mr_xorshift64(&rng) >> 11) / 9007199254740992.0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		mr_fail("malloc(%zu):", n);
	heap.malloc_increase += n;
	return p;
}

/* Add n heap pages to the free slots. */
static void heap_add_pages(size_t n)
{
	size_t i, k;

	if (heap.npages + n > heap.cap_pages) {
		size_t cap = (heap.npages + n) * 2;
		void **p = realloc(heap.pages, cap * sizeof *p);

		if (!p)
			mr_fail("realloc of the heap page table:");
		heap.pages = p;
		heap.cap_pages = cap;
	}
	for (i = 0; i < n; i++) {
		struct rstring *s;
		void *body;

		if (posix_memalign(&body, PAGE_ALIGN, PAGE_BYTES) != 0)
			mr_fail("posix_memalign of a heap page failed");
		s = body;
		for (k = 0; k < PAGE_SLOTS; k++) {
			s[k].live = 0;
			s[k].as.next_free = heap.free;
			heap.free = &s[k];
		}
		heap.free_slots += PAGE_SLOTS;
		heap.pages[heap.npages++] = body;
	}
}

/* A collection: every string of every dropped chunk is swept (its buffer
 * freed, its slot free again) and the chunks' own buffers freed; then the
 * heap grows by 1.8x if less than 20 % of it is free, and malloc_limit
 * follows what was malloc'd since the last one. */
static void gc(void)
{
	size_t d, i, total;

	for (d = 0; d < heap.ndead; d++) {
		struct rarray *a = &heap.dead[d];

		for (i = 0; i < a->len; i++) {
			struct rstring *s = a->ptr[i];

			if (s->len > EMBED_MAX) {
				heap.freed_bytes += s->len + 1u;
				free(s->as.ptr);
			}
			s->live = 0;
			s->as.next_free = heap.free;
			heap.free = s;
			heap.free_slots++;
		}
		free(a->ptr);
	}
	heap.ndead = 0;
	total = heap.npages * PAGE_SLOTS;
	if (heap.free_slots < total / 5)
		heap_add_pages(heap.npages * 4 / 5 + 1);
	if (heap.malloc_increase > heap.malloc_limit) {
		heap.malloc_limit = heap.malloc_increase / 10 * 14;
		if (heap.malloc_limit > MALLOC_LIMIT_MAX)
			heap.malloc_limit = MALLOC_LIMIT_MAX;
	} else if (heap.malloc_limit > MALLOC_LIMIT_MIN) {
		heap.malloc_limit = heap.malloc_limit / 100 * 98;
	}
	heap.malloc_increase = 0;
	heap.collections++;
}

/* " " * n: a new String of n spaces. */
static struct rstring *str_times(uint32_t n)
{
	struct rstring *s;
	char *bytes;

	if (heap.malloc_increase > heap.malloc_limit || !heap.free)
		gc();
	if (!heap.free)
		heap_add_pages(heap.npages * 4 / 5 + 1);
	s = heap.free;
	heap.free = s->as.next_free;
	heap.free_slots--;
	s->len = n;
	s->live = 1;
	if (n > EMBED_MAX)
		bytes = s->as.ptr = xmalloc(n + 1u);
	else
		bytes = s->embed;
	memset(bytes, ' ', n);
	bytes[n] = '\0';
	mr_keep(bytes);
	return s;
}

/* ary << s */
static void ary_push(struct rarray *a, struct rstring *s)
{
	if (a->len == a->capa) {
		size_t capa = a->capa < 16 ? 16 : a->capa * 2;
		struct rstring **p = realloc(a->ptr, capa * sizeof *p);

		if (!p)
			mr_fail("realloc of an array of %zu:", capa);
		heap.malloc_increase += (capa - a->capa) * sizeof *p;
		a->ptr = p;
		a->capa = capa;
	}
	a->ptr[a->len++] = s;
}

/* chunk = []: the old one is garbage. */
static void drop_chunk(struct rarray *chunk)
{
	if (heap.ndead == heap.cap_dead) {
		size_t cap = heap.cap_dead ? heap.cap_dead * 2 : 16;
		struct rarray *p = realloc(heap.dead, cap * sizeof *p);

		if (!p)
			mr_fail("realloc of the dead list:");
		heap.dead = p;
		heap.cap_dead = cap;
	}
	heap.dead[heap.ndead++] = *chunk;
	memset(chunk, 0, sizeof *chunk);
}

/* Free an array's strings' buffers and the array (at the end: the slots
 * go with their pages). */
static void ary_free(struct rarray *a)
{
	size_t i;

	for (i = 0; i < a->len; i++)
		if (a->ptr[i]->len > EMBED_MAX)
			free(a->ptr[i]->as.ptr);
	free(a->ptr);
	memset(a, 0, sizeof *a);
}

static void heap_free(void)
{
	size_t i;

	for (i = 0; i < heap.ndead; i++)
		ary_free(&heap.dead[i]);
	free(heap.dead);
	for (i = 0; i < heap.npages; i++)
		free(heap.pages[i]);
	free(heap.pages);
}

static uint32_t rand_len(void)
{
	return (uint32_t)(rand01() * MAX_LEN);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct rarray retained = {0}, chunk = {0};
	long long allocate, retain, chunk_size;
	size_t i, kept_bytes = 0, spaces = 0;
	double t0, t1;
	char line[512];
	int len;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	allocate = mr_param_int("allocate");
	retain = mr_param_int("retain");
	chunk_size = mr_param_int("chunk");
	/* The interpreter's heap at boot: Ruby 2.3 starts with 10,000 slots. */
	heap_add_pages(10000 / PAGE_SLOTS + 1);
	mr_checkpoint("start");

	t0 = now_s();
	while (retain > 0 || allocate > 0) {
		if (retain == 0 || (rand01() < 0.5 && allocate > 0)) {
			ary_push(&chunk, str_times(rand_len()));
			allocate--;
			if ((long long)chunk.len > chunk_size)
				drop_chunk(&chunk);
		} else {
			ary_push(&retained, str_times(rand_len()));
			retain--;
		}
	}
	t1 = now_s();
	mr_checkpoint("done");

	/* The kept strings are all there, and all spaces. */
	for (i = 0; i < retained.len; i++) {
		const struct rstring *s = retained.ptr[i];
		const char *b = s->len > EMBED_MAX ? s->as.ptr : s->embed;

		if (!s->live || b[s->len] != '\0' || (s->len && (b[0] != ' ' || b[s->len - 1] != ' ')))
			mr_fail("kept string %zu was overwritten", i);
		spaces += s->len;
		if (s->len > EMBED_MAX)
			kept_bytes += s->len + 1u;
	}
	len = snprintf(line, sizeof line,
		       "jemalloc-thp-modes: thp %s: %zu kept (%zu bytes of buffers, %zu spaces), "
		       "%zu heap pages (%zu KiB), %zu collections, %zu bytes freed; duration %.3f s\n",
		       mr_param("thp"), retained.len, kept_bytes, spaces, heap.npages,
		       heap.npages * PAGE_ALIGN / 1024, heap.collections, heap.freed_bytes, t1 - t0);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	ary_free(&chunk);
	ary_free(&retained);
	heap_free();
	return MR_EXIT_OK;
}
