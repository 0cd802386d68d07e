/* upgrade: a claim across the versions in the results — the upgrade
 * table (claim x version: held, regressed, reproduces, does not
 * reproduce, skipped, undefined) and what a "reported since" claim did
 * at each version (docs/formats.md, "Versions in claims").
 */
#ifndef MR_UPGRADE_H
#define MR_UPGRADE_H

#include "check/claims.h"
#include "check/verdict.h"

/* The versions of cfg[0..n-1] (ver: theirs) into a fresh *out: those of
 * every allocator that has several, then the libcs when there are
 * several, then the kernels when there are several (the kernel table:
 * what MR_KEY_KERNEL), each old to new (a version not recorded last).
 * With all, an allocator, libc or kernel with one version has its
 * column too.  Returns how
 * many; free with mr_vd_cols_free. */
int mr_upgrade_cols(const struct mr_config *cfg, const struct mr_config_ver *ver,
		    int n, int all, struct mr_vd_col **out);

/* The word of r (the result of a claim of status holds, or reported)
 * at column col: over the combinations that took a config of that
 * version, as the claim's own verdict is over all of them;
 * MR_VD_NWORDS when none did. */
enum mr_vd_word mr_upgrade_cell(const struct mr_claim_result *r, int nref,
				int holds, const struct mr_config *cfg,
				const struct mr_vd_col *col);

/* What claim c (reported since NAME@V) did at each version of NAME in
 * cfg[0..n-1], against the report ("reproduces on jemalloc@5.2.1 (before
 * 5.3.0), as reported"), into a fresh *detail.  Returns how many of the
 * versions at or after V it reproduces at: news. */
int mr_upgrade_since(const struct mr_claim *c, const struct mr_claim_result *r,
		     const struct mr_config *cfg, const struct mr_config_ver *ver,
		     int n, char **detail);

#endif
