/* mr_thread: a model of Ruby 2.x's threads, shared by the cases of seed 001
 * (thread-vsz.c, fork-blowup.c), and the THP=always setting they run under.
 *
 * A thread costs here what Thread.new { sleep } costs in Ruby 2.1/2.2 (vm.c
 * th_init, thread.c thread_create_core, thread_pthread.c native_thread_create
 * and thread_start_func_1/2; read, not copied):
 *  - in the creating thread: a calloc'd thread struct of MR_RTHREAD_BYTES, a
 *    sigaltstack of MR_RTHREAD_ALTSTACK_BYTES and a VM stack, both malloc'd;
 *    the VM stack's first control frame is written at its top and its first
 *    values at its bottom (its first and last pages are touched); then
 *    pthread_create with the machine stack size asked;
 *  - in the new thread: pthread_getattr_np (its first call into malloc, which
 *    picks its arena), sigaltstack(), pthread_setspecific, then it sleeps on
 *    its own condition variable;
 *  - woken (joinable sets only): it frees its own VM stack, disables its
 *    sigaltstack and returns.
 * Why each step matters for memory is explained in cases/thread-vsz.c.
 *
 * Errors: the thread functions return only on success; a failure ends the
 * case (mr_fail, or mr_skip when pthread_create says EAGAIN: a limit of the
 * machine, not a fault).  Half the work runs in the new threads, where
 * nothing can be returned, and every caller would give up the same way.
 * A precondition broken by the caller is a bug in the case: abort().
 *
 * The thread functions run while the case is measured: they use no stdio
 * and no malloc beyond the model's own allocations (which are what a case
 * measures), except on the way to a failure.  The THP functions run before
 * (setenv allocates).  Not thread-safe: call from the case's main thread.
 */
#ifndef MR_THREAD_H
#define MR_THREAD_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* rb_thread_t of Ruby 2.x is of this order (a jmp_buf, the saved machine
 * registers, some sixty VALUE fields, a mutex and a condition variable):
 * the size calloc'd per thread, whatever struct mr_rthread needs. */
#define MR_RTHREAD_BYTES 1024
/* rb_sigaltstack_size(): 16 KiB (at least MINSIGSTKSZ and a page). */
#define MR_RTHREAD_ALTSTACK_BYTES (16 * 1024)

enum mr_rthread_status {
	MR_RTHREAD_RUNNABLE = 0, /* created, not asleep yet, or woken */
	MR_RTHREAD_SLEEPING = 1, /* in native_sleep */
	MR_RTHREAD_KILLED = 2,   /* in a forked child, where it no longer runs */
};

struct mr_thread_set;

/* A Ruby thread: what rb_thread_t holds that the model needs.  Owned by its
 * set; the case may read every field once mr_thread_create_all returned. */
struct mr_rthread {
	pthread_t id;                   /* the native thread */
	pthread_mutex_t interrupt_lock; /* guards status and interrupted */
	pthread_cond_t sleep_cond;      /* native_thread_data.sleep_cond */
	int status;                     /* enum mr_rthread_status */
	int interrupted;                /* RUBY_VM_INTERRUPTED: time to go */
	uint64_t *vm_stack;             /* values grow up from here; NULL: none,
	                                   or freed by the thread on its way out */
	uint64_t *cfp;                  /* control frames grow down from the top */
	size_t vm_words;                /* size of vm_stack in 8-byte words */
	void *altstack;                 /* MR_RTHREAD_ALTSTACK_BYTES, malloc'd */
	void *machine_stack_start;      /* from pthread_getattr_np, in the thread */
	size_t machine_stack_size;      /* the stack the libc really gave it */
	struct mr_thread_set *set;      /* its set, for the started handshake */
};

/* mr_thread_prepare flags. */
enum {
	/* Created detached, as Ruby does: such threads sleep until the process
	 * exits and cannot be stopped.  Without it they are joinable, for
	 * mr_thread_stop_all. */
	MR_THREAD_DETACHED = 1,
};

/* The threads of one case, with what they share.  The caller owns the
 * struct (static or on main's stack, alive while any thread runs); the
 * functions below own what it points to.  Read threads[0..n) and n; the
 * other fields are the module's. */
struct mr_thread_set {
	struct mr_rthread **threads; /* n pointers, calloc'd by mr_thread_prepare;
	                                each set by mr_thread_create_all */
	size_t n;                    /* threads asked for (may be 0) */
	size_t vm_bytes;             /* VM stack per thread; 0: none */
	unsigned flags;              /* MR_THREAD_* */
	pthread_attr_t attr;         /* from prepare until the threads exist */
	pthread_key_t key;           /* ruby_native_thread_key */
	pthread_mutex_t started_lock; /* guards started */
	pthread_cond_t started_cond; /* signalled by each thread as it sleeps */
	size_t started;              /* threads asleep so far */
};

/* Prepare n threads, none created yet: calloc the table of n pointers (the
 * set's only allocation before mr_thread_create_all, so a case can take a
 * checkpoint between the two and see only the threads), create the thread
 * key and the attributes.  stack_bytes is each machine stack's size, 0
 * for the libc default (RLIMIT_STACK); when not 0 it must be at least
 * PTHREAD_STACK_MIN (the case reports that as a usage error first).
 * vm_bytes is each VM stack's size (a multiple of 8, at least 64), 0 for
 * none.  flags: 0 or MR_THREAD_DETACHED.  Call once per set. */
void mr_thread_prepare(struct mr_thread_set *set, size_t n, size_t stack_bytes,
		       size_t vm_bytes, unsigned flags);

/* n.times { Thread.new { sleep } }: create the set's threads in order (each
 * struct, sigaltstack and VM stack allocated just before its thread is
 * created) and return once every one of them is asleep.  Precondition:
 * mr_thread_prepare, and not called before on this set. */
void mr_thread_create_all(struct mr_thread_set *set);

/* rb_thread_terminate_all at exit: wake every thread (each frees its own VM
 * stack and disables its sigaltstack on the way out), then join them in
 * order.  Afterwards each thread's vm_stack is NULL and its
 * machine_stack_size still says what it had.  Precondition: a joinable set
 * whose threads mr_thread_create_all created. */
void mr_thread_stop_all(struct mr_thread_set *set);

/* rb_thread_atfork, in a child forked from the thread that created the set:
 * none of the threads exists there, so each is marked MR_RTHREAD_KILLED and
 * its machine stack forgotten (thread_cleanup_func): a write into every
 * thread struct, as Ruby does. */
void mr_thread_atfork_child(struct mr_thread_set *set);

/* Free every thread's VM stack, sigaltstack and struct, then the table;
 * threads becomes NULL and n 0.  Precondition: no thread of the set runs:
 * after mr_thread_stop_all, or in a forked child. */
void mr_thread_free_all(struct mr_thread_set *set);

/* --- THP=always, the setting of the report's machine --------------------
 *
 * A case that declares the parameter thp=default|always gets the
 * allocators' own switches for transparent huge pages with thp=always
 * (the cases say why and what each allocator does with them):
 * MALLOC_CONF thp:always,metadata_thp:always (jemalloc, appended with ','),
 * GLIBC_TUNABLES glibc.malloc.hugetlb=1 (glibc 2.35+, appended with ':'),
 * MIMALLOC_LARGE_OS_PAGES=1 (mimalloc).  An allocator reads its switch as it
 * starts, before main, so the case must re-execute itself to set them. */

/* When argv asks for thp=always (--param thp=always or --param=thp=always)
 * and this process is not already the re-executed one: set the switches and
 * MR_THREAD_THP=1 (the mark of the re-executed case) in the environment and
 * execv /proc/self/exe with the same argv; otherwise return at once.
 * Under another glibc's loader (the runner sets MEMREPRO_LOADER, its
 * MEMREPRO_LIBRARY_PATH and the case's own path MEMREPRO_CASE_EXE), exec
 * "LOADER --library-path PATH --argv0 argv[0] CASE_EXE argv[1]..." instead:
 * /proc/self/exe is the loader there, and the case must stay on that
 * glibc.  At most MR_THREAD_REEXEC_ARGS arguments then (no malloc here).
 * Call first thing in main, before mr_case_init, which closes the
 * checkpoint fds on exec and takes their variables out of the environment:
 * before it, the re-executed case finds them as the runner left them.
 * Returns only when no re-exec is needed; mr_fail when an extended variable
 * would exceed 1023 bytes, or setenv or execv fails. */
void mr_thread_thp_reexec(int argc, char **argv);

/* The most arguments a re-execution through a loader passes on. */
#define MR_THREAD_REEXEC_ARGS 256

/* After mr_case_init: with thp=always, mr_skip unless this kernel has
 * transparent huge pages in "always" or "madvise" mode; otherwise return. */
void mr_thread_thp_check(void);

#endif
