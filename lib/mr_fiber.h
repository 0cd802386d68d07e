/* mr_fiber: minimal fibers (coroutines on caller-provided stacks) for cases.
 *
 * Why not ucontext: glibc's swapcontext saves and restores the signal mask
 * with a rt_sigprocmask system call on every switch, which would add system
 * time that the runtimes we model (Ruby's coroutine/amd64/Context.S, Go,
 * Boost.Context) do not spend.  So on x86_64 and aarch64 the switch is a few
 * instructions of assembly in mr_fiber.c: it saves the callee-saved
 * registers on the current stack, stores the stack pointer in `from`, loads
 * the one in `to` and pops that fiber's registers.  No system call, no
 * signal mask, no floating-point environment (MXCSR / FPCR are shared by
 * all fibers, as in Ruby's switch).  Other architectures fall back to
 * ucontext (correct, but each switch makes a system call);
 * MR_FIBER_SYSCALL_FREE says which one was built.
 *
 * Not supported: shadow stacks (CET / GCS) and sanitizers that track
 * stacks (ASan, valgrind: they see the stack pointer jump).
 */
#ifndef MR_FIBER_H
#define MR_FIBER_H

#include <stddef.h>

/* -DMR_FIBER_FORCE_UCONTEXT builds the fallback anywhere (to test it). */
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(MR_FIBER_FORCE_UCONTEXT)
#define MR_FIBER_SYSCALL_FREE 1
#else
#define MR_FIBER_SYSCALL_FREE 0
#include <ucontext.h>
#endif

/* A suspended context.  The caller owns it; it is only valid while the
 * fiber it describes is suspended. */
struct mr_fiber {
	void *sp;            /* saved stack pointer (assembly switch) */
#if !MR_FIBER_SYSCALL_FREE
	ucontext_t uc;       /* the fallback's saved context */
	void (*fn)(void *);  /* entry, for the fallback's trampoline */
	void *arg;
#endif
};

/* Prepare f to run fn(arg) on the stack [stack_base, stack_base+stack_size)
 * the first time something switches to it.  The stack grows down from the
 * top; mr_fiber_init writes a few words at its top (the initial frame).
 * stack_size must be at least 256 bytes; the caller owns the stack and keeps
 * it mapped while the fiber may run.
 *
 * fn must never return: a fiber ends by switching away for good (it is then
 * simply abandoned, like a Ruby fiber that yielded and was collected).  If
 * fn returns, the process aborts with a message. */
void mr_fiber_init(struct mr_fiber *f, void *stack_base, size_t stack_size,
		   void (*fn)(void *), void *arg);

/* Save the running context in from and resume to.  from need not be
 * initialised (the main context is just a struct mr_fiber the caller
 * declares); to must have been prepared by mr_fiber_init or saved by an
 * earlier mr_fiber_switch.  Returns when something switches back to from. */
void mr_fiber_switch(struct mr_fiber *from, struct mr_fiber *to);

#endif
