/* guestmerge: a guest's results joined into the session's results
 * directory (guest/guest.h).
 *
 * The guest's runner wrote an ordinary results directory into its share
 * (OUT/guests/N/results); its configs do not know the guest, so each
 * row of runs.tsv, checkpoints.tsv and series.tsv is appended to OUT's
 * file with the guest's pairs (kernel=6.12,kernel.thp=always) put into
 * its config in key order, its log column made relative to OUT, its
 * accel column the guest's accelerator (tcg or kvm: under tcg the
 * readers take its times as not measured, check/values.c), and where the guest's
 * OOM killer killed the case, that said too.  Every (case, config,
 * repeat) the guest has no row for (it panicked, hung, never wrote its
 * marker) gets a row of its own: outcome failed with the guest's why,
 * its log the guest's console.  OUT gets all three files (a file no run
 * wrote: its header alone) and, when no run was on the host and the guest
 * left no env.tsv, one whose platform is MR_GUEST_NO_PLATFORM: check
 * reads the failed runs of such a guest (it was exit 2, "no such file").
 */
#ifndef MR_GUESTMERGE_H
#define MR_GUESTMERGE_H

#define MR_GUEST_NO_PLATFORM "unknown-the-guest-left-no-results"

/* A run the guest was to make. */
struct mr_guest_pair {
	const char *casename;
	const char *config; /* as the guest's runner writes it */
	int repeats;
};

struct mr_guest_merge {
	const char *out;     /* the session's results directory */
	const char *sub;     /* the guest's share, relative to out ("guests/1") */
	const char *frag;    /* the guest's pairs, "kernel=6.12,kernel.thp=always" */
	const char *accel;   /* "tcg" or "kvm" (runs.tsv's accel), or NULL: host */
	const struct mr_guest_pair *pairs;
	int npairs;
	const char *outcome; /* of the runs it has no row for: "failed", "skipped" */
	const char *why;     /* their detail */
	const char *oom;     /* the process the guest's OOM killer killed
	                        (its comm, from the console), or NULL: a run
	                        of a case of that name that crashed of
	                        SIGKILL gets oom_note in its detail */
	const char *oom_note;
};

/* Config c with the pairs of frag added, in key order (fresh). */
char *mr_guest_config(const char *c, const char *frag);

/* Merge as above.  The number of rows added for missing runs, or -1
 * (printed) when OUT's files cannot be written. */
int mr_guest_merge(const struct mr_guest_merge *m);

#endif
