#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

const char *argv0 = "memrepro";

void
vweprintf(const char *fmt, va_list ap)
{
	int saved = errno;
	size_t n = strlen(fmt);

	fprintf(stderr, "%s: ", argv0);
	vfprintf(stderr, fmt, ap);
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

void
weprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vweprintf(fmt, ap);
	va_end(ap);
}

void
eprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vweprintf(fmt, ap);
	va_end(ap);
	exit(MR_USAGE);
}

void *
emalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		eprintf("malloc:");
	return p;
}

void *
ecalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		eprintf("calloc:");
	return p;
}

void *
erealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		eprintf("realloc:");
	return p;
}

char *
estrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		eprintf("strdup:");
	return p;
}

char *
estrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		eprintf("strndup:");
	return p;
}

char *
esprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		eprintf("vasprintf:");
	va_end(ap);
	return s;
}

void
sb_addn(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = erealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
sb_add(struct strbuf *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

void
sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		eprintf("vasprintf:");
	sb_addn(b, s, (size_t)n);
	free(s);
}

void
sb_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

int
split(char *s, char sep, char **out, int max)
{
	int n = 0;

	if (max <= 0)
		return 0;
	out[n++] = s;
	for (; *s && n < max; s++) {
		if (*s == sep) {
			*s = '\0';
			out[n++] = s + 1;
		}
	}
	return n;
}

int
parse_ll(const char *s, long long *out)
{
	char *end;
	long long v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

int
parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || isnan(v))
		return -EINVAL;
	if (errno == ERANGE || isinf(v))
		return -ERANGE;
	*out = v;
	return 0;
}

int
mkdir_p(const char *dir)
{
	char *p = estrdup(dir), *q;
	int rc = 0;

	for (q = p + 1; ; q++) {
		char c = *q;

		if (c != '/' && c != '\0')
			continue;
		*q = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			rc = -errno;
			break;
		}
		*q = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

int
mr_mkdir_out(const char *dir)
{
	struct stat st;
	int rc = mkdir_p(dir);

	if (rc < 0)
		return rc;
	if (lstat(dir, &st) < 0)
		return -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

FILE *
mr_create_out(const char *path)
{
	FILE *f;
	int fd;

	if (unlink(path) < 0 && errno != ENOENT)
		return NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}


uint64_t
mr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int
mr_dotted_cmp(const char *a, const char *b)
{
	for (;;) {
		char *ea, *eb;
		unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);

		if (x != y)
			return x < y ? -1 : 1;
		if (*ea != '.' || *eb != '.')
			return (*ea == '.') - (*eb == '.');
		a = ea + 1;
		b = eb + 1;
	}
}

char *
mr_shipped_file(const char *tree, const char *installed)
{
	char buf[PATH_MAX], *slash, *p;
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	struct stat st;

	if (n <= 0)
		return esprintf("/usr/local/share/memrepro/%s", installed);
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) != NULL)
		*slash = '\0';
	p = esprintf("%s/../%s", buf, tree);
	if (stat(p, &st) == 0)
		return p;
	free(p);
	return esprintf("%s/../share/memrepro/%s", buf, installed);
}

static int
exec_file(const char *p)
{
	struct stat st;

	return access(p, X_OK) == 0 && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

char *
mr_which(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;

	if (strchr(name, '/'))
		return exec_file(name) ? estrdup(name) : NULL;
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = e + 1) {
		char *full;

		e = strchrnul(p, ':');
		full = esprintf("%.*s%s%s", (int)(e - p), p, e > p ? "/" : "./", name);
		if (exec_file(full))
			return full;
		free(full);
		if (!*e)
			return NULL;
	}
}
