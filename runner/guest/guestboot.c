/* guestboot: boot one guest and judge it by its marker — see guestboot.h. */
#include "guest/guestboot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mr_exit.h"

#define TAIL_MAX 65536

char *
mr_guest_console_tail(const char *share, int n)
{
	char *path = esprintf("%s/console.log", share), *r, *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	char buf[TAIL_MAX + 1];
	ssize_t got = 0;
	off_t size;
	int lines = 0;

	free(path);
	if (fd < 0)
		return estrdup("");
	size = lseek(fd, 0, SEEK_END);
	if (size > 0) {
		off_t from = size > TAIL_MAX ? size - TAIL_MAX : 0;

		got = pread(fd, buf, (size_t)(size - from), from);
	}
	close(fd);
	if (got < 0)
		got = 0;
	buf[got] = '\0';
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
		buf[--got] = '\0';
	for (p = buf + got; p > buf; p--)
		if (p[-1] == '\n' && ++lines >= n)
			break;
	r = estrdup(p);
	for (p = r; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r' || (unsigned char)*p < 0x20)
			*p = ' ';
	return r;
}

/* The marker's status, -1 when there is none. */
static int
marker(const char *share)
{
	char *path = esprintf("%s/done", share), buf[32] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), st = -1;

	free(path);
	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof buf - 1) > 0) {
		long long v;

		buf[strcspn(buf, "\n")] = '\0';
		if (parse_ll(buf, &v) == 0 && v >= 0 && v <= 255)
			st = (int)v;
	}
	close(fd);
	return st;
}

/* The child: own group, console into the log, exec qemu. */
static void
child(char *const *argv, int logfd)
{
	int nul = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	dup2(nul, 0);
	dup2(logfd, 1);
	dup2(logfd, 2);
	execvp(argv[0], argv);
	dprintf(2, "memrepro: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(MR_EXIT_EXEC);
}

int
mr_guest_boot(const struct mr_guest_boot *b, struct mr_guest_end *end)
{
	const char *qemu = getenv("MEMREPRO_QEMU");
	char *mem = esprintf("%ld", b->mem_mib), *smp = esprintf("%d", b->cpus);
	char *app = esprintf("console=ttyS0 quiet rdinit=/init panic=-1 mr.share=%s%s%s", b->share,
			     *b->append ? " " : "", b->append);
	char *fs1 = estrdup("local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap,id=h");
	char *fs2 = esprintf("local,path=%s,mount_tag=results,security_model=none,id=r", b->share);
	char *log = esprintf("%s/console.log", b->share);
	int kvm = b->accel && strcmp(b->accel, "kvm") == 0;
	char *argv[] = { (char *)(qemu && *qemu ? qemu : "qemu-system-x86_64"), "-accel",
			 kvm ? "kvm" : "tcg", "-cpu", kvm ? "host" : "max", "-m", mem, "-smp", smp, "-net", "none", "-nographic",
			 "-no-reboot", "-kernel", (char *)b->vmlinux, "-initrd", (char *)b->initrd,
			 "-append", app, "-virtfs", fs1, "-virtfs", fs2, NULL };
	uint64_t t0 = mr_now_ns(), deadline = t0 + (uint64_t)b->timeout_s * 1000000000u;
	int logfd, st = 0, rc = -1;
	pid_t pid;

	memset(end, 0, sizeof *end);
	end->status = -1;
	if ((logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0) {
		end->why = esprintf("%s: %s", log, strerror(errno));
		goto out;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		end->why = esprintf("fork: %s", strerror(errno));
		close(logfd);
		goto out;
	}
	if (pid == 0)
		child(argv, logfd);
	close(logfd);
	setpgid(pid, pid); /* the child does it too: whichever runs first */
	while (waitpid(pid, &st, WNOHANG) == 0) {
		struct timespec ts = { 0, 50000000 };

		if (mr_now_ns() > deadline) {
			/* the group of our child, which is not yet reaped */
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			end->timed_out = 1;
			break;
		}
		nanosleep(&ts, NULL);
	}
	end->wall_s = (double)(mr_now_ns() - t0) / 1e9;
	end->status = marker(b->share);
	end->marker = end->status >= 0;
	rc = 0;
	if (!end->marker) {
		char *tail = mr_guest_console_tail(b->share, 1);
		char *how = end->timed_out ? esprintf("killed after %ld s", b->timeout_s) :
			    WIFEXITED(st) ? esprintf("qemu exited %d", WEXITSTATUS(st)) :
			    esprintf("qemu killed by signal %d", WTERMSIG(st));

		end->why = esprintf("no end marker from the guest (%s); the console's last line: %s",
				    how, *tail ? tail : "(empty)");
		free(how);
		free(tail);
	}
out:
	free(mem);
	free(smp);
	free(app);
	free(fs1);
	free(fs2);
	free(log);
	return rc;
}
