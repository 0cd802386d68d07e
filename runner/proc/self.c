/* self: the runner's own process — see self.h. */
#include "proc/self.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "proc/tree.h"

volatile sig_atomic_t mr_spawn_interrupted;

static void
on_signal(int sig)
{
	mr_spawn_interrupted = sig;
}

volatile sig_atomic_t mr_self_continued;

static void
on_cont(int sig)
{
	(void)sig;
	mr_self_continued++;
}

/* Time the machine spent suspended since boot: BOOTTIME counts it,
 * MONOTONIC does not. */
uint64_t
mr_self_suspended_ns(void)
{
	struct timespec b, m;

	if (clock_gettime(CLOCK_BOOTTIME, &b) < 0 || clock_gettime(CLOCK_MONOTONIC, &m) < 0)
		return 0;
	return ((uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec) -
	       ((uint64_t)m.tv_sec * 1000000000u + (uint64_t)m.tv_nsec);
}

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
	/* Our children must stay ours until we reap them (what every kill
	 * rests on, proc/tree.c): an ignored SIGCHLD or SA_NOCLDWAIT, which a
	 * parent may leave us across exec, would have the kernel reap them
	 * and free their pids. */
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	mr_tree_note_inherited();
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
