/* files: small file and text helpers of the release sources (and of
 * matrix/'s runtimes, which fetch and build through them). */
#ifndef MR_REL_FILES_H
#define MR_REL_FILES_H

#include <stddef.h>

#include "core/util.h"

/* Write text into path through a temporary file and a rename; 0 or
 * -errno. */
int mr_rel_write_file(const char *path, const char *text);

/* Read a small file whole (at most max bytes) into b; 0 or -errno. */
int mr_rel_read_small(const char *path, size_t max, struct strbuf *b);

/* Copy src to dst (created, not existing); 0 or -errno. */
int mr_rel_copy_file(const char *src, const char *dst);

/* Whether s ends in suf. */
int mr_rel_has_suffix(const char *s, const char *suf);

/* The names in dir ending in suffix, sorted (at most 4096), into *names
 * (always allocated: free with mr_rel_free_names(*names, n < 0 ? 0 : n));
 * their number or -errno. */
int mr_rel_list_dir(const char *dir, const char *suffix, char ***names);
void mr_rel_free_names(char **names, int n);

/* "Field: value" lines (dpkg-deb -f, apt-cache show): the value of field
 * name on line (fresh), or NULL when the line is not that field. */
char *mr_rel_field(const char *line, const char *name);

#endif
