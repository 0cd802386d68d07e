/* fiber-stacks: freed fiber stacks — MADV_FREE keeps RSS, MADV_DONTNEED
 * returns it.
 *
 * Source: seeds/000_42f33d63eb876075.txt — Ruby Misc #19122, "Use
 * MADV_DONTNEED instead of MADV_FREE when freeing a Fiber's stack" (opened
 * by Sean McGivern in November 2022, pointing at Go issue 42330, where Go
 * 1.16 went back to MADV_DONTNEED by default for the same reason), and the
 * measurements Samuel Williams posted on it in 2025 (ruby-core:121238).
 * His script creates and resumes 10,000 fibers (each yields at once), then
 * clears them and runs GC, 10 times, with RUBY_SHARED_FIBER_POOL_FREE_STACKS
 * choosing what happens to a freed stack: 16 -> madvise(MADV_FREE = 8),
 * 8 -> madvise(MADV_DONTNEED = 4), 0 -> nothing.  He reported:
 *
 *   FREE_STACKS=16 (MADV_FREE)      RSS 150.82 MB -> 150.82 MB after clearing
 *   FREE_STACKS=8  (MADV_DONTNEED)  RSS 151.63 MB ->  73.63 MB after clearing
 *   ("MB" is MiB: the script divides by 1024)
 *
 *   FREE_STACKS     wall         user         sys       (fish's time)
 *   8  (DONTNEED)   841.07 ms    373.88 ms    463.22 ms
 *   16 (FREE)       582.77 ms    357.66 ms    220.90 ms
 *   0  (none)       444.61 ms    312.92 ms    128.99 ms
 *
 * In one sentence: a stack given back with MADV_FREE stays in RSS (as
 * LazyFree) until memory runs short, one given back with MADV_DONTNEED
 * leaves RSS at once but costs a page fault per page when it is reused, and
 * one not given back at all is the cheapest and keeps its memory.
 *
 * Mechanism.  madvise(MADV_DONTNEED) on private anonymous memory unmaps the
 * pages at once: RSS drops, and the next touch of each page takes a fault
 * that allocates and zeroes a fresh page (system time, on every reuse).
 * madvise(MADV_FREE) (Linux 4.5) only marks the pages clean and moves them
 * to the lazy-free list: they stay mapped and counted in RSS (and in
 * smaps' LazyFree), and the kernel discards them only if it needs memory.
 * A write before that simply dirties the page again, without a fault, and
 * cancels the lazy free.  So FREE is cheaper on reuse but invisible to RSS
 * based monitoring; on a machine with free memory nothing is ever
 * reclaimed.  Not advising at all is cheaper still (no system call per
 * freed stack) and, as seen from RSS, looks the same as FREE.
 *
 * What is modelled, after Ruby 3.2/3.3 cont.c (read, not copied):
 *  - the shared fiber pool: stacks of size ((machine + vm) / page + 1) pages
 *    (128 KiB VM stack + 512 KiB machine stack + 1 page = 644 KiB on 64-bit,
 *    RUBY_VM_FIBER_VM_STACK_SIZE and RUBY_VM_FIBER_MACHINE_STACK_SIZE), each
 *    preceded by a guard page mprotect'ed PROT_NONE, allocated in chunks by
 *    one mmap(MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK) per expansion;
 *    32 stacks at start-up (FIBER_POOL_INITIAL_SIZE), then each expansion
 *    adds as many stacks as the pool has, at least 32, at most 1024
 *    (FIBER_POOL_ALLOCATION_MAXIMUM_SIZE): 32, 32, 64, ..., 1024, 1024, ...
 *    (10,240 stacks in 15 mappings for 10,000 fibers, 6.3 GiB of VSZ);
 *  - the free list of vacant stacks: a "vacancy" record written in the top
 *    page of each stack (so that page is resident from the expansion on and
 *    is never advised), pushed and popped LIFO;
 *  - a fiber's first resume: take a vacant stack, carve the VM stack from
 *    its top and leave the machine stack below it, push the VM's first
 *    control frame (top page) and its environment values (bottom page of
 *    the VM stack), switch to the fiber on its machine stack (a real context
 *    switch, lib/mr_fiber: no system call, like Ruby's coroutines), where the
 *    body pushes the block's frame and uses frame_kb of machine stack, then
 *    yields back from its deepest frame; it is never resumed;
 *  - clearing: every fiber is freed (its struct is free()d, as GC does with
 *    rb_fiber_t) and its stack goes back to the free list, madvise'd over
 *    everything but the vacancy page when madvise is free or dontneed
 *    (fiber_pool_stack_release / fiber_pool_stack_free on the vacancy's
 *    copy of the stack, as in the cont.c of the 2025 measurements; an older
 *    cont.c advised only the machine stack);
 *  - the next iteration reuses the same stacks.
 *
 * frame_kb: the report implies how much of each stack a fiber dirties.
 * Clearing with DONTNEED gave back 151.63 - 73.63 = 78 MiB for 10,000
 * fibers, 8 KiB (2 pages) each.  Of what the madvise covers, the VM stack's
 * bottom page (its first environment values) is always touched, which
 * leaves one page of machine stack: the C frames from the fiber's entry
 * through the interpreter to Fiber.yield take a few KiB.  So frame_kb
 * defaults to 4: the fiber's machine stack is 4 KiB deep when it yields.
 * (The top page, with the vacancy record and the control frames, stays.)
 *
 * Measuring it: every checkpoint reads /proc/self/smaps_rollup, which walks
 * the page tables of all 20,480 mappings (6.3 GiB): about 17 ms of system
 * time each on the reference machine, ~0.35 s over a default run's 20
 * checkpoints, in every mode alike.  Times are therefore compared between
 * modes, never as absolute figures against the report's.
 *
 * Memory pressure: the report's point about MADV_FREE is that "RSS will
 * not reduce until and unless the OS actually reclaims that memory".  With
 * work_mb > 0 the program goes on working after its last iteration: it
 * allocates and writes work_mb MiB more and takes checkpoint "worked".  Run
 * by the runner under the pressure axis (a memory cgroup limited below
 * what the stacks kept plus the new work need), the kernel reclaims the
 * lazy-free stack pages to make room — LazyFree and RSS fall — and the
 * program carries on; without a limit nothing is reclaimed.  (The limit
 * must stay above what one iteration needs at "created": those pages are
 * in use and, without swap, an OOM kill is all the kernel could do.)
 *
 * Left out: the Ruby interpreter itself (its heap, the Fiber and Proc
 * objects, the GC's own work: Ruby's RSS has about 30 MiB more and its user
 * time is mostly the interpreter's), FIBER_POOL_ALLOCATION_FREE (only on
 * 32-bit, where whole chunks are unmapped), and threads.
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_fiber.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "madvise", "free", NULL, "free|dontneed|none", "free|dontneed|none",
	  "how a freed stack is returned: MADV_FREE (FREE_STACKS=16, Ruby's default on Linux), MADV_DONTNEED (=8), not at all (=0)" },
	/* quick: 4,000 keeps every claim's ratio (the refaults of reused
	 * stacks, the sys time they cost) in 40 % of the time; the ratios
	 * come from reuse over the iterations, so those stay 10 */
	{ "fibers", "10000", "4000", "int:1..100000",
	  NULL, "fibers created and resumed per iteration (report: 10,000)" },
	{ "iterations", "10", NULL, "int:1..1000",
	  NULL, "create-then-clear rounds (report: 10)" },
	{ "vm_stack_kb", "128", NULL, "int:16..4096",
	  NULL, "VM stack per fiber in KiB (RUBY_FIBER_VM_STACK_SIZE; 128 KiB on 64-bit)" },
	{ "machine_stack_kb", "512", NULL, "int:16..8192",
	  NULL, "machine stack per fiber in KiB (RUBY_FIBER_MACHINE_STACK_SIZE; 512 KiB on 64-bit)" },
	{ "frame_kb", "4", NULL, "int:1..4096",
	  NULL, "machine stack a fiber uses before it yields, in KiB (report: 2 pages freed per fiber, one of them VM stack)" },
	{ "work_mb", "0", NULL, "int:0..65536",
	  NULL, "MiB allocated and written after the last iteration, as a program that goes on working (report: 0, the script ends)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "created", "after creating and resuming every fiber of an iteration" },
	{ "cleared", "after clearing them and returning their stacks to the pool" },
	{ "worked", "after writing work_mb MiB more, past the last iteration (only with work_mb > 0)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "fiber-stacks",
	.title = "Freed fiber stacks: MADV_FREE keeps RSS, MADV_DONTNEED returns it",
	.source = "seeds/000_42f33d63eb876075.txt (Ruby Misc #19122, cf. Go #42330): "
		  "10,000 fibers x10; RSS 150.82 MB kept after clearing with MADV_FREE, "
		  "151.63 -> 73.63 MB with MADV_DONTNEED; 841 ms (sys 463) DONTNEED, "
		  "583 ms (sys 221) FREE, 445 ms (sys 129) none",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 60,
	.mechanism = "purging",
};

/* The first words of a frame the model writes, as Ruby's control frame
 * rb_control_frame_t is 7 or 8 words (pc, sp, iseq, self, ep, block, jit). */
#define CFP_WORDS 8
/* Bytes the machine stack holds above the fiber's frame buffer (entry stub,
 * body frames, the switch's saved registers), subtracted from frame_kb so
 * that frame_kb is the whole depth at the yield. */
#define FRAME_OVERHEAD 512

/* Ruby's struct fiber_pool_stack: one stack of the pool. */
struct pool_stack {
	char *base;         /* lowest address (just above the guard page) */
	char *current;      /* grows down from base + size */
	size_t size;        /* without the guard page */
	size_t available;   /* below current */
	struct pool *pool;
};

/* Ruby's struct fiber_pool_vacancy, kept in the top page of a free stack. */
struct vacancy {
	struct pool_stack stack;
	struct vacancy *next;
};

/* Ruby's struct fiber_pool_allocation: one mmap of count stacks. */
struct allocation {
	char *base;
	size_t stride;      /* size + guard page */
	size_t count;
	struct allocation *next;
};

/* Ruby's struct fiber_pool (the shared one). */
struct pool {
	struct allocation *allocations;
	struct vacancy *vacancies;
	size_t size;            /* of each stack, without its guard page */
	size_t count;           /* stacks allocated */
	size_t initial_count;   /* 32 */
	size_t used;
	size_t vm_stack_size;
	int advice;             /* MADV_FREE, MADV_DONTNEED, or -1: none */
	size_t mappings;        /* mmaps made, for the summary */
};

/* A fiber, standing for Ruby's rb_fiber_t: a few hundred bytes, zero-
 * allocated at Fiber.new and freed by the GC.  We allocate FIBER_BYTES. */
struct fiber {
	struct mr_fiber ctx;     /* saved machine context while suspended */
	struct pool_stack stack; /* taken from the pool at the first resume */
	uint64_t *vm_stack;      /* bottom of the VM stack (values grow up) */
	size_t vm_words;
	uint64_t *cfp;           /* control frames grow down from the VM top */
	int yielded;
};
#define FIBER_BYTES 512
_Static_assert(sizeof(struct fiber) <= FIBER_BYTES, "struct fiber grew");

enum { POOL_INITIAL = 32, POOL_MAX_ALLOCATION = 1024 };

static size_t page;
static size_t frame_bytes;     /* the VLA a fiber's body puts on its stack */
static struct mr_fiber main_ctx;
static unsigned long yields;

/* --- the pool ------------------------------------------------------------ */

static void stack_reset(struct pool_stack *s)
{
	s->current = s->base + s->size;
	s->available = s->size;
}

/* Take offset bytes from the top of what is left of s (the VM stack). */
static char *stack_alloca(struct pool_stack *s, size_t offset)
{
	s->current -= offset;
	s->available -= offset;
	return s->current;
}

static struct vacancy *vacancy_of(char *base, size_t size)
{
	return (struct vacancy *)(base + size - page);
}

/* The vacancy record reserves the top page: what is left is advisable. */
static void vacancy_reset(struct vacancy *v)
{
	stack_reset(&v->stack);
	stack_alloca(&v->stack, page);
}

static void pool_expand(struct pool *p, size_t count)
{
	size_t stride = p->size + page, i;
	struct allocation *a = malloc(sizeof *a);
	char *base;

	if (!a)
		mr_fail("malloc:");
	base = mmap(NULL, count * stride, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (base == MAP_FAILED)
		mr_fail("mmap of %zu fiber stacks (%zu bytes):", count, count * stride);
	for (i = 0; i < count; i++) {
		char *guard = base + stride * i;
		struct vacancy *v = vacancy_of(guard + page, p->size);

		if (mprotect(guard, page, PROT_NONE) < 0)
			mr_fail("mprotect of guard page %zu (vm.max_map_count: "
				"each stack takes 2 mappings):", p->count + i);
		/* Writing the record makes the top page resident: Ruby's pool
		 * costs one page per stack as soon as it is allocated. */
		v->stack.base = guard + page;
		v->stack.size = p->size;
		vacancy_reset(v);
		v->stack.pool = p;
		v->next = p->vacancies;
		p->vacancies = v;
	}
	a->base = base;
	a->stride = stride;
	a->count = count;
	a->next = p->allocations;
	p->allocations = a;
	p->count += count;
	p->mappings++;
}

static struct pool_stack pool_acquire(struct pool *p)
{
	struct vacancy *v = p->vacancies;

	if (!v) {
		size_t count = p->count;

		if (count > POOL_MAX_ALLOCATION)
			count = POOL_MAX_ALLOCATION;
		if (count < p->initial_count)
			count = p->initial_count;
		pool_expand(p, count);
		v = p->vacancies;
	}
	p->vacancies = v->next;
	p->used++;
	stack_reset(&v->stack);
	return v->stack;
}

static void pool_release(struct pool_stack *s)
{
	struct pool *p = s->pool;
	struct vacancy *v = vacancy_of(s->base, s->size);

	v->stack = *s;
	vacancy_reset(v);
	v->next = p->vacancies;
	p->vacancies = v;
	p->used--;
	/* Everything below the vacancy page: the VM stack but its top page,
	 * and the whole machine stack. */
	if (p->advice >= 0 &&
	    madvise(v->stack.current - v->stack.available, v->stack.available,
		    p->advice) < 0)
		mr_fail("madvise(%s) of a fiber stack:",
			p->advice == MADV_FREE ? "MADV_FREE" : "MADV_DONTNEED");
}

/* --- a fiber ------------------------------------------------------------- */

/* Push a control frame (top of the VM stack, growing down) and its
 * environment values (bottom, growing up), as vm_push_frame does. */
static void vm_push_frame(struct fiber *f, size_t *sp, uint64_t self)
{
	size_t i;

	f->cfp -= CFP_WORDS;
	for (i = 0; i < CFP_WORDS; i++)
		f->cfp[i] = self + i;
	for (i = 0; i < 3; i++)
		f->vm_stack[(*sp)++] = self ^ i; /* cref/me, specval, flags */
	mr_keep(f->cfp);
	mr_keep(f->vm_stack);
}

/* The deepest frame: Fiber.yield, from inside the interpreter. */
__attribute__((noinline)) static void yield_from_depth(struct fiber *f)
{
	char frame[frame_bytes]; /* the interpreter's C frames down to here */

	memset(frame, 0x3c, sizeof frame);
	mr_keep(frame);
	f->yielded = 1;
	yields++;
	mr_fiber_switch(&f->ctx, &main_ctx);
	/* Never resumed: like the report's fibers, it is collected while
	 * suspended. */
	mr_fail("a fiber was resumed after its final yield");
}

static void fiber_body(void *arg)
{
	struct fiber *f = arg;
	size_t sp = 3;

	vm_push_frame(f, &sp, (uint64_t)(uintptr_t)f);     /* the block */
	vm_push_frame(f, &sp, (uint64_t)(uintptr_t)f + 1); /* Fiber.yield, a C method */
	yield_from_depth(f);
}

/* Fiber.new { Fiber.yield Fiber.current }.resume */
static struct fiber *fiber_create_resume(struct pool *p)
{
	struct fiber *f = calloc(1, FIBER_BYTES);
	char *vm;
	size_t sp = 0;

	if (!f)
		mr_fail("calloc:");
	/* fiber_prepare_stack: the stack, the VM stack from its top, the first
	 * (dummy) frame, the machine stack below. */
	f->stack = pool_acquire(p);
	vm = stack_alloca(&f->stack, p->vm_stack_size);
	f->vm_stack = (uint64_t *)vm;
	f->vm_words = p->vm_stack_size / sizeof(uint64_t);
	f->cfp = f->vm_stack + f->vm_words;
	vm_push_frame(f, &sp, 0);
	mr_fiber_init(&f->ctx, f->stack.current - f->stack.available,
		      f->stack.available, fiber_body, f);
	mr_fiber_switch(&main_ctx, &f->ctx);
	if (!f->yielded)
		mr_fail("a fiber came back without yielding");
	return f;
}

/* --- main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct pool pool = { 0 };
	struct fiber **fibers;
	size_t nfibers, iterations, machine, vm, it, i;
	char line[256];
	int n;

	mr_case_init(&desc, argc, argv);
	page = (size_t)sysconf(_SC_PAGESIZE);
	nfibers = (size_t)mr_param_int("fibers");
	iterations = (size_t)mr_param_int("iterations");
	vm = (size_t)mr_param_int("vm_stack_kb") * 1024;
	machine = (size_t)mr_param_int("machine_stack_kb") * 1024;
	frame_bytes = (size_t)mr_param_int("frame_kb") * 1024;
	if (frame_bytes + 2 * page > machine)
		mr_usage("frame_kb=%lld does not fit in machine_stack_kb=%lld",
			 mr_param_int("frame_kb"), mr_param_int("machine_stack_kb"));
	frame_bytes = frame_bytes > FRAME_OVERHEAD + 64 ? frame_bytes - FRAME_OVERHEAD : 64;
	vm = (vm + page - 1) / page * page;

	if (mr_param_is("madvise", "free")) {
		/* MADV_FREE needs Linux 4.5; older kernels say EINVAL. */
		char *probe = mmap(NULL, page, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (probe == MAP_FAILED)
			mr_fail("mmap:");
		probe[0] = 1;
		if (madvise(probe, page, MADV_FREE) < 0) {
			if (errno == EINVAL)
				mr_skip("madvise(MADV_FREE) is not supported by this kernel (Linux >= 4.5)");
			mr_fail("madvise(MADV_FREE):");
		}
		munmap(probe, page);
		pool.advice = MADV_FREE;
	} else if (mr_param_is("madvise", "dontneed")) {
		pool.advice = MADV_DONTNEED;
	} else {
		pool.advice = -1;
	}

	/* Init_Cont: the shared pool, with its first 32 stacks. */
	pool.size = ((machine + vm) / page + 1) * page;
	pool.initial_count = POOL_INITIAL;
	pool.vm_stack_size = vm;
	pool_expand(&pool, POOL_INITIAL);

	for (it = 0; it < iterations; it++) {
		/* fibers = 10_000.times.map { Fiber.new { ... }.resume } */
		fibers = malloc(nfibers * sizeof *fibers);
		if (!fibers)
			mr_fail("malloc:");
		for (i = 0; i < nfibers; i++)
			fibers[i] = fiber_create_resume(&pool);
		if (yields != (it + 1) * nfibers)
			mr_fail("%lu fibers yielded, %zu expected", yields, (it + 1) * nfibers);
		mr_checkpoint("created");

		/* fibers.clear; GC.start: the sweep frees each fiber in turn. */
		for (i = 0; i < nfibers; i++) {
			pool_release(&fibers[i]->stack);
			free(fibers[i]);
		}
		free(fibers);
		mr_checkpoint("cleared");
	}
	if (mr_param_int("work_mb") > 0) {
		size_t len = (size_t)mr_param_int("work_mb") << 20;
		char *work = malloc(len);

		if (!work)
			mr_fail("malloc %zu MiB:", len >> 20);
		memset(work, 0x5a, len);
		mr_keep(work);
		mr_checkpoint("worked");
		free(work);
	}

	n = snprintf(line, sizeof line,
		     "fiber-stacks: madvise=%s iterations=%zu fibers=%zu: "
		     "pool of %zu stacks of %zu KiB in %zu mappings\n",
		     mr_param("madvise"), iterations, nfibers, pool.count,
		     pool.size / 1024, pool.mappings);
	if (n > 0)
		(void)!write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	return MR_EXIT_OK;
}
