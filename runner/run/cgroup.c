/* cgroup: a memory cgroup of its own for each run — see cgroup.h. */
#include "run/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mr_proc.h"
#include "core/util.h"

/* How long rmdir is retried while the kernel lets the last tasks go. */
#define RMDIR_LIMIT_MS 2000

static int probed;
static int version;        /* 1, 2 or 0 */
static char parent_dir[4096];
static char why_none[512];

/* Is word in the list s of words separated by any of seps? */
static int
has_word(const char *s, const char *word, const char *seps)
{
	size_t n = strlen(word);

	while (*s) {
		size_t k = strcspn(s, seps);

		if (k == n && strncmp(s, word, n) == 0)
			return 1;
		s += k;
		if (*s)
			s++;
	}
	return 0;
}

/* mountinfo escapes blanks in paths as \ooo: decode in place. */
static void
unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* The mount of a cgroup hierarchy: v2 (fstype cgroup2), or the v1 one
 * whose super options name the controller.  Fills mnt and root (the
 * mount's root inside the hierarchy).  0 or -ENOENT. */
static int
find_mount(int v, const char *controller, char *mnt, size_t msize, char *root,
	   size_t rsize)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc < 0 && getline(&line, &cap, f) > 0) {
		char *f4, *f5, *dash, *fstype, *opts, *save = NULL;
		int i;

		line[strcspn(line, "\n")] = '\0';
		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		fstype = strtok_r(dash + 3, " ", &save);
		(void)strtok_r(NULL, " ", &save); /* source */
		opts = strtok_r(NULL, " ", &save);
		if (!fstype || !opts)
			continue;
		if (v == 2 ? strcmp(fstype, "cgroup2") != 0 :
			     strcmp(fstype, "cgroup") != 0 || !has_word(opts, controller, ","))
			continue;
		save = NULL;
		f4 = strtok_r(line, " ", &save);
		for (i = 0; i < 3 && f4; i++)
			f4 = strtok_r(NULL, " ", &save);
		f5 = strtok_r(NULL, " ", &save);
		if (!f4 || !f5)
			continue;
		unescape(f4);
		unescape(f5);
		snprintf(mnt, msize, "%s", f5);
		snprintf(root, rsize, "%s", f4);
		rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

/* Our cgroup path in hierarchy v (2: the "0::" line; 1: the line whose
 * controllers include controller).  0 or -ENOENT. */
static int
own_path(int v, const char *controller, char *out, size_t size)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc < 0 && getline(&line, &cap, f) > 0) {
		char *c1 = strchr(line, ':'), *c2;

		line[strcspn(line, "\n")] = '\0';
		if (!c1 || !(c2 = strchr(c1 + 1, ':')))
			continue;
		*c2 = '\0';
		if (v == 2 ? strcmp(line, "0:") != 0 || c2 != c1 + 1 :
			     !has_word(c1 + 1, controller, ","))
			continue;
		snprintf(out, size, "%s", c2 + 1);
		rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

/* The directory of our cgroup in hierarchy v: mount point + our path
 * below the mount's root. */
static int
own_dir(int v, char *out, size_t size)
{
	char mnt[1024], root[1024], path[2048];
	size_t n;
	int rc;

	if ((rc = find_mount(v, "memory", mnt, sizeof mnt, root, sizeof root)) < 0 ||
	    (rc = own_path(v, "memory", path, sizeof path)) < 0)
		return rc;
	n = strlen(root);
	if (strcmp(root, "/") == 0)
		n = 0;
	else if (strncmp(path, root, n) != 0 || (path[n] && path[n] != '/'))
		n = 0; /* a cgroup namespace: the path is already relative */
	snprintf(out, size, "%s%s", mnt, path + n);
	n = strlen(out);
	while (n > 1 && out[n - 1] == '/')
		out[--n] = '\0';
	return 0;
}

static int
write_file(const char *dir, const char *name, const char *val)
{
	char path[4200];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	return (size_t)n == strlen(val) ? 0 : -EIO;
}

static long
read_file(const char *dir, const char *name, char *buf, size_t size)
{
	char path[4200];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return mr_proc_read(path, buf, size);
}

/* v2: the memory controller must be available to our cgroup and enabled
 * for its children (or enableable: the "no internal processes" rule
 * refuses that while processes live in our cgroup, the usual case). */
static int
probe_v2(void)
{
	char dir[4096], buf[512];
	int rc;

	if (own_dir(2, dir, sizeof dir) < 0) {
		snprintf(why_none, sizeof why_none, "no cgroup v2 hierarchy");
		return 0;
	}
	if (read_file(dir, "cgroup.controllers", buf, sizeof buf) < 0 ||
	    !has_word(buf, "memory", " \n")) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(why_none, sizeof why_none,
			 "cgroup v2 at %.200s has no memory controller (controllers: %.100s)",
			 dir, buf[0] ? buf : "none");
		return 0;
	}
	if (read_file(dir, "cgroup.subtree_control", buf, sizeof buf) < 0 ||
	    !has_word(buf, "memory", " \n")) {
		if ((rc = write_file(dir, "cgroup.subtree_control", "+memory")) < 0) {
			snprintf(why_none, sizeof why_none,
				 "cgroup v2 at %.200s: cannot enable memory for child cgroups: %s",
				 dir, strerror(-rc));
			return 0;
		}
	}
	snprintf(parent_dir, sizeof parent_dir, "%s", dir);
	return 2;
}

static int
probe_v1(void)
{
	char dir[4096], buf[64], v2why[512];
	long rc;

	snprintf(v2why, sizeof v2why, "%s", why_none);
	if (own_dir(1, dir, sizeof dir) < 0) {
		snprintf(why_none, sizeof why_none, "%.300s; no cgroup v1 memory hierarchy",
			 v2why);
		return 0;
	}
	rc = read_file(dir, "memory.limit_in_bytes", buf, sizeof buf);
	if (rc >= 0 && access(dir, W_OK) < 0)
		rc = -errno;
	if (rc < 0) {
		snprintf(why_none, sizeof why_none, "%.300s; cgroup v1 memory at %.150s: %s",
			 v2why, dir, strerror((int)-rc));
		return 0;
	}
	snprintf(parent_dir, sizeof parent_dir, "%s", dir);
	return 1;
}

int
mr_cgroup_probe(const char **parent, const char **why)
{
	if (!probed) {
		const char *env = getenv("MEMREPRO_CGROUP");

		probed = 1;
		if (env && strcmp(env, "0") == 0) {
			snprintf(why_none, sizeof why_none, "disabled by MEMREPRO_CGROUP=0");
			*parent = NULL;
			*why = why_none;
			return 0;
		}
		version = probe_v2();
		if (!version)
			version = probe_v1();
	}
	*parent = version ? parent_dir : NULL;
	*why = version ? NULL : why_none;
	return version;
}

int
mr_cgroup_create(struct mr_cgroup *cg, uint64_t limit_kb, int cap, char *why,
		 size_t size)
{
	static unsigned seq;
	const char *parent, *none;
	char val[32];
	int v = mr_cgroup_probe(&parent, &none), i, rc = 0;

	mr_cgroup_init(cg);
	if (!v) {
		snprintf(why, size, "%s", none);
		return -ENOTSUP;
	}
	for (i = 0; i < 100; i++) {
		free(cg->dir);
		cg->dir = esprintf("%s/memrepro-%ld-%u", parent, (long)getpid(), ++seq);
		if (mkdir(cg->dir, 0755) == 0)
			break;
		if (errno != EEXIST) {
			rc = -errno;
			snprintf(why, size, "mkdir %s: %s", cg->dir, strerror(errno));
			free(cg->dir);
			cg->dir = NULL;
			return rc;
		}
	}
	if (i == 100) {
		snprintf(why, size, "mkdir %s: no free name", cg->dir);
		free(cg->dir);
		cg->dir = NULL;
		return -EEXIST;
	}
	cg->v = v;
	if (limit_kb) {
		snprintf(val, sizeof val, "%" PRIu64, limit_kb * 1024);
		if (v == 1) {
			rc = write_file(cg->dir, "memory.limit_in_bytes", val);
			/* memsw >= memory, so it is written second; absent
			 * without swap accounting */
			if (!rc && cap) {
				int r2 = write_file(cg->dir, "memory.memsw.limit_in_bytes", val);

				if (r2 < 0 && r2 != -ENOENT)
					rc = r2;
			}
		} else {
			rc = write_file(cg->dir, "memory.max", val);
			if (!rc && cap) {
				int r2 = write_file(cg->dir, "memory.swap.max", "0");

				if (r2 < 0 && r2 != -ENOENT)
					rc = r2;
				/* an OOM kill takes the whole run, as the
				 * v1 path does after the fact */
				(void)write_file(cg->dir, "memory.oom.group", "1");
			}
		}
		if (rc < 0) {
			snprintf(why, size, "%s: setting the limit: %s", cg->dir, strerror(-rc));
			goto fail;
		}
		cg->limit_kb = limit_kb;
	}
	{
		char *p = esprintf("%s/cgroup.procs", cg->dir);

		cg->procs_fd = open(p, O_WRONLY | O_CLOEXEC);
		rc = cg->procs_fd < 0 ? -errno : 0;
		if (rc < 0)
			snprintf(why, size, "open %s: %s", p, strerror(errno));
		free(p);
		if (rc < 0)
			goto fail;
	}
	return 0;
fail:
	rmdir(cg->dir);
	free(cg->dir);
	mr_cgroup_init(cg);
	return rc;
}

void
mr_cgroup_init(struct mr_cgroup *cg)
{
	memset(cg, 0, sizeof *cg);
	cg->procs_fd = -1;
	cg->kill_fd = -1;
}

/* Where kill cgroups go: the memory parent on v2, else our own cgroup on
 * the unified hierarchy if we may make cgroups there; NULL if nowhere. */
const char *
mr_cgroup_kill_parent(void)
{
	static int done;
	static char dir[4096];
	const char *parent, *why;
	int v = mr_cgroup_probe(&parent, &why);

	if (!done) {
		const char *env = getenv("MEMREPRO_CGROUP");

		done = 1;
		if (env && strcmp(env, "0") == 0)
			dir[0] = '\0';
		else if (v == 2)
			snprintf(dir, sizeof dir, "%s", parent);
		else if (own_dir(2, dir, sizeof dir) < 0 || access(dir, W_OK) < 0)
			dir[0] = '\0';
	}
	return dir[0] ? dir : NULL;
}

int
mr_cgroup_create_kill(struct mr_cgroup *cg)
{
	static unsigned seq;
	const char *parent = mr_cgroup_kill_parent();
	char *p;
	int i, rc;

	if (cg->v == 2) {
		/* the memory cgroup is on v2: it has cgroup.kill itself */
		p = esprintf("%s/cgroup.kill", cg->dir);
		rc = access(p, W_OK) == 0 ? 0 : -errno;
		free(p);
		if (rc == 0)
			cg->kill_dir = estrdup(cg->dir);
		return rc;
	}
	if (!parent)
		return -ENOTSUP;
	for (i = 0; i < 100; i++) {
		free(cg->kill_dir);
		cg->kill_dir = esprintf("%s/memrepro-%ld-k%u", parent, (long)getpid(), ++seq);
		if (mkdir(cg->kill_dir, 0755) == 0)
			break;
		if (errno != EEXIST || i == 99) {
			rc = errno == EEXIST ? -EEXIST : -errno;
			free(cg->kill_dir);
			cg->kill_dir = NULL;
			return rc;
		}
	}
	p = esprintf("%s/cgroup.kill", cg->kill_dir);
	rc = access(p, W_OK) == 0 ? 0 : -errno; /* before 5.14: none */
	free(p);
	if (rc == 0) {
		p = esprintf("%s/cgroup.procs", cg->kill_dir);
		cg->kill_fd = open(p, O_WRONLY | O_CLOEXEC);
		rc = cg->kill_fd < 0 ? -errno : 0;
		free(p);
	}
	if (rc < 0) {
		rmdir(cg->kill_dir);
		free(cg->kill_dir);
		cg->kill_dir = NULL;
	}
	return rc;
}

int
mr_cgroup_kill(const struct mr_cgroup *cg)
{
	return cg->kill_dir ? write_file(cg->kill_dir, "cgroup.kill", "1") : -ENOTSUP;
}

static int
cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The pids of a cgroup.procs file, sorted, each once (v1 may list one
 * twice).  At most max; returns how many, or -errno. */
static int
read_procs(const char *dir, pid_t *out, int max)
{
	size_t size = (size_t)max * 12 + 64;
	char *buf = emalloc(size), *p, *end;
	long len = read_file(dir, "cgroup.procs", buf, size);
	int n = 0, i, k;

	if (len < 0) {
		free(buf);
		return (int)len; /* -EFBIG: more than max: the caller walks the tree instead */
	}
	/* the whole file is in buf: a number ends at a newline or the end */
	for (p = buf; *p && n < max; p = end) {
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || (*end && *end != '\n'))
			break;
		if (v > 1 && v <= 4194304)
			out[n++] = (pid_t)v;
		while (*end == '\n')
			end++;
	}
	free(buf);
	qsort(out, (size_t)n, sizeof *out, cmp_pid);
	for (i = k = 0; i < n; i++)
		if (!k || out[k - 1] != out[i])
			out[k++] = out[i];
	return k;
}

int
mr_cgroup_procs(const struct mr_cgroup *cg, pid_t *out, int max)
{
	if (cg->kill_dir)
		return read_procs(cg->kill_dir, out, max);
	if (cg->v)
		return read_procs(cg->dir, out, max);
	return -ENOTSUP;
}

/* A file of one decimal number of bytes, in KiB. */
static int
read_kb(const struct mr_cgroup *cg, const char *name, uint64_t *kb)
{
	char buf[64];
	unsigned long long x;
	char *end;
	long n;

	if (!cg->v)
		return -ENOTSUP;
	if ((n = read_file(cg->dir, name, buf, sizeof buf)) < 0)
		return (int)n;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EPROTO;
	*kb = (uint64_t)(x / 1024);
	return 0;
}

int
mr_cgroup_usage(const struct mr_cgroup *cg, uint64_t *kb)
{
	return read_kb(cg, cg->v == 2 ? "memory.current" : "memory.usage_in_bytes", kb);
}

int
mr_cgroup_peak(const struct mr_cgroup *cg, uint64_t *kb)
{
	return read_kb(cg, cg->v == 2 ? "memory.peak" : "memory.max_usage_in_bytes", kb);
}

int
mr_cgroup_oom_kills(const struct mr_cgroup *cg, uint64_t *n)
{
	char buf[1024], *p;
	long len;

	if (!cg->v)
		return -ENOTSUP;
	len = read_file(cg->dir, cg->v == 2 ? "memory.events" : "memory.oom_control",
			buf, sizeof buf);
	if (len < 0)
		return (int)len;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "oom_kill ", 9) == 0) {
			*n = strtoull(p + 9, NULL, 10);
			return 0;
		}
	}
	*n = 0; /* a kernel before 4.13 does not count them */
	return 0;
}

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

/* Does /proc/PID/cgroup put pid in a cgroup whose last component is
 * name, on some hierarchy? */
static int
in_cgroup(pid_t pid, const char *name)
{
	char path[64], buf[4096], *line, *save = NULL;
	size_t n = strlen(name);

	snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
	if (mr_proc_read(path, buf, sizeof buf) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);

		if (len > n && line[len - n - 1] == '/' && strcmp(line + len - n, name) == 0)
			return 1;
	}
	return 0;
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
	if (pid > 1 && in_cgroup(pid, name))
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
			if ((n = read_procs(cg.dir, pids, 4096)) <= 0)
				break;
			if (kill && write_file(cg.dir, "cgroup.kill", "1") == 0) {
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

/* rmdir dir, retried while the kernel lets the last tasks go. */
static int
remove_dir(const char *dir)
{
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < RMDIR_LIMIT_MS; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY) {
			int rc = -errno;

			weprintf("rmdir %s:", dir);
			return rc;
		}
		nanosleep(&ts, NULL);
	}
	weprintf("rmdir %s: still busy after %d s", dir, RMDIR_LIMIT_MS / 1000);
	return -EBUSY;
}

int
mr_cgroup_remove(struct mr_cgroup *cg)
{
	int rc = 0, rk = 0;

	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->kill_fd >= 0)
		close(cg->kill_fd);
	if (cg->kill_dir && (!cg->dir || strcmp(cg->kill_dir, cg->dir) != 0))
		rk = remove_dir(cg->kill_dir);
	if (cg->v && cg->dir)
		rc = remove_dir(cg->dir);
	free(cg->dir);
	free(cg->kill_dir);
	mr_cgroup_init(cg);
	return rc ? rc : rk;
}

int
mr_cgroup_has(const struct mr_cgroup *cg, pid_t pid)
{
	const char *dir = cg->kill_dir ? cg->kill_dir : cg->v ? cg->dir : NULL;
	const char *base;

	if (!dir)
		return -ENOTSUP;
	base = strrchr(dir, '/');
	return in_cgroup(pid, base ? base + 1 : dir);
}
