/* regparse: the allocator registry's files (docs/formats.md,
 * "Allocators") and --alloc NAME=PATH|SONAME, read into a registry
 * (registry.h).
 */
#ifndef MR_REGPARSE_H
#define MR_REGPARSE_H

#include "core/util.h"
#include "matrix/registry.h"

/* The shipped file beside the runner: exe_dir/../etc/allocators in the
 * build tree, else exe_dir/../share/memrepro/allocators (make install).
 * Fresh string. */
char *mr_registry_default_file(const char *exe_dir);

/* Load the shipped file (must exist), then the user's
 * ${XDG_CONFIG_HOME:-$HOME/.config}/memrepro/allocators (when it exists),
 * then user_file (when not NULL; must exist).  Later entries replace
 * earlier ones of the same name.  r is zeroed first.  Returns 0, or -1
 * with "FILE:LINE:COL: message" (or "FILE: reason") in err; r holds what
 * was read and must be freed either way. */
int mr_registry_load(struct mr_registry *r, const char *shipped,
		     const char *user_file, struct strbuf *err);

/* Parse one file's text (name: for messages and origins) into r, replacing
 * entries of the same name.  Returns 0 or -1 with err as above.  For
 * mr_registry_load and the fuzz target. */
int mr_registry_parse(struct mr_registry *r, const char *name, const char *text,
		      struct strbuf *err);

/* --alloc NAME=PATH|SONAME: set the library of entry NAME (its package
 * dropped: the user's library is not the package's; its options and
 * place in the default axis kept), or add a new entry (no package, no
 * options, not in the default axis).  A path (with '/') must be a
 * readable file.  Returns 0, or -1 with a message naming arg in err. */
int mr_registry_set(struct mr_registry *r, const char *arg, struct strbuf *err);

/* Non-zero when s can be given to LD_PRELOAD as one library: no ':',
 * blank or control character, not empty. */
int mr_alloc_valid_soname(const char *s);

#endif
