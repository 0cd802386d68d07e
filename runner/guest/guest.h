/* guest: the kernel axis — a session whose configs run under Debian's
 * kernels, each in a qemu guest on this machine (docs/kernels.md).
 *
 * `--axis kernel=5.10,6.12` names kernels as `memrepro fetch kernel@W`
 * does (release/kernel.h); `host`, the default, is no guest: the host's
 * runs go into the results directory as they always did.  The machine's
 * memory settings are axes of the guests only, set inside each by its
 * init before anything runs: `kernel.thp=always,madvise,never`,
 * `kernel.thp.defrag=`, `kernel.khugepaged.max_ptes_none=`,
 * `kernel.khugepaged.scan_sleep_millisecs=` (`thp=` stays the cases' own
 * parameter).  One guest per (kernel, settings): the runner itself runs
 * in it, on the other axes, into OUT/guests/N/results, which the host
 * then joins into OUT (guestmerge.h) with the guest's pairs in every
 * config.  A guest that never writes its end marker (it panicked, hung,
 * ran out of memory) gives its runs outcome failed with the console's
 * last line; every other run is kept.  Under TCG the runs' details say
 * accel tcg (runs.tsv) and their times are not figures.
 */
#ifndef MR_GUEST_H
#define MR_GUEST_H

#include "matrix/axis.h"
#include "session/session.h"

/* --profile kernels: the kernels and THP modes where no --axis names
 * them. */
#define MR_GUEST_KERNELS "5.10,6.1,6.12,7.2"
#define MR_GUEST_THPS "always,madvise"

/* ax with the kernels profile's axes added where it has none (a fresh
 * array of *nax axes, free it alone: the added axes' strings are
 * static, the others ax's). */
struct mr_matrix_axis *mr_guest_profile_axes(const struct mr_matrix_axis *ax, int nax, int *n);

/* Whether the axes name a guest: a kernel axis, or a kernel.* setting. */
int mr_guest_wanted(const struct mr_matrix_axis *ax, int nax);

/* Run o's session with its guests (o as mr_session_run takes it, its
 * then step run on the joined results).  Returns as mr_session_run;
 * MR_USAGE for a bad kernel axis, a setting without a guest kernel, or
 * a kernel no release has. */
int mr_guest_session(const struct mr_session_opts *o);

#endif
