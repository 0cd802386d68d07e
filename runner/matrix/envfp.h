/* envfp: the environment fingerprint written to env.tsv.
 *
 * Everything that changes memory figures between machines: kernel, libc,
 * arch, CPUs, memory, transparent huge pages, overcommit, the allocators'
 * versions, and the run's own settings.  "platform" condenses the parts
 * baselines are keyed by: <arch>-glibc<ver>-linux<major.minor>-thp_<setting>.
 */
#ifndef MR_ENVFP_H
#define MR_ENVFP_H

#include "matrix/alloc.h"
#include "proc/machine.h"

/* An ordered list of key/value pairs; values hold no tab or newline. */
struct mr_envfp {
	char **key;  /* owned */
	char **val;  /* owned */
	int n;
};

/* The run's settings, recorded with the machine's. */
struct mr_envfp_run {
	const char *profile;  /* "quick" or "full" */
	int repeat;
	int interval_ms;
	double timeout_s;     /* the default timeout, factor applied */
};

/* Collect the fingerprint; allocs: the run's allocators, resolved; m:
 * the machine's settings, read by the caller (each becomes a key of its
 * own, and m's thp goes into the platform). */
void mr_envfp_collect(struct mr_envfp *fp, const struct mr_envfp_run *run,
		      const struct mr_alloc_tab *allocs, const struct mr_machine *m);

/* Append key = val (tabs and newlines in val become blanks; "" becomes
 * "-").  Copies both. */
void mr_envfp_add(struct mr_envfp *fp, const char *key, const char *val);

/* The value of key, or NULL. */
const char *mr_envfp_get(const struct mr_envfp *fp, const char *key);

void mr_envfp_free(struct mr_envfp *fp);

#endif
