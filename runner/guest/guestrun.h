/* guestrun: one guest of a session (guest.h): its share, its run.sh (the
 * runner's command line inside), its initramfs, its boot, and its
 * results joined into the session's with its env.tsv keys.
 */
#ifndef MR_GUESTRUN_H
#define MR_GUESTRUN_H

#include "release/kernel.h"
#include "guest/guestmerge.h"
#include "session/session.h"

/* The machine's settings a guest takes (guest.h). */
#define MR_GUEST_NKNOB 4

struct mr_guest_group {
	int index;                 /* 1.. : OUT/guests/<index> */
	const char *kspec;         /* the kernel axis' value */
	const struct mr_kernel *k; /* NULL: cannot be had (kwhy) */
	const char *kwhy;
	char *frag;                /* "kernel=6.12,kernel.thp=always" */
	char *append;              /* "mr.thp=always": kernel command line */
	const char *thp;           /* its kernel.thp value, NULL: the kernel's */
	long mem_mib;              /* its memory (guestmem.h) */
	char *mem_why;             /* how that was sized */
};

/* Run group g's guest on the axes hax (the session's less the guest's)
 * and join its results into outdir.  MR_OK, or MR_FAILED when the guest
 * gave no marker or its runner failed. */
int mr_guest_run(const struct mr_session_opts *o, const struct mr_matrix_axis *hax, int nhax,
		 const char *outdir, const struct mr_guest_group *g,
		 const struct mr_guest_pair *pairs, int npairs);

#endif
