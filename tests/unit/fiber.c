/* fiber: lib/mr_fiber's switch proven on the machine it runs on (natively,
 * and cross-built for aarch64 under qemu-user: make check-aarch64,
 * tests/aarch64.bats).
 *
 * Usage: fiber [NFIBERS [ROUNDS]]   (4 and 100 by default)
 * Main switches to NFIBERS fibers round-robin ROUNDS + 1 times each: the
 * first switch enters a fiber, the next ROUNDS resume it, and after its
 * last resumption it finishes (switches away for good).  Each switch on
 * either side goes through checked_switch, a few instructions of assembly
 * that load every callee-saved register of the ABI (x86_64: rbx, rbp,
 * r12-r15; aarch64: x19-x29 and d8-d15) with values of its own side and
 * round, call mr_fiber_switch, and store what the registers hold when it
 * returns, with the stack pointer before and after: the other side has
 * meanwhile loaded other values into all of them.  A fiber switches from
 * the bottom of a recursion one to four frames deep, each frame holding a
 * pattern it checks once the switch returns, on a stack of its own below
 * which lies a page no one may touch.  Prints a line per fiber and one for
 * main, then "ok"; exit 0 when every check held, 1 (with the first
 * differences on stderr) otherwise, 2 on a usage or setup error.  On
 * other architectures (the ucontext fallback) the registers are not
 * checked, the rest is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mr_fiber.h"

#define MAX_FIBERS 64
#define MAX_ROUNDS 100000
#define STACK_SIZE (64 * 1024)
#define FRAME_WORDS 16
#define SHOW 8 /* differences printed in all */

#if defined(__x86_64__)
#define ARCH "x86_64"
#define NREG 6
static const char *const reg_name[NREG] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
#elif defined(__aarch64__)
#define ARCH "aarch64"
#define NREG 19
static const char *const reg_name[NREG] = {
	"x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29",
	"d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
};
#else
/* Elsewhere (the ucontext fallback) only what C sees is checked. */
#define ARCH "other"
#define NREG 0
static const char *const reg_name[NREG + 1] = {"-"};
#endif

/* checked_switch(from, to, in, out): load the callee-saved registers with
 * in[0..NREG-1], mr_fiber_switch(from, to), then store them into
 * out[0..NREG-1], the stack pointer before the switch into out[NREG] and
 * after it into out[NREG + 1].  Preserves the caller's registers itself. */
void checked_switch(struct mr_fiber *from, struct mr_fiber *to,
		    const uint64_t *in, uint64_t *out);

#if defined(__x86_64__)
#if defined(__CET__) && (__CET__ & 1)
#define ENDBR "endbr64\n\t"
#else
#define ENDBR ""
#endif
/* rdi from, rsi to, rdx in, rcx out.  Seven pushes after the return
 * address: rsp is 16-byte aligned at the call. */
__asm__(
	".text\n\t"
	".globl checked_switch\n\t"
	".type checked_switch, @function\n\t"
	".p2align 4\n"
	"checked_switch:\n\t"
	ENDBR
	"pushq %rbp\n\t"
	"pushq %rbx\n\t"
	"pushq %r12\n\t"
	"pushq %r13\n\t"
	"pushq %r14\n\t"
	"pushq %r15\n\t"
	"pushq %rcx\n\t"
	"movq %rsp, 48(%rcx)\n\t"
	"movq 0(%rdx), %rbx\n\t"
	"movq 8(%rdx), %rbp\n\t"
	"movq 16(%rdx), %r12\n\t"
	"movq 24(%rdx), %r13\n\t"
	"movq 32(%rdx), %r14\n\t"
	"movq 40(%rdx), %r15\n\t"
	"call mr_fiber_switch@PLT\n\t"
	"movq (%rsp), %rcx\n\t"
	"movq %rbx, 0(%rcx)\n\t"
	"movq %rbp, 8(%rcx)\n\t"
	"movq %r12, 16(%rcx)\n\t"
	"movq %r13, 24(%rcx)\n\t"
	"movq %r14, 32(%rcx)\n\t"
	"movq %r15, 40(%rcx)\n\t"
	"movq %rsp, 56(%rcx)\n\t"
	"popq %rcx\n\t"
	"popq %r15\n\t"
	"popq %r14\n\t"
	"popq %r13\n\t"
	"popq %r12\n\t"
	"popq %rbx\n\t"
	"popq %rbp\n\t"
	"ret\n\t"
	".size checked_switch, .-checked_switch\n\t"
);
#elif defined(__aarch64__)
/* x0 from, x1 to, x2 in, x3 out.  A 176-byte frame: x29 x30, x19..x28,
 * d8..d15, out. */
__asm__(
	".text\n\t"
	".globl checked_switch\n\t"
	".type checked_switch, %function\n\t"
	".p2align 4\n"
	"checked_switch:\n\t"
	"sub sp, sp, #176\n\t"
	"stp x29, x30, [sp, #0]\n\t"
	"stp x19, x20, [sp, #16]\n\t"
	"stp x21, x22, [sp, #32]\n\t"
	"stp x23, x24, [sp, #48]\n\t"
	"stp x25, x26, [sp, #64]\n\t"
	"stp x27, x28, [sp, #80]\n\t"
	"stp d8, d9, [sp, #96]\n\t"
	"stp d10, d11, [sp, #112]\n\t"
	"stp d12, d13, [sp, #128]\n\t"
	"stp d14, d15, [sp, #144]\n\t"
	"str x3, [sp, #160]\n\t"
	"mov x9, sp\n\t"
	"str x9, [x3, #152]\n\t"
	"ldp x19, x20, [x2, #0]\n\t"
	"ldp x21, x22, [x2, #16]\n\t"
	"ldp x23, x24, [x2, #32]\n\t"
	"ldp x25, x26, [x2, #48]\n\t"
	"ldp x27, x28, [x2, #64]\n\t"
	"ldr x29, [x2, #80]\n\t"
	"ldp d8, d9, [x2, #88]\n\t"
	"ldp d10, d11, [x2, #104]\n\t"
	"ldp d12, d13, [x2, #120]\n\t"
	"ldp d14, d15, [x2, #136]\n\t"
	"bl mr_fiber_switch\n\t"
	"ldr x3, [sp, #160]\n\t"
	"stp x19, x20, [x3, #0]\n\t"
	"stp x21, x22, [x3, #16]\n\t"
	"stp x23, x24, [x3, #32]\n\t"
	"stp x25, x26, [x3, #48]\n\t"
	"stp x27, x28, [x3, #64]\n\t"
	"str x29, [x3, #80]\n\t"
	"stp d8, d9, [x3, #88]\n\t"
	"stp d10, d11, [x3, #104]\n\t"
	"stp d12, d13, [x3, #120]\n\t"
	"stp d14, d15, [x3, #136]\n\t"
	"mov x9, sp\n\t"
	"str x9, [x3, #160]\n\t"
	"ldp x19, x20, [sp, #16]\n\t"
	"ldp x21, x22, [sp, #32]\n\t"
	"ldp x23, x24, [sp, #48]\n\t"
	"ldp x25, x26, [sp, #64]\n\t"
	"ldp x27, x28, [sp, #80]\n\t"
	"ldp d8, d9, [sp, #96]\n\t"
	"ldp d10, d11, [sp, #112]\n\t"
	"ldp d12, d13, [sp, #128]\n\t"
	"ldp d14, d15, [sp, #144]\n\t"
	"ldp x29, x30, [sp, #0]\n\t"
	"add sp, sp, #176\n\t"
	"ret\n\t"
	".size checked_switch, .-checked_switch\n\t"
);
#else
void
checked_switch(struct mr_fiber *from, struct mr_fiber *to, const uint64_t *in,
	       uint64_t *out)
{
	(void)in;
	out[0] = out[1] = 0;
	mr_fiber_switch(from, to);
}
#endif

struct fib {
	struct mr_fiber ctx;
	int id;
	unsigned char *lo, *hi; /* its usable stack [lo, hi) */
	long entered, resumed, finished;
	long regs_bad, stack_bad;
	long ran_round;         /* the round it last ran, for main to see */
};

static struct mr_fiber main_ctx;
static struct fib fibs[MAX_FIBERS];
static int nfib;
static long rounds;
static long shown;

/* A value no other side, round or register shares: side 0 is main, i + 1
 * fiber i. */
static uint64_t
pattern(int side, long round, int reg)
{
	uint64_t x = ((uint64_t)(side + 1) << 48) ^ ((uint64_t)round << 16) ^ (uint64_t)(reg + 1);

	return x * 0x9E3779B97F4A7C15u ^ 0x5555555555555555u;
}

static void
show(const char *fmt, const char *who, long round, const char *what,
     uint64_t want, uint64_t got)
{
	if (shown++ < SHOW)
		fprintf(stderr, fmt, who, round, what, (unsigned long long)want,
			(unsigned long long)got);
}

/* A switch from side `side` in round `round`, every register checked on
 * return.  Returns the differences. */
static long
switch_checked(struct mr_fiber *from, struct mr_fiber *to, int side, long round,
	       const char *who)
{
	uint64_t in[NREG], out[NREG + 2];
	long bad = 0;
	int r;

	for (r = 0; r < NREG; r++)
		in[r] = pattern(side, round, r);
	memset(out, 0, sizeof out);
	checked_switch(from, to, in, out);
	for (r = 0; r < NREG; r++)
		if (out[r] != in[r]) {
			bad++;
			show("FAIL %s round %ld: %s was %#llx before the switch, %#llx after\n",
			     who, round, reg_name[r], in[r], out[r]);
		}
	if (out[NREG] != out[NREG + 1]) {
		bad++;
		show("FAIL %s round %ld: %s was %#llx before the switch, %#llx after\n",
		     who, round, "sp", out[NREG], out[NREG + 1]);
	}
	return bad;
}

/* Whether the address p lies in f's stack and is 16-byte aligned. */
static int
on_stack(const struct fib *f, const void *p)
{
	const unsigned char *c = p;

	return c >= f->lo && c < f->hi && (uintptr_t)p % 16 == 0;
}

/* depth frames, each with a pattern, then the switch back to main from the
 * innermost one; each frame checks its pattern on the way out. */
__attribute__((noinline)) static void
descend(struct fib *f, long round, int depth)
{
	_Alignas(16) volatile uint64_t frame[FRAME_WORDS];
	int i;

	for (i = 0; i < FRAME_WORDS; i++)
		frame[i] = pattern(f->id + 1, round, 1000 * depth + i);
	if (!on_stack(f, (const void *)frame)) {
		f->stack_bad++;
		if (shown++ < SHOW)
			fprintf(stderr, "FAIL fiber %d round %ld: a frame at %p, outside its stack [%p, %p) or misaligned\n",
				f->id, round, (const void *)frame, (void *)f->lo, (void *)f->hi);
	}
	if (depth > 1) {
		descend(f, round, depth - 1);
	} else {
		char who[32];

		f->ran_round = round;
		snprintf(who, sizeof who, "fiber %d", f->id);
		f->regs_bad += switch_checked(&f->ctx, &main_ctx, f->id + 1, round, who);
		f->resumed++;
	}
	for (i = 0; i < FRAME_WORDS; i++)
		if (frame[i] != pattern(f->id + 1, round, 1000 * depth + i)) {
			f->stack_bad++;
			show("FAIL %s round %ld: %s word held %#llx, then %#llx\n", "fiber",
			     round, "a frame's", pattern(f->id + 1, round, 1000 * depth + i),
			     frame[i]);
		}
}

static void
fiber_main(void *arg)
{
	struct fib *f = arg;
	long r;

	f->entered++;
	for (r = 1; r <= rounds; r++)
		descend(f, r, 1 + (int)(r % 4));
	f->finished++;
	f->ran_round = rounds + 1;
	mr_fiber_switch(&f->ctx, &main_ctx);
}

/* A stack of STACK_SIZE above a guard page: a fiber that overflows it
 * faults instead of writing over its neighbour. */
static int
stack_new(struct fib *f)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *p;

	if (pg <= 0)
		pg = 4096;
	p = mmap(NULL, (size_t)pg + STACK_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect(p, (size_t)pg, PROT_NONE) < 0) {
		perror("fiber: mmap");
		return -1;
	}
	f->lo = p + pg;
	f->hi = f->lo + STACK_SIZE;
	return 0;
}

static long
arg(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "fiber: %s \"%s\": expected %ld..%ld\n", what, s, lo, hi);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	long r, main_bad = 0, nswitch = 0, order_bad = 0;
	int i, failed = 0;

	if (argc > 3) {
		fprintf(stderr, "usage: fiber [NFIBERS [ROUNDS]]\n");
		return 2;
	}
	nfib = argc > 1 ? (int)arg(argv[1], 1, MAX_FIBERS, "NFIBERS") : 4;
	rounds = argc > 2 ? arg(argv[2], 1, MAX_ROUNDS, "ROUNDS") : 100;
	for (i = 0; i < nfib; i++) {
		fibs[i].id = i;
		if (stack_new(&fibs[i]) < 0)
			return 2;
		mr_fiber_init(&fibs[i].ctx, fibs[i].lo, STACK_SIZE, fiber_main, &fibs[i]);
	}
	/* round 0 enters each fiber, rounds 1..ROUNDS resume it (the last
	 * one lets it finish) */
	for (r = 0; r <= rounds; r++)
		for (i = 0; i < nfib; i++) {
			main_bad += switch_checked(&main_ctx, &fibs[i].ctx, 0, r, "main");
			nswitch++;
			/* the fiber that ran is the one switched to, in this round */
			if (fibs[i].ran_round != r + 1) {
				order_bad++;
				if (shown++ < SHOW)
					fprintf(stderr, "FAIL main round %ld: fiber %d ran its round %ld\n",
						r, i, fibs[i].ran_round);
			}
		}
	printf("arch %s, %s switch\n", ARCH,
	       MR_FIBER_SYSCALL_FREE ? "assembly" : "ucontext");
	for (i = 0; i < nfib; i++) {
		const struct fib *f = &fibs[i];

		printf("fiber %d: entered %ld, resumed %ld, finished %ld, stack %s, registers %s\n",
		       i, f->entered, f->resumed, f->finished,
		       f->stack_bad ? "CORRUPTED" : "ok", f->regs_bad ? "CORRUPTED" : "ok");
		if (f->entered != 1 || f->resumed != rounds || f->finished != 1 ||
		    f->stack_bad || f->regs_bad)
			failed = 1;
	}
	printf("main: %ld switches, order %s, ", nswitch, order_bad ? "WRONG" : "ok");
	if (NREG == 0) {
		printf("registers not checked on this architecture\n");
	} else {
		printf("registers %s (%d checked at each:", main_bad ? "CORRUPTED" : "ok",
		       NREG + 1);
		for (i = 0; i < NREG; i++)
			printf(" %s", reg_name[i]);
		printf(" sp)\n");
	}
	failed |= main_bad || order_bad;
	printf("%s\n", failed ? "FAILED" : "ok");
	return failed;
}
