/* runout: a helper (xz, zstd, gzip, cat) run with its stdout into a
 * file: what the vmlinux and the modules of a kernel are decompressed
 * with (kextract.h, kmod.h).  Internal to release/. */
#ifndef MR_REL_RUNOUT_H
#define MR_REL_RUNOUT_H

#include "core/util.h"

/* Run argv with its stdout into the file out (created), stdin from
 * /dev/null, killed after timeout_s.  Its exit status (0..255), or -1
 * with why (could not run, killed). */
int mr_rel_run_out(char *const *argv, const char *out, long timeout_s, struct strbuf *why);

#endif
