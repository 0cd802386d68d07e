/* cgroup: a memory cgroup of its own for each run — see cgroup.h. */
#include "proc/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "proc/cgfs.h"

/* How long rmdir is retried while the kernel lets the last tasks go. */
#define RMDIR_LIMIT_MS 2000

static int probed;
static int version;        /* 1, 2 or 0 */
static char parent_dir[4096];
static char why_none[512];

/* v2: the memory controller must be available to our cgroup and enabled
 * for its children (or enableable: the "no internal processes" rule
 * refuses that while processes live in our cgroup, the usual case). */
static int
probe_v2(void)
{
	char dir[4096], buf[512];
	int rc;

	if (mr_cgfs_own_dir(2, dir, sizeof dir) < 0) {
		snprintf(why_none, sizeof why_none, "no cgroup v2 hierarchy");
		return 0;
	}
	if (mr_cgfs_read(dir, "cgroup.controllers", buf, sizeof buf) < 0 ||
	    !mr_cgfs_has_word(buf, "memory", " \n")) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(why_none, sizeof why_none,
			 "cgroup v2 at %.200s has no memory controller (controllers: %.100s)",
			 dir, buf[0] ? buf : "none");
		return 0;
	}
	if (mr_cgfs_read(dir, "cgroup.subtree_control", buf, sizeof buf) < 0 ||
	    !mr_cgfs_has_word(buf, "memory", " \n")) {
		if ((rc = mr_cgfs_write(dir, "cgroup.subtree_control", "+memory")) < 0) {
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
	if (mr_cgfs_own_dir(1, dir, sizeof dir) < 0) {
		snprintf(why_none, sizeof why_none, "%.300s; no cgroup v1 memory hierarchy",
			 v2why);
		return 0;
	}
	rc = mr_cgfs_read(dir, "memory.limit_in_bytes", buf, sizeof buf);
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
	struct mr_cgfs_owner me;

	mr_cgroup_init(cg);
	if (!v) {
		snprintf(why, size, "%s", none);
		return -ENOTSUP;
	}
	if (mr_cgfs_owner_self(&me) < 0) {
		snprintf(why, size, "no pid namespace or start time of the runner's in /proc");
		return -ENOTSUP;
	}
	for (i = 0; i < 100; i++) {
		free(cg->dir);
		cg->dir = esprintf("%s/" MR_CGFS_OWNER_FMT "%u", parent, me.pid, me.pidns,
				   me.timens, me.start, ++seq);
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
			rc = mr_cgfs_write(cg->dir, "memory.limit_in_bytes", val);
			/* memsw >= memory, so it is written second; absent
			 * without swap accounting */
			if (!rc && cap) {
				int r2 = mr_cgfs_write(cg->dir, "memory.memsw.limit_in_bytes", val);

				if (r2 < 0 && r2 != -ENOENT)
					rc = r2;
			}
		} else {
			rc = mr_cgfs_write(cg->dir, "memory.max", val);
			if (!rc && cap) {
				int r2 = mr_cgfs_write(cg->dir, "memory.swap.max", "0");

				if (r2 < 0 && r2 != -ENOENT)
					rc = r2;
				/* an OOM kill takes the whole run, as the
				 * v1 path does after the fact */
				(void)mr_cgfs_write(cg->dir, "memory.oom.group", "1");
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
		else if (mr_cgfs_own_dir(2, dir, sizeof dir) < 0 || access(dir, W_OK) < 0)
			dir[0] = '\0';
	}
	return dir[0] ? dir : NULL;
}

int
mr_cgroup_create_kill(struct mr_cgroup *cg)
{
	static unsigned seq;
	const char *parent = mr_cgroup_kill_parent();
	struct mr_cgfs_owner me;
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
	if (!parent || mr_cgfs_owner_self(&me) < 0)
		return -ENOTSUP;
	for (i = 0; i < 100; i++) {
		free(cg->kill_dir);
		cg->kill_dir = esprintf("%s/" MR_CGFS_OWNER_FMT "k%u", parent, me.pid, me.pidns,
					me.timens, me.start, ++seq);
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
	return cg->kill_dir ? mr_cgfs_write(cg->kill_dir, "cgroup.kill", "1") : -ENOTSUP;
}

int
mr_cgroup_procs(const struct mr_cgroup *cg, pid_t *out, int max)
{
	if (cg->kill_dir)
		return mr_cgfs_procs(cg->kill_dir, out, max);
	if (cg->v)
		return mr_cgfs_procs(cg->dir, out, max);
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
	if ((n = mr_cgfs_read(cg->dir, name, buf, sizeof buf)) < 0)
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
	len = mr_cgfs_read(cg->dir, cg->v == 2 ? "memory.events" : "memory.oom_control",
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
	return mr_cgfs_member(pid, base ? base + 1 : dir);
}
