/* mr_thread: a model of Ruby 2.x's threads, and the THP=always re-exec.
 * The contract is in mr_thread.h; why each step costs what it costs is in
 * cases/thread-vsz.c.
 */
#include "mr_thread.h"
#include "mr_case.h"
#include "mr_proc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* rb_control_frame_t: 7 or 8 words. */
#define CFP_WORDS 8
/* Set in the environment of the re-executed case (thp=always). */
#define THP_MARK "MR_THREAD_THP"

_Static_assert(sizeof(struct mr_rthread) <= MR_RTHREAD_BYTES,
	       "struct mr_rthread outgrew the rb_thread_t it models");

/* A precondition the case broke: a bug in the case, not a result. */
static _Noreturn void bug(const char *what)
{
	static const char head[] = "mr_thread: bug in the case: ";

	(void)!write(2, head, sizeof head - 1);
	(void)!write(2, what, strlen(what));
	(void)!write(2, "\n", 1);
	abort();
}

/* p, or the end of the case when the allocation p was refused. */
static void *or_fail(void *p, const char *what)
{
	if (!p)
		mr_fail("%s:", what);
	return p;
}

void mr_thread_prepare(struct mr_thread_set *set, size_t n, size_t stack_bytes,
		       size_t vm_bytes, unsigned flags)
{
	int rc;

	if (vm_bytes && (vm_bytes % sizeof(uint64_t) ||
			 vm_bytes < CFP_WORDS * sizeof(uint64_t)))
		bug("mr_thread_prepare: vm_bytes is not a multiple of 8 of at least 64");
	memset(set, 0, sizeof *set);
	set->n = n;
	set->vm_bytes = vm_bytes;
	set->flags = flags;
	/* calloc(0) may return NULL: one slot at least. */
	set->threads = or_fail(calloc(n ? n : 1, sizeof(struct mr_rthread *)),
			       "calloc of the thread table");
	if (pthread_mutex_init(&set->started_lock, NULL) != 0 ||
	    pthread_cond_init(&set->started_cond, NULL) != 0)
		mr_fail("pthread_mutex_init/pthread_cond_init failed");
	if (pthread_key_create(&set->key, NULL) != 0)
		mr_fail("pthread_key_create failed");
	if (pthread_attr_init(&set->attr) != 0)
		mr_fail("pthread_attr_init failed");
	if ((flags & MR_THREAD_DETACHED) &&
	    pthread_attr_setdetachstate(&set->attr, PTHREAD_CREATE_DETACHED) != 0)
		mr_fail("pthread_attr_setdetachstate failed");
	if (stack_bytes &&
	    (rc = pthread_attr_setstacksize(&set->attr, stack_bytes)) != 0) {
		errno = rc;
		mr_fail("pthread_attr_setstacksize(%zu):", stack_bytes);
	}
}

/* vm.c th_init, in the creating thread. */
static struct mr_rthread *th_init(struct mr_thread_set *set)
{
	struct mr_rthread *th = or_fail(calloc(1, MR_RTHREAD_BYTES),
					"calloc of a thread struct");

	th->set = set;
	th->altstack = or_fail(malloc(MR_RTHREAD_ALTSTACK_BYTES),
			       "malloc of a sigaltstack");
	if (set->vm_bytes) {
		size_t i;

		th->vm_words = set->vm_bytes / sizeof(uint64_t);
		th->vm_stack = or_fail(malloc(th->vm_words * sizeof(uint64_t)),
				       "malloc of a VM stack");
		/* vm_push_frame of the dummy top frame: the control frame at
		 * the top, its environment values at the bottom. */
		th->cfp = th->vm_stack + th->vm_words - CFP_WORDS;
		for (i = 0; i < CFP_WORDS; i++)
			th->cfp[i] = (uint64_t)(uintptr_t)th + i;
		for (i = 0; i < 3; i++)
			th->vm_stack[i] = (uint64_t)(uintptr_t)th ^ i;
		mr_keep(th->cfp);
		mr_keep(th->vm_stack);
	}
	if (pthread_mutex_init(&th->interrupt_lock, NULL) != 0 ||
	    pthread_cond_init(&th->sleep_cond, NULL) != 0)
		mr_fail("pthread_mutex_init/pthread_cond_init failed");
	return th;
}

/* thread_start_func_1 .. native_sleep, then the end of thread_start_func_2. */
static void *thread_main(void *arg)
{
	struct mr_rthread *th = arg;
	struct mr_thread_set *set = th->set;
	pthread_attr_t attr;
	stack_t ss;
	int rc;

	/* native_thread_init_stack: glibc's pthread_getattr_np reallocs the
	 * CPU set here, the thread's first call into malloc. */
	if ((rc = pthread_getattr_np(pthread_self(), &attr)) != 0 ||
	    (rc = pthread_attr_getstack(&attr, &th->machine_stack_start,
					&th->machine_stack_size)) != 0) {
		errno = rc;
		mr_fail("pthread_getattr_np:");
	}
	pthread_attr_destroy(&attr);
	/* rb_register_sigaltstack */
	ss.ss_sp = th->altstack;
	ss.ss_size = MR_RTHREAD_ALTSTACK_BYTES;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) < 0)
		mr_fail("sigaltstack:");
	pthread_setspecific(set->key, th);

	/* sleep: native_sleep waits on the thread's own condition variable. */
	pthread_mutex_lock(&th->interrupt_lock);
	th->status = MR_RTHREAD_SLEEPING;
	pthread_mutex_lock(&set->started_lock);
	set->started++;
	pthread_cond_signal(&set->started_cond);
	pthread_mutex_unlock(&set->started_lock);
	while (!th->interrupted)
		pthread_cond_wait(&th->sleep_cond, &th->interrupt_lock);
	th->status = MR_RTHREAD_RUNNABLE;
	pthread_mutex_unlock(&th->interrupt_lock);

	/* The VM stack is released by the exiting thread itself. */
	free(th->vm_stack);
	th->vm_stack = NULL;
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	return NULL;
}

void mr_thread_create_all(struct mr_thread_set *set)
{
	size_t i, n = set->n;
	int rc;

	for (i = 0; i < n; i++) {
		struct mr_rthread *th = th_init(set);

		set->threads[i] = th;
		rc = pthread_create(&th->id, &set->attr, thread_main, th);
		if (rc == EAGAIN)
			mr_skip("pthread_create: thread %zu of %zu: %s (RLIMIT_NPROC, "
				"kernel.threads-max or memory)", i + 1, n, strerror(rc));
		if (rc) {
			errno = rc;
			mr_fail("pthread_create of thread %zu:", i + 1);
		}
	}
	pthread_attr_destroy(&set->attr);
	pthread_mutex_lock(&set->started_lock);
	while (set->started < n)
		pthread_cond_wait(&set->started_cond, &set->started_lock);
	pthread_mutex_unlock(&set->started_lock);
}

void mr_thread_stop_all(struct mr_thread_set *set)
{
	size_t i;
	int rc;

	if (set->flags & MR_THREAD_DETACHED)
		bug("mr_thread_stop_all: the threads are detached");
	for (i = 0; i < set->n; i++) {
		struct mr_rthread *th = set->threads[i];

		pthread_mutex_lock(&th->interrupt_lock);
		th->interrupted = 1;
		pthread_cond_signal(&th->sleep_cond);
		pthread_mutex_unlock(&th->interrupt_lock);
	}
	for (i = 0; i < set->n; i++) {
		if ((rc = pthread_join(set->threads[i]->id, NULL)) != 0) {
			errno = rc;
			mr_fail("pthread_join:");
		}
	}
}

void mr_thread_atfork_child(struct mr_thread_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		struct mr_rthread *th = set->threads[i];

		th->status = MR_RTHREAD_KILLED;
		th->machine_stack_start = NULL;
		th->machine_stack_size = 0;
		mr_keep(th);
	}
}

void mr_thread_free_all(struct mr_thread_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		free(set->threads[i]->vm_stack);
		free(set->threads[i]->altstack);
		free(set->threads[i]);
	}
	free(set->threads);
	set->threads = NULL;
	set->n = 0;
}

/* --- thp=always ---------------------------------------------------------- */

/* name=value, or name=<old><sep>value when name is set and not empty. */
static void env_append(const char *name, const char *sep, const char *value)
{
	const char *old = getenv(name);
	char buf[1024];

	if (old && *old) {
		if ((size_t)snprintf(buf, sizeof buf, "%s%s%s", old, sep, value) >= sizeof buf)
			mr_fail("%s is too long to extend", name);
		value = buf;
	}
	if (setenv(name, value, 1) < 0)
		mr_fail("setenv %s:", name);
}

/* Execute this case again with argv.  Run through another glibc's loader
 * (the runner's libc axis), /proc/self/exe is that loader, and what the
 * loader was told (--library-path) is not inherited: go through the same
 * loader again, as the runner started the case. */
static _Noreturn void reexec(int argc, char **argv)
{
	const char *ld = getenv("MEMREPRO_LOADER"), *lp = getenv("MEMREPRO_LIBRARY_PATH"),
		   *exe = getenv("MEMREPRO_CASE_EXE");
	char *args[MR_THREAD_REEXEC_ARGS + 7];
	int i, n = 0;

	if (!ld || !*ld) {
		execv("/proc/self/exe", argv);
		mr_fail("re-executing with the allocators' THP options: execv /proc/self/exe:");
	}
	if (!lp || !exe || !*exe)
		mr_fail("MEMREPRO_LOADER is set without MEMREPRO_LIBRARY_PATH and MEMREPRO_CASE_EXE");
	if (argc > MR_THREAD_REEXEC_ARGS)
		mr_fail("re-executing through %s: more than %d arguments", ld, MR_THREAD_REEXEC_ARGS);
	args[n++] = (char *)ld;
	if (*lp) {
		args[n++] = (char *)"--library-path";
		args[n++] = (char *)lp;
	}
	args[n++] = (char *)"--argv0";
	args[n++] = argv[0];
	args[n++] = (char *)exe;
	for (i = 1; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execv(ld, args);
	mr_fail("re-executing with the allocators' THP options: execv %s:", ld);
}

void mr_thread_thp_reexec(int argc, char **argv)
{
	int i, want = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--param=thp=always") == 0 ||
		    (strcmp(argv[i], "--param") == 0 && i + 1 < argc &&
		     strcmp(argv[i + 1], "thp=always") == 0))
			want = 1;
	}
	if (!want || getenv(THP_MARK))
		return;
	env_append("MALLOC_CONF", ",", "thp:always,metadata_thp:always");
	env_append("GLIBC_TUNABLES", ":", "glibc.malloc.hugetlb=1");
	if (setenv("MIMALLOC_LARGE_OS_PAGES", "1", 1) < 0 ||
	    setenv(THP_MARK, "1", 1) < 0)
		mr_fail("setenv:");
	reexec(argc, argv);
}

void mr_thread_thp_check(void)
{
	char buf[256];

	if (!mr_param_is("thp", "always"))
		return;
	if (mr_proc_read("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof buf) < 0)
		mr_skip("thp=always: this kernel has no transparent huge pages");
	if (strstr(buf, "[never]"))
		mr_skip("thp=always: transparent huge pages are disabled here ([never])");
}
