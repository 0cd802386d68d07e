/* cgsweep: the cgroups of runners that are gone, cleared — see
 * cgroup.h (mr_cgroup_sweep). */
#include "run/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/util.h"
#include "run/cgfs.h"

/* Is "memrepro-<pid>-..." a cgroup of a runner that is gone?  Its pid
 * in *pid.  A runner pid reused by another process reads as alive: its
 * cgroup is then left alone, the safe way round. */
static int
dead_runners(const char *name, long *pid)
{
	char path[64], *end;

	if (strncmp(name, "memrepro-", 9) != 0)
		return 0;
	*pid = strtol(name + 9, &end, 10);
	if (end == name + 9 || *end != '-' || *pid <= 0 || *pid == (long)getpid())
		return 0;
	snprintf(path, sizeof path, "/proc/%ld", *pid);
	return access(path, F_OK) < 0 && errno == ENOENT;
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

		if (!dead_runners(de->d_name, &pid))
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
