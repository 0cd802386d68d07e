/* guestmem: a guest's memory (-m), sized from what its runs are expected
 * to take.
 *
 * MEMREPRO_GUEST_MEM_MIB when set.  Otherwise the largest expected peak
 * of the guest's runs (plan.h, mr_plan_peaks: the baseline of the
 * guest's own platform, arch-glibcV-linuxM.N-thp_MODE-cpu2, THP always
 * where the guest sets none: every Debian kernel's default) plus
 * MR_GUEST_MEM_OWN for the kernel, the runner and 9p's caches, rounded
 * up to 256 MiB; at least MR_GUEST_MEM_MIN; at most half of the memory
 * available now and MR_GUEST_MEM_MAX.  qemu's own RSS grows to the
 * guest's memory (no balloon), so the cap protects the host.
 */
#ifndef MR_GUESTMEM_H
#define MR_GUESTMEM_H

#include "core/util.h"
#include "proto/cases.h"
#include "matrix/matrix.h"

#define MR_GUEST_MEM_OWN 384   /* MiB */
#define MR_GUEST_MEM_MIN 1024  /* MiB */
#define MR_GUEST_MEM_MAX 8192  /* MiB */

/* The memory in MiB of a guest of kernel kup (its upstream version) with
 * THP mode thp (NULL: always) running the configs mats of cases; why
 * says how it was sized. */
long mr_guest_mem(const struct mr_cases_desc *cases, int ncases, const struct mr_matrix *mats,
		  const char *expected_dir, const char *kup, const char *thp, struct strbuf *why);

/* The value of the environment variable name, a whole number above 0
 * (MEMREPRO_GUEST_MEM_MIB, MEMREPRO_GUEST_TIMEOUT), 0 when unset;
 * guest/guest.c refuses (exit 2) one that is set to anything else. */
long mr_guest_env_long(const char *name);

#endif
