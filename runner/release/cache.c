/* cache: unpacked entries and their manifests — see cache.h. */
#include "release/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safeio.h"
#include "core/rmtree.h"
#include "release/sha256.h"
#include "release/helper.h"

#define MANIFEST_MAX (8u << 20) /* bytes: libc6's manifest is ~30 kB */
#define TREE_MAX 100000         /* files in one entry */

char *
mr_rel_entry_dir(const char *cache, const char *package, const char *version)
{
	struct strbuf b = { 0 };
	const char *v;

	sb_printf(&b, "%s/pkgs/%s_", cache, package);
	for (v = version; *v; v++)
		if (*v == ':')
			sb_add(&b, "%3a");
		else
			sb_addn(&b, v, 1);
	return b.s;
}

void
mr_rel_manifest_free(struct mr_rel_manifest *m)
{
	free(m->release);
	free(m->package);
	free(m->version);
	free(m->deb);
	free(m->sha256);
	memset(m, 0, sizeof *m);
}

/* --- walking a tree (nftw has no context argument) -------------------- */

static struct {
	const char *base; /* the tree's root, to make paths relative */
	struct strbuf *text;
	struct strbuf *why;
	long nfiles;
	int err;
} walk;

static int
chmod_dir(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)f;
	if (type == FTW_D && (st->st_mode & 0700) != 0700)
		chmod(path, (st->st_mode & 07777) | 0700);
	return 0;
}

/* A path fit for a manifest line: no tab, no newline. */
static int
plain(const char *s)
{
	return !strpbrk(s, "\t\n\r");
}

static int
hash_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	const char *rel = path + strlen(walk.base) + 1;
	char hex[65];
	int e;

	(void)f;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	if (++walk.nfiles > TREE_MAX) {
		sb_printf(walk.why, "%s: over %d files", walk.base, TREE_MAX);
		return 1;
	}
	if (!plain(rel)) {
		sb_printf(walk.why, "%s: a file name with a tab or newline", walk.base);
		return 1;
	}
	if ((e = mr_sha256_file(path, hex)) < 0) {
		sb_printf(walk.why, "%s: %s", path, strerror(-e));
		return 1;
	}
	sb_printf(walk.text, "file\t%s\t%s\n", hex, rel);
	return 0;
}

/* --- the manifest ------------------------------------------------------ */

/* Read the manifest of entry into text (at most MANIFEST_MAX bytes);
 * 0 or -errno. */
static int
read_manifest(const char *entry, struct strbuf *text)
{
	char *path = esprintf("%s/%s", entry, MR_REL_MANIFEST), buf[8192];
	/* O_NONBLOCK: a FIFO in its place cannot block the open */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY), e = 0;
	struct stat st;

	free(path);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)MANIFEST_MAX) {
		close(fd);
		return -EINVAL;
	}
	while (text->len < MANIFEST_MAX) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e = errno;
		if (n <= 0)
			break;
		sb_addn(text, buf, (size_t)n);
	}
	close(fd);
	return -e;
}

/* A path a manifest may name: relative, its components neither empty,
 * "." nor "..". */
static int
inside(const char *rel)
{
	const char *p = rel;

	if (!*rel || *rel == '/')
		return 0;
	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

/* The sha256 of rel inside dir into hex: never a file outside dir, nor
 * through a symbolic link, only a regular file, and never blocking (a
 * FIFO), as the results readers open theirs (safeio.h).  0, or -1 with
 * "DIR/REL: WHY" in why. */
static int
hash_in(const char *dir, const char *rel, char hex[65], struct strbuf *why)
{
	char swhy[MR_SIO_WHY];
	int fd, e;

	if (!inside(rel)) {
		sb_printf(why, "%s/%s: not a path inside %s (absolute, or '..')", dir, rel, dir);
		return -1;
	}
	swhy[0] = '\0';
	if ((fd = mr_sio_open(dir, rel, 0, NULL, swhy)) < 0) {
		sb_printf(why, "%s/%s: %s", dir, rel, swhy[0] ? swhy : strerror(-fd));
		return -1;
	}
	e = mr_sha256_fd(fd, hex);
	close(fd);
	if (e < 0) {
		sb_printf(why, "%s/%s: %s", dir, rel, strerror(-e));
		return -1;
	}
	return 0;
}

/* A line of the manifest's head (f, its n fields) into m: 1 if it was one. */
static int
head_field(struct mr_rel_manifest *m, char **f, int n)
{
	char **to = NULL;

	if (n != 2)
		return 0;
	if (strcmp(f[0], "release") == 0)
		to = &m->release;
	else if (strcmp(f[0], "package") == 0)
		to = &m->package;
	else if (strcmp(f[0], "version") == 0)
		to = &m->version;
	else if (strcmp(f[0], "deb") == 0)
		to = &m->deb;
	else if (strcmp(f[0], "sha256") == 0)
		to = &m->sha256;
	if (!to)
		return 0;
	if (!*to)
		*to = estrdup(f[1]);
	return 1;
}

/* Each line of entry's manifest, comments and empty lines skipped, split
 * at tabs into f (n fields, at most 3): the head's into m, any other to
 * each(ctx, f, n) when each is set.  0 with m's head complete, or -1 (m
 * empty) when there is no manifest or its head lacks a field. */
static int
manifest_lines(const char *entry, struct mr_rel_manifest *m, void (*each)(void *ctx, char **f, int n),
	       void *ctx)
{
	struct strbuf text = { 0 };
	char *line, *next;

	memset(m, 0, sizeof *m);
	if (read_manifest(entry, &text) < 0 || !text.s) {
		sb_free(&text);
		return -1;
	}
	for (line = text.s; line && *line; line = next) {
		char *f[3] = { NULL, NULL, NULL };
		int n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		n = split(line, '\t', f, 3);
		if (!head_field(m, f, n) && each)
			each(ctx, f, n);
	}
	sb_free(&text);
	if (!m->release || !m->package || !m->version || !m->deb || !m->sha256) {
		mr_rel_manifest_free(m);
		return -1;
	}
	return 0;
}

int
mr_rel_entry_head(const char *entry, struct mr_rel_manifest *m)
{
	return manifest_lines(entry, m, NULL, NULL);
}

/* What verify's file lines found. */
struct files {
	const char *entry;
	struct strbuf *why;
	int rc;     /* MR_REL_ENTRY_OK, or _TREE at the first that differs */
	int nfiles; /* file lines */
};

/* A file line (file SHA256 PATH): PATH under the entry hashed, unless one
 * before it already differed. */
static void
file_line(void *ctx, char **f, int n)
{
	struct files *fs = ctx;
	char hex[65];

	if (n != 3 || strcmp(f[0], "file") != 0 || fs->rc != MR_REL_ENTRY_OK)
		return;
	fs->nfiles++;
	if (hash_in(fs->entry, f[2], hex, fs->why) < 0) {
		fs->rc = MR_REL_ENTRY_TREE;
	} else if (strcmp(hex, f[1])) {
		sb_printf(fs->why, "%s/%s: sha256 %s, the manifest says %s", fs->entry, f[2], hex, f[1]);
		fs->rc = MR_REL_ENTRY_TREE;
	}
}

int
mr_rel_entry_verify(const char *cache, const char *entry, struct mr_rel_manifest *m,
		    struct strbuf *why)
{
	struct files fs = { entry, why, MR_REL_ENTRY_OK, 0 };
	struct strbuf dwhy = { 0 };
	char hex[65], *deb;
	int rc;

	if (manifest_lines(entry, m, file_line, &fs) < 0)
		return MR_REL_ENTRY_NONE;
	if (!fs.nfiles) {
		mr_rel_manifest_free(m);
		return MR_REL_ENTRY_NONE;
	}
	rc = fs.rc;
	deb = esprintf("%s/%s", cache, m->deb);
	if (hash_in(cache, m->deb, hex, &dwhy) < 0)
		rc = MR_REL_ENTRY_DEB;
	else if (strcmp(hex, m->sha256)) {
		sb_printf(&dwhy, "%s: sha256 %s, the manifest says %s", deb, hex, m->sha256);
		rc = MR_REL_ENTRY_DEB;
	}
	if (dwhy.len)
		sb_printf(why, "%s%s", why->len ? "; " : "", dwhy.s);
	sb_free(&dwhy);
	free(deb);
	return rc;
}

/* --- unpack ------------------------------------------------------------- */

/* The inode of this process's pid namespace when /proc is that
 * namespace's own (its "self" is our pid), else 0: then no pid read
 * from a name can be looked up in it. */
static unsigned long
own_pidns(void)
{
	char self[32], want[32];
	struct stat st;
	ssize_t n = readlink("/proc/self", self, sizeof self - 1);

	if (n <= 0)
		return 0;
	self[n] = '\0';
	snprintf(want, sizeof want, "%ld", (long)getpid());
	if (strcmp(self, want) || stat("/proc/self/ns/pid", &st) < 0)
		return 0;
	return (unsigned long)st.st_ino;
}

char *
mr_rel_tmpname(const char *base, const char *kind, unsigned serial)
{
	return esprintf("%s.%s-%ld-p%lu-%u", base, kind, (long)getpid(), own_pidns(), serial);
}

/* Is name (a directory entry) BASE.tmp-PID-pNS-N or BASE.old-PID-pNS-N of
 * a process of pid namespace ns that is gone? */
static int
abandoned(const char *name, unsigned long ns)
{
	const char *t = strstr(name, ".tmp-"), *o = strstr(name, ".old-");
	const char *num = t ? t + 5 : o ? o + 5 : NULL;
	char *end, path[64];
	unsigned long pns;
	long pid;
	struct stat st;

	if (!num)
		return 0;
	pid = strtol(num, &end, 10);
	if (end == num || strncmp(end, "-p", 2) || pid <= 0)
		return 0;
	num = end + 2;
	pns = strtoul(num, &end, 10);
	if (end == num || *end != '-' || !end[1] ||
	    strspn(end + 1, "0123456789") != strlen(end + 1))
		return 0; /* not of mr_rel_tmpname's form: an older runner's, left */
	if (!ns || pns != ns)
		return 0; /* another pid namespace's: its pid means nothing here */
	snprintf(path, sizeof path, "/proc/%ld", pid);
	return stat(path, &st) < 0 && errno == ENOENT;
}

/* Remove what fetches that were killed left in dir: mr_rel_tmpname's
 * directories of processes of our pid namespace that are gone.  Only
 * /proc is looked at: no process is signalled.  A name made in another
 * pid namespace (a container sharing the cache), or before names carried
 * the namespace, is left: its pid cannot be looked up here. */
void
mr_rel_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned long ns = own_pidns();
	int n = 0;

	if (!d)
		return;
	while (n++ < 100000 && (de = readdir(d)) != NULL) {
		if (abandoned(de->d_name, ns)) {
			char *path = esprintf("%s/%s", dir, de->d_name);

			mr_rmtree(path);
			free(path);
		}
	}
	closedir(d);
}

int
mr_rel_entry_commit(const char *tmp, const char *entry, const char *old, const char *text,
		    struct strbuf *why)
{
	char *man = esprintf("%s/%s", tmp, MR_REL_MANIFEST);
	FILE *f = fopen(man, "wx");
	int e = !f || fputs(text, f) < 0;

	if (f && fclose(f) != 0)
		e = 1;
	if (e) {
		sb_printf(why, "write %s: %s", man, strerror(errno));
		free(man);
		return -1;
	}
	free(man);
	/* into place in one step: an older entry (one that did not verify)
	 * exchanged with the new one, so that a kill leaves one or the
	 * other, whole (what is left under tmp, a sweep removes) */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, entry, RENAME_EXCHANGE) == 0) {
		mr_rmtree(tmp);
		return 0;
	}
	if (errno != ENOENT && errno != EINVAL && errno != ENOSYS) {
		sb_printf(why, "rename %s to %s: %s", tmp, entry, strerror(errno));
		return -1;
	}
	/* none there, or a file system that cannot exchange: moved aside
	 * first, then removed by the caller */
	if (rename(entry, old) < 0 && errno != ENOENT) {
		sb_printf(why, "rename %s: %s", entry, strerror(errno));
		return -1;
	}
	if (rename(tmp, entry) < 0) {
		sb_printf(why, "rename %s to %s: %s", tmp, entry, strerror(errno));
		return -1;
	}
	return 0;
}

int
mr_rel_entry_unpack(const char *cache, const char *entry, const struct mr_rel_manifest *m,
		    struct strbuf *why)
{
	static unsigned serial;
	char *tmp = mr_rel_tmpname(entry, "tmp", serial),
	     *old = mr_rel_tmpname(entry, "old", serial),
	     *deb = esprintf("%s/%s", cache, m->deb);
	const char *argv[] = { "dpkg-deb", "-x", deb, tmp, NULL };
	struct strbuf out = { 0 }, text = { 0 }, err = { 0 };
	int rc = -1, e;

	serial++;
	if (!plain(m->deb) || !plain(m->release) || !plain(m->package) || !plain(m->version)) {
		sb_printf(why, "%s: a name with a tab or newline", deb);
		goto out;
	}
	mr_rmtree(tmp);
	if ((e = mkdir_p(tmp)) < 0) {
		sb_printf(why, "cache %s: %s", tmp, strerror(-e));
		goto out;
	}
	if (mr_rel_helper(NULL, argv, NULL, MR_REL_T_UNPACK, 1, &out, &err) < 0) {
		sb_printf(why, "unpack %s: %s", deb, err.s);
		goto out;
	}
	nftw(tmp, chmod_dir, 16, FTW_PHYS);
	sb_printf(&text,
		  "# memrepro cache entry: the .deb and every regular file unpacked from it\n"
		  "release\t%s\npackage\t%s\nversion\t%s\ndeb\t%s\nsha256\t%s\n",
		  m->release, m->package, m->version, m->deb, m->sha256);
	walk.base = tmp;
	walk.text = &text;
	walk.why = why;
	walk.nfiles = 0;
	if (nftw(tmp, hash_one, 16, FTW_PHYS) != 0) {
		if (!why->len)
			sb_printf(why, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (mr_rel_entry_commit(tmp, entry, old, text.s, why) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		mr_rmtree(tmp);
	mr_rmtree(old);
	sb_free(&out);
	sb_free(&err);
	sb_free(&text);
	free(tmp);
	free(old);
	free(deb);
	return rc;
}
