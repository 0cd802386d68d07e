/* machine: the machine's memory-relevant settings, read before and after
 * every run — see machine.h. */
#include "proc/machine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "mr_proc.h"
#include "proc/board.h"
#include "proc/cgfs.h"
#include "proc/self.h"

#define X_KEY(id, key) key,
const char *const mr_machine_keys[MR_MACHINE_NKEYS] = { MR_MACHINE_TABLE(X_KEY) };
#undef X_KEY

#define THP "/sys/kernel/mm/transparent_hugepage/"

/* How a setting is read from its file. */
enum how {
	RAW,       /* the first line */
	BRACKETED, /* the [word] of "always [madvise] never" */
	MEMINFO,   /* the kB of a /proc/meminfo line (the key is its name) */
};

/* The file of each setting read from one; NULL for those computed. */
static const struct {
	const char *path;
	enum how how;
} src[MR_MACHINE_NKEYS] = {
	[MR_MACHINE_THP] = { THP "enabled", BRACKETED },
	[MR_MACHINE_THP_DEFRAG] = { THP "defrag", BRACKETED },
	[MR_MACHINE_THP_SHMEM] = { THP "shmem_enabled", BRACKETED },
	[MR_MACHINE_THP_SHRINK] = { THP "shrink_underused", RAW },
	[MR_MACHINE_THP_ZERO_PAGE] = { THP "use_zero_page", RAW },
	[MR_MACHINE_KH_DEFRAG] = { THP "khugepaged/defrag", RAW },
	[MR_MACHINE_KH_PTES_NONE] = { THP "khugepaged/max_ptes_none", RAW },
	[MR_MACHINE_KH_PTES_SWAP] = { THP "khugepaged/max_ptes_swap", RAW },
	[MR_MACHINE_KH_PTES_SHARED] = { THP "khugepaged/max_ptes_shared", RAW },
	[MR_MACHINE_KH_PAGES] = { THP "khugepaged/pages_to_scan", RAW },
	[MR_MACHINE_KH_SCAN_MS] = { THP "khugepaged/scan_sleep_millisecs", RAW },
	[MR_MACHINE_KH_ALLOC_MS] = { THP "khugepaged/alloc_sleep_millisecs", RAW },
	[MR_MACHINE_OVERCOMMIT] = { "/proc/sys/vm/overcommit_memory", RAW },
	[MR_MACHINE_OVERCOMMIT_RATIO] = { "/proc/sys/vm/overcommit_ratio", RAW },
	[MR_MACHINE_MAX_MAP_COUNT] = { "/proc/sys/vm/max_map_count", RAW },
	[MR_MACHINE_SWAPPINESS] = { "/proc/sys/vm/swappiness", RAW },
	[MR_MACHINE_SWAP_KB] = { "/proc/meminfo", MEMINFO },
	[MR_MACHINE_ZSWAP] = { "/sys/module/zswap/parameters/enabled", RAW },
	[MR_MACHINE_KSM] = { "/sys/kernel/mm/ksm/run", RAW },
	[MR_MACHINE_NUMA_BALANCING] = { "/proc/sys/kernel/numa_balancing", RAW },
	[MR_MACHINE_CPUS_ONLINE] = { "/sys/devices/system/cpu/online", RAW },
};

/* path under MR_MACHINE_ROOT_ENV's directory, if set, into buf. */
static const char *
rooted(const char *path, char *buf, size_t size)
{
	const char *root = getenv(MR_MACHINE_ROOT_ENV);

	if (!root || !*root)
		return path;
	snprintf(buf, size, "%s%s", root, path);
	return buf;
}

/* Non-zero when the settings are read from a test's root. */
static int
test_root(void)
{
	const char *root = getenv(MR_MACHINE_ROOT_ENV);

	return root && *root;
}

/* The whole of a small file (up to size - 1 bytes) into buf,
 * NUL-terminated: its length, or -1.  O_NONBLOCK: a FIFO in a test's
 * root never blocks the runner. */
static long
slurp_at(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t len = 0;

	if (fd < 0)
		return -1;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (long)len;
}

/* slurp_at of path under MR_MACHINE_ROOT_ENV's directory, if set. */
static long
slurp(const char *path, char *buf, size_t size)
{
	char full[512];

	return slurp_at(rooted(path, full, sizeof full), buf, size);
}

/* s's first line, blanks trimmed, into out ("-" when empty). */
static void
first_line(const char *s, char *out, size_t size)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strcspn(s, "\n");
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n == 0)
		s = "-", n = 1;
	if (n >= size)
		n = size - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

static void
read_one(enum mr_machine_key k, char *out, size_t size)
{
	char buf[4096];
	const char *p;

	/* no THP at all: "none", as platform names have always said */
	snprintf(out, size, src[k].how == BRACKETED ? "none" : "-");
	if (!src[k].path || slurp(src[k].path, buf, sizeof buf) < 0)
		return;
	switch (src[k].how) {
	case RAW:
		first_line(buf, out, size);
		break;
	case BRACKETED:
		if ((p = strchr(buf, '[')) && strchr(p, ']')) {
			size_t n = (size_t)(strchr(p, ']') - p - 1);

			snprintf(out, size, "%.*s", (int)n, p + 1);
		} else {
			snprintf(out, size, "unknown");
		}
		break;
	case MEMINFO:
		if ((p = strstr(buf, "SwapTotal:")))
			snprintf(out, size, "%lld", strtoll(p + 10, NULL, 10));
		break;
	}
}

/* The mTHP sizes whose setting is not "never", "64kB:always,2048kB:inherit",
 * by size; "-" when the kernel has no per-size settings. */
static void
thp_sizes(char *out, size_t size)
{
	char full[512], buf[256], path[320], word[32];
	long kb[32];
	int n = 0, i, j;
	DIR *d = opendir(rooted(THP, full, sizeof full));
	struct dirent *e;
	size_t len = 0;

	snprintf(out, size, "-");
	if (!d)
		return;
	while (n < 32 && (e = readdir(d)))
		if (strncmp(e->d_name, "hugepages-", 10) == 0)
			kb[n++] = strtol(e->d_name + 10, NULL, 10);
	closedir(d);
	for (i = 1; i < n; i++) /* a few entries: insertion sort */
		for (j = i; j > 0 && kb[j - 1] > kb[j]; j--) {
			long t = kb[j];

			kb[j] = kb[j - 1];
			kb[j - 1] = t;
		}
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, THP "hugepages-%ldkB/enabled", kb[i]);
		if (slurp(path, buf, sizeof buf) < 0)
			continue;
		{
			const char *p = strchr(buf, '[');
			const char *q = p ? strchr(p, ']') : NULL;

			if (!p || !q)
				continue;
			snprintf(word, sizeof word, "%.*s", (int)(q - p - 1), p + 1);
		}
		if (strcmp(word, "never") == 0)
			continue;
		len += (size_t)snprintf(out + len, len < size ? size - len : 0,
					"%s%ldkB:%s", len ? "," : "", kb[i], word);
		if (len >= size)
			break;
	}
	if (!out[0])
		snprintf(out, size, n ? "none" : "-");
}

/* The least of a limit over the runner's cgroup and its ancestors ("max"
 * when none limits; "-" when there is no such file). */
static void
cg_limit(int v, const char *file, char *out, size_t size)
{
	static char own[2][512];
	static int known[2];
	char dir[512], buf[128], procs[560];
	unsigned long long least = 0;
	int found = 0, depth;

	snprintf(out, size, "-");
	if (test_root())
		return; /* a test's machine has no cgroups */
	if (!known[v - 1]) {
		if (mr_cgfs_own_dir(v, own[v - 1], sizeof own[v - 1]) < 0)
			own[v - 1][0] = '\0';
		known[v - 1] = 1;
	}
	if (!own[v - 1][0])
		return;
	snprintf(dir, sizeof dir, "%s", own[v - 1]);
	for (depth = 0; depth < 64; depth++) {
		char *slash;

		snprintf(procs, sizeof procs, "%s/cgroup.procs", dir);
		if (access(procs, F_OK) < 0)
			break; /* above the hierarchy's root */
		if (mr_cgfs_read(dir, file, buf, sizeof buf) >= 0) {
			unsigned long long x = strncmp(buf, "max", 3) == 0 ?
					       ~0ull : strtoull(buf, NULL, 10);

			if (!found || x < least)
				least = x;
			found = 1;
		}
		if (!(slash = strrchr(dir, '/')) || slash == dir)
			break;
		*slash = '\0';
	}
	if (found)
		snprintf(out, size, least >= (1ull << 62) ? "max" : "%llu",
			 least);
}

/* cpu.max of the runner's own v2 cgroup: "max 100000", or "-". */
static void
cg_cpu(char *out, size_t size)
{
	static char dir[512];
	static int known;
	char buf[128];

	snprintf(out, size, "-");
	if (test_root())
		return;
	if (!known) {
		if (mr_cgfs_own_dir(2, dir, sizeof dir) < 0)
			dir[0] = '\0';
		known = 1;
	}
	if (!dir[0] || mr_cgfs_read(dir, "cpu.max", buf, sizeof buf) < 0)
		return;
	first_line(buf, out, size);
}

/* No tab, newline or other control character in a value: they go into
 * TSV files. */
static void
clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

void
mr_machine_read(struct mr_machine *m)
{
	int k;

	memset(m, 0, sizeof *m);
	for (k = 0; k < MR_MACHINE_NKEYS; k++)
		read_one((enum mr_machine_key)k, m->val[k], sizeof m->val[k]);
	thp_sizes(m->val[MR_MACHINE_THP_SIZES], sizeof m->val[0]);
	cg_limit(2, "memory.max", m->val[MR_MACHINE_CG_MEMORY_MAX], sizeof m->val[0]);
	if (!strcmp(m->val[MR_MACHINE_CG_MEMORY_MAX], "-"))
		cg_limit(1, "memory.limit_in_bytes", m->val[MR_MACHINE_CG_MEMORY_MAX],
			 sizeof m->val[0]);
	cg_limit(2, "memory.high", m->val[MR_MACHINE_CG_MEMORY_HIGH], sizeof m->val[0]);
	cg_limit(2, "memory.swap.max", m->val[MR_MACHINE_CG_SWAP_MAX], sizeof m->val[0]);
	cg_cpu(m->val[MR_MACHINE_CG_CPU_MAX], sizeof m->val[0]);
	for (k = 0; k < MR_MACHINE_NKEYS; k++)
		clean(m->val[k]);
}

int
mr_machine_diff(const struct mr_machine *a, const struct mr_machine *b,
		char *out, size_t size)
{
	size_t len = 0;
	int n = 0, k;

	if (size)
		out[0] = '\0';
	for (k = 0; k < MR_MACHINE_NKEYS; k++) {
		if (strcmp(a->val[k], b->val[k]) == 0)
			continue;
		n++;
		if (len < size)
			len += (size_t)snprintf(out + len, size - len, "%s%s %s -> %s",
						len ? ", " : "", mr_machine_keys[k],
						a->val[k], b->val[k]);
	}
	return n;
}

uint64_t
mr_machine_cpu_ms(void)
{
	char buf[512], *p, *end;
	unsigned long long f[8] = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	/* the first line: "cpu  user nice system idle iowait irq softirq
	 * steal ...", in clock ticks; busy is all but idle and iowait */
	if (slurp_at("/proc/stat", buf, sizeof buf) < 0 || strncmp(buf, "cpu ", 4) || hz <= 0)
		return UINT64_MAX;
	for (p = buf + 4, i = 0; i < 8; i++, p = end) {
		errno = 0;
		f[i] = strtoull(p, &end, 10);
		if (end == p || errno)
			break;
	}
	if (i < 7)
		return UINT64_MAX;
	return (uint64_t)((f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) * 1000ull /
			  (unsigned long long)hz);
}

uint64_t
mr_machine_self_ms(void)
{
	/* this process and the children it reaped: the case, and the
	 * orphans of the run it killed and reaped */
	return mr_board_usage_ms(RUSAGE_SELF) + mr_board_usage_ms(RUSAGE_CHILDREN);
}

/* The direct reclaims since boot (the sum of /proc/vmstat's allocstall
 * lines: one before 4.8, one per zone since), or -1. */
static long long
stalls(void)
{
	static char buf[16384];
	long long sum = -1, v;
	const char *p;

	if (slurp("/proc/vmstat", buf, sizeof buf) <= 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *sp = strncmp(p, "allocstall", 10) == 0 ? strchr(p, ' ') : NULL;
		char *end;

		if (!sp)
			continue;
		v = strtoll(sp + 1, &end, 10);
		if (end != sp + 1 && v >= 0)
			sum = (sum < 0 ? 0 : sum) + v;
	}
	return sum;
}

void
mr_machine_begin(struct mr_machine_watch *w, int window)
{
	mr_machine_read(&w->before);
	w->window = window;
	w->t0 = mr_now_ns();
	w->next_say = 0;
	w->hz = sysconf(_SC_CLK_TCK); /* once: the ticks read at each sample */
	w->self_ms = mr_machine_self_ms();
	w->others_ms = mr_board_others();
	w->cpu_ms = mr_machine_cpu_ms();
	w->stalls = getenv(MR_GUEST_ENV) ? stalls() : -1;
}

void
mr_machine_tick(struct mr_machine_watch *w, const pid_t *tree, int n, uint64_t now)
{
	struct mr_pstat st;
	long hz = w->hz;
	uint64_t live = 0;
	int i;

	if (now < w->next_say || hz <= 0 || !mr_board_saying())
		return;
	/* a sample a little early still says */
	w->next_say = now + (uint64_t)MR_MACHINE_SAY_MS * 900000u;
	/* the run's live processes (tree[0] is this process): theirs and
	 * their reaped children's; those this process reaped are in its
	 * own figure */
	for (i = 1; i < n; i++)
		if (mr_proc_stat(tree[i], &st) == 0)
			live += st.utime + st.stime + st.cutime + st.cstime;
	mr_board_say(mr_machine_self_ms() - w->self_ms + live * 1000u / (uint64_t)hz);
}

/* Sleep until the watch has lasted MR_MACHINE_WINDOW_MS (bounded: a
 * signal ends it early). */
static void
fill_window(const struct mr_machine_watch *w)
{
	uint64_t end = w->t0 + (uint64_t)MR_MACHINE_WINDOW_MS * 1000000u, now;
	int i;

	/* told to stop, or nothing to read at the end: no wait */
	if (mr_spawn_interrupted || w->cpu_ms == UINT64_MAX)
		return;
	for (i = 0; i < 4 && (now = mr_now_ns()) < end; i++) {
		struct timespec ts = { 0, (long)(end - now) };

		if (nanosleep(&ts, NULL) < 0 && errno != EINTR)
			break;
		if (mr_spawn_interrupted)
			break;
	}
}

void
mr_machine_end(const struct mr_machine_watch *w,
	       const struct mr_machine *expect, char *out, size_t size,
	       uint64_t *other_ms)
{
	uint64_t cpu, own, runs;
	struct mr_machine after;
	char what[512];
	long long st;

	own = mr_machine_self_ms() - w->self_ms;
	mr_board_say(own); /* the case is reaped: all of it is in own now */
	if (w->window)
		fill_window(w);
	cpu = mr_machine_cpu_ms();
	runs = mr_board_others() - w->others_ms;
	*other_ms = UINT64_MAX;
	if (cpu != UINT64_MAX && w->cpu_ms != UINT64_MAX && cpu >= w->cpu_ms) {
		own = mr_machine_self_ms() - w->self_ms;
		*other_ms = cpu - w->cpu_ms > own + runs ? cpu - w->cpu_ms - own - runs : 0;
	}
	mr_machine_read(&after);
	if (size)
		out[0] = '\0';
	/* the keys are cut, never the words that say when */
	if (expect && mr_machine_diff(expect, &w->before, what, sizeof what))
		snprintf(out, size, "%.*s before the run", size > 16 ? (int)(size - 16) : 0, what);
	else if (mr_machine_diff(&w->before, &after, what, sizeof what))
		snprintf(out, size, "%.*s during the run", size > 16 ? (int)(size - 16) : 0, what);
	else if (w->stalls >= 0 && (st = stalls()) > w->stalls)
		snprintf(out, size, "allocstall %lld -> %lld (the guest's memory ran short) during the run",
			 w->stalls, st);
}
