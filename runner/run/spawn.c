/* spawn: fork, exec, sample, enforce the deadline, reap — see spawn.h. */
#include "run/spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/cgroup.h"
#include "mr_proc.h"

/* The fds the case finds its checkpoint channel on (MEMREPRO_CKPT_FD,
 * MEMREPRO_ACK_FD): fixed, so a case run by hand can be given them too. */
#define CKPT_FD 3
#define ACK_FD 4
/* The longest record docs/formats.md allows, newline included. */
#define RECORD_MAX 1024
/* More processes than any case should start; the rest go unmeasured. */
#define TREE_MAX 4096
/* What a log gives back when the disk fills, for the rows of the run. */
#define LOG_GIVE_BACK (256u << 10)
/* How long leftovers of a case may take to die after SIGKILL. */
#define REAP_LIMIT_MS 5000

extern char **environ;

volatile sig_atomic_t mr_spawn_interrupted;

const char *const mr_spawn_ckpt_metric[MR_SPAWN_NCKPT] = {
	"t_ms", "rss_kb", "vsz_kb", "pss_kb", "private_clean_kb",
	"private_dirty_kb", "shared_dirty_kb", "anon_kb", "lazyfree_kb",
	"swap_kb", "hwm_kb", "user_ms", "sys_ms", "minflt", "majflt",
};

const char *const mr_spawn_ckpt_field[MR_SPAWN_NCKPT] = {
	"t_us", "rss_kb", "vsz_kb", "pss_kb", "private_clean_kb",
	"private_dirty_kb", "shared_dirty_kb", "anon_kb", "lazyfree_kb",
	"swap_kb", "hwm_kb", "user_ms", "sys_ms", "minflt", "majflt",
};

/* Indexes into mr_spawn_ckpt_field and mr_spawn_ckpt.v. */
enum {
	CK_T_US, CK_RSS, CK_VSZ, CK_PSS, CK_PRIVATE_CLEAN, CK_PRIVATE_DIRTY,
	CK_SHARED_DIRTY, CK_ANON, CK_LAZYFREE, CK_SWAP, CK_HWM, CK_USER,
	CK_SYS, CK_MINFLT, CK_MAJFLT,
};

/* The fields a record must carry: what only the case knows cheaply (its
 * clock, its rusage, statm).  The rest the runner reads of the case while
 * it waits for its ack (measure_tree). */
#define CK_FROM_CASE \
	(1ul << CK_T_US | 1ul << CK_RSS | 1ul << CK_VSZ | 1ul << CK_USER | \
	 1ul << CK_SYS | 1ul << CK_MINFLT | 1ul << CK_MAJFLT)

static void
on_signal(int sig)
{
	mr_spawn_interrupted = sig;
}

/* SIGCONT: the runner was stopped (SIGSTOP, Ctrl-Z) and goes on. */
static volatile sig_atomic_t continued;

static void
on_cont(int sig)
{
	(void)sig;
	continued++;
}

/* Time the machine spent suspended since boot: BOOTTIME counts it,
 * MONOTONIC does not. */
static uint64_t
suspended_ns(void)
{
	struct timespec b, m;

	if (clock_gettime(CLOCK_BOOTTIME, &b) < 0 || clock_gettime(CLOCK_MONOTONIC, &m) < 0)
		return 0;
	return ((uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec) -
	       ((uint64_t)m.tv_sec * 1000000000u + (uint64_t)m.tv_nsec);
}

static void note_inherited(void);

void
mr_spawn_init(void)
{
	struct sigaction sa = { 0 };
	int fd;

	/* fds 0-2 must be taken, or a pipe could land there and be lost to
	 * the child's dup2 onto its standard fds. */
	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
	note_inherited();
	/* Orphans of a case come back to us, so they can be found and
	 * killed even when they left the case's process group. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		weprintf("prctl PR_SET_CHILD_SUBREAPER:");
	signal(SIGPIPE, SIG_IGN);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_cont;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCONT, &sa, NULL);
}

int
mr_spawn_aslr(int on, char *buf, size_t size)
{
	int cur = personality(0xffffffff), fd, e = 0;
	char sys[8] = "";

	fd = open("/proc/sys/kernel/randomize_va_space", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, sys, sizeof sys - 1);

		sys[n > 0 ? n : 0] = 0;
		close(fd);
	}
	if (cur == -1 || personality(on ? (unsigned long)cur & ~(unsigned long)ADDR_NO_RANDOMIZE
					: (unsigned long)cur | ADDR_NO_RANDOMIZE) == -1)
		e = errno;
	else
		cur = personality(0xffffffff);
	if (sys[0] == '0') {
		snprintf(buf, size, "off (kernel.randomize_va_space=0)");
		return on ? -1 : 0;
	}
	if (!e && cur != -1 && !(cur & ADDR_NO_RANDOMIZE) == !!on) {
		snprintf(buf, size, "%s", on ? "on" : "off");
		return 0;
	}
	snprintf(buf, size, "%s (personality: %s)", on ? "off" : "on",
		 strerror(e ? e : EPERM));
	return -1;
}

/* In the child, before exec: default dispositions and an empty mask. */
static void
child_signals(void)
{
	struct sigaction dfl = { 0 };
	sigset_t none;

	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	sigaction(SIGCONT, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* In the child: report errno on the error pipe and die. */
static _Noreturn void
child_fail(int errfd)
{
	int e = errno;
	ssize_t n = write(errfd, &e, sizeof e);

	(void)n;
	_exit(127);
}

/* What the child sends when it could not join its memory cgroup: the
 * errno plus this, to tell it from an exec failure. */
#define CGROUP_FAILED 0x10000

/* --- environment ----------------------------------------------------- */

char **
mr_spawn_env(const char *const *extra)
{
	size_t n = 0, i, k = 0;
	char **env;

	for (i = 0; environ && environ[i]; i++)
		n++;
	for (i = 0; extra && extra[i]; i++)
		n++;
	env = ecalloc(n + 1, sizeof *env);
	for (i = 0; environ && environ[i]; i++) {
		const char *e = environ[i];

		if (strncmp(e, "LD_PRELOAD=", 11) == 0 ||
		    strncmp(e, "GLIBC_TUNABLES=", 15) == 0 ||
		    strncmp(e, "MEMREPRO_", 9) == 0)
			continue;
		env[k++] = estrdup(e);
	}
	for (i = 0; extra && extra[i]; i++)
		env[k++] = estrdup(extra[i]);
	env[k] = NULL;
	return env;
}

void
mr_spawn_env_free(char **env)
{
	size_t i;

	for (i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

/* --- the process tree ------------------------------------------------ */

struct pinfo {
	pid_t pid, ppid, pgid;
};

/* Without CONFIG_PROC_CHILDREN: every process's parent and group from
 * /proc/PID/stat.  Returns how many, in a fresh array. */
static int
scan_proc(struct pinfo **out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct pinfo *v = NULL;
	int n = 0, cap = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char path[300], buf[1024], *rp, *end, *end2;
		long long ppid, pgid;
		long len;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		len = mr_proc_read(path, buf, sizeof buf);
		if (len < 0 || !(rp = strrchr(buf, ')')))
			continue;
		/* ") S PPID PGRP ...": comm may hold anything, hence strrchr */
		if (rp[1] != ' ' || !rp[2] || rp[3] != ' ')
			continue;
		ppid = strtoll(rp + 4, &end, 10);
		if (end == rp + 4 || *end != ' ')
			continue;
		pgid = strtoll(end + 1, &end2, 10);
		if (end2 == end + 1)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = erealloc(v, (size_t)cap * sizeof *v);
		}
		v[n].pid = (pid_t)strtol(de->d_name, NULL, 10);
		v[n].ppid = (pid_t)ppid;
		v[n].pgid = (pid_t)pgid;
		n++;
	}
	closedir(d);
	*out = v;
	return n;
}

static int
in_list(const pid_t *v, int n, pid_t p)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == p)
			return 1;
	return 0;
}

/* ppid and start time (clock ticks after boot) of pid from
 * /proc/PID/stat.  0 or -1. */
static int
stat_of(pid_t pid, long *ppid, unsigned long long *start)
{
	char path[64], buf[1024], *rp, *p, *end;
	int field;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (mr_proc_read(path, buf, sizeof buf) < 0 || !(rp = strrchr(buf, ')')))
		return -1;
	/* ") S PPID PGRP ...": comm may hold anything, hence strrchr; the
	 * start time is field 22, the state field 3 */
	if (rp[1] != ' ' || !rp[2] || rp[3] != ' ')
		return -1;
	errno = 0;
	*ppid = strtol(rp + 4, &end, 10);
	if (errno || end == rp + 4 || *end != ' ')
		return -1;
	for (p = end, field = 4; field < 21 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	*start = strtoull(p + 1, &end, 10);
	return errno || end == p + 1 || (*end != ' ' && *end != '\n') ? -1 : 0;
}

/* The children the runner had before it started anything (a shell's
 * `sleep &` before it exec'd the runner): never the run's.  By pid and
 * start time, so that a pid reused later is not taken for one. */
#define INHERITED_MAX 64
static struct {
	pid_t pid;
	unsigned long long start;
} inherited[INHERITED_MAX];
static int ninherited;

/* Is pid a child of ours (alive, or a zombie we have not reaped) of the
 * run: started at since or later (clock ticks after boot: the case's own
 * start) and not one we inherited (a start time is only as fine as a
 * tick)? */
static int
own_child(pid_t pid, pid_t self, unsigned long long since)
{
	unsigned long long start;
	long ppid;
	int i;

	if (pid <= 1 || pid == self || stat_of(pid, &ppid, &start) < 0 ||
	    ppid != (long)self || start < since)
		return 0;
	for (i = 0; i < ninherited; i++)
		if (inherited[i].pid == pid && inherited[i].start == start)
			return 0;
	return 1;
}

/* The fallback tree: root, every descendant by parent links, and every
 * member of group pgid (0: none); of root's children only those that
 * started at since or later. */
static int
tree_scan(pid_t root, pid_t pgid, unsigned long long since, pid_t *out, int max)
{
	struct pinfo *v;
	int nv = scan_proc(&v), n = 0, i, grew = 1;

	out[n++] = root;
	while (grew && n < max) {
		grew = 0;
		for (i = 0; i < nv && n < max; i++) {
			if (in_list(out, n, v[i].pid))
				continue;
			if (v[i].ppid == root && !own_child(v[i].pid, root, since))
				continue;
			if (in_list(out, n, v[i].ppid) || (pgid > 0 && v[i].pgid == pgid)) {
				out[n++] = v[i].pid;
				grew = 1;
			}
		}
	}
	free(v);
	return n;
}

/* root and its descendants (breadth first, root at [0]), of root's
 * children only those that started at since or later; pgid's members too
 * when the kernel cannot list children.  Returns how many. */
static int
tree_list(pid_t root, pid_t pgid, unsigned long long since, pid_t *out, int max)
{
	int n = 0, i, j;

	out[n++] = root;
	for (i = 0; i < n && n < max; i++) {
		int k = mr_proc_children(out[i], out + n, max - n);

		if (k == -ENOTSUP)
			return tree_scan(root, pgid, since, out, max);
		if (k < 0)
			continue;
		k = k < max - n ? k : max - n;
		if (i == 0) {
			int kept = 0;

			for (j = 0; j < k; j++)
				if (own_child(out[n + j], root, since))
					out[n + kept++] = out[n + j];
			k = kept;
		}
		n += k;
	}
	return n;
}

/* The processes of the run, for reading their figures: the members of
 * its cgroup where it has one, else every descendant of the runner.
 * During a run the case is our only child and, as we are a subreaper, its
 * orphans become our children: so this finds the case, its descendants,
 * and those of them that were orphaned or left its group.  [0] is the
 * runner itself (not measured); returns how many, at least 1.  A pid read
 * here may be reused by the time it is read: a wrong figure at worst, it
 * is never signalled (see kill_children). */
static int
case_tree(pid_t pgid, const struct mr_cgroup *cg, unsigned long long since, pid_t *buf)
{
	int n = mr_cgroup_procs(cg, buf + 1, TREE_MAX - 1);

	buf[0] = getpid();
	if (n >= 0)
		return n + 1;
	return tree_list(buf[0], pgid, since, buf, TREE_MAX);
}

/*
 * Killing takes proof, reading does not.  The runner signals only:
 *  - the case's process group, and only while the case is not reaped (a
 *    zombie keeps its pid, so the group id cannot be anyone else's yet);
 *  - the run's cgroup as a whole (cgroup.kill: the kernel finds the
 *    members, no pid is read);
 *  - a child of its own: /proc/PID/stat names the runner as the parent,
 *    and a child stays the runner's, pid and all, until the runner reaps
 *    it.
 * A deeper descendant is never signalled by its pid: killing the
 * runner's children orphans their children, which come to the runner (a
 * subreaper) and are killed in their turn, until it has none left.
 */

/* The runner's children (candidates: each is proved by own_child before
 * it is signalled).  Returns how many, at most max. */
static int
own_children(pid_t self, pid_t *out, int max)
{
	int n = mr_proc_children(self, out, max), i;

	/* no children files, or one not as the kernel writes them: every
	 * process's parent, from /proc/PID/stat */
	if (n < 0) {
		struct pinfo *v;
		int nv = scan_proc(&v);

		for (i = n = 0; i < nv && n < max; i++)
			if (v[i].ppid == self)
				out[n++] = v[i].pid;
		free(v);
	}
	return n < 0 ? 0 : n < max ? n : max;
}

static void
note_inherited(void)
{
	pid_t self = getpid(), v[INHERITED_MAX];
	int n = own_children(self, v, INHERITED_MAX), i;
	long ppid;

	for (i = 0; i < n && ninherited < INHERITED_MAX; i++)
		if (stat_of(v[i], &ppid, &inherited[ninherited].start) == 0 && ppid == (long)self)
			inherited[ninherited++].pid = v[i];
}

/* SIGKILL every child of ours of the run (started at since or later) but
 * spare (0: none), and reap those of them that have ended.  Returns how
 * many it found. */
static int
kill_children(pid_t self, unsigned long long since, pid_t spare, pid_t *buf)
{
	int n = own_children(self, buf, TREE_MAX), i, found = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] == spare || !own_child(buf[i], self, since))
			continue;
		found++;
		kill(buf[i], SIGKILL);
		(void)waitpid(buf[i], NULL, WNOHANG | __WALL);
	}
	return found;
}

/* Has our child pid ended (a zombie), without reaping it? */
static int
ended(pid_t pid)
{
	siginfo_t si;

	si.si_pid = 0;
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 &&
	       si.si_pid == pid;
}

/* End the case pid (our child, not yet reaped, its own group's leader)
 * and everything it started, then reap it: its group and its cgroup
 * killed at once, our other children of the run one by one as they come
 * to us, until none is left.  The case's status and rusage go to *st and
 * *ru.  Bounded: after REAP_LIMIT_MS it says what would not die and
 * returns -ETIMEDOUT (the case unreaped, *st 0, if it was the one). */
static int
end_tree(pid_t pid, const struct mr_cgroup *cg, pid_t *buf, int *st,
	 struct rusage *ru)
{
	uint64_t limit = mr_now_ns() + (uint64_t)REAP_LIMIT_MS * 1000000u;
	pid_t self = getpid();
	unsigned long long since = 0;
	long ppid;
	int reaped = 0, none = 0;

	/* the case's start: what the run started started after it */
	if (stat_of(pid, &ppid, &since) < 0 || ppid != (long)self)
		since = ~0ull; /* cannot be: it is our unreaped child */
	if (pid > 1 && pid != getpgrp())
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	(void)mr_cgroup_kill(cg);
	for (;;) {
		int left = kill_children(self, since, reaped ? 0 : pid, buf);
		pid_t w;

		if (!reaped && ended(pid)) {
			while (wait4(pid, st, __WALL, ru) < 0 && errno == EINTR)
				;
			reaped = 1;
			continue; /* its orphans are ours now */
		}
		/* Done when we have no child at all, or twice in a row none
		 * of the run: a child reaped in one round may have orphaned
		 * its own to us after that round's list was read. */
		if (reaped && ((w = waitpid(-1, NULL, WNOHANG | __WALL)) < 0 && errno == ECHILD))
			return 0;
		if (reaped && !left && ++none == 2)
			return 0;
		if (left)
			none = 0;
		if (mr_now_ns() > limit) {
			if (!reaped)
				weprintf("case pid %d did not die within %d s of SIGKILL: left unreaped",
					 (int)pid, REAP_LIMIT_MS / 1000);
			else
				weprintf("%d leftover process%s of case pid %d did not die within %d s of SIGKILL",
					 left, left == 1 ? "" : "es", (int)pid, REAP_LIMIT_MS / 1000);
			return -ETIMEDOUT;
		}
		(void)mr_cgroup_kill(cg);
		usleep(1000);
	}
}

/* Is pid alive (not a zombie, not gone)? */
static int
alive(pid_t pid)
{
	char path[64], buf[1024], *rp;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (mr_proc_read(path, buf, sizeof buf) < 0 || !(rp = strrchr(buf, ')')))
		return 0;
	return rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

/* Once the case has ended by itself (a zombie not yet reaped, so nothing
 * was killed yet): how many of its descendants are still alive. */
static int
count_leftovers(pid_t pid, const struct mr_cgroup *cg, unsigned long long since,
		pid_t *buf)
{
	int n = case_tree(pid, cg, since, buf), i, left = 0;

	for (i = 1; i < n; i++)
		left += buf[i] != pid && alive(buf[i]);
	return left;
}

/* --- capture (describe, probes) -------------------------------------- */

int
mr_spawn_capture(char *const *argv, char *const *envp, long timeout_ms,
		 size_t max, int keep_stderr, struct strbuf *out, int *status)
{
	uint64_t deadline = mr_now_ns() + (uint64_t)timeout_ms * 1000000u;
	int outp[2], errp[2], devnull, e, rc = 0, st = 0;
	struct mr_cgroup cg;
	struct rusage ru;
	pid_t pid, *tree;
	ssize_t n;

	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0)
		return -errno;
	if (pipe2(outp, O_CLOEXEC) < 0) {
		rc = -errno;
		close(devnull);
		return rc;
	}
	if (pipe2(errp, O_CLOEXEC) < 0) {
		rc = -errno;
		close(devnull);
		close(outp[0]);
		close(outp[1]);
		return rc;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(devnull);
		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		return rc;
	}
	if (pid == 0) {
		setpgid(0, 0);
		child_signals();
		if (dup2(devnull, 0) < 0 || dup2(outp[1], 1) < 0 ||
		    (!keep_stderr && dup2(devnull, 2) < 0) ||
		    (keep_stderr == 2 && dup2(outp[1], 2) < 0))
			child_fail(errp[1]);
		execve(argv[0], argv, envp);
		child_fail(errp[1]);
	}
	setpgid(pid, pid);
	close(devnull);
	close(outp[1]);
	close(errp[1]);
	do
		n = read(errp[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	close(errp[0]);
	if (n == (ssize_t)sizeof e) {
		rc = -e;
		goto reap;
	}
	for (;;) {
		struct pollfd pfd = { outp[0], POLLIN, 0 };
		uint64_t now = mr_now_ns();
		char buf[4096];
		int r;

		if (mr_spawn_interrupted) {
			rc = -EINTR;
			break;
		}
		if (now >= deadline) {
			rc = -ETIMEDOUT;
			break;
		}
		r = poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = read(outp[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out->len + (size_t)n > max) {
			rc = -EFBIG;
			break;
		}
		sb_addn(out, buf, (size_t)n);
	}
	/* Output ended: give the process the rest of its time to exit (not
	 * reaped yet: its group stays ours to kill). */
	while (rc == 0 && !ended(pid)) {
		if (mr_spawn_interrupted)
			rc = -EINTR;
		else if (mr_now_ns() >= deadline)
			rc = -ETIMEDOUT;
		else
			usleep(1000);
	}
reap:
	close(outp[0]);
	/* whatever it left behind goes as a run's leftovers do */
	mr_cgroup_init(&cg);
	tree = emalloc(TREE_MAX * sizeof *tree);
	end_tree(pid, &cg, tree, &st, &ru);
	free(tree);
	*status = st;
	return rc;
}

/* --- one run --------------------------------------------------------- */

/* State of one run while it is going on. */
struct run {
	const struct mr_spawn_req *rq;
	struct mr_spawn_res *res;
	pid_t pid;
	uint64_t t0;        /* fork time, ns */
	int ack_fd;         /* our write end of the ack pipe */
	char line[RECORD_MAX + 1];
	size_t len;         /* bytes in line */
	int skipping;       /* dropping the rest of an overlong line */
	unsigned long nrec; /* records seen, good or bad */
	pid_t *tree;        /* TREE_MAX scratch pids */
	unsigned long long since; /* the case's start, clock ticks after boot */
	uint64_t pause_ns;  /* spent measuring at checkpoints */
	struct mr_cgroup cg; /* the run's memory cgroup (cg.v 0: none) */
	int memcap;         /* went over its limit: killed */
	int log_fd;         /* the log file */
	uint64_t logged;    /* bytes written to it */
	int log_error;      /* writing the log failed (disk full): drop */
};

static void
bad_record(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
bad_record(struct run *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->res->bad_records++)
		return;
	n = snprintf(r->res->bad_detail, sizeof r->res->bad_detail,
		     "bad checkpoint record %lu: ", r->nrec);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof r->res->bad_detail)
		vsnprintf(r->res->bad_detail + n, sizeof r->res->bad_detail - (size_t)n, fmt, ap);
	va_end(ap);
}

/* A whole number: digits only, fits in 64 bits. */
static int
parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (*s < '0' || *s > '9' || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static void
ack(struct run *r)
{
	char b = '\n';
	ssize_t n;

	/* Non-blocking: a case that never reads acks must not stall us. */
	do
		n = write(r->ack_fd, &b, 1);
	while (n < 0 && errno == EINTR);
}

/* The runner's share of a checkpoint: the whole tree, measured while the
 * case waits for its ack. */
static void
measure_tree(struct run *r, struct mr_spawn_ckpt *row)
{
	int n = case_tree(r->pid, &r->cg, r->since, r->tree), i;

	for (i = 1; i < n; i++) {
		struct mr_rollup ru;
		struct mr_statm sm;

		if (mr_proc_statm(r->tree[i], &sm) < 0 || mr_proc_rollup(r->tree[i], &ru) < 0)
			continue;
		if (r->tree[i] == r->pid) {
			struct mr_status st = { 0 };

			/* The case's own smaps_rollup is read here, on the
			 * runner's clock: read by the case it would cost the
			 * case sys time (a fiber case walks 20,000 mappings). */
			(void)mr_proc_status(r->pid, &st);
			row->v[CK_PSS] = ru.pss_kb;
			row->v[CK_PRIVATE_CLEAN] = ru.private_clean_kb;
			row->v[CK_PRIVATE_DIRTY] = ru.private_dirty_kb;
			row->v[CK_SHARED_DIRTY] = ru.shared_dirty_kb;
			row->v[CK_ANON] = ru.anon_kb;
			row->v[CK_LAZYFREE] = ru.lazyfree_kb;
			row->v[CK_SWAP] = ru.swap_kb;
			row->v[CK_HWM] = st.hwm_kb;
		}
		row->tree_rss_kb += sm.rss_kb;
		row->tree_pss_kb += ru.pss_kb;
		row->tree_private_dirty_kb += ru.private_dirty_kb;
		row->tree_nproc++;
	}
	if (r->cg.v && mr_cgroup_usage(&r->cg, &row->cgroup_kb) < 0)
		row->cgroup_kb = MR_SPAWN_NONE;
}

/* "ckpt NAME SEQ key=value..." with every metric present and numeric. */
int
mr_spawn_parse_record(char *line, const struct mr_cases_desc *c,
		      const struct mr_spawn_ckpt *prev, size_t nprev,
		      struct mr_spawn_ckpt *row, char *why, size_t size)
{
	char *f[64];
	unsigned long have = 0, seen = 0;
	uint64_t seq;
	size_t i;
	int nf, k, j;

	memset(row, 0, sizeof *row);
	row->cgroup_kb = MR_SPAWN_NONE;
	nf = split(line, '\t', f, 64);
	if (strcmp(f[0], "ckpt") != 0) {
		snprintf(why, size, "does not start with 'ckpt'");
		return -1;
	}
	if (nf < 3) {
		snprintf(why, size, "no name and seq");
		return -1;
	}
	if (!mr_cases_has_ckpt(c, f[1])) {
		snprintf(why, size, "checkpoint '%.40s' not declared by the case", f[1]);
		return -1;
	}
	for (i = 0; i < nprev; i++)
		if (strcmp(prev[i].name, f[1]) == 0)
			seen++;
	if (parse_u64(f[2], &seq) < 0 || seq != seen + 1) {
		snprintf(why, size, "%.40s: seq '%.20s', want %lu", f[1], f[2], seen + 1);
		return -1;
	}
	for (k = 3; k < nf; k++) {
		char *eq = strchr(f[k], '=');
		uint64_t v;

		if (!eq) {
			snprintf(why, size, "%.40s: field '%.40s' is not key=value", f[1], f[k]);
			return -1;
		}
		*eq = '\0';
		if (parse_u64(eq + 1, &v) < 0) {
			snprintf(why, size, "%.40s: %.40s='%.40s' is not a number", f[1], f[k], eq + 1);
			return -1;
		}
		for (j = 0; j < MR_SPAWN_NCKPT; j++)
			if (strcmp(f[k], mr_spawn_ckpt_field[j]) == 0)
				break;
		if (j == MR_SPAWN_NCKPT || !(CK_FROM_CASE & (1ul << j)))
			continue; /* a newer lib's metric, or one the runner reads */
		if (have & (1ul << j)) {
			snprintf(why, size, "%.40s: %.40s given twice", f[1], f[k]);
			return -1;
		}
		have |= 1ul << j;
		if (j == 0)
			row->t_us = v;
		else
			row->v[j] = v;
	}
	for (j = 0; j < MR_SPAWN_NCKPT; j++) {
		if ((CK_FROM_CASE & (1ul << j)) && !(have & (1ul << j))) {
			snprintf(why, size, "%.40s: no %s", f[1], mr_spawn_ckpt_field[j]);
			return -1;
		}
	}
	snprintf(row->name, sizeof row->name, "%s", f[1]);
	row->seq = (unsigned long)seq;
	return 0;
}

static void
on_record(struct run *r, char *line)
{
	struct mr_spawn_res *res = r->res;
	struct mr_spawn_ckpt row;
	char why[160];
	uint64_t t;

	r->nrec++;
	if (mr_spawn_parse_record(line, r->rq->c, res->ckpts, res->nckpts, &row,
				  why, sizeof why) < 0) {
		bad_record(r, "%s", why);
		return;
	}
	t = mr_now_ns();
	measure_tree(r, &row);
	r->pause_ns += mr_now_ns() - t;
	if (res->nckpts == res->capckpts) {
		res->capckpts = res->capckpts ? res->capckpts * 2 : 16;
		res->ckpts = erealloc(res->ckpts, res->capckpts * sizeof *res->ckpts);
	}
	res->ckpts[res->nckpts++] = row;
}

/* Feed bytes read from the checkpoint pipe; each complete line is a
 * record and gets one ack, good or bad (the case is waiting for it). */
static void
on_bytes(struct run *r, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = p[i];

		if (c == '\n') {
			if (r->skipping) {
				r->skipping = 0;
			} else {
				r->line[r->len] = '\0';
				on_record(r, r->line);
			}
			r->len = 0;
			ack(r);
			continue;
		}
		if (r->skipping)
			continue;
		if (r->len == RECORD_MAX - 1) {
			r->nrec++;
			bad_record(r, "longer than %d bytes", RECORD_MAX);
			r->skipping = 1;
			continue;
		}
		r->line[r->len++] = c;
	}
}

/* Read what the checkpoint pipe holds now, at most 64 KiB (a writer
 * faster than us must not keep us here).  Returns 0 at EOF. */
static int
read_records(struct run *r, int fd)
{
	char buf[4096];
	int i;

	for (i = 0; i < 16; i++) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 1; /* EAGAIN: all read */
		if (n == 0)
			return 0;
		on_bytes(r, buf, (size_t)n);
	}
	return 1;
}

static void
sample(struct run *r, uint64_t now)
{
	struct mr_spawn_res *res = r->res;
	struct mr_spawn_sample s = { 0 };
	struct mr_statm sm;
	int n, i;

	/* A zombie has no mm: nothing to sample once the case has exited. */
	if (mr_proc_statm(r->pid, &sm) < 0)
		return;
	s.t_ms = (now - r->t0) / 1000000u;
	s.rss_kb = sm.rss_kb;
	s.vsz_kb = sm.vsz_kb;
	n = case_tree(r->pid, &r->cg, r->since, r->tree);
	for (i = 1; i < n; i++) {
		struct mr_statm t;

		if (mr_proc_statm(r->tree[i], &t) < 0)
			continue;
		s.tree_rss_kb += t.rss_kb;
		s.tree_nproc++;
	}
	s.cgroup_kb = MR_SPAWN_NONE;
	if (r->cg.v && mr_cgroup_usage(&r->cg, &s.cgroup_kb) < 0)
		s.cgroup_kb = MR_SPAWN_NONE;
	if (s.rss_kb > res->peak_rss_kb)
		res->peak_rss_kb = s.rss_kb;
	if (s.tree_rss_kb > res->peak_tree_rss_kb)
		res->peak_tree_rss_kb = s.tree_rss_kb;
	/* No cgroup to enforce --mem-cap: the sampler does, coarsely (the
	 * tree may grow past the cap for up to one interval). */
	if (!r->cg.v && r->rq->cap_kb && s.tree_rss_kb > r->rq->cap_kb) {
		r->memcap = 1;
		res->memcap_sampled = 1;
	}
	if (res->nsamples == res->capsamples) {
		res->capsamples = res->capsamples ? res->capsamples * 2 : 256;
		res->samples = erealloc(res->samples, res->capsamples * sizeof *res->samples);
	}
	res->samples[res->nsamples++] = s;
}

static void
set_rusage(struct mr_spawn_res *res, const struct rusage *ru)
{
	res->user_ms = (uint64_t)ru->ru_utime.tv_sec * 1000 + (uint64_t)ru->ru_utime.tv_usec / 1000;
	res->sys_ms = (uint64_t)ru->ru_stime.tv_sec * 1000 + (uint64_t)ru->ru_stime.tv_usec / 1000;
	res->maxrss_kb = (uint64_t)ru->ru_maxrss;
	res->minflt = (uint64_t)ru->ru_minflt;
	res->majflt = (uint64_t)ru->ru_majflt;
}

/* The environment of the run: the request's plus the channel's fds. */
static char **
run_env(char *const *envp)
{
	size_t n = 0, i;
	char **env;

	while (envp[n])
		n++;
	env = ecalloc(n + 3, sizeof *env);
	for (i = 0; i < n; i++)
		env[i] = envp[i];
	env[n] = "MEMREPRO_CKPT_FD=3";
	env[n + 1] = "MEMREPRO_ACK_FD=4";
	env[n + 2] = NULL;
	return env;
}

/* A pidfd for pid, or -1 (kernel before 5.3, or valgrind, which does not
 * know the syscall: asked once, then the tick loop polls with WNOHANG). */
static int
open_pidfd(pid_t pid)
{
	static int unsupported;
	int fd;

	if (unsupported)
		return -1;
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0 && errno == ENOSYS)
		unsupported = 1;
	return fd;
}

/* In the child: its memory cgroup, fds 0-4 as the case expects them,
 * exec. */
static _Noreturn void
child_exec(const struct mr_spawn_req *rq, char **env, pid_t parent, int devnull,
	   int outfd, int ckpt_w, int ack_r, int errfd, int cgfd, int killfd)
{
	int fds[4] = { devnull, outfd, ckpt_w, ack_r }, i;

	setpgid(0, 0);
	child_signals();
	/* Should the runner be killed outright, the case dies with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* Lift every fd we need above the targets first, so no dup2 below
	 * closes one we still need (the error pipe included). */
	errfd = fcntl(errfd, F_DUPFD_CLOEXEC, 10);
	if (errfd < 0)
		_exit(127);
	/* Join the run's cgroups before anything of the case is allocated:
	 * "0" is the writing process. */
	if ((cgfd >= 0 && write(cgfd, "0", 1) != 1) ||
	    (killfd >= 0 && write(killfd, "0", 1) != 1)) {
		int e = errno | CGROUP_FAILED;
		ssize_t n = write(errfd, &e, sizeof e);

		(void)n;
		_exit(127);
	}
	for (i = 0; i < 4; i++)
		if ((fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
			child_fail(errfd);
	/* dup2 clears close-on-exec on the target: exactly these survive. */
	if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0 ||
	    dup2(fds[2], CKPT_FD) < 0 || dup2(fds[3], ACK_FD) < 0)
		child_fail(errfd);
	/* Whatever the runner inherited (a bats fd 3 and friends) stays out. */
	close_range(ACK_FD + 1, ~0u, CLOSE_RANGE_CLOEXEC);
	execve(rq->argv[0], rq->argv, env);
	child_fail(errfd);
}

/* Keep n bytes of the case's output in the log, up to MR_SPAWN_LOG_MAX;
 * the rest (or all, once a write failed: a full disk) is counted and
 * dropped, never left in the pipe. */
static void
log_output(struct run *r, const char *buf, size_t n)
{
	size_t keep = 0;

	if (!r->log_error && r->logged < MR_SPAWN_LOG_MAX)
		keep = n < MR_SPAWN_LOG_MAX - r->logged ? n : (size_t)(MR_SPAWN_LOG_MAX - r->logged);
	while (keep) {
		ssize_t w = write(r->log_fd, buf, keep);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r->log_error = 1;
			r->res->log_errno = w < 0 ? errno : ENOSPC;
			/* A full disk: give back the log's last 256 KiB, so
			 * that the note below and the run's rows still fit. */
			if (r->res->log_errno == ENOSPC || r->res->log_errno == EDQUOT) {
				r->logged = r->logged > LOG_GIVE_BACK ? r->logged - LOG_GIVE_BACK : 0;
				if (ftruncate(r->log_fd, (off_t)r->logged) == 0 &&
				    lseek(r->log_fd, 0, SEEK_END) >= 0)
					r->res->log_dropped += LOG_GIVE_BACK;
			}
			break;
		}
		r->logged += (uint64_t)w;
		buf += w;
		keep -= (size_t)w;
		n -= (size_t)w;
	}
	r->res->log_dropped += n;
}

/* Move what the output pipe holds now to the log, at most 256 KiB (a case
 * writing faster than we read must not keep us here).  Returns 0 at EOF,
 * 2 when the pipe is empty, 1 when it may hold more. */
static int
read_output(struct run *r, int fd)
{
	char buf[16384];
	int i;

	for (i = 0; i < 16; i++) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 2; /* EAGAIN: all read */
		if (n == 0)
			return 0;
		log_output(r, buf, (size_t)n);
	}
	return 1;
}

/* After the run: the rest of the output, and a note when some was
 * dropped.  Every writer is dead by now, so this ends; a writer that
 * somehow survived (EAGAIN) ends it too. */
static void
finish_output(struct run *r, int fd, int open)
{
	char note[160];
	int n;

	while (open && read_output(r, fd) == 1)
		;
	if (r->log_error)
		n = snprintf(note, sizeof note,
			     "\n[memrepro: the log is cut short here: write: %s]\n",
			     strerror(r->res->log_errno));
	else if (r->res->log_dropped)
		n = snprintf(note, sizeof note,
			     "\n[memrepro: the log stops at %u MiB: %llu more bytes of output were dropped]\n",
			     MR_SPAWN_LOG_MAX >> 20, (unsigned long long)r->res->log_dropped);
	else
		return;
	if (n > 0)
		(void)!write(r->log_fd, note, (size_t)n);
}

/* Has the kernel OOM-killed in the run's limited cgroup? */
static int
oom_struck(const struct run *r)
{
	uint64_t n = 0;

	return r->cg.v && r->cg.limit_kb && mr_cgroup_oom_kills(&r->cg, &n) == 0 && n > 0;
}

int
mr_spawn_run(const struct mr_spawn_req *rq, struct mr_spawn_res *res)
{
	struct run r = { 0 };
	int devnull = -1, outp[2] = { -1, -1 }, ckpt[2] = { -1, -1 }, ackp[2] = { -1, -1 };
	int errp[2] = { -1, -1 }, pidfd = -1, ckpt_open = 1, out_open = 1;
	int timed_out = 0, st = 0, e, rc = 0;
	uint64_t deadline, next, end, limit_kb, susp0 = suspended_ns(), prev = 0, gap = 0;
	sig_atomic_t cont0 = continued;
	struct rusage ru = { 0 };
	char **env;
	ssize_t n;
	pid_t self;

	memset(res, 0, sizeof *res);
	res->cgroup_peak_kb = MR_SPAWN_NONE;
	mr_cgroup_init(&r.cg);
	/* Cap and pressure are both the cgroup's limit: the lower wins. */
	limit_kb = rq->cap_kb;
	if (rq->pressure_kb && (!limit_kb || rq->pressure_kb < limit_kb))
		limit_kb = rq->pressure_kb;
	if (!rq->no_cgroup || rq->pressure_kb) {
		int cap = limit_kb && limit_kb == rq->cap_kb;

		if (mr_cgroup_create(&r.cg, limit_kb, cap, res->cgroup_why,
				     sizeof res->cgroup_why) < 0 && rq->pressure_kb)
			return -ENOTSUP;
	}
	/* where there is none, end_tree kills top down: slower, as sure */
	(void)mr_cgroup_create_kill(&r.cg);
	res->cgroup_v = r.cg.v;
	r.log_fd = open(rq->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (r.log_fd < 0) {
		rc = -errno;
		weprintf("open %s:", rq->log_path);
		mr_cgroup_remove(&r.cg);
		return rc;
	}
	if ((devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0 ||
	    pipe2(outp, O_CLOEXEC) < 0 || pipe2(ckpt, O_CLOEXEC) < 0 ||
	    pipe2(ackp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
		rc = -errno;
		weprintf("pipe:");
		goto close_all;
	}
	env = run_env(rq->envp);
	r.tree = emalloc(TREE_MAX * sizeof *r.tree);
	r.rq = rq;
	r.res = res;
	r.ack_fd = ackp[1];
	fflush(NULL);
	self = getpid();
	r.t0 = mr_now_ns();
	r.pid = fork();
	if (r.pid < 0) {
		rc = -errno;
		weprintf("fork:");
		free(env);
		goto close_all;
	}
	if (r.pid == 0)
		child_exec(rq, env, self, devnull, outp[1], ckpt[1], ackp[0], errp[1],
			   r.cg.procs_fd, r.cg.kill_fd);
	free(env);
	/* Both sides set the group: whichever runs first wins the race
	 * against a kill(-pgid) coming early. */
	setpgid(r.pid, r.pid);
	{
		long ppid;

		/* what the run starts starts after this (see own_child) */
		if (stat_of(r.pid, &ppid, &r.since) < 0)
			r.since = 0;
	}
	close(devnull);
	close(outp[1]);
	close(ckpt[1]);
	close(ackp[0]);
	close(errp[1]);
	devnull = outp[1] = ckpt[1] = ackp[0] = errp[1] = -1;
	fcntl(outp[0], F_SETFL, O_NONBLOCK);

	do
		n = read(errp[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof e) {
		end_tree(r.pid, &r.cg, r.tree, &st, &ru);
		res->wall_ms = (mr_now_ns() - r.t0) / 1000000u;
		set_rusage(res, &ru);
		res->out.kind = MR_SPAWN_EXEC_FAILED;
		res->out.code = e;
		goto cleanup;
	}

	fcntl(ckpt[0], F_SETFL, O_NONBLOCK);
	fcntl(ackp[1], F_SETFL, O_NONBLOCK);
	pidfd = open_pidfd(r.pid);
	deadline = r.t0 + (uint64_t)rq->timeout_ms * 1000000u;
	/* The first sample right after exec: even a case shorter than one
	 * interval has a point in the series. */
	next = mr_now_ns();
	for (;;) {
		struct pollfd pfd[3];
		uint64_t now = mr_now_ns(), until;
		int np = 0, ckpt_i = -1, pid_i = -1, out_i = -1, p;

		/* the longest the loop stood still: how long a stop lasted */
		if (prev && now - prev > gap)
			gap = now - prev;
		prev = now;

		/* whatever ends the run, end_tree kills the tree below */
		if (mr_spawn_interrupted) {
			rc = -EINTR;
			break;
		}
		if (r.memcap)
			break;
		if (now >= deadline) {
			timed_out = 1;
			break;
		}
		if (now >= next) {
			sample(&r, now);
			if (oom_struck(&r))
				r.memcap = 1;
			next += (uint64_t)rq->interval_ms * 1000000u;
			if (next <= now)
				next = now + (uint64_t)rq->interval_ms * 1000000u;
			if (rq->tick)
				rq->tick(rq->tick_ctx);
			if (r.memcap)
				continue;
		}
		if (pidfd >= 0) {
			pfd[np] = (struct pollfd){ pidfd, POLLIN, 0 };
			pid_i = np++;
		}
		if (ckpt_open) {
			pfd[np] = (struct pollfd){ ckpt[0], POLLIN, 0 };
			ckpt_i = np++;
		}
		if (out_open) {
			pfd[np] = (struct pollfd){ outp[0], POLLIN, 0 };
			out_i = np++;
		}
		until = next < deadline ? next : deadline;
		p = poll(pfd, (nfds_t)np, (int)((until - now + 999999u) / 1000000u));
		if (p < 0 && errno != EINTR) {
			weprintf("poll:");
			usleep(1000);
		}
		if (p > 0 && out_i >= 0 && pfd[out_i].revents)
			out_open = read_output(&r, outp[0]);
		if (p > 0 && ckpt_i >= 0 && pfd[ckpt_i].revents)
			ckpt_open = read_records(&r, ckpt[0]);
		if (p > 0 && pid_i >= 0 && pfd[pid_i].revents)
			break;
		/* No pidfd (old kernel): ask at each tick instead, without
		 * reaping: its group must stay ours until end_tree. */
		if (pidfd < 0 && ended(r.pid))
			break;
	}
	end = mr_now_ns();
	{
		/* Stopped (SIGCONT came) or suspended: the case's clock ran
		 * on while the runner's stood still, and every time of the
		 * run counts that too. */
		uint64_t susp = suspended_ns();

		/* the two clocks are read one after the other: a few ns off */
		susp = susp > susp0 ? susp - susp0 : 0;

		if (continued != cont0 || susp > 100000000u)
			res->stopped_ms = (susp + (continued != cont0 ? gap : 0)) / 1000000u + 1;
	}
	/* An OOM kill may have ended the case before a tick saw it. */
	if (!timed_out && oom_struck(&r))
		r.memcap = 1;
	if (rc == 0 && !timed_out && !r.memcap)
		res->leftovers = count_leftovers(r.pid, &r.cg, r.since, r.tree);
	end_tree(r.pid, &r.cg, r.tree, &st, &ru);
	/* The case's own time: what it stood still while we measured it at
	 * its checkpoints is not part of what it did. */
	res->pause_ms = r.pause_ns / 1000000u;
	res->wall_ms = (end - r.t0 - r.pause_ns) / 1000000u;
	set_rusage(res, &ru);
	/* Records written just before the exit are still in the pipe. */
	if (ckpt_open && rc == 0)
		read_records(&r, ckpt[0]);
	if (r.len && rc == 0) {
		r.nrec++;
		bad_record(&r, "cut short (no newline before the case ended)");
	}
	if (r.memcap) {
		res->out.kind = MR_SPAWN_MEMCAP;
		res->out.code = (int)(limit_kb / 1024);
		res->memcap_pressure = limit_kb != rq->cap_kb;
	} else if (timed_out) {
		res->out.kind = MR_SPAWN_TIMEOUT;
	} else if (WIFSIGNALED(st)) {
		res->out.kind = MR_SPAWN_SIGNALLED;
		res->out.code = WTERMSIG(st);
	} else {
		res->out.kind = MR_SPAWN_EXITED;
		res->out.code = WEXITSTATUS(st);
		if (res->out.code == 0 && res->bad_records)
			res->out.kind = MR_SPAWN_BAD_OUTPUT;
	}
cleanup:
	finish_output(&r, outp[0], out_open);
	if (r.cg.v) {
		uint64_t peak;
		size_t i;

		if (mr_cgroup_peak(&r.cg, &peak) == 0) {
			res->cgroup_peak_kb = peak;
		} else {
			/* no memory.peak (v2 before 5.19): the sampled one */
			res->cgroup_peak_kb = 0;
			for (i = 0; i < res->nsamples; i++)
				if (res->samples[i].cgroup_kb != MR_SPAWN_NONE &&
				    res->samples[i].cgroup_kb > res->cgroup_peak_kb)
					res->cgroup_peak_kb = res->samples[i].cgroup_kb;
		}
	}
close_all:
	free(r.tree);
	mr_cgroup_remove(&r.cg);
	if (pidfd >= 0)
		close(pidfd);
	if (r.log_fd >= 0)
		close(r.log_fd);
	if (devnull >= 0)
		close(devnull);
	for (e = 0; e < 2; e++) {
		if (outp[e] >= 0)
			close(outp[e]);
		if (ckpt[e] >= 0)
			close(ckpt[e]);
		if (ackp[e] >= 0)
			close(ackp[e]);
		if (errp[e] >= 0)
			close(errp[e]);
	}
	return rc;
}

void
mr_spawn_res_free(struct mr_spawn_res *res)
{
	free(res->samples);
	free(res->ckpts);
	res->samples = NULL;
	res->ckpts = NULL;
	res->nsamples = res->capsamples = res->nckpts = res->capckpts = 0;
}

/* The last non-empty line of the log (skip reasons live there), without a
 * "skipped: " prefix; tabs become spaces. */
static void
last_line(const char *path, char *dst, size_t size)
{
	char buf[4096];
	long len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t off;
	char *end, *start;

	dst[0] = '\0';
	if (fd < 0)
		return;
	off = lseek(fd, 0, SEEK_END);
	off = off > (off_t)sizeof buf - 1 ? off - (off_t)sizeof buf + 1 : 0;
	len = (long)pread(fd, buf, sizeof buf - 1, off);
	close(fd);
	if (len <= 0)
		return;
	buf[len] = '\0';
	end = buf + len;
	while (end > buf && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	start = end;
	while (start > buf && start[-1] != '\n')
		start--;
	if (strncmp(start, "skipped: ", 9) == 0)
		start += 9;
	snprintf(dst, size, "%s", start);
}

static void
clean_detail(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

const char *
mr_spawn_describe(const struct mr_spawn_res *res, long timeout_ms,
		 const char *log_path, char *detail, size_t size)
{
	const char *word = "ok";
	const char *abbrev;

	snprintf(detail, size, "-");
	switch (res->out.kind) {
	case MR_SPAWN_EXITED:
		if (res->out.code == 0)
			break;
		if (res->out.code == 4) {
			word = "skipped";
			last_line(log_path, detail, size);
			if (!detail[0])
				snprintf(detail, size, "exit 4 without a reason");
			break;
		}
		word = "failed";
		snprintf(detail, size, "exit %d", res->out.code);
		break;
	case MR_SPAWN_SIGNALLED:
		word = "crashed";
		abbrev = sigabbrev_np(res->out.code);
		if (abbrev)
			snprintf(detail, size, "SIG%s", abbrev);
		else
			snprintf(detail, size, "signal %d", res->out.code);
		break;
	case MR_SPAWN_TIMEOUT:
		word = "timeout";
		snprintf(detail, size, "timeout after %g s", (double)timeout_ms / 1000);
		break;
	case MR_SPAWN_EXEC_FAILED:
		word = "exec-failed";
		if (res->out.code & CGROUP_FAILED)
			snprintf(detail, size, "joining its memory cgroup: %s",
				 strerror(res->out.code & ~CGROUP_FAILED));
		else
			snprintf(detail, size, "execve: %s", strerror(res->out.code));
		break;
	case MR_SPAWN_MEMCAP:
		word = "memory-cap";
		if (res->memcap_sampled)
			snprintf(detail, size, "exceeded memory cap (%d MiB; sampled tree RSS, no memory cgroup)",
				 res->out.code);
		else
			snprintf(detail, size, "exceeded memory cap (%d MiB%s)", res->out.code,
				 res->memcap_pressure ? ", the pressure axis's limit" : "");
		break;
	case MR_SPAWN_BAD_OUTPUT:
		word = "bad-output";
		snprintf(detail, size, "%s", res->bad_detail);
		break;
	}
	if (res->leftovers) {
		size_t len = strcmp(detail, "-") ? strlen(detail) : 0;

		snprintf(detail + len, size - len, "%skilled %d leftover process%s",
			 len ? "; " : "", res->leftovers, res->leftovers == 1 ? "" : "es");
	}
	if (res->stopped_ms) {
		size_t len = strcmp(detail, "-") ? strlen(detail) : 0;

		snprintf(detail + len, size - len,
			 "%sthe runner stood still for %.1f s (stopped or suspended): its times are not measured",
			 len ? "; " : "", (double)res->stopped_ms / 1000);
	}
	if (res->log_errno) {
		size_t len = strcmp(detail, "-") ? strlen(detail) : 0;

		snprintf(detail + len, size - len, "%sthe log is cut short: %s", len ? "; " : "",
			 strerror(res->log_errno));
	}
	clean_detail(detail);
	if (!detail[0])
		snprintf(detail, size, "-");
	return word;
}
