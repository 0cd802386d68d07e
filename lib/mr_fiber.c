/* mr_fiber: a context switch without system calls (see mr_fiber.h).
 *
 * The assembly follows each ABI's rule of what a called function must
 * preserve: on x86_64 (System V) rbx, rbp, r12-r15 and rsp; on aarch64
 * (AAPCS64) x19-x28, the frame pointer x29, the link register x30, the low
 * halves d8-d15 of v8-v15, and sp.  Everything else is caller-saved, so the
 * C compiler has already spilled what it needs around the call to
 * mr_fiber_switch.  A new fiber gets an initial frame laid out exactly as
 * mr_fiber_switch would have saved it, whose "return address" is
 * mr_fiber_entry: that stub moves arg into the first argument register and
 * calls fn with a correctly aligned stack.
 */
#include "mr_fiber.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Called if a fiber's function returns: there is no frame to return to. */
__attribute__((noreturn, used, visibility("hidden")))
void mr_fiber_returned(void);

void mr_fiber_returned(void)
{
	static const char msg[] =
		"mr_fiber: a fiber function returned; it must switch away for good\n";

	(void)!write(2, msg, sizeof msg - 1);
	abort();
}

#if MR_FIBER_SYSCALL_FREE && defined(__x86_64__)

#if defined(__CET__) && (__CET__ & 1)
#define MR_ENDBR "endbr64\n\t"
#else
#define MR_ENDBR ""
#endif

/* Saved frame, lowest address first: r15 r14 r13 r12 rbx rbp, return. */
__asm__(
	".text\n\t"
	".globl mr_fiber_switch\n\t"
	".type mr_fiber_switch, @function\n\t"
	".p2align 4\n"
	"mr_fiber_switch:\n\t"
	MR_ENDBR
	"pushq %rbp\n\t"
	"pushq %rbx\n\t"
	"pushq %r12\n\t"
	"pushq %r13\n\t"
	"pushq %r14\n\t"
	"pushq %r15\n\t"
	"movq %rsp, (%rdi)\n\t"   /* from->sp */
	"movq (%rsi), %rsp\n\t"   /* to->sp */
	"popq %r15\n\t"
	"popq %r14\n\t"
	"popq %r13\n\t"
	"popq %r12\n\t"
	"popq %rbx\n\t"
	"popq %rbp\n\t"
	"ret\n\t"
	".size mr_fiber_switch, .-mr_fiber_switch\n\t"

	/* First resumption of a fiber: r12 = fn, r13 = arg; rsp is 16-byte
	 * aligned here, as the ABI wants at a call. */
	".globl mr_fiber_entry\n\t"
	".hidden mr_fiber_entry\n\t"
	".type mr_fiber_entry, @function\n\t"
	".p2align 4\n"
	"mr_fiber_entry:\n\t"
	"movq %r13, %rdi\n\t"
	"callq *%r12\n\t"
	"callq mr_fiber_returned\n\t"
	"ud2\n\t"
	".size mr_fiber_entry, .-mr_fiber_entry\n\t"
);

extern void mr_fiber_entry(void) __attribute__((visibility("hidden")));

void mr_fiber_init(struct mr_fiber *f, void *stack_base, size_t stack_size,
		   void (*fn)(void *), void *arg)
{
	uintptr_t top = ((uintptr_t)stack_base + stack_size) & ~(uintptr_t)15;
	uint64_t *sp = (uint64_t *)(top - 72);

	/* After the six pops and the ret, rsp = top - 16: aligned for the
	 * call in mr_fiber_entry.  The two words above stay zero (a null
	 * return address ends a debugger's backtrace). */
	sp[0] = 0;                         /* r15 */
	sp[1] = 0;                         /* r14 */
	sp[2] = (uint64_t)(uintptr_t)arg;  /* r13 */
	sp[3] = (uint64_t)(uintptr_t)fn;   /* r12 */
	sp[4] = 0;                         /* rbx */
	sp[5] = 0;                         /* rbp: end of the frame chain */
	sp[6] = (uint64_t)(uintptr_t)&mr_fiber_entry; /* "return" address */
	sp[7] = 0;
	sp[8] = 0;
	f->sp = sp;
}

#elif MR_FIBER_SYSCALL_FREE && defined(__aarch64__)

/* Saved frame (160 bytes, lowest address first): x19..x28, x29, x30,
 * d8..d15.  ret jumps to the restored x30. */
__asm__(
	".text\n\t"
	".globl mr_fiber_switch\n\t"
	".type mr_fiber_switch, %function\n\t"
	".p2align 4\n"
	"mr_fiber_switch:\n\t"
	"sub sp, sp, #160\n\t"
	"stp x19, x20, [sp, #0]\n\t"
	"stp x21, x22, [sp, #16]\n\t"
	"stp x23, x24, [sp, #32]\n\t"
	"stp x25, x26, [sp, #48]\n\t"
	"stp x27, x28, [sp, #64]\n\t"
	"stp x29, x30, [sp, #80]\n\t"
	"stp d8, d9, [sp, #96]\n\t"
	"stp d10, d11, [sp, #112]\n\t"
	"stp d12, d13, [sp, #128]\n\t"
	"stp d14, d15, [sp, #144]\n\t"
	"mov x9, sp\n\t"
	"str x9, [x0]\n\t"        /* from->sp */
	"ldr x9, [x1]\n\t"        /* to->sp */
	"mov sp, x9\n\t"
	"ldp x19, x20, [sp, #0]\n\t"
	"ldp x21, x22, [sp, #16]\n\t"
	"ldp x23, x24, [sp, #32]\n\t"
	"ldp x25, x26, [sp, #48]\n\t"
	"ldp x27, x28, [sp, #64]\n\t"
	"ldp x29, x30, [sp, #80]\n\t"
	"ldp d8, d9, [sp, #96]\n\t"
	"ldp d10, d11, [sp, #112]\n\t"
	"ldp d12, d13, [sp, #128]\n\t"
	"ldp d14, d15, [sp, #144]\n\t"
	"add sp, sp, #160\n\t"
	"ret\n\t"
	".size mr_fiber_switch, .-mr_fiber_switch\n\t"

	/* First resumption: x19 = fn, x20 = arg, sp = the aligned top. */
	".globl mr_fiber_entry\n\t"
	".hidden mr_fiber_entry\n\t"
	".type mr_fiber_entry, %function\n\t"
	".p2align 4\n"
	"mr_fiber_entry:\n\t"
	"mov x0, x20\n\t"
	"blr x19\n\t"
	"bl mr_fiber_returned\n\t"
	"brk #0\n\t"
	".size mr_fiber_entry, .-mr_fiber_entry\n\t"
);

extern void mr_fiber_entry(void) __attribute__((visibility("hidden")));

void mr_fiber_init(struct mr_fiber *f, void *stack_base, size_t stack_size,
		   void (*fn)(void *), void *arg)
{
	uintptr_t top = ((uintptr_t)stack_base + stack_size) & ~(uintptr_t)15;
	uint64_t *sp = (uint64_t *)(top - 160);

	memset(sp, 0, 160);
	sp[0] = (uint64_t)(uintptr_t)fn;               /* x19 */
	sp[1] = (uint64_t)(uintptr_t)arg;              /* x20 */
	sp[10] = 0;                                    /* x29: end of chain */
	sp[11] = (uint64_t)(uintptr_t)&mr_fiber_entry; /* x30 */
	f->sp = sp;
}

#else /* ucontext fallback */

/* makecontext passes int arguments only: the fiber pointer travels as two
 * 32-bit halves.  f must not move between mr_fiber_init and its first run. */
static void uc_entry(unsigned hi, unsigned lo)
{
	struct mr_fiber *f =
		(struct mr_fiber *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo);

	f->fn(f->arg);
	mr_fiber_returned();
}

void mr_fiber_init(struct mr_fiber *f, void *stack_base, size_t stack_size,
		   void (*fn)(void *), void *arg)
{
	uintptr_t p = (uintptr_t)f;

	f->sp = NULL;
	f->fn = fn;
	f->arg = arg;
	if (getcontext(&f->uc) < 0)
		abort();
	f->uc.uc_stack.ss_sp = stack_base;
	f->uc.uc_stack.ss_size = stack_size;
	f->uc.uc_link = NULL;
	makecontext(&f->uc, (void (*)(void))uc_entry, 2,
		    (unsigned)(p >> 16 >> 16), (unsigned)(p & 0xffffffffu));
}

void mr_fiber_switch(struct mr_fiber *from, struct mr_fiber *to)
{
	if (swapcontext(&from->uc, &to->uc) < 0)
		abort();
}

#endif
