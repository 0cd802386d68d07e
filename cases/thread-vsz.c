/* thread-vsz: 1,000 sleeping Ruby threads make VSZ 4 GB with glibc (per-
 * thread malloc arenas), 2.5 GB with jemalloc, little real memory.
 *
 * Source: seeds/001_363ce97aa11a7645.txt — a blog post (Japanese, 2015; the
 * English gist is in seeds/README.md), Ruby 2.x on x86_64 Linux, glibc vs
 * Debian's jemalloc 3 (libjemalloc.so.1):
 *
 *   ruby -e '1000.times{Thread.new{sleep}}', VSZ before -> after (ps):
 *     glibc      46,392 KB -> 4,151,572 KB   ("4 GB")
 *     jemalloc   55,672 KB -> 2,509,080 KB   ("2.5 GB")
 *   time (the whole ruby process, threads killed at exit):
 *     glibc      0.132 s total (0.10 user, 0.06 sys)
 *     jemalloc   0.941 s total (0.23 user, 0.81 sys)
 *   `free`'s used column before -> after: +47 MB glibc, +60 MB jemalloc
 *
 * In one sentence: each new thread mallocs once in its own context and glibc
 * gives it an arena of its own, up to 8 per CPU, each reserving a 64 MiB heap,
 * so VSZ grows by gigabytes while almost nothing of it is touched.
 *
 * Mechanism.  glibc's malloc gives a thread that first mallocs an arena of
 * its own while fewer than arena_max exist (default 8 x CPUs on 64-bit),
 * and only then shares (reuse_arena).  Each non-main arena lives in heaps
 * that new_heap() maps as HEAP_MAX_SIZE = 64 MiB (twice the largest mmap
 * threshold) of PROT_NONE, aligned to 64 MiB, and mprotects read-write only
 * as far as it is used: 64 MiB of VSZ and a page or two of RSS per arena.
 * The report's VSZ adds up to that: 4,151,572 - 46,392 KB = 1,000 x (1 MiB + 4
 * KiB) thread stacks + 1,000 x (1 MiB + 4 KiB) VM stacks (each above the
 * mmap threshold, so an mmap of its own) + 31 x 64 MiB arena heaps (a 4-CPU
 * machine: 32 arenas with the main one) + ~17 MB (sixteen MiB of sigaltstacks
 * and the Ruby heap).  jemalloc 3 has 4 x CPUs arenas but carves the VM
 * stacks from 4 MiB chunks (three 1 MiB runs per chunk, the chunk header
 * taking the rest): 334 chunks for the VM stacks plus a dozen for the
 * thread caches and sigaltstacks = 1.39 GB, + 1 GB of thread stacks = 2.45
 * GB, the report's 2,453,408 KB.  Neither is real memory: the stacks and
 * arenas are reserved, a few pages of each are touched.  `free`'s delta
 * counts what is touched (thread stack tops, the VM stacks' first and last
 * pages, arena headers) plus kernel memory the process's RSS does not show:
 * a kernel stack per thread (16 KiB on x86_64 since Linux 3.15, 8 KiB
 * before) and page tables.
 *
 * Where the time goes is not in the report.  Here we measure creation (from
 * checkpoint start to created: every thread created and asleep) and the
 * teardown at exit (created to ended: every thread woken, its VM stack freed
 * by itself as Ruby's thread_start_func_2 does, joined) apart; the report's
 * 0.94 s is the whole process.  jemalloc 3's 0.81 s of system time is
 * consistent with transparent huge pages (THP=always, common then): its
 * chunks are 4 MiB-aligned in large mappings, so the first touch of a VM
 * stack faults in and zeroes a whole 2 MiB page, while glibc's 1 MiB mmaps
 * sit between thread stacks and guard pages and are never eligible.  The
 * same would make the VSZ's resident part jump, which the report's `free`
 * run (+60 MB, on a machine with 336 MB free) did not show; see
 * fork-blowup.c, where the report's machine had 6 GB free.
 *
 * What is modelled, after Ruby 2.1/2.2 (vm.c th_init, thread.c
 * thread_create_core, thread_pthread.c native_thread_create and
 * thread_start_func_1; read, not copied; the model is lib/mr_thread.c):
 *  - Thread.new, in the creating thread: the rb_thread_t is calloc'd
 *    (MR_RTHREAD_BYTES, its order of size), its VM stack malloc'd
 *    (vm_stack_kb: RUBY_VM_THREAD_VM_STACK_SIZE = 128 Ki words = 1 MiB on
 *    64-bit) with the first control frame pushed at its top and the first
 *    environment values at its bottom (vm_push_frame: the first and last
 *    pages are touched), and its sigaltstack malloc'd
 *    (rb_sigaltstack_size(): 16 KiB); then
 *    pthread_create, detached in Ruby, with pthread_attr_setstacksize of
 *    RUBY_VM_THREAD_MACHINE_STACK_SIZE (stack_kb: 1 MiB; 0 leaves the libc
 *    default, RLIMIT_STACK: 8 MiB on most machines);
 *  - the new thread's first steps: native_thread_init_stack's
 *    pthread_getattr_np (glibc reallocs the thread's CPU set there: the
 *    thread's first malloc, which picks its arena) and pthread_attr_destroy,
 *    sigaltstack(), pthread_setspecific of the thread pointer; then `sleep`:
 *    native_sleep waits on the thread's condition variable under its
 *    interrupt lock;
 *  - exit: every thread is woken (rb_thread_terminate_all), frees its own VM
 *    stack on the way out and is joined (Ruby waits for the living-thread
 *    count instead: joining makes the end certain for the measurement).
 *  - arena_max=1|2 is MALLOC_ARENA_MAX: mallopt(M_ARENA_MAX) first thing in
 *    main, before any thread exists.  glibc reads the limit when a thread
 *    first needs an arena, so this is the same setting as the environment
 *    variable or the tunable (`--axis glibc.malloc.arena_max=1` gives the
 *    same VSZ to 28 KB); as a parameter it is part of the case's own matrix,
 *    which a tunable cannot be.
 *    Under another allocator it changes nothing (glibc's malloc is unused).
 *  - thp=always: the case re-executes itself with each allocator's own
 *    switch for transparent huge pages (MALLOC_CONF=thp:always, glibc's
 *    glibc.malloc.hugetlb=1 tunable, MIMALLOC_LARGE_OS_PAGES=1), as
 *    fork-blowup.c does and explains, since this machine is in madvise mode.
 *    jemalloc's (and mimalloc's) VM stacks then become ~1.1 GB of huge
 *    pages, and creating them costs system time; how much varies from run
 *    to run with what the kernel (and, in a VM, the host) must do to find
 *    and zero 2 MiB pages.
 *
 * Left out: the interpreter (its 46 MB of VSZ at start, its heap and GC:
 * Ruby's xmalloc of 1 GB of VM stacks triggers GC runs on the way), the GVL
 * (a new thread runs its native start concurrently, then waits for the
 * GVL: the order of first mallocs may differ, not their count), Ruby's
 * timer thread, and the thread-local storage of the interpreter.
 *
 * No musl build: it calls glibc's mallopt, which musl's libc lacks.
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_proc.h"
#include "mr_thread.h"

#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "threads", "1000", "250", "int:1..20000", NULL,
	  "threads created, each sleeping until exit (report: 1000.times{Thread.new{sleep}})" },
	{ "stack_kb", "1024", NULL, "int:0..65536", NULL,
	  "machine stack per thread in KiB (Ruby: RUBY_VM_THREAD_MACHINE_STACK_SIZE, 1 MiB); 0: libc default (RLIMIT_STACK)" },
	{ "vm_stack_kb", "1024", NULL, "int:0..65536", NULL,
	  "VM stack malloc'd per thread in KiB (RUBY_VM_THREAD_VM_STACK_SIZE, 1 MiB on 64-bit); 0: none" },
	{ "arena_max", "unset", NULL, "unset|1|2|4|8", "unset|1",
	  "MALLOC_ARENA_MAX, set with mallopt(M_ARENA_MAX) before any thread (glibc only)" },
	{ "thp", "default", NULL, "default|always", "default|always",
	  "transparent huge pages for the allocator's memory: as the machine is, or madvised by the allocator (THP=always)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first thread (the report's first ps / free)" },
	{ "created", "every thread created and asleep (the report's second ps / free)" },
	{ "ended", "every thread woken, its VM stack freed by itself, joined (process exit)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "thread-vsz",
	.title = "1,000 sleeping threads: VSZ 4 GB with glibc arenas, 2.5 GB with jemalloc",
	.source = "seeds/001_363ce97aa11a7645.txt (blog post, Ruby 2.x, 2015): "
		  "1000 sleeping threads, VSZ 46,392 -> 4,151,572 KB glibc, "
		  "55,672 -> 2,509,080 KB jemalloc 3; 0.13 s vs 0.94 s (sys 0.06 vs 0.81); "
		  "free's used +47 MB vs +60 MB",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "arenas",
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* VmPTE of /proc/self/status in KiB, or -1: page tables are kernel memory
 * `free` counts and RSS does not. */
static long vm_pte_kb(void)
{
	char buf[4096];
	const char *p;

	if (mr_proc_read("/proc/self/status", buf, sizeof buf) < 0 ||
	    !(p = strstr(buf, "\nVmPTE:")))
		return -1;
	return strtol(p + 7, NULL, 10);
}

int main(int argc, char **argv)
{
	struct mr_thread_set ts;
	size_t n, i, stack, vm, stack_seen = 0, stacks_short = 0;
	double t0, t1, t2;
	long pte_start, pte_created;
	char line[512];
	int len;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	n = (size_t)mr_param_int("threads");
	stack = (size_t)mr_param_int("stack_kb") * 1024;
	vm = (size_t)mr_param_int("vm_stack_kb") * 1024;
	if (!mr_param_is("arena_max", "unset") &&
	    mallopt(M_ARENA_MAX, atoi(mr_param("arena_max"))) != 1)
		mr_fail("mallopt(M_ARENA_MAX, %s) refused", mr_param("arena_max"));
	if (stack && stack < (size_t)PTHREAD_STACK_MIN)
		mr_usage("stack_kb=%lld is below PTHREAD_STACK_MIN (%d bytes)",
			 mr_param_int("stack_kb"), (int)PTHREAD_STACK_MIN);

	/* Joinable, unlike Ruby's: joining makes the end certain. */
	mr_thread_prepare(&ts, n, stack, vm, 0);
	pte_start = vm_pte_kb();
	mr_checkpoint("start");

	/* 1000.times { Thread.new { sleep } } */
	t0 = now_s();
	mr_thread_create_all(&ts);
	t1 = now_s();
	pte_created = vm_pte_kb();
	mr_checkpoint("created");

	/* Exit: rb_thread_terminate_all wakes every thread, each one goes. */
	mr_thread_stop_all(&ts);
	t2 = now_s();
	mr_checkpoint("ended");

	for (i = 0; i < n; i++) {
		stack_seen = ts.threads[i]->machine_stack_size;
		if (stack && stack_seen < stack)
			stacks_short++;
		if (ts.threads[i]->vm_stack)
			mr_fail("thread %zu did not free its VM stack", i + 1);
	}
	if (stacks_short)
		mr_fail("%zu of %zu threads had a machine stack smaller than %zu bytes",
			stacks_short, n, stack);
	mr_thread_free_all(&ts);

	len = snprintf(line, sizeof line,
		       "thread-vsz: %zu threads, stack %zu KiB%s, VM stack %zu KiB, arena_max %s, thp %s: "
		       "creation %.3f s, teardown %.3f s; page tables %ld -> %ld KiB\n",
		       n, stack_seen / 1024, stack ? "" : " (libc default)", vm / 1024,
		       mr_param("arena_max"), mr_param("thp"), t1 - t0, t2 - t1,
		       pte_start, pte_created);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
