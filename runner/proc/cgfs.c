/* cgfs: the cgroup file system — see cgfs.h. */
#include "proc/cgfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mr_proc.h"
#include "core/util.h"

int
mr_cgfs_has_word(const char *s, const char *word, const char *seps)
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

/* Call match(line, ctx) on each line of the file at path, its newline cut
 * off, until one returns 0 (found).  0 when one did, -ENOENT when none
 * did, -errno when the file cannot be opened. */
static int
first_line(const char *path, int (*match)(char *line, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc < 0 && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (match(line, ctx) == 0)
			rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

/* What a line of mountinfo or of /proc/self/cgroup is matched against,
 * and where the match goes. */
struct want {
	int v;                  /* the hierarchy: 2, or 1 (of controller) */
	const char *controller;
	char *a, *b;            /* mountinfo: mount point, root; cgroup: path */
	size_t asize, bsize;
};

/* A mountinfo line of the mount of hierarchy w->v: v2 (fstype cgroup2),
 * or the v1 one whose super options name the controller.  Fills the
 * mount point and the mount's root inside the hierarchy. */
static int
mount_line(char *line, void *ctx)
{
	struct want *w = ctx;
	char *f4, *f5, *dash, *fstype, *opts, *save = NULL;
	int i;

	dash = strstr(line, " - ");
	if (!dash)
		return -1;
	*dash = '\0';
	fstype = strtok_r(dash + 3, " ", &save);
	(void)strtok_r(NULL, " ", &save); /* source */
	opts = strtok_r(NULL, " ", &save);
	if (!fstype || !opts)
		return -1;
	if (w->v == 2 ? strcmp(fstype, "cgroup2") != 0 :
		        strcmp(fstype, "cgroup") != 0 || !mr_cgfs_has_word(opts, w->controller, ","))
		return -1;
	save = NULL;
	f4 = strtok_r(line, " ", &save);
	for (i = 0; i < 3 && f4; i++)
		f4 = strtok_r(NULL, " ", &save);
	f5 = strtok_r(NULL, " ", &save);
	if (!f4 || !f5)
		return -1;
	unescape(f4);
	unescape(f5);
	snprintf(w->a, w->asize, "%s", f5);
	snprintf(w->b, w->bsize, "%s", f4);
	return 0;
}

/* A /proc/self/cgroup line of hierarchy w->v (2: the "0::" line; 1: the
 * line whose controllers include the controller): our path there. */
static int
path_line(char *line, void *ctx)
{
	struct want *w = ctx;
	char *c1 = strchr(line, ':'), *c2;

	if (!c1 || !(c2 = strchr(c1 + 1, ':')))
		return -1;
	*c2 = '\0';
	if (w->v == 2 ? strcmp(line, "0:") != 0 || c2 != c1 + 1 :
		        !mr_cgfs_has_word(c1 + 1, w->controller, ","))
		return -1;
	snprintf(w->a, w->asize, "%s", c2 + 1);
	return 0;
}

int
mr_cgfs_own_dir(int v, char *out, size_t size)
{
	char mnt[1024], root[1024], path[2048];
	struct want m = { v, "memory", mnt, root, sizeof mnt, sizeof root };
	struct want p = { v, "memory", path, NULL, sizeof path, 0 };
	size_t n;
	int rc;

	if ((rc = first_line("/proc/self/mountinfo", mount_line, &m)) < 0 ||
	    (rc = first_line("/proc/self/cgroup", path_line, &p)) < 0)
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

int
mr_cgfs_write(const char *dir, const char *name, const char *val)
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

long
mr_cgfs_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[4200];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return mr_proc_read(path, buf, size);
}

static int
cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int
mr_cgfs_procs(const char *dir, pid_t *out, int max)
{
	/* kept: this runs at every sample, and max is the same each time */
	static char *buf;
	static size_t cap;
	size_t size = (size_t)max * 12 + 64;
	char *p, *end;
	long len;
	int n = 0, i, k;

	if (!buf || size > cap) {
		free(buf);
		buf = emalloc(size);
		cap = size;
	}
	len = mr_cgfs_read(dir, "cgroup.procs", buf, size);
	if (len < 0)
		return (int)len; /* -EFBIG: more than max: the caller walks the tree instead */
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
	/* the kernel lists a cgroup's processes mostly in order: sort only
	 * when they are not already (in order and each once) */
	for (i = 1; i < n && out[i - 1] < out[i]; i++)
		;
	if (i >= n)
		return n;
	qsort(out, (size_t)n, sizeof *out, cmp_pid);
	for (i = k = 0; i < n; i++)
		if (!k || out[k - 1] != out[i])
			out[k++] = out[i];
	return k;
}

int
mr_cgfs_member(pid_t pid, const char *name)
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

int
mr_cgfs_start_time(long pid, unsigned long long *start)
{
	struct mr_pstat st;

	if (pid <= 0 || pid > INT32_MAX || mr_proc_stat((pid_t)pid, &st) < 0)
		return -1;
	*start = st.start;
	return 0;
}

unsigned long long
mr_cgfs_ns(const char *which)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof path, "/proc/self/ns/%s", which);
	return stat(path, &st) < 0 ? 0 : (unsigned long long)st.st_ino;
}

int
mr_cgfs_proc_ours(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof buf - 1);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == (long)getpid();
}

int
mr_cgfs_owner_self(struct mr_cgfs_owner *o)
{
	static struct mr_cgfs_owner me;

	if (me.pid != (long)getpid()) {
		me.pid = (long)getpid();
		me.pidns = mr_cgfs_ns("pid");
		me.timens = mr_cgfs_ns("time");
		if (mr_cgfs_start_time(me.pid, &me.start) < 0)
			me.start = 0;
	}
	*o = me;
	return me.pidns && me.start ? 0 : -1;
}

int
mr_cgfs_owner_parse(const char *name, struct mr_cgfs_owner *o, const char **rest)
{
	int n = -1;

	/* every field is range-checked by the format's widths and below */
	if (sscanf(name, MR_CGFS_OWNER_FMT "%n", &o->pid /* NOLINT(cert-err34-c) */, &o->pidns, &o->timens, &o->start,
		   &n) != 4 || n < 0 || o->pid <= 0)
		return -1;
	*rest = name + n;
	return 0;
}
