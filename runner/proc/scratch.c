/* scratch: see scratch.h. */
#include "proc/scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rmtree.h"
#include "core/util.h"
#include "proc/cgfs.h"

#define SCRATCH_TAG "tmp."
#define SWEEP_MAX 100000

const char *
mr_scratch_base(void)
{
	const char *t = getenv("TMPDIR");

	return t && t[0] == '/' ? t : "/tmp";
}

char *
mr_scratch_make(void)
{
	static int told;
	struct mr_cgfs_owner me;
	char *dir;

	if (mr_cgfs_owner_self(&me) < 0) {
		if (!told++)
			weprintf("runs keep the TMPDIR they inherit: no pid namespace or start time of the runner's in /proc");
		return NULL;
	}
	dir = esprintf("%s/" MR_CGFS_OWNER_FMT SCRATCH_TAG "XXXXXX", mr_scratch_base(), me.pid,
		       me.pidns, me.timens, me.start);
	if (!mkdtemp(dir)) {
		if (!told++)
			weprintf("runs keep the TMPDIR they inherit: mkdtemp %s:", dir);
		free(dir);
		return NULL;
	}
	return dir;
}

void
mr_scratch_remove(char *dir)
{
	int e;

	if (!dir)
		return;
	if ((e = mr_rmtree(dir)) < 0)
		weprintf("the run's TMPDIR %s: not all removed: %s", dir, strerror(-e));
	free(dir);
}

/* Is name a scratch directory's of a runner proved gone? */
static int
gone(const char *name)
{
	struct mr_cgfs_owner o;
	const char *rest;
	long pid;

	return mr_cgfs_owner_parse(name, &o, &rest) == 0 &&
	       strncmp(rest, SCRATCH_TAG, sizeof SCRATCH_TAG - 1) == 0 &&
	       mr_cgfs_owner_gone(name, &pid);
}

int
mr_scratch_sweep(void)
{
	const char *base = mr_scratch_base();
	DIR *d = opendir(base);
	struct dirent *de;
	int removed = 0, n = 0;

	while (d && n++ < SWEEP_MAX && (de = readdir(d)) != NULL) {
		struct stat st;
		char *path;

		/* ours first: another user's says nothing, costs nothing */
		if (strncmp(de->d_name, "memrepro-", 9) != 0 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || !gone(de->d_name))
			continue;
		path = esprintf("%s/%s", base, de->d_name);
		if (mr_rmtree(path) == 0)
			removed++;
		free(path);
	}
	if (d)
		closedir(d);
	if (removed)
		weprintf("removed %d temporary director%s left in %s by runners that are gone",
			 removed, removed == 1 ? "y" : "ies", base);
	return removed;
}
