/* cgroup: a memory cgroup of its own for each run — see cgroup.h. */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mr_proc.h"
#include "util.h"

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

	memset(cg, 0, sizeof *cg);
	cg->procs_fd = -1;
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
	memset(cg, 0, sizeof *cg);
	cg->procs_fd = -1;
	return rc;
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

int
mr_cgroup_sweep(void)
{
	const char *parent, *why;
	struct dirent *de;
	DIR *d;
	int removed = 0;

	if (!mr_cgroup_probe(&parent, &why) || !(d = opendir(parent)))
		return 0;
	while ((de = readdir(d)) != NULL) {
		struct mr_cgroup cg = { 0 };
		char buf[8192], *p, *end;
		long pid;
		int i, killed = 0;

		if (strncmp(de->d_name, "memrepro-", 9) != 0)
			continue;
		pid = strtol(de->d_name + 9, &end, 10);
		if (end == de->d_name + 9 || *end != '-' || pid <= 0 ||
		    pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* its runner lives (or is not ours to judge) */
		cg.v = version;
		cg.procs_fd = -1;
		cg.dir = esprintf("%s/%s", parent, de->d_name);
		/* a few rounds: a process may fork while we kill */
		for (i = 0; i < 50; i++) {
			if (read_file(cg.dir, "cgroup.procs", buf, sizeof buf) < 0 || !buf[0])
				break;
			for (p = buf; *p; p = end) {
				long q = strtol(p, &end, 10);

				if (end == p)
					break;
				if (q > 0 && kill((pid_t)q, SIGKILL) == 0)
					killed++;
				while (*end == '\n')
					end++;
			}
			usleep(2000);
		}
		if (killed)
			weprintf("killed %d process%s left in %s by runner %ld, which is gone",
				 killed, killed == 1 ? "" : "es", cg.dir, pid);
		if (mr_cgroup_remove(&cg) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

int
mr_cgroup_remove(struct mr_cgroup *cg)
{
	struct timespec ts = { 0, 1000000 };
	int i, rc = 0;

	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->v && cg->dir) {
		for (i = 0; i < RMDIR_LIMIT_MS; i++) {
			if (rmdir(cg->dir) == 0 || errno == ENOENT)
				break;
			if (errno != EBUSY) {
				rc = -errno;
				weprintf("rmdir %s:", cg->dir);
				break;
			}
			nanosleep(&ts, NULL);
		}
		if (i == RMDIR_LIMIT_MS) {
			rc = -EBUSY;
			weprintf("rmdir %s: still busy after %d s", cg->dir,
				 RMDIR_LIMIT_MS / 1000);
		}
	}
	free(cg->dir);
	memset(cg, 0, sizeof *cg);
	cg->procs_fd = -1;
	return rc;
}
