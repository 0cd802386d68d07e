/* dirsrc: the directory source of release packages (MEMREPRO_RELEASES)
 * — see dirsrc.h. */
#include "release/dirsrc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "release/files.h"
#include "release/helper.h"
#include "release/releases.h"
#include "release/sha256.h"

int
mr_rel_dir_index(const char *src, int rel, const char *package, struct mr_rel_index *ix,
		 struct strbuf *why)
{
	char *dir = esprintf("%s/%s", src, mr_release_name(rel)), **names;
	int n = mr_rel_list_dir(dir, ".deb", &names), i;

	if (n == -ENOENT) {
		free(names);
		free(dir);
		return 0; /* the release has nothing */
	}
	if (n < 0) {
		sb_printf(why, "MEMREPRO_RELEASES: %s: %s", dir, strerror(-n));
		free(names);
		free(dir);
		return -1;
	}
	for (i = 0; i < n && ix->n < MR_REL_CAND_MAX; i++) {
		char *deb = esprintf("%s/%s", dir, names[i]), *pkg = NULL, *ver = NULL, hex[65];
		const char *argv[] = { "dpkg-deb", "-f", deb, "Package", "Version", NULL };
		struct strbuf out = { 0 }, err = { 0 };
		const char *p;

		if (mr_rel_helper(NULL, argv, NULL, MR_REL_T_QUERY, 1, &out, &err) < 0) {
			sb_printf(why, "%s: %s", deb, err.s);
			sb_free(&out);
			sb_free(&err);
			free(deb);
			mr_rel_free_names(names, n);
			free(dir);
			return -1;
		}
		for (p = out.s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			if (!pkg)
				pkg = mr_rel_field(p, "Package");
			if (!ver)
				ver = mr_rel_field(p, "Version");
		}
		if (pkg && ver && strcmp(pkg, package) == 0 && mr_sha256_file(deb, hex) == 0) {
			ix->c[ix->n].version = ver;
			ix->c[ix->n].sha256 = estrdup(hex);
			ix->c[ix->n].path = deb;
			ix->n++;
			ver = NULL;
			deb = NULL;
		}
		free(pkg);
		free(ver);
		free(deb);
		sb_free(&out);
		sb_free(&err);
	}
	mr_rel_free_names(names, n);
	free(dir);
	return 0;
}
