/* fork-blowup: 1,000 sleeping threads, then 10 forked children that sleep:
 * +192 MB of used memory with glibc, about +2 GB with jemalloc 3.
 *
 * Source: seeds/001_363ce97aa11a7645.txt — a blog post (Japanese, 2015; the
 * English gist is in seeds/README.md), Ruby 2.x on x86_64 Linux, glibc vs
 * Debian's jemalloc 3 (libjemalloc.so.1):
 *
 *   ruby -e 'system "free"; 1000.times{Thread.new{sleep}};
 *            10.times{fork{sleep}}; sleep 1; system "free"'
 *   `free`'s used column, before -> after:
 *     glibc      2,053,828 -> 2,246,508 KB   (+192,680 KB, "192 MB")
 *     jemalloc   2,084,772 -> 4,041,740 KB   (+1,956,968 KB, "2 GB")
 *   (before the threads, so the delta holds the threads and the children;
 *   the same threads alone cost +47 MB glibc, +60 MB jemalloc, measured
 *   with 336 MB free on that machine; this run had 6 GB free.)
 *   The author did not know why.
 *
 * In one sentence: the children add little with any allocator when they
 * only sleep; what can make the whole tree grow by gigabytes is the parent
 * itself, when transparent huge pages back the allocator's memory: jemalloc
 * then keeps each sleeping thread's 1 MiB VM stack in 2 MiB huge pages,
 * glibc's separate 1 MiB mmaps between thread stacks are never eligible.
 *
 * Mechanism, as far as it can be shown here (jemalloc 5.3, Linux 6.18; the
 * report's jemalloc 3 is not available):
 *  - A forked child shares every page copy-on-write and copies only what it
 *    writes; it gets the parent's page tables (a few MiB with 1,000 thread
 *    stacks: kernel memory `free` counts, no process's RSS or PSS shows) and
 *    one thread.  In it, glibc resets the dead threads' descriptors (one
 *    write at the top of each thread stack, __reclaim_stacks) and Ruby marks
 *    each dead rb_thread_t killed (rb_thread_atfork): a page or so per
 *    thread either way, the same for every allocator.
 *  - No allocator does work in a sleeping child: jemalloc's fork handlers
 *    (jemalloc_postfork_child) only reinitialise the mutexes of its arenas,
 *    bins and base (a few KiB in all, 4 x CPUs arenas); nothing walks the
 *    chunks or purges.  Freeing inherited objects in the child (child=free)
 *    does write: glibc's metadata is in-band (every freed chunk's header and
 *    free-list links are on the object's own page: the whole heap is copied;
 *    tcmalloc's and mimalloc's free lists are in the freed objects too);
 *    jemalloc's small-object metadata is out of band (slab bitmaps in its
 *    base), so a freeing child copies less, and freed 1 MiB extents are
 *    only purged later (decay) with madvise, which copies nothing.  Writing
 *    into the objects (child=write, as a marking GC that sets a flag in
 *    every object) copies the heap with any allocator.
 *  - With transparent huge pages (THP=always, the kernel's default setting
 *    upstream and then common; here the machine is in madvise mode, so
 *    thp=always asks the allocator to madvise(MADV_HUGEPAGE) its memory, see
 *    below), the first touch of a 2 MiB-aligned region inside an eligible
 *    mapping faults in a whole huge page.  jemalloc maps large, aligned
 *    regions and carves the VM stacks from them: touching each stack's first
 *    and last page makes ~1 GB resident in the parent before any fork.
 *    glibc mmaps each 1 MiB VM stack on its own, between two thread stacks
 *    and their guard pages: no 2 MiB-aligned range fits, none is huge.  The
 *    report's +2 GB fits that (1,000 x ~1.3 MiB in jemalloc 3's 4 MiB chunks,
 *    plus thread caches) better than anything a sleeping child does; the
 *    jemalloc 3 creation time of the same post (0.94 s, 0.81 s system, vs
 *    0.13 s) fits the zeroing of that much huge-page memory.  Kernels before
 *    5.8 also copied a whole 2 MiB page at a child's first write into a huge
 *    page (now the mapping is split and 4 KiB are copied), which would have
 *    added to the children's share then.  The report's earlier `free` run
 *    (+60 MB with jemalloc) had 336 MB free: no huge pages to be had.
 *
 * What is modelled (Ruby 2.1/2.2; read, not copied):
 *  - the parent's heap: heap_mb of objects malloc'd and filled by the main
 *    thread before the threads (sizes 24..1000 bytes; Ruby's heap is 40-byte
 *    slots in 16 KiB pages plus malloc'd bodies: what an allocator and a
 *    child see is small objects on shared pages);
 *  - the threads, as in thread-vsz.c (lib/mr_thread.c), detached as in
 *    Ruby: per Thread.new a calloc'd thread struct, a malloc'd 1 MiB VM
 *    stack with its first frame, a 16 KiB sigaltstack, pthread_create with
 *    a 1 MiB stack (stack_kb); the thread calls pthread_getattr_np (its
 *    first malloc), sigaltstack(), then sleeps on its condition variable;
 *  - fork{sleep}, `children` times from the main thread: each child does what
 *    Ruby's fork does (rb_thread_atfork: every other thread's struct is
 *    marked killed, its machine stack forgotten), then `child`: none (the
 *    report), churn (a thousand malloc/free pairs, as a child running a
 *    little code), write (a word into every inherited object, as a marking
 *    GC), free (every inherited object, thread struct, VM stack and
 *    sigaltstack freed, as a worker tearing down what it inherited or a GC
 *    sweeping dead threads), then tells the parent and sleeps;
 *  - `sleep 1` (settle_ms), then the parent's checkpoint: tree_pss_kb is
 *    the tree's memory counting shared pages once (what `free` counts of
 *    user memory); tree_rss_kb counts them in every process.  The parent
 *    then releases the children (they _exit) and reaps them.
 *  - thp=always: before anything else the case re-executes itself with
 *    MALLOC_CONF=thp:always,metadata_thp:always (jemalloc),
 *    GLIBC_TUNABLES glibc.malloc.hugetlb=1 (glibc 2.35+) and
 *    MIMALLOC_LARGE_OS_PAGES=1 (mimalloc): each allocator madvises its own
 *    memory MADV_HUGEPAGE, which is what THP=always does for it (thread
 *    stacks are left alone: a 1 MiB stack between guard pages is never
 *    eligible anyway).  gperftools' tcmalloc has no such option: its
 *    figures stay as with default.  Skipped where THP is "never".
 *
 * Left out: the interpreter (its heap beyond heap_mb, its timer thread in
 * the child, GC runs), kernel memory other than page tables (the runner
 * does not read a memory cgroup: see the summary line for the page tables,
 * and 16 KiB of kernel stack per thread), and jemalloc 3 itself.
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_proc.h"
#include "mr_thread.h"
#include "mr_rand.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "threads", "1000", "250", "int:0..20000", NULL,
	  "sleeping threads created before the forks (report: 1000)" },
	{ "children", "10", NULL, "int:0..200", NULL,
	  "children forked, each sleeping until the parent's checkpoint (report: 10)" },
	{ "heap_mb", "8", "32", "int:0..4096", NULL,
	  "MiB of small objects the parent mallocs and fills before the threads (a bare Ruby's heap: ~8)" },
	{ "child", "none", NULL, "none|churn|write|free", NULL,
	  "what each child does after fork: nothing (report), malloc/free churn, write every object, free everything" },
	{ "thp", "default", NULL, "default|always", "default|always",
	  "transparent huge pages for the allocator's memory: as the machine is, or madvised by the allocator (THP=always)" },
	{ "stack_kb", "1024", NULL, "int:0..65536", NULL,
	  "machine stack per thread in KiB (Ruby: 1 MiB); 0: libc default (RLIMIT_STACK)" },
	{ "vm_stack_kb", "1024", NULL, "int:0..65536", NULL,
	  "VM stack malloc'd per thread in KiB (Ruby: 1 MiB on 64-bit); 0: none" },
	{ "settle_ms", "1000", "0", "int:0..60000", NULL,
	  "wait after the last child is ready, before the checkpoint (report: sleep 1)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before anything (the report's first free)" },
	{ "threads", "heap built, every thread created and asleep, before any fork" },
	{ "forked", "every child forked, done with its action and asleep (the report's second free)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "fork-blowup",
	.title = "1,000 threads then 10 sleeping forked children: +192 MB glibc, +2 GB jemalloc 3",
	.source = "seeds/001_363ce97aa11a7645.txt (blog post, Ruby 2.x, 2015): "
		  "1000 sleeping threads then 10.times{fork{sleep}}: free's used "
		  "+192,680 KB with glibc, +1,956,968 KB with jemalloc 3 (libjemalloc.so.1)",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "hugepages",
};

#define CHURN_PAIRS 1000

static struct mr_thread_set threads; /* the parent's sleeping threads */
static uint64_t **objs;       /* the parent's heap */
static size_t nobjs;

/* --- the parent's heap --------------------------------------------------- */

static uint64_t rng = MR_RAND_SEED;

static uint64_t next_rand(void)
{
	return mr_xorshift64(&rng);
}

static void build_heap(size_t bytes)
{
	static const size_t sizes[] = { 24, 40, 40, 64, 100, 160, 256, 512, 1000 };
	size_t cap = bytes / 64 + 16, used = 0;

	objs = malloc(cap * sizeof *objs);
	if (!objs)
		mr_fail("malloc:");
	while (used < bytes) {
		size_t sz = sizes[next_rand() % (sizeof sizes / sizeof sizes[0])];
		uint64_t *o;

		if (nobjs == cap) {
			cap *= 2;
			if (!(objs = realloc(objs, cap * sizeof *objs)))
				mr_fail("realloc:");
		}
		if (!(o = malloc(sz)))
			mr_fail("malloc of heap object %zu:", nobjs + 1);
		memset(o, 0x5a, sz);
		o[0] = nobjs;
		mr_keep(o);
		objs[nobjs++] = o;
		used += sz;
	}
}

/* --- a child ------------------------------------------------------------- */

static int child_action(const char *what)
{
	size_t i;

	mr_thread_atfork_child(&threads);
	if (strcmp(what, "churn") == 0) {
		for (i = 0; i < CHURN_PAIRS; i++) {
			size_t sz = 16 + next_rand() % 4096;
			char *p = malloc(sz);

			if (!p)
				return -1;
			memset(p, 0x33, sz);
			mr_keep(p);
			free(p);
		}
	} else if (strcmp(what, "write") == 0) {
		for (i = 0; i < nobjs; i++) {
			objs[i][0] |= 1ull << 63; /* FL_MARK */
			mr_keep(objs[i]);
		}
	} else if (strcmp(what, "free") == 0) {
		for (i = 0; i < nobjs; i++)
			free(objs[i]);
		mr_thread_free_all(&threads);
	}
	return 0;
}

static _Noreturn void child_main(pid_t parent, int ready_fd, int release_fd, const char *what)
{
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	c = child_action(what) == 0 ? '1' : 'F';
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	/* sleep: until the parent closes its end of the release pipe */
	while (read(release_fd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(c == 'F');
}

/* The "Key:   N kB" figure of /proc/PID/<file>, or 0: VmPTE (page tables,
 * kernel memory `free` counts and no RSS shows) and AnonHugePages. */
static long proc_kb(pid_t pid, const char *file, const char *key)
{
	char path[64], buf[4096];
	const char *p;
	size_t klen = strlen(key);

	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
	if (mr_proc_read(path, buf, sizeof buf) < 0)
		return 0;
	for (p = buf; (p = strstr(p, key)) != NULL; p += klen)
		if (p == buf || p[-1] == '\n')
			return strtol(p + klen, NULL, 10);
	return 0;
}

int main(int argc, char **argv)
{
	int ready[2], release[2];
	size_t k, nchildren, i;
	pid_t *pids, self;
	long pte_parent, pte_children = 0, huge_parent;
	char line[512];
	int len, failed = 0;
	struct timespec settle;

	mr_thread_thp_reexec(argc, argv);
	mr_case_init(&desc, argc, argv);
	mr_thread_thp_check();
	nchildren = (size_t)mr_param_int("children");
	if (mr_param_int("stack_kb") && mr_param_int("stack_kb") * 1024 < PTHREAD_STACK_MIN)
		mr_usage("stack_kb=%lld is below PTHREAD_STACK_MIN", mr_param_int("stack_kb"));
	if (!(pids = calloc(nchildren ? nchildren : 1, sizeof *pids)))
		mr_fail("calloc:");
	if (pipe(ready) < 0 || pipe(release) < 0)
		mr_fail("pipe:");
	mr_checkpoint("start");

	build_heap((size_t)mr_param_int("heap_mb") << 20);
	mr_thread_prepare(&threads, (size_t)mr_param_int("threads"),
			  (size_t)mr_param_int("stack_kb") * 1024,
			  (size_t)mr_param_int("vm_stack_kb") * 1024, MR_THREAD_DETACHED);
	mr_thread_create_all(&threads);
	mr_checkpoint("threads");

	/* 10.times { fork { sleep } } */
	self = getpid();
	for (k = 0; k < nchildren; k++) {
		pids[k] = fork();
		if (pids[k] < 0)
			mr_fail("fork of child %zu:", k + 1);
		if (pids[k] == 0) {
			close(ready[0]);
			close(release[1]);
			child_main(self, ready[1], release[0], mr_param("child"));
		}
	}
	close(ready[1]);
	close(release[0]);
	for (k = 0; k < nchildren;) {
		char c;
		ssize_t r = read(ready[0], &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1)
			mr_fail("a child died before it was ready");
		if (c != '1')
			failed++;
		k++;
	}
	if (failed)
		mr_fail("%d children failed their action (child=%s)", failed, mr_param("child"));
	settle.tv_sec = mr_param_int("settle_ms") / 1000;
	settle.tv_nsec = mr_param_int("settle_ms") % 1000 * 1000000L;
	while (nanosleep(&settle, &settle) < 0 && errno == EINTR)
		;
	mr_checkpoint("forked");

	pte_parent = proc_kb(self, "status", "VmPTE:");
	huge_parent = proc_kb(self, "smaps_rollup", "AnonHugePages:");
	for (k = 0; k < nchildren; k++)
		pte_children += proc_kb(pids[k], "status", "VmPTE:");
	close(release[1]); /* the children read EOF and _exit(0) */
	for (k = 0; k < nchildren; k++) {
		int st;

		while (waitpid(pids[k], &st, 0) < 0) {
			if (errno != EINTR)
				mr_fail("waitpid:");
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed++;
	}
	if (failed)
		mr_fail("%d children did not exit cleanly", failed);
	for (i = 0; i < nobjs; i++)
		if (objs[i][0] != i)
			mr_fail("heap object %zu was changed in the parent", i);

	len = snprintf(line, sizeof line,
		       "fork-blowup: %zu threads, %zu children (child=%s, thp=%s), heap %zu objects; "
		       "parent's huge pages %ld KiB; page tables: parent %ld KiB, children %ld KiB in all\n",
		       threads.n, nchildren, mr_param("child"), mr_param("thp"), nobjs,
		       huge_parent, pte_parent, pte_children);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	return MR_EXIT_OK;
}
