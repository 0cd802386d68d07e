/* mr_proc: memory figures of any process, read from /proc.
 *
 * No stdio and no malloc here (see mr_proc.h): paths are built and files
 * read into stack or caller buffers with open/read/close.  The one
 * exception is mr_proc_children(), which uses opendir (glibc mallocs the
 * DIR); only the runner calls it, never a measured case.
 */
#include "mr_proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* Large enough for /proc/PID/status (~1.5 KiB) and smaps_rollup (~1 KiB)
 * with room for fields future kernels add. */
#define MR_PROC_BUF 8192

/* A path buffer: "/proc/" + pid + "/task/" + tid + "/children" fits. */
#define MR_PROC_PATH 96

/* Append s to the path being built in buf; returns the new length. */
static size_t path_add(char *buf, size_t len, const char *s)
{
	while (*s && len < MR_PROC_PATH - 1)
		buf[len++] = *s++;
	buf[len] = '\0';
	return len;
}

/* Append the decimal form of v. */
static size_t path_add_u(char *buf, size_t len, unsigned long v)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n && len < MR_PROC_PATH - 1)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

/* "/proc/self/<file>" or "/proc/<pid>/<file>". */
static void proc_path(char *buf, pid_t pid, const char *file)
{
	size_t len = path_add(buf, 0, "/proc/");

	if (pid == 0)
		len = path_add(buf, len, "self");
	else
		len = path_add_u(buf, len, (unsigned long)pid);
	len = path_add(buf, len, "/");
	path_add(buf, len, file);
}

long mr_proc_read(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd, err = 0;

	if (size < 2)
		return -EINVAL;
	buf[0] = '\0'; /* never garbage, whatever errno says below */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == size - 1) {
			/* Full: EOF right now means it fitted exactly. */
			char c;

			do
				n = read(fd, &c, 1);
			while (n < 0 && errno == EINTR);
			if (n != 0)
				err = n < 0 ? -errno : -EFBIG;
			break;
		}
	}
	close(fd);
	if (err)
		return err;
	buf[len] = '\0';
	return (long)len;
}

/* /proc/<pid>/<file> read whole into buf (mr_proc_read's return). */
static long read_at(pid_t pid, const char *file, char *buf, size_t size)
{
	char path[MR_PROC_PATH];

	proc_path(path, pid, file);
	return mr_proc_read(path, buf, size);
}

/* Parse a decimal number at *p (leading blanks skipped) into *out,
 * advancing *p.  -EPROTO when there are no digits or it overflows. */
static int parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end || *s < '0' || *s > '9')
		return -EPROTO;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -EPROTO;
		v = v * 10 + d;
	}
	*p = s;
	*out = v;
	return 0;
}

/* One field wanted from a "Key:  value[ kB]" file. */
struct field {
	const char *key; /* without the colon */
	uint64_t *dst;
	int kb;          /* the value must carry the " kB" unit */
	int seen;
	int optional;    /* missing is no error (the field stays 0) */
};

/* Parse every line of text; fill the fields whose key matches exactly.
 * -EPROTO when a wanted line is malformed or a wanted key (not optional)
 * is missing. */
static int parse_fields(const char *text, size_t len, struct field *f, int nf)
{
	const char *p = text, *end = text + len;
	int i;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *colon;

		if (!eol)
			eol = end;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (colon) {
			size_t klen = (size_t)(colon - p);

			for (i = 0; i < nf; i++) {
				const char *v = colon + 1;
				int err;

				if (strlen(f[i].key) != klen ||
				    memcmp(f[i].key, p, klen) != 0)
					continue;
				err = parse_u64(&v, eol, f[i].dst);
				if (err)
					return err;
				if (f[i].kb) {
					if (eol - v != 3 || memcmp(v, " kB", 3) != 0)
						return -EPROTO;
				} else {
					while (v < eol && (*v == ' ' || *v == '\t'))
						v++;
					if (v != eol)
						return -EPROTO;
				}
				f[i].seen = 1;
				break;
			}
		}
		p = eol + 1;
	}
	for (i = 0; i < nf; i++)
		if (!f[i].seen && !f[i].optional)
			return -EPROTO;
	return 0;
}

int mr_proc_parse_status(const char *text, size_t len, struct mr_status *out)
{
	struct mr_status s = { 0 };
	struct field f[] = {
		{ "VmSize", &s.vsz_kb, 1, 0, 0 },
		{ "VmRSS", &s.rss_kb, 1, 0, 0 },
		{ "VmHWM", &s.hwm_kb, 1, 0, 0 },
		{ "RssAnon", &s.anon_kb, 1, 0, 0 },
		{ "VmSwap", &s.swap_kb, 1, 0, 0 },
		{ "Threads", &s.threads, 0, 0, 0 },
	};
	int err = parse_fields(text, len, f, (int)(sizeof f / sizeof f[0]));

	if (err == -EPROTO && !f[0].seen && f[5].seen) {
		/* A status without any Vm line has no mm: a zombie (or a
		 * kernel thread).  For our purposes the process is gone. */
		return -ESRCH;
	}
	if (err)
		return err;
	*out = s;
	return 0;
}

int mr_proc_parse_rollup(const char *text, size_t len, struct mr_rollup *out)
{
	struct mr_rollup r = { 0 };
	struct field f[] = {
		{ "Rss", &r.rss_kb, 1, 0, 0 },
		{ "Pss", &r.pss_kb, 1, 0, 0 },
		{ "Private_Clean", &r.private_clean_kb, 1, 0, 0 },
		{ "Private_Dirty", &r.private_dirty_kb, 1, 0, 0 },
		{ "Shared_Dirty", &r.shared_dirty_kb, 1, 0, 0 },
		{ "Anonymous", &r.anon_kb, 1, 0, 0 },
		{ "LazyFree", &r.lazyfree_kb, 1, 0, 0 },
		{ "Swap", &r.swap_kb, 1, 0, 0 },
		{ "AnonHugePages", &r.anon_huge_kb, 1, 0, 1 },
	};
	int err;

	if (len == 0)
		return -ESRCH; /* a zombie's smaps_rollup is empty: no mm */
	err = parse_fields(text, len, f, (int)(sizeof f / sizeof f[0]));
	if (err)
		return err;
	*out = r;
	return 0;
}

int mr_proc_status(pid_t pid, struct mr_status *out)
{
	char buf[MR_PROC_BUF];
	long n = read_at(pid, "status", buf, sizeof buf);

	if (n < 0)
		return (int)n;
	return mr_proc_parse_status(buf, (size_t)n, out);
}

int mr_proc_rollup(pid_t pid, struct mr_rollup *out)
{
	char buf[MR_PROC_BUF];
	long n = read_at(pid, "smaps_rollup", buf, sizeof buf);

	if (n < 0)
		return (int)n;
	return mr_proc_parse_rollup(buf, (size_t)n, out);
}

int mr_proc_parse_stat(const char *text, size_t len, struct mr_pstat *out)
{
	const char *end = text + len, *p = end;
	uint64_t v[23] = {0};
	int field;

	while (p > text && p[-1] != ')')
		p--;
	/* ") S PPID ...": p just after the last ')' */
	if (p == text || end - p < 3 || p[0] != ' ' || p[2] != ' ')
		return -EPROTO;
	out->state = p[1];
	p += 3;
	for (field = 4; field <= 22; field++) {
		if (field == 4 || field == 5 || field == 9 || field == 10 || field == 12 ||
		    (field >= 14 && field <= 17) || field == 22) {
			if (parse_u64(&p, end, &v[field]) < 0)
				return -EPROTO;
		} else {
			/* a field not read here, e.g. tpgid (-1) */
			while (p < end && *p != ' ' && *p != '\n')
				p++;
		}
		if (field < 22 && (p == end || *p++ != ' '))
			return -EPROTO;
	}
	if (p < end && *p != ' ' && *p != '\n')
		return -EPROTO;
	out->ppid = (long)v[4];
	out->pgrp = (long)v[5];
	out->flags = (unsigned long)v[9];
	out->minflt = v[10];
	out->majflt = v[12];
	out->utime = v[14];
	out->stime = v[15];
	out->cutime = v[16];
	out->cstime = v[17];
	out->start = v[22];
	return 0;
}

int mr_proc_stat(pid_t pid, struct mr_pstat *out)
{
	char buf[1024];
	long n = read_at(pid, "stat", buf, sizeof buf);

	if (n < 0)
		return (int)n;
	return mr_proc_parse_stat(buf, (size_t)n, out);
}

int mr_proc_count_lines(const char *path, uint64_t max, uint64_t *out)
{
	char buf[MR_PROC_LINES_CHUNK];
	uint64_t lines = 0;
	int fd, err = 0, partial = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf), i;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
		partial = buf[n - 1] != '\n';
		if (lines + (uint64_t)partial > max) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (err)
		return err;
	*out = lines + (uint64_t)partial; /* a last line without its newline */
	return 0;
}

int mr_proc_maps(pid_t pid, uint64_t *out)
{
	char path[MR_PROC_PATH];
	uint64_t n = 0;
	int err;

	proc_path(path, pid, "maps");
	if ((err = mr_proc_count_lines(path, MR_MAPS_MAX, &n)) < 0)
		return err;
	if (n == 0)
		return -ESRCH; /* a zombie's maps is empty: no mm */
	*out = n;
	return 0;
}

/* Bytes per page, asked once: sysconf is cheap but this runs per sample.
 * Relaxed atomics make the benign first-use race well defined. */
static uint64_t page_kb(void)
{
	static long cached;
	long ps = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (ps <= 0) {
		ps = sysconf(_SC_PAGESIZE);
		if (ps <= 0)
			ps = 4096;
		__atomic_store_n(&cached, ps, __ATOMIC_RELAXED);
	}
	return (uint64_t)ps / 1024;
}

int mr_proc_statm(pid_t pid, struct mr_statm *out)
{
	char buf[256];
	uint64_t v[3];
	const char *p, *end;
	long n = read_at(pid, "statm", buf, sizeof buf);
	int i, err;

	if (n < 0)
		return (int)n;
	p = buf;
	end = buf + n;
	for (i = 0; i < 3; i++) {
		err = parse_u64(&p, end, &v[i]);
		if (err)
			return err;
	}
	if (v[0] == 0)
		return -ESRCH; /* a zombie's statm is all zeros: no mm left */
	out->vsz_kb = v[0] * page_kb();
	out->rss_kb = v[1] * page_kb();
	out->shared_kb = v[2] * page_kb();
	return 0;
}

void mr_pidlist_init(struct mr_pidlist_parser *p, pid_t *out, int max)
{
	p->out = out;
	p->max = max > 0 ? max : 0;
	p->count = 0;
	p->cur = 0;
	p->digits = 0;
	p->bytes = 0;
	p->err = 0;
}

/* The number being read has ended (at a separator or at the end). */
static void pidlist_end(struct mr_pidlist_parser *p)
{
	if (p->cur < 2) {
		p->err = -EPROTO; /* 0 is no process, 1 is nobody's child */
		return;
	}
	if (p->count < p->max)
		p->out[p->count] = (pid_t)p->cur;
	p->count++;
	p->cur = 0;
	p->digits = 0;
}

int mr_pidlist_feed(struct mr_pidlist_parser *p, const char *chunk, size_t len)
{
	size_t i;
	int over = 0;

	if (p->err)
		return p->err;
	/* Bytes past the bound are an error where they start, in file
	 * order, so the result does not depend on how the file was cut. */
	if (len > MR_PIDLIST_MAX_BYTES - p->bytes) {
		len = MR_PIDLIST_MAX_BYTES - p->bytes;
		over = 1;
	}
	p->bytes += len;
	for (i = 0; i < len && !p->err; i++) {
		char c = chunk[i];

		if (c >= '0' && c <= '9') {
			if (p->digits == 1 && p->cur == 0) {
				p->err = -EPROTO; /* a leading zero */
				break;
			}
			p->cur = p->cur * 10 + (uint32_t)(c - '0');
			p->digits++;
			/* Checked at every digit: cur stays far from overflow. */
			if (p->cur > MR_PID_MAX_LIMIT)
				p->err = -EPROTO;
		} else if (c == ' ' || c == '\n') {
			if (p->digits)
				pidlist_end(p);
		} else {
			p->err = -EPROTO;
		}
	}
	if (over && !p->err)
		p->err = -EFBIG;
	return p->err;
}

int mr_pidlist_finish(struct mr_pidlist_parser *p)
{
	if (!p->err && p->digits)
		pidlist_end(p);
	return p->err ? p->err : p->count;
}

int mr_proc_read_pids(const char *path, pid_t *out, int max)
{
	struct mr_pidlist_parser p;
	char buf[512];
	int fd, err = 0;

	mr_pidlist_init(&p, out, max);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	/* Bounded: each pass feeds at least a byte, and the parser stops
	 * (-EFBIG) past MR_PIDLIST_MAX_BYTES. */
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0 || mr_pidlist_feed(&p, buf, (size_t)n) < 0)
			break;
	}
	close(fd);
	return err ? err : mr_pidlist_finish(&p);
}

int mr_proc_children(pid_t pid, pid_t *out, int max)
{
	char path[MR_PROC_PATH];
	struct dirent *de;
	DIR *d;
	size_t len;
	int total = 0, saw_task = 0, err = 0;

	proc_path(path, pid, "task");
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		int n;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		len = path_add(path, 0, "/proc/");
		len = pid ? path_add_u(path, len, (unsigned long)pid)
			  : path_add(path, len, "self");
		len = path_add(path, len, "/task/");
		len = path_add(path, len, de->d_name);
		path_add(path, len, "/children");
		n = total < max ? mr_proc_read_pids(path, out + total, max - total)
				: mr_proc_read_pids(path, NULL, 0);
		if (n == -ENOENT || n == -ESRCH) {
			/* Either the thread exited since readdir, or the
			 * kernel has no CONFIG_PROC_CHILDREN: decided below. */
			continue;
		}
		if (n < 0) {
			err = n;
			break;
		}
		if (n > MR_PID_MAX_LIMIT - total) {
			/* More children than pids can exist: not believed. */
			err = -EPROTO;
			break;
		}
		saw_task = 1;
		total += n;
	}
	closedir(d);
	if (err)
		return err;
	if (!saw_task) {
		/* No children file for any thread: if the process still
		 * exists the kernel does not provide the file. */
		proc_path(path, pid, "stat");
		return access(path, F_OK) == 0 ? -ENOTSUP : -ESRCH;
	}
	return total;
}
