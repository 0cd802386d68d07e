/* files: small file and text helpers of the release sources — see
 * files.h. */
#include "release/files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEBS 4096        /* .deb files read from one directory-source release */

/* Write text into path through a temporary file and a rename. */
int
mr_rel_write_file(const char *path, const char *text)
{
	char *tmp = esprintf("%s.tmp%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644), e = 0;
	size_t len = strlen(text), off = 0;

	if (fd < 0) {
		e = errno;
		free(tmp);
		return -e;
	}
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : EIO;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e)
		unlink(tmp);
	free(tmp);
	return -e;
}

/* Read a small file whole (at most max bytes) into b; 0 or -errno. */
int
mr_rel_read_small(const char *path, size_t max, struct strbuf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[4096];

	if (fd < 0)
		return -errno;
	while (b->len < max) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb_addn(b, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

/* Copy src to dst (created, not existing); 0 or -errno. */
int
mr_rel_copy_file(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out, e = 0;
	char buf[65536];
	struct stat st;
	off_t done = 0;

	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(in);
		return -EINVAL;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (out < 0) {
		e = errno;
		close(in);
		return -e;
	}
	while (done < st.st_size) {
		ssize_t n = read(in, buf, sizeof buf), w, off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			break;
		}
		while (off < n) {
			w = write(out, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				e = w < 0 ? errno : EIO;
				break;
			}
			off += w;
		}
		if (e)
			break;
		done += n;
	}
	close(in);
	if (close(out) < 0 && !e)
		e = errno;
	return -e;
}

int
mr_rel_has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir ending in suffix, sorted (at most MAX_DEBS), into
 * *names (always allocated: free with mr_rel_free_names(*names, n < 0 ? 0 : n));
 * their number or -errno. */
int
mr_rel_list_dir(const char *dir, const char *suffix, char ***names)
{
	DIR *d;
	struct dirent *de;
	int n = 0;

	*names = ecalloc(MAX_DEBS, sizeof **names);
	if (!(d = opendir(dir)))
		return errno > 0 ? -errno : -EIO;
	while (n < MAX_DEBS && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.' && mr_rel_has_suffix(de->d_name, suffix))
			(*names)[n++] = estrdup(de->d_name);
	closedir(d);
	qsort(*names, (size_t)n, sizeof **names, cmp_str);
	return n;
}

void
mr_rel_free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* "Field: value" lines of out: the value of field on line p (fresh), or
 * NULL. */
char *
mr_rel_field(const char *line, const char *name)
{
	size_t n = strlen(name);
	const char *e;

	if (strncmp(line, name, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ')
		line++;
	e = strchr(line, '\n');
	return estrndup(line, e ? (size_t)(e - line) : strlen(line));
}
