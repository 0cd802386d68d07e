#include "core/tsv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safeio.h"
#include "core/util.h"

void
mr_verrat(const char *path, long line, long col, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (line <= 0)
		fprintf(stderr, "%s: ", path);
	else if (col <= 0)
		fprintf(stderr, "%s:%ld: ", path, line);
	else
		fprintf(stderr, "%s:%ld:%ld: ", path, line, col);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
mr_errat(const char *path, long line, long col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mr_verrat(path, line, col, fmt, ap);
	va_end(ap);
}

/* Read one line into t->buf without its "\n" (or "\r\n").  Returns its
 * length, -1 at the end of the file, -2 on an error (printed). */
static long
readline(struct mr_tsv *t)
{
	ssize_t n;

	errno = 0;
	n = getline(&t->buf, &t->cap, t->f);
	if (n < 0) {
		if (errno && !feof(t->f)) {
			mr_errat(t->path, t->line + 1, 0, "read: %s", strerror(errno));
			return -2;
		}
		return -1;
	}
	t->line++;
	/* A writer always ends a line: one without its newline at the end of
	 * the file is a write that did not finish, and its last field may be
	 * cut short, so it is never read as a row. */
	if (t->buf[n - 1] != '\n') {
		mr_errat(t->path, t->line, (long)n + 1,
			 "line cut short (no newline at the end of the file)");
		return -2;
	}
	t->buf[--n] = '\0';
	if (n > 0 && t->buf[n - 1] == '\r')
		t->buf[--n] = '\0';
	if ((size_t)n != strlen(t->buf)) {
		mr_errat(t->path, t->line, (long)strlen(t->buf) + 1,
			 "NUL byte in a text file");
		return -2;
	}
	return (long)n;
}

/* Split t->buf at tabs into a fresh array; returns the field count. */
static int
splitfields(char *s, char ***fields, int **cols)
{
	int n = 1, i = 0;
	char *p;

	for (p = s; *p; p++)
		if (*p == '\t')
			n++;
	*fields = erealloc(*fields, sizeof **fields * n);
	*cols = erealloc(*cols, sizeof **cols * n);
	(*fields)[0] = s;
	(*cols)[0] = 1;
	for (p = s; *p; p++) {
		if (*p == '\t') {
			*p = '\0';
			i++;
			(*fields)[i] = p + 1;
			(*cols)[i] = (int)(p + 1 - s) + 1;
		}
	}
	return n;
}

/* Read the header of t->f, opened; 0 or -1 (printed, t closed). */
static int
start(struct mr_tsv *t, const char *path)
{
	long n;
	int i, j;

	t->path = estrdup(path);
	for (;;) {
		n = readline(t);
		if (n == -2)
			goto fail;
		if (n == -1) {
			mr_errat(t->path, t->line + 1, 1,
				 "expected a header row, got the end of the file");
			goto fail;
		}
		if (t->buf[0] != '#')
			break;
		t->comments = erealloc(t->comments,
				       sizeof *t->comments * (t->ncomments + 1));
		t->comments[t->ncomments++] =
			estrdup(t->buf + 1 + (t->buf[1] == ' '));
	}
	t->ncols = splitfields(t->buf, &t->field, &t->fcol);
	t->cols = ecalloc(t->ncols, sizeof *t->cols);
	for (i = 0; i < t->ncols; i++)
		t->cols[i] = estrdup(t->field[i]);
	for (i = 0; i < t->ncols; i++) {
		if (!t->cols[i][0]) {
			mr_errat(t->path, t->line, t->fcol[i],
				 "empty column name in the header");
			goto fail;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(t->cols[i], t->cols[j])) {
				mr_errat(t->path, t->line, t->fcol[i],
					 "column %s named twice in the header",
					 t->cols[i]);
				goto fail;
			}
		}
	}
	return 0;
fail:
	mr_tsv_close(t);
	return -1;
}

int
mr_tsv_open(struct mr_tsv *t, const char *path)
{
	memset(t, 0, sizeof *t);
	t->f = fopen(path, "r");
	if (!t->f) {
		int e = errno;

		if (e == ENOENT)
			return -ENOENT;
		mr_errat(path, 0, 0, "cannot open: %s", strerror(e));
		return -1;
	}
	return start(t, path);
}

int
mr_tsv_open_in(struct mr_tsv *t, const char *dir, const char *rel, off_t cap)
{
	char *path;
	int rc;

	memset(t, 0, sizeof *t);
	t->f = mr_sio_fopen(dir, rel, cap);
	if (!t->f)
		return errno == ENOENT ? -ENOENT : -1;
	path = mr_sio_path(dir, rel);
	rc = start(t, path);
	free(path);
	return rc;
}

int
mr_tsv_col(const struct mr_tsv *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	return -1;
}

int
mr_tsv_need(const struct mr_tsv *t, const char *name)
{
	int i = mr_tsv_col(t, name);

	if (i < 0)
		mr_errat(t->path, t->ncomments + 1, 1, "missing column %s", name);
	return i;
}

int
mr_tsv_next(struct mr_tsv *t)
{
	long n = readline(t);
	int nf;

	if (n == -1)
		return 0;
	if (n == -2)
		return -1;
	nf = splitfields(t->buf, &t->field, &t->fcol);
	if (nf != t->ncols) {
		long col = nf > t->ncols ? t->fcol[t->ncols] : n + 1;

		mr_errat(t->path, t->line, col,
			 "expected %d tab-separated fields as in the header, got %d%s",
			 t->ncols, nf, n == 0 ? " (an empty line)" : "");
		/* Keep field[] at ncols entries for later callers. */
		t->field = erealloc(t->field, sizeof *t->field * t->ncols);
		t->fcol = erealloc(t->fcol, sizeof *t->fcol * t->ncols);
		return -1;
	}
	return 1;
}

const char *
mr_tsv_get(const struct mr_tsv *t, int col)
{
	return t->field[col];
}

int
mr_tsv_err(const struct mr_tsv *t, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mr_verrat(t->path, t->line, col >= 0 ? t->fcol[col] : 1, fmt, ap);
	va_end(ap);
	return -1;
}

int
mr_tsv_num(const struct mr_tsv *t, int col, int dash_ok, double *out)
{
	const char *s = t->field[col];

	if (dash_ok && !strcmp(s, "-")) {
		*out = NAN;
		return 0;
	}
	/* strtod alone would also take " 5", "0x10" and "inf". */
	if (strspn(s, "0123456789.eE+-") != strlen(s) || parse_double(s, out) < 0)
		return mr_tsv_err(t, col, "expected a number in column %s, got \"%s\"",
				  t->cols[col], s);
	return 0;
}

int
mr_tsv_int(const struct mr_tsv *t, int col, long long min, long long max,
	   long long *out)
{
	const char *s = t->field[col];

	if (parse_ll(s, out) < 0)
		return mr_tsv_err(t, col,
				  "expected an integer in column %s, got \"%s\"",
				  t->cols[col], s);
	if (*out < min || *out > max)
		return mr_tsv_err(t, col,
				  "%s %s out of range (%lld..%lld)",
				  t->cols[col], s, min, max);
	return 0;
}

void
mr_tsv_close(struct mr_tsv *t)
{
	int i;

	if (t->f)
		fclose(t->f);
	for (i = 0; t->cols && i < t->ncols; i++)
		free(t->cols[i]);
	for (i = 0; i < t->ncomments; i++)
		free(t->comments[i]);
	free(t->comments);
	free(t->cols);
	free(t->field);
	free(t->fcol);
	free(t->buf);
	free(t->path);
	memset(t, 0, sizeof *t);
}

int
mr_read_text(const char *path, size_t max, const char *what, struct strbuf *out)
{
	struct strbuf b = {0};
	char chunk[8192];
	struct stat st;
	ssize_t n;
	int fd;

	/* O_NONBLOCK: a FIFO in its place must not hang the open. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		mr_errat(path, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		mr_errat(path, 0, 0, "not a regular file");
		close(fd);
		return -1;
	}
	sb_add(&b, "");
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			mr_errat(path, 0, 0, "read: %s", strerror(errno));
			close(fd);
			sb_free(&b);
			return -1;
		}
		sb_addn(&b, chunk, (size_t)n);
		if (b.len > max) {
			mr_errat(path, 0, 0, "larger than %zu KiB (the limit of a %s)",
				 max >> 10, what);
			close(fd);
			sb_free(&b);
			return -1;
		}
	}
	close(fd);
	if (strlen(b.s) != b.len) {
		size_t off = strlen(b.s), bol = 0, i;
		long line = 1;

		for (i = 0; i < off; i++)
			if (b.s[i] == '\n')
				line++, bol = i + 1;
		mr_errat(path, line, (long)(off - bol) + 1, "NUL byte in a text file");
		sb_free(&b);
		return -1;
	}
	*out = b;
	return 0;
}
