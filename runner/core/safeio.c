/* safeio: opening the files of a results directory (safeio.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "core/safeio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

/* What a file that is not a regular one is, for messages. */
static const char *
ftype(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "of an unknown type";
}

/* n bytes as "256 MiB", "300.5 MiB", "12 KiB" or "100 bytes". */
static void
fmt_size(char *buf, size_t len, off_t n)
{
	if (n >= (off_t)1 << 20 && n % ((off_t)1 << 20) == 0)
		snprintf(buf, len, "%lld MiB", (long long)(n >> 20));
	else if (n >= (off_t)1 << 20)
		snprintf(buf, len, "%.1f MiB", (double)n / (1 << 20));
	else if (n >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)n / 1024);
	else
		snprintf(buf, len, "%lld bytes", (long long)n);
}

/* -errno of a failed call: never 0, which would read as a descriptor. */
static int
neg(int e)
{
	return e > 0 ? -e : -EIO;
}

/* A relative path of non-empty components, none "." or "..". */
static int
rel_ok(const char *rel)
{
	const char *p = rel;

	if (!*rel || *rel == '/')
		return 0;
	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || n > NAME_MAX || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

/* The descriptor of the directory that holds rel's last component (all:
 * of rel itself), each directory on the way opened with O_NOFOLLOW
 * relative to the one before, so that none can be a symbolic link;
 * mk: a missing one is made.  *base: the last component, in rel.
 * Returns the descriptor or -errno (why filled). */
static int
walk(const char *dir, const char *rel, int mk, int all, const char **base,
     char *why)
{
	char comp[NAME_MAX + 1];
	const char *p = rel;
	int fd, e;

	*base = rel;
	if (!rel_ok(rel)) {
		snprintf(why, MR_SIO_WHY, "not a path inside the results directory");
		return -EINVAL;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(why, MR_SIO_WHY, "%s", strerror(e));
		return neg(e);
	}
	for (;;) {
		size_t n = strcspn(p, "/");
		struct stat st;
		int nfd;

		if (!p[n] && !all)
			break;
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (mk && mkdirat(fd, comp, 0755) < 0 && errno != EEXIST) {
			e = errno;
			snprintf(why, MR_SIO_WHY, "cannot create %.*s: %s",
				 (int)(p + n - rel), rel, strerror(e));
			close(fd);
			return neg(e);
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			e = errno;
			if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				snprintf(why, MR_SIO_WHY,
					 "outside the results directory (%.*s is a symbolic link)",
					 (int)(p + n - rel), rel);
			else if (e == ENOTDIR || e == ELOOP)
				snprintf(why, MR_SIO_WHY, "%.*s is not a directory",
					 (int)(p + n - rel), rel);
			else
				snprintf(why, MR_SIO_WHY, "%s", strerror(e));
			close(fd);
			return neg(e);
		}
		close(fd);
		fd = nfd;
		if (!p[n])
			break;
		p += n + 1;
	}
	*base = p;
	return fd;
}

/* Open rel inside dir with oflags (O_RDONLY or O_WRONLY | O_APPEND). */
static int
open_in(const char *dir, const char *rel, int oflags, off_t cap, off_t *size,
	char *why)
{
	const char *base;
	struct stat st;
	int dfd = walk(dir, rel, 0, 0, &base, why), fd, e, fl;

	if (dfd < 0)
		return dfd;
	/* Look before opening: a device node is never opened (opening one
	 * may act, a tape rewinds), nor a FIFO that a writer holds. */
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		e = errno;
		close(dfd);
		snprintf(why, MR_SIO_WHY, "%s", strerror(e));
		return neg(e);
	}
	if (!S_ISREG(st.st_mode)) {
		close(dfd);
		snprintf(why, MR_SIO_WHY, "not a regular file (%s)", ftype(st.st_mode));
		return S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
	}
	/* O_NOFOLLOW and O_NONBLOCK: what was swapped in since cannot be
	 * followed, and cannot block the open; fstat says what was opened. */
	fd = openat(dfd, base, oflags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	e = errno;
	close(dfd);
	if (fd < 0) {
		if (e == ELOOP)
			snprintf(why, MR_SIO_WHY, "not a regular file (a symbolic link)");
		else
			snprintf(why, MR_SIO_WHY, "%s", strerror(e));
		return neg(e);
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(why, MR_SIO_WHY, "%s", strerror(e));
		close(fd);
		return neg(e);
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, MR_SIO_WHY, "not a regular file (%s)", ftype(st.st_mode));
		close(fd);
		return -EINVAL;
	}
	if (cap > 0 && st.st_size > cap) {
		char has[32], may[32];

		fmt_size(has, sizeof has, st.st_size);
		fmt_size(may, sizeof may, cap);
		snprintf(why, MR_SIO_WHY, "%s, more than the %s a results file may have",
			 has, may);
		close(fd);
		return -EFBIG;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		e = errno;
		snprintf(why, MR_SIO_WHY, "%s", strerror(e));
		close(fd);
		return neg(e);
	}
	if (size)
		*size = st.st_size;
	return fd;
}

int
mr_sio_open(const char *dir, const char *rel, off_t cap, off_t *size, char *why)
{
	return open_in(dir, rel, O_RDONLY, cap, size, why);
}

int
mr_sio_open_append(const char *dir, const char *rel, char *why)
{
	return open_in(dir, rel, O_WRONLY | O_APPEND, 0, NULL, why);
}

char *
mr_sio_path(const char *dir, const char *rel)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return esprintf("%.*s/%s", (int)n, dir, rel);
}

/* A stream of at most left bytes of fd. */
struct capped {
	int fd;
	off_t left;
};

static ssize_t
capped_read(void *cookie, char *buf, size_t n)
{
	struct capped *c = cookie;
	ssize_t r;
	char x;

	if (c->left <= 0) {
		/* at the cap: the end of the file, or a file that grew */
		r = read(c->fd, &x, 1);
		if (r > 0) {
			errno = EFBIG;
			return -1;
		}
		return r;
	}
	if ((off_t)n > c->left)
		n = (size_t)c->left;
	r = read(c->fd, buf, n);
	if (r > 0)
		c->left -= r;
	return r;
}

static int
capped_close(void *cookie)
{
	struct capped *c = cookie;
	int rc = close(c->fd);

	free(c);
	return rc;
}

FILE *
mr_sio_fopen(const char *dir, const char *rel, off_t cap)
{
	static const cookie_io_functions_t io = {
		.read = capped_read,
		.close = capped_close,
	};
	char why[MR_SIO_WHY];
	struct capped *c;
	FILE *f;
	int fd = mr_sio_open(dir, rel, cap, NULL, why);

	if (fd < 0) {
		if (fd != -ENOENT) {
			char *path = mr_sio_path(dir, rel);

			fflush(stdout);
			fprintf(stderr, "%s: %s: refusing to read it\n", path, why);
			free(path);
			errno = EPERM;
		} else {
			errno = ENOENT;
		}
		return NULL;
	}
	c = emalloc(sizeof *c);
	c->fd = fd;
	c->left = cap > 0 ? cap : (off_t)1 << 62;
	f = fopencookie(c, "r", io);
	if (!f) {
		close(fd);
		free(c);
		eprintf("fopencookie:");
	}
	return f;
}

char *
mr_sio_tail(const char *dir, const char *rel, int n)
{
	char why[MR_SIO_WHY], *buf, *p, *start;
	struct strbuf b = { 0 };
	size_t want, len = 0, i;
	off_t size = 0, off;
	int fd = mr_sio_open(dir, rel, 0, &size, why), lines;

	sb_add(&b, "");
	if (fd == -ENOENT || n <= 0) {
		if (fd >= 0)
			close(fd);
		return b.s;
	}
	if (fd < 0) {
		sb_printf(&b, "(log not shown: %s)\n", why);
		return b.s;
	}
	want = size > (off_t)MR_SIO_TAIL_MAX ? MR_SIO_TAIL_MAX : (size_t)size;
	off = size - (off_t)want;
	buf = emalloc(want + 1);
	/* every pread moves on or ends the loop: at most want bytes in all */
	while (len < want) {
		ssize_t r = pread(fd, buf + len, want - len, off + (off_t)len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	start = buf;
	/* from the middle of the file: the first line is cut, unless it is all */
	if (off > 0 && (p = memchr(buf, '\n', len)) != NULL && p + 1 < buf + len)
		start = p + 1;
	len -= (size_t)(start - buf);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)start[i];

		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			start[i] = '?';
	}
	if (len && start[len - 1] == '\n')
		len--;
	/* the last n lines: back from the end to the n-th newline */
	for (p = start + len, lines = 0; p > start; p--)
		if (p[-1] == '\n' && ++lines == n)
			break;
	if (len)
		sb_printf(&b, "%.*s\n", (int)(start + len - p), p);
	free(buf);
	return b.s;
}

char *
mr_sio_tail_under(const char *root, const char *path, int n)
{
	size_t len = strlen(root);

	while (len > 1 && root[len - 1] == '/')
		len--;
	if (strncmp(path, root, len) == 0 && path[len] == '/')
		return mr_sio_tail(root, path + len + 1, n);
	return estrdup("(log not shown: not a path inside the results directory)\n");
}

void
mr_sio_print_tail(FILE *out, const char *path, int n, const char *prefix)
{
	const char *slash = strrchr(path, '/');
	char *dir, *s, *line, *nl;

	if (!slash) {
		s = mr_sio_tail(".", path, n);
	} else {
		dir = slash == path ? estrdup("/") : estrndup(path, (size_t)(slash - path));
		s = mr_sio_tail(dir, slash + 1, n);
		free(dir);
	}
	for (line = s; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		fprintf(out, "%s%.*s\n", prefix, (int)(nl - line), line);
	}
	free(s);
}

int
mr_sio_mkdir(const char *dir, const char *rel, char *why)
{
	const char *base;
	int fd = walk(dir, rel, 1, 1, &base, why);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int
mr_sio_unlink(const char *dir, const char *rel, char *why)
{
	const char *base;
	int fd = walk(dir, rel, 0, 0, &base, why), e = 0;

	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	if (unlinkat(fd, base, 0) < 0 && errno != ENOENT) {
		e = errno;
		snprintf(why, MR_SIO_WHY, "cannot remove it: %s", strerror(e));
	}
	close(fd);
	return e ? neg(e) : 0;
}
