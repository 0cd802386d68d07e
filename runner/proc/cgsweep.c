/* cgsweep: the cgroups of runners that are gone, cleared — see
 * cgroup.h (mr_cgroup_sweep). */
#include "proc/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/util.h"
#include "proc/cgfs.h"

/* Is the cgroup name one of a runner that is gone?  Its pid in *pid.
 * (cgfs.h: also the scratch directories' names.)
 * Proof that holds in any pid namespace: the name says which pid
 * namespace (and time namespace) its runner was in and when it started;
 * only in our own is its pid looked up, and the runner is gone when no
 * process has that pid, or the one that has it started at another time.
 * In doubt (another namespace, a name without them, a start time that
 * cannot be read) the cgroup is left, and said so when the old rule would
 * have taken it. */
int
mr_cgfs_owner_gone(const char *name, long *pid)
{
	struct mr_cgfs_owner o, me;
	unsigned long long start;
	const char *rest;
	char *end;

	if (strncmp(name, "memrepro-", 9) != 0)
		return 0;
	if (mr_cgfs_owner_parse(name, &o, &rest) < 0) {
		/* an older runner's memrepro-<pid>-<n>: the pid alone */
		*pid = strtol(name + 9, &end, 10);
		if (end != name + 9 && *end == '-' && *pid > 0 && kill((pid_t)*pid, 0) < 0 &&
		    errno == ESRCH)
			weprintf("left %s: named without its runner's pid namespace and start time, runner %ld cannot be proved gone",
				 name, *pid);
		return 0;
	}
	*pid = o.pid;
	if (mr_cgfs_owner_self(&me) < 0 || !mr_cgfs_proc_ours()) {
		weprintf("left %s: our own pid namespace cannot be read from /proc", name);
		return 0;
	}
	if (o.pidns != me.pidns || o.timens != me.timens) {
		/* said only where a pid alone would have taken it for gone:
		 * a live runner elsewhere is no news at every sweep */
		if (kill((pid_t)o.pid, 0) < 0 && errno == ESRCH)
			weprintf("left %s: made by a runner in another %s namespace", name,
				 o.pidns != me.pidns ? "pid" : "time");
		return 0;
	}
	if (o.pid == me.pid && o.start == me.start)
		return 0;
	if (kill((pid_t)o.pid, 0) < 0 && errno == ESRCH)
		return 1;
	if (mr_cgfs_start_time(o.pid, &start) < 0) {
		weprintf("left %s: the start time of runner %ld cannot be read", name, o.pid);
		return 0;
	}
	return start != o.start;
}

/* SIGKILL pid, proved a member of cgroup name: through a pidfd opened
 * before the proof, so the signal reaches the process the proof was of
 * or nothing (the pid may have been reused meanwhile).  1 if signalled,
 * 0 if not, -ENOSYS without pidfds. */
static int
kill_member(pid_t pid, const char *name)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0), ok = 0;

	if (fd < 0)
		return errno == ENOSYS ? -ENOSYS : 0;
	if (pid > 1 && mr_cgfs_member(pid, name))
		ok = syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0) == 0;
	close(fd);
	return ok;
}

/* Sweep the dead runners' cgroups under parent.  kill: these are kill
 * cgroups (cgroup.kill); else memory cgroups, whose members are killed
 * one by one, each proved a member first. */
static int
sweep_dir(const char *parent, int v, int kill)
{
	struct dirent *de;
	DIR *d = opendir(parent);
	pid_t *pids = emalloc(4096 * sizeof *pids);
	int removed = 0;

	while (d && (de = readdir(d)) != NULL) {
		struct mr_cgroup cg;
		long pid;
		int i, n, killed = 0, nopidfd = 0;

		if (!mr_cgfs_owner_gone(de->d_name, &pid))
			continue;
		mr_cgroup_init(&cg);
		cg.v = v;
		cg.dir = esprintf("%s/%s", parent, de->d_name);
		/* a few rounds: a process may fork while we kill */
		for (i = 0; i < 50; i++) {
			if ((n = mr_cgfs_procs(cg.dir, pids, 4096)) <= 0)
				break;
			if (kill && mr_cgfs_write(cg.dir, "cgroup.kill", "1") == 0) {
				/* the same processes may be listed again while they die */
				killed = n > killed ? n : killed;
			} else {
				int k;

				for (k = 0; k < n && !nopidfd; k++) {
					int r = kill_member(pids[k], de->d_name);

					nopidfd = r == -ENOSYS;
					killed += r > 0;
				}
			}
			if (nopidfd)
				break;
			usleep(2000);
		}
		if (killed)
			weprintf("killed %d process%s left in %s by runner %ld, which is gone",
				 killed, killed == 1 ? "" : "es", cg.dir, pid);
		if (nopidfd) {
			weprintf("%s holds processes of runner %ld, which is gone: without pidfds they cannot be proved to be those processes, so none is signalled",
				 cg.dir, pid);
			free(cg.dir);
			continue;
		}
		if (mr_cgroup_remove(&cg) == 0)
			removed++;
	}
	if (d)
		closedir(d);
	free(pids);
	return removed;
}

int
mr_cgroup_sweep(void)
{
	const char *parent, *why, *kp;
	int v = mr_cgroup_probe(&parent, &why), removed = 0;

	/* kill cgroups first: what they hold is in the memory ones too */
	kp = mr_cgroup_kill_parent();
	if (kp && v != 2)
		removed += sweep_dir(kp, 2, 1);
	if (v)
		removed += sweep_dir(parent, v, v == 2 && kp);
	return removed;
}
