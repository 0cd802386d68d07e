/* rmtree: see rmtree.h. */
#include "core/rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct walk {
	dev_t dev;     /* the tree's file system */
	long entries;  /* seen so far, against MR_RMTREE_ENTRIES */
	int err;       /* the first error, -errno */
};

static void
fail(struct walk *w, int e)
{
	if (!w->err)
		w->err = -e;
}

static void empty_dir(struct walk *w, int fd, int depth);

/* Remove name in the directory dfd (its lstat in st). */
static void
rm_entry(struct walk *w, int dfd, const char *name, const struct stat *st, int depth)
{
	int fd;

	if (!S_ISDIR(st->st_mode)) {
		if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
			fail(w, errno);
		return;
	}
	if (st->st_dev != w->dev) {
		fail(w, EXDEV);
		return;
	}
	if (depth >= MR_RMTREE_DEPTH) {
		fail(w, ELOOP);
		return;
	}
	if ((st->st_mode & 0700) != 0700) /* a link swapped in: not followed */
		(void)fchmodat(dfd, name, (st->st_mode & 07777) | 0700, AT_SYMLINK_NOFOLLOW);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		/* swapped for a link or a file since the lstat: not followed */
		if (errno == ENOTDIR || errno == ELOOP) {
			if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
				fail(w, errno);
		} else if (errno != ENOENT) {
			fail(w, errno);
		}
		return;
	}
	empty_dir(w, fd, depth + 1);
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		fail(w, errno);
}

/* Remove what the directory fd holds; fd is closed. */
static void
empty_dir(struct walk *w, int fd, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (!d) {
		fail(w, errno);
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (++w->entries > MR_RMTREE_ENTRIES) {
			fail(w, E2BIG);
			break;
		}
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				fail(w, errno);
			continue;
		}
		rm_entry(w, dirfd(d), de->d_name, &st, depth);
	}
	closedir(d);
}

int
mr_rmtree(const char *path)
{
	struct walk w = { 0 };
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	w.dev = st.st_dev;
	rm_entry(&w, AT_FDCWD, path, &st, 0);
	return w.err;
}
